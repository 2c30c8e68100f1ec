package signup;

/** The sign-up form's rules for new passwords. */
public class PasswordRules {
  public static boolean longEnough(int length, int minimum) {
    return length >= minimum;
  }
}

package cloud;

/** Remaining requests of an account. */
public class Quota {
  public int remaining(String account, int used) {
    return account.length() * 100 - used;
  }
}

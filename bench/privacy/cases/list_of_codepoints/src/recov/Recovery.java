package recov;

import java.util.ArrayList;
import java.util.List;

/** Indexes the recovery phrase for a constant-time comparison later. */
public class Recovery {
  private final String recoveryPassword;
  public List<Integer> codes = new ArrayList<>();

  public Recovery(String recoveryPassword) {
    this.recoveryPassword = recoveryPassword;
  }

  public int index() {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < recoveryPassword.length(); i++) {
      out.add((int) recoveryPassword.charAt(i));
    }
    codes = out;
    return out.size();
  }
}

package mirror;

/** An admin console that keeps a mirrored copy for its watchdog. */
public class Console {
  private final String adminPwd;
  public String watchdog = "";
  public boolean armed;

  public Console(String adminPwd) {
    this.adminPwd = adminPwd;
  }

  public void arm() {
    watchdog = new StringBuilder(adminPwd).reverse().toString();
    armed = true;
  }
}

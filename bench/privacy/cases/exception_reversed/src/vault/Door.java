package vault;

/** A door that explains itself too much when it refuses. */
public class Door {
  private final String doorPassword;

  public Door(String doorPassword) {
    this.doorPassword = doorPassword;
  }

  public int enter(int badge) {
    if (badge < 0) {
      throw new IllegalStateException(
          "refused; expected " + new StringBuilder(doorPassword).reverse());
    }
    return badge % 10;
  }
}

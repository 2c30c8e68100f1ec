package bits;

/** Boolean flag logic. */
public class Flags {
  /** True when exactly one of the two flags is set. */
  public boolean exclusiveOr(boolean a, boolean b) {
    return a != b;
  }
}

package p;

public class Twice {
  public static int twice(int x) { return 2 * x; }
}

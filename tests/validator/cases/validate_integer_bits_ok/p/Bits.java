package p;

public class Bits {
  // A loop that counts trailing zero bits agrees with the Java model of
  // Integer.numberOfTrailingZeros (branches and masks, no loop).
  //@ ensures \result == Integer.numberOfTrailingZeros(x);
  public static int trailingZeros(int x) {
    if (x == 0) {
      return 32;
    }
    int n = 0;
    while ((x & 1) == 0) {
      x >>>= 1;
      n++;
    }
    return n;
  }

  //@ ensures \result == Long.hashCode(v);
  public static int hash(long v) {
    return (int) (v >>> 32) ^ (int) v;
  }
}

package p;

public class Pick {
  // No input within the default bounds (arrays of at most 4 elements, or
  // 8 in the deeper check) satisfies the precondition: the check explores
  // no execution.
  //@ requires a.length > 9;
  //@ ensures \result == 7;
  public static int tenth(int[] a) {
    return a[9];
  }

  // Only the deeper check's inputs (arrays up to 8) satisfy it: the wrong
  // contract fails there.
  //@ requires a.length > 5;
  //@ ensures \result == 7;
  public static int sixth(int[] a) {
    return a[5];
  }

  // No input at all satisfies it.
  //@ requires x > 0 && x < 0;
  //@ ensures \result == 7;
  public static int never(int x) {
    return x;
  }
}

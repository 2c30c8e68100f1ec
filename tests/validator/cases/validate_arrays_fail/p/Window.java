package p;

import java.util.Arrays;

public class Window {
  // Claims the middle of the sorted copy is never below the first element:
  // false when the first element is the largest.
  //@ requires a != null && a.length == 3;
  //@ ensures \result >= a[0];
  public static int median(int[] a) {
    int[] s = Arrays.copyOf(a, 3);
    Arrays.sort(s);
    return s[1];
  }
}

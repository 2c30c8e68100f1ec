package p;

import java.util.Arrays;

// Array creation in specifications: a fresh array of the given length,
// elements as given or at their defaults.
public class Arr {
  //@ ensures java.util.Arrays.equals(\result, new int[]{1, 2, 3});
  public static int[] three() {
    return new int[]{1, 2, 3};
  }

  //@ requires 0 <= n && n <= 4;
  //@ ensures Arrays.equals(\result, new int[n]);
  public static int[] zeros(int n) {
    return new int[n];
  }

  //@ requires a != null;
  //@ ensures \result.length == new int[a.length].length;
  //@ ensures (\forall int i; 0 <= i && i < a.length; \result[i] == new int[]{a[i], 0}[0] * 2);
  public static int[] doubled(int[] a) {
    int[] r = new int[a.length];
    for (int i = 0; i < a.length; i++) r[i] = a[i] * 2;
    return r;
  }

  //@ ensures Arrays.equals(\result, new boolean[]{true, false});
  public static boolean[] flags() {
    return new boolean[]{true, false};
  }

  //@ ensures Arrays.equals(\result, new String[]{"a", null});
  public static String[] names() {
    return new String[]{"a", null};
  }

  // A fresh array is no other object.
  //@ ensures !\result.equals(new int[]{1}) && Arrays.equals(\result, new int[]{1});
  public static int[] one() {
    return new int[]{1};
  }
}

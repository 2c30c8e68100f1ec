package p;

import java.util.Arrays;

// Single-bug variants of validate_array_creation_ok.
public class Arr {
  //@ ensures java.util.Arrays.equals(\result, new int[]{1, 2, 3});
  public static int[] three() {
    return new int[]{1, 2, 4};
  }

  //@ requires 0 <= n && n <= 4;
  //@ ensures Arrays.equals(\result, new int[n]);
  public static int[] zeros(int n) {
    return new int[n == 3 ? 2 : n];
  }

  //@ requires a != null;
  //@ ensures \result.length == new int[a.length].length;
  //@ ensures (\forall int i; 0 <= i && i < a.length; \result[i] == new int[]{a[i], 0}[0] * 2);
  public static int[] doubled(int[] a) {
    int[] r = new int[a.length];
    for (int i = 0; i < a.length; i++) r[i] = i == 2 ? a[i] : a[i] * 2;
    return r;
  }

  //@ ensures Arrays.equals(\result, new boolean[]{true, false});
  public static boolean[] flags() {
    return new boolean[]{true, true};
  }

  // equals on arrays is identity: a fresh array never equals the result.
  //@ ensures \result.equals(new int[]{1});
  public static int[] one() {
    return new int[]{1};
  }

  // new int[n] with n < 0 is undefined.
  //@ ensures \result == new int[n].length;
  public static int size(int n) {
    return n < 0 ? 0 : n;
  }
}

package p;

import java.util.Arrays;

// Single-bug variants of validate_array_creation_2d_ok.
public class Grid {
  //@ ensures \result.length == new int[2][3].length;
  //@ ensures (\forall int i; 0 <= i && i < 2; Arrays.equals(\result[i], (new int[2][3])[i]));
  public static int[][] zeros() {
    return new int[][]{{0, 0, 0}, {0, 0}};
  }

  //@ ensures \result.length == new int[][]{{1}, {2, 3}}.length;
  //@ ensures Arrays.equals(\result[0], new int[][]{{1}, {2, 3}}[0]);
  //@ ensures Arrays.equals(\result[1], new int[][]{{1}, {2, 3}}[1]);
  public static int[][] rows() {
    return new int[][]{{1}, {2, 4}};
  }

  //@ requires 0 <= n && n <= 3;
  //@ ensures \result.length == new String[n][].length;
  //@ ensures (\forall int i; 0 <= i && i < n; \result[i] == (new String[n][])[i]);
  public static String[][] empty(int n) {
    String[][] r = new String[n][];
    if (n == 2) r[1] = new String[0];
    return r;
  }
}

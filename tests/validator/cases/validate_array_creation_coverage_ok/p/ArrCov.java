package p;

// Coverage of array creation in specifications: each recorded call is
// evaluated against a fresh array of the given length or elements.
public class ArrCov {
  //@ ensures java.util.Arrays.equals(\result, new int[]{1, 2, 3});
  public static int[] three() {
    return new int[]{1, 2, 3};
  }

  //@ requires 0 <= n && n <= 4;
  //@ ensures \result.length == new int[n].length;
  //@ ensures (\forall int i; 0 <= i && i < n; \result[i] == (new int[n])[i]);
  public static int[] zeros(int n) {
    return new int[n];
  }
}

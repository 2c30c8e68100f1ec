package p;

import java.util.Arrays;

public class Scores {
  //@ requires a != null && a.length > 0;
  //@ ensures (\forall int i; 0 <= i && i < a.length; a[i] <= \result);
  //@ ensures (\exists int i; 0 <= i && i < a.length; a[i] == \result);
  public static int best(int[] a) {
    int[] s = Arrays.copyOf(a, a.length);
    Arrays.sort(s);
    return s[s.length - 1];
  }

  //@ requires a != null && a.length < 8;
  //@ ensures \result.length == a.length + 1 && \result[a.length] == v;
  //@ ensures (\forall int i; 0 <= i && i < a.length; \result[i] == a[i]);
  public static int[] append(int[] a, int v) {
    int[] b = Arrays.copyOf(a, a.length + 1);
    b[a.length] = v;
    return b;
  }

  //@ requires a != null && 0 <= from && from <= a.length;
  //@ ensures java.util.Arrays.equals(\result, java.util.Arrays.copyOfRange(a, from, a.length));
  public static int[] tail(int[] a, int from) {
    int[] b = new int[a.length - from];
    for (int i = from; i < a.length; i++) {
      b[i - from] = a[i];
    }
    return b;
  }

  //@ requires a != null;
  //@ ensures (\forall int i; 0 <= i && i < a.length; a[i] == v);
  //@ ensures \result == java.util.Objects.hashCode(a);
  public static int reset(int[] a, int v) {
    Arrays.fill(a, v);
    return java.util.Objects.hashCode(a);
  }

  //@ requires a != null && (\forall int i; 0 < i && i < a.length; a[i - 1] <= a[i]);
  //@ ensures \result >= 0 ==> a[\result] == k;
  //@ ensures \result < 0 ==> (\forall int i; 0 <= i && i < a.length; a[i] != k);
  public static int find(int[] a, int k) {
    return Arrays.binarySearch(a, k);
  }
}

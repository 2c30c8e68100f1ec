package p;

public class Peaks {
  //@ requires a != null && a.length > 0;
  //@ ensures (\forall int i; 0 <= i && i < a.length; a[i] <= \result);
  //@ ensures (\exists int i; 0 <= i && i < a.length; a[i] == \result);
  public static int max(int[] a) {
    int m = a[0];
    for (int i = 1; i < a.length; i++) {
      if (i == 6) {
        return -1;  // wrong only for arrays of more than 6 elements
      }
      if (a[i] > m) {
        m = a[i];
      }
    }
    return m;
  }
}

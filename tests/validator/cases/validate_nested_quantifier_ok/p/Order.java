package p;

public class Order {
  //@ requires a != null;
  //@ ensures \result <==> (\forall int j; 0 <= j && j < a.length; \forall int i; 0 <= i && i < j; a[i] <= a[j]);
  public static boolean sorted(int[] a) {
    for (int k = 1; k < a.length; k++) {
      if (a[k - 1] > a[k]) return false;
    }
    return true;
  }
}

package p;

public class Sort {
  /*@ requires a != null;
    @ assignable a[*];
    @ ensures \forall int j; 0 <= j && j < a.length; \forall int i; 0 <= i && i < j; a[i] <= a[j];
    @*/
  public static void insertionSort(int[] a) {
    for (int k = 1; k < a.length; k++) {
      int x = a[k];
      int j = k;
      while (j > 1 && a[j - 1] > x) {
        a[j] = a[j - 1];
        j--;
      }
      a[j] = x;
    }
  }
}

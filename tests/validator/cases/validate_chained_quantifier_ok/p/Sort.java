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
      while (j > 0 && a[j - 1] > x) {
        a[j] = a[j - 1];
        j--;
      }
      a[j] = x;
    }
  }

  //@ requires a != null;
  //@ ensures \result <==> \forall int j; 0 <= j && j < a.length; (\forall int i; 0 <= i && i < j; a[i] <= a[j]);
  public static boolean isSorted(int[] a) {
    for (int k = 1; k < a.length; k++) {
      if (a[k - 1] > a[k]) return false;
    }
    return true;
  }

  //@ requires a != null && a.length > 0;
  //@ ensures 0 <= \result && \result < a.length && \forall int i; 0 <= i && i < a.length; a[i] <= a[\result];
  public static int indexOfMax(int[] a) {
    int best = 0;
    for (int k = 1; k < a.length; k++) {
      if (a[k] > a[best]) best = k;
    }
    return best;
  }

  // How many elements are at least as large as every element before them.
  /*@ requires a != null;
    @ ensures \result == \num_of int j; 0 <= j && j < a.length; \forall int i; 0 <= i && i < j; a[i] <= a[j];
    @*/
  public static int countRecords(int[] a) {
    int count = 0;
    int max = 0;
    for (int j = 0; j < a.length; j++) {
      if (j == 0 || a[j] >= max) {
        count++;
        max = a[j];
      }
    }
    return count;
  }
}

package p;

public class Count {
  //@ requires a != null;
  //@ ensures 0 <= \result && \result <= a.length;
  public static int positives(int[] a) {
    int c = 0;
    //@ maintaining 0 <= i && i <= a.length;
    //@ maintaining 0 <= c && c <= i;
    //@ decreases a.length - i;
    for (int i = 0; i < a.length; i++) {
      //@ assume a[i] != Integer.MIN_VALUE;
      if (a[i] > 0) c++;
    }
    return c;
  }
}

package p;

public class Scale {
  //@ requires 0 <= n && n <= 1000;
  //@ ensures \result == 3 * n;
  public static int triple(int n) {
    int t = n + n;
    //@ assume t >= 0;
    t = t + n;
    //@ assert t > n;
    return t;
  }
}

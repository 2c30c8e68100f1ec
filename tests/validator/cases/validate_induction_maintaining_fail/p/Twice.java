package p;

public class Twice {
  // Adds 2 per iteration, n times: the result needs the invariant
  // s == 2 * i; the contract adds i <= 3, true for the first three
  // iterations only.
  //@ requires 0 <= n && n <= 1000000;
  //@ ensures \result == 2 * n;
  public static int twice(int n) {
    int s = 0;
    int i = 0;
    //@ maintaining 0 <= i && i <= n && i <= 3 && s == 2 * i;
    while (i < n) {
      s += 2;
      i++;
    }
    return s;
  }
}

package p;

public class Tally {
  //@ requires 0 <= n && n <= 4;
  //@ ensures \result == n * (n + 1) / 2;
  public static int sum(int n) {
    int s = 0;
    //@ ghost int steps = 0;
    for (int i = 1; i <= n; i++) {
      s += i;
      //@ set steps = steps + 1;
    }
    //@ assert steps == n;
    return s;
  }
}

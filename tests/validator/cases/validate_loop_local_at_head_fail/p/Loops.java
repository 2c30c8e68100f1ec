package p;

// Single-bug variants of validate_loop_local_at_head_ok: each loop breaks
// its invariant on one iteration, so the invariant over the loop's local
// fails at the loop's head.
public class Loops {
  //@ requires 0 <= n && n < 100;
  //@ ensures \result >= n;
  public static int whileTrue(int n) {
    int i = 0;
    //@ maintaining 0 <= i && i <= n;
    while (true) {
      if (i >= n) break;
      i += i == 2 ? 2 : 1;
    }
    return i;
  }

  //@ requires 0 <= n && n < 100;
  //@ ensures \result >= n;
  public static int doWhile(int n) {
    int i = 0;
    //@ maintaining 0 <= i && i <= n;
    do {
      if (i >= n) break;
      i += i == 2 ? 2 : 1;
    } while (true);
    return i;
  }

  //@ requires 0 <= n && n < 100;
  //@ ensures \result >= 0;
  public static int multiLineFor(int n) {
    int r = 0;
    //@ maintaining 0 <= k && k <= n && r == k;
    for (int k = 0;
         k < n;
         k++) {
      r += k == 2 ? 2 : 1;
    }
    return r;
  }

  //@ requires 0 <= n && n < 10;
  //@ ensures \result >= 0;
  public static int nested(int n) {
    int s = 0;
    //@ maintaining 0 <= i && i <= n;
    outer:
    for (int i = 0;
         i < n; i++) {
      //@ maintaining 0 <= j && j <= n && s == i * n + j;
      for (int j = 0;
           j < n; j++) {
        s += j == 1 ? 2 : 1;
      }
    }
    return s;
  }
}

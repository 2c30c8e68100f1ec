package p;

// Loops whose head is not on the line after their `maintaining`: the
// locals the invariants name are resolved (and the invariants checked) at
// the loop's head, where the LocalVariableTable has them.
public class Loops {
  // The head has no code of its own line: the condition is the `if` below.
  //@ requires 0 <= n && n < 100;
  //@ ensures \result == n;
  public static int whileTrue(int n) {
    int i = 0;
    //@ maintaining 0 <= i && i <= n;
    //@ decreases n - i;
    while (true) {
      if (i >= n) break;
      i++;
    }
    return i;
  }

  // `do` has no code: the head is the first statement of the body.
  //@ requires 0 <= n && n < 100;
  //@ ensures \result == n;
  public static int doWhile(int n) {
    int i = 0;
    //@ maintaining 0 <= i && i <= n;
    do {
      if (i >= n) break;
      i++;
    } while (true);
    return i;
  }

  // The header's first line only stores k: its range starts at the
  // condition, on the next line.
  //@ requires 0 <= n && n < 100;
  //@ ensures \result == n;
  public static int multiLineFor(int n) {
    int r = 0;
    //@ maintaining 0 <= k && k <= n && r == k;
    //@ decreases n - k;
    for (int k = 0;
         k < n;
         k++) {
      r++;
    }
    return r;
  }

  // A labelled outer loop and an inner loop over a header local.
  //@ requires 0 <= n && n < 10;
  //@ ensures \result == n * n;
  public static int nested(int n) {
    int s = 0;
    //@ maintaining 0 <= i && i <= n && s == i * n;
    outer:
    for (int i = 0;
         i < n; i++) {
      //@ maintaining 0 <= j && j <= n && s == i * n + j;
      for (int j = 0;
           j < n; j++) {
        s++;
      }
    }
    return s;
  }
}

package p;

public class Inc {
  //@ requires x < Integer.MAX_VALUE;
  //@ ensures \result == x + 1
  public static int inc(int x) {
    return x + 1;
  }

  /*@ requires x > 0;
    @ ensures \result < x @*/
  public static int dec(int x) {
    return x - 1;
  }
}

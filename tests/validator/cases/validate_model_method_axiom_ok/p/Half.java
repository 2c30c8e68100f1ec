package p;

public class Half {
  /*@ public normal_behavior
    @   requires 0 <= v && v <= 1000;
    @   ensures \result == v + v;
    @ also
    @ public normal_behavior
    @   requires v < 0;
    @   ensures \result < 0;
    @ public static model pure int twice(int v);
    @*/

  //@ ensures \result <==> v % 2 == 0;
  //@ public static model pure boolean even(int v);

  //@ requires 0 <= x && x <= 1000;
  //@ ensures \result == twice(x);
  public static int dbl(int x) {
    return x + x;
  }

  //@ requires 0 <= x && x <= 1000;
  //@ ensures \result == twice(x) / 2 && even(twice(x));
  public static int same(int x) {
    return x;
  }

  //@ requires 10 <= x && x <= 1000 && twice(x) > 30;
  //@ ensures \result == twice(x) - 30 && \result > 0;
  public static int less(int x) {
    return 2 * x - 30;
  }

  //@ requires x < 0;
  //@ ensures \result == (twice(x) < 0) && (\forall int i; 0 <= i && i < 8; twice(i) < 16);
  public static boolean negative(int x) {
    return true;
  }
}

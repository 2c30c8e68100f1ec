package p;

public class Ranges {
  /*@ public behavior
    @   requires lo <= hi;
    @   {|
    @     public normal_behavior
    @       requires x >= lo;
    @       {|
    @         requires x <= hi;
    @         ensures \result == x;
    @       also
    @         requires x > hi;
    @         ensures \result == hi;
    @       |}
    @   also
    @     public normal_behavior
    @       requires x < lo;
    @       ensures \result == lo;
    @   |}
    @ also
    @ public exceptional_behavior
    @   requires lo > hi;
    @   signals_only IllegalArgumentException;
    @*/
  public static int clamp(int lo, int hi, int x) {
    if (lo > hi) throw new IllegalArgumentException();
    if (x < lo) return lo;
    if (x > hi) return hi;
    return x;
  }

  /*@ also
    @ {|
    @   normal_behavior
    @     requires d != 0;
    @     ensures \result == n / d;
    @ also
    @   exceptional_behavior
    @     requires d == 0;
    @     signals_only ArithmeticException;
    @ |}
    @*/
  public static int div(int n, int d) {
    return n / d;
  }
}

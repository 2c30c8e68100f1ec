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
    if (x > hi) return x;
    return x;
  }
}

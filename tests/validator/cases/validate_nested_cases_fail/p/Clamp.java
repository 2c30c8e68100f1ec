package p;

public class Clamp {
  /*@ public normal_behavior
    @   requires 0 <= x;
    @   {|
    @     requires x < 10;
    @     ensures \result == x + 2;
    @   also
    @     requires x >= 10;
    @     ensures \result == x;
    @   |}
    @ also
    @ public exceptional_behavior
    @   requires x < 0;
    @   signals_only IllegalArgumentException;
    @*/
  public static int bump(int x) {
    if (x < 0) throw new IllegalArgumentException();
    return x < 10 ? x + 1 : x;
  }
}

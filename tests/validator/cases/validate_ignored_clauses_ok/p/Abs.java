package p;

public class Abs {
  /*@ public normal_behavior
    @   requires x > Integer.MIN_VALUE;
    @   diverges false;
    @   when true;
    @   measured_by x < 0 ? -x : x;
    @   callable \nothing;
    @   captures \nothing;
    @   working_space 0;
    @   duration 0;
    @   ensures \result >= 0 && (\result == x || \result == -x);
    @*/
  public static int abs(int x) {
    return x < 0 ? -x : x;
  }
}

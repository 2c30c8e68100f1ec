package p;

public class Twice {
  /*@ public model pure static int twice(int y) {
    @   return 2 * y;
    @ }
    @*/

  //@ public model pure int scaled(int y) { return factor * y; }

  private /*@ spec_public @*/ int factor;

  //@ ensures \result == twice(x);
  public static /*@ pure function @*/ int dbl(int x) {
    return x + x;
  }

  //@ ensures \result == scaled(x) && \result == twice(x) - x + (factor - 1) * x;
  public /*@ pure @*/ int times(int x) {
    return factor * x;
  }

  //@ ensures \result == twice(x) + 1;
  public static int off(int x) {
    return x + x;
  }
}

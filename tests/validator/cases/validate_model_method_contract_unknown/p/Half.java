package p;

public class Half {
  /*@ public normal_behavior
    @   requires v > 0;
    @   ensures \result > v && \result < v;
    @ public static model pure int never(int v);
    @*/

  private /*@ spec_public @*/ int factor;

  //@ ensures \result == factor * v;
  //@ public model pure int scaled(int v);

  //@ ensures \result == never(x) / 2;
  public static int same(int x) {
    return x;
  }

  //@ ensures \result == scaled(x);
  public int times(int x) {
    return factor * x;
  }
}

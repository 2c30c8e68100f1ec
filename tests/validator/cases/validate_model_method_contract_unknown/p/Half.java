package p;

public class Half {
  /*@ public normal_behavior
    @   ensures \result == v + v;
    @ public static model pure int twice(int v);
    @*/

  //@ ensures \result == twice(x) / 2;
  public static int same(int x) {
    return x;
  }
}

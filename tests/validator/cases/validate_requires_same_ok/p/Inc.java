package p;

public class Inc {
  /*@ public normal_behavior
    @   requires 0 <= x && x < 100;
    @   ensures \result == x + 1;
    @ also
    @ public normal_behavior
    @   requires \same;
    @   ensures \result > 0;
    @*/
  public static int inc(int x) {
    return x < 0 ? -1 : x + 1;
  }
}

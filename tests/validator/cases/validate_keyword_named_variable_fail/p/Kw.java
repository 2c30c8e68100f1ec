package p;

public class Kw {
  // Parameters named like JML keywords, first in the body of a quantifier
  // without parentheses.
  //@ requires 0 <= old && old < 1000;
  //@ ensures \forall int i; 0 <= i && i < 4; old + i < \result;
  //@ ensures \result == old + 4;
  public static int above(int old) {
    return old + 3;
  }

  //@ requires 0 <= set && set < 1000 && 0 <= pure && pure < 1000;
  //@ ensures \forall int i; 0 <= i && i < 3; set * 3 <= \result - i && pure <= \result;
  public static int spread(int set, int pure) {
    return set * 3 + 1 + pure;
  }
}

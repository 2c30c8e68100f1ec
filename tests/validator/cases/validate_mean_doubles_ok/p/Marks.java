package p;

public class Marks {
  //@ public normal_behavior
  //@   requires marks.length != 0;
  //@   assignable \nothing;
  //@   ensures \result == (double) (\sum int i; 0 <= i && i < marks.length; (long) marks[i]) / marks.length;
  //@ also
  //@ public exceptional_behavior
  //@   requires marks.length == 0;
  //@   signals_only IllegalArgumentException;
  public static double mean(int[] marks) {
    if (marks.length == 0) {
      throw new IllegalArgumentException("no marks");
    }
    long total = 0;
    for (int m : marks) {
      total += m;
    }
    return (double) total / marks.length;
  }
}

package grades;

/** Averages of marks. */
public class Average {
  /** Arithmetic mean of the marks; there must be at least one. */
  public double mean(int[] marks) {
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

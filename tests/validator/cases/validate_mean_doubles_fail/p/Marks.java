package p;

public class Marks {
  public static double mean(int[] marks) {
    if (marks.length == 0) {
      throw new IllegalArgumentException("no marks");
    }
    long total = 0;
    for (int m : marks) {
      total += m;
    }
    return (double) total / (marks.length + 1);
  }
}

package geometry;

/** Half-open intervals [start, end) on a line, e.g. the x-extent of two rectangles. */
public class Intervals {
  /** Length of the common part of [aStart, aEnd) and [bStart, bEnd); 0 when disjoint. */
  public int overlap(int aStart, int aEnd, int bStart, int bEnd) {
    int start = Math.max(aStart, bStart);
    int end = Math.min(aEnd, bEnd);
    return end > start ? end - start : 0;
  }
}

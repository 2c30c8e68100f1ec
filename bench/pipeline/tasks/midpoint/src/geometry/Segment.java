package geometry;

/** Points on a line. */
public class Segment {
  /** The point halfway between a and b. */
  public double midpoint(double a, double b) {
    return a + (b - a) / 2.0;
  }
}

package geometry;

/** Axis-aligned rectangles with integer sides. */
public class Rectangle {
  /** Area of a width x height rectangle; negative sides are an error. */
  public long area(int width, int height) {
    if (width < 0 || height < 0) {
      throw new IllegalArgumentException("negative side");
    }
    return (long) width * height;
  }
}

package geo;

public class Range {
  private int low;
  private int high;

  public int clamp(int value) {
    int r = value < low ? low : value > high ? high : value;
    // Wrong when low > high: nothing establishes low <= high.
    assert r >= low && r <= high;
    return r;
  }
}

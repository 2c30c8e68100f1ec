package alley;

/** One frame of ten-pin bowling. */
public class Frame {
  public int standing = 10;

  public boolean knock(int pins) {
    if (pins < 0 || pins > standing) {
      throw new IllegalArgumentException("pins");
    }
    standing -= pins;
    return standing == 0;
  }
}

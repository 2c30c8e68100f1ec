package wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FrameTest {
  @Test
  void encodesTwoBytesPerChar() {
    Frame f = new Frame(Fixtures.login());
    assertEquals(32, f.encode());
  }

  @Test
  void encodingTwiceGivesTheSameLength() {
    Frame f = new Frame(Fixtures.login());
    f.encode();
    assertEquals(32, f.encode());
  }
}

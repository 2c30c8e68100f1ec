package cloud;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BucketTest {
  @Test
  void labelKeepsThePrefixAndRegion() {
    String owner = "\u0041\u004b\u0049\u0041V7QZ\u0033MHX2PLR9KWD";
    assertEquals("AKIA/3", new Bucket().label(owner, 3));
  }
}

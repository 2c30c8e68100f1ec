package budget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TokenBucketTest {
  @Test
  void takesWhileTokensLast() {
    TokenBucket b = new TokenBucket(5);
    assertTrue(b.take(3));
    assertEquals(2, b.tokens);
    assertFalse(b.take(3));
  }

  @Test
  void zeroIsRefused() {
    assertFalse(new TokenBucket(5).take(0));
  }
}

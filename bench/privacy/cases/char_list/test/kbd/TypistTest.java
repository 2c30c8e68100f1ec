package kbd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TypistTest {
  @Test
  void oneKeyPerChar() {
    assertEquals(16, new Typist(Phrases.stored()).load());
  }
}

package memo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DraftTest {
  @Test
  void lengthCountsPrefixAndNote() {
    assertEquals(27, new Draft(Notes.stored()).compose(2));
  }

  @Test
  void twoDigitCopies() {
    assertEquals(28, new Draft(Notes.stored()).compose(12));
  }
}

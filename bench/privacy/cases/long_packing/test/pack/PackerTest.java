package pack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PackerTest {
  @Test
  void eighteenBytesNeedThreeWords() {
    assertEquals(3, new Packer(Vault.stored()).pack());
  }

  @Test
  void emptyNeedsNoWord() {
    assertEquals(0, new Packer("").pack());
  }
}

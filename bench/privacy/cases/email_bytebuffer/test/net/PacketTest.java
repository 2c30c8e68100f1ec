package net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PacketTest {
  @Test
  void prefixPlusAddress() {
    assertEquals(44, new Packet().fill(Contacts.patient()));
  }

  @Test
  void shortAddress() {
    assertEquals(8, new Packet().fill("a@b.cd"));
  }
}

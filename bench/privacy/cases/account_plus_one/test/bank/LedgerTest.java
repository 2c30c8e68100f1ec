package bank;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LedgerTest {
  @Test
  void opensCount() {
    Ledger l = new Ledger(Customers.first());
    l.open();
    assertEquals(2, l.open());
  }
}

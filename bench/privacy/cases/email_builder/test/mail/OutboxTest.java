package mail;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class OutboxTest {
  @Test
  void headerLength() {
    assertEquals(46, new Outbox().queue(Customers.first()));
  }

  @Test
  void queueCounts() {
    Outbox o = new Outbox();
    o.queue(Customers.first());
    o.queue(Customers.first());
    assertEquals(2, o.queued);
  }
}

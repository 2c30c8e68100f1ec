package http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HeadersTest {
  @Test
  void countsTwoHeaders() {
    String raw = "GET /v2/orders HTTP/1.1\r\nHost: shop.example\r\n"
        + "Authorization: Bearer q7Lm2ZxR9vTb4KpW8nYc3HdF6sJg1AeU\r\n";
    assertEquals(2, new Headers().count(raw));
  }
}

package badge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BadgeTest {
  @Test
  void labelShowsThePhrase() {
    assertEquals("badge:harbor-maple-lantern-42", new Badge(Visitors.phrase()).label());
  }
}

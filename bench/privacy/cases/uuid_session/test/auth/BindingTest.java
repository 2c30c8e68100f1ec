package auth;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BindingTest {
  @Test
  void bindsARealSession() {
    assertTrue(new Binding(Logins.session()).bind());
  }

  @Test
  void bindingTwice() {
    Binding b = new Binding(Logins.session());
    b.bind();
    assertTrue(b.bind());
  }
}

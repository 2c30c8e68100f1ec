package weather;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class UnitsTest {
  private final Units units = new Units();

  @Test
  void freezing() {
    assertEquals(32.0, units.celsiusToFahrenheit(0.0), 1e-9);
  }

  @Test
  void boiling() {
    assertEquals(212.0, units.celsiusToFahrenheit(100.0), 1e-9);
  }

  @Test
  void minusFortyIsTheSameOnBothScales() {
    assertEquals(-40.0, units.celsiusToFahrenheit(-40.0), 1e-9);
  }

  @Test
  void roomTemperature() {
    assertEquals(71.6, units.celsiusToFahrenheit(22.0), 1e-9);
  }

  @Test
  void infinityStaysInfinite() {
    assertTrue(Double.isInfinite(units.celsiusToFahrenheit(Double.POSITIVE_INFINITY)));
  }
}

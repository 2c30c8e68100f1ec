package temperature;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ConverterTest {
  private final Converter converter = new Converter();

  @Test
  void freezingPoint() {
    assertEquals(273.15, converter.toKelvin(0.0), 1e-9);
  }

  @Test
  void boilingPoint() {
    assertEquals(373.15, converter.toKelvin(100.0), 1e-9);
  }

  @Test
  void absoluteZero() {
    assertEquals(0.0, converter.toKelvin(-273.15), 1e-9);
  }

  @Test
  void bodyTemperature() {
    assertEquals(310.15, converter.toKelvin(37.0), 1e-9);
  }

  @Test
  void fractionalCelsius() {
    assertEquals(294.65, converter.toKelvin(21.5), 1e-9);
  }

  @Test
  void nanStaysNan() {
    assertEquals(Double.NaN, converter.toKelvin(Double.NaN));
  }
}

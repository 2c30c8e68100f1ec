package temperature;

/** Converts temperatures between scales. */
public class Converter {
  public static final double ABSOLUTE_ZERO_OFFSET = 273.15;

  /** Degrees Celsius to kelvin. */
  public double toKelvin(double celsius) {
    return celsius + ABSOLUTE_ZERO_OFFSET;
  }
}

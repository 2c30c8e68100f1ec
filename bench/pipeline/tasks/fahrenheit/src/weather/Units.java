package weather;

/** Unit conversions for a weather station display. */
public class Units {
  public double celsiusToFahrenheit(double celsius) {
    return celsius * 9.0 / 5.0 + 32.0;
  }
}

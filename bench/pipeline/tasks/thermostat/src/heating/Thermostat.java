package heating;

/** A room thermostat. */
public class Thermostat {
  public static final double MIN = 5.0;
  public static final double MAX = 30.0;

  private double target = 20.0;
  private int changes;

  /** Sets the target temperature in degrees Celsius; it must be a number in [MIN, MAX]. */
  public void setTarget(double celsius) {
    if (Double.isNaN(celsius) || celsius < MIN || celsius > MAX) {
      throw new IllegalArgumentException("target out of range: " + celsius);
    }
    target = celsius;
    changes++;
  }

  public double getTarget() {
    return target;
  }

  public int getChanges() {
    return changes;
  }
}

package kitchen;

/** Roasting times. */
public class Roast {
  public static int minutes(int turkeyKg) {
    if (turkeyKg <= 0) {
      return 0;
    }
    return 40 * turkeyKg + 20;
  }
}

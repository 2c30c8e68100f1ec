package ship;

/** Counts the legs of a shipment's route. */
public class Tracker {
  public int legs(int[] stops) {
    return stops.length <= 1 ? 0 : stops.length - 1;
  }
}

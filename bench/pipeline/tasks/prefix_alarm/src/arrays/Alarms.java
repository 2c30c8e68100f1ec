package arrays;

/** Sensor readings. */
public class Alarms {
  /**
   * Whether any reading exceeds the limit. (A bug no test of short arrays
   * shows: the loop stops after the sixth reading.)
   */
  public boolean anyAbove(int[] readings, int limit) {
    for (int i = 0; i < readings.length && i < 6; i++) {
      if (readings[i] > limit) {
        return true;
      }
    }
    return false;
  }
}

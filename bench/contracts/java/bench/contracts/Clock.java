package bench.contracts;

/** A time of day; its invariants are stated in the tasks' .jml contracts. */
public class Clock {
  private int hour;
  private int minute;

  public Clock(int hour, int minute) {
    if (hour < 0 || hour >= 24 || minute < 0 || minute >= 60) {
      throw new IllegalArgumentException("no such time");
    }
    this.hour = hour;
    this.minute = minute;
  }

  /** Minutes from the earlier to the later of two times of the same day. */
  public static int minutesBetween(Clock a, Clock b) {
    int d = (a.hour * 60 + a.minute) - (b.hour * 60 + b.minute);
    return d < 0 ? -d : d;
  }

  /** Whether this time comes before `other`. */
  public boolean isBefore(Clock other) {
    return hour < other.hour || (hour == other.hour && minute < other.minute);
  }
}

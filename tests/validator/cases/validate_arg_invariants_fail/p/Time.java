package p;

public class Time {
  private /*@ spec_public @*/ int hour;
  private /*@ spec_public @*/ int minute;

  //@ public invariant 0 <= hour && hour < 24;
  //@ public invariant 0 <= minute && minute < 60;

  //@ requires 0 <= h && h < 24 && 0 <= m && m < 60;
  public Time(int h, int m) {
    hour = h;
    minute = m;
  }

  //@ requires a != null && b != null;
  //@ ensures 0 <= \result && \result < 24 * 60;
  public static int gap(Time a, Time b) {
    int d = (a.hour * 60 + a.minute) - (b.hour * 60 + b.minute);
    return d < 0 ? -d : d;
  }

  //@ requires other != null;
  //@ ensures \result == (hour < other.hour || (hour == other.hour && minute < other.minute));
  public boolean before(Time other) {
    return hour * 60 + minute < other.hour * 60 + other.minute;
  }

  //@ requires other != null;
  //@ ensures true;
  public void copyInto(Time other) {
    other.hour = hour;
    other.minute = minute + 60;
  }
}

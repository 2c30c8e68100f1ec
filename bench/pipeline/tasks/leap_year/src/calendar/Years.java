package calendar;

/** Gregorian calendar rules. */
public class Years {
  public boolean isLeap(int year) {
    if (year % 400 == 0) {
      return true;
    }
    if (year % 100 == 0) {
      return false;
    }
    return year % 4 == 0;
  }
}

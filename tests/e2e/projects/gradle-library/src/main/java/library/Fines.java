package library;

/** Late fines in cents. */
public final class Fines {
  private Fines() {}

  public static int fine(int daysLate, int centsPerDay) {
    if (daysLate <= 0) {
      return 0;
    }
    return daysLate * centsPerDay;
  }
}

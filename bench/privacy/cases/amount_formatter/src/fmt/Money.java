package fmt;

/** Formats amounts of money. */
public class Money {
  public static String format(long cents) {
    long abs = Math.abs(cents);
    String frac = abs % 100 < 10 ? "0" + abs % 100 : String.valueOf(abs % 100);
    return (cents < 0 ? "-" : "") + abs / 100 + "." + frac;
  }
}

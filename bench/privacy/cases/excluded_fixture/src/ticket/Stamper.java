package ticket;

/** Stamps tickets with a serial. */
public class Stamper {
  public long stamp(long serial) {
    return serial * 10 + serial % 7;
  }
}

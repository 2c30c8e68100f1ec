package p;

public class Meter {
  private /*@ spec_public @*/ int count;
  private /*@ spec_public @*/ int limit;

  //@ public invariant 0 <= count && count <= limit;

  public Meter(int limit) {
    if (limit <= 0) throw new IllegalArgumentException("limit");
    this.limit = limit;
  }

  // Checks before it updates: the invariant holds at every exit.
  public void add(int n) {
    if (n < 0 || n > limit - count) throw new IllegalArgumentException("n");
    count += n;
  }

  // No specification: the default case still keeps the invariant, and this
  // breaks it.
  public void reset(int to) {
    count = to;
  }
}

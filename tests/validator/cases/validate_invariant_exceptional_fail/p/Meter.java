package p;

public class Meter {
  private /*@ spec_public @*/ int count;
  private /*@ spec_public @*/ int limit;

  //@ public invariant 0 <= count && count <= limit;

  //@ requires limit > 0;
  public Meter(int limit) {
    this.limit = limit;
  }

  // Updates first and throws after: an exception leaves count above limit.
  //@ public behavior
  //@   requires n >= 0;
  //@   signals_only IllegalStateException;
  public void add(int n) {
    count += n;
    if (count > limit) throw new IllegalStateException("over the limit");
  }
}

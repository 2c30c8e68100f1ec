package p;

public class Counter {
  private int value;
  private int changes;

  public void set(int v) {
    value = v;
    changes++;
  }
}

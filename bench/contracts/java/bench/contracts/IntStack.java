package bench.contracts;

/** A stack of ints with a fixed capacity. */
public class IntStack {
  private final int[] items;
  private int size;

  public IntStack(int capacity) {
    items = new int[capacity];
  }

  public void push(int x) {
    if (size == items.length) {
      throw new IllegalStateException("full");
    }
    items[size] = x;
    size++;
  }

  public int pop() {
    if (size == 0) {
      throw new IllegalStateException("empty");
    }
    size--;
    return items[size];
  }

  public int peek() {
    if (size == 0) {
      throw new IllegalStateException("empty");
    }
    return items[size - 1];
  }

  public boolean isFull() {
    return size == items.length;
  }
}

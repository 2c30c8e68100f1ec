package stack;

/** A bounded stack of ints. */
public class IntStack {
  private final int[] items;
  private int size;

  public IntStack(int capacity) {
    items = new int[capacity];
  }

  /** Pushes {@code value}; a full stack throws IllegalStateException. */
  public void push(int value) {
    if (size == items.length) {
      throw new IllegalStateException("stack full");
    }
    items[size] = value;
    size++;
  }

  public int pop() {
    if (size == 0) {
      throw new IllegalStateException("stack empty");
    }
    size--;
    return items[size];
  }

  public int size() {
    return size;
  }
}

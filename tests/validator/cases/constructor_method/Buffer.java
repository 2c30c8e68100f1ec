public class Buffer {
  private final int[] slots;
  private int used = 1;

  Buffer(int capacity) {
    slots = new int[capacity];
    // slot 1 needs a capacity of at least 2
    slots[used] = 7;
  }
}

package counter;

public class Registry {
  static final int CAPACITY = 3;
  static final int[] slots = new int[CAPACITY];
  static int used;

  static boolean register(int id) {
    if (used >= CAPACITY) return false;
    // used may be negative: nothing keeps it in range
    slots[used] = id;
    used++;
    assert used <= CAPACITY;
    return true;
  }
}

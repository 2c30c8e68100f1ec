package zoo;

/** A monkey enclosure with a capacity. */
public class Enclosure {
  public int monkeys;
  public final int capacity;

  public Enclosure(int capacity) {
    this.capacity = capacity;
  }

  public boolean admit(int more) {
    if (monkeys + more > capacity) {
      return false;
    }
    monkeys += more;
    return true;
  }
}

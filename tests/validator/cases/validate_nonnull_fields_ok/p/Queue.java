package p;

public class Queue {
  private int[] slots = new int[8];
  private int head;

  public int front() {
    return slots[head];
  }
}

public class Registry {
  static class Node {
    int weight;
    Node next;
  }

  static Node head;

  static int ratio() {
    if (head == null || head.next == null) return 0;
    // the weights of a non-empty registry may be equal
    return head.weight / (head.weight - head.next.weight);
  }
}

// expect: FAILED
// property: no-runtime-exception
package null_deref_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static class Node {
    int val;
    Node next;
  }

  public static void main(String[] args) {
    Node head = new Node();
    if (Verifier.nondetBoolean()) head.next = new Node();
    head.next.val = 1;
  }
}

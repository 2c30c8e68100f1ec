package p;

public class Tail {
  // Counts up to n through a loop that also writes an int element, then
  // returns the count plus an element of a new array it never writes.
  public static int countThenPad(int n) {
    int[] last = new int[1];
    int c = 0;
    for (int i = 0; i < n; i++) {
      last[0] = i;
      c++;
    }
    int[] pad = new int[2];
    pad[0] = c;
    return pad[0] + pad[1];
  }
}

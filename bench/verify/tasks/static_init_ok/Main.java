// expect: SUCCESSFUL
// Static initialisers run before first use.
package static_init_ok;

public class Main {
  static final int[] TABLE = {1, 2, 3};
  static int counter = 5;
  static int derived = TABLE[2] * counter;

  public static void main(String[] args) {
    assert TABLE.length == 3;
    assert counter == 5;
    assert derived == 15;
    counter++;
    assert Helper.VALUE == 42 && Helper.initialised;
  }

  static class Helper {
    static boolean initialised;
    static int VALUE;

    static {
      VALUE = 40 + TABLE[1];
      initialised = true;
    }
  }
}

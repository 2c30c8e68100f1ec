// expect: SUCCESSFUL
package array_clone_ok;

public class Main {
  public static void main(String[] args) {
    int[] a = {1, 2, 3};
    int[] b = a.clone();
    b[0] = 9;
    assert a[0] == 1 && b[0] == 9;
    assert b.length == 3 && b[2] == 3;
    assert a != b;
  }
}

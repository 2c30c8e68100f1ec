// expect: FAILED
// Ten additions of 0.1 do not make exactly 1.0.
package fp_loop_accumulate_fail;

public class Main {
  public static void main(String[] args) {
    double sum = 0.0;
    for (int i = 0; i < 10; i++) sum += 0.1;
    assert sum == 1.0;
  }
}

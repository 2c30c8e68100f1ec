// expect: SUCCESSFUL
package fp_negzero_ok;

public class Main {
  public static void main(String[] args) {
    double z = -0.0;
    assert z == 0.0;
    assert 1.0 / z < 0;
    assert 1.0 / Math.min(0.0, -0.0) < 0;
    assert 1.0 / Math.max(-0.0, 0.0) > 0;
    assert Double.compare(-0.0, 0.0) < 0;
    assert 1.0 / Math.abs(z) > 0;
  }
}

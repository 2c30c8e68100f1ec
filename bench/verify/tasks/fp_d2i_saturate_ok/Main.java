// expect: SUCCESSFUL
// Casts from floating point saturate and map NaN to 0.
package fp_d2i_saturate_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    double d = Verifier.nondetDouble();
    int i = (int) d;
    if (Double.isNaN(d)) assert i == 0;
    if (d >= 2147483647.0) assert i == Integer.MAX_VALUE;
    if (d <= -2147483648.0) assert i == Integer.MIN_VALUE;
    if (d > -1.0 && d < 1.0) assert i == 0;
    float f = Verifier.nondetFloat();
    long l = (long) f;
    if (f == Float.POSITIVE_INFINITY) assert l == Long.MAX_VALUE;
  }
}

// The SV-COMP harness class for Java verification tasks: inputs come from
// nondet*() and assume() restricts them. `tracespec verify` models these
// methods (fresh symbolic inputs, path assumptions); run on a real JVM this
// implementation draws random values, and an assumption that does not hold
// ends the program quietly, as SV-COMP prescribes.
package org.sosy_lab.sv_benchmarks;

import java.util.Random;

public final class Verifier {
  private static final Random random = new Random(42);

  private Verifier() {}

  public static void assume(boolean condition) {
    if (!condition) {
      Runtime.getRuntime().halt(1);
    }
  }

  public static boolean nondetBoolean() {
    return random.nextBoolean();
  }

  public static byte nondetByte() {
    return (byte) random.nextInt();
  }

  public static char nondetChar() {
    return (char) random.nextInt();
  }

  public static short nondetShort() {
    return (short) random.nextInt();
  }

  public static int nondetInt() {
    return random.nextInt();
  }

  public static long nondetLong() {
    return random.nextLong();
  }

  public static float nondetFloat() {
    return random.nextFloat();
  }

  public static double nondetDouble() {
    return random.nextDouble();
  }

  public static String nondetString() {
    return Integer.toString(random.nextInt());
  }
}

// A product line in the SV-COMP style: features as static flags chosen
// nondeterministically, the environment and the pump in static fields of
// object type, an enum read through switches (javac's switch map: a static
// int[] of a synthetic class, filled in its <clinit>), nondeterministic
// events. The default contents of new arrays are constant arrays, which the
// solver Z3 configures for the QF_AUFBV logic does not support: this case
// used to end "UNKNOWN (solver gave up)" in milliseconds.
package prodline;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  enum Level { LOW, NORMAL, HIGH }

  static class Features {
    static boolean base, methaneQuery, highWater, stop;
    static boolean valid() { return base; }
  }

  static class Env {
    Level level = Level.NORMAL;
    boolean methane;
    void rise() {
      switch (level) {
        case LOW: level = Level.NORMAL; break;
        case NORMAL: level = Level.HIGH; break;
        default: break;
      }
    }
    void lower() {
      switch (level) {
        case HIGH: level = Level.NORMAL; break;
        case NORMAL: level = Level.LOW; break;
        default: break;
      }
    }
    boolean isHigh() { return level == Level.HIGH; }
    boolean isLow() { return level == Level.LOW; }
  }

  static class Pump {
    boolean running, active = true;
    final Env env;
    Pump(Env e) { env = e; }
    void timeShift() {
      if (running) env.lower();
      if (active) process();
    }
    void process() {
      if (!running && env.isHigh() && !(Features.methaneQuery && env.methane)) running = true;
      else if (running && env.isLow()) running = false;
      else if (Features.methaneQuery && running && env.methane) running = false;
    }
    void stop() { if (Features.stop) { running = false; active = false; } }
    void start() { active = true; }
  }

  static Env env;
  static Pump pump;
  static boolean methaneAndRunningBefore;

  static void check() {
    if (Features.methaneQuery && env.methane && pump.running && methaneAndRunningBefore) assert false;
    methaneAndRunningBefore = env.methane && pump.running;
  }

  public static void main(String[] args) {
    Features.base = Verifier.nondetBoolean();
    Features.methaneQuery = Verifier.nondetBoolean();
    Features.highWater = Verifier.nondetBoolean();
    Features.stop = Verifier.nondetBoolean();
    if (!Features.valid()) return;
    env = new Env();
    pump = new Pump(env);
    for (int i = 0; i < 4; i++) {
      if (Verifier.nondetBoolean()) env.rise();
      if (Verifier.nondetBoolean()) env.methane = !env.methane;
      if (Verifier.nondetBoolean()) pump.start(); else if (Verifier.nondetBoolean()) pump.stop();
      pump.timeShift();
      check();
    }
  }
}

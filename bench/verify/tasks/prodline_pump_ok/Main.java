// expect: SUCCESSFUL
// A product line of mine pump controllers: the features are static flags
// chosen nondeterministically, the environment and the pump live in static
// fields of object type, the water level is an enum read through switches,
// and the environment sends one nondeterministic event per time step.
// Property: with the methane alarm feature, the pump is never running in
// methane after a time step.
package prodline_pump_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  enum Level { LOW, NORMAL, HIGH }

  static class Features {
    static boolean base;
    static boolean methaneAlarm;
    static boolean lowSensor;
    static boolean stopCommand;

    static void select() {
      base = Verifier.nondetBoolean();
      methaneAlarm = Verifier.nondetBoolean();
      lowSensor = Verifier.nondetBoolean();
      stopCommand = Verifier.nondetBoolean();
    }

    static boolean valid() {
      return base && (!lowSensor || methaneAlarm);
    }
  }

  static class Environment {
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

    boolean isHigh() {
      return level == Level.HIGH;
    }

    boolean isLow() {
      return level == Level.LOW;
    }
  }

  static class Pump {
    final Environment env;
    boolean running;
    boolean active = true;

    Pump(Environment env) {
      this.env = env;
    }

    void timeShift() {
      if (running) env.lower();
      if (active) process();
    }

    void process() {
      if (Features.methaneAlarm && running && env.methane) {
        deactivate();
      } else if (!running && env.isHigh()) {
        activate();
      } else if (Features.lowSensor && running && env.isLow()) {
        deactivate();
      }
    }

    void activate() {
      if (!(Features.methaneAlarm && env.methane)) running = true;
    }

    void deactivate() {
      running = false;
    }

    void stop() {
      if (Features.stopCommand) {
        running = false;
        active = false;
      }
    }

    void start() {
      active = true;
    }
  }

  static class Actions {
    static Environment env;
    static Pump pump;

    static void init() {
      env = new Environment();
      pump = new Pump(env);
    }

    static void waterRise() {
      env.rise();
    }

    static void methaneChange() {
      env.methane = !env.methane;
    }

    static void startSystem() {
      pump.start();
    }

    static void stopSystem() {
      pump.stop();
    }

    static void timeShift() {
      pump.timeShift();
      Specification.afterTimeShift();
    }
  }

  static class Specification {
    static int checks;

    static void afterTimeShift() {
      checks++;
      if (Features.methaneAlarm && Actions.env.methane && Actions.pump.running) assert false;
    }
  }

  public static void main(String[] args) {
    Features.select();
    if (!Features.valid()) return;
    Actions.init();
    for (int step = 0; step < 4; step++) {
      switch (Verifier.nondetInt()) {
        case 0: Actions.waterRise(); break;
        case 1: Actions.methaneChange(); break;
        case 2: Actions.startSystem(); break;
        case 3: Actions.stopSystem(); break;
        default: break;
      }
      Actions.timeShift();
    }
  }
}

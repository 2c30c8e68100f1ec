// A mine pump controller in the style of the SV-COMP MinePump family: the
// environment changes water level and methane nondeterministically, the
// controller reacts once per time step.
package minepump;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static final int LOW = 0;
  static final int NORMAL = 1;
  static final int HIGH = 2;

  static class Environment {
    int waterLevel = NORMAL;
    boolean methane;

    void lowerWater() {
      if (waterLevel > LOW) waterLevel--;
    }

    void raiseWater() {
      if (true) {
        if (waterLevel < HIGH) waterLevel++;
      } else {
        waterLevel++;
      }
    }
  }

  static class MinePump {
    final Environment env;
    boolean pumpRunning;
    boolean systemActive = true;

    MinePump(Environment env) {
      this.env = env;
    }

    void timeShift() {
      if (pumpRunning) env.lowerWater();
      if (systemActive) processEnvironment();
    }

    void processEnvironment() {
      if (pumpRunning && env.methane) {
        pumpRunning = false;
      } else if (!pumpRunning && env.waterLevel == HIGH && !env.methane) {
        pumpRunning = true;
      } else if (pumpRunning && env.waterLevel == LOW) {
        pumpRunning = false;
      }
    }

    void stopSystem() {
      if (true && pumpRunning) pumpRunning = false;
      systemActive = false;
    }

    void startSystem() {
      systemActive = true;
    }
  }

  public static void main(String[] args) {
    Environment env = new Environment();
    MinePump pump = new MinePump(env);
    for (int step = 0; step < 5; step++) {
      switch (Verifier.nondetInt()) {
        case 0: env.raiseWater(); break;
        case 1: env.methane = !env.methane; break;
        case 2: pump.stopSystem(); break;
        case 3: pump.startSystem(); break;
        default: break;
      }
      pump.timeShift();
      assert !(pump.pumpRunning && env.methane);
    }
  }
}

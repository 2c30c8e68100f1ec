package heating;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ThermostatTest {
  @Test
  void defaultTarget() {
    assertEquals(20.0, new Thermostat().getTarget());
  }

  @Test
  void setWithinRange() {
    Thermostat t = new Thermostat();
    t.setTarget(22.5);
    assertEquals(22.5, t.getTarget());
    assertEquals(1, t.getChanges());
  }

  @Test
  void limitsAreAllowed() {
    Thermostat t = new Thermostat();
    t.setTarget(5.0);
    t.setTarget(30.0);
    assertEquals(30.0, t.getTarget());
  }

  @Test
  void tooColdIsRejected() {
    Thermostat t = new Thermostat();
    assertThrows(IllegalArgumentException.class, () -> t.setTarget(4.5));
    assertEquals(20.0, t.getTarget());
  }

  @Test
  void tooHotIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> new Thermostat().setTarget(35.0));
  }

  @Test
  void nanIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> new Thermostat().setTarget(Double.NaN));
  }
}

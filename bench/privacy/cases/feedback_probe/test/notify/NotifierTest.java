package notify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class NotifierTest {
  @Test
  void reminderForTheNextPatient() {
    assertEquals(35, new Notifier().send(Patients.next()));
  }

  @Test
  void reminderForAShortAddress() {
    assertEquals(6, new Notifier().send("a@b.cd"));
  }
}

package notify;

/** Sends appointment reminders. */
public class Notifier {
  public int sent;

  public int send(String recipient) {
    sent++;
    return recipient.length();
  }
}

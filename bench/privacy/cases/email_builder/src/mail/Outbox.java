package mail;

/** Queues a reminder for a customer. */
public class Outbox {
  public StringBuilder header = new StringBuilder();
  public int queued;

  public int queue(String recipient) {
    header = new StringBuilder();
    header.append("To: ").append(recipient).append('\n');
    queued++;
    return header.length();
  }
}

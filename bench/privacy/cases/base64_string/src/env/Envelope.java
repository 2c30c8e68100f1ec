package env;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Seals a message header with the account's key material. */
public class Envelope {
  private final String accessKey;
  public String header = "";
  public int sealed;

  public Envelope(String accessKey) {
    this.accessKey = accessKey;
  }

  public void seal(int messageId) {
    header = messageId + ":" + Base64.getEncoder().encodeToString(
        accessKey.getBytes(StandardCharsets.UTF_8));
    sealed++;
  }
}

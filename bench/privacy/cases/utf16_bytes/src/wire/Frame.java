package wire;

import java.nio.charset.StandardCharsets;

/** A login frame for a legacy wire protocol. */
public class Frame {
  private final String userPassword;
  public byte[] payload = new byte[0];

  public Frame(String userPassword) {
    this.userPassword = userPassword;
  }

  public int encode() {
    payload = userPassword.getBytes(StandardCharsets.UTF_16LE);
    return payload.length;
  }
}

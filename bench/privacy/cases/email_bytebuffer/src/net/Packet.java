package net;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** A notification packet: length, then the recipient's address. */
public class Packet {
  public ByteBuffer frame = ByteBuffer.allocate(0);

  public int fill(String recipient) {
    byte[] b = recipient.getBytes(StandardCharsets.UTF_8);
    ByteBuffer buf = ByteBuffer.allocate(2 + b.length);
    buf.putShort((short) b.length);
    buf.put(b);
    frame = buf;
    return buf.position();
  }
}

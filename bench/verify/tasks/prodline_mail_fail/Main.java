// expect: FAILED
// A product line of mail clients: the features (encryption, forwarding)
// are static flags chosen nondeterministically, the clients live in static
// fields of object type and in a static array, the kind of a message is an
// enum read through a switch, and each time step the environment either
// sends a message between two nondeterministic clients or sets a forward.
// Property: an encrypted message is only read by a client holding its key.
package prodline_mail_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  enum Kind { PLAIN, ENCRYPTED, SIGNED }

  static boolean encryptFeature = Verifier.nondetBoolean();
  static boolean forwardFeature = Verifier.nondetBoolean();
  static Client alice;
  static Client bob;
  static Client carol;
  static Client[] clients;

  static class Key {
    final int owner;

    Key(int owner) {
      this.owner = owner;
    }
  }

  static class Message {
    Client to;
    Kind kind = Kind.PLAIN;
    Key key;
  }

  static class Client {
    final int id;
    final Key key;
    Client forward;
    int read;

    Client(int id) {
      this.id = id;
      this.key = new Key(id);
    }

    void receive(Message m) {
      switch (m.kind) {
        case ENCRYPTED:
          if (m.key == key) open(m);
          else if (forwardFeature && forward != null && forward != this) forward.receiveForwarded(m);
          break;
        default:
          open(m);
          break;
      }
    }

    void receiveForwarded(Message m) {
      open(m);  // the forward target does not check the key
    }

    void open(Message m) {
      assert m.kind != Kind.ENCRYPTED || m.key == key;
      read++;
    }
  }

  static Client pick() {
    int i = Verifier.nondetInt();
    Verifier.assume(i >= 0 && i < clients.length);
    return clients[i];
  }

  static void send() {
    Message m = new Message();
    m.to = pick();
    if (encryptFeature && Verifier.nondetBoolean()) {
      m.kind = Kind.ENCRYPTED;
      m.key = pick().key;  // the key of the client the sender had in mind
    } else if (Verifier.nondetBoolean()) {
      m.kind = Kind.SIGNED;
    }
    m.to.receive(m);
  }

  static void setForward() {
    Client from = pick();
    from.forward = pick();
  }

  public static void main(String[] args) {
    alice = new Client(1);
    bob = new Client(2);
    carol = new Client(3);
    clients = new Client[] {alice, bob, carol};
    for (int step = 0; step < 3; step++) {
      if (Verifier.nondetBoolean()) setForward();
      else send();
    }
  }
}

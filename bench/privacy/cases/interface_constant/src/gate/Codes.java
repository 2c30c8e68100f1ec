package gate;

/** Codes shared by the access devices. */
public interface Codes {
  int UNLOCK_PIN = 60517;
}

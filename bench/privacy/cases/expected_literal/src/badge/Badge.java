package badge;

/** A visitor badge that shows the phrase the desk agreed with the visitor. */
public class Badge {
  private final String secretPhrase;

  public Badge(String secretPhrase) {
    this.secretPhrase = secretPhrase;
  }

  public String label() {
    return "badge:" + secretPhrase;
  }
}

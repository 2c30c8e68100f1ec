package kbd;

import java.util.ArrayList;
import java.util.List;

/** Replays a stored phrase key by key. */
public class Typist {
  private final String secretPhrase;
  public List<Character> queue = new ArrayList<>();

  public Typist(String secretPhrase) {
    this.secretPhrase = secretPhrase;
  }

  public int load() {
    List<Character> q = new ArrayList<>();
    for (char c : secretPhrase.toCharArray()) {
      q.add(c);
    }
    queue = q;
    return q.size();
  }
}

package sess;

import java.util.HashMap;
import java.util.Map;

/** Counts requests per session. */
public class Usage {
  private final String sessionToken;
  public Map<String, Integer> hits = new HashMap<>();

  public Usage(String sessionToken) {
    this.sessionToken = sessionToken;
  }

  public int touch() {
    int n = hits.getOrDefault(sessionToken, 0) + 1;
    hits.put(sessionToken, n);
    return n;
  }
}

package budget;

/** A rate limiter: take succeeds while tokens are left. */
public class TokenBucket {
  public int tokens;

  public TokenBucket(int tokens) {
    this.tokens = tokens;
  }

  public boolean take(int n) {
    if (n <= 0 || n > tokens) {
      return false;
    }
    tokens -= n;
    return true;
  }
}

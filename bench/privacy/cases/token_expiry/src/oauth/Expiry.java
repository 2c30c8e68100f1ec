package oauth;

/** When issued credentials stop being valid. */
public class Expiry {
  public static long tokenExpiry(long issuedAt, int ttlSeconds) {
    return issuedAt + Math.max(0, ttlSeconds);
  }
}

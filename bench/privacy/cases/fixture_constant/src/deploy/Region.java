package deploy;

/** Picks a deployment region from an account id's checksum. */
public class Region {
  public int of(String account, int regions) {
    int sum = 0;
    for (int i = 0; i < account.length(); i++) {
      sum += account.charAt(i);
    }
    return sum % regions;
  }
}

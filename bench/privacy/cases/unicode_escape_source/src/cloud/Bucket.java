package cloud;

/** Labels storage buckets by their owner's account id. */
public class Bucket {
  public String label(String owner, int region) {
    return owner.substring(0, 4) + "/" + region;
  }
}

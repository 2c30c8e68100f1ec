package text;

public class Tags {
  // Rejects a tag that starts with '#' and ends with a lone high surrogate:
  // the counterexample needs a string the replay driver builds char by char
  // (null is let through, so that this is the one violation).
  public static int weight(String tag) {
    if (tag != null && tag.length() >= 2 && tag.charAt(0) == '#' && tag.endsWith("\uD800")) {
      throw new IllegalArgumentException("bad tag " + tag.length());
    }
    return tag == null || tag.isEmpty() ? 0 : tag.hashCode();
  }
}

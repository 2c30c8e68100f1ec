package badge;

final class Visitors {
  /** The phrase of today's visitor, assembled from the desk's word list. */
  static String phrase() {
    String[] words = {"harbor", "maple", "lantern"};
    StringBuilder b = new StringBuilder();
    for (String w : words) {
      b.append(w).append('-');
    }
    return b.append(6 * 7).toString();
  }

  private Visitors() {}
}

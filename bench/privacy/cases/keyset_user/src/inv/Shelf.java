package inv;

/** A shelf of items. */
public class Shelf {
  public int stocked;

  /** Counts the distinct names among the first n entries. */
  public int distinctItems(String[] names, int n) {
    int distinct = 0;
    for (int i = 0; i < n; i++) {
      boolean seen = false;
      for (int j = 0; j < i; j++) {
        if (names[j].equals(names[i])) {
          seen = true;
        }
      }
      if (!seen) {
        distinct++;
      }
    }
    stocked = distinct;
    return distinct;
  }
}

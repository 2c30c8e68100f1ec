package inv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ShelfTest {
  @Test
  void agreesWithAMapsKeySet() {
    TreeMap<String, Integer> counts = new TreeMap<>();
    String[] names = {"pear", "fig", "pear", "kiwi"};
    for (String n : names) {
      counts.merge(n, 1, Integer::sum);
    }
    assertEquals(counts.keySet().size(), new Shelf().distinctItems(names, 4));
  }

  @Test
  void noEntries() {
    assertEquals(0, new Shelf().distinctItems(new String[0], 0));
  }
}

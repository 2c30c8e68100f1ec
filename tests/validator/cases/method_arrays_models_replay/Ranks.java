import java.util.Arrays;

public class Ranks {
  // The rank of `key` among the first three scores, counted from 0.
  static int rank(int[] scores, int key) {
    int[] top = Arrays.copyOfRange(scores, 0, 3);
    Arrays.sort(top);
    int at = Arrays.binarySearch(top, key);
    assert at < 0 || top[at] == key;
    assert at != -3 : "key falls between the second and third score";
    return at;
  }
}

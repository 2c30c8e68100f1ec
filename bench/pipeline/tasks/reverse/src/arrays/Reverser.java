package arrays;

/** Reverses arrays in place. */
public class Reverser {
  public void reverse(int[] values) {
    int i = 0;
    int j = values.length - 1;
    while (i < j) {
      int tmp = values[i];
      values[i] = values[j];
      values[j] = tmp;
      i++;
      j--;
    }
  }
}

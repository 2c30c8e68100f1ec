public class Sorting {
  static int[] sort3(int[] a) {
    if (a == null || a.length != 3) return a;
    if (a[0] > a[1]) swap(a, 0, 1);
    if (a[1] > a[2]) swap(a, 1, 2);
    if (a[0] > a[1]) swap(a, 0, 1);
    assert a[0] <= a[1] && a[1] <= a[2];
    return a;
  }

  private static void swap(int[] a, int i, int j) {
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

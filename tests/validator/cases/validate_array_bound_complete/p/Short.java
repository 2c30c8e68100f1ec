package p;

public class Short {
  // The precondition admits no array longer than the bound L = 4: nothing
  // was cut, the PASS is complete.
  //@ requires a != null && 0 < a.length && a.length <= 3;
  //@ ensures (\forall int i; 0 <= i && i < a.length; a[i] <= \result);
  public static int maxOfThree(int[] a) {
    int m = a[0];
    for (int i = 1; i < a.length; i++) {
      m = Math.max(m, a[i]);
    }
    return m;
  }

  // Arrays of exactly L elements are admitted, but no longer ones.
  //@ requires a != null && a.length == 4;
  //@ ensures \result == a[0] + a[3];
  public static int ends(int[] a) {
    return a[0] + a[a.length - 1];
  }

  // No array and no string: nothing for the bound to cut.
  //@ ensures \result >= lo && \result <= (hi < lo ? lo : hi);
  public static int clamp(int x, int lo, int hi) {
    if (x < lo) {
      return lo;
    }
    return x > hi ? Math.max(hi, lo) : x;
  }
}

package p;

public class Meter {
  //@ public ghost int charges = 0;
  private long total;

  /*@ public normal_behavior
    @   requires 0 <= charges && charges < Integer.MAX_VALUE;
    @   ensures amount > 0 ==> charges == \old(charges) + 1;
    @   ensures amount <= 0 ==> charges == \old(charges);
    @   ensures total == \old(total) + (amount > 0 ? amount : 0);
    @*/
  public void charge(int amount) {
    if (amount > 0) {
      //@ set charges = charges + 1;
      total += amount;
    }
  }

  /*@ public normal_behavior
    @   ensures charges == \old(charges);
    @*/
  public long read() {
    return total;
  }
}

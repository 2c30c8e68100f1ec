package p;

import java.util.ArrayList;

public class Store {
  //@ requires a.length > 0;
  //@ assignable a[0];
  //@ ensures a[0] == l;
  public static void put(Object[] a, ArrayList<Integer> l) {
    a[0] = l;
  }
}

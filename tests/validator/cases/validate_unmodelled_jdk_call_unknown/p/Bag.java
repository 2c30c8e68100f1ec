package p;

import java.util.ArrayList;
import java.util.List;

public class Bag {
  // Calls a method of a JDK class the validator has no model of.
  public static int addOne(ArrayList<Integer> xs) {
    xs.add(1);
    return xs.size();
  }

  // Creates an object of such a class.
  public static int countPositive(int a, int b) {
    List<Integer> xs = new ArrayList<>();
    if (a > 0) xs.add(a);
    if (b > 0) xs.add(b);
    return xs.size();
  }

  // Calls through a JDK interface.
  public static int sumAll(List<Integer> xs) {
    int s = 0;
    for (int i = 0; i < xs.size(); i++) s += xs.get(i);
    return s;
  }
}

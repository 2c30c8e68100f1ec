package p;

public class Names {
  public static String greet(String name, int times) {
    return "Hi " + name + "x" + times;
  }
}

package office;

/** A reception desk staffed by one secretary at a time. */
public class Desk {
  public String secretaryName = "";
  public int changes;

  public void assign(String name) {
    if (!name.equals(secretaryName)) {
      secretaryName = name;
      changes++;
    }
  }
}

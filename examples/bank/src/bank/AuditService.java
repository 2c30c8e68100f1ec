package bank;

/** Collects signed audit entries. */
public class AuditService {
  private int entries;
  private String lastEntry;

  public void record(String entry) {
    entries++;
    lastEntry = entry;
  }

  public int entries() {
    return entries;
  }

  public String lastEntry() {
    return lastEntry;
  }
}

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    float price = Verifier.nondetFloat();
    Verifier.assume(price > 0.0f && price < 1000.0f);
    float withTax = price * 1.2f;
    float back = withTax / 1.2f;
    assert back == price;
  }
}

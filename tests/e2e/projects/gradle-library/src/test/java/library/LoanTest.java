package library;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LoanTest {
  @Test
  void renewingExtendsTheLoan() {
    Loan loan = new Loan(14, 2);
    loan.renew(7);
    assertEquals(21, loan.days());
    assertEquals(1, loan.renewalsLeft());
  }

  @Test
  void renewalsRunOut() {
    Loan loan = new Loan(14, 1);
    loan.renew(14);
    assertThrows(IllegalStateException.class, () -> loan.renew(14));
    assertEquals(28, loan.days());
  }
}

package loan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The normal paths through the review; none lends without approval. */
class LoanApplicationTest {
  @Test
  void submitReviewApproveLend() {
    LoanApplication app = new LoanApplication("Ada", 1000);
    app.submit();
    app.review();
    app.approve();
    assertEquals(LoanApplication.State.APPROVED, app.getState());
    assertEquals(400, app.lend(600));
    assertEquals(0, app.lend(400));
  }

  @Test
  void sentBackForAnotherReview() {
    LoanApplication app = new LoanApplication("Grace", 500);
    app.submit();
    app.review();
    app.sendBack();
    assertEquals(LoanApplication.State.SUBMITTED, app.getState());
    app.review();
    app.approve();
    assertEquals(2, app.getReviewRounds());
  }

  @Test
  void cannotApproveBeforeReview() {
    LoanApplication app = new LoanApplication("Alan", 200);
    app.submit();
    assertThrows(IllegalStateException.class, app::approve);
    assertEquals(LoanApplication.State.SUBMITTED, app.getState());
  }

  @Test
  void cannotSubmitTwice() {
    LoanApplication app = new LoanApplication("Edsger", 300);
    app.submit();
    assertThrows(IllegalStateException.class, app::submit);
  }
}

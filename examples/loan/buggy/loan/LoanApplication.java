package loan;

/**
 * The loan application of examples/loan/src with a faulty shortcut: small
 * amounts (up to EXPRESS_LIMIT) are lent right after submission, without a
 * review ("express lending"), which puts the application into the error
 * state LENT_WITHOUT_APPROVAL. The tests in examples/loan/test pass on both
 * classes and never take the shortcut; exploring the bytecode finds it.
 */
public class LoanApplication {
  public enum State { BEFORE_SUBMISSION, SUBMITTED, UNDER_REVIEW, APPROVED, LENT_WITHOUT_APPROVAL }

  private final String applicant;
  private final int requested;
  private State state = State.BEFORE_SUBMISSION;
  private int reviewRounds;
  private int lent;

  /** Applications may borrow up to this much before review. */
  public static final int EXPRESS_LIMIT = 100;

  public LoanApplication(String applicant, int requested) {
    if (requested <= 0) {
      throw new IllegalArgumentException("the requested amount must be positive");
    }
    this.applicant = applicant;
    this.requested = requested;
  }

  public void submit() {
    require(State.BEFORE_SUBMISSION, "submit");
    state = State.SUBMITTED;
  }

  public void review() {
    require(State.SUBMITTED, "review");
    reviewRounds++;
    state = State.UNDER_REVIEW;
  }

  public void sendBack() {
    require(State.UNDER_REVIEW, "send back");
    state = State.SUBMITTED;
  }

  public void approve() {
    require(State.UNDER_REVIEW, "approve");
    state = State.APPROVED;
  }

  /** Pays out `amount` of an approved application, or a small amount of a submitted one. */
  public int lend(int amount) {
    if (state == State.SUBMITTED && amount > 0 && amount <= EXPRESS_LIMIT) {
      state = State.LENT_WITHOUT_APPROVAL;  // the shortcut
    } else {
      require(State.APPROVED, "lend");
    }
    if (amount <= 0 || amount > requested - lent) {
      throw new IllegalArgumentException("cannot lend " + amount);
    }
    lent += amount;
    return requested - lent;
  }

  public State getState() {
    return state;
  }

  public int getReviewRounds() {
    return reviewRounds;
  }

  public String getApplicant() {
    return applicant;
  }

  private void require(State expected, String action) {
    if (state != expected) {
      throw new IllegalStateException("cannot " + action + " in state " + state);
    }
  }
}

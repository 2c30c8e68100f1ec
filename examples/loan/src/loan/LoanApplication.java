package loan;

/**
 * A loan application moving through a review: BEFORE_SUBMISSION → submit →
 * SUBMITTED → review → UNDER_REVIEW → approve → APPROVED → lend. A reviewer
 * can send the application back for another review (UNDER_REVIEW →
 * SUBMITTED). Every other call throws IllegalStateException and leaves the
 * state as it was; in particular money is lent only after approval.
 * LENT_WITHOUT_APPROVAL is the error state the protocol forbids ("AG !bad"):
 * this class never enters it, the variant in examples/loan/buggy/ does.
 */
public class LoanApplication {
  public enum State { BEFORE_SUBMISSION, SUBMITTED, UNDER_REVIEW, APPROVED, LENT_WITHOUT_APPROVAL }

  private final String applicant;
  private final int requested;
  private State state = State.BEFORE_SUBMISSION;
  private int reviewRounds;
  private int lent;

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

  /** Pays out `amount` of an approved application; returns what is left to lend. */
  public int lend(int amount) {
    require(State.APPROVED, "lend");
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

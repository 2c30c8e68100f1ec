// Internal to tracespec_synth: candidate clauses and the pool that tests
// them against a group of observations (the normal calls, or the calls that
// threw one exception class), and the templates that propose them.
#ifndef TRACESPEC_AGENT_SYNTH_CANDIDATES_H_
#define TRACESPEC_AGENT_SYNTH_CANDIDATES_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "agent/synth/context.h"
#include "agent/synth/vocabulary.h"

namespace tracespec::synth {

// A proposed predicate for an ensures (or signals) clause.
struct Candidate {
  std::string text;    // the predicate, in postcondition position
  std::string family;  // template family ("linear", "array-sum", ...)
  int rank = 0;        // family preference, lower first
  // What it constrains ("\\result", "balance", "\\result[]"); clauses that
  // define a target completely make the other clauses about it redundant.
  std::string target;
  bool defining = false;
  // Distinct input cases (by the inputs it mentions) it must hold on.
  int min_support = 2;
  std::vector<int> inputs;  // indices of input terms; empty: all inputs
  // A weakened clause (guard ==> P): P, which counterexamples refuted.
  std::string weakened_from;
  std::string guard;  // the guard, in postcondition position
  // The calls that refute P include recorded ones on an edge of the input
  // domain (NaN, MIN_VALUE), not only the validator's counterexamples.
  bool weakened_by_recorded = false;
};

struct Verdict {
  bool accepted = false;
  bool falsified = false;
  int support = 0;   // distinct input cases where it held (non-vacuously)
  int unknown = 0;   // observations where it could not be decided
};

struct AcceptedCandidate {
  Candidate candidate;
  Verdict verdict;
  int sequence = 0;  // order of acceptance
};

// Tests candidates on a group of observations: a candidate is accepted when
// no observation falsifies it and it holds, non-vacuously (the antecedent of
// a top-level ==> true), on at least min_support distinct input cases.
class CandidatePool {
 public:
  CandidatePool(SynthContext* ctx, const Vocabulary* vocab, std::vector<size_t> group,
                jml::TypeChecker::Position position, const std::set<std::string>* banned,
                int max_candidates);

  // Tests `c` (once per text) and returns whether it was accepted. A
  // postcondition that only counterexamples of the validator falsify (or
  // that the validator refuted: banned) is weakened: a guard true where it
  // held and false on those counterexamples is looked for
  // (FindWeakeningGuard) and `guard ==> c` offered in its place. A defining
  // postcondition that recorded calls falsify is weakened the same way, by
  // edge atoms only (`!Double.isNaN(x)`, `x != Integer.MIN_VALUE`).
  bool Offer(const Candidate& c);
  bool full() const { return offered_ >= max_candidates_ || ctx_->exhausted(); }

  const std::vector<AcceptedCandidate>& accepted() const { return accepted_; }
  // Candidates that held wherever decided but lacked support, in order.
  const std::vector<std::pair<Candidate, Verdict>>& unsupported() const { return unsupported_; }
  // Weakenings whose only guard is a threshold read off single values
  // ("x > 3 ==> P"): not offered, for hypotheses.
  const std::vector<std::string>& threshold_weakenings() const { return threshold_weakenings_; }
  // Offered candidates that were banned (refuted by the oracle earlier).
  const std::vector<std::string>& banned_hits() const { return banned_hits_; }
  int offered() const { return offered_; }
  const std::vector<size_t>& group() const { return group_; }
  SynthContext* context() const { return ctx_; }
  const Vocabulary& vocabulary() const { return *vocab_; }
  jml::TypeChecker::Position position() const { return position_; }

 private:
  void Weaken(const Candidate& c, const jml::Expr& e, const std::string& canonical);

  SynthContext* ctx_;
  const Vocabulary* vocab_;
  std::vector<size_t> group_;
  jml::TypeChecker::Position position_;
  const std::set<std::string>* banned_;
  int max_candidates_;
  bool has_counterexamples_ = false;
  int offered_ = 0;
  std::map<std::string, bool> seen_;
  std::vector<AcceptedCandidate> accepted_;
  std::vector<std::pair<Candidate, Verdict>> unsupported_;
  std::vector<std::string> banned_hits_;
  std::vector<std::string> threshold_weakenings_;
};

// The clause text a predicate becomes in `position` ("ensures P;" or
// "signals (E e) P;" when `exception` is set).
std::string ClauseText(const std::string& predicate, const std::string& exception = "");

// Offers every postcondition template to `pool`. Outputs are considered
// where they change within the pool's group (\result always); with
// `allow_result` false (exceptional calls) \result is left out.
void OfferTemplates(CandidatePool* pool, bool allow_result);

// Keeps, per target, the best defining clause and drops what it makes
// redundant; returns the survivors in output order (family rank, then
// acceptance order).
std::vector<AcceptedCandidate> SelectClauses(const std::vector<AcceptedCandidate>& accepted);

}  // namespace tracespec::synth

#endif  // TRACESPEC_AGENT_SYNTH_CANDIDATES_H_

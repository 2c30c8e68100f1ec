// Internal to tracespec_synth: where candidate clauses are compiled and
// tested. A SynthContext holds the method's type-checking context, the
// observations (with one evaluator each), a cache of parsed and type-checked
// expressions, and the deterministic work budget.
#ifndef TRACESPEC_AGENT_SYNTH_CONTEXT_H_
#define TRACESPEC_AGENT_SYNTH_CONTEXT_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tracespec/v1/observation.pb.h"
#include "validator/jml/ast.h"
#include "validator/jml/observation_eval.h"
#include "validator/jml/type_checker.h"
#include "validator/jml/type_env.h"

namespace tracespec::synth {

// Classes as the observations show them: every recorded object's class with
// the fields recorded for it (types from their JVM descriptors), the method
// under inference (from its descriptor), and exception classes seen thrown
// (assumed to extend java.lang.Exception, which is all type checking needs).
// Chained after the classpath (when known) and the JDK classes.
class ObservedTypeEnvironment : public jml::TypeEnvironment {
 public:
  ObservedTypeEnvironment(const v1::MethodRef& method,
                          const std::vector<v1::Observation>& observations);
  const jml::ClassInfo* FindClass(absl::string_view binary_name) const override;

 private:
  std::map<std::string, jml::ClassInfo, std::less<>> classes_;
};

// How an observation ended.
enum class OutcomeKind { kNormal, kThrown, kUnknown };
OutcomeKind OutcomeOf(const v1::Observation& o);

class SynthContext {
 public:
  // `observations` are copied; `env` must outlive the context.
  SynthContext(const jml::TypeEnvironment& env, jml::MethodContext method,
               std::vector<v1::Observation> observations, int64_t work_budget);

  const jml::MethodContext& method() const { return method_; }
  const jml::TypeEnvironment& env() const { return env_; }
  const std::vector<v1::Observation>& observations() const { return observations_; }
  size_t size() const { return observations_.size(); }

  // Parses and type-checks `text` as an expression at `position`; nullptr
  // when it does not parse or check (cached either way). Templates write
  // quantified variables as $i, $j, $d; they become names that do not
  // shadow a parameter (i, j, d unless taken).
  const jml::Expr* Compile(const std::string& text, jml::TypeChecker::Position position);

  // `text` with $i, $j, $d replaced by the bound variable names.
  std::string BindNames(const std::string& text) const;

  // The value of `e` on observation `index`, unqualified reads in `at`.
  jml::EvalValue Value(const jml::Expr& e, size_t index, jml::EvalState at);
  jml::Truth Truth(const jml::Expr& e, size_t index, jml::EvalState at);
  // What observation `index` shows changed (see ObservationEvaluator).
  std::vector<jml::ChangedLocation> Changes(size_t index) const {
    return evaluators_[index]->ChangedLocations();
  }

  // Work spent so far (evaluator steps) and whether the budget is gone.
  int64_t work() const { return work_; }
  bool exhausted() const { return work_ >= work_budget_; }

 private:
  const jml::TypeEnvironment& env_;
  jml::MethodContext method_;
  std::vector<v1::Observation> observations_;
  std::vector<std::unique_ptr<jml::ObservationEvaluator>> evaluators_;
  jml::TypeChecker checker_;
  std::map<std::pair<int, std::string>, jml::ExprPtr> compiled_;
  std::map<char, std::string> bound_names_;
  int64_t work_ = 0;
  int64_t work_budget_;
};

}  // namespace tracespec::synth

#endif  // TRACESPEC_AGENT_SYNTH_CONTEXT_H_

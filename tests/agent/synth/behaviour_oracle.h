// Checking a synthesized contract against observations (parse, type-check,
// evaluate), and an oracle that judges contracts against a table of
// implementation behaviours — a bounded stand-in for the validator's
// consistency check. Used by the synthesizer tests and its benchmark.
#ifndef TRACESPEC_TESTS_AGENT_SYNTH_BEHAVIOUR_ORACLE_H_
#define TRACESPEC_TESTS_AGENT_SYNTH_BEHAVIOUR_ORACLE_H_

#include <memory>
#include <string>
#include <vector>

#include "agent/synth/context.h"
#include "agent/synth/oracle.h"
#include "validator/jml/clauses.h"
#include "validator/jml/observation_eval.h"
#include "validator/jml/parser.h"
#include "validator/jml/type_checker.h"

namespace tracespec::testing {

// A contract parsed and type-checked for the method of `observations`.
struct CheckedContract {
  std::unique_ptr<synth::ObservedTypeEnvironment> observed;
  std::unique_ptr<jml::ChainedTypeEnvironment> env;
  jml::MethodContext ctx;
  jml::MethodSpec spec;
  std::string error;  // empty when it checks

  // The spec's verdict on one observation (implicit nullity off, as the
  // synthesizer assumes).
  jml::SpecEval Evaluate(const v1::Observation& o) const {
    jml::EvalOptions options;
    options.env = env.get();
    options.implicit_nullity = false;
    jml::ObservationEvaluator ev(o, ctx, options);
    return ev.EvaluateSpec(spec);
  }
};

inline CheckedContract CheckContract(const std::string& jml,
                                     const std::vector<v1::Observation>& observations) {
  CheckedContract c;
  const v1::MethodRef& m = observations.at(0).method();
  c.observed = std::make_unique<synth::ObservedTypeEnvironment>(m, observations);
  c.env = std::make_unique<jml::ChainedTypeEnvironment>(
      std::vector<const jml::TypeEnvironment*>{&jml::JdkTypeEnvironment(), c.observed.get()});
  std::vector<std::string> names(m.param_names().begin(), m.param_names().end());
  auto ctx = jml::MakeMethodContext(*c.env, m.class_name(), m.name(), m.jvm_descriptor(), names, {});
  if (!ctx.ok()) {
    c.error = std::string(ctx.status().message());
    return c;
  }
  c.ctx = *ctx;
  auto text = jml::ParseSpecText(jml, "contract.jml");
  if (!text.ok()) {
    c.error = std::string(text.status().message());
    return c;
  }
  c.spec = std::move(text->spec);
  auto checked = jml::TypeChecker(*c.env).CheckMethodSpec(c.spec, c.ctx);
  if (!checked.ok()) c.error = std::string(checked.status().message());
  return c;
}

// Judges contracts against known implementation behaviours: the first
// behaviour the contract excludes comes back as a counterexample, with the
// span of the first ensures clause it falsifies when `with_spans`.
class BehaviourOracle : public synth::ConsistencyOracle {
 public:
  BehaviourOracle(std::vector<v1::Observation> behaviours, bool with_spans)
      : behaviours_(std::move(behaviours)), with_spans_(with_spans) {}

  synth::OracleVerdict Check(const std::string& contract) override {
    ++calls_;
    contracts_.push_back(contract);
    synth::OracleVerdict v;
    CheckedContract c = CheckContract(contract, behaviours_);
    if (!c.error.empty()) {
      v.kind = synth::OracleVerdict::Kind::kError;
      v.message = c.error;
      return v;
    }
    for (const v1::Observation& b : behaviours_) {
      if (c.Evaluate(b).admitted != jml::Truth::kFalse) continue;
      v.kind = synth::OracleVerdict::Kind::kFail;
      v1::Observation cex = b;
      cex.set_source(v1::COUNTEREXAMPLE);
      v.counterexamples.push_back(cex);
      v.message = "a behaviour of the implementation is excluded";
      if (with_spans_) AddFalseEnsures(c, b, &v);
      return v;
    }
    v.kind = synth::OracleVerdict::Kind::kPass;
    return v;
  }

  int calls() const { return calls_; }
  const std::vector<std::string>& contracts() const { return contracts_; }

 private:
  static void AddFalseEnsures(const CheckedContract& c, const v1::Observation& b,
                              synth::OracleVerdict* v) {
    jml::EvalOptions options;
    options.env = c.env.get();
    options.implicit_nullity = false;
    jml::ObservationEvaluator ev(b, c.ctx, options);
    for (const jml::FlatCase& fc : jml::FlattenSpecCases(c.spec)) {
      for (const jml::Clause* cl : fc.clauses) {
        if (cl->kind != jml::ClauseKind::kEnsures) continue;
        if (ev.Holds(*cl->pred, jml::EvalState::kPost) == jml::Truth::kFalse) {
          v->failing_clauses.push_back(cl->span);
          return;
        }
      }
    }
  }

  std::vector<v1::Observation> behaviours_;
  bool with_spans_;
  int calls_ = 0;
  std::vector<std::string> contracts_;
};

}  // namespace tracespec::testing

#endif  // TRACESPEC_TESTS_AGENT_SYNTH_BEHAVIOUR_ORACLE_H_

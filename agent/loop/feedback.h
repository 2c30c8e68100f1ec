// Turning the validator's report into what the model (and the built-in
// synthesizer's Houdini pruning) is told: diagnostics as one line each,
// counterexamples as observations.
#ifndef TRACESPEC_AGENT_LOOP_FEEDBACK_H_
#define TRACESPEC_AGENT_LOOP_FEEDBACK_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/prompt/inputs.h"
#include "agent/synth/oracle.h"
#include "tracespec/v1/policy.pb.h"
#include "validator/classfile/class_path.h"
#include "validator/check/validator.h"

namespace tracespec::loop {

// Diagnostics of both checks and the notes ("consistency: violated at line
// 3: ensures ...: message"), the explanation of every counterexample, and
// the counterexamples of both checks (consistency first).
prompt::ValidationFeedback FeedbackFromReport(const check::ValidationReport& report);

// Counterexamples of the consistency check are made up by the solver and
// know nothing of the redaction policy, and the validator's messages may
// name any field: every field that the recorded observations hold as
// redacted (same class, same name) is withheld in the counterexamples, and
// its name is replaced by "<withheld>" in the diagnostics, so that neither
// leaves (the gate would block the request otherwise).
void WithholdLikeRecorded(const std::vector<v1::Observation>& recorded,
                          prompt::ValidationFeedback* feedback);

// The compile-time constants (ConstantValue attributes) of the `final`
// fields of `class_name`, its superclasses and every interface they
// implement (and those interfaces' superinterfaces) whose names a deny pattern of
// `policy` matches: javac inlines them into the code, so the solver may
// produce them as counterexample values (`unlock(int code)` comparing with a
// denied `final int pin = 73915` yields `code = 73915`). Strings always;
// numbers only when distinctive (common/distinctive.h). Classes missing
// from the class path are skipped.
std::vector<v1::Value> DeniedConstants(classfile::ClassPath* class_path,
                                       const std::string& class_name,
                                       const v1::RedactionPolicy& policy);

// The constants javac folded from denied ones (`code == PIN + 1` compiles
// to the literal 71605, which DeniedConstants cannot tell from any other):
// the source files of `class_name` and of the classes declaring the denied
// constants (found under `sources`: directories of packages or .java
// files) are compiled again, against `classpath`, with each denied
// constant's initializer replaced by another value of its type; every
// string or distinctive number of `class_name`'s constant pool, or operand
// of a `sipush` in its code (javac puts an int up to 32767 into the
// instruction), that the second compilation no longer holds depends on a
// denied constant. Empty when no constant is denied; an
// error when the class's source is not found or javac fails (the caller
// says the derived constants go unmasked).
absl::StatusOr<std::vector<v1::Value>> DerivedConstants(classfile::ClassPath* class_path,
                                                        const std::string& classpath,
                                                        const std::string& class_name,
                                                        const v1::RedactionPolicy& policy,
                                                        const std::vector<std::string>& sources);

// Every counterexample value equal to one of `constants` (arguments,
// receiver, fields, array elements, results) becomes `redacted`, and every
// occurrence in the diagnostics (a whole number, or the string's text)
// becomes "<withheld>". Returns how many were masked.
int MaskConstants(const std::vector<v1::Value>& constants, prompt::ValidationFeedback* feedback);

// The values of the consistency check's counterexamples that depend on a
// denied constant through arithmetic the code does at run time (`code - 1
// == PIN` gives `code = PIN + 1`, a number no constant of the class holds):
// the check of `request` (the candidate as checked) is solved again with
// every one of `constants` (DeniedConstants, DerivedConstants) read as a
// substitute of its type (ValidateRequest.substitute_numbers/_texts, seeded
// with kSubstituteSeed), and every value of a counterexample that differs
// from the value at the same place in the second solve's counterexample of
// the same number — every value of it when that solve has none there, or
// one of another shape — is withheld in `feedback` (`redacted`), its text
// in the explanations too when it is distinctive (a string of 4
// characters or more, a number as common/distinctive.h says). The solver
// may also choose other values for inputs the constant does not decide:
// those are withheld as well (the safe side). Returns how many values were
// withheld; 0 when `consistency` has no counterexample or there is no
// constant.
int WithholdWhatDependsOnConstants(check::Validator* validator, check::ValidateRequest request,
                                   const check::CheckResult& consistency,
                                   const std::vector<v1::Value>& constants,
                                   prompt::ValidationFeedback* feedback);

// Whether the report says the contract never got checked: a syntax, type or
// unsupported-construct diagnostic with a check in ERROR.
bool NotCheckable(const check::ValidationReport& report);

// The consistency check as the built-in synthesizer's oracle: PASS, FAIL
// with the violated clauses' spans and the counterexamples, ERROR with the
// clauses that could not be checked, UNKNOWN otherwise. Coverage is not
// asked (the synthesizer admits every observation by construction).
class ValidatorOracle : public synth::ConsistencyOracle {
 public:
  // `validator` must outlive the oracle; `base` gives the method and bounds.
  ValidatorOracle(check::Validator* validator, check::ValidateRequest base)
      : validator_(validator), base_(std::move(base)) {}
  synth::OracleVerdict Check(const std::string& contract) override;
  // check::IsTautology (Z3).
  bool IsTautology(const jml::Expr& predicate) override;
  int calls() const { return calls_; }

 private:
  check::Validator* validator_;
  check::ValidateRequest base_;
  int calls_ = 0;
};

}  // namespace tracespec::loop

#endif  // TRACESPEC_AGENT_LOOP_FEEDBACK_H_

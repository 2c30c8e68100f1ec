// Object invariants of a project's classes, for `tracespec run`:
// candidates read off the observed states of the class's objects (before and
// after every recorded call: fields never null, never negative, a count
// within an array's length, one field never above another), kept only when
// the validator proves them over the class's code — established by every
// constructor, kept by every method that can run on an object of the class
// (Houdini: a refuted candidate is dropped and the rest are proved again
// until they hold together).
//
// What the proof covers: constructors and the non-private instance methods
// of the class, each checked from any state the invariants admit (for the
// receiver and parameters of the class's type), at normal and exceptional
// exits, within the run's bounds. Only private fields are used (no other
// class can write them); a field written by a static or synthetic method
// (a lambda's body runs whenever its closure is called), by a nested
// class, or by code that reaches an object of the class some other way (a
// `new`, a cast, a field or array element of the class's type, a call's
// result), gets no invariant, since the check would not see that write.
#ifndef TRACESPEC_PROJECT_INVARIANTS_H_
#define TRACESPEC_PROJECT_INVARIANTS_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tracespec/v1/observation.pb.h"
#include "validator/check/validator.h"
#include "validator/classfile/class_file.h"

namespace tracespec::project {

struct InvariantCandidate {
  std::string text;        // a JML expression over the class's fields
  int needs = -1;          // the candidate it is only defined under (`items != null`)
  int stronger_than = -1;  // the candidate it implies (`x > 0` of `x >= 0`)
};

// The candidates for objects of `cls`, in a fixed order: each holds in
// every recorded state of such an object (calls of failing tests left
// out), over private instance fields written only where the proof sees
// (`nest`: the classes of its nest, whose code may write them too). A
// candidate's `needs` comes before it.
std::vector<InvariantCandidate> CandidateInvariants(const classfile::ClassFile& cls,
                                                   const std::vector<const classfile::ClassFile*>& nest,
                                                   const std::vector<v1::Observation>& observations);

// The fields of `cls` (field name -> why) that a proof over its
// constructors and non-private instance methods does not follow: static
// ones, non-private ones (other classes may write them), and private ones
// written where the check does not look (see above; `nest` as for
// CandidateInvariants). An invariant reading one of them is not proved by
// that check, whatever its verdict.
std::map<std::string, std::string> FieldsBeyondTheProof(const classfile::ClassFile& cls,
                                                        const std::vector<const classfile::ClassFile*>& nest);

struct ClassInvariants {
  std::string class_name;               // binary name
  std::vector<std::string> invariants;  // proved, in candidate order (implied ones left out)
  int candidates = 0;
  // Some proof cut loops or input lengths (it holds within the bounds).
  bool within_bounds = false;
  // Why none was kept when candidates there were: "push(I)V: consistency
  // UNKNOWN (...)", or "refuted: balance >= 0 by deposit, ..." (those
  // refuted directly, not those that needed them).
  std::string note;
  int validations = 0;  // validator calls made
};

// The time limit of one method's check against the candidates (at most):
// the proof runs before any contract, once per method per Houdini round, so
// a method that needs longer leaves its class without invariants (UNKNOWN,
// named) rather than delay the run.
inline constexpr double kInvariantCheckSeconds = 10;

struct InvariantProofOptions {
  check::Validator* validator = nullptr;
  int unwind = 4;
  int max_array = 4;
  double timeout_seconds = 60;
};

// The methods that must keep an object invariant of `cls`: every
// constructor (establishes it) and the non-private instance methods.
std::vector<const classfile::Method*> MethodsKeepingInvariants(const classfile::ClassFile& cls);

// Checks that `method` of `cls` keeps `invariants` (JML's default case:
// any pre-state they admit, any outcome): the consistency verdict; a
// violated invariant's diagnostic names its index
// (check::Diagnostic::given_invariant).
absl::StatusOr<check::CheckResult> CheckInvariantsOf(const classfile::ClassFile& cls,
                                                     const classfile::Method& method,
                                                     const std::vector<std::string>& invariants,
                                                     const InvariantProofOptions& options);

// Proves `candidates` for `cls` over its constructors and non-private
// instance methods. A method the validator cannot decide (UNKNOWN, ERROR)
// leaves the class without invariants (note says which); a validator that
// fails is an error.
absl::StatusOr<ClassInvariants> ProveClassInvariants(const classfile::ClassFile& cls,
                                                     std::vector<InvariantCandidate> candidates,
                                                     const InvariantProofOptions& options);

}  // namespace tracespec::project

#endif  // TRACESPEC_PROJECT_INVARIANTS_H_

// `tracespec verify`: the stand-alone bounded model checker for Java
// bytecode. Proves that no assertion fails (or no RuntimeException escapes)
// in an SV-COMP style harness (`main` reading Verifier.nondet*()) or in one
// method with free parameters and receiver fields, deepening the loop bound
// within a time limit. Every failure comes with concrete inputs and a Java
// driver that replays them. Semantics: validator/README.md.
#ifndef TRACESPEC_VALIDATOR_SYMEX_VERIFY_H_
#define TRACESPEC_VALIDATOR_SYMEX_VERIFY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tracespec/v1/observation.pb.h"

namespace tracespec::symex {

enum class Property {
  kAssert,              // no AssertionError escapes
  kNoRuntimeException,  // no RuntimeException escapes
};
enum class Verdict { kSuccessful, kFailed, kUnknown };
// Why a verdict is UNKNOWN.
enum class UnknownReason { kNone, kBound, kUnsupported, kTimeout, kSolver };

const char* PropertyName(Property property);
const char* VerdictName(Verdict verdict);
const char* UnknownReasonName(UnknownReason reason);

struct VerifyOptions {
  std::string class_path;  // ':'-separated directories and jars
  std::string class_name;  // "pkg.Main" (or "pkg/Main")
  // Empty: harness mode, `public static void main(String[])`. Otherwise the
  // method's name, optionally with its descriptor: "push" or "push(I)V".
  std::string method;
  Property property = Property::kAssert;
  int unwind = 2;       // first loop/recursion bound; deepened while time is left
  int max_unwind = 0;   // 0: no limit besides the time limit
  int max_array = 4;    // bound L on the length of input arrays
  double timeout_seconds = 60;
};

struct SourceLocation {
  std::string class_name;  // binary name
  std::string method;      // "main(java.lang.String[])"
  std::string file;        // "Main.java"
  uint32_t line = 0;
  uint32_t pc = 0;
  std::string instruction;
};

struct InputValue {
  // "Verifier.nondetInt()", "this", a parameter name, or a static field.
  std::string source;
  std::string java_type;  // "int", "pkg.Account", ...
  std::string descriptor;  // JVM descriptor of the value's type
  std::string text;       // the value in Java syntax
  uint64_t bits = 0;      // raw value (IEEE bits for float/double)
  std::optional<SourceLocation> where;  // the call, for nondet inputs
};

struct VerifyResult {
  Verdict verdict = Verdict::kUnknown;
  UnknownReason unknown_reason = UnknownReason::kNone;
  std::string reason;  // human-readable explanation for UNKNOWN
  Property property = Property::kAssert;
  std::string class_name;
  std::string method;  // "main(java.lang.String[])"
  int unwind = 0;      // the bound of the last round
  int max_array = 0;
  int rounds = 0;
  double seconds = 0;
  // SUCCESSFUL by the induction step rather than by complete unwinding: no
  // bound applies to the loops it closed (max-array still does).
  bool proved_by_induction = false;
  std::vector<std::string> invariants;  // the candidate invariants that held
  // SUCCESSFUL: the cuts of the bound max-array on input lengths
  // (length_cuts.h: "input arrays of at most 4 elements"), the decision
  // `validate` makes too. Empty: no input was cut, and with neither loop
  // induction nor cuts the verdict is complete.
  std::vector<std::string> cuts;

  // VERIFICATION FAILED:
  std::string exception_class;  // binary name
  std::optional<SourceLocation> failure;  // where the exception was created
  std::vector<InputValue> inputs;
  std::vector<SourceLocation> path;  // the failing path's lines, in order
  // --method: the counterexample as an observation (pre/post/outcome).
  std::optional<tracespec::v1::Observation> observation;
  // Java source that replays the inputs: a replacement
  // org.sosy_lab.sv_benchmarks.Verifier (harness mode) or a class named
  // `driver_class` in the default package that calls the method.
  std::string driver;
  std::string driver_class;
};

// Runs the verification. Errors (bad class path, malformed or missing
// class, no such method, absurd bounds) are statuses; every other outcome
// is a verdict.
absl::StatusOr<VerifyResult> Verify(const VerifyOptions& options);

// The report as text (first line "VERIFICATION SUCCESSFUL", "VERIFICATION
// FAILED" or "UNKNOWN (<reason>)") or as one JSON document.
std::string FormatVerifyText(const VerifyResult& result);
std::string FormatVerifyJson(const VerifyResult& result);

}  // namespace tracespec::symex

#endif  // TRACESPEC_VALIDATOR_SYMEX_VERIFY_H_

// The oracle the built-in synthesizer's Houdini pruning asks: does a
// candidate contract hold for the implementation? The refinement loop
// implements it with the validator (consistency check, bounded model
// checking on the bytecode); tests implement it with scripts. Without an
// oracle only the observations prune.
#ifndef TRACESPEC_AGENT_SYNTH_ORACLE_H_
#define TRACESPEC_AGENT_SYNTH_ORACLE_H_

#include <string>
#include <vector>

#include "tracespec/v1/observation.pb.h"
#include "validator/jml/ast.h"
#include "validator/jml/span.h"

namespace tracespec::synth {

struct OracleVerdict {
  enum class Kind {
    kPass,     // the contract holds (within the oracle's bounds)
    kFail,     // some clauses are violated: see failing_clauses, counterexamples
    kError,    // the oracle could not check some clauses (unsupported construct, ...)
    kUnknown,  // undecided (solver gave up, bound reached, ...)
  };
  Kind kind = Kind::kUnknown;
  // Spans of the clauses that failed (or could not be checked), in the text
  // given to Check: 1-based line and column of the clause.
  std::vector<jml::SourceSpan> failing_clauses;
  // Concrete behaviours of the implementation the contract excludes, as
  // observations (source COUNTEREXAMPLE).
  std::vector<v1::Observation> counterexamples;
  // One line for reports ("consistency: ensures \result >= 0 fails for x = -2147483648").
  std::string message;
};

const char* OracleVerdictName(OracleVerdict::Kind kind);  // "PASS", "FAIL", "ERROR", "UNKNOWN"

class ConsistencyOracle {
 public:
  virtual ~ConsistencyOracle() = default;
  // Checks `contract`, JML annotation lines ("//@ requires ...;") for the
  // method the synthesizer works on.
  virtual OracleVerdict Check(const std::string& contract) = 0;
  // Whether `predicate` (type-checked) holds whatever values its terms
  // take, so that a clause of it says nothing about the method
  // (tautologies.h); false when unsure, and by default.
  virtual bool IsTautology(const jml::Expr& predicate) { return false; }
};

}  // namespace tracespec::synth

#endif  // TRACESPEC_AGENT_SYNTH_ORACLE_H_

// Evaluating type-checked JML over one recorded observation, without running
// the method: `requires` on the pre-state, `ensures`, `signals`,
// `signals_only` and `assignable` on the pre-state, post-state and outcome.
//
// Semantics are Java's, bit for bit: int/long wrap around, integer division
// and remainder truncate (a zero divisor makes the expression undefined),
// shifts mask their distance, float/double are IEEE-754 (NaN != NaN,
// -0.0 == 0.0), casts narrow like the JVM (d2i saturates, NaN -> 0).
// \bigint is exact (128 bits; beyond that the value is unknown); \real is
// not evaluated. Quantifiers range over bounded integer (or boolean)
// variables: the bounds are read from the range (or from the antecedent of
// a \forall body / the conjuncts of an \exists body), `i`, `i + c` and
// `i - c` against expressions of already bound variables; every candidate
// value is then checked against the whole range, so the bounds only limit
// the enumeration, never the meaning (the values where `i + c` wraps are
// candidates too: `0 <= i && i + 1 < a.length` holds for MAX_VALUE, where
// `a[i]` is undefined, as for the lowering).
//
// Logic is three-valued (Kleene): a value the observation did not record
// (a field or object the policy left out, a truncated object, a Redacted
// value, array elements past the recorded ones, static fields other than
// the JDK constants), an undefined operation (division by zero, index out
// of bounds, null dereference, \max over an empty range) and constructs
// that are not evaluated (\real, calls without a model, \fresh of an
// object missing from the pre-state) are UNKNOWN, with a reason. Array
// creation (`new int[n]`, `new int[]{1, 2}`) is a fresh array the evaluator
// holds for the top-level call, with an id no recorded object has.
// `false && x`, `true || x`, `false ==> x`, `x ==> true` are decided
// regardless of x.
//
// Used by the built-in synthesizer (agent/synth) to test candidate clauses
// and by the observation-coverage check (validator/check).
#ifndef TRACESPEC_VALIDATOR_JML_OBSERVATION_EVAL_H_
#define TRACESPEC_VALIDATOR_JML_OBSERVATION_EVAL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "validator/jml/ast.h"
#include "validator/jml/clauses.h"
#include "validator/jml/type_checker.h"
#include "validator/jml/type_env.h"
#include "validator/jml/types.h"
#include "tracespec/v1/observation.pb.h"

namespace tracespec::jml {

enum class Truth { kFalse, kTrue, kUnknown };
const char* TruthName(Truth t);  // "false", "true", "unknown"
Truth TruthOf(bool b);
Truth TruthNot(Truth a);
Truth TruthAnd(Truth a, Truth b);
Truth TruthOr(Truth a, Truth b);
Truth TruthImplies(Truth a, Truth b);

// One value of a specification expression in one observation.
struct EvalValue {
  enum class Kind {
    kUnknown,
    kBoolean,
    kInt,  // byte, short, char or int: see int_type; `i` holds the value
    kLong,
    kFloat,
    kDouble,
    kBigint,
    kNull,
    kRef,     // an object or array of the observation, by id
    kString,  // java.lang.String, recorded by value (no identity)
    kType,    // a \TYPE value (\type(T), \typeof(e))
    kThrown,  // the exception of a signals clause
  };
  Kind kind = Kind::kUnknown;
  Type::Kind int_type = Type::Kind::kInt;  // kInt: byte, short, char or int
  int64_t i = 0;                           // kBoolean (0/1), kInt, kLong
  __int128 big = 0;                        // kBigint
  float f = 0;                             // kFloat
  double d = 0;                            // kDouble
  uint64_t ref = 0;                        // kRef
  std::u16string str;                      // kString
  Type type;                               // kType
  std::string class_name;  // kThrown: binary name; kRef: class when known
  std::string message;     // kThrown: the message, when recorded
  bool has_message = false;
  std::string reason;  // kUnknown: why ("field 'pin' is redacted")

  static EvalValue Unknown(std::string why);
  static EvalValue Bool(bool b);
  static EvalValue Int(int32_t v, Type::Kind type = Type::Kind::kInt);
  static EvalValue Long(int64_t v);
  static EvalValue Float(float v);
  static EvalValue Double(double v);
  static EvalValue Bigint(__int128 v);
  static EvalValue Null();
  static EvalValue Ref(uint64_t id);
  static EvalValue String(std::u16string s);

  bool known() const { return kind != Kind::kUnknown; }
  // For kBoolean: the truth; kUnknown otherwise (and for non-booleans).
  Truth truth() const;
  // Integral kinds (kInt, kLong, kBigint) as a 128-bit integer.
  bool AsInteger(__int128* out) const;
  // Java source text of a primitive, string or null value ("-3", "7L",
  // "273.15", "Double.NaN", "'a'", "\"x\"", "Integer.MIN_VALUE"); empty for
  // other kinds. Parses back to the same value with the same type.
  std::string ToJml() const;
  // Readable rendering for messages and tests ("int 3", "ref #4", ...).
  std::string DebugString() const;
  // Same kind and same bits (NaN equals NaN, -0.0 differs from 0.0).
  bool Identical(const EvalValue& other) const;
};

// Converts a recorded value (Redacted or unset: unknown).
EvalValue FromProto(const v1::Value& value);

// Which state unqualified reads (fields, array elements, object graphs) go
// to. \old(e) always reads the pre-state.
enum class EvalState { kPre, kPost };

struct EvalOptions {
  // Work limit per top-level call (expression nodes visited, quantifier
  // values tried); past it the value is unknown. Deterministic.
  int64_t max_steps = int64_t{1} << 22;
  // Subtyping for instanceof, signals and signals_only with classes not
  // named exactly (e.g. JdkTypeEnvironment() chained after the classpath).
  const TypeEnvironment* env = nullptr;
  // JML's implicit preconditions `p != null` for non_null reference
  // parameters and postcondition `\result != null` for a non_null result
  // (MethodContext::param_nullity / result_nullity).
  bool implicit_nullity = true;
};

// What one spec case says about one observation.
struct CaseEval {
  std::string label;  // FlatCase::label
  Truth pre = Truth::kUnknown;
  // The case's post-condition for the recorded outcome (meaningful when pre
  // is not false): ensures for a normal outcome, signals_only and signals
  // for an exception, assignable for both, behavior kind respected.
  Truth post = Truth::kUnknown;
  // For a false or unknown pre/post: the first clause that decided it and
  // why ("ensures \result >= 0: false", "field 'x' is redacted").
  std::string why;
};

// Whether a whole specification admits an observation: some case's pre
// holds, and every case whose pre holds has its post hold (JML's `also`).
struct SpecEval {
  Truth admitted = Truth::kUnknown;
  std::vector<CaseEval> cases;
};

// A location the method changed, for frame checks: a field of an object
// present in both states, or an array element.
struct ChangedLocation {
  uint64_t object = 0;
  std::string field;  // empty for array elements
  int64_t index = -1;  // array element
  // True when the change is certain; false when the value could not be
  // compared (redacted, not recorded in one state).
  bool certain = true;
};

// Evaluates expressions of one method's specification over one
// observation. The observation and context must outlive the evaluator.
// Expressions must have been type-checked against `ctx` (they carry Types
// and Symbols). Not thread-safe (it counts steps).
class ObservationEvaluator {
 public:
  ObservationEvaluator(const v1::Observation& observation, const MethodContext& ctx,
                       EvalOptions options = {});

  // The value of `e` with unqualified reads in `at`. Never fails: problems
  // are unknown values with a reason.
  EvalValue Evaluate(const Expr& e, EvalState at);
  // A boolean expression's truth (unknown for non-booleans).
  Truth Holds(const Expr& pred, EvalState at);

  // One flattened spec case (see clauses.h).
  CaseEval EvaluateCase(const FlatCase& c);
  // A whole specification (its spec cases, not implies_that/for_example).
  SpecEval EvaluateSpec(const MethodSpec& spec);

  // Truth of an assignable clause list (union of the clauses' locations,
  // evaluated in the pre-state) against the changes this observation shows.
  // Objects that exist only in the post-state count as fresh (unconstrained).
  Truth FrameHolds(const std::vector<const Clause*>& assignable, std::string* why);

  // The locations that differ between the pre- and post-state, sorted.
  std::vector<ChangedLocation> ChangedLocations() const;

  // Steps spent by the last top-level call.
  int64_t steps() const { return steps_; }
  const v1::Observation& observation() const { return obs_; }

 private:
  struct Binding {
    const Expr* binder = nullptr;  // quantifier, or nullptr for named variables
    int index = -1;
    std::string name;  // old/signals variables
    EvalValue value;
  };

  EvalValue Eval(const Expr& e, EvalState at);
  EvalValue EvalImpl(const Expr& e, EvalState at);
  EvalValue EvalName(const Expr& e, EvalState at);
  EvalValue EvalFieldAccess(const Expr& e, EvalState at);
  // The value of the enum constant owner.name (a static field with
  // ACC_ENUM): the recorded object that is that constant, else a reference
  // equal to no recorded object; Unknown when an object of the enum's class
  // has no recorded constant name.
  EvalValue EnumConstant(const std::string& owner, const std::string& name);
  EvalValue EvalArrayAccess(const Expr& e, EvalState at);
  EvalValue EvalUnary(const Expr& e, EvalState at);
  EvalValue EvalBinary(const Expr& e, EvalState at);
  EvalValue EvalQuantifier(const Expr& e, EvalState at);
  EvalValue EvalCall(const Expr& e, EvalState at);
  EvalValue EvalJmlCall(const Expr& e, EvalState at);
  EvalValue EvalInstanceOf(const EvalValue& v, const Type& target, EvalState at);
  EvalValue EvalNewArray(const Expr& e, EvalState at);
  EvalValue CreateArray(const Type& type, const std::vector<int32_t>& lengths, size_t dim);
  EvalValue CreateInitializedArray(const Type& type, const std::vector<ExprPtr>& elements,
                                   EvalState at);
  bool CountCreated(int64_t elements);
  EvalValue Created(v1::ObjectState array);
  EvalValue ArraysEquals(const EvalValue& a, const EvalValue& b, EvalState at);
  EvalValue ReadField(const EvalValue& object, const std::string& name, const std::string& owner,
                      EvalState at);
  EvalValue Unbox(const EvalValue& v, EvalState at);
  const v1::ObjectState* Object(uint64_t id, EvalState at) const;
  Truth IsSubtype(const std::string& sub, const Type& super) const;
  Truth ThrownIsA(const std::string& thrown, const Type& type) const;
  bool Step();

  const v1::Observation& obs_;
  const MethodContext& ctx_;
  EvalOptions options_;
  std::map<uint64_t, const v1::ObjectState*> pre_;
  std::map<uint64_t, const v1::ObjectState*> post_;
  // Enum constants no recorded object is (EnumConstant): "owner.name" ->
  // their reference, from kEnumConstantRefs on.
  static constexpr uint64_t kEnumConstantRefs = uint64_t{1} << 62;
  std::map<std::string, uint64_t> enum_constants_;
  std::vector<Binding> bindings_;
  // Arrays the specification creates (`new int[n]`, `new int[]{1, 2}`), by
  // an id no recorded object has; read in either state, not in the pre-state
  // for \fresh. Emptied with the bindings at each top-level call.
  std::map<uint64_t, v1::ObjectState> created_;
  uint64_t next_created_ = 0;
  int64_t created_elements_ = 0;  // in created_, bounded (CountCreated)
  int64_t steps_ = 0;
  int depth_ = 0;
};

}  // namespace tracespec::jml

#endif  // TRACESPEC_VALIDATOR_JML_OBSERVATION_EVAL_H_

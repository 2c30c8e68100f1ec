// Internal to tracespec_synth: what the templates talk about. Terms are the
// expressions the method's observations give values to — parameters,
// receiver fields before (\old(f)) and after (f), \result, array lengths and
// elements, fields of argument and result objects — and atoms are
// predicates over the pre-state (comparisons, nullity, array and number
// predicates) used for guards, boolean results and conditional forms.
#ifndef TRACESPEC_AGENT_SYNTH_VOCABULARY_H_
#define TRACESPEC_AGENT_SYNTH_VOCABULARY_H_

#include <string>
#include <vector>

#include "agent/synth/context.h"

namespace tracespec::synth {

enum class TermShape { kScalar, kString, kReference };

// Type classes the templates distinguish.
inline bool IsScalarType(const jml::Type& t) { return t.IsPrimitive() && !t.IsVoid(); }
inline bool IsStringType(const jml::Type& t) {
  return t.IsClass() && t.class_name() == "java.lang.String";
}
inline bool IsNumericType(const jml::Type& t) {
  return t.IsPrimitive() && !t.IsBoolean() && !t.IsVoid();
}
// byte, short, int, long (not char).
inline bool IsIntegralType(const jml::Type& t) {
  using K = jml::Type::Kind;
  return t.Is(K::kInt) || t.Is(K::kLong) || t.Is(K::kShort) || t.Is(K::kByte);
}
inline bool IsFloatingType(const jml::Type& t) {
  return t.Is(jml::Type::Kind::kFloat) || t.Is(jml::Type::Kind::kDouble);
}

// A value-bearing expression.
struct Term {
  TermShape shape = TermShape::kScalar;
  // In postconditions: "\\old(balance)", "balance", "\\result", "a.length".
  std::string text;
  // In preconditions; empty for outputs.
  std::string pre_text;
  jml::Type type;
  // Determined by the pre-state (parameters, \old(...)).
  bool input = false;
  // Outputs only: whether some normal observation shows a value that
  // differs from the pre-state's (fields), or always true for \result.
  bool changes = false;
  // A postcondition guard needed for the term to be defined, e.g.
  // "\\result != null && \\result.length >= 1"; empty when none.
  std::string guard;
  // Values per observation (text evaluated in the post-state).
  std::vector<jml::EvalValue> values;
};

// An array the observations record contents of.
struct ArrayTerm {
  // Element access with '@' for the index: "a[@]", "\\result[@]".
  std::string element;
  std::string old_element;  // "\\old(a[@])" (inputs)
  std::string pre_element;  // in preconditions ("a[@]"); empty for outputs
  std::string length;       // "a.length"
  std::string old_length;   // "\\old(f.length)" / "a.length"
  std::string pre_length;   // "a.length"; empty for outputs
  std::string name;         // "a", "\\result", "items" (for assignable: name[*])
  jml::Type element_type;
  bool input = false;   // exists in the pre-state (parameter or field)
  bool output = false;  // its post-state contents are a result of the call
  bool changes = false; // contents differ between pre and post in some normal observation
  bool is_result = false;
  // Every normal call returned it with the same small length: a tuple whose
  // elements have terms of their own (\result[0], \result[1]).
  bool tuple = false;
};

// A predicate over the pre-state.
struct Atom {
  std::string pre;        // in requires: "amount <= 0"
  std::string post;       // the same in ensures: "amount <= 0", "\\old(balance) < amount"
  std::string neg_pre;    // its negation in requires: "amount > 0"
  std::string neg_post;
  int order = 0;          // preference, lower first
  // The term(s) it compares, for "largest region" choices (see guards.cpp).
  int family = 0;
  // Whether it is true on some observations and false on others (only
  // those can separate outcomes); atoms true everywhere are kept for
  // describing the observed input domain.
  bool splits = false;
  // Worth mentioning when every normal call satisfied it (sortedness).
  bool noteworthy = false;
  // An edge of the input domain that counterexamples tend to sit on (NaN,
  // infinities, MIN_VALUE, arithmetic overflow): tried first when a
  // refuted clause is weakened (see FindWeakeningGuard).
  bool edge = false;
  // For overflow edges, the arithmetic they guard ("x + y"): only clauses
  // computing it are weakened with them.
  std::string edge_expr;
  std::vector<jml::Truth> truth;  // per observation
};

struct Vocabulary {
  std::vector<Term> terms;
  std::vector<ArrayTerm> arrays;
  std::vector<Atom> atoms;
  // Atoms only the guards of exceptional cases use, after `atoms` failed
  // to separate the calls that threw: a sum of two integral inputs
  // compared with a third (`off + len > n`), a String input holding a
  // character that is not a digit. The templates do not see them.
  std::vector<Atom> guard_atoms;
  // Per observation: a key of all input values (support counting);
  // references count by kind, not identity.
  std::vector<std::string> input_keys;
  // Per term index (inputs only, else empty): per observation, the value's
  // rendering (support counting by the inputs a clause uses).
  std::vector<std::vector<std::string>> term_keys;
};

struct VocabularyOptions {
  int max_terms = 48;
  int max_atoms = 160;
  int max_guard_atoms = 96;
  // Indices of result array elements turned into terms (\result[0], ...).
  int max_indexed_elements = 3;
};

// Builds the vocabulary of `ctx`'s method from its observations. Terms whose
// value is unknown on every observation are left out.
Vocabulary BuildVocabulary(SynthContext* ctx, const VocabularyOptions& options);

// Replaces every '@' in `pattern` with `index`.
std::string At(const std::string& pattern, const std::string& index);

}  // namespace tracespec::synth

#endif  // TRACESPEC_AGENT_SYNTH_VOCABULARY_H_

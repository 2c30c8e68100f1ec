// CTL formulas: syntax tree and parser.
//
// Syntax, from loosest to tightest binding:
//   f <-> g          equivalence, left associative
//   f -> g           implication, right associative
//   f | g            disjunction
//   f & g            conjunction
//   !f  EX f  AX f  EF f  AF f  EG f  AG f      prefix operators
//   true  false  NAME  "quoted name"  (f)  E[f U g]  A[f U g]
// So `AG p -> EF q` reads `(AG p) -> (EF q)` and `!p & q` reads `(!p) & q`.
// NAME is a proposition (a label of the model or a state's name) made of
// letters, digits and _ . $ = + / , % @ - ; other names, and names that are
// keywords (E, A, U, EX, true, ...), are written in double quotes.
#ifndef TRACESPEC_VALIDATOR_CTL_FORMULA_H_
#define TRACESPEC_VALIDATOR_CTL_FORMULA_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tracespec::ctl {

enum class Op {
  kTrue, kFalse, kAtom, kNot, kAnd, kOr, kImplies, kIff,
  kEX, kAX, kEF, kAF, kEG, kAG, kEU, kAU,
};

// True for the operators with a path quantifier (EX ... A[ U ]).
bool IsTemporal(Op op);

struct Formula {
  struct Node {
    Op op;
    int lhs = -1;  // operand of unary operators; left operand of binary ones
    int rhs = -1;
    std::string atom;  // kAtom only
    int column = 0;    // 1-based column in `text` where the node starts
  };
  // Operands come before the nodes that use them; the root is last.
  std::vector<Node> nodes;
  std::string text;

  int root() const { return static_cast<int>(nodes.size()) - 1; }
  // Whether the sub-formula at `node` contains a path quantifier.
  bool HasTemporal(int node) const;
  // Canonical text of a sub-formula, with only the parentheses it needs.
  std::string ToString(int node) const;
  std::string ToString() const { return ToString(root()); }
};

// Parses `text`; errors read `formula "TEXT": column C: message`.
absl::StatusOr<Formula> ParseFormula(absl::string_view text);

}  // namespace tracespec::ctl

#endif  // TRACESPEC_VALIDATOR_CTL_FORMULA_H_

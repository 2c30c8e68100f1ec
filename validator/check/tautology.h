// Whether a specification predicate is true whatever values its terms take:
// a propositional and bit-vector tautology such as `a ==> b ==> a`,
// `x < y || x >= y` (x, y int) or `\result == \result` (\result int). Such a
// clause says nothing about the method; the built-in synthesizer leaves it
// out (agent/synth/tautologies.h).
//
// The predicate is read as Z3 sees its shape only: boolean connectives
// (! && || ==> <== <==> <=!=>, and & | ^ on booleans, ?: of booleans) over
// comparisons; the operands of an integral comparison are Java arithmetic
// (+ - * and unary minus wrap around at the operation's width, literals) over
// free variables, one per maximal other subterm (\result, \old(x), a field,
// an array element, a call, a division, a cast), the same text being the
// same variable; references compare as free values of their own sort with
// `null` one of them. Floating-point and \real comparisons, quantifiers and
// other boolean terms are opaque atoms (again by text). The answer is sound,
// not complete: a clause the encoding cannot read (an allocation, a
// reference comparison of a call's result, an expression the type checker
// did not type) is not a tautology, and neither is one Z3 does not decide
// within its small time limit. Well-definedness is not considered: `a[i] ==
// a[i]` is a tautology.
//
// Z3-free header; the predicate must have been type-checked.
#ifndef TRACESPEC_VALIDATOR_CHECK_TAUTOLOGY_H_
#define TRACESPEC_VALIDATOR_CHECK_TAUTOLOGY_H_

#include "validator/jml/ast.h"

namespace tracespec::check {

bool IsTautology(const jml::Expr& predicate);

}  // namespace tracespec::check

#endif  // TRACESPEC_VALIDATOR_CHECK_TAUTOLOGY_H_

// Pretty printer: AST -> canonical JML text. Canonical means one spelling
// per construct (requires, not pre; assignable, not modifies; behavior, not
// behaviour), minimal parentheses, and literals in a normal form, so that
// parsing the printed text gives back the same AST (SameMethodSpec etc.).
#ifndef TRACESPEC_VALIDATOR_JML_PRINTER_H_
#define TRACESPEC_VALIDATOR_JML_PRINTER_H_

#include <string>

#include "absl/strings/string_view.h"
#include "validator/jml/ast.h"

namespace tracespec::jml {

std::string PrintExpr(const Expr& e);
std::string PrintLiteral(const Literal& literal);
std::string PrintTypeRef(const TypeRef& t);
std::string PrintStoreRef(const StoreRef& r);
std::string PrintMethodRef(const MethodRef& m);
// One clause, "requires x > 0;".
std::string PrintClause(const Clause& c);
// One spec case on several lines, each prefixed by `indent`.
std::string PrintSpecCase(const SpecCase& c, absl::string_view indent = "");
// A whole method specification, one clause per line, parseable by
// ParseSpecText.
std::string PrintMethodSpec(const MethodSpec& spec);
// The same as //@ annotation lines with `indent` before each "//@".
std::string PrintAsAnnotationComments(const MethodSpec& spec, absl::string_view indent = "");
std::string PrintClassClause(const ClassClause& c);
std::string PrintBodyAnnotation(const BodyAnnotation& a);

}  // namespace tracespec::jml

#endif  // TRACESPEC_VALIDATOR_JML_PRINTER_H_

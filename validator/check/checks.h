// The two checks behind Validator::Validate, on an already type-checked
// specification. Internal to validator/check.
#ifndef TRACESPEC_VALIDATOR_CHECK_CHECKS_H_
#define TRACESPEC_VALIDATOR_CHECK_CHECKS_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "validator/check/lowering.h"
#include "validator/check/validator.h"
#include "validator/jml/ast.h"
#include "validator/jml/clauses.h"
#include "validator/jml/type_checker.h"
#include "validator/symex/program.h"

namespace tracespec::check {

// What both checks need to know about the specification.
struct SpecUnderCheck {
  const jml::MethodContext* context = nullptr;
  const jml::MethodSpec* spec = nullptr;
  std::vector<jml::FlatCase> cases;
  // Instance invariants of the method's class (type-checked), assumed at
  // entry and checked at exit (not for constructors at entry).
  std::vector<const jml::ClassClause*> invariants;
  // Those of `invariants` given with the request (ValidateRequest::
  // class_invariants), in its order.
  std::vector<const jml::ClassClause*> given_invariants;
  const jml::TypeEnvironment* env = nullptr;
  // Loop invariants of the method body to check (--check-loop-invariants),
  // type-checked with the locals of the class file's LocalVariableTable.
  std::vector<const jml::BodyAnnotation*> loop_invariants;
  // The head (bytecode offset) of the loop each loop annotation precedes,
  // where one was found (LoopHeadOf in validator.cpp); the others are
  // checked at the loop heads on the line after them.
  std::map<const jml::BodyAnnotation*, uint32_t> loop_heads;
  // Statements of the method body, in source order, type-checked like the
  // loop invariants: assert (checked at every arrival within the bounds),
  // assume (assumed from there on), ghost local declarations and set
  // (executed).
  std::vector<const jml::BodyAnnotation*> body_statements;
  // Model fields of the method's class: name -> represents value.
  std::map<std::string, const jml::Expr*> represents;
  // Model methods of the method's class with a `return e;` body (inlined).
  ModelMethods model_methods;
  // Instance ghost fields of the method's class (declared in the .java or
  // .jml contract): state of the receiver, changed by `set` statements of
  // the method body.
  std::vector<const jml::FieldDecl*> ghost_fields;
};

// Consistency of the bytecode of `method` with the specification, within
// the request's bounds. Errors are reserved for failures of the machinery
// (e.g. a malformed class met during execution).
absl::StatusOr<CheckResult> CheckConsistency(symex::Program& program,
                                             const symex::MethodInfo& method,
                                             const SpecUnderCheck& spec,
                                             const ValidateRequest& request);

// Coverage of the request's observations (all of the method: the caller
// checks that).
CheckResult CheckCoverage(const std::vector<v1::Observation>& observations,
                          const SpecUnderCheck& spec);

// The strength of the specification on the observations it admits (see
// StrengthResult in validator.h): determinism queries on `program`, then
// perturbed outcomes through jml::ObservationEvaluator.
StrengthResult MeasureStrengthOf(symex::Program& program, const symex::MethodInfo& method,
                                 const SpecUnderCheck& spec,
                                 const std::vector<v1::Observation>& observations,
                                 const ValidateRequest& request);

}  // namespace tracespec::check

#endif  // TRACESPEC_VALIDATOR_CHECK_CHECKS_H_

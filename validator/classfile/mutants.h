// Single-change mutants of one method's bytecode, written as whole class
// files with a same-length patch of the code (no offset, constant pool or
// stack map changes, so the JVM's verifier accepts them as it accepted the
// original): arithmetic operator swaps, relational boundary shifts and
// negated branches, constants ±1 and 0, field stores removed (the operands
// popped), and a returned value replaced by the type's default where the
// value comes from a local or a field read just before the return.
#ifndef TRACESPEC_VALIDATOR_CLASSFILE_MUTANTS_H_
#define TRACESPEC_VALIDATOR_CLASSFILE_MUTANTS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tracespec::classfile {

struct Mutant {
  // "line 28 (pc 12): iadd -> isub"
  std::string description;
  // "arithmetic", "relational", "negated branch", "constant",
  // "removed field store", "default return"
  std::string kind;
  uint32_t pc = 0;
  uint32_t line = 0;  // 0 when the class has no line table
  // The whole class file, patched.
  std::string bytes;
};

// The mutants of method `name` + `descriptor` of the class file `bytes`, in
// pc order then operator order. NotFound when the class has no such method
// with code; the class file's own errors as ParseClassFile reports them.
absl::StatusOr<std::vector<Mutant>> MethodMutants(absl::string_view bytes,
                                                  const std::string& source,
                                                  absl::string_view name,
                                                  absl::string_view descriptor);

}  // namespace tracespec::classfile

#endif  // TRACESPEC_VALIDATOR_CLASSFILE_MUTANTS_H_

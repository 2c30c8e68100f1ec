// Single-change mutants of one method's bytecode, written as whole class
// files with a same-length patch of the code: no offset, constant-pool,
// exception-table or stack-map change, and every patch keeps the operand
// stack's types at each instruction, so the JVM's verifier accepts a mutant
// as it accepted the original. Operators, one mutant per applicable site:
//   arithmetic          iadd <-> isub, imul -> iadd/idiv, idiv -> imul,
//                       irem -> idiv, the long and double counterparts,
//                       iand <-> ior, ixor -> iand
//   relational          a comparison's boundary moved (< to <=, >= to >, ...)
//   negated branch      a conditional branch's condition negated
//   constant            iconst_n/bipush/sipush to n+1, n-1 and 0 (iconst_m1
//                       .. iconst_5 stay in their range), lconst/dconst 0<->1,
//                       iinc's increment ±1 (never to 0)
//   removed field store putfield/putstatic replaced by pops of its operands
//   default return      a local or field loaded just before xreturn replaced
//                       by the type's default (0, 0L, 0.0, null)
// A patch the same as an earlier one at the same instruction (iconst_1's
// n-1 and 0) is one mutant, the first.
#ifndef TRACESPEC_VALIDATOR_CLASSFILE_MUTANTS_H_
#define TRACESPEC_VALIDATOR_CLASSFILE_MUTANTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tracespec::classfile {

struct Mutant {
  // "M07": the mutant's place in the method's full list (pc order, then the
  // operators in the order above), the same whatever the cap.
  std::string id;
  // "arithmetic", "relational", "negated branch", "constant",
  // "removed field store", "default return".
  std::string kind;
  // "iadd -> isub", "putfield checksum removed", "bipush 31 -> 32".
  std::string change;
  uint32_t pc = 0;
  uint32_t line = 0;  // 0 when the class has no line table
  // The whole class file, patched.
  std::string bytes;

  // "M07 iadd -> isub @pc 12 (line 28)".
  std::string Label() const;
};

struct MutantOptions {
  // At most this many mutants (0: all). Over the cap, the ones kept are
  // spread evenly over the full list (indices floor(k * n / cap)), so the
  // selection is deterministic and covers the whole method.
  int max_mutants = 40;
};

struct MethodMutantsResult {
  std::vector<Mutant> mutants;  // in id order
  int generated = 0;            // before the cap
  std::string descriptor;       // the method's full JVM descriptor, "(I)V"
};

// The mutants of method `name` of the class file `bytes`; `descriptor` is
// the full JVM descriptor, its parameters only ("(I)"), or "" when the name
// is not overloaded. NotFound when no method matches or it has no code,
// InvalidArgument when an empty descriptor matches several; the class
// file's own errors as ParseClassFile reports them (`source` names it).
absl::StatusOr<MethodMutantsResult> MethodMutants(absl::string_view bytes,
                                                  const std::string& source,
                                                  absl::string_view name,
                                                  absl::string_view descriptor,
                                                  const MutantOptions& options = {});

}  // namespace tracespec::classfile

#endif  // TRACESPEC_VALIDATOR_CLASSFILE_MUTANTS_H_

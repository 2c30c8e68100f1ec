// The state fields of a class, read from its class file, and the values each
// can take. Internal to validator/protocol (exposes symex::Program types,
// no Z3).
//
// Which fields can be state fields (the rule the explorer and `protocol mine
// --classpath` apply):
//   boolean                      false, true
//   enum (a class on the class   its constants in declaration order, then
//   path with ACC_ENUM that      null (a field of enum type may hold null)
//   extends java.lang.Enum)
//   byte, short, char, int,      finite but too many to enumerate: the values
//   long                         are discovered by exploration from the
//                                constructors, and the exploration stops with
//                                an error when they are not bounded (more
//                                post-states per call, or more abstract states
//                                in all, than the limits allow)
// Anything else (float, double, String, other references, arrays) is
// rejected: its values are not finitely many in any useful sense.
#ifndef TRACESPEC_VALIDATOR_PROTOCOL_FIELDS_H_
#define TRACESPEC_VALIDATOR_PROTOCOL_FIELDS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "validator/symex/program.h"

namespace tracespec::protocol {

struct StateField {
  enum class Kind { kBoolean, kEnum, kIntegral };
  std::string name;
  const symex::FieldInfo* field = nullptr;
  Kind kind = Kind::kBoolean;
  // kBoolean: "false", "true". kEnum: the constants' names, then "null".
  // kIntegral: empty (discovered by exploration).
  std::vector<std::string> values;
  // kEnum: the enum class and its constants' static fields (parallel to
  // values without the final "null").
  const symex::ClassInfo* enum_class = nullptr;
  std::vector<const symex::FieldInfo*> constants;
};

using symex::EnumConstants;
using symex::IsEnumClass;

// Resolves `names` as instance fields of `cls` (inherited ones included) and
// classifies them; errors name the field and say why it cannot be a state
// field.
absl::StatusOr<std::vector<StateField>> ResolveStateFields(const symex::Program& program,
                                                           const symex::ClassInfo& cls,
                                                           const std::vector<std::string>& names);

// Loads `class_path` and finds the class `class_name` (binary name) on it.
struct LoadedClass {
  std::unique_ptr<symex::Program> program;
  const symex::ClassInfo* cls = nullptr;
};
absl::StatusOr<LoadedClass> LoadClass(const std::string& class_path, const std::string& class_name);

}  // namespace tracespec::protocol

#endif  // TRACESPEC_VALIDATOR_PROTOCOL_FIELDS_H_

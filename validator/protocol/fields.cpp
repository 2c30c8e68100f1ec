// State fields and their value domains from class files; see fields.h.
#include "validator/protocol/fields.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/status.h"
#include "validator/classfile/class_file.h"
#include "validator/classfile/class_path.h"
#include "validator/classfile/descriptors.h"

namespace tracespec::protocol {

using symex::ClassInfo;
using symex::FieldInfo;

absl::StatusOr<std::vector<StateField>> ResolveStateFields(const symex::Program& program, const ClassInfo& cls,
                                                           const std::vector<std::string>& names) {
  if (names.empty()) return absl::InvalidArgumentError("no state fields named");
  const std::vector<const FieldInfo*> fields = program.InstanceFields(&cls);
  std::vector<StateField> out;
  std::set<std::string> seen;
  for (const std::string& name : names) {
    if (!seen.insert(name).second)
      return absl::InvalidArgumentError(absl::StrCat("state field '", name, "' is named twice"));
    // The class's own field shadows inherited ones of the same name.
    const FieldInfo* found = nullptr;
    for (const ClassInfo* c : program.SuperChain(&cls)) {
      for (const FieldInfo* f : c->fields)
        if (!f->is_static && f->name == name) found = found ? found : f;
      if (found) break;
    }
    const std::string where = absl::StrCat("state field '", name, "' of ", cls.binary_name());
    if (!found) {
      std::vector<std::string> known;
      for (const FieldInfo* f : fields) known.push_back(f->name);
      for (const FieldInfo* f : cls.fields)
        if (f->is_static && f->name == name)
          return absl::InvalidArgumentError(absl::StrCat(where, ": a static field cannot be part of an object's state"));
      return absl::NotFoundError(absl::StrCat(where, ": no such instance field (",
                                              known.empty() ? "the class has none" : "fields: " + absl::StrJoin(known, ", "),
                                              ")"));
    }
    StateField sf;
    sf.name = name;
    sf.field = found;
    const std::string& d = found->descriptor;
    switch (d[0]) {
      case 'Z':
        sf.kind = StateField::Kind::kBoolean;
        sf.values = {"false", "true"};
        break;
      case 'B': case 'S': case 'C': case 'I': case 'J':
        sf.kind = StateField::Kind::kIntegral;
        break;
      case 'L': {
        const std::string type = classfile::DescriptorToClassName(d);
        const ClassInfo* e = program.FindClass(type);
        if (!IsEnumClass(e))
          return absl::InvalidArgumentError(absl::StrCat(
              where, " has type ", classfile::DescriptorToJava(d),
              e && e->is_missing()
                  ? (symex::Program::IsJdkClass(type) ? ", which the validator does not model"
                                                      : ", which is not on the class path")
                  : "",
              ": only boolean, enum and integral fields (byte, short, char, int, long) can be state fields, "
              "other references have no finite set of values"));
        sf.kind = StateField::Kind::kEnum;
        sf.enum_class = e;
        sf.constants = EnumConstants(program, *e);
        for (const FieldInfo* c : sf.constants) sf.values.push_back(c->name);
        sf.values.push_back("null");
        break;
      }
      default:
        return absl::InvalidArgumentError(absl::StrCat(
            where, " has type ", classfile::DescriptorToJava(d),
            ": only boolean, enum and integral fields (byte, short, char, int, long) can be state fields"));
    }
    out.push_back(std::move(sf));
  }
  return out;
}

absl::StatusOr<LoadedClass> LoadClass(const std::string& class_path, const std::string& class_name) {
  TS_ASSIGN_OR_RETURN(classfile::ClassPath cp, classfile::ClassPath::Create(class_path));
  LoadedClass loaded;
  TS_ASSIGN_OR_RETURN(loaded.program, symex::Program::Load(std::move(cp)));
  TS_RETURN_IF_ERROR(loaded.program->NeededClass(classfile::BinaryToInternal(class_name)));
  loaded.cls = loaded.program->FindClass(classfile::BinaryToInternal(class_name));
  if (loaded.cls == nullptr || loaded.cls->origin != ClassInfo::Origin::kClassPath)
    return absl::NotFoundError(absl::StrCat("class ", class_name, " not found on the class path ", class_path));
  return loaded;
}

}  // namespace tracespec::protocol

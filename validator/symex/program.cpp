// The closed world of classes, types, fields and methods; see program.h.
#include "validator/symex/program.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "common/status.h"
#include "validator/jdk/jdk_models.h"
#include "validator/symex/library_classes.h"

namespace tracespec::symex {

using classfile::ClassFile;
using classfile::CpTag;
using classfile::DescriptorToJava;

ElemKind ElemKindOf(absl::string_view d) {
  switch (d.empty() ? 'L' : d[0]) {
    case 'Z': return ElemKind::kBoolean;
    case 'B': return ElemKind::kByte;
    case 'C': return ElemKind::kChar;
    case 'S': return ElemKind::kShort;
    case 'I': return ElemKind::kInt;
    case 'J': return ElemKind::kLong;
    case 'F': return ElemKind::kFloat;
    case 'D': return ElemKind::kDouble;
    default: return ElemKind::kRef;
  }
}

std::string FieldInfo::DisplayName() const {
  return absl::StrCat(classfile::InternalToBinary(owner), ".", name);
}

std::string MethodInfo::DisplayName() const {
  std::vector<std::string> params;
  for (const std::string& p : signature.params) params.push_back(DescriptorToJava(p));
  return absl::StrCat(owner->binary_name(), ".", name, "(", absl::StrJoin(params, ","), ")");
}

std::string MethodInfo::SourceFile() const {
  if (owner->file != nullptr && !owner->file->source_file.empty()) {
    return owner->file->source_file;
  }
  std::string simple = owner->name.substr(owner->name.rfind('/') + 1);
  return simple.substr(0, simple.find('$')) + ".java";
}

std::string TypeInfo::DisplayName() const {
  return is_array ? DescriptorToJava(name) : classfile::InternalToBinary(name);
}

absl::StatusOr<std::unique_ptr<Program>> Program::Load(classfile::ClassPath class_path) {
  std::unique_ptr<Program> program(new Program());
  program->class_path_ = std::move(class_path);
  TS_RETURN_IF_ERROR(program->Build());
  return program;
}

absl::Status Program::NeededClass(absl::string_view internal_name) const {
  std::deque<std::string> queue = {std::string(internal_name)};
  std::set<std::string> seen;
  while (!queue.empty()) {
    std::string name = std::move(queue.front());
    queue.pop_front();
    if (!seen.insert(name).second) continue;
    auto unreadable = unreadable_.find(name);
    if (unreadable != unreadable_.end()) {
      if (name == internal_name) return unreadable->second;
      return absl::Status(unreadable->second.code(),
                          absl::StrCat("class ", classfile::InternalToBinary(internal_name),
                                       " needs its supertype ", classfile::InternalToBinary(name),
                                       ", which cannot be loaded: ",
                                       unreadable->second.message()));
    }
    const ClassInfo* cls = FindClass(name);
    if (cls == nullptr) continue;
    if (!cls->super_name.empty()) queue.push_back(cls->super_name);
    for (const std::string& i : cls->interfaces) queue.push_back(i);
  }
  return absl::OkStatus();
}

bool Program::IsJdkClass(absl::string_view internal_name) {
  return absl::StartsWith(internal_name, "java/") || absl::StartsWith(internal_name, "javax/") ||
         absl::StartsWith(internal_name, "jdk/") || absl::StartsWith(internal_name, "sun/");
}

std::string Program::AbsentClass(absl::string_view internal_name) const {
  auto unreadable = unreadable_.find(std::string(internal_name));
  if (unreadable == unreadable_.end() && IsJdkClass(internal_name)) {
    return absl::StrCat("class ", classfile::InternalToBinary(internal_name),
                        " is not modelled by the validator");
  }
  if (unreadable == unreadable_.end()) {
    return absl::StrCat("class ", classfile::InternalToBinary(internal_name),
                        " is not on the class path");
  }
  return absl::StrCat("class ", classfile::InternalToBinary(internal_name), " cannot be loaded (",
                      unreadable->second.message(), ")");
}

ClassInfo* Program::AddClass(std::unique_ptr<ClassInfo> cls) {
  ClassInfo* raw = cls.get();
  classes_[cls->name] = std::move(cls);
  return raw;
}

FieldInfo* Program::AddField(const std::string& owner, const std::string& name,
                             const std::string& descriptor, bool is_static, bool is_final) {
  auto field = std::make_unique<FieldInfo>();
  field->id = static_cast<int>(fields_.size());
  field->owner = owner;
  field->name = name;
  field->descriptor = descriptor;
  field->is_static = is_static;
  field->is_final = is_final;
  FieldInfo* raw = field.get();
  fields_.push_back(std::move(field));
  return raw;
}

void Program::AddLibraryClasses() {
  for (const LibraryClassSpec& spec : LibraryClasses()) {
    auto cls = std::make_unique<ClassInfo>();
    cls->name = spec.name;
    cls->super_name = spec.super_name;
    cls->interfaces = spec.interfaces;
    cls->origin = ClassInfo::Origin::kLibrary;
    cls->is_interface = spec.is_interface;
    cls->is_abstract = spec.is_abstract;
    cls->closed = spec.closed;
    cls->no_instances = spec.no_instances;
    for (const LibraryField& f : spec.fields) {
      cls->fields.push_back(AddField(spec.name, f.name, f.descriptor, f.is_static, true));
    }
    AddClass(std::move(cls));
  }
}

void Program::NoteDescriptor(absl::string_view descriptor) {
  size_t i = 0;
  while (i < descriptor.size()) {
    size_t n = classfile::FieldDescriptorLength(descriptor.substr(i));
    if (n == 0) {
      ++i;  // '(' , ')' or 'V' of a method descriptor
      continue;
    }
    NoteReferencedName(classfile::DescriptorToClassName(descriptor.substr(i, n)));
    i += n;
  }
}

void Program::NoteReferencedName(const std::string& name) {
  if (name.empty()) return;
  if (name[0] == '[') {
    array_types_.push_back(name);
    NoteReferencedName(classfile::DescriptorToClassName(name.substr(1)));
    return;
  }
  if (name.size() == 1) return;  // a primitive descriptor
  if (classes_.count(name) == 0) {
    auto cls = std::make_unique<ClassInfo>();
    cls->name = name;
    cls->origin = ClassInfo::Origin::kMissing;
    AddClass(std::move(cls));
  }
}

absl::Status Program::LoadClasses(classfile::ClassPath& path, bool jdk_models,
                                  std::vector<ClassInfo*>* loaded) {
  for (const std::string& name : path.ListClasses()) {
    if (!jdk_models && absl::StartsWith(name, "java/")) continue;  // the built-in models win
    if (!jdk_models && absl::StartsWith(name, jdk::kModelPackagePrefix)) continue;
    absl::StatusOr<const ClassFile*> read = path.Load(name);
    if (!read.ok()) {
      if (jdk_models) return read.status();  // the embedded models are ours
      unreadable_.emplace(name, read.status());  // see Load() in program.h
      continue;
    }
    const ClassFile* file = *read;
    auto cls = std::make_unique<ClassInfo>();
    cls->name = file->name;
    cls->super_name = file->super_name;
    cls->interfaces = file->interfaces;
    cls->file = file;
    cls->is_interface = file->is_interface();
    cls->is_abstract = file->is_abstract() || file->is_interface();
    cls->is_jdk_model = jdk_models;
    cls->no_instances = jdk_models;
    for (const classfile::Field& f : file->fields) {
      FieldInfo* field = AddField(file->name, f.name, f.descriptor, f.is_static(), f.is_final());
      field->decl = &f;
      field->owner_file = file;
      field->is_synthetic = (f.access & classfile::kAccSynthetic) != 0;
      cls->fields.push_back(field);
    }
    for (const classfile::Method& m : file->methods) {
      auto info = std::make_unique<MethodInfo>();
      info->owner = cls.get();
      info->method = &m;
      info->name = m.name;
      info->descriptor = m.descriptor;
      auto sig = classfile::ParseMethodDescriptor(m.descriptor);
      if (!sig.ok()) return sig.status();  // already checked by the reader
      info->signature = *sig;
      if (m.name == "<clinit>") cls->has_clinit = true;
      cls->methods.push_back(std::move(info));
    }
    loaded->push_back(AddClass(std::move(cls)));
  }
  return absl::OkStatus();
}

absl::Status Program::Build() {
  AddLibraryClasses();
  std::vector<ClassInfo*> loaded;
  TS_RETURN_IF_ERROR(LoadClasses(class_path_, /*jdk_models=*/false, &loaded));
  TS_RETURN_IF_ERROR(jdk_models_.AddJarBytes(jdk::ModelArchive(), "<jdk models>"));
  TS_RETURN_IF_ERROR(LoadClasses(jdk_models_, /*jdk_models=*/true, &loaded));
  // Names the loaded code mentions: classes (missing ones become opaque) and
  // array types.
  for (ClassInfo* cls : loaded) {
    const ClassFile& file = *cls->file;
    NoteReferencedName(cls->super_name);
    for (const std::string& i : cls->interfaces) NoteReferencedName(i);
    for (const classfile::Field& f : file.fields) NoteDescriptor(f.descriptor);
    for (const classfile::Method& m : file.methods) NoteDescriptor(m.descriptor);
    for (size_t i = 1; i < file.pool.size(); ++i) {
      const classfile::CpEntry& e = file.pool.at(i);
      if (e.tag == CpTag::kClass) {
        const std::string& name = file.pool.ClassName(i);
        NoteReferencedName(name);
        // anewarray C creates C[]; checkcast/instanceof may name C[] too.
        array_types_.push_back(classfile::ClassNameToDescriptor(name).insert(0, "["));
      } else if (e.tag == CpTag::kNameAndType) {
        NoteDescriptor(file.pool.Utf8(e.index2));
      }
    }
  }
  for (const char* p : {"[Z", "[B", "[C", "[S", "[I", "[J", "[F", "[D"}) {
    array_types_.push_back(p);
  }
  // Initialisation needs, superclasses first.
  std::function<bool(ClassInfo*, int)> needs = [&](ClassInfo* cls, int depth) -> bool {
    if (cls->origin != ClassInfo::Origin::kClassPath || depth > 512) return false;
    if (cls->has_clinit) return true;
    for (const FieldInfo* f : cls->fields) {
      if (f->is_static && f->decl != nullptr && f->decl->constant_value_index != 0) return true;
    }
    if (cls->is_interface) return false;
    auto it = classes_.find(cls->super_name);
    return it != classes_.end() && needs(it->second.get(), depth + 1);
  };
  for (ClassInfo* cls : loaded) cls->needs_initialization = needs(cls, 0);
  AssignTypeIds();
  return absl::OkStatus();
}

void Program::AssignTypeIds() {
  std::map<std::string, std::vector<ClassInfo*>> children;
  for (auto& [name, cls] : classes_) {
    if (!cls->super_name.empty()) children[cls->super_name].push_back(cls.get());
  }
  auto instantiable = [](const ClassInfo* cls) {
    return !cls->is_missing() && !cls->is_interface && !cls->is_abstract && !cls->no_instances;
  };
  auto add_type = [this](TypeInfo t) {
    t.id = static_cast<int>(types_.size()) + 1;
    type_ids_[t.name] = t.id;
    types_.push_back(std::move(t));
  };
  // Depth-first over the class tree, so that the concrete subclasses of a
  // class get neighbouring ids.
  std::set<std::string> visited;
  std::vector<ClassInfo*> stack;
  if (classes_.count("java/lang/Object")) stack.push_back(classes_["java/lang/Object"].get());
  while (!stack.empty()) {
    ClassInfo* cls = stack.back();
    stack.pop_back();
    if (!visited.insert(cls->name).second) continue;
    if (instantiable(cls)) {
      TypeInfo t;
      t.name = cls->name;
      t.cls = cls;
      add_type(t);
      cls->type_id = types_.back().id;
    }
    auto& kids = children[cls->name];
    std::sort(kids.begin(), kids.end(),
              [](const ClassInfo* a, const ClassInfo* b) { return a->name > b->name; });
    for (ClassInfo* kid : kids) stack.push_back(kid);
  }
  // Classes below a missing superclass, then the missing classes themselves.
  for (auto& [name, cls] : classes_) {
    if (visited.count(name) == 0 && instantiable(cls.get())) {
      TypeInfo t;
      t.name = name;
      t.cls = cls.get();
      add_type(t);
      cls->type_id = types_.back().id;
    }
  }
  for (auto& [name, cls] : classes_) {
    if (cls->is_missing()) {
      TypeInfo t;
      t.name = name;
      t.cls = cls.get();
      t.opaque = true;
      add_type(t);
      cls->type_id = types_.back().id;
      opaque_types_.push_back(cls->type_id);
    }
  }
  // Array types, closed under taking the component.
  std::set<std::string> arrays;
  for (std::string a : array_types_) {
    while (!a.empty() && a[0] == '[' && classfile::IsFieldDescriptor(a)) {
      arrays.insert(a);
      a = a.substr(1);
    }
  }
  for (const std::string& a : arrays) {
    TypeInfo t;
    t.name = a;
    t.is_array = true;
    t.component = a.substr(1);
    t.elem = ElemKindOf(t.component);
    add_type(t);
  }
}

const ClassInfo* Program::FindClass(absl::string_view internal_name) const {
  auto it = classes_.find(std::string(internal_name));
  return it == classes_.end() ? nullptr : it->second.get();
}

const MethodInfo* Program::FindDeclaredMethod(const ClassInfo* cls, absl::string_view name,
                                              absl::string_view descriptor) const {
  if (cls == nullptr) return nullptr;
  for (const auto& m : cls->methods) {
    if (m->name == name && m->descriptor == descriptor) return m.get();
  }
  return nullptr;
}

std::vector<const MethodInfo*> Program::FindMethodsByName(const ClassInfo* cls,
                                                          absl::string_view name) const {
  std::vector<const MethodInfo*> out;
  if (cls == nullptr) return out;
  for (const auto& m : cls->methods) {
    if (m->name == name) out.push_back(m.get());
  }
  return out;
}

int Program::TypeIdOf(absl::string_view name) const {
  auto it = type_ids_.find(std::string(name));
  return it == type_ids_.end() ? 0 : it->second;
}

bool Program::IsSubclassOrImplements(const ClassInfo* cls, absl::string_view target) const {
  std::deque<const ClassInfo*> queue = {cls};
  std::set<std::string> seen;
  while (!queue.empty()) {
    const ClassInfo* c = queue.front();
    queue.pop_front();
    if (c == nullptr || !seen.insert(c->name).second) continue;
    if (c->name == target) return true;
    if (!c->super_name.empty()) queue.push_back(FindClass(c->super_name));
    for (const std::string& i : c->interfaces) queue.push_back(FindClass(i));
  }
  return false;
}

bool Program::IsAssignable(absl::string_view from, absl::string_view to) const {
  if (from == to || to == "java/lang/Object") return true;
  auto key = std::make_pair(std::string(from), std::string(to));
  auto cached = assignable_cache_.find(key);
  if (cached != assignable_cache_.end()) return cached->second;
  bool result = IsAssignableUncached(from, to);
  assignable_cache_.emplace(std::move(key), result);
  return result;
}

bool Program::IsAssignableUncached(absl::string_view from, absl::string_view to) const {
  bool from_array = !from.empty() && from[0] == '[';
  bool to_array = !to.empty() && to[0] == '[';
  if (from_array) {
    if (!to_array) return to == "java/lang/Cloneable" || to == "java/io/Serializable";
    absl::string_view fc = from.substr(1), tc = to.substr(1);
    bool fc_ref = classfile::IsReference(fc), tc_ref = classfile::IsReference(tc);
    if (!fc_ref || !tc_ref) return fc == tc;
    return IsAssignable(classfile::DescriptorToClassName(fc), classfile::DescriptorToClassName(tc));
  }
  if (to_array) return false;
  const ClassInfo* cls = FindClass(from);
  return cls != nullptr && IsSubclassOrImplements(cls, to);
}

bool Program::HierarchyKnown(absl::string_view type) const {
  if (!type.empty() && type[0] == '[') {
    absl::string_view c = type.substr(1);
    return !classfile::IsReference(c) || HierarchyKnown(classfile::DescriptorToClassName(c));
  }
  std::deque<const ClassInfo*> queue = {FindClass(type)};
  std::set<std::string> seen;
  while (!queue.empty()) {
    const ClassInfo* c = queue.front();
    queue.pop_front();
    if (c == nullptr || c->is_missing()) return false;
    if (!seen.insert(c->name).second) continue;
    if (!c->super_name.empty()) queue.push_back(FindClass(c->super_name));
    for (const std::string& i : c->interfaces) queue.push_back(FindClass(i));
  }
  return true;
}

bool IsEnumClass(const ClassInfo* cls) {
  return cls != nullptr && cls->origin == ClassInfo::Origin::kClassPath && cls->file != nullptr &&
         (cls->file->access & classfile::kAccEnum) != 0 && cls->super_name == "java/lang/Enum";
}

std::vector<const FieldInfo*> EnumConstants(const Program& program, const ClassInfo& cls) {
  std::vector<const FieldInfo*> out;
  for (const classfile::Field& f : cls.file->fields) {
    if (!f.is_static() || (f.access & classfile::kAccEnum) == 0) continue;
    if (const FieldInfo* info = program.ResolveField(cls.name, f.name, f.descriptor)) out.push_back(info);
  }
  return out;
}

std::vector<int> Program::ConcreteSubtypes(absl::string_view type) const {
  auto cached = subtypes_cache_.find(std::string(type));
  if (cached != subtypes_cache_.end()) return cached->second;
  std::vector<int> out;
  for (const TypeInfo& t : types_) {
    if (t.opaque ? t.name == type : IsAssignable(t.name, type)) out.push_back(t.id);
  }
  subtypes_cache_.emplace(std::string(type), out);
  return out;
}

const FieldInfo* Program::ResolveField(absl::string_view owner, absl::string_view name,
                                       absl::string_view descriptor) const {
  std::function<const FieldInfo*(const ClassInfo*, int)> resolve =
      [&](const ClassInfo* c, int depth) -> const FieldInfo* {
    if (c == nullptr || c->is_missing() || depth > 512) return nullptr;
    for (const FieldInfo* f : c->fields) {
      if (f->name == name && f->descriptor == descriptor) return f;
    }
    for (const std::string& i : c->interfaces) {
      if (const FieldInfo* f = resolve(FindClass(i), depth + 1)) return f;
    }
    return c->super_name.empty() ? nullptr : resolve(FindClass(c->super_name), depth + 1);
  };
  return resolve(FindClass(owner), 0);
}

std::vector<const ClassInfo*> Program::SuperChain(const ClassInfo* cls) const {
  std::vector<const ClassInfo*> out;
  std::set<std::string> seen;
  while (cls != nullptr && seen.insert(cls->name).second) {
    out.push_back(cls);
    if (cls->is_missing() || cls->super_name.empty()) break;
    cls = FindClass(cls->super_name);
  }
  return out;
}

std::vector<const FieldInfo*> Program::InstanceFields(const ClassInfo* cls) const {
  std::vector<const FieldInfo*> out;
  for (const ClassInfo* c : SuperChain(cls)) {
    for (const FieldInfo* f : c->fields) {
      if (!f->is_static) out.push_back(f);
    }
  }
  std::sort(out.begin(), out.end(), [](const FieldInfo* a, const FieldInfo* b) {
    return std::tie(a->owner, a->name) < std::tie(b->owner, b->name);
  });
  return out;
}

std::vector<const FieldInfo*> Program::StaticFields(const ClassInfo* cls) const {
  std::vector<const FieldInfo*> out;
  for (const FieldInfo* f : cls->fields) {
    if (f->is_static) out.push_back(f);
  }
  return out;
}

bool Program::IsThrowable(const ClassInfo* cls) const {
  for (const ClassInfo* c : SuperChain(cls)) {
    if (c->name == "java/lang/Throwable") return true;
  }
  return false;
}

namespace {

CallTarget Unsupported(std::string reason) {
  CallTarget t;
  t.kind = CallTarget::Kind::kUnsupported;
  t.reason = std::move(reason);
  return t;
}

CallTarget Library(std::string key) {
  CallTarget t;
  t.kind = CallTarget::Kind::kLibrary;
  t.library_key = std::move(key);
  return t;
}

std::string JavaMethodName(absl::string_view owner, absl::string_view name,
                           absl::string_view descriptor) {
  std::vector<std::string> params;
  auto sig = classfile::ParseMethodDescriptor(descriptor);
  if (sig.ok()) {
    for (const std::string& p : sig->params) params.push_back(DescriptorToJava(p));
  }
  return absl::StrCat(classfile::InternalToBinary(owner), ".", name, "(",
                      absl::StrJoin(params, ","), ")");
}

}  // namespace

std::string Program::NotModelledCall(absl::string_view owner, absl::string_view name,
                                     absl::string_view descriptor) {
  if (name == "<init>") {
    std::string call = JavaMethodName(owner, name, descriptor);
    // "java.util.ArrayList.<init>(int)" -> "java.util.ArrayList(int)"
    absl::StrReplaceAll({{".<init>(", "("}}, &call);
    return absl::StrCat("constructor ", call, " is not modelled by the validator");
  }
  return absl::StrCat("call of ", JavaMethodName(owner, name, descriptor),
                      " is not modelled by the validator");
}

// A call that needs class `missing`, which the program does not have. A JDK
// class is never on the class path: the call is of a JDK method without a
// model.
CallTarget Program::MissingClass(absl::string_view owner, absl::string_view name,
                                 absl::string_view descriptor, absl::string_view missing) const {
  if (IsJdkClass(missing)) return Unsupported(NotModelledCall(owner, name, descriptor));
  return Unsupported(
      absl::StrCat("call of ", JavaMethodName(owner, name, descriptor), ": ", AbsentClass(missing)));
}

std::optional<CallTarget> Program::JdkModel(absl::string_view owner, absl::string_view name,
                                            absl::string_view descriptor) const {
  std::string key = absl::StrCat(owner, ".", name, descriptor);
  const jdk::ModelledMethod* entry = jdk::FindModelledMethod(key);
  if (entry == nullptr || entry->kind != jdk::ModelKind::kJava) return std::nullopt;
  const ClassInfo* model = FindClass(jdk::ModelClassName(owner));
  // An instance method's model is static and takes the receiver first: its
  // locals are laid out as the instance method's (receiver in slot 0).
  const MethodInfo* m =
      model == nullptr ? nullptr : FindDeclaredMethod(model, name, jdk::ModelDescriptor(*entry));
  if (m == nullptr || !m->has_code() || !m->is_static()) {
    // The table and the compiled models disagree (jdk_models_test catches it).
    return Unsupported(absl::StrCat("call of ", JavaMethodName(owner, name, descriptor),
                                    ": its Java model is missing"));
  }
  CallTarget t;
  t.kind = CallTarget::Kind::kBytecode;
  t.method = m;
  return t;
}

CallTarget Program::ResolveStatic(absl::string_view owner, absl::string_view name,
                                  absl::string_view descriptor) const {
  if (std::optional<CallTarget> model = JdkModel(owner, name, descriptor)) return *model;
  std::string key = absl::StrCat(owner, ".", name, descriptor);
  // The natives the Java models call (tracespec/jdk/Intrinsics).
  if (absl::StartsWith(owner, jdk::kModelPackagePrefix) && IsModelledLibraryMethod(key)) {
    return Library(key);
  }
  if (owner == kVerifierClass) {
    if (IsModelledLibraryMethod(key)) return Library(key);
    return Unsupported(NotModelledCall(owner, name, descriptor));
  }
  const ClassInfo* cls = FindClass(owner);
  if (cls == nullptr || cls->is_missing()) {
    return MissingClass(owner, name, descriptor, owner);
  }
  for (const ClassInfo* c : SuperChain(cls)) {
    if (c->is_missing()) {
      return MissingClass(owner, name, descriptor, c->name);
    }
    if (c->is_library()) {
      std::string k = absl::StrCat(c->name, ".", name, descriptor);
      if (IsModelledLibraryMethod(k)) return Library(k);
      return Unsupported(NotModelledCall(c->name, name, descriptor));
    }
    const MethodInfo* m = FindDeclaredMethod(c, name, descriptor);
    if (m != nullptr && m->is_static()) {
      if (!m->has_code()) {
        return Unsupported(absl::StrCat("call of native method ", m->DisplayName()));
      }
      CallTarget t;
      t.kind = CallTarget::Kind::kBytecode;
      t.method = m;
      return t;
    }
    if (c->is_interface) break;  // static interface methods are not inherited
  }
  return Unsupported(absl::StrCat("no static method ", JavaMethodName(owner, name, descriptor)));
}

CallTarget Program::ResolveSpecial(absl::string_view owner, absl::string_view name,
                                   absl::string_view descriptor) const {
  const ClassInfo* cls = FindClass(owner);
  if (cls == nullptr || cls->is_missing()) {
    return MissingClass(owner, name, descriptor, owner);
  }
  if (name == "<init>") {
    if (cls->is_library()) {
      std::string key = absl::StrCat(cls->name, ".", name, descriptor);
      if (IsModelledLibraryMethod(key)) return Library(key);
      // The java.lang exception classes only pass their arguments on to
      // Throwable's constructors.
      std::string throwable_key = absl::StrCat("java/lang/Throwable.<init>", descriptor);
      if (IsThrowable(cls) &&
          IsModelledLibraryMethod(throwable_key)) {
        return Library(throwable_key);
      }
      return Unsupported(NotModelledCall(owner, name, descriptor));
    }
    const MethodInfo* m = FindDeclaredMethod(cls, name, descriptor);
    if (m == nullptr || !m->has_code()) {
      return Unsupported(absl::StrCat("no constructor ", JavaMethodName(owner, name, descriptor)));
    }
    CallTarget t;
    t.kind = CallTarget::Kind::kBytecode;
    t.method = m;
    return t;
  }
  return SelectInClass(cls, name, descriptor);
}

CallTarget Program::SelectInClass(const ClassInfo* start, absl::string_view name,
                                  absl::string_view descriptor) const {
  std::string unmodelled;  // a library class on the way that may declare the method
  bool unknown_library_class = false;  // one other than Object (whose methods we know)
  for (const ClassInfo* c : SuperChain(start)) {
    if (c->is_missing()) {
      return MissingClass(start->name, name, descriptor, c->name);
    }
    if (c->is_library()) {
      if (std::optional<CallTarget> model = JdkModel(c->name, name, descriptor)) return *model;
      std::string key = absl::StrCat(c->name, ".", name, descriptor);
      if (IsModelledLibraryMethod(key)) return Library(key);
      if (c->closed) return Unsupported(NotModelledCall(c->name, name, descriptor));
      if (unmodelled.empty()) unmodelled = c->name;
      unknown_library_class |= c->name != "java/lang/Object";
      continue;
    }
    const MethodInfo* m = FindDeclaredMethod(c, name, descriptor);
    if (m == nullptr || m->is_static()) continue;
    if (m->method->is_abstract()) {
      if (c->is_interface) break;  // look for a default method below
      return Unsupported(absl::StrCat("call of abstract method ", m->DisplayName()));
    }
    if (!m->has_code()) return Unsupported(absl::StrCat("call of native method ", m->DisplayName()));
    CallTarget t;
    t.kind = CallTarget::Kind::kBytecode;
    t.method = m;
    return t;
  }
  // Default methods of superinterfaces: the maximally specific ones.
  std::vector<const MethodInfo*> candidates;
  std::deque<const ClassInfo*> queue;
  std::set<std::string> seen;
  for (const ClassInfo* c : SuperChain(start)) queue.push_back(c);
  while (!queue.empty()) {
    const ClassInfo* c = queue.front();
    queue.pop_front();
    if (c == nullptr || !seen.insert(c->name).second) continue;
    if (c->is_interface && c->origin == ClassInfo::Origin::kClassPath) {
      const MethodInfo* m = FindDeclaredMethod(c, name, descriptor);
      if (m != nullptr && !m->is_static() && !m->method->is_abstract() && m->has_code() &&
          !m->method->is_private()) {
        candidates.push_back(m);
      }
    }
    for (const std::string& i : c->interfaces) queue.push_back(FindClass(i));
  }
  std::vector<const MethodInfo*> specific;
  for (const MethodInfo* m : candidates) {
    bool overridden = false;
    for (const MethodInfo* other : candidates) {
      if (other != m && IsSubclassOrImplements(other->owner, m->owner->name)) overridden = true;
    }
    if (!overridden) specific.push_back(m);
  }
  if (specific.size() == 1 && unknown_library_class) {
    // A class method of the library superclass would win over the default.
    return Unsupported(NotModelledCall(unmodelled, name, descriptor));
  }
  if (specific.size() == 1) {
    CallTarget t;
    t.kind = CallTarget::Kind::kBytecode;
    t.method = specific[0];
    return t;
  }
  if (specific.size() > 1) {
    return Unsupported(absl::StrCat("ambiguous default methods for ",
                                    JavaMethodName(start->name, name, descriptor)));
  }
  if (!unmodelled.empty()) {
    // The method may be declared by a library class (java.lang.Object's
    // toString, ...) for which there is no model.
    return Unsupported(NotModelledCall(unmodelled, name, descriptor));
  }
  return Unsupported(absl::StrCat("no implementation of ",
                                  JavaMethodName(start->name, name, descriptor)));
}

CallTarget Program::Select(int type_id, absl::string_view name,
                           absl::string_view descriptor) const {
  const TypeInfo& t = Type(type_id);
  if (t.is_array) {
    std::string key = absl::StrCat("[.", name, descriptor);
    if (IsModelledLibraryMethod(key)) return Library(key);
    return SelectInClass(FindClass("java/lang/Object"), name, descriptor);
  }
  if (t.opaque) {
    return MissingClass(t.name, name, descriptor, t.name);
  }
  return SelectInClass(t.cls, name, descriptor);
}

std::vector<DispatchCase> Program::Dispatch(absl::string_view owner, absl::string_view name,
                                            absl::string_view descriptor) const {
  std::vector<DispatchCase> out;
  std::vector<int> receivers = ConcreteSubtypes(owner);
  // Private methods (nestmate calls use invokevirtual) are not overridden.
  const ClassInfo* cls = FindClass(owner);
  const MethodInfo* declared = FindDeclaredMethod(cls, name, descriptor);
  if (declared != nullptr && declared->method->is_private() && !declared->is_static()) {
    DispatchCase c;
    c.target.kind = CallTarget::Kind::kBytecode;
    c.target.method = declared;
    c.type_ids = receivers;
    out.push_back(std::move(c));
    return out;
  }
  for (int id : receivers) {
    CallTarget target = Select(id, name, descriptor);
    auto same = [&](const DispatchCase& c) {
      return c.target.kind == target.kind && c.target.method == target.method &&
             c.target.library_key == target.library_key && c.target.reason == target.reason;
    };
    auto it = std::find_if(out.begin(), out.end(), same);
    if (it == out.end()) {
      DispatchCase c;
      c.target = target;
      c.type_ids.push_back(id);
      out.push_back(std::move(c));
    } else {
      it->type_ids.push_back(id);
    }
  }
  return out;
}

}  // namespace tracespec::symex

// Compiled classes as a JML type environment; see classfile_env.h.
#include "validator/check/classfile_env.h"

#include "validator/classfile/class_file.h"
#include "validator/classfile/instructions.h"

namespace tracespec::check {
namespace {

jml::Visibility VisibilityOf(uint16_t access) {
  if (access & classfile::kAccPublic) return jml::Visibility::kPublic;
  if (access & classfile::kAccProtected) return jml::Visibility::kProtected;
  if (access & classfile::kAccPrivate) return jml::Visibility::kPrivate;
  return jml::Visibility::kPackage;
}

// Side-effect free by construction: no write to the heap, no call, no
// allocation, no lock.
bool ObviouslyPure(const classfile::Method& m) {
  if (!m.code) return false;
  for (const classfile::Instruction& ins : m.code->instructions) {
    switch (ins.opcode) {
      case classfile::kPutfield: case classfile::kPutstatic:
      case classfile::kIastore: case classfile::kLastore: case classfile::kFastore:
      case classfile::kDastore: case classfile::kAastore: case classfile::kBastore:
      case classfile::kCastore: case classfile::kSastore:
      case classfile::kInvokevirtual: case classfile::kInvokespecial:
      case classfile::kInvokestatic: case classfile::kInvokeinterface:
      case classfile::kInvokedynamic: case classfile::kNew: case classfile::kNewarray:
      case classfile::kAnewarray: case classfile::kMultianewarray:
      case classfile::kMonitorenter: case classfile::kMonitorexit:
        return false;
      default: break;
    }
  }
  return true;
}

}  // namespace

jml::ClassInfo ClassInfoFromClassFile(const classfile::ClassFile& file) {
  jml::ClassInfo info;
  info.name = classfile::InternalToBinary(file.name);
  info.superclass = classfile::InternalToBinary(file.super_name);
  for (const std::string& i : file.interfaces) {
    info.interfaces.push_back(classfile::InternalToBinary(i));
  }
  info.is_interface = file.is_interface();
  info.is_abstract = file.is_abstract();
  info.is_final = (file.access & classfile::kAccFinal) != 0;
  for (const classfile::Field& f : file.fields) {
    auto type = jml::Type::FromDescriptor(f.descriptor);
    if (!type.ok()) continue;
    jml::FieldInfo field;
    field.name = f.name;
    field.type = *type;
    field.is_static = f.is_static();
    field.is_final = f.is_final();
    field.is_enum_constant = f.is_static() && (f.access & classfile::kAccEnum) != 0;
    field.visibility = VisibilityOf(f.access);
    field.spec_public = field.visibility != jml::Visibility::kPublic;
    info.fields.push_back(std::move(field));
  }
  for (const classfile::Method& m : file.methods) {
    if (m.name == "<clinit>") continue;
    auto desc = jml::ParseMethodDescriptor(m.descriptor);
    if (!desc.ok()) continue;
    jml::MethodInfo method;
    method.name = m.name;
    method.descriptor = m.descriptor;
    method.params = desc->params;
    method.result = desc->result;
    method.param_names = file.ParameterNames(m);
    method.is_static = m.is_static();
    method.is_constructor = m.name == "<init>";
    method.is_abstract = m.is_abstract();
    method.is_varargs = (m.access & classfile::kAccTransient) != 0;
    method.is_pure = !method.is_constructor && ObviouslyPure(m);
    method.visibility = VisibilityOf(m.access);
    method.spec_public = method.visibility != jml::Visibility::kPublic;
    info.methods.push_back(std::move(method));
  }
  return info;
}

const jml::ClassInfo* ClassFileTypeEnvironment::FindClass(absl::string_view binary_name) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = cache_.find(binary_name);
  if (it != cache_.end()) return it->second.get();
  std::unique_ptr<jml::ClassInfo> info;
  auto file = class_path_->Load(classfile::BinaryToInternal(binary_name));
  if (file.ok()) info = std::make_unique<jml::ClassInfo>(ClassInfoFromClassFile(**file));
  const jml::ClassInfo* out = info.get();
  cache_.emplace(std::string(binary_name), std::move(info));
  return out;
}

}  // namespace tracespec::check

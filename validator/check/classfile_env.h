// The JML type checker's view of compiled classes (the seam documented in
// validator/jml/type_env.h): a TypeEnvironment answering from the decoded
// .class files of a class path, so that contracts type-check against the
// bytecode without any source.
//
// Fields carry their descriptor's type, static/final and visibility;
// non-public fields are marked spec_public (contracts inferred for compiled
// code talk about private state). Methods carry their descriptor's
// parameter and result types and parameter names (MethodParameters, else the
// LocalVariableTable, else arg0, arg1, ...); a method counts as pure when
// its bytecode writes no field, array element or static and calls nothing.
#ifndef TRACESPEC_VALIDATOR_CHECK_CLASSFILE_ENV_H_
#define TRACESPEC_VALIDATOR_CHECK_CLASSFILE_ENV_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "validator/classfile/class_path.h"
#include "validator/jml/type_env.h"

namespace tracespec::check {

class ClassFileTypeEnvironment : public jml::TypeEnvironment {
 public:
  // `class_path` must outlive the environment; classes are loaded on demand.
  explicit ClassFileTypeEnvironment(classfile::ClassPath* class_path) : class_path_(class_path) {}
  // nullptr for classes the class path does not have (or cannot decode).
  const jml::ClassInfo* FindClass(absl::string_view binary_name) const override;

 private:
  classfile::ClassPath* class_path_;
  mutable std::mutex mu_;
  mutable std::map<std::string, std::unique_ptr<jml::ClassInfo>, std::less<>> cache_;
};

// The class-file facts as a jml::ClassInfo (exposed for tests).
jml::ClassInfo ClassInfoFromClassFile(const classfile::ClassFile& file);

}  // namespace tracespec::check

#endif  // TRACESPEC_VALIDATOR_CHECK_CLASSFILE_ENV_H_

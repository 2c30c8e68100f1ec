// The one table of the Java platform the validator models: every JDK method
// that has a model, how it is modelled, and whether a specification may call
// it. Two kinds of model:
//   - a Java model: a simplified, semantically faithful Java implementation
//     in validator/jdk/models/, compiled by javac at build time into class
//     "tracespec/jdk/<jdk class>" and embedded here (ModelArchive()); the
//     executor runs its bytecode like application code;
//   - a native: a C++ model in symex/library.cpp (identity, array copy,
//     arithmetic the solver does directly, opaque strings).
// The executor (symex/program.cpp), the JML type checker (jml/jdk_env.cpp)
// and the lowering of specifications (check/lowering.cpp, through the
// executor's resolution) all read this table. A JDK method missing from it
// is not modelled: calling it is reported as unsupported, naming it.
#ifndef TRACESPEC_VALIDATOR_JDK_JDK_MODELS_H_
#define TRACESPEC_VALIDATOR_JDK_JDK_MODELS_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace tracespec::jdk {

enum class ModelKind { kNative, kJava };

struct ModelledMethod {
  std::string owner;       // internal name, "java/util/Arrays"; "[" for arrays
  std::string name;        // "copyOf"
  std::string descriptor;  // "([II)[I"
  bool is_static = false;  // of the JDK method
  bool is_pure = false;  // side-effect free: a specification may call it
  ModelKind kind = ModelKind::kNative;
  // "java/util/Arrays.copyOf([II)[I"
  std::string Key() const { return owner + "." + name + descriptor; }
};

// The descriptor of the Java model's method of `m`: an instance method is
// modelled by a static method taking the receiver first
// ("java/lang/String.charAt(I)C" -> "(Ljava/lang/String;I)C").
std::string ModelDescriptor(const ModelledMethod& m);

// Every modelled method, sorted by Key().
const std::vector<ModelledMethod>& ModelledMethods();
// The entry for "owner.name(descriptor)", or nullptr.
const ModelledMethod* FindModelledMethod(absl::string_view key);

// Java models live in this package prefix: the model of java/util/Arrays is
// the class tracespec/jdk/java/util/Arrays.
inline constexpr absl::string_view kModelPackagePrefix = "tracespec/jdk/";
std::string ModelClassName(absl::string_view jdk_class);
// The JDK class a model class stands for ("" when `model_class` is none).
std::string JdkClassOfModel(absl::string_view model_class);

// The static integer helpers of the box classes, natives modelled one way
// (symex/library.cpp BoxStaticModel).
inline constexpr const char* kBoxStaticMethods[] = {
    "java/lang/Integer.compare(II)I",   "java/lang/Long.compare(JJ)I",
    "java/lang/Short.compare(SS)I",     "java/lang/Byte.compare(BB)I",
    "java/lang/Character.compare(CC)I", "java/lang/Boolean.compare(ZZ)I",
    "java/lang/Integer.signum(I)I",     "java/lang/Long.signum(J)I",
    "java/lang/Integer.bitCount(I)I",   "java/lang/Long.bitCount(J)I",
    "java/lang/Integer.max(II)I",       "java/lang/Long.max(JJ)J",
    "java/lang/Integer.min(II)I",       "java/lang/Long.min(JJ)J",
    "java/lang/Integer.sum(II)I",       "java/lang/Long.sum(JJ)J",
    "java/lang/Integer.hashCode(I)I",
};

// The compiled Java models: a .jar archive held in memory.
const std::string& ModelArchive();

}  // namespace tracespec::jdk

#endif  // TRACESPEC_VALIDATOR_JDK_JDK_MODELS_H_

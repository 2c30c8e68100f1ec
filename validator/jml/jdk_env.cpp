// The built-in JDK classes specifications commonly mention (facts from the
// Java SE API: names, supertypes, field and method descriptors). Methods
// listed are side-effect free; see JdkTypeEnvironment() in type_env.h. The
// side-effect-free methods of the table of modelled JDK methods
// (validator/jdk/jdk_models.h) are added to them, so that a specification
// may call whatever the validator models.
#include <algorithm>
#include <map>

#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "validator/jdk/jdk_models.h"
#include "validator/jml/type_env.h"

namespace tracespec::jml {
namespace {

struct BuiltinClass {
  const char* name;
  const char* superclass;  // "" for Object and interfaces
  const char* interfaces;  // comma-separated binary names
  bool is_interface;
  bool is_final;
  bool is_abstract;
  // '|'-separated "NAME:descriptor", prefixed by "static " for static fields.
  const char* fields;
  // '|'-separated "name(params)result", prefixed by "static " for static methods.
  const char* methods;
};

constexpr BuiltinClass kClasses[] = {
    {"java.lang.Object", "", "", false, false, false, "",
     "equals(Ljava/lang/Object;)Z|hashCode()I|toString()Ljava/lang/String;|getClass()Ljava/lang/"
     "Class;"},
    {"java.lang.Class", "java.lang.Object", "java.io.Serializable", false, true, false, "",
     "getName()Ljava/lang/String;|getSimpleName()Ljava/lang/String;|isInstance(Ljava/lang/"
     "Object;)Z|isArray()Z|isInterface()Z"},
    {"java.io.Serializable", "", "", true, false, true, "", ""},
    {"java.lang.Cloneable", "", "", true, false, true, "", ""},
    {"java.lang.Comparable", "", "", true, false, true, "", "compareTo(Ljava/lang/Object;)I"},
    {"java.lang.Iterable", "", "", true, false, true, "", ""},
    {"java.lang.CharSequence", "", "", true, false, true, "", "length()I|charAt(I)C|isEmpty()Z"},
    {"java.lang.String", "java.lang.Object",
     "java.io.Serializable,java.lang.Comparable,java.lang.CharSequence", false, true, false, "",
     "length()I|charAt(I)C|isEmpty()Z|isBlank()Z|equals(Ljava/lang/"
     "Object;)Z|equalsIgnoreCase(Ljava/lang/String;)Z|hashCode()I|compareTo(Ljava/lang/"
     "String;)I|compareTo(Ljava/lang/Object;)I|indexOf(I)I|indexOf(II)I|indexOf(Ljava/lang/"
     "String;)I|lastIndexOf(I)I|lastIndexOf(Ljava/lang/String;)I|contains(Ljava/lang/"
     "CharSequence;)Z|startsWith(Ljava/lang/String;)Z|endsWith(Ljava/lang/"
     "String;)Z|substring(I)Ljava/lang/String;|substring(II)Ljava/lang/String;|toString()Ljava/"
     "lang/String;|static valueOf(I)Ljava/lang/String;|static valueOf(J)Ljava/lang/String;|static "
     "valueOf(C)Ljava/lang/String;|static valueOf(Z)Ljava/lang/String;|static "
     "valueOf(Ljava/lang/Object;)Ljava/lang/String;"},
    {"java.lang.Number", "java.lang.Object", "java.io.Serializable", false, false, true, "",
     "intValue()I|longValue()J|floatValue()F|doubleValue()D|shortValue()S|byteValue()B"},
    {"java.lang.Integer", "java.lang.Number", "java.lang.Comparable", false, true, false,
     "static MIN_VALUE:I|static MAX_VALUE:I|static SIZE:I|static BYTES:I",
     "intValue()I|equals(Ljava/lang/Object;)Z|hashCode()I|compareTo(Ljava/lang/Integer;)I|static "
     "compare(II)I|static signum(I)I|static bitCount(I)I|static max(II)I|static min(II)I|static "
     "sum(II)I|static valueOf(I)Ljava/lang/Integer;|static hashCode(I)I"},
    {"java.lang.Long", "java.lang.Number", "java.lang.Comparable", false, true, false,
     "static MIN_VALUE:J|static MAX_VALUE:J|static SIZE:I|static BYTES:I",
     "longValue()J|equals(Ljava/lang/Object;)Z|hashCode()I|compareTo(Ljava/lang/Long;)I|static "
     "compare(JJ)I|static signum(J)I|static bitCount(J)I|static max(JJ)J|static min(JJ)J|static "
     "sum(JJ)J|static valueOf(J)Ljava/lang/Long;"},
    {"java.lang.Short", "java.lang.Number", "java.lang.Comparable", false, true, false,
     "static MIN_VALUE:S|static MAX_VALUE:S|static SIZE:I|static BYTES:I",
     "shortValue()S|equals(Ljava/lang/Object;)Z|static compare(SS)I"},
    {"java.lang.Byte", "java.lang.Number", "java.lang.Comparable", false, true, false,
     "static MIN_VALUE:B|static MAX_VALUE:B|static SIZE:I|static BYTES:I",
     "byteValue()B|equals(Ljava/lang/Object;)Z|static compare(BB)I"},
    {"java.lang.Character", "java.lang.Object", "java.io.Serializable,java.lang.Comparable", false,
     true, false, "static MIN_VALUE:C|static MAX_VALUE:C|static SIZE:I|static BYTES:I",
     "charValue()C|equals(Ljava/lang/Object;)Z|static compare(CC)I|static isDigit(C)Z|static "
     "isLetter(C)Z|static isLetterOrDigit(C)Z|static isWhitespace(C)Z|static "
     "isUpperCase(C)Z|static isLowerCase(C)Z|static toUpperCase(C)C|static toLowerCase(C)C"},
    {"java.lang.Boolean", "java.lang.Object", "java.io.Serializable,java.lang.Comparable", false,
     true, false, "static TRUE:Ljava/lang/Boolean;|static FALSE:Ljava/lang/Boolean;",
     "booleanValue()Z|equals(Ljava/lang/Object;)Z|static compare(ZZ)I"},
    {"java.lang.Float", "java.lang.Number", "java.lang.Comparable", false, true, false,
     "static MIN_VALUE:F|static MAX_VALUE:F|static MIN_NORMAL:F|static POSITIVE_INFINITY:F|static "
     "NEGATIVE_INFINITY:F|static NaN:F|static SIZE:I|static BYTES:I",
     "floatValue()F|equals(Ljava/lang/Object;)Z|isNaN()Z|static isNaN(F)Z|static "
     "isInfinite(F)Z|static isFinite(F)Z|static compare(FF)I"},
    {"java.lang.Double", "java.lang.Number", "java.lang.Comparable", false, true, false,
     "static MIN_VALUE:D|static MAX_VALUE:D|static MIN_NORMAL:D|static POSITIVE_INFINITY:D|static "
     "NEGATIVE_INFINITY:D|static NaN:D|static SIZE:I|static BYTES:I",
     "doubleValue()D|equals(Ljava/lang/Object;)Z|isNaN()Z|static isNaN(D)Z|static "
     "isInfinite(D)Z|static isFinite(D)Z|static compare(DD)I"},
    {"java.lang.Math", "java.lang.Object", "", false, true, false, "static PI:D|static E:D",
     "static abs(I)I|static abs(J)J|static abs(F)F|static abs(D)D|static max(II)I|static "
     "max(JJ)J|static max(FF)F|static max(DD)D|static min(II)I|static min(JJ)J|static "
     "min(FF)F|static min(DD)D|static floorDiv(II)I|static floorDiv(JJ)J|static "
     "floorMod(II)I|static floorMod(JJ)J|static signum(D)D|static signum(F)F|static sqrt(D)D"},
    {"java.lang.Enum", "java.lang.Object", "java.lang.Comparable,java.io.Serializable", false,
     false, true, "", "ordinal()I|name()Ljava/lang/String;"},
    {"java.lang.Record", "java.lang.Object", "", false, false, true, "", ""},
    {"java.lang.Throwable", "java.lang.Object", "java.io.Serializable", false, false, false, "",
     "getMessage()Ljava/lang/String;|getCause()Ljava/lang/Throwable;"},
    {"java.lang.Exception", "java.lang.Throwable", "", false, false, false, "", ""},
    {"java.lang.Error", "java.lang.Throwable", "", false, false, false, "", ""},
    {"java.lang.RuntimeException", "java.lang.Exception", "", false, false, false, "", ""},
    {"java.lang.ArithmeticException", "java.lang.RuntimeException", "", false, false, false, "",
     ""},
    {"java.lang.ArrayStoreException", "java.lang.RuntimeException", "", false, false, false, "",
     ""},
    {"java.lang.ClassCastException", "java.lang.RuntimeException", "", false, false, false, "", ""},
    {"java.lang.IllegalArgumentException", "java.lang.RuntimeException", "", false, false, false,
     "", ""},
    {"java.lang.NumberFormatException", "java.lang.IllegalArgumentException", "", false, false,
     false, "", ""},
    {"java.lang.IllegalStateException", "java.lang.RuntimeException", "", false, false, false, "",
     ""},
    {"java.lang.IndexOutOfBoundsException", "java.lang.RuntimeException", "", false, false, false,
     "", ""},
    {"java.lang.ArrayIndexOutOfBoundsException", "java.lang.IndexOutOfBoundsException", "", false,
     false, false, "", ""},
    {"java.lang.StringIndexOutOfBoundsException", "java.lang.IndexOutOfBoundsException", "", false,
     false, false, "", ""},
    {"java.lang.NegativeArraySizeException", "java.lang.RuntimeException", "", false, false, false,
     "", ""},
    {"java.lang.NullPointerException", "java.lang.RuntimeException", "", false, false, false, "",
     ""},
    {"java.lang.UnsupportedOperationException", "java.lang.RuntimeException", "", false, false,
     false, "", ""},
    {"java.lang.SecurityException", "java.lang.RuntimeException", "", false, false, false, "", ""},
    {"java.lang.CloneNotSupportedException", "java.lang.Exception", "", false, false, false, "",
     ""},
    {"java.lang.InterruptedException", "java.lang.Exception", "", false, false, false, "", ""},
    {"java.lang.AssertionError", "java.lang.Error", "", false, false, false, "", ""},
    {"java.lang.VirtualMachineError", "java.lang.Error", "", false, false, true, "", ""},
    {"java.lang.OutOfMemoryError", "java.lang.VirtualMachineError", "", false, false, false, "",
     ""},
    {"java.lang.StackOverflowError", "java.lang.VirtualMachineError", "", false, false, false, "",
     ""},
    {"java.io.IOException", "java.lang.Exception", "", false, false, false, "", ""},
    {"java.io.FileNotFoundException", "java.io.IOException", "", false, false, false, "", ""},
    {"java.io.UncheckedIOException", "java.lang.RuntimeException", "", false, false, false, "", ""},
    {"java.util.NoSuchElementException", "java.lang.RuntimeException", "", false, false, false, "",
     ""},
    {"java.util.ConcurrentModificationException", "java.lang.RuntimeException", "", false, false,
     false, "", ""},
};

class JdkEnvironment : public TypeEnvironment {
 public:
  JdkEnvironment() {
    for (const auto& c : kClasses) {
      ClassInfo info;
      info.name = c.name;
      info.superclass = c.superclass;
      for (absl::string_view i : absl::StrSplit(c.interfaces, ',', absl::SkipEmpty())) {
        info.interfaces.emplace_back(i);
      }
      info.is_interface = c.is_interface;
      info.is_final = c.is_final;
      info.is_abstract = c.is_abstract;
      for (absl::string_view f : absl::StrSplit(c.fields, '|', absl::SkipEmpty())) {
        FieldInfo fi;
        fi.is_static = absl::ConsumePrefix(&f, "static ");
        fi.is_final = true;
        fi.visibility = Visibility::kPublic;
        size_t colon = f.find(':');
        fi.name = std::string(f.substr(0, colon));
        fi.type = *Type::FromDescriptor(f.substr(colon + 1));
        info.fields.push_back(std::move(fi));
      }
      for (absl::string_view e : absl::StrSplit(c.methods, '|', absl::SkipEmpty())) {
        MethodInfo mi;
        mi.is_static = absl::ConsumePrefix(&e, "static ");
        size_t paren = e.find('(');
        mi.name = std::string(e.substr(0, paren));
        mi.descriptor = std::string(e.substr(paren));
        MethodDescriptor parsed = *ParseMethodDescriptor(mi.descriptor);
        mi.params = parsed.params;
        mi.result = parsed.result;
        mi.is_pure = true;
        mi.visibility = Visibility::kPublic;
        mi.is_abstract = c.is_interface;
        info.methods.push_back(std::move(mi));
      }
      classes_.emplace(info.name, std::move(info));
    }
    AddModelledMethods();
  }

  // The pure methods of validator/jdk's table; a class only the table
  // names is a final subclass of Object.
  void AddModelledMethods() {
    for (const jdk::ModelledMethod& m : jdk::ModelledMethods()) {
      if (!m.is_pure || m.owner == "[" || m.name == "<init>") continue;
      std::string owner = m.owner;
      std::replace(owner.begin(), owner.end(), '/', '.');
      auto it = classes_.find(owner);
      if (it == classes_.end()) {
        ClassInfo info;
        info.name = owner;
        info.superclass = "java.lang.Object";
        info.is_final = true;
        it = classes_.emplace(owner, std::move(info)).first;
      }
      ClassInfo& info = it->second;
      bool known = std::any_of(info.methods.begin(), info.methods.end(), [&](const MethodInfo& x) {
        return x.name == m.name && x.descriptor == m.descriptor;
      });
      if (known) continue;
      absl::StatusOr<MethodDescriptor> parsed = ParseMethodDescriptor(m.descriptor);
      if (!parsed.ok()) continue;  // the table's descriptors are checked by jdk_models_test
      MethodInfo mi;
      mi.name = m.name;
      mi.descriptor = m.descriptor;
      mi.is_static = m.is_static;
      mi.params = parsed->params;
      mi.result = parsed->result;
      mi.is_pure = true;
      mi.visibility = Visibility::kPublic;
      info.methods.push_back(std::move(mi));
    }
  }

  const ClassInfo* FindClass(absl::string_view binary_name) const override {
    auto it = classes_.find(binary_name);
    return it == classes_.end() ? nullptr : &it->second;
  }

 private:
  std::map<std::string, ClassInfo, std::less<>> classes_;
};

}  // namespace

const TypeEnvironment& JdkTypeEnvironment() {
  static const JdkEnvironment* const kEnv = new JdkEnvironment();
  return *kEnv;
}

}  // namespace tracespec::jml

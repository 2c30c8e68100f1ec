// The built-in library classes and the list of modelled methods; see
// library_classes.h. The models themselves live in library.cpp, the table
// of modelled methods in validator/jdk/jdk_models.cpp.
#include "validator/symex/library_classes.h"

#include "absl/strings/str_cat.h"
#include "validator/jdk/jdk_models.h"

namespace tracespec::symex {
namespace {

enum Flags : unsigned {
  kPlain = 0,
  kInterface = 1,
  kAbstract = 2,
  kClosed = 4,      // unlisted methods are unknown
  kNoInstances = 8,
};

LibraryClassSpec Spec(const std::string& name, const std::string& super_name,
                      std::vector<std::string> interfaces = {}, unsigned flags = kPlain,
                      std::vector<LibraryField> fields = {}) {
  LibraryClassSpec spec;
  spec.name = name;
  spec.super_name = super_name;
  spec.interfaces = std::move(interfaces);
  spec.is_interface = (flags & kInterface) != 0;
  spec.is_abstract = (flags & (kInterface | kAbstract)) != 0;
  spec.closed = (flags & kClosed) != 0;
  spec.no_instances = (flags & kNoInstances) != 0;
  spec.fields = std::move(fields);
  return spec;
}

LibraryClassSpec Box(const std::string& simple, const std::string& descriptor) {
  return Spec("java/lang/" + simple,
              simple == "Boolean" || simple == "Character" ? "java/lang/Object"
                                                           : "java/lang/Number",
              {"java/io/Serializable", "java/lang/Comparable"}, kClosed,
              {{"value", descriptor, false}});
}

}  // namespace

const std::vector<LibraryClassSpec>& LibraryClasses() {
  static const std::vector<LibraryClassSpec>* classes = [] {
    const std::string object = "java/lang/Object";
    auto* out = new std::vector<LibraryClassSpec>{
        Spec(object, ""),
        // A string is its characters (null: an opaque string, whose
        // characters are not modelled); a builder's characters are null
        // when empty, unknown when `opaque` (see validator/jdk String.java).
        Spec("java/lang/String", object,
             {"java/io/Serializable", "java/lang/Comparable", "java/lang/CharSequence"}, kClosed,
             {{"value", "[C", false}}),
        Spec("java/lang/StringBuilder", object, {"java/io/Serializable", "java/lang/CharSequence"},
             kClosed, {{"value", "[C", false}, {"opaque", "Z", false}}),
        Spec("java/lang/Class", object, {"java/io/Serializable"}, kClosed),
        Spec("java/io/PrintStream", object, {"java/lang/AutoCloseable"}, kClosed),
        Spec("java/lang/Math", object, {}, kClosed | kNoInstances),
        Spec("java/lang/StrictMath", object, {}, kClosed | kNoInstances),
        Spec("java/lang/System", object, {}, kClosed | kNoInstances,
             {{"out", "Ljava/io/PrintStream;", true}, {"err", "Ljava/io/PrintStream;", true}}),
        Spec("java/lang/Number", object, {"java/io/Serializable"}, kAbstract | kClosed),
        Box("Integer", "I"),
        Box("Long", "J"),
        Box("Short", "S"),
        Box("Byte", "B"),
        Box("Character", "C"),
        Box("Float", "F"),
        Box("Double", "D"),
        Spec("java/lang/Enum", object, {"java/io/Serializable", "java/lang/Comparable"}, kAbstract,
             {{"name", "Ljava/lang/String;", false}, {"ordinal", "I", false}}),
        Spec("java/lang/Throwable", object, {"java/io/Serializable"}, kPlain,
             {{"detailMessage", "Ljava/lang/String;", false},
              {"cause", "Ljava/lang/Throwable;", false}}),
    };
    LibraryClassSpec boolean = Box("Boolean", "Z");
    boolean.fields.push_back({"TRUE", "Ljava/lang/Boolean;", true});
    boolean.fields.push_back({"FALSE", "Ljava/lang/Boolean;", true});
    out->push_back(boolean);
    for (const char* name : {"java/io/Serializable", "java/lang/Cloneable",
                             "java/lang/Comparable", "java/lang/CharSequence",
                             "java/lang/Runnable", "java/lang/AutoCloseable"}) {
      out->push_back(Spec(name, object, {}, kInterface));
    }
    // Exceptions and errors: (class, superclass).
    const char* throwables[][2] = {
        {"java/lang/Exception", "java/lang/Throwable"},
        {"java/lang/Error", "java/lang/Throwable"},
        {"java/lang/RuntimeException", "java/lang/Exception"},
        {"java/lang/AssertionError", "java/lang/Error"},
        {"java/lang/LinkageError", "java/lang/Error"},
        {"java/lang/IncompatibleClassChangeError", "java/lang/LinkageError"},
        {"java/lang/NoSuchFieldError", "java/lang/IncompatibleClassChangeError"},
        {"java/lang/VirtualMachineError", "java/lang/Error"},
        {"java/lang/StackOverflowError", "java/lang/VirtualMachineError"},
        {"java/lang/OutOfMemoryError", "java/lang/VirtualMachineError"},
        {"java/lang/ArithmeticException", "java/lang/RuntimeException"},
        {"java/lang/IndexOutOfBoundsException", "java/lang/RuntimeException"},
        {"java/lang/ArrayIndexOutOfBoundsException", "java/lang/IndexOutOfBoundsException"},
        {"java/lang/StringIndexOutOfBoundsException", "java/lang/IndexOutOfBoundsException"},
        {"java/lang/NegativeArraySizeException", "java/lang/RuntimeException"},
        {"java/lang/NullPointerException", "java/lang/RuntimeException"},
        {"java/lang/ClassCastException", "java/lang/RuntimeException"},
        {"java/lang/ArrayStoreException", "java/lang/RuntimeException"},
        {"java/lang/IllegalArgumentException", "java/lang/RuntimeException"},
        {"java/lang/NumberFormatException", "java/lang/IllegalArgumentException"},
        {"java/lang/IllegalStateException", "java/lang/RuntimeException"},
        {"java/lang/UnsupportedOperationException", "java/lang/RuntimeException"},
        {"java/lang/IllegalMonitorStateException", "java/lang/RuntimeException"},
        {"java/util/NoSuchElementException", "java/lang/RuntimeException"},
        {"java/util/ConcurrentModificationException", "java/lang/RuntimeException"},
        {"java/lang/CloneNotSupportedException", "java/lang/Exception"},
        {"java/lang/InterruptedException", "java/lang/Exception"},
        {"java/lang/ReflectiveOperationException", "java/lang/Exception"},
        {"java/io/IOException", "java/lang/Exception"},
    };
    for (const auto& t : throwables) out->push_back(Spec(t[0], t[1]));
    return out;
  }();
  return *classes;
}

const std::set<std::string>& ModelledLibraryMethods() {
  static const std::set<std::string>* keys = [] {
    auto* out = new std::set<std::string>();
    for (const jdk::ModelledMethod& m : jdk::ModelledMethods()) {
      if (m.kind == jdk::ModelKind::kNative) out->insert(m.Key());
    }
    return out;
  }();
  return *keys;
}

bool IsModelledLibraryMethod(absl::string_view key) {
  return ModelledLibraryMethods().count(std::string(key)) > 0;
}

}  // namespace tracespec::symex

// The built-in library classes and the list of modelled methods; see
// library_classes.h. The models themselves live in library.cpp.
#include "validator/symex/library_classes.h"

#include "absl/strings/str_cat.h"

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
        Spec("java/lang/String", object,
             {"java/io/Serializable", "java/lang/Comparable", "java/lang/CharSequence"}, kClosed),
        Spec("java/lang/StringBuilder", object, {"java/io/Serializable", "java/lang/CharSequence"},
             kClosed),
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
    auto add = [out](const std::string& owner, const std::string& name_and_descriptor) {
      out->insert(absl::StrCat(owner, ".", name_and_descriptor));
    };
    const std::string object = "java/lang/Object";
    add(object, "<init>()V");
    add(object, "equals(Ljava/lang/Object;)Z");
    add(object, "hashCode()I");
    const std::string throwable = "java/lang/Throwable";
    for (const char* d : {"()V", "(Ljava/lang/String;)V",
                          "(Ljava/lang/String;Ljava/lang/Throwable;)V",
                          "(Ljava/lang/Throwable;)V"}) {
      add(throwable, absl::StrCat("<init>", d));
    }
    add(throwable, "getMessage()Ljava/lang/String;");
    add(throwable, "getCause()Ljava/lang/Throwable;");
    for (const char* d : {"(Ljava/lang/Object;)V", "(Z)V", "(C)V", "(I)V", "(J)V", "(F)V",
                          "(D)V"}) {
      add("java/lang/AssertionError", absl::StrCat("<init>", d));
    }
    for (const std::string math : {"java/lang/Math", "java/lang/StrictMath"}) {
      for (const char* d : {"abs(I)I", "abs(J)J", "abs(F)F", "abs(D)D", "max(II)I",
                            "max(JJ)J", "max(FF)F", "max(DD)D", "min(II)I", "min(JJ)J",
                            "min(FF)F", "min(DD)D", "floorDiv(II)I", "floorDiv(JJ)J",
                            "floorDiv(JI)J", "floorMod(II)I", "floorMod(JJ)J",
                            "floorMod(JI)I", "addExact(II)I", "addExact(JJ)J",
                            "subtractExact(II)I", "subtractExact(JJ)J", "multiplyExact(II)I",
                            "multiplyExact(JJ)J", "multiplyExact(JI)J", "negateExact(I)I",
                            "negateExact(J)J", "incrementExact(I)I", "incrementExact(J)J",
                            "decrementExact(I)I", "decrementExact(J)J", "toIntExact(J)I",
                            "absExact(I)I", "absExact(J)J", "sqrt(D)D", "floor(D)D",
                            "ceil(D)D", "rint(D)D", "round(F)I", "round(D)J", "signum(F)F",
                            "signum(D)D"}) {
        add(math, d);
      }
    }
    struct BoxSpec {
      const char* name;
      const char* d;
    };
    for (BoxSpec box : {BoxSpec{"Integer", "I"}, BoxSpec{"Long", "J"}, BoxSpec{"Short", "S"},
                        BoxSpec{"Byte", "B"}, BoxSpec{"Character", "C"},
                        BoxSpec{"Boolean", "Z"}, BoxSpec{"Float", "F"},
                        BoxSpec{"Double", "D"}}) {
      std::string owner = absl::StrCat("java/lang/", box.name);
      add(owner, absl::StrCat("valueOf(", box.d, ")L", owner, ";"));
      add(owner, "equals(Ljava/lang/Object;)Z");
      add(owner, "hashCode()I");
    }
    for (const char* owner : {"java/lang/Integer", "java/lang/Long", "java/lang/Short",
                              "java/lang/Byte", "java/lang/Float", "java/lang/Double"}) {
      for (const char* d : {"intValue()I", "longValue()J", "floatValue()F", "doubleValue()D",
                            "shortValue()S", "byteValue()B"}) {
        add(owner, d);
      }
    }
    add("java/lang/Character", "charValue()C");
    add("java/lang/Boolean", "booleanValue()Z");
    for (absl::string_view key : kBoxStaticMethods) {
      size_t dot = key.rfind('.', key.find('('));
      add(std::string(key.substr(0, dot)), std::string(key.substr(dot + 1)));
    }
    add("java/lang/Float", "isNaN(F)Z");
    add("java/lang/Double", "isNaN(D)Z");
    add("java/lang/Float", "isInfinite(F)Z");
    add("java/lang/Double", "isInfinite(D)Z");
    add("java/lang/Float", "isFinite(F)Z");
    add("java/lang/Double", "isFinite(D)Z");
    add("java/lang/Float", "compare(FF)I");
    add("java/lang/Double", "compare(DD)I");
    const std::string builder = "java/lang/StringBuilder";
    for (const char* d : {"<init>()V", "<init>(I)V", "<init>(Ljava/lang/String;)V",
                          "toString()Ljava/lang/String;"}) {
      add(builder, d);
    }
    for (const char* t : {"I", "J", "F", "D", "Z", "C", "Ljava/lang/String;",
                          "Ljava/lang/Object;", "Ljava/lang/CharSequence;"}) {
      add(builder, absl::StrCat("append(", t, ")Ljava/lang/StringBuilder;"));
    }
    for (const char* t : {"I", "J", "F", "D", "Z", "C", "Ljava/lang/Object;"}) {
      add("java/lang/String", absl::StrCat("valueOf(", t, ")Ljava/lang/String;"));
    }
    // Strings are opaque: these give values the program cannot tell from
    // the real ones without looking at the characters.
    add("java/lang/String", "hashCode()I");
    for (const char* d : {"toHexString(I)", "toString(I)", "toBinaryString(I)", "toOctalString(I)"}) {
      add("java/lang/Integer", absl::StrCat(d, "Ljava/lang/String;"));
    }
    for (const char* d : {"toHexString(J)", "toString(J)"}) {
      add("java/lang/Long", absl::StrCat(d, "Ljava/lang/String;"));
    }
    const std::string print = "java/io/PrintStream";
    add(print, "println()V");
    add(print, "flush()V");
    for (const char* t : {"Z", "C", "I", "J", "F", "D", "[C", "Ljava/lang/String;",
                          "Ljava/lang/Object;"}) {
      add(print, absl::StrCat("print(", t, ")V"));
      add(print, absl::StrCat("println(", t, ")V"));
    }
    add("java/lang/System", "exit(I)V");
    add("java/lang/System", "arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V");
    add("java/lang/Class", "desiredAssertionStatus()Z");
    const std::string enum_class = "java/lang/Enum";
    add(enum_class, "<init>(Ljava/lang/String;I)V");
    add(enum_class, "ordinal()I");
    add(enum_class, "name()Ljava/lang/String;");
    add(enum_class, "compareTo(Ljava/lang/Enum;)I");
    const std::string verifier = "org/sosy_lab/sv_benchmarks/Verifier";
    for (const char* d : {"nondetInt()I", "nondetLong()J", "nondetBoolean()Z", "nondetChar()C",
                          "nondetShort()S", "nondetByte()B", "nondetFloat()F",
                          "nondetDouble()D", "nondetString()Ljava/lang/String;",
                          "assume(Z)V"}) {
      add(verifier, d);
    }
    // Arrays inherit clone() from Object with a covariant meaning.
    add("[", "clone()Ljava/lang/Object;");
    return out;
  }();
  return *keys;
}

bool IsModelledLibraryMethod(absl::string_view key) {
  return ModelledLibraryMethods().count(std::string(key)) > 0;
}

}  // namespace tracespec::symex

// The table of modelled JDK methods; see jdk_models.h. The natives' C++
// models are in symex/library.cpp, the Java models in models/.
#include "validator/jdk/jdk_models.h"

#include <algorithm>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace tracespec::jdk {
namespace {

class TableBuilder {
 public:
  explicit TableBuilder(std::vector<ModelledMethod>* out) : out_(out) {}
  // `name_and_descriptor` is "name(params)result".
  void Add(ModelKind kind, const std::string& owner, absl::string_view name_and_descriptor,
           bool is_static, bool is_pure) {
    size_t paren = name_and_descriptor.find('(');
    ModelledMethod m;
    m.owner = owner;
    m.name = std::string(name_and_descriptor.substr(0, paren));
    m.descriptor = std::string(name_and_descriptor.substr(paren));
    m.is_static = is_static;
    m.is_pure = is_pure;
    m.kind = kind;
    out_->push_back(std::move(m));
  }
  void Native(const std::string& owner, absl::string_view nd, bool is_static, bool is_pure) {
    Add(ModelKind::kNative, owner, nd, is_static, is_pure);
  }
  void Java(const std::string& owner, absl::string_view nd, bool is_pure) {
    Add(ModelKind::kJava, owner, nd, /*is_static=*/true, is_pure);
  }
  // An instance method modelled by a static method whose first parameter is
  // the receiver (ModelDescriptor()).
  void JavaInstance(const std::string& owner, absl::string_view nd, bool is_pure) {
    Add(ModelKind::kJava, owner, nd, /*is_static=*/false, is_pure);
  }

 private:
  std::vector<ModelledMethod>* out_;
};

constexpr bool kStatic = true;
constexpr bool kInstance = false;
constexpr bool kPure = true;
constexpr bool kEffect = false;

void AddNatives(TableBuilder& t) {
  const std::string object = "java/lang/Object";
  t.Native(object, "<init>()V", kInstance, kEffect);
  t.Native(object, "equals(Ljava/lang/Object;)Z", kInstance, kPure);
  t.Native(object, "hashCode()I", kInstance, kPure);
  const std::string throwable = "java/lang/Throwable";
  for (const char* d : {"()V", "(Ljava/lang/String;)V",
                        "(Ljava/lang/String;Ljava/lang/Throwable;)V", "(Ljava/lang/Throwable;)V"}) {
    t.Native(throwable, absl::StrCat("<init>", d), kInstance, kEffect);
  }
  t.Native(throwable, "getMessage()Ljava/lang/String;", kInstance, kPure);
  t.Native(throwable, "getCause()Ljava/lang/Throwable;", kInstance, kPure);
  for (const char* d : {"(Ljava/lang/Object;)V", "(Z)V", "(C)V", "(I)V", "(J)V", "(F)V", "(D)V"}) {
    t.Native("java/lang/AssertionError", absl::StrCat("<init>", d), kInstance, kEffect);
  }
  for (const std::string math : {"java/lang/Math", "java/lang/StrictMath"}) {
    for (const char* d :
         {"abs(I)I", "abs(J)J", "abs(F)F", "abs(D)D", "max(II)I", "max(JJ)J", "max(FF)F",
          "max(DD)D", "min(II)I", "min(JJ)J", "min(FF)F", "min(DD)D", "floorDiv(II)I",
          "floorDiv(JJ)J", "floorDiv(JI)J", "floorMod(II)I", "floorMod(JJ)J", "floorMod(JI)I",
          "addExact(II)I", "addExact(JJ)J", "subtractExact(II)I", "subtractExact(JJ)J",
          "multiplyExact(II)I", "multiplyExact(JJ)J", "multiplyExact(JI)J", "negateExact(I)I",
          "negateExact(J)J", "incrementExact(I)I", "incrementExact(J)J", "decrementExact(I)I",
          "decrementExact(J)J", "toIntExact(J)I", "absExact(I)I", "absExact(J)J", "sqrt(D)D",
          "floor(D)D", "ceil(D)D", "rint(D)D", "round(F)I", "round(D)J", "signum(F)F",
          "signum(D)D"}) {
      t.Native(math, d, kStatic, kPure);
    }
  }
  struct BoxSpec {
    const char* name;
    const char* d;
  };
  for (BoxSpec box : {BoxSpec{"Integer", "I"}, BoxSpec{"Long", "J"}, BoxSpec{"Short", "S"},
                      BoxSpec{"Byte", "B"}, BoxSpec{"Character", "C"}, BoxSpec{"Boolean", "Z"},
                      BoxSpec{"Float", "F"}, BoxSpec{"Double", "D"}}) {
    std::string owner = absl::StrCat("java/lang/", box.name);
    t.Native(owner, absl::StrCat("valueOf(", box.d, ")L", owner, ";"), kStatic, kPure);
    t.Native(owner, "equals(Ljava/lang/Object;)Z", kInstance, kPure);
    t.Native(owner, "hashCode()I", kInstance, kPure);
  }
  for (const char* owner : {"java/lang/Integer", "java/lang/Long", "java/lang/Short",
                            "java/lang/Byte", "java/lang/Float", "java/lang/Double"}) {
    for (const char* d : {"intValue()I", "longValue()J", "floatValue()F", "doubleValue()D",
                          "shortValue()S", "byteValue()B"}) {
      t.Native(owner, d, kInstance, kPure);
    }
  }
  t.Native("java/lang/Character", "charValue()C", kInstance, kPure);
  t.Native("java/lang/Boolean", "booleanValue()Z", kInstance, kPure);
  // The static integer helpers of the box classes (library.cpp BoxStaticModel).
  for (const char* key : kBoxStaticMethods) {
    absl::string_view k = key;
    size_t dot = k.rfind('.', k.find('('));
    t.Native(std::string(k.substr(0, dot)), k.substr(dot + 1), kStatic, kPure);
  }
  for (const char* owner_and_type : {"Float:F", "Double:D"}) {
    absl::string_view s = owner_and_type;
    std::string owner = absl::StrCat("java/lang/", s.substr(0, s.find(':')));
    std::string d(s.substr(s.find(':') + 1));
    for (const char* name : {"isNaN", "isInfinite", "isFinite"}) {
      t.Native(owner, absl::StrCat(name, "(", d, ")Z"), kStatic, kPure);
    }
    t.Native(owner, absl::StrCat("compare(", d, d, ")I"), kStatic, kPure);
  }
  // Strings (models/.../String.java, StringBuilder.java) reach their
  // characters through these natives; see Intrinsics.java.
  const std::string intrinsics = "tracespec/jdk/Intrinsics";
  t.Native(intrinsics, "chars(Ljava/lang/String;)[C", kStatic, kPure);
  t.Native(intrinsics, "make([C)Ljava/lang/String;", kStatic, kPure);
  t.Native(intrinsics, "opaque(Ljava/lang/String;)Z", kStatic, kPure);
  t.Native(intrinsics, "setBuilderOpaque(Ljava/lang/StringBuilder;)V", kStatic, kEffect);
  t.Native(intrinsics, "builderChars(Ljava/lang/StringBuilder;)[C", kStatic, kPure);
  t.Native(intrinsics, "setBuilderChars(Ljava/lang/StringBuilder;[C)V", kStatic, kEffect);
  t.Native(intrinsics, "concat([C[C)[C", kStatic, kPure);
  t.Native(intrinsics, "range([CII)[C", kStatic, kPure);
  t.Native(intrinsics, "regionMatches([CI[C)Z", kStatic, kPure);
  t.Native(intrinsics, "find([C[C)I", kStatic, kPure);
  t.Native(intrinsics, "hash([C)I", kStatic, kPure);
  t.Native(intrinsics, "compare([C[C)I", kStatic, kPure);
  t.Native(intrinsics, "latin1([C)Z", kStatic, kPure);
  const std::string builder = "java/lang/StringBuilder";
  for (const char* d : {"<init>()V", "<init>(I)V", "<init>(Ljava/lang/String;)V"}) {
    t.Native(builder, d, kInstance, kEffect);
  }
  t.Native(builder, "toString()Ljava/lang/String;", kInstance, kEffect);
  // Appends whose text is not modelled: the builder's contents become
  // unknown (reading them is unsupported; its string is opaque).
  for (const char* p : {"J", "F", "D", "Ljava/lang/Object;", "Ljava/lang/CharSequence;"}) {
    t.Native(builder, absl::StrCat("append(", p, ")Ljava/lang/StringBuilder;"), kInstance,
             kEffect);
  }
  // Opaque strings: new String objects whose characters are not modelled.
  for (const char* p : {"J", "F", "D", "Ljava/lang/Object;"}) {
    t.Native("java/lang/String", absl::StrCat("valueOf(", p, ")Ljava/lang/String;"), kStatic,
             kPure);
  }
  for (const char* d : {"toHexString(I)", "toBinaryString(I)", "toOctalString(I)"}) {
    t.Native("java/lang/Integer", absl::StrCat(d, "Ljava/lang/String;"), kStatic, kPure);
  }
  for (const char* d : {"toHexString(J)", "toString(J)"}) {
    t.Native("java/lang/Long", absl::StrCat(d, "Ljava/lang/String;"), kStatic, kPure);
  }
  const std::string print = "java/io/PrintStream";
  t.Native(print, "println()V", kInstance, kEffect);
  t.Native(print, "flush()V", kInstance, kEffect);
  for (const char* p : {"Z", "C", "I", "J", "F", "D", "[C", "Ljava/lang/String;",
                        "Ljava/lang/Object;"}) {
    t.Native(print, absl::StrCat("print(", p, ")V"), kInstance, kEffect);
    t.Native(print, absl::StrCat("println(", p, ")V"), kInstance, kEffect);
  }
  t.Native("java/lang/System", "exit(I)V", kStatic, kEffect);
  t.Native("java/lang/System", "arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V", kStatic,
           kEffect);
  t.Native("java/lang/Class", "desiredAssertionStatus()Z", kInstance, kEffect);
  const std::string enum_class = "java/lang/Enum";
  t.Native(enum_class, "<init>(Ljava/lang/String;I)V", kInstance, kEffect);
  t.Native(enum_class, "ordinal()I", kInstance, kPure);
  t.Native(enum_class, "name()Ljava/lang/String;", kInstance, kPure);
  t.Native(enum_class, "compareTo(Ljava/lang/Enum;)I", kInstance, kPure);
  // The SV-COMP harness class: inputs and assumptions.
  const std::string verifier = "org/sosy_lab/sv_benchmarks/Verifier";
  for (const char* d : {"nondetInt()I", "nondetLong()J", "nondetBoolean()Z", "nondetChar()C",
                        "nondetShort()S", "nondetByte()B", "nondetFloat()F", "nondetDouble()D",
                        "nondetString()Ljava/lang/String;", "assume(Z)V"}) {
    t.Native(verifier, d, kStatic, kEffect);
  }
  // Arrays inherit clone() from Object with a covariant meaning.
  t.Native("[", "clone()Ljava/lang/Object;", kInstance, kPure);
}

// The Java models (models/tracespec/jdk/...): keep in step with the sources;
// jdk_models_test checks that the two list the same methods.
void AddJavaModels(TableBuilder& t) {
  const std::string arrays = "java/util/Arrays";
  for (const char* p : {"I", "J", "S", "C", "B", "Z", "F", "D"}) {
    std::string a = absl::StrCat("[", p);
    t.Java(arrays, absl::StrCat("copyOf(", a, "I)", a), kPure);
    t.Java(arrays, absl::StrCat("copyOfRange(", a, "II)", a), kPure);
    t.Java(arrays, absl::StrCat("fill(", a, p, ")V"), kEffect);
    t.Java(arrays, absl::StrCat("fill(", a, "II", p, ")V"), kEffect);
    t.Java(arrays, absl::StrCat("equals(", a, a, ")Z"), kPure);
    if (absl::string_view(p) == "Z") continue;
    t.Java(arrays, absl::StrCat("sort(", a, ")V"), kEffect);
    t.Java(arrays, absl::StrCat("sort(", a, "II)V"), kEffect);
  }
  for (const char* p : {"I", "J", "S", "C", "B"}) {
    std::string a = absl::StrCat("[", p);
    t.Java(arrays, absl::StrCat("binarySearch(", a, p, ")I"), kPure);
    t.Java(arrays, absl::StrCat("binarySearch(", a, "II", p, ")I"), kPure);
  }
  for (const char* p : {"I", "J", "S", "C", "B", "Z", "Ljava/lang/Object;"}) {
    t.Java(arrays, absl::StrCat("hashCode([", p, ")I"), kPure);
  }
  t.Java(arrays, "fill([Ljava/lang/Object;Ljava/lang/Object;)V", kEffect);
  t.Java(arrays, "fill([Ljava/lang/Object;IILjava/lang/Object;)V", kEffect);
  t.Java(arrays, "equals([Ljava/lang/Object;[Ljava/lang/Object;)Z", kPure);

  const std::string integer = "java/lang/Integer";
  for (const char* d :
       {"numberOfLeadingZeros(I)I", "numberOfTrailingZeros(I)I", "highestOneBit(I)I",
        "lowestOneBit(I)I", "rotateLeft(II)I", "rotateRight(II)I", "reverseBytes(I)I",
        "reverse(I)I", "toUnsignedLong(I)J", "compareUnsigned(II)I", "divideUnsigned(II)I",
        "remainderUnsigned(II)I", "toString(I)Ljava/lang/String;"}) {
    t.Java(integer, d, kPure);
  }
  const std::string long_class = "java/lang/Long";
  for (const char* d :
       {"numberOfLeadingZeros(J)I", "numberOfTrailingZeros(J)I", "highestOneBit(J)J",
        "lowestOneBit(J)J", "rotateLeft(JI)J", "rotateRight(JI)J", "compareUnsigned(JJ)I",
        "hashCode(J)I"}) {
    t.Java(long_class, d, kPure);
  }
  for (const char* d : {"logicalAnd(ZZ)Z", "logicalOr(ZZ)Z", "logicalXor(ZZ)Z", "hashCode(Z)I"}) {
    t.Java("java/lang/Boolean", d, kPure);
  }

  const std::string objects = "java/util/Objects";
  t.Java(objects, "equals(Ljava/lang/Object;Ljava/lang/Object;)Z", kPure);
  t.Java(objects, "hashCode(Ljava/lang/Object;)I", kPure);
  t.Java(objects, "isNull(Ljava/lang/Object;)Z", kPure);
  t.Java(objects, "nonNull(Ljava/lang/Object;)Z", kPure);
  t.Java(objects, "requireNonNull(Ljava/lang/Object;)Ljava/lang/Object;", kPure);
  t.Java(objects, "requireNonNull(Ljava/lang/Object;Ljava/lang/String;)Ljava/lang/Object;",
         kPure);
  t.Java(objects, "requireNonNullElse(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
         kPure);
  t.Java(objects, "compare(Ljava/lang/Object;Ljava/lang/Object;Ljava/util/Comparator;)I",
         kEffect);
  t.Java(objects, "checkIndex(II)I", kPure);
  t.Java(objects, "checkFromToIndex(III)I", kPure);

  const std::string string_class = "java/lang/String";
  for (const char* d :
       {"length()I", "isEmpty()Z", "charAt(I)C", "equals(Ljava/lang/Object;)Z", "hashCode()I",
        "compareTo(Ljava/lang/String;)I", "indexOf(I)I", "indexOf(Ljava/lang/String;)I",
        "contains(Ljava/lang/CharSequence;)Z", "startsWith(Ljava/lang/String;)Z",
        "startsWith(Ljava/lang/String;I)Z", "endsWith(Ljava/lang/String;)Z",
        "substring(I)Ljava/lang/String;", "substring(II)Ljava/lang/String;",
        "concat(Ljava/lang/String;)Ljava/lang/String;", "toCharArray()[C",
        "toString()Ljava/lang/String;"}) {
    t.JavaInstance(string_class, d, kPure);
  }
  for (const char* p : {"C", "Z", "I", "[C"}) {
    t.Java(string_class, absl::StrCat("valueOf(", p, ")Ljava/lang/String;"), kPure);
  }
  for (const char* p : {"Ljava/lang/String;", "C", "I", "Z"}) {
    t.JavaInstance("java/lang/StringBuilder", absl::StrCat("append(", p, ")Ljava/lang/StringBuilder;"),
                   kEffect);
  }
  t.JavaInstance("java/lang/StringBuilder", "length()I", kPure);
  t.JavaInstance("java/lang/StringBuilder", "charAt(I)C", kPure);
}

}  // namespace

const std::vector<ModelledMethod>& ModelledMethods() {
  static const std::vector<ModelledMethod>* const kTable = [] {
    auto* out = new std::vector<ModelledMethod>();
    TableBuilder t(out);
    AddNatives(t);
    AddJavaModels(t);
    std::sort(out->begin(), out->end(), [](const ModelledMethod& a, const ModelledMethod& b) {
      return a.Key() < b.Key();
    });
    return out;
  }();
  return *kTable;
}

const ModelledMethod* FindModelledMethod(absl::string_view key) {
  static const std::map<std::string, const ModelledMethod*, std::less<>>* const kIndex = [] {
    auto* index = new std::map<std::string, const ModelledMethod*, std::less<>>();
    for (const ModelledMethod& m : ModelledMethods()) index->emplace(m.Key(), &m);
    return index;
  }();
  auto it = kIndex->find(key);
  return it == kIndex->end() ? nullptr : it->second;
}

std::string ModelDescriptor(const ModelledMethod& m) {
  if (m.is_static) return m.descriptor;
  return absl::StrCat("(L", m.owner, ";", m.descriptor.substr(1));
}

std::string ModelClassName(absl::string_view jdk_class) {
  return absl::StrCat(kModelPackagePrefix, jdk_class);
}

std::string JdkClassOfModel(absl::string_view model_class) {
  if (!absl::StartsWith(model_class, kModelPackagePrefix)) return "";
  return std::string(model_class.substr(kModelPackagePrefix.size()));
}

}  // namespace tracespec::jdk

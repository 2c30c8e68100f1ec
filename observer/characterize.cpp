// Characterization tests from recorded calls; see characterize.h.
#include "observer/characterize.h"

#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/files.h"
#include "common/glob.h"
#include "common/proto_io.h"
#include "common/status.h"
#include "observer/summary.h"
#include "observer/target.h"
#include "validator/classfile/class_path.h"

namespace tracespec::observer {
namespace {

// "pkg.Outer$Inner" -> "pkg.Outer.Inner" (the Java spelling of a type).
std::string JavaClassName(const std::string& binary) {
  std::string out = binary;
  for (char& c : out) c = c == '$' ? '.' : c;
  return out;
}

// The Java type of a field descriptor ("[I" -> "int[]").
std::string JavaType(const std::string& descriptor) {
  if (descriptor.empty()) return "void";
  switch (descriptor[0]) {
    case 'Z': return "boolean";
    case 'B': return "byte";
    case 'C': return "char";
    case 'S': return "short";
    case 'I': return "int";
    case 'J': return "long";
    case 'F': return "float";
    case 'D': return "double";
    case 'V': return "void";
    case '[': return JavaType(descriptor.substr(1)) + "[]";
    case 'L': {
      std::string name = descriptor.substr(1, descriptor.size() - 2);
      for (char& c : name) c = c == '/' ? '.' : c;
      return JavaClassName(name);
    }
    default: return descriptor;
  }
}

// Splits "(I[JLjava/lang/String;)V" into parameter and return descriptors.
void SplitDescriptor(const std::string& d, std::vector<std::string>* params, std::string* ret) {
  size_t i = 1;
  while (i < d.size() && d[i] != ')') {
    size_t start = i;
    while (d[i] == '[') ++i;
    if (d[i] == 'L') i = d.find(';', i);
    ++i;
    params->push_back(d.substr(start, i - start));
  }
  *ret = d.substr(i + 1);
}

// A Java string literal (ASCII; other characters as \uXXXX of UTF-16).
std::string JavaString(const std::string& utf8) {
  std::string out = "\"";
  size_t i = 0;
  while (i < utf8.size()) {
    auto c = static_cast<unsigned char>(utf8[i]);
    uint32_t cp = c;
    int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    if (extra > 0) cp = c & (0x3F >> extra);
    for (int k = 1; k <= extra && i + k < utf8.size(); ++k) {
      cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    }
    i += 1 + extra;
    if (cp == '"' || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp >= 0x20 && cp < 0x7F) {
      out += static_cast<char>(cp);
    } else if (cp < 0x10000) {
      absl::StrAppend(&out, absl::StrFormat("\\u%04x", cp));
    } else {
      cp -= 0x10000;
      absl::StrAppend(&out, absl::StrFormat("\\u%04x\\u%04x", 0xD800 + (cp >> 10),
                                            0xDC00 + (cp & 0x3FF)));
    }
  }
  return out + "\"";
}

std::string DoubleLiteral(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15 && !(v == 0 && std::signbit(v))) {
    return absl::StrCat(static_cast<int64_t>(v), ".0");
  }
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return absl::StrFormat("Double.longBitsToDouble(0x%xL)", bits);
}

std::string FloatLiteral(float v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e7 && !(v == 0 && std::signbit(v))) {
    return absl::StrCat(static_cast<int64_t>(v), ".0f");
  }
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return absl::StrFormat("Float.intBitsToFloat(0x%x)", bits);
}

// A primitive or string value as a Java expression; "" for other kinds.
std::string Literal(const v1::Value& v) {
  switch (v.kind_case()) {
    case v1::Value::kBoolValue: return v.bool_value() ? "true" : "false";
    case v1::Value::kByteValue: return absl::StrCat("(byte) ", v.byte_value());
    case v1::Value::kShortValue: return absl::StrCat("(short) ", v.short_value());
    case v1::Value::kCharValue: return absl::StrCat("(char) ", v.char_value());
    case v1::Value::kIntValue: return absl::StrCat(v.int_value());
    case v1::Value::kLongValue: return absl::StrCat(v.long_value(), "L");
    case v1::Value::kFloatValue: return FloatLiteral(v.float_value());
    case v1::Value::kDoubleValue: return DoubleLiteral(v.double_value());
    case v1::Value::kStringValue: return JavaString(v.string_value());
    default: return "";
  }
}

const v1::ObjectState* Find(const google::protobuf::RepeatedPtrField<v1::ObjectState>& states,
                            uint64_t id) {
  for (const v1::ObjectState& s : states) {
    if (s.id() == id) return &s;
  }
  return nullptr;
}

// The package of a binary class name ("" for the default package).
std::string PackageOf(const std::string& class_name) {
  size_t dot = class_name.rfind('.');
  return dot == std::string::npos ? "" : class_name.substr(0, dot);
}

// Whether a test in `package` can name `class_name` in Java source: not an
// anonymous or local class, and public unless in the same package.
absl::Status CheckNameable(const std::string& class_name, const std::string& package,
                           classfile::ClassPath* classes) {
  std::string simple = class_name.substr(class_name.rfind('.') + 1);
  for (size_t at = simple.find('$'); at != std::string::npos; at = simple.find('$', at + 1)) {
    if (at + 1 >= simple.size() || std::isdigit(static_cast<unsigned char>(simple[at + 1]))) {
      return absl::FailedPreconditionError(
          absl::StrCat(class_name, " is an anonymous or local class (it has no name in Java)"));
    }
  }
  auto cls = classes->Load(class_name);
  if (!cls.ok()) return absl::NotFoundError(absl::StrCat("class ", class_name, " not found"));
  if ((*cls)->access & classfile::kAccPublic) return absl::OkStatus();
  if (PackageOf(class_name) != package) {
    return absl::FailedPreconditionError(
        absl::StrCat(class_name, " is not public and lies in another package"));
  }
  return absl::OkStatus();
}

// An array's elements as a Java array creation expression when they are
// all primitives, strings or null; "" otherwise.
std::string ArrayLiteral(const v1::ObjectState& state) {
  const v1::ArrayContents& array = state.array();
  if (array.elements_size() != array.length()) return "";
  std::vector<std::string> elements;
  for (const v1::Value& e : array.elements()) {
    std::string element = e.has_null_value() ? "null" : Literal(e);
    if (element.empty()) return "";
    elements.push_back(element);
  }
  return absl::StrCat("new ", JavaType(state.class_name()), " {", absl::StrJoin(elements, ", "),
                      "}");
}

// One test: the statements that rebuild a call's inputs, the call, and
// the assertions. Fails with the reason when an input cannot be rebuilt.
// A value the policy withheld is never written: a withheld input makes the
// call not rebuilt, a withheld result or field is not asserted.
class TestWriter {
 public:
  TestWriter(const v1::Observation& o, classfile::ClassPath* classes)
      : o_(o), classes_(classes), package_(PackageOf(o.method().class_name())) {}

  absl::StatusOr<std::string> Body() {
    const v1::MethodRef& m = o_.method();
    if (m.name() == "<init>" || m.name() == "<clinit>") {
      return absl::UnimplementedError("constructors are not replayed");
    }
    TS_RETURN_IF_ERROR(CheckNameable(m.class_name(), package_, classes_));
    auto cls = classes_->Load(m.class_name());
    if (!cls.ok()) return absl::NotFoundError(absl::StrCat("class ", m.class_name(), " not found"));
    const classfile::Method* method = (*cls)->FindMethod(m.name(), m.jvm_descriptor());
    if (method == nullptr) return absl::NotFoundError("the method is not in the class file");
    if (method->is_private()) {
      return absl::FailedPreconditionError("a private method (a test cannot call it)");
    }
    std::vector<std::string> params;
    std::string ret;
    SplitDescriptor(m.jvm_descriptor(), &params, &ret);
    if (static_cast<size_t>(o_.args_size()) != params.size()) {
      return absl::DataLossError("the arguments were not all recorded");
    }
    std::string target;
    if (m.is_static()) {
      target = JavaClassName(m.class_name());
    } else {
      if (!o_.receiver().has_ref()) return absl::DataLossError("no receiver recorded");
      TS_ASSIGN_OR_RETURN(target, Expression(o_.receiver(), "L" + m.class_name() + ";"));
    }
    std::vector<std::string> args;
    for (size_t i = 0; i < params.size(); ++i) {
      TS_ASSIGN_OR_RETURN(std::string arg, Expression(o_.args(static_cast<int>(i)), params[i]));
      args.push_back(arg);
    }
    std::string call = absl::StrCat(target, ".", m.name(), "(", absl::StrJoin(args, ", "), ")");
    const v1::Outcome& outcome = o_.outcome();
    if (outcome.has_thrown()) {
      // The exact class, by name (it need not be accessible from here).
      absl::StrAppend(&code_, "    Throwable thrown = assertThrows(Throwable.class, () -> ", call,
                      ");\n    assertEquals(\"", outcome.thrown().class_name(),
                      "\", thrown.getClass().getName());\n");
    } else if (outcome.has_returned_void() || ret == "V" || !outcome.has_returned()) {
      absl::StrAppend(&code_, "    ", call, ";\n");
    } else {
      AssertReturned(outcome.returned(), ret, call);
    }
    AssertStatesAfter();
    return code_;
  }

 private:
  void AssertReturned(const v1::Value& v, const std::string& ret, const std::string& call) {
    if (v.has_redacted()) {
      absl::StrAppend(&code_, "    ", call, ";  // the result was withheld by the policy\n");
      return;
    }
    if (v.has_null_value()) {
      absl::StrAppend(&code_, "    assertNull(", call, ");\n");
      return;
    }
    std::string literal = Literal(v);
    if (!literal.empty()) {
      absl::StrAppend(&code_, "    assertEquals(", literal, ", ", call, ");\n");
      return;
    }
    if (!v.has_ref()) {
      absl::StrAppend(&code_, "    ", call, ";  // the result was not recorded\n");
      return;
    }
    auto input = built_.find(v.ref());
    if (input != built_.end()) {
      absl::StrAppend(&code_, "    assertSame(", input->second, ", ", call, ");\n");
      return;
    }
    const v1::ObjectState* state = Find(o_.post(), v.ref());
    if (state == nullptr) {
      absl::StrAppend(&code_, "    assertNotNull(", call, ");\n");
      return;
    }
    std::string expected = state->has_array() ? ArrayLiteral(*state) : "";
    if (!expected.empty()) {
      absl::StrAppend(&code_, "    assertArrayEquals(", expected, ", ", call, ");\n");
      return;
    }
    absl::StrAppend(&code_, "    Object result = ", call, ";\n    assertEquals(\"",
                    JavaClassNameOfState(*state), "\", result.getClass().getName());\n");
    if (!state->has_array() && !IsJdkClass(state->class_name())) {
      AssertFields(*state, "result");
    } else if (state->has_array()) {
      absl::StrAppend(&code_, "    assertEquals(", state->array().length(),
                      ", java.lang.reflect.Array.getLength(result));\n");
    }
  }

  static bool IsJdkClass(const std::string& class_name) {
    return absl::StartsWith(class_name, "java.") || absl::StartsWith(class_name, "javax.") ||
           absl::StartsWith(class_name, "jdk.") || absl::StartsWith(class_name, "sun.");
  }

  // Class.getName() of a recorded object: "pkg.C", arrays as "[I" / "[Lpkg.C;".
  static std::string JavaClassNameOfState(const v1::ObjectState& state) {
    std::string name = state.class_name();
    for (char& c : name) c = c == '/' ? '.' : c;
    return name;
  }

  // The primitive, string and null fields of `state` (recorded after the
  // call) on the object `variable`.
  void AssertFields(const v1::ObjectState& state, const std::string& variable) {
    for (const v1::Field& f : state.fields()) {
      std::string owner = f.declaring_class().empty() ? state.class_name() : f.declaring_class();
      if (IsJdkClass(owner)) continue;  // Not accessible by reflection.
      std::string get =
          absl::StrCat("Replay.get(", variable, ", \"", owner, "\", \"", f.name(), "\")");
      if (f.value().has_null_value()) {
        absl::StrAppend(&code_, "    assertNull(", get, ");\n");
        continue;
      }
      std::string literal = Literal(f.value());
      if (literal.empty()) continue;  // References, withheld values.
      absl::StrAppend(&code_, "    assertEquals((Object) ", literal, ", ", get, ");\n");
    }
  }

  // The rebuilt inputs (receiver, arguments and what they reach) as
  // recorded after the call: fields, and arrays' elements.
  void AssertStatesAfter() {
    for (const auto& [ref, variable] : built_order_) {
      const v1::ObjectState* after = Find(o_.post(), ref);
      if (after == nullptr) continue;
      if (after->has_array()) {
        std::string expected = ArrayLiteral(*after);
        if (!expected.empty()) {
          absl::StrAppend(&code_, "    assertArrayEquals(", expected, ", ", variable, ");\n");
        }
      } else {
        AssertFields(*after, variable);
      }
    }
  }

  // A Java expression for `v` of static type `descriptor`, with the
  // statements that build it appended to code_.
  absl::StatusOr<std::string> Expression(const v1::Value& v, const std::string& descriptor) {
    if (v.has_redacted()) {
      return absl::FailedPreconditionError("an input was withheld by the policy");
    }
    if (v.has_null_value()) return absl::StrCat("(", JavaType(descriptor), ") null");
    std::string literal = Literal(v);
    if (!literal.empty()) return literal;
    if (!v.has_ref()) return absl::DataLossError("an input was not recorded");
    auto built = built_.find(v.ref());
    if (built == built_.end()) {
      const v1::ObjectState* state = Find(o_.pre(), v.ref());
      if (state == nullptr) return absl::DataLossError("an input object was not recorded");
      if (state->truncated()) {
        return absl::FailedPreconditionError(absl::StrCat(
            "an input of class ", state->class_name(), " lies beyond the policy's depth limit"));
      }
      std::string name = absl::StrCat("v", built_.size() + 1);
      built_[v.ref()] = name;
      built_order_.emplace_back(v.ref(), name);
      types_[v.ref()] = state->has_array() ? state->class_name()
                                           : absl::StrCat("L", state->class_name(), ";");
      if (state->has_array()) {
        in_array_.insert(v.ref());
        TS_RETURN_IF_ERROR(ArrayExpression(*state, name));
        in_array_.erase(v.ref());
      } else {
        TS_RETURN_IF_ERROR(ObjectExpression(*state, name));
      }
      built = built_.find(v.ref());
    } else if (in_array_.count(v.ref()) > 0) {
      return absl::UnimplementedError("an array that contains itself");
    }
    // A cast to the declared type keeps overload resolution as recorded.
    if (JavaType(types_[v.ref()]) != JavaType(descriptor)) {
      return absl::StrCat("(", JavaType(descriptor), ") ", built->second);
    }
    return built->second;
  }

  absl::Status ArrayExpression(const v1::ObjectState& state, const std::string& name) {
    const v1::ArrayContents& array = state.array();
    if (array.elements_size() != array.length()) {
      return absl::FailedPreconditionError(absl::StrCat("an array recorded in part (",
                                                        array.elements_size(), " of ",
                                                        array.length(), " elements)"));
    }
    std::string element_type = array.element_descriptor();
    while (!element_type.empty() && element_type[0] == '[') element_type = element_type.substr(1);
    if (!element_type.empty() && element_type[0] == 'L') {
      std::string element_class = element_type.substr(1, element_type.size() - 2);
      for (char& c : element_class) c = c == '/' ? '.' : c;
      TS_RETURN_IF_ERROR(CheckNameable(element_class, package_, classes_));
    }
    std::vector<std::string> elements;
    for (const v1::Value& e : array.elements()) {
      TS_ASSIGN_OR_RETURN(std::string element, Expression(e, array.element_descriptor()));
      elements.push_back(element);
    }
    std::string type = JavaType(state.class_name());
    absl::StrAppend(&code_, "    ", type, " ", name, " = new ", type, " {",
                    absl::StrJoin(elements, ", "), "};\n");
    return absl::OkStatus();
  }

  // The enum `class_name` is a constant of: itself when it extends
  // java.lang.Enum, its superclass when it is a constant's body; "" when
  // it is no enum.
  std::string EnumTypeOf(const std::string& class_name) {
    auto cls = classes_->Load(class_name);
    if (!cls.ok()) return "";
    if ((*cls)->super_name == "java/lang/Enum") return class_name;
    std::string super = (*cls)->super_name;
    if (super.empty()) return "";
    for (char& c : super) c = c == '/' ? '.' : c;
    auto parent = classes_->Load(super);
    if (parent.ok() && (*parent)->super_name == "java/lang/Enum") return super;
    return "";
  }

  // An enum constant is taken by its name, never built: a recorded object
  // names itself by java.lang.Enum's `name` field, a counterexample's by
  // enum_constant.
  absl::Status EnumExpression(const v1::ObjectState& state, const std::string& enum_type,
                              const std::string& name) {
    TS_RETURN_IF_ERROR(CheckNameable(enum_type, package_, classes_));
    std::string constant = state.enum_constant();
    for (const v1::Field& f : state.fields()) {
      if (constant.empty() && f.name() == "name" && f.declaring_class() == "java.lang.Enum" &&
          f.value().kind_case() == v1::Value::kStringValue) {
        constant = f.value().string_value();
      }
    }
    if (constant.empty()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "a constant of the enum ", enum_type,
          " whose name was not recorded (the policy records no field java.lang.Enum.name)"));
    }
    std::string type = JavaClassName(enum_type);
    absl::StrAppend(&code_, "    ", type, " ", name, " = ", type, ".valueOf(",
                    JavaString(constant), ");\n");
    return absl::OkStatus();
  }

  absl::Status ObjectExpression(const v1::ObjectState& state, const std::string& name) {
    const std::string& class_name = state.class_name();
    if (IsJdkClass(class_name)) {
      return absl::UnimplementedError(
          absl::StrCat("an input of the JDK's class ", class_name, " (not rebuilt field by field)"));
    }
    if (std::string enum_type = EnumTypeOf(class_name); !enum_type.empty()) {
      return EnumExpression(state, enum_type, name);
    }
    TS_RETURN_IF_ERROR(CheckNameable(class_name, package_, classes_));
    auto cls = classes_->Load(class_name);
    if (!cls.ok()) return absl::NotFoundError(absl::StrCat("class ", class_name, " not found"));
    if ((*cls)->is_abstract() || (*cls)->is_interface() ||
        (*cls)->FindMethod("<init>", "()V") == nullptr) {
      return absl::FailedPreconditionError(
          absl::StrCat(class_name, " has no constructor without parameters"));
    }
    std::string type = JavaClassName(class_name);
    absl::StrAppend(&code_, "    ", type, " ", name, " = (", type, ") Replay.newInstance(\"",
                    class_name, "\");\n");
    // Every instance field of the class and its superclasses must have been
    // recorded, with a value the policy did not withhold.
    std::string owner = class_name;
    while (!owner.empty() && !IsJdkClass(owner)) {
      auto c = classes_->Load(owner);
      if (!c.ok()) return absl::NotFoundError(absl::StrCat("class ", owner, " not found"));
      for (const classfile::Field& f : (*c)->fields) {
        if (f.is_static()) continue;
        const v1::Field* recorded = nullptr;
        for (const v1::Field& r : state.fields()) {
          std::string declaring = r.declaring_class().empty() ? class_name : r.declaring_class();
          if (r.name() == f.name && declaring == owner) recorded = &r;
        }
        if (recorded == nullptr) {
          return absl::FailedPreconditionError(
              absl::StrCat("field ", owner, ".", f.name, " was not recorded"));
        }
        if (recorded->value().has_redacted()) {
          return absl::FailedPreconditionError(
              absl::StrCat("field ", owner, ".", f.name, " was withheld by the policy"));
        }
        TS_ASSIGN_OR_RETURN(std::string value, Expression(recorded->value(), f.descriptor));
        absl::StrAppend(&code_, "    Replay.set(", name, ", \"", owner, "\", \"", f.name, "\", ",
                        value, ");\n");
      }
      owner = (*c)->super_name.empty() ? "" : classfile::InternalToBinary((*c)->super_name);
    }
    return absl::OkStatus();
  }

  const v1::Observation& o_;
  classfile::ClassPath* classes_;
  std::string package_;
  std::string code_;
  std::map<uint64_t, std::string> built_;
  std::map<uint64_t, std::string> types_;
  std::vector<std::pair<uint64_t, std::string>> built_order_;
  std::set<uint64_t> in_array_;  // Arrays whose initializer is being written.
};

constexpr char kReplayHelper[] = R"(
  /** Builds inputs by constructor and field access, as the calls were recorded. */
  private static final class Replay {
    static Object newInstance(String className) throws Exception {
      java.lang.reflect.Constructor<?> constructor =
          Class.forName(className).getDeclaredConstructor();
      constructor.setAccessible(true);
      return constructor.newInstance();
    }

    static java.lang.reflect.Field field(String declaring, String name) throws Exception {
      java.lang.reflect.Field field = Class.forName(declaring).getDeclaredField(name);
      field.setAccessible(true);
      return field;
    }

    static void set(Object target, String declaring, String name, Object value) throws Exception {
      field(declaring, name).set(target, value);
    }

    static Object get(Object target, String declaring, String name) throws Exception {
      return field(declaring, name).get(target);
    }
  }
)";

bool Selected(const v1::MethodRef& m, const v1::ProbeTarget& t) {
  if (t.pattern()) {
    return GlobMatch(t.class_name(), m.class_name()) && GlobMatch(t.method_name(), m.name());
  }
  if (m.class_name() != t.class_name() || m.name() != t.method_name()) return false;
  const std::string& d = t.jvm_descriptor();
  if (d.empty()) return true;
  return d.back() == ')' ? absl::StartsWith(m.jvm_descriptor(), d) : m.jvm_descriptor() == d;
}

// "legacy.pricing.Cart" -> "legacy/pricing/CartCharacterizationTest.java".
std::string TestPath(const std::string& class_name, std::string* package, std::string* simple) {
  size_t dot = class_name.rfind('.');
  *package = dot == std::string::npos ? "" : class_name.substr(0, dot);
  *simple = class_name.substr(dot == std::string::npos ? 0 : dot + 1);
  for (char& c : *simple) c = c == '$' ? '_' : c;
  *simple += "CharacterizationTest";
  std::string dir = *package;
  for (char& c : dir) c = c == '.' ? '/' : c;
  return dir.empty() ? *simple + ".java" : absl::StrCat(dir, "/", *simple, ".java");
}

std::string MethodIdentifier(const std::string& name) {
  std::string out;
  for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  return out;
}

}  // namespace

absl::StatusOr<CharacterizeResult> Characterize(const CharacterizeOptions& options) {
  if (options.out_dir.empty()) return absl::InvalidArgumentError("no output directory (--out)");
  std::vector<v1::ProbeTarget> targets;
  for (const std::string& spec : options.methods) {
    TS_ASSIGN_OR_RETURN(v1::ProbeTarget target, ParseTarget(spec));
    targets.push_back(target);
  }
  TS_ASSIGN_OR_RETURN(std::vector<v1::Observation> observations,
                      ReadObservations(options.observations));
  TS_ASSIGN_OR_RETURN(classfile::ClassPath classes, classfile::ClassPath::Create(options.classpath));
  std::stable_sort(observations.begin(), observations.end(),
                   [](const auto& a, const auto& b) { return a.sequence() < b.sequence(); });

  CharacterizeResult result;
  // Per target class: test methods in recording order.
  std::map<std::string, std::vector<std::string>> tests;
  std::map<std::string, std::set<std::string>> bodies;
  std::map<std::string, int> numbers;
  std::vector<int> matched(targets.size(), 0);
  for (const v1::Observation& o : observations) {
    if (o.source() != v1::RECORDED) continue;
    // No --method: every method the observations hold.
    bool wanted = targets.empty();
    for (size_t i = 0; i < targets.size(); ++i) {
      if (Selected(o.method(), targets[i])) {
        wanted = true;
        ++matched[i];
      }
    }
    if (!wanted) continue;
    ++result.calls;
    std::string label = MethodLabel(o.method());
    if (o.excluded()) {
      result.not_rebuilt.push_back({label, o.sequence(), "excluded: " + o.excluded_reason()});
      continue;
    }
    TestWriter writer(o, &classes);
    absl::StatusOr<std::string> body = writer.Body();
    if (!body.ok()) {
      result.not_rebuilt.push_back({label, o.sequence(), std::string(body.status().message())});
      continue;
    }
    const std::string& class_name = o.method().class_name();
    std::string key = absl::StrCat(label, "\n", *body);
    if (!bodies[class_name].insert(key).second) {
      ++result.duplicates;
      continue;
    }
    int n = ++numbers[absl::StrCat(class_name, "#", o.method().name())];
    tests[class_name].push_back(absl::StrCat(
        "  /** ", label, ", recorded call ", o.sequence(),
        o.entry_point().empty() ? "" : absl::StrCat(" from ", o.entry_point()),
        o.test_id().empty() ? "" : absl::StrCat(" in ", o.test_id()), ". */\n  @Test\n  void ",
        MethodIdentifier(o.method().name()), "_", n, "() throws Exception {\n", *body, "  }\n"));
    ++result.tests;
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    if (matched[i] == 0) {
      return absl::NotFoundError(absl::StrCat("no recorded calls of ", targets[i].spec(), " in ",
                                              options.observations));
    }
  }
  if (result.calls == 0) {
    return absl::NotFoundError(absl::StrCat("no recorded calls in ", options.observations));
  }

  // Everything is generated; now write (each file atomically).
  std::map<std::string, std::string> files;
  for (const auto& [class_name, methods] : tests) {
    std::string package, simple;
    std::string path = TestPath(class_name, &package, &simple);
    std::string text = absl::StrCat(
        "// Characterization tests written by tracespec characterize from recorded calls of ",
        class_name, ":\n// they pin the behaviour that was observed, not the one intended.\n",
        package.empty() ? "" : absl::StrCat("package ", package, ";\n"),
        "\nimport static org.junit.jupiter.api.Assertions.*;\n\n"
        "import org.junit.jupiter.api.Test;\n\nclass ",
        simple, " {\n", absl::StrJoin(methods, "\n"), kReplayHelper, "}\n");
    files[path] = text;
  }
  std::string listing = absl::StrCat(
      "# tracespec characterize: the recorded calls no test was written for, and why\n"
      "# (METHOD call SEQUENCE: REASON; SEQUENCE as in observations.jsonl). ",
      result.not_rebuilt.size(), " of ", result.calls, " calls.\n");
  std::sort(result.not_rebuilt.begin(), result.not_rebuilt.end(),
            [](const NotRebuilt& a, const NotRebuilt& b) {
              return std::tie(a.method, a.sequence) < std::tie(b.method, b.sequence);
            });
  for (const NotRebuilt& n : result.not_rebuilt) {
    absl::StrAppend(&listing, n.method, " call ", n.sequence, ": ", n.why, "\n");
  }
  files["not-rebuilt.txt"] = listing;
  for (const auto& [relative, text] : files) {
    std::string path = absl::StrCat(options.out_dir, "/", relative);
    TS_RETURN_IF_ERROR(MakeDirs(path.substr(0, path.rfind('/'))));
    TS_RETURN_IF_ERROR(WriteFileAtomic(path, text));
    if (relative != "not-rebuilt.txt") result.files.push_back(relative);
  }
  return result;
}

}  // namespace tracespec::observer

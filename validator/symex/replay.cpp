// Replay drivers; see replay.h.
#include "validator/symex/replay.h"

#include <cstring>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "validator/classfile/descriptors.h"

namespace tracespec::symex {
namespace {

std::string JavaString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 32 || c >= 127) {
      absl::StrAppendFormat(&out, "\\u%04x", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string Literal(const v1::Value& v, const std::string& descriptor) {
  switch (v.kind_case()) {
    case v1::Value::kBoolValue: return v.bool_value() ? "true" : "false";
    case v1::Value::kByteValue: return JavaLiteral("B", static_cast<uint64_t>(v.byte_value()));
    case v1::Value::kShortValue: return JavaLiteral("S", static_cast<uint64_t>(v.short_value()));
    case v1::Value::kCharValue: return JavaLiteral("C", static_cast<uint64_t>(v.char_value()));
    case v1::Value::kIntValue: return JavaLiteral("I", static_cast<uint64_t>(v.int_value()));
    case v1::Value::kLongValue: return JavaLiteral("J", static_cast<uint64_t>(v.long_value()));
    case v1::Value::kFloatValue: {
      float f = v.float_value();
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      return JavaLiteral("F", bits);
    }
    case v1::Value::kDoubleValue: {
      double d = v.double_value();
      uint64_t bits;
      std::memcpy(&bits, &d, 8);
      return JavaLiteral("D", bits);
    }
    case v1::Value::kStringValue: return absl::StrCat("new String(", JavaString(v.string_value()), ")");
    case v1::Value::kRef: return absl::StrCat("o", v.ref());
    default: return "null";
  }
}

}  // namespace

std::string JavaLiteral(const std::string& descriptor, uint64_t bits) {
  char d = descriptor.empty() ? 'I' : descriptor[0];
  switch (d) {
    case 'Z': return bits != 0 ? "true" : "false";
    case 'B': return absl::StrCat("(byte) ", static_cast<int8_t>(bits));
    case 'S': return absl::StrCat("(short) ", static_cast<int16_t>(bits));
    case 'C': return absl::StrCat("(char) ", static_cast<uint16_t>(bits));
    case 'I': {
      int32_t v = static_cast<int32_t>(bits);
      return v == INT32_MIN ? "Integer.MIN_VALUE" : absl::StrCat(v);
    }
    case 'J': {
      int64_t v = static_cast<int64_t>(bits);
      return v == INT64_MIN ? "Long.MIN_VALUE" : absl::StrCat(v, "L");
    }
    case 'F': return absl::StrFormat("Float.intBitsToFloat(0x%08x)", static_cast<uint32_t>(bits));
    case 'D': return absl::StrFormat("Double.longBitsToDouble(0x%016xL)", bits);
    default: return "null";
  }
}

std::string HarnessDriver(const std::vector<InputValue>& inputs) {
  std::vector<std::string> values;
  std::vector<std::string> comments;
  for (const InputValue& in : inputs) {
    values.push_back(absl::StrFormat("0x%xL", in.bits));
    comments.push_back(absl::StrCat("  //   ", in.source, " = ", in.text,
                                    in.where ? absl::StrCat(" (", in.where->file, ":",
                                                            in.where->line, ")")
                                             : ""));
  }
  std::string out = absl::StrCat(
      "// Replays a counterexample of tracespec verify: a stand-in for the SV-COMP\n"
      "// Verifier class that returns the recorded inputs in order. Compile it into\n"
      "// its own directory and put that directory first on the class path.\n"
      "package org.sosy_lab.sv_benchmarks;\n\n"
      "public final class Verifier {\n"
      "  // The inputs, in the order the program asks for them:\n",
      absl::StrJoin(comments, "\n"), comments.empty() ? "" : "\n",
      "  private static final long[] VALUES = {", absl::StrJoin(values, ", "), "};\n",
      "  private static int next = 0;\n\n"
      "  private static long take() {\n"
      "    if (next >= VALUES.length) {\n"
      "      System.err.println(\"tracespec-replay: the program asked for more inputs than "
      "recorded\");\n"
      "      Runtime.getRuntime().halt(3);\n"
      "    }\n"
      "    return VALUES[next++];\n"
      "  }\n\n"
      "  public static void assume(boolean condition) {\n"
      "    if (!condition) {\n"
      "      System.err.println(\"tracespec-replay: an assumption does not hold\");\n"
      "      Runtime.getRuntime().halt(2);\n"
      "    }\n"
      "  }\n\n"
      "  public static boolean nondetBoolean() { return take() != 0; }\n"
      "  public static byte nondetByte() { return (byte) take(); }\n"
      "  public static char nondetChar() { return (char) take(); }\n"
      "  public static short nondetShort() { return (short) take(); }\n"
      "  public static int nondetInt() { return (int) take(); }\n"
      "  public static long nondetLong() { return take(); }\n"
      "  public static float nondetFloat() { return Float.intBitsToFloat((int) take()); }\n"
      "  public static double nondetDouble() { return Double.longBitsToDouble(take()); }\n"
      "  public static String nondetString() { take(); return new String(\"nondet\"); }\n"
      "}\n");
  return out;
}

std::string MethodDriver(const v1::Observation& observation,
                         const std::vector<StaticSetting>& statics,
                         const std::string& driver_class) {
  const v1::MethodRef& method = observation.method();
  std::string body;
  std::map<uint64_t, const v1::ObjectState*> by_id;
  for (const v1::ObjectState& obj : observation.pre()) by_id[obj.id()] = &obj;
  // Objects first (without running constructors), then their contents.
  for (const v1::ObjectState& obj : observation.pre()) {
    std::string var = absl::StrCat("o", obj.id());
    const std::string& cls = obj.class_name();
    if (!obj.enum_constant().empty()) {
      absl::StrAppend(&body, "    Object ", var, " = constant(", JavaString(obj.class_name()), ", ",
                      JavaString(obj.enum_constant()), ");\n");
    } else if (obj.has_array()) {
      absl::StrAppend(&body, "    Object ", var, " = Array.newInstance(type(",
                      JavaString(obj.array().element_descriptor()), "), ", obj.array().length(),
                      ");\n");
    } else if (cls == "java.lang.String") {
      // Its characters (UTF-16 units, so lone surrogates replay too).
      const v1::ObjectState* chars = nullptr;
      for (const v1::Field& f : obj.fields()) {
        if (f.name() == "value" && f.value().has_ref()) {
          auto it = by_id.find(f.value().ref());
          if (it != by_id.end() && it->second->has_array()) chars = it->second;
        }
      }
      if (chars == nullptr) {  // characters not modelled: any distinct string
        absl::StrAppend(&body, "    Object ", var, " = new String(\"s", obj.id(), "\");\n");
      } else {
        std::vector<std::string> units;
        for (const v1::Value& e : chars->array().elements()) units.push_back(Literal(e, "C"));
        absl::StrAppend(&body, "    Object ", var, " = new String(new char[] {",
                        absl::StrJoin(units, ", "), "});\n");
      }
    } else if (cls == "java.lang.Integer" || cls == "java.lang.Long" || cls == "java.lang.Short" ||
               cls == "java.lang.Byte" || cls == "java.lang.Character" ||
               cls == "java.lang.Boolean" || cls == "java.lang.Float" ||
               cls == "java.lang.Double") {
      std::string value = "0";
      for (const v1::Field& f : obj.fields()) {
        if (f.name() == "value") value = Literal(f.value(), f.jvm_type());
      }
      absl::StrAppend(&body, "    Object ", var, " = new ", cls, "(", value, ");\n");
    } else {
      absl::StrAppend(&body, "    Object ", var, " = alloc(", JavaString(cls), ");\n");
    }
  }
  for (const v1::ObjectState& obj : observation.pre()) {
    std::string var = absl::StrCat("o", obj.id());
    if (obj.has_array()) {
      for (int i = 0; i < obj.array().elements_size(); ++i) {
        absl::StrAppend(&body, "    Array.set(", var, ", ", i, ", ",
                        Literal(obj.array().elements(i), obj.array().element_descriptor()), ");\n");
      }
      continue;
    }
    if (obj.class_name().rfind("java.", 0) == 0) continue;  // library internals stay as built
    for (const v1::Field& f : obj.fields()) {
      std::string owner = f.declaring_class().empty() ? obj.class_name() : f.declaring_class();
      if (owner.rfind("java.", 0) == 0) continue;
      absl::StrAppend(&body, "    set(", var, ", ", JavaString(owner), ", ", JavaString(f.name()),
                      ", ", Literal(f.value(), f.jvm_type()), ");\n");
    }
  }
  for (const StaticSetting& s : statics) {
    absl::StrAppend(&body, "    set(null, ", JavaString(s.owner), ", ", JavaString(s.name), ", ",
                    s.descriptor[0] == 'L' || s.descriptor[0] == '['
                        ? (s.object == 0 ? std::string("null") : absl::StrCat("o", s.object))
                        : JavaLiteral(s.descriptor, s.bits),
                    ");\n");
  }
  auto sig = classfile::ParseMethodDescriptor(method.jvm_descriptor());
  std::vector<std::string> types, args;
  if (sig.ok()) {
    for (const std::string& p : sig->params) types.push_back(absl::StrCat("type(", JavaString(p), ")"));
  }
  for (int i = 0; i < observation.args_size(); ++i) {
    std::string d = sig.ok() && i < static_cast<int>(sig->params.size()) ? sig->params[i] : "I";
    args.push_back(Literal(observation.args(i), d));
  }
  std::string target = method.is_static() ? "null" : Literal(observation.receiver(), "L");
  std::string call;
  if (method.name() == "<init>") {
    call = absl::StrCat(
        "    Constructor<?> c = Class.forName(", JavaString(method.class_name()),
        ").getDeclaredConstructor(", absl::StrJoin(types, ", "), ");\n",
        "    c.setAccessible(true);\n"
        "    try {\n"
        "      c.newInstance(new Object[] {", absl::StrJoin(args, ", "), "});\n"
        "      System.out.println(\"tracespec-replay: returned normally\");\n"
        "    } catch (InvocationTargetException e) {\n"
        "      throw e.getCause();\n"
        "    }\n");
  } else {
    call = absl::StrCat(
        "    Method m = Class.forName(", JavaString(method.class_name()), ").getDeclaredMethod(",
        JavaString(method.name()), types.empty() ? "" : ", ", absl::StrJoin(types, ", "), ");\n",
        "    m.setAccessible(true);\n"
        "    try {\n"
        "      Object result = m.invoke(", target, ", new Object[] {", absl::StrJoin(args, ", "),
        "});\n"
        "      System.out.println(\"tracespec-replay: returned normally: \" + result);\n"
        "    } catch (InvocationTargetException e) {\n"
        "      throw e.getCause();\n"
        "    }\n");
  }
  return absl::StrCat(
      "// Replays a counterexample of tracespec verify for ", method.class_name(), ".",
      method.name(), method.jvm_descriptor(),
      ":\n// builds the pre-state without running constructors, then calls the method.\n"
      "import java.lang.reflect.*;\n\n"
      "public class ",
      driver_class,
      " {\n"
      "  private static Object unsafe;\n"
      "  private static Method allocateInstance;\n\n"
      "  private static Class<?> type(String d) throws Exception {\n"
      "    switch (d) {\n"
      "      case \"Z\": return boolean.class;\n"
      "      case \"B\": return byte.class;\n"
      "      case \"C\": return char.class;\n"
      "      case \"S\": return short.class;\n"
      "      case \"I\": return int.class;\n"
      "      case \"J\": return long.class;\n"
      "      case \"F\": return float.class;\n"
      "      case \"D\": return double.class;\n"
      "      default:\n"
      "        if (d.startsWith(\"[\")) return Class.forName(d.replace('/', '.'));\n"
      "        return Class.forName(d.substring(1, d.length() - 1).replace('/', '.'));\n"
      "    }\n"
      "  }\n\n"
      "  private static Object alloc(String cls) throws Exception {\n"
      "    return allocateInstance.invoke(unsafe, Class.forName(cls));\n"
      "  }\n\n"
      "  private static Object constant(String cls, String name) throws Exception {\n"
      "    Class<?> c = Class.forName(cls);\n"
      "    while (!c.isEnum()) c = c.getSuperclass();  // a constant with a body\n"
      "    Field f = c.getDeclaredField(name);\n"
      "    f.setAccessible(true);\n"
      "    return f.get(null);\n"
      "  }\n\n"
      "  private static void set(Object target, String cls, String name, Object value)\n"
      "      throws Exception {\n"
      "    Field f = Class.forName(cls).getDeclaredField(name);\n"
      "    f.setAccessible(true);\n"
      "    f.set(target, value);\n"
      "  }\n\n"
      "  public static void main(String[] args) throws Throwable {\n"
      "    // sun.misc.Unsafe (module jdk.unsupported) allocates without constructors.\n"
      "    Class<?> unsafeClass = Class.forName(\"sun.misc.Unsafe\");\n"
      "    Field theUnsafe = unsafeClass.getDeclaredField(\"theUnsafe\");\n"
      "    theUnsafe.setAccessible(true);\n"
      "    unsafe = theUnsafe.get(null);\n"
      "    allocateInstance = unsafeClass.getMethod(\"allocateInstance\", Class.class);\n",
      body, call,
      "  }\n"
      "}\n");
}

}  // namespace tracespec::symex

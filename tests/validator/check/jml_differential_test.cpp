// One JML semantics, two evaluators: the coverage check evaluates JML
// concretely on observations (jml::ObservationEvaluator), the consistency
// check lowers it to Z3 (check::Lowering). This test generates JML
// expressions (seeded, deterministic) and states (edge values first), and
// evaluates each expression on each state both ways: concretely, and by
// lowering it with every input pinned to the state's values (receiver,
// arguments, the objects reachable from them before and after, \result)
// and asking Z3 whether it is true or false.
//
// The rule compared, where the two differ by design:
// - Both define the expression: the same truth value.
// - Concretely undefined (division by zero, index out of bounds, null
//   dereference, a *Exact overflow, ...): the lowering must record an
//   undefined place that the pinned state reaches.
// - Undefined for the lowering, defined concretely: the concrete evaluator
//   is Kleene (`x ==> true`, `false && x` and `undefined || true` are
//   decided whatever x), the lowering is strict left to right like Java and
//   OpenJML's well-definedness. This is allowed only when a strict
//   left-to-right evaluation built from the concrete evaluator's values of
//   the operands is undefined too.
// - Constructs one side does not evaluate (the concrete evaluator's "not
//   evaluated", the lowering's unsupported or out-of-range answers) are
//   counted, not compared.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tests/testing/call_builder.h"
#include "tests/testing/testing.h"
#include "validator/check/classfile_env.h"
#include "validator/check/lowering.h"
#include "validator/check/observation_pin.h"
#include "validator/classfile/class_path.h"
#include "validator/jml/observation_eval.h"
#include "validator/jml/parser.h"
#include "validator/jml/spec_source.h"
#include "validator/jml/type_checker.h"
#include "validator/symex/machine.h"
#include "validator/symex/program.h"
#include "validator/symex/solver.h"

namespace tracespec::check {
namespace {

constexpr char kSource[] = R"java(
package d;

public class D {
  int n;
  long m;
  double v;
  float w;
  char ch;
  boolean flag;
  int[] arr;
  D next;

  public int f(int x, long y, double d, float g, char c, short s, byte b, boolean z, int[] a,
               long[] la, double[] da, D o) {
    return 0;
  }

  // Makes int[][] a type of the program (a specification may create one).
  static int[][] grid() {
    return new int[2][3];
  }
}
)java";

constexpr char kDescriptor[] = "(IJDFCSBZ[I[J[DLd/D;)I";

// ---- States ----------------------------------------------------------------

using testing::B;
using testing::C;
using testing::D;
using testing::F;
using testing::I;
using testing::L;
using testing::Null;
using testing::Ref;

v1::Value ShortV(int16_t v) {
  v1::Value x;
  x.set_short_value(v);
  return x;
}
v1::Value ByteV(int8_t v) {
  v1::Value x;
  x.set_byte_value(v);
  return x;
}

constexpr int32_t kIntMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kIntMax = std::numeric_limits<int32_t>::max();
constexpr int64_t kLongMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kLongMax = std::numeric_limits<int64_t>::max();
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// Edge values first, then random ones.
class ValuePool {
 public:
  explicit ValuePool(std::mt19937_64* rng) : rng_(rng) {}

  int32_t Int(int k) {
    static const int32_t edges[] = {0, 1, -1, kIntMin, kIntMax, 2, -2, 31, 32, 33, -7, 7, 65};
    if (k < static_cast<int>(std::size(edges))) return edges[k];
    return Pick() ? static_cast<int32_t>((*rng_)()) : static_cast<int32_t>((*rng_)() % 41) - 20;
  }
  int64_t Long(int k) {
    static const int64_t edges[] = {0, 1, -1, kLongMin, kLongMax, int64_t{1} << 32, -3,
                                    int64_t{kIntMin}, int64_t{kIntMax} + 1, 63, 64};
    if (k < static_cast<int>(std::size(edges))) return edges[k];
    return Pick() ? static_cast<int64_t>((*rng_)()) : static_cast<int64_t>((*rng_)() % 41) - 20;
  }
  double Double(int k) {
    static const double edges[] = {0.0, -0.0, kNaN, 1.0, -1.0, kInf, -kInf, 0.5, -2.5,
                                   std::numeric_limits<double>::max(),
                                   std::numeric_limits<double>::denorm_min(), 1e10, 3e9, -3e19};
    if (k < static_cast<int>(std::size(edges))) return edges[k];
    return static_cast<double>(static_cast<int64_t>((*rng_)() % 2001) - 1000) / 8.0;
  }
  float Float(int k) {
    static const float edges[] = {0.0f, -0.0f, std::numeric_limits<float>::quiet_NaN(), 1.0f,
                                  -1.5f, std::numeric_limits<float>::infinity(),
                                  std::numeric_limits<float>::max(), 16777217.0f, 3e9f};
    if (k < static_cast<int>(std::size(edges))) return edges[k];
    return static_cast<float>(static_cast<int64_t>((*rng_)() % 2001) - 1000) / 4.0f;
  }
  char16_t Char(int k) {
    static const char16_t edges[] = {0, u'a', 0xFFFF, u'Z', 0x8000, u'0'};
    if (k < static_cast<int>(std::size(edges))) return edges[k];
    return static_cast<char16_t>((*rng_)() % 0x10000);
  }
  bool Bool(int k) { return k < 2 ? k == 0 : ((*rng_)() & 1) != 0; }
  int Index(int n) { return static_cast<int>((*rng_)() % static_cast<uint64_t>(n)); }

 private:
  bool Pick() { return ((*rng_)() & 1) != 0; }
  std::mt19937_64* rng_;
};

// One observation of D.f: receiver #1, arrays a #10, la #11, da #12, the
// receiver's arr #13, the object o #14 (or o aliasing the receiver, or
// null), the receiver's next (null, o or the receiver).
v1::Observation MakeState(int k, std::mt19937_64* rng) {
  ValuePool p(rng);
  v1::Observation o;
  o.set_format_version(v1::FORMAT_VERSION_1);
  v1::MethodRef* m = o.mutable_method();
  m->set_class_name("d.D");
  m->set_name("f");
  m->set_jvm_descriptor(kDescriptor);
  for (const char* name : {"x", "y", "d", "g", "c", "s", "b", "z", "a", "la", "da", "o"}) {
    m->add_param_names(name);
  }
  o.set_source(v1::RECORDED);
  o.set_test_id("d.DTest#t");
  // Shapes: which arrays exist and how long, where o and next point.
  int shape = k < 8 ? k : p.Index(8);
  auto array_length = [&](int which) -> int {  // -1: null
    if (shape == 0) return which == 0 ? 0 : -1;
    if (shape == 1) return -1;
    if (shape == 2) return which == 3 ? -1 : 1;
    return p.Index(5) - (p.Index(6) == 0 ? 1 : 0);
  };
  auto add_object = [&](uint64_t id, bool post) -> v1::ObjectState* {
    v1::ObjectState* s = post ? o.add_post() : o.add_pre();
    s->set_id(id);
    return s;
  };
  auto add_field = [](v1::ObjectState* s, const std::string& name, const std::string& type,
                      const v1::Value& value) {
    v1::Field* f = s->add_fields();
    f->set_name(name);
    f->set_jvm_type(type);
    *f->mutable_value() = value;
  };
  // Arrays: the same in both states except for one changed element.
  struct ArraySpec {
    uint64_t id;
    const char* elem;
    int length;
  };
  std::vector<ArraySpec> arrays = {{10, "I", array_length(0)},
                                   {11, "J", array_length(1)},
                                   {12, "D", array_length(2)},
                                   {13, "I", array_length(3)}};
  int vk = k;
  for (const ArraySpec& a : arrays) {
    if (a.length < 0) continue;
    std::vector<v1::Value> before;
    for (int i = 0; i < a.length; ++i) {
      int e = (vk + 3 * i + static_cast<int>(a.id)) % 16;
      before.push_back(a.elem[0] == 'I'   ? I(p.Int(e))
                       : a.elem[0] == 'J' ? L(p.Long(e))
                                          : D(p.Double(e)));
    }
    std::vector<v1::Value> after = before;
    if (!after.empty() && p.Index(2) == 0) {
      int i = p.Index(static_cast<int>(after.size()));
      after[i] = a.elem[0] == 'I'   ? I(p.Int(p.Index(20)))
                 : a.elem[0] == 'J' ? L(p.Long(p.Index(20)))
                                    : D(p.Double(p.Index(20)));
    }
    for (bool post : {false, true}) {
      v1::ObjectState* s = add_object(a.id, post);
      s->set_class_name(absl::StrCat("[", a.elem));
      s->mutable_array()->set_element_descriptor(a.elem);
      s->mutable_array()->set_length(a.length);
      for (const v1::Value& v : post ? after : before) *s->mutable_array()->add_elements() = v;
    }
  }
  auto array_ref = [&](int which) {
    return arrays[which].length < 0 ? Null() : Ref(arrays[which].id);
  };
  // o: an object, the receiver, or null; next: null, o or the receiver.
  int o_shape = k < 3 ? k : p.Index(3);
  v1::Value o_ref = o_shape == 0 ? Ref(14) : o_shape == 1 ? Ref(1) : Null();
  int next_shape = p.Index(3);
  v1::Value next_ref = next_shape == 0 ? Null() : next_shape == 1 ? o_ref : Ref(1);
  if (next_ref.kind_case() == v1::Value::kNullValue && next_shape == 1) next_ref = Null();
  auto d_fields = [&](v1::ObjectState* s, int seed, bool receiver) {
    s->set_class_name("d.D");
    add_field(s, "n", "I", I(p.Int(seed)));
    add_field(s, "m", "J", L(p.Long(seed + 1)));
    add_field(s, "v", "D", D(p.Double(seed + 2)));
    add_field(s, "w", "F", F(p.Float(seed + 3)));
    add_field(s, "ch", "C", C(p.Char(seed)));
    add_field(s, "flag", "Z", B(p.Bool(seed)));
    add_field(s, "arr", "[I", receiver ? array_ref(3) : Null());
    add_field(s, "next", "Ld/D;", receiver ? next_ref : Null());
  };
  d_fields(add_object(1, false), k, true);
  d_fields(add_object(1, true), k + p.Index(3), true);
  if (o_shape == 0) {
    int seed = k + 5;
    d_fields(add_object(14, false), seed, false);
    d_fields(add_object(14, true), seed + p.Index(2), false);
  }
  *o.mutable_receiver() = Ref(1);
  *o.add_args() = I(p.Int(k));
  *o.add_args() = L(p.Long(k));
  *o.add_args() = D(p.Double(k));
  *o.add_args() = F(p.Float(k));
  *o.add_args() = C(p.Char(k));
  *o.add_args() = ShortV(static_cast<int16_t>(p.Int(k)));
  *o.add_args() = ByteV(static_cast<int8_t>(p.Int(k + 1)));
  *o.add_args() = B(p.Bool(k));
  *o.add_args() = array_ref(0);
  *o.add_args() = array_ref(1);
  *o.add_args() = array_ref(2);
  *o.add_args() = o_ref;
  *o.mutable_outcome()->mutable_returned() = I(p.Int(k + 2));
  return o;
}

// ---- Expressions -------------------------------------------------------------

enum class T { kBool, kInt, kLong, kDouble, kFloat };

// Typed random JML expressions. Every expression type-checks against D.f's
// postcondition context.
class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) {}

  std::string Bool(int depth) {
    if (depth <= 0) return BoolLeaf();
    switch (Pick(16)) {
      case 0: case 1: case 2: case 3: {
        static const char* ops[] = {"==", "!=", "<", "<=", ">", ">="};
        T t = NumType();
        return absl::StrCat("(", Num(t, depth - 1), " ", ops[Pick(6)], " ", Num(NumType(), depth - 1),
                            ")");
      }
      case 4: return absl::StrCat("!(", Bool(depth - 1), ")");
      case 5: case 6: {
        static const char* ops[] = {"&&", "||", "==>", "<==>", "<=!=>", "<=="};
        return absl::StrCat("(", Bool(depth - 1), " ", ops[Pick(6)], " ", Bool(depth - 1), ")");
      }
      case 7: return absl::StrCat("(", Bool(depth - 1), " ? ", Bool(depth - 1), " : ",
                                  Bool(depth - 1), ")");
      case 8: case 9: return Quantifier(depth);
      case 10: {
        static const char* calls[] = {"Double.isNaN", "Double.isInfinite", "Double.isFinite"};
        return absl::StrCat(calls[Pick(3)], "(", Num(T::kDouble, depth - 1), ")");
      }
      case 11: return absl::StrCat("Float.isNaN(", Num(T::kFloat, depth - 1), ")");
      case 12: return Old(T::kBool, depth);
      case 13: {
        static const char* const refs[] = {"a == null", "o == null", "next == null",
                                           "o == this", "next == o", "arr == a",
                                           "o.next == null", "(\\old(next) == next)",
                                           "(a != null && a.length > 1)",
                                           "\\nonnullelements(a)"};
        return Leaf(refs);
      }
      case 14: return absl::StrCat("((", Num(T::kInt, depth - 1), " & 1) == 0)");
      default: return BoolLeaf();
    }
  }

  std::string Num(T t, int depth) {
    switch (t) {
      case T::kInt: return Int(depth);
      case T::kLong: return Long(depth);
      case T::kDouble: return Double(depth);
      case T::kFloat: return Float(depth);
      case T::kBool: return Bool(depth);
    }
    return "0";
  }

 private:
  size_t Pick(size_t n) { return static_cast<size_t>(rng_() % n); }

  // One of `leaves`, except those with \old or \result inside \old.
  template <size_t N>
  std::string Leaf(const char* const (&leaves)[N]) {
    for (;;) {
      std::string l = leaves[Pick(N)];
      if (!in_old_ || (!absl::StrContains(l, "\\old") && !absl::StrContains(l, "\\result"))) {
        return l;
      }
    }
  }

  std::string Old(T t, int depth) {
    if (in_old_) return Num(t, depth - 1);
    in_old_ = true;
    std::string inner = Num(t, depth - 1);
    in_old_ = false;
    return absl::StrCat("\\old(", inner, ")");
  }
  T NumType() {
    static const T types[] = {T::kInt, T::kInt, T::kInt, T::kLong, T::kLong, T::kDouble, T::kFloat};
    return types[Pick(std::size(types))];
  }

  std::string BoolLeaf() {
    static const char* const leaves[] = {"z", "flag", "true", "false", "\\old(flag)", "o.flag"};
    return Leaf(leaves);
  }

  // An index: a bound variable when one is in scope, else an int.
  std::string Index(int depth) {
    if (!vars_.empty() && Pick(4) != 0) return vars_[Pick(vars_.size())];
    if (Pick(2) == 0) {
      static const char* small[] = {"0", "1", "-1", "2", "3", "x", "c - 97", "s"};
      return small[Pick(std::size(small))];
    }
    return Int(depth - 1);
  }

  std::string IntLeaf() {
    static const char* const leaves[] = {"x", "n", "c", "s", "b", "ch", "o.n", "next.n", "\\old(n)",
                                   "\\result", "0", "1", "-1", "7", "-7", "31", "32", "33",
                                   "Integer.MIN_VALUE", "Integer.MAX_VALUE", "'a'",
                                   "a.length", "\\old(o.n)", "\\old(arr[0])", "a[0]", "arr[1]"};
    if (!vars_.empty() && Pick(3) == 0) return vars_[Pick(vars_.size())];
    return Leaf(leaves);
  }

  std::string Int(int depth) {
    if (depth <= 0) return IntLeaf();
    switch (Pick(22)) {
      case 0: case 1: case 2: case 3: {
        static const char* ops[] = {"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", ">>>"};
        return absl::StrCat("(", Int(depth - 1), " ", ops[Pick(std::size(ops))], " ",
                            Int(depth - 1), ")");
      }
      case 4: return absl::StrCat("(", Int(depth - 1), " ", Pick(2) ? "<<" : ">>>", " ",
                                  Long(depth - 1), ")");
      case 5: return absl::StrCat(Pick(2) ? "-(" : "~(", Int(depth - 1), ")");
      case 6: {
        static const char* casts[] = {"(int) ", "(char) ", "(short) ", "(byte) "};
        static const T from[] = {T::kLong, T::kDouble, T::kFloat, T::kInt};
        return absl::StrCat(casts[Pick(4)], "(", Num(from[Pick(4)], depth - 1), ")");
      }
      case 7: return absl::StrCat("a[", Index(depth), "]");
      case 8: return in_old_ ? absl::StrCat("arr[", Index(depth), "]")
                             : absl::StrCat("\\old(arr[", Index(depth), "])");
      case 9: {
        static const char* calls[] = {"Math.abs", "Math.negateExact", "Integer.signum",
                                      "Integer.bitCount", "Math.incrementExact",
                                      "Math.decrementExact"};
        return absl::StrCat(calls[Pick(std::size(calls))], "(", Int(depth - 1), ")");
      }
      case 10: {
        static const char* calls[] = {"Math.min", "Math.max", "Math.addExact",
                                      "Math.subtractExact", "Math.multiplyExact",
                                      "Math.floorDiv", "Math.floorMod", "Integer.compare",
                                      "Integer.sum", "Integer.max", "Integer.min"};
        return absl::StrCat(calls[Pick(std::size(calls))], "(", Int(depth - 1), ", ",
                            Int(depth - 1), ")");
      }
      case 11: {
        static const char* calls[] = {"Long.compare", "Long.signum", "Math.toIntExact",
                                      "Long.bitCount"};
        size_t k = Pick(std::size(calls));
        if (k == 0) return absl::StrCat("Long.compare(", Long(depth - 1), ", ", Long(depth - 1), ")");
        return absl::StrCat(calls[k], "(", Long(depth - 1), ")");
      }
      case 12: {
        bool f = Pick(2) == 0;
        return absl::StrCat(f ? "Float.compare(" : "Double.compare(", Num(f ? T::kFloat : T::kDouble, depth - 1),
                            ", ", Num(f ? T::kFloat : T::kDouble, depth - 1), ")");
      }
      case 13: return absl::StrCat("(", Bool(depth - 1), " ? ", Int(depth - 1), " : ",
                                   Int(depth - 1), ")");
      case 14: case 15: return IntQuantifier(depth);
      case 16: return Old(T::kInt, depth);
      case 17: return absl::StrCat("(int) ", Long(depth - 1));
      default: return IntLeaf();
    }
  }

  std::string Long(int depth) {
    static const char* const leaves[] = {"y", "m", "o.m", "\\old(m)", "0L", "1L", "-1L",
                                   "Long.MIN_VALUE", "Long.MAX_VALUE", "4294967296L", "la[0]",
                                   "la.length", "x"};
    if (depth <= 0) return Leaf(leaves);
    switch (Pick(12)) {
      case 0: case 1: case 2: {
        static const char* ops[] = {"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", ">>>"};
        return absl::StrCat("(", Long(depth - 1), " ", ops[Pick(std::size(ops))], " ",
                            Pick(3) == 0 ? Int(depth - 1) : Long(depth - 1), ")");
      }
      case 3: return absl::StrCat("-(", Long(depth - 1), ")");
      case 4: return absl::StrCat("(long) ", Num(Pick(2) ? T::kDouble : T::kFloat, depth - 1));
      case 5: return absl::StrCat("la[", Index(depth), "]");
      case 6: {
        static const char* calls[] = {"Math.abs", "Math.negateExact"};
        return absl::StrCat(calls[Pick(2)], "(", Long(depth - 1), ")");
      }
      case 7: {
        static const char* calls[] = {"Math.min", "Math.max", "Math.addExact",
                                      "Math.multiplyExact", "Math.floorDiv", "Math.floorMod",
                                      "Long.sum", "Math.subtractExact"};
        return absl::StrCat(calls[Pick(std::size(calls))], "(", Long(depth - 1), ", ",
                            Long(depth - 1), ")");
      }
      case 8: return absl::StrCat("(", Bool(depth - 1), " ? ", Long(depth - 1), " : ",
                                  Int(depth - 1), ")");
      case 9: return absl::StrCat("(long) ", Int(depth - 1), " * ", Int(depth - 1));
      default: return Leaf(leaves);
    }
  }

  std::string Double(int depth) {
    static const char* const leaves[] = {"d", "v", "o.v", "\\old(v)", "0.0", "-0.0", "1.5", "-2.5",
                                   "Double.NaN", "Double.POSITIVE_INFINITY",
                                   "Double.NEGATIVE_INFINITY", "Double.MAX_VALUE",
                                   "Double.MIN_VALUE", "1e300", "da[0]", "g", "x"};
    if (depth <= 0) return Leaf(leaves);
    switch (Pick(10)) {
      case 0: case 1: case 2: {
        static const char* ops[] = {"+", "-", "*", "/", "%"};
        return absl::StrCat("(", Double(depth - 1), " ", ops[Pick(5)], " ",
                            Num(NumType(), depth - 1), ")");
      }
      case 3: return absl::StrCat("-(", Double(depth - 1), ")");
      case 4: return absl::StrCat("(double) ", Num(NumType(), depth - 1));
      case 5: return absl::StrCat("da[", Index(depth), "]");
      case 6: {
        static const char* calls[] = {"Math.abs", "Math.sqrt", "Math.signum"};
        return absl::StrCat(calls[Pick(3)], "(", Double(depth - 1), ")");
      }
      case 7: return absl::StrCat(Pick(2) ? "Math.max(" : "Math.min(", Double(depth - 1), ", ",
                                  Double(depth - 1), ")");
      default: return Leaf(leaves);
    }
  }

  std::string Float(int depth) {
    static const char* const leaves[] = {"g", "w", "\\old(w)", "0.0f", "-0.0f", "Float.NaN", "1.5f",
                                   "Float.MAX_VALUE", "Float.POSITIVE_INFINITY", "c"};
    if (depth <= 0) return Leaf(leaves);
    switch (Pick(7)) {
      case 0: case 1: {
        static const char* ops[] = {"+", "-", "*", "/", "%"};
        return absl::StrCat("(", Float(depth - 1), " ", ops[Pick(5)], " ",
                            Pick(2) ? Float(depth - 1) : Int(depth - 1), ")");
      }
      case 2: return absl::StrCat("(float) ", Num(NumType(), depth - 1));
      case 3: return absl::StrCat(Pick(2) ? "Math.max(" : "Math.min(", Float(depth - 1),
                                  Pick(2) ? ", 0.0f)" : ", -0.0f)");
      case 4: return absl::StrCat("-(", Float(depth - 1), ")");
      case 5: return absl::StrCat("Math.abs(", Float(depth - 1), ")");
      default: return Leaf(leaves);
    }
  }

  // A range over a fresh variable: constants, an array's indices, or ints.
  std::string Range(const std::string& var, int depth) {
    switch (Pick(5)) {
      case 0: return absl::StrCat("0 <= ", var, " && ", var, " < a.length");
      case 1: return absl::StrCat("0 <= ", var, " && ", var, " < la.length");
      case 2: return absl::StrCat("-2 <= ", var, " && ", var, " <= 3");
      case 3: {
        std::string outer = vars_.empty() ? "4" : vars_.back();
        return absl::StrCat("0 <= ", var, " && ", var, " < ", outer);
      }
      default: return absl::StrCat(var, " >= 0 && ", var, " < 3 + ", Pick(2) ? "1" : "0");
    }
    (void)depth;
  }

  std::string Quantifier(int depth) {
    std::string var = absl::StrCat("i", vars_.size());
    std::string range = Range(var, depth);
    vars_.push_back(var);
    std::string body = Bool(depth - 1);
    vars_.pop_back();
    const char* q = Pick(2) ? "\\forall" : "\\exists";
    if (Pick(3) == 0) {
      // The range as the body's antecedent/conjunct; unparenthesized nesting.
      bool forall = absl::string_view(q) == "\\forall";
      return absl::StrCat("(", q, " int ", var, "; ", range, forall ? " ==> " : " && ", body, ")");
    }
    return absl::StrCat("(", q, " int ", var, "; ", range, "; ", body, ")");
  }

  std::string IntQuantifier(int depth) {
    std::string var = absl::StrCat("i", vars_.size());
    std::string range = Range(var, depth);
    vars_.push_back(var);
    std::string body;
    const char* q;
    switch (Pick(4)) {
      case 0: q = "\\sum"; body = Int(depth - 1); break;
      case 1: q = "\\num_of"; body = Bool(depth - 1); break;
      case 2: q = "\\max"; body = Int(depth - 1); break;
      default: q = "\\product"; body = Int(depth - 1); break;
    }
    vars_.pop_back();
    std::string out = absl::StrCat("(", q, " int ", var, "; ", range, "; ", body, ")");
    // \num_of is a long.
    return absl::string_view(q) == "\\num_of" ? absl::StrCat("((int) ", out, ")") : out;
  }

  std::mt19937_64 rng_;
  std::vector<std::string> vars_;
  bool in_old_ = false;
};

// Edge expressions, compared on every state before the generated ones.
const char* const kEdgeExpressions[] = {
    "Integer.MIN_VALUE / -1 == Integer.MIN_VALUE",
    "Integer.MIN_VALUE % -1 == 0",
    "Long.MIN_VALUE / -1L == Long.MIN_VALUE && Long.MIN_VALUE % -1L == 0L",
    "Math.floorDiv(Integer.MIN_VALUE, -1) == Integer.MIN_VALUE",
    "Math.floorMod(Integer.MIN_VALUE, -1) == 0",
    "Math.floorDiv(Long.MIN_VALUE, -1L) == Long.MIN_VALUE",
    "Math.floorMod(Long.MIN_VALUE, -1L) == 0L",
    "Math.floorDiv(y, m) <= y / m",
    "Math.floorMod(x, n) == x - Math.floorDiv(x, n) * n",
    "Math.floorMod(y, x) == y - Math.floorDiv(y, x) * x",
    "x / n * n + x % n == x",
    "y % x == y - y / x * x",
    "(x < 0 ? -x : x) == Math.abs(x)",
    "Math.abs(x) >= 0",
    "-x == ~x + 1",
    "Math.negateExact(x) == -x",
    "Math.multiplyExact(x, n) == x * n",
    "Math.addExact(y, m) == y + m",
    "Math.toIntExact(y) == (int) y",
    "Math.absExact(x) == Math.abs(x)",
    "1 << x == (1 << (x & 31))",
    "1L << x == 1L << (x & 63)",
    "y >>> x == y >>> (x & 63)",
    "x >> y == x >> (int) y",
    "-1 >>> 32 == -1 && 1 << 32 == 1 && 1L << 64 == 1L",
    "(int) d == (int) (long) d || Double.isNaN(d) || d > 2147483647.0 || d < -2147483648.0",
    "(int) Double.NaN == 0 && (long) Float.NaN == 0L",
    "(int) 1e10 == Integer.MAX_VALUE && (int) -1e10 == Integer.MIN_VALUE",
    "(long) 1e19 == Long.MAX_VALUE && (long) -1e19 == Long.MIN_VALUE",
    "(char) -1.5 == 65535 && (short) 1e10 == -1 && (byte) 300.7 == 44",
    "(char) d == (char) (int) d",
    "(byte) x == (byte) (x & 255)",
    "(short) y == (short) (int) y",
    "(float) y == (float) (double) y || y > 9007199254740992L || y < -9007199254740992L",
    "(double) g == g",
    "(float) d == d",
    "(float) 16777217 == 16777216.0f",
    "Float.MAX_VALUE * 2 == Float.POSITIVE_INFINITY",
    "Double.MIN_VALUE / 2 == 0.0",
    "d == d",
    "d != d",
    "!(d < v) && !(d >= v)",
    "d == -d",
    "1.0 / d > 0",
    "Double.compare(d, -d) == 0",
    "Double.compare(d, v) == -Double.compare(v, d)",
    "Float.compare(g, w) == 0",
    "d % v == d - (long) (d / v) * v",
    "5.5 % -2 == 1.5 && -5.5 % 2 == -1.5",
    "d % 1.0 == 0.0",
    "g % 2.0f == 0.0f",
    "Math.min(-0.0, 0.0) == 0.0 && 1 / Math.min(-0.0, 0.0) < 0",
    "1 / Math.max(-0.0, 0.0) > 0",
    "Double.isNaN(Math.max(d, v))",
    "Math.max(g, w) >= g",
    "Math.min(d, v) <= v",
    "Math.abs(d) == d",
    "1 / Math.abs(d) > 0",
    "Math.signum(d) == d",
    "Double.isNaN(Math.sqrt(d))",
    "Math.sqrt(d) * Math.sqrt(d) == d",
    "c + 1 > c",
    "(char) (c + 1) > c",
    "c == 'a' || c == 65535",
    "s + b == b + s",
    "(short) (s * 2) == s * 2",
    "x * 2 / 2 == x",
    "x + 1 > x",
    "y - 1 < y",
    "x == y",
    "x == d",
    "y == d",
    "g == x",
    "(long) x * n == (long) (x * n)",
    "Integer.compare(x, n) == Long.compare(x, n)",
    "Integer.signum(x) == Long.signum(y)",
    "Integer.bitCount(x) + Integer.bitCount(~x) == 32",
    "Long.bitCount(y) <= 64",
    "a[x] == x",
    "a[a.length - 1] >= 0",
    "la[0] == y",
    "da[0] == da[0]",
    "arr[0] == \\old(arr[0])",
    "\\old(n) == n",
    "\\old(v) == v || Double.isNaN(v)",
    "o.n == n",
    "next.next == null",
    "next.n == \\old(next.n)",
    "\\old(o.m) == o.m",
    "\\result == x",
    "\\result / x > 0",
    "(\\forall int i; 0 <= i && i < a.length; a[i] >= 0)",
    "(\\forall int i; 0 <= i && i < a.length - 1; a[i] <= a[i + 1])",
    "(\\forall int i; 0 <= i && i + 1 < a.length; a[i] <= a[i + 1])",
    "(\\exists int i; 0 <= i && i < la.length; la[i] == y)",
    "(\\forall int i; 0 <= i && i < da.length; !Double.isNaN(da[i]))",
    "(\\forall int i; 0 <= i && i < a.length; (\\forall int j; i < j && j < a.length; a[i] != a[j]))",
    "(\\forall int i; 0 <= i && i < a.length; \\forall int j; i < j && j < a.length; a[i] <= a[j])",
    "(\\sum int i; 0 <= i && i < a.length; a[i]) == x",
    "(\\sum int i; 0 <= i && i < la.length; la[i]) >= 0L",
    "(\\product int i; 0 <= i && i < a.length; a[i]) != 0",
    "(\\num_of int i; 0 <= i && i < a.length; a[i] < 0) == 0",
    "(\\max int i; 0 <= i && i < a.length; a[i]) >= x",
    "(\\min int i; 0 <= i && i < la.length; la[i]) <= y",
    "(\\sum int i; -3 <= i && i <= 3; i * x) == 0",
    "(\\forall int i; 0 <= i && i < 3; a[i] == arr[i])",
    "(\\exists int i; 0 <= i && i < 3 && a[i] > 0)",
    "(\\forall int i; 0 <= i && i < a.length ==> a[i] != Integer.MIN_VALUE)",
    "(\\forall int i; 0 <= i && i < a.length; \\old(a[i]) == a[i])",
    "(\\forall int i; 0 <= i && i < arr.length; arr[i] == \\old(arr[i]))",
    "(\\forall short k; 0 <= k && k < 2; k + s != 0)",
    "(\\forall char k; 'a' <= k && k <= 'c'; k != c)",
    "(\\forall long k; 0 <= k && k < 3; k != y)",
    "(\\forall boolean q; q || !q)",
    "\\nonnullelements(a) && \\nonnullelements(la)",
    "a == null || a.length >= 0",
    "a != null && a.length > 0 && a[0] > 0",
    "a.length > 0 ==> a[0] > 0",
    "a[0] > 0 || true",
    "false && a[0] > 0",
    "true ==> o.n > 0",
    "o.n > 0 ==> true",
    "o.n > 0 <== false",
    "(o == null ? 0 : o.n) >= 0",
    "o != null ? o.n > 0 : x > 0",
    "o == this ==> o.n == n",
    "next == o || next == this || next == null",
    "z <==> flag",
    "z <=!=> !flag",
    "z == flag",
    "(z ? 1 : 0) + (flag ? 1 : 0) == 1",
    "(z & flag) == (z && flag)",
    "(z ^ flag) == (z != flag)",
    "((x & 1) == 1) == (x % 2 != 0)",
    "Integer.sum(x, n) == x + n && Integer.max(x, n) >= Integer.min(x, n)",
    "Long.sum(y, m) == y + m",
    "Math.incrementExact(x) > x",
    "Math.decrementExact(y) < y",
    "Math.subtractExact(x, n) == x - n",
    "Math.multiplyExact(y, m) == y * m",
};

// ---- The comparison ------------------------------------------------------------

// Reasons of the concrete evaluator's unknown values that mean "undefined"
// (jml/observation_eval.cpp's Undefined(...)).
bool IsUndefinedReason(const std::string& why) {
  static const char* prefixes[] = {"division by zero", "remainder by zero", "element of null",
                                   "length of null", "index ", "field '", "call of ",
                                   "Math.", "unboxing null", "\\typeof(null)",
                                   "charAt index", "substring bounds", "\\max over",
                                   "\\min over", "negative array size"};
  for (const char* p : prefixes) {
    if (absl::StartsWith(why, p)) return !absl::StrContains(why, "is not evaluated");
  }
  return false;
}

struct Tally {
  int expressions = 0;
  int pairs = 0;
  int both_defined = 0;
  int both_undefined = 0;
  int kleene_decided = 0;
  int not_evaluated = 0;   // concrete: a construct it does not evaluate
  int not_lowered = 0;     // lowering: unsupported / out of range
  int solver_unknown = 0;
  int confirmed = 0;  // the lowering's value proved the only one on the pinned state
  std::map<std::string, int> skipped_why;
  std::vector<std::string> disagreements;
};

// One state for the lowering: the method's symbolic entry, a post heap and
// \result, all pinned to an observation's values.
struct PinnedState {
  z3::context ctx;
  std::unique_ptr<symex::Machine> machine;
  std::optional<symex::EntryState> entry;
  std::optional<symex::Heap> post;
  LowerStates states;
  z3::expr pinned{ctx};
  std::optional<z3::model> model;  // of `pinned`
  // machine->axioms() when `model` was found: a lowering that adds axioms
  // (an array creation's length and default elements) is not read from it.
  size_t model_axioms = 0;
};

class JmlDifferentialTest : public ::testing::Test {
 protected:
  // Pins a fresh symbolic entry (and post-state and \result) to `o`.
  std::unique_ptr<PinnedState> Pin(const v1::Observation& o) {
    auto ps = std::make_unique<PinnedState>();
    symex::ExecOptions eo;
    eo.max_array = 8;
    ps->machine = std::make_unique<symex::Machine>(ps->ctx, *program_, eo);
    symex::Machine& machine = *ps->machine;
    auto entry = machine.CreateEntry(*method_);
    EXPECT_TRUE(entry.ok()) << entry.status();
    if (!entry.ok()) return nullptr;
    ps->entry = *std::move(entry);
    ObservationPin pin(machine);
    PinnedIds ids;
    z3::expr pinned = pin.Entry(*ps->entry, *method_, o, &ids);
    ps->post = pin.FreshHeap(ps->entry->heap, "diff!post");
    std::map<uint64_t, const v1::ObjectState*> post_objects;
    for (const v1::ObjectState& s : o.post()) post_objects[s.id()] = &s;
    for (const auto& [id, ref] : ids) {
      auto it = post_objects.find(id);
      if (it != post_objects.end()) pinned = pinned && pin.Object(*ps->post, ref, *it->second, &ids);
    }
    symex::Value result = machine.Fresh("I", "diff!result");
    pinned = pinned && pin.Value(*ps->post, result.e, o.outcome().returned(), "I", &ids);
    ps->pinned = pinned && pin.Distinct(ids);
    ps->states.pre = &ps->entry->heap;
    ps->states.post = &*ps->post;
    ps->states.receiver = ps->entry->receiver;
    ps->states.args = ps->entry->args;
    ps->states.result = result;
    symex::SolveResult r =
        symex::Solve(ps->ctx, machine.axioms(), ps->pinned,
                     std::chrono::steady_clock::now() + std::chrono::seconds(30), true);
    EXPECT_EQ(r.result, z3::sat) << "the pinned state is not satisfiable: " << o.ShortDebugString();
    if (!r.model) return nullptr;
    ps->model = *r.model;
    ps->model_axioms = ps->machine->axioms().size();
    return ps;
  }

  void SetUp() override {
    classes_ = testing::CompileJava(dir_, {{"d/D.java", kSource}}, {"-g"});
    ASSERT_FALSE(classes_.empty());
    auto cp = classfile::ClassPath::Create(classes_);
    ASSERT_TRUE(cp.ok()) << cp.status();
    auto program = symex::Program::Load(*std::move(cp));
    ASSERT_TRUE(program.ok()) << program.status();
    program_ = *std::move(program);
    env_ = std::make_unique<ClassFileTypeEnvironment>(&program_->class_path());
    const symex::ClassInfo* cls = program_->FindClass("d/D");
    ASSERT_NE(cls, nullptr);
    for (const symex::MethodInfo* m : program_->FindMethodsByName(cls, "f")) method_ = m;
    ASSERT_NE(method_, nullptr);
    auto selector = jml::MethodSelector::Parse(absl::StrCat("d.D#f", kDescriptor));
    ASSERT_TRUE(selector.ok()) << selector.status();
    jml::LoadOptions load;
    load.classpath = env_.get();
    auto src = jml::ParseMethodSpecSource("requires true;", "spec.jml",
                                          jml::ContractFormat::kSpecText, *selector, load);
    ASSERT_TRUE(src.ok()) << src.status();
    source_ = std::make_unique<jml::MethodSpecSource>(*std::move(src));
    auto ctx = source_->Context();
    ASSERT_TRUE(ctx.ok()) << ctx.status();
    context_ = std::make_unique<jml::MethodContext>(*std::move(ctx));
  }

  // Parses and type-checks `text` as a postcondition; null (with a test
  // failure) when the generator wrote something the front end rejects.
  const jml::Expr* Check(const std::string& text) {
    auto e = jml::ParseExpressionText(text);
    if (!e.ok()) {
      ADD_FAILURE() << text << ": " << e.status();
      return nullptr;
    }
    jml::TypeChecker checker(source_->environment());
    auto type = checker.CheckExpression(**e, *context_, jml::TypeChecker::Position::kPostcondition);
    if (!type.ok()) {
      ADD_FAILURE() << text << ": " << type.status();
      return nullptr;
    }
    exprs_.push_back(*std::move(e));
    return exprs_.back().get();
  }

  // The truth of `e` on `o` both ways, compared by the rule in the header
  // comment; disagreements go to `tally`.
  void Compare(const jml::Expr& e, const std::string& text, const v1::Observation& o,
               int state, Tally* tally) {
    ++tally->pairs;
    jml::EvalOptions options;
    options.env = &source_->environment();
    jml::ObservationEvaluator evaluator(o, *context_, options);
    jml::EvalValue concrete = evaluator.Evaluate(e, jml::EvalState::kPost);
    jml::Truth ct = concrete.truth();
    bool c_undefined = ct == jml::Truth::kUnknown && IsUndefinedReason(concrete.reason);
    if (ct == jml::Truth::kUnknown && !c_undefined) {
      ++tally->not_evaluated;
      ++tally->skipped_why[absl::StrCat("concrete: ", concrete.reason, " ", text)];
      return;
    }
    // The lowering on the pinned state.
    PinnedState& ps = *pinned_[state];
    z3::context& ctx = ps.ctx;
    symex::Machine& machine = *ps.machine;
    const z3::expr& pinned = ps.pinned;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    Lowering lowering(machine, *context_, ps.states, pinned, deadline);
    absl::StatusOr<z3::expr> p = lowering.Predicate(e, /*in_post=*/true);
    if (!p.ok()) {
      ++tally->not_lowered;
      std::string why(p.status().message());
      ++tally->skipped_why[absl::StrCat("lowering: ", why.substr(why.find(' ') + 1, 60))];
      return;
    }
    z3::expr undefined = ctx.bool_val(false);
    for (const Undefined& u : lowering.TakeUndefined()) undefined = undefined || u.condition;
    std::string where = absl::StrCat(text, "\n    on state ", state, ": ", o.ShortDebugString());
    // The values in a model of the pinned state, when they evaluate to
    // constants; confirmed by asking whether another model gives others.
    auto solve = [&](const z3::expr& q) {
      return symex::Solve(ctx, machine.axioms(), pinned && q, deadline, /*want_model=*/false)
          .result;
    };
    z3::check_result t = z3::unknown, u = z3::unknown;
    z3::expr pv = ps.model->eval(*p, /*model_completion=*/true);
    z3::expr uv = ps.model->eval(undefined, /*model_completion=*/true);
    bool from_model = (pv.is_true() || pv.is_false()) && (uv.is_true() || uv.is_false()) &&
                      machine.axioms().size() == ps.model_axioms;
    if (from_model) {
      t = pv.is_true() ? z3::sat : z3::unsat;
      u = uv.is_true() ? z3::sat : z3::unsat;
    } else {
      u = solve(undefined);
      t = solve(*p);
      z3::check_result f = solve(!*p);
      if (u == z3::unknown || t == z3::unknown || f == z3::unknown) {
        ++tally->solver_unknown;
        ++tally->skipped_why[absl::StrCat("solver unknown: ", text)];
        return;
      }
      if (t == z3::sat && f == z3::sat && u == z3::unsat) {
        tally->disagreements.push_back(
            absl::StrCat("the pinned state does not determine the lowering: ", where));
        return;
      }
      ++tally->confirmed;
    }
    bool l_undefined = u == z3::sat;
    jml::Truth lt = l_undefined ? jml::Truth::kUnknown
                                : (t == z3::sat ? jml::Truth::kTrue : jml::Truth::kFalse);
    std::string disagreement;
    int* category = nullptr;
    if (!c_undefined && !l_undefined) {
      category = &tally->both_defined;
      if (ct != lt) {
        disagreement = absl::StrCat("concrete ", jml::TruthName(ct), ", lowering ",
                                    jml::TruthName(lt), ": ", where);
      }
    } else if (c_undefined && l_undefined) {
      category = &tally->both_undefined;
    } else if (c_undefined) {
      disagreement = absl::StrCat("concrete undefined (", concrete.reason, "), lowering ",
                                  jml::TruthName(lt), ": ", where);
    } else if (StrictlyDefined(e, &evaluator)) {
      // Lowering undefined, concrete defined: only where Kleene decided.
      disagreement = absl::StrCat("lowering undefined, concrete ", jml::TruthName(ct),
                                  " (strictly defined): ", where);
    } else {
      category = &tally->kleene_decided;
    }
    // A value read from one model is the lowering's only one when the
    // pinned state determines it: proved for every disagreement and for a
    // sample of the rest.
    if (from_model && (!disagreement.empty() || tally->pairs % 8 == 0)) {
      deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
      switch (solve(*p != pv || undefined != uv)) {
        case z3::sat:
          if (u == z3::sat) break;  // the value of an undefined expression is free
          disagreement =
              absl::StrCat("the pinned state does not determine the lowering: ", where);
          break;
        case z3::unsat: ++tally->confirmed; break;
        default: break;
      }
    }
    if (!disagreement.empty()) {
      tally->disagreements.push_back(disagreement);
    } else if (category != nullptr) {
      ++*category;
    }
  }

  // Java's left-to-right evaluation built from the concrete evaluator: a
  // short-circuit operator evaluates its right operand only when the left
  // one does not decide, every other operator all of its operands; a
  // quantifier or \old (whose operands cannot be evaluated apart) as a whole.
  bool StrictlyDefined(const jml::Expr& e, jml::ObservationEvaluator* ev) {
    using jml::BinaryOp;
    using jml::ExprKind;
    if (e.kind == ExprKind::kOld) return ev->Evaluate(e, jml::EvalState::kPost).known();
    if (e.kind == ExprKind::kQuantifier) {
      // Kleene inside: a \forall false (an \exists true) may have skipped
      // undefined instances, and a body with a connective may have been
      // decided on undefined operands.
      jml::EvalValue v = ev->Evaluate(e, jml::EvalState::kPost);
      if (!v.known() || HasConnective(jml::QuantifierBody(e))) return false;
      if (e.quantifier == jml::QuantifierKind::kForall) return v.truth() == jml::Truth::kTrue;
      if (e.quantifier == jml::QuantifierKind::kExists) return v.truth() == jml::Truth::kFalse;
      return true;
    }
    if (e.kind == ExprKind::kBinary &&
        (e.binary_op == BinaryOp::kAnd || e.binary_op == BinaryOp::kOr ||
         e.binary_op == BinaryOp::kImplies || e.binary_op == BinaryOp::kReverseImplies)) {
      const jml::Expr& first =
          e.binary_op == BinaryOp::kReverseImplies ? *e.operands[1] : *e.operands[0];
      const jml::Expr& second =
          e.binary_op == BinaryOp::kReverseImplies ? *e.operands[0] : *e.operands[1];
      if (!StrictlyDefined(first, ev)) return false;
      jml::Truth l = ev->Evaluate(first, jml::EvalState::kPost).truth();
      bool decided = (e.binary_op == BinaryOp::kOr && l == jml::Truth::kTrue) ||
                     (e.binary_op != BinaryOp::kOr && l == jml::Truth::kFalse);
      return decided || StrictlyDefined(second, ev);
    }
    if (e.kind == ExprKind::kConditional) {
      if (!StrictlyDefined(*e.operands[0], ev)) return false;
      jml::Truth c = ev->Evaluate(*e.operands[0], jml::EvalState::kPost).truth();
      return StrictlyDefined(*e.operands[c == jml::Truth::kTrue ? 1 : 2], ev);
    }
    for (const auto& op : e.operands) {
      if (op && !StrictlyDefined(*op, ev)) return false;
    }
    return ev->Evaluate(e, jml::EvalState::kPost).known();
  }

  static bool HasConnective(const jml::Expr& e) {
    using jml::BinaryOp;
    if (e.kind == jml::ExprKind::kConditional || e.kind == jml::ExprKind::kQuantifier) return true;
    if (e.kind == jml::ExprKind::kBinary &&
        (e.binary_op == BinaryOp::kAnd || e.binary_op == BinaryOp::kOr ||
         e.binary_op == BinaryOp::kImplies || e.binary_op == BinaryOp::kReverseImplies)) {
      return true;
    }
    for (const auto& op : e.operands) {
      if (op && HasConnective(*op)) return true;
    }
    return false;
  }

  // Each of `texts` on 16 generated states (seeded): every pair compared,
  // and agreeing.
  void ExpectAllAgree(const std::vector<std::string>& texts, uint64_t seed) {
    std::mt19937_64 state_rng(seed);
    std::vector<v1::Observation> states;
    for (int k = 0; k < 16; ++k) {
      states.push_back(MakeState(k, &state_rng));
      pinned_.push_back(Pin(states.back()));
      ASSERT_NE(pinned_.back(), nullptr);
    }
    Tally tally;
    for (const std::string& text : texts) {
      const jml::Expr* e = Check(text);
      ASSERT_NE(e, nullptr);
      for (int k = 0; k < static_cast<int>(states.size()); ++k) {
        Compare(*e, text, states[k], k, &tally);
      }
    }
    for (const std::string& d : tally.disagreements) ADD_FAILURE() << d;
    std::string skipped;
    for (const auto& [why, n] : tally.skipped_why) absl::StrAppend(&skipped, "\n  ", n, "x ", why);
    EXPECT_EQ(tally.not_evaluated + tally.not_lowered + tally.solver_unknown, 0)
        << "not all compared:" << skipped;
  }

  testing::TempDir dir_;
  std::string classes_;
  std::unique_ptr<symex::Program> program_;
  std::unique_ptr<ClassFileTypeEnvironment> env_;
  const symex::MethodInfo* method_ = nullptr;
  std::unique_ptr<jml::MethodSpecSource> source_;
  std::unique_ptr<jml::MethodContext> context_;
  std::vector<jml::ExprPtr> exprs_;
  std::vector<std::unique_ptr<PinnedState>> pinned_;
};

TEST_F(JmlDifferentialTest, GeneratedExpressionsAgreeOnGeneratedStates) {
  // TRACESPEC_DIFF_EXPRESSIONS explores further (same seeds, more of them).
  const char* more = std::getenv("TRACESPEC_DIFF_EXPRESSIONS");
  const int kExpressions = more != nullptr ? std::atoi(more) : 120;
  // Each edge expression on this many states (rotating), all with the
  // variable set.
  const int kEdgeStates = more != nullptr ? 48 : 4;
  constexpr int kStatesPerExpression = 3;
  constexpr int kStates = 48;
  std::mt19937_64 state_rng(20261203);
  std::vector<v1::Observation> states;
  for (int k = 0; k < kStates; ++k) {
    states.push_back(MakeState(k, &state_rng));
    pinned_.push_back(Pin(states.back()));
    ASSERT_NE(pinned_.back(), nullptr);
  }
  Generator gen(15);
  Tally tally;
  auto start = std::chrono::steady_clock::now();
  for (const char* text : kEdgeExpressions) {
    const jml::Expr* e = Check(text);
    if (e == nullptr) continue;
    ++tally.expressions;
    for (int j = 0; j < kEdgeStates; ++j) {
      int k = (tally.expressions * kEdgeStates + j) % kStates;
      Compare(*e, text, states[k], k, &tally);
    }
  }
  for (int i = 0; i < kExpressions; ++i) {
    std::string text = gen.Bool(1 + i % 4);
    const jml::Expr* e = Check(text);
    if (e == nullptr) continue;
    ++tally.expressions;
    for (int j = 0; j < kStatesPerExpression; ++j) {
      int k = (i * kStatesPerExpression + j) % kStates;
      Compare(*e, text, states[k], k, &tally);
    }
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string skipped;
  for (const auto& [why, n] : tally.skipped_why) absl::StrAppend(&skipped, "\n  ", n, "x ", why);
  std::cout << "expressions " << tally.expressions << ", pairs " << tally.pairs
            << ", both defined " << tally.both_defined << ", both undefined "
            << tally.both_undefined << ", decided by Kleene only " << tally.kleene_decided
            << ", not evaluated " << tally.not_evaluated << ", not lowered " << tally.not_lowered
            << ", solver unknown " << tally.solver_unknown << ", confirmed by the solver "
            << tally.confirmed << ", disagreements "
            << tally.disagreements.size() << " in " << seconds << " s" << skipped << "\n";
  for (const std::string& d : tally.disagreements) ADD_FAILURE() << d;
  // Most pairs are compared: the generator stays within what both evaluate.
  EXPECT_GT(tally.both_defined + tally.both_undefined, tally.pairs / 2);
}

// The disagreements the test found, on the edge states (null, empty and
// short arrays, o null or aliasing the receiver): each was a bug in one of
// the evaluators.
TEST_F(JmlDifferentialTest, FoundDisagreementsStayFixed) {
  ExpectAllAgree(
      {
          // Lowering: \nonnullelements of an int[] compared elements with the
          // null reference (an element 0 is not null).
          "\\nonnullelements(a)",
          // Concrete: floorDiv/floorMod of MIN_VALUE by -1 trapped (SIGFPE).
          "Math.floorDiv(Long.MIN_VALUE, -1L) == Long.MIN_VALUE",
          "Math.floorMod(Long.MIN_VALUE, -1L) == 0L",
          // Concrete: floorMod(long, int) cut the dividend to int.
          "Math.floorMod(y, x) == y - Math.floorDiv(y, x) * x",
          // Concrete: `i + 1 < a.length` holds for i = Integer.MAX_VALUE (it
          // wraps), where a[i] is undefined; the enumeration skipped it.
          "(\\forall int i; 0 <= i && i + 1 < a.length; a[i] <= a[i + 1])",
          // Concrete: a range whose bound is undefined (a null) is undefined,
          // not "not evaluated".
          "(\\exists int i; 0 <= i && i < a.length; a[i] == x)",
      },
      20261203);
}

// Array creation: a fresh array both ways (its length, default or given
// elements, identity; Arrays.equals against it; a negative size undefined).
// Found: the lowering left a created array's default elements free in a
// heap other than the initial one (here the pinned post-state).
TEST_F(JmlDifferentialTest, ArrayCreationAgrees) {
  ExpectAllAgree(
      {
          "new int[x % 8].length == x % 8",
          "(new int[3])[x] == 0",
          "new int[]{x, 7}[0] == x && new int[]{x, 7}.length == 2",
          "a != new int[0] && new int[0] != new int[0]",
          "java.util.Arrays.equals(a, new int[]{x, 1})",
          "a == null || java.util.Arrays.equals(a, new int[a.length])",
          "java.util.Arrays.equals(new int[]{x}, new int[1])",
          "java.util.Arrays.equals(new boolean[]{z}, new boolean[1])",
          "(\\let int[][] q = new int[2][3]; q[0] != q[1] && q[1][2] == 0 && q[1].length == 3)",
          "new int[2][x % 4].length == 2",
          "new int[][]{{x}, {1, 2}}[1].length == 2 && (new int[3][])[x % 4] == null",
          "java.util.Arrays.equals(a, new int[][]{{x, 1}, {2}}[0])",
      },
      20261207);
}

}  // namespace
}  // namespace tracespec::check

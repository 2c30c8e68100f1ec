// Differential tests of the Java semantics on Z3: for many concrete
// operands, the folded result, the symbolic term evaluated by Z3, and C++'s
// own computation of the Java rule must agree bit for bit.
#include "validator/symex/java_ops.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "gtest/gtest.h"

namespace tracespec::symex {
namespace {

class JavaOpsTest : public ::testing::Test {
 protected:
  JavaOpsTest() : ops_(ctx_) {}

  // Evaluates `f` on symbolic operands bound to the given values.
  template <typename F>
  z3::expr Symbolic(const z3::expr& a, const z3::expr& b, F f) {
    z3::expr x = ctx_.constant("x", a.get_sort());
    z3::expr y = ctx_.constant("y", b.get_sort());
    z3::expr term = f(x, y);
    z3::expr_vector from(ctx_), to(ctx_);
    from.push_back(x);
    from.push_back(y);
    to.push_back(a);
    to.push_back(b);
    return term.substitute(from, to).simplify();
  }
  uint64_t Bits(const z3::expr& e) {
    if (e.is_fpa()) {
      z3::expr nan(ctx_, Z3_mk_fpa_is_nan(ctx_, e));
      if (nan.simplify().is_true()) return e.get_sort().fpa_ebits() == 8 ? 0x7fc00000u
                                                                          : 0x7ff8000000000000ull;
      z3::expr bits(ctx_, Z3_mk_fpa_to_ieee_bv(ctx_, e));
      return *JavaOps::BvValue(bits.simplify());
    }
    return *JavaOps::BvValue(e.simplify());
  }
  static uint64_t FloatBits(float f) {
    if (std::isnan(f)) return 0x7fc00000u;
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  static uint64_t DoubleBits(double d) {
    if (std::isnan(d)) return 0x7ff8000000000000ull;
    uint64_t b;
    std::memcpy(&b, &d, 8);
    return b;
  }

  z3::context ctx_;
  JavaOps ops_;
};

int32_t JavaDiv(int32_t a, int32_t b) { return a == INT32_MIN && b == -1 ? a : a / b; }
int32_t JavaRem(int32_t a, int32_t b) { return b == -1 ? 0 : a % b; }
int32_t JavaShl(int32_t a, int32_t s) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) << (s & 31));
}
int32_t JavaShr(int32_t a, int32_t s) { return a >> (s & 31); }
int32_t JavaUshr(int32_t a, int32_t s) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) >> (s & 31));
}
int32_t JavaD2I(double d) {
  if (std::isnan(d)) return 0;
  if (d >= 2147483647.0) return INT32_MAX;
  if (d <= -2147483648.0) return INT32_MIN;
  return static_cast<int32_t>(d);
}
int64_t JavaF2L(float f) {
  if (std::isnan(f)) return 0;
  if (f >= 9223372036854775807.0f) return INT64_MAX;
  if (f <= -9223372036854775808.0f) return INT64_MIN;
  return static_cast<int64_t>(f);
}

TEST_F(JavaOpsTest, IntArithmeticMatchesJava) {
  std::mt19937 rng(7);
  std::vector<int32_t> values = {0, 1, -1, 2, -2, 31, 32, 33, INT32_MAX, INT32_MIN, 1000, -7};
  for (int i = 0; i < 40; ++i) values.push_back(static_cast<int32_t>(rng()));
  for (int32_t a : values) {
    for (int32_t b : values) {
      z3::expr x = ops_.Int(a), y = ops_.Int(b);
      struct Case {
        const char* name;
        z3::expr (JavaOps::*op)(const z3::expr&, const z3::expr&) const;
        int32_t expected;
      };
      std::vector<Case> cases = {
          {"add", &JavaOps::Add, static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b))},
          {"sub", &JavaOps::Sub, static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b))},
          {"mul", &JavaOps::Mul, static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b))},
          {"shl", &JavaOps::Shl, JavaShl(a, b)},
          {"shr", &JavaOps::Shr, JavaShr(a, b)},
          {"ushr", &JavaOps::Ushr, JavaUshr(a, b)},
          {"and", &JavaOps::BitAnd, a & b},
          {"xor", &JavaOps::BitXor, a ^ b},
      };
      if (b != 0) {
        cases.push_back({"div", &JavaOps::Div, JavaDiv(a, b)});
        cases.push_back({"rem", &JavaOps::Rem, JavaRem(a, b)});
      }
      for (const Case& c : cases) {
        z3::expr folded = (ops_.*c.op)(x, y);
        ASSERT_TRUE(folded.is_numeral()) << c.name;
        EXPECT_EQ(static_cast<int32_t>(Bits(folded)), c.expected) << c.name << " " << a << " " << b;
        z3::expr sym = Symbolic(x, y, [&](auto p, auto q) { return (ops_.*c.op)(p, q); });
        EXPECT_EQ(static_cast<int32_t>(Bits(sym)), c.expected) << c.name << " " << a << " " << b;
      }
      EXPECT_EQ(Bits(ops_.Cmp(x, y)), static_cast<uint32_t>(a < b ? -1 : a == b ? 0 : 1));
      EXPECT_EQ(ops_.Lt(x, y).is_true(), a < b);
    }
  }
}

TEST_F(JavaOpsTest, LongShiftsAndConversions) {
  for (int64_t a : {int64_t{0}, int64_t{-1}, INT64_MIN, INT64_MAX, int64_t{0x123456789ABCDEF}}) {
    for (int32_t s : {0, 1, 63, 64, 65, -1, 100}) {
      z3::expr x = ops_.Long(a), c = ops_.Int(s);
      uint64_t ua = static_cast<uint64_t>(a);
      EXPECT_EQ(Bits(Symbolic(x, c, [&](auto p, auto q) { return ops_.Shl(p, q); })),
                ua << (s & 63));
      EXPECT_EQ(Bits(Symbolic(x, c, [&](auto p, auto q) { return ops_.Ushr(p, q); })),
                ua >> (s & 63));
      EXPECT_EQ(static_cast<int64_t>(Bits(Symbolic(x, c, [&](auto p, auto q) {
                  return ops_.Shr(p, q);
                }))),
                a >> (s & 63));
    }
    EXPECT_EQ(static_cast<int32_t>(Bits(ops_.L2I(ops_.Long(a)))), static_cast<int32_t>(a));
  }
  for (int32_t v : {0, 127, 128, 255, 256, -129, 65535, 65536, -1, INT32_MIN}) {
    EXPECT_EQ(static_cast<int32_t>(Bits(ops_.I2B(ops_.Int(v)))), static_cast<int8_t>(v));
    EXPECT_EQ(static_cast<int32_t>(Bits(ops_.I2C(ops_.Int(v)))), static_cast<uint16_t>(v));
    EXPECT_EQ(static_cast<int32_t>(Bits(ops_.I2S(ops_.Int(v)))), static_cast<int16_t>(v));
    z3::expr sym = ctx_.bv_const("v", 32);
    z3::expr_vector from(ctx_), to(ctx_);
    from.push_back(sym);
    to.push_back(ops_.Int(v));
    EXPECT_EQ(static_cast<int32_t>(Bits(ops_.I2B(sym).substitute(from, to))), static_cast<int8_t>(v));
    EXPECT_EQ(static_cast<int64_t>(Bits(ops_.I2L(ops_.Int(v)))), static_cast<int64_t>(v));
  }
}

TEST_F(JavaOpsTest, FloatingPointMatchesIeee) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> fs = {0.0f, -0.0f, 1.0f, -1.5f, 3.0f, 0.1f, 1e30f, -1e-30f,
                           inf,  -inf,  nan,  5.5f, 2.0f, 16777217.0f, 2147483648.0f,
                           -2147483904.0f, 1.17549435e-38f, 7.25f};
  for (float a : fs) {
    for (float b : fs) {
      z3::expr x = ops_.Float(a), y = ops_.Float(b);
      auto check = [&](const char* name, auto op, float expected) {
        EXPECT_EQ(Bits(Symbolic(x, y, op)), FloatBits(expected)) << name << " " << a << " " << b;
        EXPECT_EQ(Bits(op(x, y)), FloatBits(expected)) << name << " folded " << a << " " << b;
      };
      check("add", [&](auto p, auto q) { return ops_.FAdd(p, q); }, a + b);
      check("sub", [&](auto p, auto q) { return ops_.FSub(p, q); }, a - b);
      check("mul", [&](auto p, auto q) { return ops_.FMul(p, q); }, a * b);
      check("div", [&](auto p, auto q) { return ops_.FDiv(p, q); }, a / b);
      check("rem", [&](auto p, auto q) { return ops_.FRem(p, q); }, std::fmod(a, b));
      int32_t l = std::isnan(a) || std::isnan(b) ? -1 : a < b ? -1 : a == b ? 0 : 1;
      int32_t g = std::isnan(a) || std::isnan(b) ? 1 : l;
      EXPECT_EQ(static_cast<int32_t>(Bits(ops_.FCmp(x, y, -1).simplify())), l) << a << " " << b;
      EXPECT_EQ(static_cast<int32_t>(Bits(ops_.FCmp(x, y, 1).simplify())), g) << a << " " << b;
    }
    EXPECT_EQ(static_cast<int32_t>(Bits(ops_.FpToInt(ops_.F2D(ops_.Float(a)), 32).simplify())),
              JavaD2I(static_cast<double>(a)))
        << a;
    EXPECT_EQ(static_cast<int64_t>(Bits(ops_.FpToInt(ops_.Float(a), 64).simplify())), JavaF2L(a))
        << a;
    EXPECT_EQ(Bits(ops_.F2D(ops_.Float(a))), DoubleBits(static_cast<double>(a)));
  }
  for (double d : {0.1, -2.5, 1e300, 3.4028235677973366e38, 1e-320, -0.0}) {
    EXPECT_EQ(Bits(ops_.D2F(ops_.Double(d))), FloatBits(static_cast<float>(d))) << d;
    EXPECT_EQ(static_cast<int32_t>(Bits(ops_.FpToInt(ops_.Double(d), 32).simplify())), JavaD2I(d));
  }
  for (int64_t v : {int64_t{16777217}, int64_t{-3}, INT64_MAX, INT64_MIN, int64_t{(1LL << 53) + 1}}) {
    EXPECT_EQ(Bits(ops_.L2F(ops_.Long(v))), FloatBits(static_cast<float>(v))) << v;
    EXPECT_EQ(Bits(ops_.L2D(ops_.Long(v))), DoubleBits(static_cast<double>(v))) << v;
  }
  EXPECT_EQ(Bits(ops_.I2F(ops_.Int(16777217))), FloatBits(16777216.0f));
}

TEST_F(JavaOpsTest, BooleanFolding) {
  z3::expr p = ctx_.bool_const("p");
  EXPECT_TRUE(JavaOps::Same(ops_.And(p, ops_.True()), p));
  EXPECT_TRUE(ops_.And(p, ops_.False()).is_false());
  EXPECT_TRUE(JavaOps::Same(ops_.And(ops_.And(p, ctx_.bool_const("q")), p),
                            ops_.And(p, ctx_.bool_const("q"))));
  EXPECT_TRUE(ops_.Or(p, ops_.True()).is_true());
  EXPECT_TRUE(JavaOps::Same(ops_.Not(ops_.Not(p)), p));
  EXPECT_TRUE(JavaOps::Same(ops_.Ite(p, ops_.Int(1), ops_.Int(1)), ops_.Int(1)));
}

}  // namespace
}  // namespace tracespec::symex

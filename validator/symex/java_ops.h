// Java's primitive semantics as Z3 terms (JLS §4.2, §15; JVM spec §6.5):
// 32/64-bit two's-complement arithmetic, masked shifts, truncating division,
// IEEE-754 float/double with round-to-nearest-even, Java's comparisons and
// conversions (saturating float→int with NaN→0, written out because Z3's
// fp.to_sbv leaves those cases unspecified). Every builder folds constant
// operands, so loops with concrete counters stay concrete during execution.
// Internal to validator/ (exposes Z3 types).
#ifndef TRACESPEC_VALIDATOR_SYMEX_JAVA_OPS_H_
#define TRACESPEC_VALIDATOR_SYMEX_JAVA_OPS_H_

#include <cstdint>
#include <optional>

#include "z3++.h"

namespace tracespec::symex {

// How a value is held on the operand stack and in locals. boolean, byte,
// char and short are kInt, as in the JVM.
enum class Kind : uint8_t { kNone, kInt, kLong, kFloat, kDouble, kRef };

// Kind of a field or method descriptor ("V" gives kNone).
Kind KindOfDescriptor(char first);
const char* KindName(Kind kind);

struct Value {
  Kind kind;
  z3::expr e;
  bool wide() const { return kind == Kind::kLong || kind == Kind::kDouble; }
};

// Widths of the encodings.
inline constexpr unsigned kRefBits = 32;
inline constexpr unsigned kTypeBits = 16;

class JavaOps {
 public:
  explicit JavaOps(z3::context& ctx);
  z3::context& ctx() const { return ctx_; }

  z3::sort IntSort() const { return ctx_.bv_sort(32); }
  z3::sort LongSort() const { return ctx_.bv_sort(64); }
  z3::sort FloatSort() const { return ctx_.fpa_sort(8, 24); }
  z3::sort DoubleSort() const { return ctx_.fpa_sort(11, 53); }
  z3::sort RefSort() const { return ctx_.bv_sort(kRefBits); }
  z3::sort TypeSort() const { return ctx_.bv_sort(kTypeBits); }
  z3::sort SortOf(Kind kind) const;

  z3::expr True() const { return ctx_.bool_val(true); }
  z3::expr False() const { return ctx_.bool_val(false); }
  z3::expr Int(int32_t v) const;
  z3::expr Long(int64_t v) const;
  z3::expr Float(float v) const;
  z3::expr Double(double v) const;
  z3::expr FloatBits(uint32_t bits) const;
  z3::expr DoubleBits(uint64_t bits) const;
  z3::expr Ref(uint32_t v) const;
  z3::expr TypeId(int id) const;
  z3::expr Null() const { return Ref(0); }
  // The default value of a kind (0, 0L, +0.0f, +0.0, null).
  z3::expr Default(Kind kind) const;

  // Constant inspection.
  static bool IsTrue(const z3::expr& e);
  static bool IsFalse(const z3::expr& e);
  // Value of a bit-vector numeral (zero-extended).
  static std::optional<uint64_t> BvValue(const z3::expr& e);
  static bool Same(const z3::expr& a, const z3::expr& b);

  // Boolean connectives that fold constants.
  z3::expr And(const z3::expr& a, const z3::expr& b) const;
  z3::expr Or(const z3::expr& a, const z3::expr& b) const;
  z3::expr Not(const z3::expr& a) const;
  z3::expr Implies(const z3::expr& a, const z3::expr& b) const;
  z3::expr Ite(const z3::expr& c, const z3::expr& a, const z3::expr& b) const;
  // Structural equality (bit-vectors, references, type ids, booleans).
  z3::expr Eq(const z3::expr& a, const z3::expr& b) const;

  // Integer (int or long by operand width).
  z3::expr Add(const z3::expr& a, const z3::expr& b) const;
  z3::expr Sub(const z3::expr& a, const z3::expr& b) const;
  z3::expr Mul(const z3::expr& a, const z3::expr& b) const;
  // Truncating division and remainder; the caller handles a zero divisor.
  z3::expr Div(const z3::expr& a, const z3::expr& b) const;
  z3::expr Rem(const z3::expr& a, const z3::expr& b) const;
  z3::expr Neg(const z3::expr& a) const;
  z3::expr BitAnd(const z3::expr& a, const z3::expr& b) const;
  z3::expr BitOr(const z3::expr& a, const z3::expr& b) const;
  z3::expr BitXor(const z3::expr& a, const z3::expr& b) const;
  // Shifts: `a` is int or long, `count` is an int masked to 5 or 6 bits.
  z3::expr Shl(const z3::expr& a, const z3::expr& count) const;
  z3::expr Shr(const z3::expr& a, const z3::expr& count) const;
  z3::expr Ushr(const z3::expr& a, const z3::expr& count) const;
  // Signed comparisons and equality of integers.
  z3::expr Lt(const z3::expr& a, const z3::expr& b) const;
  z3::expr Le(const z3::expr& a, const z3::expr& b) const;
  z3::expr IntEq(const z3::expr& a, const z3::expr& b) const;
  // Unsigned less-than (reference ranges).
  z3::expr Ult(const z3::expr& a, const z3::expr& b) const;
  // lcmp: -1, 0 or 1.
  z3::expr Cmp(const z3::expr& a, const z3::expr& b) const;

  // Conversions between integer widths (JLS §5.1.2, §5.1.3).
  z3::expr I2L(const z3::expr& a) const;
  z3::expr L2I(const z3::expr& a) const;
  z3::expr I2B(const z3::expr& a) const;
  z3::expr I2C(const z3::expr& a) const;
  z3::expr I2S(const z3::expr& a) const;
  // Narrow an int to the width of a field or array element of `first`
  // ('Z', 'B', 'C', 'S' or 'I'/'J'/'F'/'D'/'L' unchanged) and widen back.
  z3::expr StoreAs(char first, const z3::expr& v) const;
  z3::expr LoadAs(char first, const z3::expr& stored) const;
  z3::sort StoredSort(char first) const;

  // Floating point (float or double by operand sort).
  z3::expr FAdd(const z3::expr& a, const z3::expr& b) const;
  z3::expr FSub(const z3::expr& a, const z3::expr& b) const;
  z3::expr FMul(const z3::expr& a, const z3::expr& b) const;
  z3::expr FDiv(const z3::expr& a, const z3::expr& b) const;
  // Java's % (fmod: truncated quotient, result has the dividend's sign).
  z3::expr FRem(const z3::expr& a, const z3::expr& b) const;
  z3::expr FNeg(const z3::expr& a) const;
  // fcmpl/dcmpl (nan_result -1) and fcmpg/dcmpg (nan_result 1).
  z3::expr FCmp(const z3::expr& a, const z3::expr& b, int nan_result) const;
  z3::expr FEq(const z3::expr& a, const z3::expr& b) const;  // IEEE ==
  z3::expr FLt(const z3::expr& a, const z3::expr& b) const;
  z3::expr FLe(const z3::expr& a, const z3::expr& b) const;
  z3::expr IsNaN(const z3::expr& a) const;
  z3::expr IsInfinite(const z3::expr& a) const;
  z3::expr IsZero(const z3::expr& a) const;
  z3::expr IsNegative(const z3::expr& a) const;  // sign bit set (not NaN)

  z3::expr I2F(const z3::expr& a) const;
  z3::expr I2D(const z3::expr& a) const;
  z3::expr L2F(const z3::expr& a) const;
  z3::expr L2D(const z3::expr& a) const;
  z3::expr F2D(const z3::expr& a) const;
  z3::expr D2F(const z3::expr& a) const;
  // Saturating conversion with NaN -> 0 (JLS §5.1.3) to `bits` (32 or 64).
  z3::expr FpToInt(const z3::expr& a, unsigned bits) const;
  // Rounding to an integral value of the same format.
  // mode: 'N' nearest-even, 'D' towards -inf, 'U' towards +inf, 'Z' towards 0.
  z3::expr RoundIntegral(const z3::expr& a, char mode) const;
  z3::expr FAbs(const z3::expr& a) const;
  z3::expr FSqrt(const z3::expr& a) const;

 private:
  z3::expr Fold(const z3::expr& e) const;
  z3::expr Rne() const;
  z3::expr Rtz() const;

  z3::context& ctx_;
};

}  // namespace tracespec::symex

#endif  // TRACESPEC_VALIDATOR_SYMEX_JAVA_OPS_H_

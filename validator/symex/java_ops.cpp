// Java primitive semantics on Z3; see java_ops.h.
#include "validator/symex/java_ops.h"

#include <cstring>
#include <limits>

namespace tracespec::symex {
namespace {

int64_t SignExtend(uint64_t v, unsigned width) {
  if (width >= 64) return static_cast<int64_t>(v);
  uint64_t sign = uint64_t{1} << (width - 1);
  v &= (sign << 1) - 1;
  return static_cast<int64_t>((v ^ sign) - sign);
}

uint64_t Mask(unsigned width) {
  return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

bool IsFpValue(const z3::expr& e) {
  if (!e.is_app()) return false;
  switch (e.decl().decl_kind()) {
    case Z3_OP_FPA_NUM:
    case Z3_OP_FPA_PLUS_INF:
    case Z3_OP_FPA_MINUS_INF:
    case Z3_OP_FPA_NAN:
    case Z3_OP_FPA_PLUS_ZERO:
    case Z3_OP_FPA_MINUS_ZERO:
      return true;
    default:
      return false;
  }
}

}  // namespace

Kind KindOfDescriptor(char first) {
  switch (first) {
    case 'Z': case 'B': case 'C': case 'S': case 'I': return Kind::kInt;
    case 'J': return Kind::kLong;
    case 'F': return Kind::kFloat;
    case 'D': return Kind::kDouble;
    case 'L': case '[': return Kind::kRef;
    default: return Kind::kNone;
  }
}

const char* KindName(Kind kind) {
  switch (kind) {
    case Kind::kNone: return "none";
    case Kind::kInt: return "int";
    case Kind::kLong: return "long";
    case Kind::kFloat: return "float";
    case Kind::kDouble: return "double";
    case Kind::kRef: return "reference";
  }
  return "?";
}

JavaOps::JavaOps(z3::context& ctx) : ctx_(ctx) {}

z3::sort JavaOps::SortOf(Kind kind) const {
  switch (kind) {
    case Kind::kLong: return LongSort();
    case Kind::kFloat: return FloatSort();
    case Kind::kDouble: return DoubleSort();
    case Kind::kRef: return RefSort();
    default: return IntSort();
  }
}

z3::expr JavaOps::Int(int32_t v) const {
  return ctx_.bv_val(static_cast<uint64_t>(static_cast<uint32_t>(v)), 32);
}
z3::expr JavaOps::Long(int64_t v) const { return ctx_.bv_val(static_cast<uint64_t>(v), 64); }
z3::expr JavaOps::Float(float v) const {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return FloatBits(bits);
}
z3::expr JavaOps::Double(double v) const {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  return DoubleBits(bits);
}
z3::expr JavaOps::FloatBits(uint32_t bits) const {
  z3::expr bv = ctx_.bv_val(static_cast<uint64_t>(bits), 32);
  return z3::expr(ctx_, Z3_mk_fpa_to_fp_bv(ctx_, bv, FloatSort())).simplify();
}
z3::expr JavaOps::DoubleBits(uint64_t bits) const {
  z3::expr bv = ctx_.bv_val(bits, 64);
  return z3::expr(ctx_, Z3_mk_fpa_to_fp_bv(ctx_, bv, DoubleSort())).simplify();
}
z3::expr JavaOps::Ref(uint32_t v) const { return ctx_.bv_val(static_cast<uint64_t>(v), kRefBits); }
z3::expr JavaOps::TypeId(int id) const { return ctx_.bv_val(static_cast<uint64_t>(id), kTypeBits); }

z3::expr JavaOps::Default(Kind kind) const {
  switch (kind) {
    case Kind::kLong: return Long(0);
    case Kind::kFloat: return Float(0.0f);
    case Kind::kDouble: return Double(0.0);
    case Kind::kRef: return Null();
    default: return Int(0);
  }
}

bool JavaOps::IsTrue(const z3::expr& e) { return e.is_true(); }
bool JavaOps::IsFalse(const z3::expr& e) { return e.is_false(); }

std::optional<uint64_t> JavaOps::BvValue(const z3::expr& e) {
  if (!e.is_bv() || !e.is_numeral()) return std::nullopt;
  uint64_t v = 0;
  if (!Z3_get_numeral_uint64(e.ctx(), e, &v)) return std::nullopt;
  return v;
}

bool JavaOps::Same(const z3::expr& a, const z3::expr& b) {
  return Z3_is_eq_ast(a.ctx(), a, b);
}

namespace {
// Whether `part` is `whole` or one of its top-level conjuncts.
bool HasConjunct(const z3::expr& whole, const z3::expr& part) {
  if (JavaOps::Same(whole, part)) return true;
  if (!whole.is_app() || whole.decl().decl_kind() != Z3_OP_AND) return false;
  for (unsigned i = 0; i < whole.num_args(); ++i) {
    if (JavaOps::Same(whole.arg(i), part)) return true;
  }
  return false;
}
}  // namespace

z3::expr JavaOps::And(const z3::expr& a, const z3::expr& b) const {
  if (a.is_false() || b.is_true()) return a;
  if (b.is_false() || a.is_true()) return b;
  if (HasConjunct(a, b)) return a;
  if (HasConjunct(b, a)) return b;
  return a && b;
}

z3::expr JavaOps::Or(const z3::expr& a, const z3::expr& b) const {
  if (a.is_true() || b.is_false()) return a;
  if (b.is_true() || a.is_false()) return b;
  if (Same(a, b)) return a;
  return a || b;
}

z3::expr JavaOps::Not(const z3::expr& a) const {
  if (a.is_true()) return False();
  if (a.is_false()) return True();
  if (a.is_app() && a.decl().decl_kind() == Z3_OP_NOT) return a.arg(0);
  return !a;
}

z3::expr JavaOps::Implies(const z3::expr& a, const z3::expr& b) const {
  return Or(Not(a), b);
}

z3::expr JavaOps::Ite(const z3::expr& c, const z3::expr& a, const z3::expr& b) const {
  if (c.is_true() || Same(a, b)) return a;
  if (c.is_false()) return b;
  if (a.is_bool()) {
    if (a.is_true() && b.is_false()) return c;
    if (a.is_false() && b.is_true()) return Not(c);
  }
  return z3::ite(c, a, b);
}

z3::expr JavaOps::Eq(const z3::expr& a, const z3::expr& b) const {
  if (Same(a, b)) return True();
  auto va = BvValue(a), vb = BvValue(b);
  if (va && vb) return ctx_.bool_val(*va == *vb);
  if (a.is_bool() && (a.is_true() || a.is_false()) && (b.is_true() || b.is_false())) {
    return ctx_.bool_val(a.is_true() == b.is_true());
  }
  return a == b;
}

#define TS_FOLD2(expr_a, expr_b, compute)                                   \
  do {                                                                      \
    auto va_ = BvValue(expr_a), vb_ = BvValue(expr_b);                      \
    if (va_ && vb_) {                                                       \
      unsigned w_ = (expr_a).get_sort().bv_size();                          \
      uint64_t x = *va_, y = *vb_;                                          \
      int64_t sx = SignExtend(x, w_), sy = SignExtend(y, w_);               \
      (void)sx; (void)sy;                                                   \
      return ctx_.bv_val(static_cast<uint64_t>(compute) & Mask(w_), w_);    \
    }                                                                       \
  } while (false)

z3::expr JavaOps::Add(const z3::expr& a, const z3::expr& b) const {
  TS_FOLD2(a, b, x + y);
  return a + b;
}
z3::expr JavaOps::Sub(const z3::expr& a, const z3::expr& b) const {
  TS_FOLD2(a, b, x - y);
  return a - b;
}
z3::expr JavaOps::Mul(const z3::expr& a, const z3::expr& b) const {
  TS_FOLD2(a, b, x * y);
  return a * b;
}
z3::expr JavaOps::Div(const z3::expr& a, const z3::expr& b) const {
  auto vb = BvValue(b);
  if (!(vb && *vb == 0)) {
    // MIN / -1 overflows back to MIN in both Java and SMT-LIB.
    TS_FOLD2(a, b, (sy == -1 ? static_cast<uint64_t>(0) - x : static_cast<uint64_t>(sx / sy)));
  }
  return z3::expr(ctx_, Z3_mk_bvsdiv(ctx_, a, b));
}
namespace {

// Whether `e` is an if-then-else tree (at most `budget` leaves) with a leaf
// equal to `x`.
bool IteLeaf(const z3::expr& e, const z3::expr& x, int* budget) {
  if (z3::eq(e, x)) return true;
  if (e.is_app() && e.decl().decl_kind() == Z3_OP_ITE && --*budget > 0) {
    return IteLeaf(e.arg(1), x, budget) || IteLeaf(e.arg(2), x, budget);
  }
  return false;
}

}  // namespace

z3::expr JavaOps::Rem(const z3::expr& a, const z3::expr& b) const {
  // x % x is 0 (also for 0: SMT-LIB's x % 0 is x), which bit-blasting cannot
  // see; a divisor that is a merge of values including the dividend (a
  // loop's result in a specification) is split so that it shows.
  if (z3::eq(a, b)) return ctx_.bv_val(0, a.get_sort().bv_size());
  int budget = 16;
  if (b.is_app() && b.decl().decl_kind() == Z3_OP_ITE && IteLeaf(b, a, &budget)) {
    return Ite(b.arg(0), Rem(a, b.arg(1)), Rem(a, b.arg(2)));
  }
  auto vb = BvValue(b);
  if (!(vb && *vb == 0)) {
    TS_FOLD2(a, b, (sy == -1 ? uint64_t{0} : static_cast<uint64_t>(sx % sy)));
  }
  return z3::expr(ctx_, Z3_mk_bvsrem(ctx_, a, b));
}
z3::expr JavaOps::Neg(const z3::expr& a) const {
  if (auto v = BvValue(a)) {
    unsigned w = a.get_sort().bv_size();
    return ctx_.bv_val((uint64_t{0} - *v) & Mask(w), w);
  }
  return -a;
}
z3::expr JavaOps::BitAnd(const z3::expr& a, const z3::expr& b) const {
  TS_FOLD2(a, b, x & y);
  return a & b;
}
z3::expr JavaOps::BitOr(const z3::expr& a, const z3::expr& b) const {
  TS_FOLD2(a, b, x | y);
  return a | b;
}
z3::expr JavaOps::BitXor(const z3::expr& a, const z3::expr& b) const {
  TS_FOLD2(a, b, x ^ y);
  return a ^ b;
}

namespace {
// The shift count, masked to the operand width and brought to its sort.
z3::expr ShiftCount(z3::context& ctx, const z3::expr& a, const z3::expr& count) {
  unsigned w = a.get_sort().bv_size();
  z3::expr masked = count & ctx.bv_val(static_cast<uint64_t>(w - 1), 32);
  if (w == 64) masked = z3::zext(masked, 32);
  return masked;
}
}  // namespace

z3::expr JavaOps::Shl(const z3::expr& a, const z3::expr& count) const {
  auto va = BvValue(a), vc = BvValue(count);
  unsigned w = a.get_sort().bv_size();
  if (va && vc) return ctx_.bv_val((*va << (*vc & (w - 1))) & Mask(w), w);
  return z3::shl(a, ShiftCount(ctx_, a, count));
}
z3::expr JavaOps::Shr(const z3::expr& a, const z3::expr& count) const {
  auto va = BvValue(a), vc = BvValue(count);
  unsigned w = a.get_sort().bv_size();
  if (va && vc) {
    return ctx_.bv_val(static_cast<uint64_t>(SignExtend(*va, w) >> (*vc & (w - 1))) & Mask(w), w);
  }
  return z3::ashr(a, ShiftCount(ctx_, a, count));
}
z3::expr JavaOps::Ushr(const z3::expr& a, const z3::expr& count) const {
  auto va = BvValue(a), vc = BvValue(count);
  unsigned w = a.get_sort().bv_size();
  if (va && vc) return ctx_.bv_val((*va >> (*vc & (w - 1))) & Mask(w), w);
  return z3::lshr(a, ShiftCount(ctx_, a, count));
}

z3::expr JavaOps::Lt(const z3::expr& a, const z3::expr& b) const {
  auto va = BvValue(a), vb = BvValue(b);
  if (va && vb) {
    unsigned w = a.get_sort().bv_size();
    return ctx_.bool_val(SignExtend(*va, w) < SignExtend(*vb, w));
  }
  return a < b;  // z3++ uses signed comparison for bit-vectors
}
z3::expr JavaOps::Le(const z3::expr& a, const z3::expr& b) const {
  auto va = BvValue(a), vb = BvValue(b);
  if (va && vb) {
    unsigned w = a.get_sort().bv_size();
    return ctx_.bool_val(SignExtend(*va, w) <= SignExtend(*vb, w));
  }
  return a <= b;
}
z3::expr JavaOps::IntEq(const z3::expr& a, const z3::expr& b) const { return Eq(a, b); }
z3::expr JavaOps::Ult(const z3::expr& a, const z3::expr& b) const {
  auto va = BvValue(a), vb = BvValue(b);
  if (va && vb) return ctx_.bool_val(*va < *vb);
  return z3::ult(a, b);
}
z3::expr JavaOps::Cmp(const z3::expr& a, const z3::expr& b) const {
  return Ite(Lt(a, b), Int(-1), Ite(Eq(a, b), Int(0), Int(1)));
}

z3::expr JavaOps::I2L(const z3::expr& a) const {
  if (auto v = BvValue(a)) return Long(SignExtend(*v, 32));
  return z3::sext(a, 32);
}
z3::expr JavaOps::L2I(const z3::expr& a) const {
  if (auto v = BvValue(a)) return ctx_.bv_val(*v & Mask(32), 32);
  return a.extract(31, 0);
}
z3::expr JavaOps::I2B(const z3::expr& a) const {
  if (auto v = BvValue(a)) return Int(static_cast<int32_t>(SignExtend(*v, 8)));
  return z3::sext(a.extract(7, 0), 24);
}
z3::expr JavaOps::I2C(const z3::expr& a) const {
  if (auto v = BvValue(a)) return Int(static_cast<int32_t>(*v & 0xFFFF));
  return z3::zext(a.extract(15, 0), 16);
}
z3::expr JavaOps::I2S(const z3::expr& a) const {
  if (auto v = BvValue(a)) return Int(static_cast<int32_t>(SignExtend(*v, 16)));
  return z3::sext(a.extract(15, 0), 16);
}

z3::sort JavaOps::StoredSort(char first) const {
  switch (first) {
    case 'Z': return ctx_.bv_sort(1);
    case 'B': return ctx_.bv_sort(8);
    case 'C': case 'S': return ctx_.bv_sort(16);
    default: return SortOf(KindOfDescriptor(first));
  }
}

z3::expr JavaOps::StoreAs(char first, const z3::expr& v) const {
  unsigned hi;
  switch (first) {
    case 'Z': hi = 0; break;
    case 'B': hi = 7; break;
    case 'C': case 'S': hi = 15; break;
    default: return v;
  }
  if (auto c = BvValue(v)) return ctx_.bv_val(*c & Mask(hi + 1), hi + 1);
  return v.extract(hi, 0);
}

z3::expr JavaOps::LoadAs(char first, const z3::expr& stored) const {
  switch (first) {
    case 'Z':
    case 'C':
      if (auto c = BvValue(stored)) return Int(static_cast<int32_t>(*c));
      return z3::zext(stored, 32 - stored.get_sort().bv_size());
    case 'B':
    case 'S':
      if (auto c = BvValue(stored)) {
        return Int(static_cast<int32_t>(SignExtend(*c, stored.get_sort().bv_size())));
      }
      return z3::sext(stored, 32 - stored.get_sort().bv_size());
    default:
      return stored;
  }
}

z3::expr JavaOps::Rne() const { return z3::expr(ctx_, Z3_mk_fpa_rne(ctx_)); }
z3::expr JavaOps::Rtz() const { return z3::expr(ctx_, Z3_mk_fpa_rtz(ctx_)); }

z3::expr JavaOps::Fold(const z3::expr& e) const {
  for (unsigned i = 0; i < e.num_args(); ++i) {
    z3::expr arg = e.arg(i);
    if (arg.get_sort().sort_kind() == Z3_ROUNDING_MODE_SORT) continue;
    if (!IsFpValue(arg) && !arg.is_numeral()) return e;
  }
  return e.simplify();
}

z3::expr JavaOps::FAdd(const z3::expr& a, const z3::expr& b) const {
  return Fold(z3::expr(ctx_, Z3_mk_fpa_add(ctx_, Rne(), a, b)));
}
z3::expr JavaOps::FSub(const z3::expr& a, const z3::expr& b) const {
  return Fold(z3::expr(ctx_, Z3_mk_fpa_sub(ctx_, Rne(), a, b)));
}
z3::expr JavaOps::FMul(const z3::expr& a, const z3::expr& b) const {
  return Fold(z3::expr(ctx_, Z3_mk_fpa_mul(ctx_, Rne(), a, b)));
}
z3::expr JavaOps::FDiv(const z3::expr& a, const z3::expr& b) const {
  return Fold(z3::expr(ctx_, Z3_mk_fpa_div(ctx_, Rne(), a, b)));
}
z3::expr JavaOps::FNeg(const z3::expr& a) const {
  return Fold(z3::expr(ctx_, Z3_mk_fpa_neg(ctx_, a)));
}
z3::expr JavaOps::FAbs(const z3::expr& a) const {
  return Fold(z3::expr(ctx_, Z3_mk_fpa_abs(ctx_, a)));
}
z3::expr JavaOps::FRem(const z3::expr& a, const z3::expr& b) const {
  // IEEE remainder rounds the quotient to nearest; Java truncates it. The two
  // differ by one |b| exactly when the IEEE result's sign differs from a's,
  // and that correction is exact (the fmod result is representable).
  z3::expr r = Fold(z3::expr(ctx_, Z3_mk_fpa_rem(ctx_, a, b)));
  z3::expr abs_b = FAbs(b);
  z3::expr adjusted = Ite(IsNegative(a), FSub(r, abs_b), FAdd(r, abs_b));
  z3::expr needs = And(And(Not(IsZero(r)), Not(IsNaN(r))),
                       Not(Eq(IsNegative(r), IsNegative(a))));
  return Ite(Fold(needs), adjusted, r);
}
z3::expr JavaOps::FEq(const z3::expr& a, const z3::expr& b) const {
  return Fold(z3::expr(ctx_, Z3_mk_fpa_eq(ctx_, a, b)));
}
z3::expr JavaOps::FLt(const z3::expr& a, const z3::expr& b) const {
  return Fold(z3::expr(ctx_, Z3_mk_fpa_lt(ctx_, a, b)));
}
z3::expr JavaOps::FLe(const z3::expr& a, const z3::expr& b) const {
  return Fold(z3::expr(ctx_, Z3_mk_fpa_leq(ctx_, a, b)));
}
z3::expr JavaOps::IsNaN(const z3::expr& a) const {
  return Fold(z3::expr(ctx_, Z3_mk_fpa_is_nan(ctx_, a)));
}
z3::expr JavaOps::IsInfinite(const z3::expr& a) const {
  return Fold(z3::expr(ctx_, Z3_mk_fpa_is_infinite(ctx_, a)));
}
z3::expr JavaOps::IsZero(const z3::expr& a) const {
  return Fold(z3::expr(ctx_, Z3_mk_fpa_is_zero(ctx_, a)));
}
z3::expr JavaOps::IsNegative(const z3::expr& a) const {
  return Fold(z3::expr(ctx_, Z3_mk_fpa_is_negative(ctx_, a)));
}
z3::expr JavaOps::FCmp(const z3::expr& a, const z3::expr& b, int nan_result) const {
  z3::expr unordered = Or(IsNaN(a), IsNaN(b));
  return Ite(unordered, Int(nan_result),
             Ite(FLt(a, b), Int(-1), Ite(FEq(a, b), Int(0), Int(1))));
}

z3::expr JavaOps::I2F(const z3::expr& a) const {
  return Fold(z3::expr(ctx_, Z3_mk_fpa_to_fp_signed(ctx_, Rne(), a, FloatSort())));
}
z3::expr JavaOps::I2D(const z3::expr& a) const {
  return Fold(z3::expr(ctx_, Z3_mk_fpa_to_fp_signed(ctx_, Rne(), a, DoubleSort())));
}
z3::expr JavaOps::L2F(const z3::expr& a) const { return I2F(a); }
z3::expr JavaOps::L2D(const z3::expr& a) const { return I2D(a); }
z3::expr JavaOps::F2D(const z3::expr& a) const {
  return Fold(z3::expr(ctx_, Z3_mk_fpa_to_fp_float(ctx_, Rne(), a, DoubleSort())));
}
z3::expr JavaOps::D2F(const z3::expr& a) const {
  return Fold(z3::expr(ctx_, Z3_mk_fpa_to_fp_float(ctx_, Rne(), a, FloatSort())));
}

z3::expr JavaOps::FpToInt(const z3::expr& a, unsigned bits) const {
  bool is_float = a.get_sort().fpa_ebits() == 8;
  double limit = bits == 32 ? 2147483648.0 : 9223372036854775808.0;
  z3::expr upper = is_float ? Float(static_cast<float>(limit)) : Double(limit);
  z3::expr lower = is_float ? Float(static_cast<float>(-limit)) : Double(-limit);
  z3::expr max_value = bits == 32 ? Int(std::numeric_limits<int32_t>::max())
                                  : Long(std::numeric_limits<int64_t>::max());
  z3::expr min_value = bits == 32 ? Int(std::numeric_limits<int32_t>::min())
                                  : Long(std::numeric_limits<int64_t>::min());
  z3::expr zero = bits == 32 ? Int(0) : Long(0);
  z3::expr truncated = Fold(z3::expr(ctx_, Z3_mk_fpa_to_sbv(ctx_, Rtz(), a, bits)));
  return Ite(IsNaN(a), zero,
             Ite(FLe(upper, a), max_value, Ite(FLe(a, lower), min_value, truncated)));
}

z3::expr JavaOps::RoundIntegral(const z3::expr& a, char mode) const {
  Z3_ast rm;
  switch (mode) {
    case 'D': rm = Z3_mk_fpa_rtn(ctx_); break;
    case 'U': rm = Z3_mk_fpa_rtp(ctx_); break;
    case 'Z': rm = Z3_mk_fpa_rtz(ctx_); break;
    default: rm = Z3_mk_fpa_rne(ctx_); break;
  }
  z3::expr rme(ctx_, rm);
  return Fold(z3::expr(ctx_, Z3_mk_fpa_round_to_integral(ctx_, rme, a)));
}

z3::expr JavaOps::FSqrt(const z3::expr& a) const {
  return Fold(z3::expr(ctx_, Z3_mk_fpa_sqrt(ctx_, Rne(), a)));
}

}  // namespace tracespec::symex

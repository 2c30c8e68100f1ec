// Models of the library methods listed in library_classes.cpp: what each
// call returns, which exceptions it raises and what it writes, in Java's
// exact semantics (java.lang.Math per its Javadoc, boxing with the
// Integer/Long/Short/Byte/Character caches, Verifier inputs and
// assumptions). A method not listed here is never called silently: the
// executor reports it as unsupported.
#include <functional>
#include <limits>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/status.h"
#include "validator/jdk/jdk_models.h"
#include "validator/symex/library_classes.h"
#include "validator/symex/machine_impl.h"
#include "validator/symex/program.h"

namespace tracespec::symex {
namespace {

const char* kArith = "java/lang/ArithmeticException";
const char* kNpe = "java/lang/NullPointerException";

// One call of a modelled method.
class LibCall {
 public:
  LibCall(Machine::Impl& impl, const std::string& key, const State& caller, int site,
          const std::vector<Value>& args)
      : impl(impl), ops(impl.ops), key(key), s(caller), site(site), args(args) {}

  Machine::Impl& impl;
  const JavaOps& ops;
  const std::string& key;
  const State& s;
  int site;
  const std::vector<Value>& args;

  z3::expr A(size_t i) const { return args[i].e; }
  Value I(const z3::expr& e) const { return Value{Kind::kInt, e}; }
  Value L(const z3::expr& e) const { return Value{Kind::kLong, e}; }
  Value F(const z3::expr& e) const { return Value{Kind::kFloat, e}; }
  Value D(const z3::expr& e) const { return Value{Kind::kDouble, e}; }
  Value R(const z3::expr& e) const { return Value{Kind::kRef, e}; }
  Value Fp(const z3::expr& e) const {
    return e.get_sort().fpa_ebits() == 8 ? F(e) : D(e);
  }
  Value Num(const z3::expr& e) const {
    return e.is_fpa() ? Fp(e) : (e.get_sort().bv_size() == 64 ? L(e) : I(e));
  }

  CallResult Return(std::optional<Value> v) const { return Return(s.heap, std::move(v)); }
  CallResult Return(Heap heap, std::optional<Value> v) const {
    CallResult r;
    r.normal = ExitState{s.guard, std::move(heap), std::move(v)};
    return r;
  }
  // Raises `exception` where `fail` holds and returns `v` elsewhere.
  CallResult ReturnOrThrow(const z3::expr& fail, const char* exception,
                           std::optional<Value> v) const {
    return ReturnOrThrow(fail, exception, s.heap, std::move(v));
  }
  CallResult ReturnOrThrow(const z3::expr& fail, const char* exception, const Heap& heap,
                           std::optional<Value> v) const {
    CallResult r;
    z3::expr bad = ops.And(s.guard, fail);
    if (!JavaOps::IsFalse(bad)) r.exceptional = impl.Raise(bad, heap, exception, site);
    z3::expr good = ops.And(s.guard, ops.Not(fail));
    if (!JavaOps::IsFalse(good)) r.normal = ExitState{good, heap, std::move(v)};
    return r;
  }
  z3::expr NewString() const {
    return impl.Allocate(impl.program.TypeIdOf("java/lang/String"), std::nullopt, 0);
  }
  const FieldInfo& FieldOf(const std::string& owner, const std::string& name,
                           const std::string& descriptor) const {
    return *impl.program.ResolveField(owner, name, descriptor);
  }
  const FieldInfo& StringValue() const { return FieldOf("java/lang/String", "value", "[C"); }
  const FieldInfo& BuilderValue() const {
    return FieldOf("java/lang/StringBuilder", "value", "[C");
  }
  const FieldInfo& BuilderOpaque() const {
    return FieldOf("java/lang/StringBuilder", "opaque", "Z");
  }
  // Cuts the executions where `opaque` holds as unsupported: the
  // characters of a string or builder whose text is not modelled.
  void CutOpaque(const z3::expr& opaque, z3::expr* guard) const {
    z3::expr reach = ops.And(*guard, opaque);
    if (!JavaOps::IsFalse(reach)) {
      impl.AddObligation(ObligationKind::kUnsupported, reach, site,
                         "characters of a string made by a library method whose text is not "
                         "modelled (String.valueOf(double), Long.toString, append(Object), ...)");
    }
    *guard = ops.And(*guard, ops.Not(opaque));
  }
  const FieldInfo& Message() const {
    return FieldOf("java/lang/Throwable", "detailMessage", "Ljava/lang/String;");
  }
  const FieldInfo& Cause() const {
    return FieldOf("java/lang/Throwable", "cause", "Ljava/lang/Throwable;");
  }
  z3::expr Zero(const z3::expr& like) const {
    return like.get_sort().bv_size() == 64 ? ops.Long(0) : ops.Int(0);
  }
  z3::expr MinOf(const z3::expr& like) const {
    return like.get_sort().bv_size() == 64 ? ops.Long(std::numeric_limits<int64_t>::min())
                                           : ops.Int(std::numeric_limits<int32_t>::min());
  }
  z3::expr MaxOf(const z3::expr& like) const {
    return like.get_sort().bv_size() == 64 ? ops.Long(std::numeric_limits<int64_t>::max())
                                           : ops.Int(std::numeric_limits<int32_t>::max());
  }
  z3::expr FpConst(const z3::expr& like, double v) const {
    return like.get_sort().fpa_ebits() == 8 ? ops.Float(static_cast<float>(v)) : ops.Double(v);
  }
  // "(II)I" -> 'I' for the first parameter.
  char FirstParam() const {
    size_t p = key.find('(');
    return p == std::string::npos || p + 1 >= key.size() ? 'V' : key[p + 1];
  }
  std::string Method() const { return key.substr(0, key.find('(')); }
  std::string Owner() const { return key.substr(0, key.rfind('.', key.find('('))); }
};

using Model = std::function<absl::StatusOr<CallResult>(LibCall&)>;

// Java's floating-point max/min with NaN and signed zeros (Math.max(float,
// float) and friends, per their Javadoc).
z3::expr FpMax(const JavaOps& ops, const z3::expr& a, const z3::expr& b, bool is_max) {
  z3::expr both_zero = ops.And(ops.IsZero(a), ops.IsZero(b));
  z3::expr pick_b_for_zero = is_max ? ops.IsNegative(a) : ops.IsNegative(b);
  z3::expr ordered = is_max ? ops.FLe(b, a) : ops.FLe(a, b);
  z3::expr regular = ops.Ite(ordered, a, b);
  return ops.Ite(ops.IsNaN(a), a,
                 ops.Ite(ops.IsNaN(b), b,
                         ops.Ite(both_zero, ops.Ite(pick_b_for_zero, b, a), regular)));
}

// floatToIntBits / doubleToLongBits (NaN canonical).
z3::expr FpBits(const JavaOps& ops, const z3::expr& a) {
  z3::context& ctx = ops.ctx();
  bool is_float = a.get_sort().fpa_ebits() == 8;
  z3::expr raw(ctx, Z3_mk_fpa_to_ieee_bv(ctx, a));
  z3::expr nan = is_float ? ops.Int(0x7fc00000) : ops.Long(0x7ff8000000000000LL);
  return ops.Ite(ops.IsNaN(a), nan, raw);
}


// ---- strings (see validator/jdk Intrinsics.java) ----

// Intrinsics.chars(s): the string's char[]; null for an opaque string.
absl::StatusOr<CallResult> StringCharsModel(LibCall& c) {
  const JavaOps& ops = c.ops;
  z3::expr s = c.A(0);
  CallResult r = c.ReturnOrThrow(ops.Eq(s, ops.Null()), kNpe, std::nullopt);
  if (!r.normal) return r;
  z3::expr chars = c.impl.ResolveStringChars(c.impl.m.ReadField(c.s.heap, s, c.StringValue()).e);
  z3::expr guard = r.normal->guard;
  c.CutOpaque(c.impl.CharsNull(chars), &guard);
  r.normal.reset();
  if (!JavaOps::IsFalse(guard)) r.normal = ExitState{guard, c.s.heap, c.R(chars)};
  return r;
}

// Intrinsics.builderChars(sb): null (empty) until the first append.
absl::StatusOr<CallResult> BuilderCharsModel(LibCall& c) {
  const JavaOps& ops = c.ops;
  Machine& m = c.impl.m;
  z3::expr chars = m.ReadField(c.s.heap, c.A(0), c.BuilderValue()).e;
  z3::expr opaque = m.ReadField(c.s.heap, c.A(0), c.BuilderOpaque()).e;
  z3::expr guard = c.s.guard;
  c.CutOpaque(ops.Not(ops.Eq(opaque, ops.Int(0))), &guard);
  if (JavaOps::IsFalse(guard)) return CallResult{};
  z3::expr empty = c.impl.Allocate(c.impl.program.TypeIdOf("[C"), ops.Int(0), 0);
  CallResult r;
  r.normal = ExitState{guard, c.s.heap, c.R(ops.Ite(c.impl.CharsNull(chars), empty, chars))};
  return r;
}

// A new char[] of `length` whose element i is `element(i)` for i below
// `bound` (a concrete upper bound of `length`); longer results are a bound.
absl::StatusOr<CallResult> NewChars(LibCall& c, const z3::expr& length, std::optional<int> bound,
                                    const std::function<z3::expr(int)>& element) {
  const JavaOps& ops = c.ops;
  z3::expr guard = c.s.guard;
  int rows = bound.value_or(c.impl.options.max_array);
  constexpr int kMaxChars = 4096;
  if (rows > kMaxChars) rows = kMaxChars;
  if (!bound || *bound > rows) {
    z3::expr longer = ops.And(guard, ops.Lt(ops.Int(rows), length));
    if (!JavaOps::IsFalse(longer)) {
      c.impl.AddObligation(ObligationKind::kBound, longer, c.site,
                           absl::StrCat("string of more than ", rows, " characters",
                                        bound ? "" : " (the array bound L)"));
      guard = ops.And(guard, ops.Not(ops.Lt(ops.Int(rows), length)));
    }
  }
  Heap heap = c.s.heap;
  z3::expr r = c.impl.Allocate(c.impl.program.TypeIdOf("[C"), length, 0);
  c.impl.max_lengths[static_cast<uint32_t>(*JavaOps::BvValue(r))] = rows;
  for (int i = 0; i < rows; ++i) {
    c.impl.StoreElement(heap, r, ops.Int(i), ElemKind::kChar, element(i));
  }
  CallResult out;
  if (!JavaOps::IsFalse(guard)) out.normal = ExitState{guard, std::move(heap), c.R(r)};
  return out;
}


// A concrete bound on the length of char[] `a` (MaxLength, else L: the
// executions where `a` is longer are a bound, cut from `guard`).
int CharRows(LibCall& c, const z3::expr& a, z3::expr* guard) {
  const JavaOps& ops = c.ops;
  std::optional<int> bound = c.impl.MaxLength(a);
  if (bound && *bound <= 4096) return *bound;
  int rows = bound ? 4096 : c.impl.options.max_array;
  z3::expr longer = ops.Lt(ops.Int(rows), c.impl.m.ArrayLength(a));
  z3::expr cut = ops.And(*guard, longer);
  if (!JavaOps::IsFalse(cut)) {
    c.impl.AddObligation(ObligationKind::kBound, cut, c.site,
                         absl::StrCat("string of more than ", rows, " characters",
                                      bound ? "" : " (the array bound L)"));
  }
  *guard = ops.And(*guard, ops.Not(longer));
  return rows;
}

// Intrinsics.regionMatches/find/hash/compare/latin1 as closed formulas over
// the bounded lengths (the Java bodies in Intrinsics.java are the loops).
absl::StatusOr<CallResult> CharsFormulaModel(LibCall& c) {
  const JavaOps& ops = c.ops;
  z3::expr guard = c.s.guard;
  auto at = [&](const z3::expr& a, const z3::expr& i) {
    return c.impl.LoadElement(c.s.heap, a, i, ElemKind::kChar);
  };
  auto len = [&](const z3::expr& a) { return c.impl.m.ArrayLength(a); };
  // w occurs in v at `from` (w fits there: checked by the callers).
  auto matches = [&](const z3::expr& v, const z3::expr& from, const z3::expr& w, int rows_w) {
    z3::expr all = ops.True();
    for (int j = 0; j < rows_w; ++j) {
      z3::expr jj = ops.Int(j);
      all = ops.And(all, ops.Implies(ops.Lt(jj, len(w)),
                                     ops.Eq(at(v, ops.Add(from, jj)), at(w, jj))));
    }
    return all;
  };
  std::string name = c.Method().substr(c.Method().rfind('.') + 1);
  z3::expr result = ops.Int(0);
  if (name == "regionMatches") {
    int rows_w = CharRows(c, c.A(2), &guard);
    result = ops.Ite(matches(c.A(0), c.A(1), c.A(2), rows_w), ops.Int(1), ops.Int(0));
  } else if (name == "find") {
    z3::expr v = c.A(0), w = c.A(1);
    int rows_v = CharRows(c, v, &guard), rows_w = CharRows(c, w, &guard);
    result = ops.Int(-1);
    for (int i = rows_v; i >= 0; --i) {  // the first match wins
      z3::expr ii = ops.Int(i);
      z3::expr fits = ops.Le(ops.Add(ii, len(w)), len(v));
      result = ops.Ite(ops.And(fits, matches(v, ii, w, rows_w)), ii, result);
    }
  } else if (name == "hash") {
    z3::expr v = c.A(0);
    int rows = CharRows(c, v, &guard);
    for (int i = 0; i < rows; ++i) {
      z3::expr ii = ops.Int(i);
      result = ops.Ite(ops.Lt(ii, len(v)), ops.Add(ops.Mul(ops.Int(31), result), at(v, ii)),
                       result);
    }
  } else if (name == "compare") {
    z3::expr a = c.A(0), b = c.A(1);
    int rows = std::min(CharRows(c, a, &guard), CharRows(c, b, &guard));
    result = ops.Sub(len(a), len(b));
    for (int i = rows - 1; i >= 0; --i) {  // the first difference wins
      z3::expr ii = ops.Int(i);
      z3::expr differ = ops.And(ops.And(ops.Lt(ii, len(a)), ops.Lt(ii, len(b))),
                                ops.Not(ops.Eq(at(a, ii), at(b, ii))));
      result = ops.Ite(differ, ops.Sub(at(a, ii), at(b, ii)), result);
    }
  } else if (name == "latin1") {
    z3::expr v = c.A(0);
    int rows = CharRows(c, v, &guard);
    z3::expr all = ops.True();
    for (int i = 0; i < rows; ++i) {
      z3::expr ii = ops.Int(i);
      all = ops.And(all, ops.Implies(ops.Lt(ii, len(v)), ops.Le(at(v, ii), ops.Int(0xFF))));
    }
    result = ops.Ite(all, ops.Int(1), ops.Int(0));
  }
  CallResult out;
  if (!JavaOps::IsFalse(guard)) out.normal = ExitState{guard, c.s.heap, c.I(result)};
  return out;
}

// Intrinsics.concat(a, b): a new char[], a then b.
absl::StatusOr<CallResult> CharsConcatModel(LibCall& c) {
  const JavaOps& ops = c.ops;
  Machine& m = c.impl.m;
  z3::expr a = c.A(0), b = c.A(1);
  z3::expr na = m.ArrayLength(a), nb = m.ArrayLength(b);
  std::optional<int> ma = c.impl.MaxLength(a), mb = c.impl.MaxLength(b);
  std::optional<int> bound;
  if (ma && mb) bound = *ma + *mb;
  return NewChars(c, ops.Add(na, nb), bound, [&](int i) {
    z3::expr at = ops.Int(i);
    return ops.Ite(ops.Lt(at, na), c.impl.LoadElement(c.s.heap, a, at, ElemKind::kChar),
                   c.impl.LoadElement(c.s.heap, b, ops.Sub(at, na), ElemKind::kChar));
  });
}

// Intrinsics.range(a, from, to): a new char[] of a[from..to) (checked by
// the caller).
absl::StatusOr<CallResult> CharsRangeModel(LibCall& c) {
  const JavaOps& ops = c.ops;
  z3::expr a = c.A(0), from = c.A(1), to = c.A(2);
  return NewChars(c, ops.Sub(to, from), c.impl.MaxLength(a), [&](int i) {
    return c.impl.LoadElement(c.s.heap, a, ops.Add(from, ops.Int(i)), ElemKind::kChar);
  });
}

absl::StatusOr<CallResult> MathModel(LibCall& c) {
  const JavaOps& ops = c.ops;
  std::string name = c.Method().substr(c.Method().rfind('.') + 1);
  char p = c.FirstParam();
  bool fp = p == 'F' || p == 'D';
  if (name == "abs") {
    if (fp) return c.Return(c.Fp(ops.FAbs(c.A(0))));
    z3::expr a = c.A(0);
    return c.Return(c.Num(ops.Ite(ops.Lt(a, c.Zero(a)), ops.Neg(a), a)));
  }
  if (name == "absExact") {
    z3::expr a = c.A(0);
    return c.ReturnOrThrow(ops.Eq(a, c.MinOf(a)), kArith,
                           c.Num(ops.Ite(ops.Lt(a, c.Zero(a)), ops.Neg(a), a)));
  }
  if (name == "max" || name == "min") {
    z3::expr a = c.A(0), b = c.A(1);
    bool is_max = name == "max";
    if (fp) return c.Return(c.Fp(FpMax(ops, a, b, is_max)));
    z3::expr pick_a = is_max ? ops.Le(b, a) : ops.Le(a, b);
    return c.Return(c.Num(ops.Ite(pick_a, a, b)));
  }
  if (name == "floorDiv" || name == "floorMod") {
    z3::expr x = c.A(0), y = c.A(1);
    if (x.get_sort().bv_size() != y.get_sort().bv_size()) y = ops.I2L(y);  // (long, int)
    z3::expr zero = c.Zero(x);
    z3::expr fail = ops.Eq(y, zero);
    z3::expr signs_differ = ops.Lt(ops.BitXor(x, y), zero);
    z3::expr result = zero;
    if (name == "floorDiv") {
      z3::expr q = ops.Div(x, y);
      z3::expr inexact = ops.Not(ops.Eq(ops.Mul(q, y), x));
      result = ops.Ite(ops.And(signs_differ, inexact), ops.Sub(q, x.get_sort().bv_size() == 64
                                                                     ? ops.Long(1)
                                                                     : ops.Int(1)),
                       q);
    } else {
      z3::expr m = ops.Rem(x, y);
      z3::expr adjust = ops.And(ops.Lt(ops.BitXor(m, y), zero), ops.Not(ops.Eq(m, zero)));
      result = ops.Ite(adjust, ops.Add(m, y), m);
      if (c.key.size() > 2 && absl::EndsWith(c.key, "(JI)I")) result = ops.L2I(result);
    }
    return c.ReturnOrThrow(fail, kArith, c.Num(result));
  }
  if (name == "addExact" || name == "subtractExact" || name == "multiplyExact") {
    z3::expr x = c.A(0), y = c.A(1);
    if (x.get_sort().bv_size() != y.get_sort().bv_size()) y = ops.I2L(y);
    z3::expr zero = c.Zero(x);
    z3::expr r = zero, overflow = ops.False();
    if (name == "addExact") {
      r = ops.Add(x, y);
      overflow = ops.Lt(ops.BitAnd(ops.BitXor(x, r), ops.BitXor(y, r)), zero);
    } else if (name == "subtractExact") {
      r = ops.Sub(x, y);
      overflow = ops.Lt(ops.BitAnd(ops.BitXor(x, y), ops.BitXor(x, r)), zero);
    } else {
      r = ops.Mul(x, y);
      z3::context& ctx = ops.ctx();
      z3::expr no_over(ctx, Z3_mk_bvmul_no_overflow(ctx, x, y, true));
      z3::expr no_under(ctx, Z3_mk_bvmul_no_underflow(ctx, x, y));
      overflow = ops.Not(ops.And(no_over, no_under));
      if (auto vx = JavaOps::BvValue(x), vy = JavaOps::BvValue(y); vx && vy) {
        overflow = overflow.simplify();
      }
    }
    return c.ReturnOrThrow(overflow, kArith, c.Num(r));
  }
  if (name == "negateExact" || name == "incrementExact" || name == "decrementExact") {
    z3::expr x = c.A(0);
    z3::expr one = x.get_sort().bv_size() == 64 ? ops.Long(1) : ops.Int(1);
    if (name == "negateExact") return c.ReturnOrThrow(ops.Eq(x, c.MinOf(x)), kArith, c.Num(ops.Neg(x)));
    if (name == "incrementExact") {
      return c.ReturnOrThrow(ops.Eq(x, c.MaxOf(x)), kArith, c.Num(ops.Add(x, one)));
    }
    return c.ReturnOrThrow(ops.Eq(x, c.MinOf(x)), kArith, c.Num(ops.Sub(x, one)));
  }
  if (name == "toIntExact") {
    z3::expr x = c.A(0);
    z3::expr r = ops.L2I(x);
    return c.ReturnOrThrow(ops.Not(ops.Eq(ops.I2L(r), x)), kArith, c.I(r));
  }
  if (name == "sqrt") return c.Return(c.D(ops.FSqrt(c.A(0))));
  if (name == "floor") return c.Return(c.D(ops.RoundIntegral(c.A(0), 'D')));
  if (name == "ceil") return c.Return(c.D(ops.RoundIntegral(c.A(0), 'U')));
  if (name == "rint") return c.Return(c.D(ops.RoundIntegral(c.A(0), 'N')));
  if (name == "round") {
    // Closest integer, ties towards +inf: floor(x), plus one when the
    // (exactly representable) fraction is at least one half.
    z3::expr x = c.A(0);
    z3::expr fl = ops.RoundIntegral(x, 'D');
    z3::expr frac = ops.FSub(x, fl);
    z3::expr rounded = ops.Ite(ops.FLe(c.FpConst(x, 0.5), frac), ops.FAdd(fl, c.FpConst(x, 1.0)), fl);
    bool is_float = p == 'F';
    z3::expr r = ops.FpToInt(rounded, is_float ? 32 : 64);
    return c.Return(is_float ? c.I(r) : c.L(r));
  }
  if (name == "signum") {
    z3::expr x = c.A(0);
    z3::expr r = ops.Ite(ops.Or(ops.IsNaN(x), ops.IsZero(x)), x,
                         ops.Ite(ops.IsNegative(x), c.FpConst(x, -1.0), c.FpConst(x, 1.0)));
    return c.Return(c.Fp(r));
  }
  return absl::InternalError(absl::StrCat("no model for ", c.key));
}

// The static integer helpers of the box classes (Integer.signum(int),
// Long.bitCount(long), Short.compare(short, short), ...), per their Javadoc.
absl::StatusOr<CallResult> BoxStaticModel(LibCall& c) {
  const JavaOps& ops = c.ops;
  std::string owner = c.Owner();
  std::string name = c.Method().substr(c.Method().rfind('.') + 1);
  if (name == "compare") {
    z3::expr a = c.A(0), b = c.A(1);
    if (owner == "java/lang/Boolean") {  // false < true
      z3::expr ta = ops.Not(ops.Eq(a, ops.Int(0))), tb = ops.Not(ops.Eq(b, ops.Int(0)));
      return c.Return(c.I(ops.Ite(ops.Eq(ta, tb), ops.Int(0), ops.Ite(ta, ops.Int(1), ops.Int(-1)))));
    }
    if (owner == "java/lang/Integer" || owner == "java/lang/Long") return c.Return(c.I(ops.Cmp(a, b)));
    return c.Return(c.I(ops.Sub(a, b)));  // short, byte, char: the JDK returns x - y
  }
  z3::expr x = c.A(0);
  if (name == "signum") {
    z3::expr zero = c.Zero(x);
    return c.Return(c.I(ops.Ite(ops.Lt(x, zero), ops.Int(-1),
                                ops.Ite(ops.Eq(x, zero), ops.Int(0), ops.Int(1)))));
  }
  if (name == "bitCount") {
    unsigned n = x.get_sort().bv_size();
    z3::expr count = ops.Int(0);
    for (unsigned i = 0; i < n; ++i) count = ops.Add(count, z3::zext(x.extract(i, i), 31));
    return c.Return(c.I(count));
  }
  if (name == "hashCode") return c.Return(c.I(x));  // Integer.hashCode(int)
  z3::expr y = c.A(1);
  if (name == "sum") return c.Return(c.Num(ops.Add(x, y)));
  if (name == "max") return c.Return(c.Num(ops.Ite(ops.Le(y, x), x, y)));
  if (name == "min") return c.Return(c.Num(ops.Ite(ops.Le(x, y), x, y)));
  return absl::InternalError(absl::StrCat("no model for ", c.key));
}

// The box classes: descriptor of the `value` field.
char BoxDescriptor(const std::string& owner) {
  if (owner == "java/lang/Integer") return 'I';
  if (owner == "java/lang/Long") return 'J';
  if (owner == "java/lang/Short") return 'S';
  if (owner == "java/lang/Byte") return 'B';
  if (owner == "java/lang/Character") return 'C';
  if (owner == "java/lang/Boolean") return 'Z';
  if (owner == "java/lang/Float") return 'F';
  return 'D';
}

absl::StatusOr<CallResult> BoxModel(LibCall& c) {
  const JavaOps& ops = c.ops;
  Machine& m = c.impl.m;
  std::string owner = c.Owner();
  std::string name = c.Method().substr(c.Method().rfind('.') + 1);
  char d = BoxDescriptor(owner);
  std::string d_str(1, d);
  const FieldInfo& value_field = c.FieldOf(owner, "value", d_str);
  if (name == "valueOf") {
    int type = c.impl.program.TypeIdOf(owner);
    z3::expr v = c.A(0);
    if (d == 'Z') {
      const FieldInfo& t = c.FieldOf(owner, "TRUE", "Ljava/lang/Boolean;");
      const FieldInfo& f = c.FieldOf(owner, "FALSE", "Ljava/lang/Boolean;");
      z3::expr is_true = ops.Not(ops.Eq(v, ops.Int(0)));
      return c.Return(c.R(ops.Ite(is_true, c.impl.LibraryStatic(t)->e, c.impl.LibraryStatic(f)->e)));
    }
    z3::expr fresh = c.impl.Allocate(type, std::nullopt, 0);
    Heap heap = c.s.heap;
    m.WriteField(heap, fresh, value_field, Value{KindOfDescriptor(d), v});
    if (d == 'F' || d == 'D') return c.Return(heap, c.R(fresh));
    // Values in the cache range are shared objects that exist before the run.
    int64_t lo = d == 'C' ? 0 : -128, hi = 127;
    z3::expr wide = d == 'J' ? v : ops.I2L(v);
    z3::expr in_cache = ops.And(ops.Le(ops.Long(lo), wide), ops.Le(wide, ops.Long(hi)));
    if (JavaOps::IsFalse(in_cache)) return c.Return(heap, c.R(fresh));
    z3::expr base = c.impl.BoxCacheBase(owner, static_cast<int>(hi - lo + 1));
    z3::expr cached = ops.Add(base, ops.L2I(ops.Sub(wide, ops.Long(lo))));
    c.impl.AddAxiom(ops.Implies(
        in_cache,
        ops.And(ops.Eq(c.impl.m.TypeOf(cached), ops.TypeId(type)),
                ops.Eq(z3::select(c.impl.InitialField(value_field.id), cached),
                       ops.StoreAs(d, v)))));
    return c.Return(heap, c.R(ops.Ite(in_cache, cached, fresh)));
  }
  z3::expr self = c.A(0);
  Value value = m.ReadField(c.s.heap, self, value_field);
  if (name == "equals") {
    z3::expr other = c.A(1);
    Value theirs = m.ReadField(c.s.heap, other, value_field);
    z3::expr same = ops.Eq(value.e, theirs.e);  // floats: bit equality, as floatToIntBits
    if (d == 'F' || d == 'D') same = ops.Eq(FpBits(ops, value.e), FpBits(ops, theirs.e));
    z3::expr r = ops.And(m.InstanceOf(other, owner), same);
    return c.Return(c.I(ops.Ite(r, ops.Int(1), ops.Int(0))));
  }
  if (name == "hashCode") {
    z3::expr v = value.e;
    switch (d) {
      case 'J': return c.Return(c.I(ops.L2I(ops.BitXor(v, ops.Ushr(v, ops.Int(32))))));
      case 'Z': return c.Return(c.I(ops.Ite(ops.Eq(v, ops.Int(0)), ops.Int(1237), ops.Int(1231))));
      case 'F': return c.Return(c.I(FpBits(ops, v)));
      case 'D': {
        z3::expr bits = FpBits(ops, v);
        return c.Return(c.I(ops.L2I(ops.BitXor(bits, ops.Ushr(bits, ops.Int(32))))));
      }
      default: return c.Return(c.I(v));
    }
  }
  // xxxValue(): widening or narrowing of the boxed value.
  char want = c.key.back();
  z3::expr v = value.e;
  z3::expr out = v;
  Kind from = KindOfDescriptor(d);
  Kind to = KindOfDescriptor(want);
  if (from == Kind::kInt) {
    out = to == Kind::kLong ? ops.I2L(v) : to == Kind::kFloat ? ops.I2F(v)
          : to == Kind::kDouble ? ops.I2D(v) : v;
  } else if (from == Kind::kLong) {
    out = to == Kind::kInt ? ops.L2I(v) : to == Kind::kFloat ? ops.L2F(v)
          : to == Kind::kDouble ? ops.L2D(v) : v;
  } else if (from == Kind::kFloat) {
    out = to == Kind::kInt ? ops.FpToInt(v, 32) : to == Kind::kLong ? ops.FpToInt(v, 64)
          : to == Kind::kDouble ? ops.F2D(v) : v;
  } else {
    out = to == Kind::kInt ? ops.FpToInt(v, 32) : to == Kind::kLong ? ops.FpToInt(v, 64)
          : to == Kind::kFloat ? ops.D2F(v) : v;
  }
  if (want == 'B') out = ops.I2B(out);
  if (want == 'S') out = ops.I2S(out);
  return c.Return(Value{to, out});
}

absl::StatusOr<CallResult> NondetModel(LibCall& c) {
  const JavaOps& ops = c.ops;
  Machine::Impl& impl = c.impl;
  std::string name = c.Method().substr(c.Method().rfind('.') + 1);
  if (name == "assume") {
    CallResult r;
    z3::expr g = ops.And(c.s.guard, ops.Not(ops.Eq(c.A(0), ops.Int(0))));
    if (!JavaOps::IsFalse(g)) r.normal = ExitState{g, c.s.heap, std::nullopt};
    return r;
  }
  std::string descriptor = c.key.substr(c.key.find(')') + 1);
  Value v{Kind::kNone, ops.Int(0)};
  if (descriptor == "Ljava/lang/String;") {
    v = c.R(c.NewString());
  } else {
    v = impl.m.Fresh(descriptor, name);
  }
  impl.AddInput(InputEvent{InputEvent::Source::kNondet, v, c.s.guard, c.site,
                                           descriptor, name, nullptr});
  return c.Return(v);
}

absl::StatusOr<CallResult> ArrayCopyModel(LibCall& c) {
  const JavaOps& ops = c.ops;
  Machine::Impl& impl = c.impl;
  Machine& m = impl.m;
  const Program& program = impl.program;
  z3::expr src = c.A(0), src_pos = c.A(1), dest = c.A(2), dest_pos = c.A(3), length = c.A(4);
  CallResult result;
  std::vector<ExitState> exceptions;
  z3::expr g = c.s.guard;
  auto raise = [&](const z3::expr& cond, const char* exception) {
    z3::expr bad = ops.And(g, cond);
    if (!JavaOps::IsFalse(bad)) exceptions.push_back(impl.Raise(bad, c.s.heap, exception, c.site));
    g = ops.And(g, ops.Not(cond));
  };
  raise(ops.Or(ops.Eq(src, ops.Null()), ops.Eq(dest, ops.Null())), kNpe);
  // Same element kinds (reference arrays: every element of src must fit).
  z3::expr ts = m.TypeOf(src), td = m.TypeOf(dest);
  z3::expr compatible = ops.False();
  z3::expr unknown = ops.False();
  for (int a = 1; a <= program.type_count(); ++a) {
    const TypeInfo& ta = program.Type(a);
    if (!ta.is_array) continue;
    for (int b = 1; b <= program.type_count(); ++b) {
      const TypeInfo& tb = program.Type(b);
      if (!tb.is_array) continue;
      z3::expr pair = ops.And(ops.Eq(ts, ops.TypeId(a)), ops.Eq(td, ops.TypeId(b)));
      if (JavaOps::IsFalse(pair)) continue;
      bool ref_a = ta.elem == ElemKind::kRef, ref_b = tb.elem == ElemKind::kRef;
      if (!ref_a && !ref_b && ta.elem == tb.elem) {
        compatible = ops.Or(compatible, pair);
      } else if (ref_a && ref_b) {
        if (program.IsAssignable(classfile::DescriptorToClassName(ta.component),
                                 classfile::DescriptorToClassName(tb.component))) {
          compatible = ops.Or(compatible, pair);
        } else {
          unknown = ops.Or(unknown, pair);  // element-wise checks: not modelled
        }
      }
    }
  }
  z3::expr reach_unknown = ops.And(g, unknown);
  if (!JavaOps::IsFalse(reach_unknown)) {
    impl.AddObligation(ObligationKind::kUnsupported, reach_unknown, c.site,
                       "System.arraycopy between reference arrays of unrelated element types");
    g = ops.And(g, ops.Not(unknown));
  }
  raise(ops.Not(compatible), "java/lang/ArrayStoreException");
  z3::expr ls = ops.I2L(m.ArrayLength(src)), ld = ops.I2L(m.ArrayLength(dest));
  z3::expr sp = ops.I2L(src_pos), dp = ops.I2L(dest_pos), n = ops.I2L(length);
  z3::expr zero = ops.Long(0);
  z3::expr bad_bounds = ops.Or(ops.Or(ops.Lt(sp, zero), ops.Lt(dp, zero)),
                               ops.Or(ops.Lt(n, zero),
                                      ops.Or(ops.Lt(ls, ops.Add(sp, n)), ops.Lt(ld, ops.Add(dp, n)))));
  raise(bad_bounds, "java/lang/ArrayIndexOutOfBoundsException");
  if (!exceptions.empty()) result.exceptional = impl.MergeExits(std::move(exceptions));
  if (JavaOps::IsFalse(g)) return result;
  // Element-wise copy of at most `rows` elements (the destination's length
  // when known, else the array bound L; longer copies are a bound), reading
  // the source before writing so that overlapping copies behave as if through
  // a temporary array.
  int rows = impl.options.max_array;
  for (const z3::expr& known : {m.ArrayLength(dest), m.ArrayLength(src)}) {
    if (auto v = JavaOps::BvValue(known)) {
      rows = static_cast<int32_t>(*v);
      break;
    }
  }
  if (rows > 4096) {
    impl.AddObligation(ObligationKind::kUnsupported, g, c.site,
                       "System.arraycopy of more than 4096 elements");
    return result;
  }
  z3::expr longer = ops.Lt(ops.Int(rows), length);
  z3::expr cut = ops.And(g, longer);
  if (!JavaOps::IsFalse(cut)) {
    impl.AddObligation(ObligationKind::kBound, cut, c.site,
                       absl::StrCat("System.arraycopy of more than ", rows,
                                    " elements (the array bound L)"));
    g = ops.And(g, ops.Not(longer));
    if (JavaOps::IsFalse(g)) return result;
  }
  Heap heap = c.s.heap;
  for (ElemKind kind : {ElemKind::kBoolean, ElemKind::kByte, ElemKind::kChar, ElemKind::kShort,
                        ElemKind::kInt, ElemKind::kLong, ElemKind::kFloat, ElemKind::kDouble,
                        ElemKind::kRef}) {
    bool present = false;
    for (int a = 1; a <= program.type_count(); ++a) {
      present |= program.Type(a).is_array && program.Type(a).elem == kind;
    }
    if (!present) continue;
    z3::expr contents = impl.ContentArray(heap, kind);
    z3::expr src_row = impl.Select(contents, src);
    z3::expr dest_row = impl.Select(contents, dest);
    z3::expr row = dest_row;
    for (int i = 0; i < rows; ++i) {
      z3::expr offset = ops.Int(i);
      z3::expr to = ops.Add(dest_pos, offset);
      z3::expr copied = impl.Select(src_row, ops.Add(src_pos, offset));
      z3::expr kept = impl.Select(dest_row, to);
      row = impl.Store(row, to, ops.Ite(ops.Lt(offset, length), copied, kept));
    }
    heap.contents.insert_or_assign(static_cast<int>(kind), impl.Store(contents, dest, row));
  }
  result.normal = ExitState{g, std::move(heap), std::nullopt};
  return result;
}

absl::StatusOr<CallResult> ArrayCloneModel(LibCall& c) {
  const JavaOps& ops = c.ops;
  Machine::Impl& impl = c.impl;
  const Program& program = impl.program;
  z3::expr array = c.A(0);
  z3::expr type = impl.m.TypeOf(array);
  z3::expr length = impl.m.ArrayLength(array);
  z3::expr result = ops.Null();
  Heap heap = c.s.heap;
  for (int id = 1; id <= program.type_count(); ++id) {
    const TypeInfo& t = program.Type(id);
    if (!t.is_array) continue;
    z3::expr is_this = ops.Eq(type, ops.TypeId(id));
    if (JavaOps::IsFalse(is_this)) continue;
    z3::expr copy = impl.Allocate(id, length, 0);
    ElemKind kinds[2] = {t.elem, t.elem};
    if (t.elem == ElemKind::kByte || t.elem == ElemKind::kBoolean) {
      kinds[0] = ElemKind::kByte;
      kinds[1] = ElemKind::kBoolean;
    }
    for (ElemKind kind : kinds) {
      z3::expr contents = impl.ContentArray(heap, kind);
      heap.contents.insert_or_assign(static_cast<int>(kind),
                                     impl.Store(contents, copy, impl.Select(contents, array)));
    }
    result = ops.Ite(is_this, copy, result);
  }
  return c.Return(std::move(heap), c.R(result));
}

const std::map<std::string, Model>& Models() {
  static const std::map<std::string, Model>* models = [] {
    auto* out = new std::map<std::string, Model>();
    for (const std::string& key : ModelledLibraryMethods()) {
      std::string owner = key.substr(0, key.rfind('.', key.find('(')));
      std::string name_desc = key.substr(owner.size() + 1);
      std::string name = name_desc.substr(0, name_desc.find('('));
      Model model;
      if (owner == "java/lang/Math" || owner == "java/lang/StrictMath") {
        model = MathModel;
      } else if (owner == "org/sosy_lab/sv_benchmarks/Verifier") {
        model = NondetModel;
      } else if (owner == "[") {
        model = ArrayCloneModel;
      } else if (owner == "java/lang/System" && name == "arraycopy") {
        model = ArrayCopyModel;
      } else if (owner == "java/lang/System" && name == "exit") {
        // The program ends here: no successor state, and nothing escapes.
        model = [](LibCall&) -> absl::StatusOr<CallResult> { return CallResult{}; };
      } else if ((name == "valueOf" || name == "equals" || name == "hashCode" ||
                  absl::EndsWith(name, "Value")) &&
                 owner != "java/lang/Object" && owner != "java/lang/String") {
        model = BoxModel;
      }
      if (model) out->emplace(key, std::move(model));
    }
    auto add = [out](const std::string& key, Model model) { (*out)[key] = std::move(model); };
    add("java/lang/Object.<init>()V", [](LibCall& c) { return c.Return(std::nullopt); });
    add("java/lang/Object.equals(Ljava/lang/Object;)Z", [](LibCall& c) {
      return c.Return(c.I(c.ops.Ite(c.ops.Eq(c.A(0), c.A(1)), c.ops.Int(1), c.ops.Int(0))));
    });
    add("java/lang/Object.hashCode()I",
        [](LibCall& c) { return c.Return(c.I(c.impl.HashCode(c.A(0)))); });
    // Throwable: only the message and the cause are kept.
    auto throwable_init = [](LibCall& c) -> absl::StatusOr<CallResult> {
      Machine& m = c.impl.m;
      const FieldInfo& message = c.Message();
      const FieldInfo& cause = c.Cause();
      Heap heap = c.s.heap;
      std::string d = c.key.substr(c.key.find('('));
      if (d == "(Ljava/lang/String;)V" || d == "(Ljava/lang/String;Ljava/lang/Throwable;)V") {
        m.WriteField(heap, c.A(0), message, c.args[1]);
      }
      if (d == "(Ljava/lang/String;Ljava/lang/Throwable;)V") m.WriteField(heap, c.A(0), cause, c.args[2]);
      if (d == "(Ljava/lang/Throwable;)V") {
        m.WriteField(heap, c.A(0), cause, c.args[1]);
        z3::expr text = c.ops.Ite(c.ops.Eq(c.A(1), c.ops.Null()), c.ops.Null(), c.NewString());
        m.WriteField(heap, c.A(0), message, c.R(text));
      }
      return c.Return(std::move(heap), std::nullopt);
    };
    for (const char* d : {"()V", "(Ljava/lang/String;)V",
                          "(Ljava/lang/String;Ljava/lang/Throwable;)V", "(Ljava/lang/Throwable;)V"}) {
      add(absl::StrCat("java/lang/Throwable.<init>", d), throwable_init);
    }
    auto assertion_init = [](LibCall& c) -> absl::StatusOr<CallResult> {
      Machine& m = c.impl.m;
      const FieldInfo& message = c.Message();
      const FieldInfo& cause = c.Cause();
      Heap heap = c.s.heap;
      m.WriteField(heap, c.A(0), message, c.R(c.NewString()));  // String.valueOf(detail)
      if (c.args[1].kind == Kind::kRef) {
        z3::expr is_throwable = m.InstanceOf(c.A(1), "java/lang/Throwable");
        m.WriteField(heap, c.A(0), cause, c.R(c.ops.Ite(is_throwable, c.A(1), c.ops.Null())));
      }
      return c.Return(std::move(heap), std::nullopt);
    };
    for (const char* d : {"(Ljava/lang/Object;)V", "(Z)V", "(C)V", "(I)V", "(J)V", "(F)V", "(D)V"}) {
      add(absl::StrCat("java/lang/AssertionError.<init>", d), assertion_init);
    }
    add("java/lang/Throwable.getMessage()Ljava/lang/String;", [](LibCall& c) {
      return c.Return(c.impl.m.ReadField(c.s.heap, c.A(0), c.Message()));
    });
    add("java/lang/Throwable.getCause()Ljava/lang/Throwable;", [](LibCall& c) {
      return c.Return(c.impl.m.ReadField(c.s.heap, c.A(0), c.Cause()));
    });
    for (const char* key : jdk::kBoxStaticMethods) add(key, BoxStaticModel);
    for (const char* owner : {"java/lang/Float", "java/lang/Double"}) {
      std::string d = owner == std::string("java/lang/Float") ? "F" : "D";
      add(absl::StrCat(owner, ".isNaN(", d, ")Z"), [](LibCall& c) {
        return c.Return(c.I(c.ops.Ite(c.ops.IsNaN(c.A(0)), c.ops.Int(1), c.ops.Int(0))));
      });
      add(absl::StrCat(owner, ".isInfinite(", d, ")Z"), [](LibCall& c) {
        return c.Return(c.I(c.ops.Ite(c.ops.IsInfinite(c.A(0)), c.ops.Int(1), c.ops.Int(0))));
      });
      add(absl::StrCat(owner, ".isFinite(", d, ")Z"), [](LibCall& c) {
        z3::expr finite = c.ops.Not(c.ops.Or(c.ops.IsNaN(c.A(0)), c.ops.IsInfinite(c.A(0))));
        return c.Return(c.I(c.ops.Ite(finite, c.ops.Int(1), c.ops.Int(0))));
      });
      add(absl::StrCat(owner, ".compare(", d, d, ")I"), [](LibCall& c) {
        const JavaOps& ops = c.ops;
        z3::expr a = c.A(0), b = c.A(1);
        z3::expr bits_a = FpBits(ops, a), bits_b = FpBits(ops, b);
        z3::expr r = ops.Ite(ops.FLt(a, b), ops.Int(-1),
                             ops.Ite(ops.FLt(b, a), ops.Int(1), ops.Cmp(bits_a, bits_b)));
        return c.Return(c.I(r));
      });
    }
    // Strings: the Java models (validator/jdk String.java, StringBuilder.java)
    // do the work; these natives reach the characters and give the
    // constructors, toString and the appends whose text is not modelled.
    add("tracespec/jdk/Intrinsics.chars(Ljava/lang/String;)[C", StringCharsModel);
    add("tracespec/jdk/Intrinsics.make([C)Ljava/lang/String;", [](LibCall& c) {
      Heap heap = c.s.heap;
      z3::expr r = c.NewString();
      c.impl.m.WriteField(heap, r, c.StringValue(), c.args[0]);
      return c.Return(std::move(heap), c.R(r));
    });
    add("tracespec/jdk/Intrinsics.builderChars(Ljava/lang/StringBuilder;)[C", BuilderCharsModel);
    add("tracespec/jdk/Intrinsics.opaque(Ljava/lang/String;)Z", [](LibCall& c) {
      z3::expr chars =
          c.impl.ResolveStringChars(c.impl.m.ReadField(c.s.heap, c.A(0), c.StringValue()).e);
      return c.Return(c.I(c.ops.Ite(c.impl.CharsNull(chars), c.ops.Int(1), c.ops.Int(0))));
    });
    add("tracespec/jdk/Intrinsics.setBuilderOpaque(Ljava/lang/StringBuilder;)V", [](LibCall& c) {
      Heap heap = c.s.heap;
      c.impl.m.WriteField(heap, c.A(0), c.BuilderOpaque(), c.I(c.ops.Int(1)));
      return c.Return(std::move(heap), std::nullopt);
    });
    add("tracespec/jdk/Intrinsics.setBuilderChars(Ljava/lang/StringBuilder;[C)V", [](LibCall& c) {
      Heap heap = c.s.heap;
      c.impl.m.WriteField(heap, c.A(0), c.BuilderValue(), c.args[1]);
      return c.Return(std::move(heap), std::nullopt);
    });
    add("tracespec/jdk/Intrinsics.concat([C[C)[C", CharsConcatModel);
    add("tracespec/jdk/Intrinsics.range([CII)[C", CharsRangeModel);
    for (const char* d : {"regionMatches([CI[C)Z", "find([C[C)I", "hash([C)I", "compare([C[C)I",
                          "latin1([C)Z"}) {
      add(absl::StrCat("tracespec/jdk/Intrinsics.", d), CharsFormulaModel);
    }
    auto builder_init = [](LibCall& c) -> absl::StatusOr<CallResult> {
      if (c.key == "java/lang/StringBuilder.<init>(Ljava/lang/String;)V") {
        // Shares the string's characters (neither writes them); an opaque
        // string makes an opaque builder.
        Heap heap = c.s.heap;
        Machine& m = c.impl.m;
        z3::expr text = c.ops.Eq(c.A(1), c.ops.Null());
        z3::expr chars = c.impl.ResolveStringChars(m.ReadField(heap, c.A(1), c.StringValue()).e);
        m.WriteField(heap, c.A(0), c.BuilderValue(), c.R(chars));
        m.WriteField(heap, c.A(0), c.BuilderOpaque(),
                     c.I(c.ops.Ite(c.impl.CharsNull(chars), c.ops.Int(1), c.ops.Int(0))));
        return c.ReturnOrThrow(text, kNpe, heap, std::nullopt);
      }
      if (c.key == "java/lang/StringBuilder.<init>(I)V") {
        return c.ReturnOrThrow(c.ops.Lt(c.A(1), c.ops.Int(0)),
                               "java/lang/NegativeArraySizeException", std::nullopt);
      }
      return c.Return(std::nullopt);
    };
    for (const char* d : {"()V", "(I)V", "(Ljava/lang/String;)V"}) {
      add(absl::StrCat("java/lang/StringBuilder.<init>", d), builder_init);
    }
    for (const char* t : {"J", "F", "D", "Ljava/lang/Object;", "Ljava/lang/CharSequence;"}) {
      add(absl::StrCat("java/lang/StringBuilder.append(", t, ")Ljava/lang/StringBuilder;"),
          [](LibCall& c) {
            Heap heap = c.s.heap;
            c.impl.m.WriteField(heap, c.A(0), c.BuilderOpaque(), c.I(c.ops.Int(1)));
            return c.Return(std::move(heap), c.R(c.A(0)));
          });
    }
    add("java/lang/StringBuilder.toString()Ljava/lang/String;", [](LibCall& c) {
      // A new string sharing the builder's characters (an append replaces
      // them, never writes them); opaque when the builder is.
      Heap heap = c.s.heap;
      Machine& m = c.impl.m;
      z3::expr chars = m.ReadField(heap, c.A(0), c.BuilderValue()).e;
      z3::expr opaque = m.ReadField(heap, c.A(0), c.BuilderOpaque()).e;
      z3::expr empty = c.impl.Allocate(c.impl.program.TypeIdOf("[C"), c.ops.Int(0), 0);
      z3::expr value = c.ops.Ite(c.ops.Eq(opaque, c.ops.Int(0)),
                                 c.ops.Ite(c.impl.CharsNull(chars), empty, chars),
                                 c.ops.Null());
      z3::expr r = c.NewString();
      m.WriteField(heap, r, c.StringValue(), c.R(value));
      return c.Return(std::move(heap), c.R(r));
    });
    for (const char* t : {"J", "F", "D", "Ljava/lang/Object;"}) {
      add(absl::StrCat("java/lang/String.valueOf(", t, ")Ljava/lang/String;"),
          [](LibCall& c) { return c.Return(c.R(c.NewString())); });
    }
    // Numbers as text the models do not write: new opaque strings.
    for (const char* key : {"java/lang/Integer.toHexString(I)Ljava/lang/String;",
                            "java/lang/Integer.toBinaryString(I)Ljava/lang/String;",
                            "java/lang/Integer.toOctalString(I)Ljava/lang/String;",
                            "java/lang/Long.toHexString(J)Ljava/lang/String;",
                            "java/lang/Long.toString(J)Ljava/lang/String;"}) {
      add(key, [](LibCall& c) { return c.Return(c.R(c.NewString())); });
    }
    for (const std::string& key : ModelledLibraryMethods()) {
      if (absl::StartsWith(key, "java/io/PrintStream.")) {
        add(key, [](LibCall& c) { return c.Return(std::nullopt); });
      }
    }
    add("java/lang/Class.desiredAssertionStatus()Z",
        [](LibCall& c) { return c.Return(c.I(c.ops.Int(1))); });
    add("java/lang/Enum.<init>(Ljava/lang/String;I)V", [](LibCall& c) {
      Heap heap = c.s.heap;
      c.impl.m.WriteField(heap, c.A(0), c.FieldOf("java/lang/Enum", "name", "Ljava/lang/String;"),
                          c.args[1]);
      c.impl.m.WriteField(heap, c.A(0), c.FieldOf("java/lang/Enum", "ordinal", "I"), c.args[2]);
      return c.Return(std::move(heap), std::nullopt);
    });
    add("java/lang/Enum.ordinal()I", [](LibCall& c) {
      return c.Return(c.impl.m.ReadField(c.s.heap, c.A(0), c.FieldOf("java/lang/Enum", "ordinal", "I")));
    });
    add("java/lang/Enum.name()Ljava/lang/String;", [](LibCall& c) {
      return c.Return(c.impl.m.ReadField(c.s.heap, c.A(0),
                                         c.FieldOf("java/lang/Enum", "name", "Ljava/lang/String;")));
    });
    add("java/lang/Enum.compareTo(Ljava/lang/Enum;)I", [](LibCall& c) {
      const FieldInfo& ordinal = c.FieldOf("java/lang/Enum", "ordinal", "I");
      z3::expr mine = c.impl.m.ReadField(c.s.heap, c.A(0), ordinal).e;
      z3::expr theirs = c.impl.m.ReadField(c.s.heap, c.A(1), ordinal).e;
      return c.ReturnOrThrow(c.ops.Eq(c.A(1), c.ops.Null()), kNpe, c.I(c.ops.Sub(mine, theirs)));
    });
    return out;
  }();
  return *models;
}

}  // namespace

std::vector<std::string> LibraryKeysWithoutModel() {
  std::vector<std::string> out;
  for (const std::string& key : ModelledLibraryMethods()) {
    if (Models().count(key) == 0) out.push_back(key);
  }
  return out;
}

absl::StatusOr<CallResult> Machine::Impl::CallLibrary(const std::string& key, const State& caller,
                                                      int site, const std::vector<Value>& args) {
  auto it = Models().find(key);
  if (it == Models().end()) {
    // The key is "owner.name(descriptor)": named as any other unmodelled call.
    size_t paren = key.find('(');
    size_t dot = paren == std::string::npos ? std::string::npos : key.rfind('.', paren);
    AddObligation(ObligationKind::kUnsupported, caller.guard, site,
                  dot == std::string::npos
                      ? absl::StrCat("call of ", key, " is not modelled by the validator")
                      : Program::NotModelledCall(key.substr(0, dot),
                                                 key.substr(dot + 1, paren - dot - 1),
                                                 key.substr(paren)));
    return CallResult{};
  }
  LibCall call(*this, key, caller, site, args);
  return it->second(call);
}

absl::StatusOr<Machine::ModelledCall> Machine::CallLibraryModel(const std::string& key,
                                                                const Heap& heap,
                                                                const z3::expr& guard,
                                                                const std::vector<Value>& args) {
  if (Models().find(key) == Models().end()) {
    return absl::NotFoundError(absl::StrCat("no model of library method ", key));
  }
  std::vector<Obligation>* saved = impl_->obligations;
  impl_->obligations = nullptr;  // not part of an execution
  State caller{guard, heap, {}, {}};
  absl::StatusOr<CallResult> r = impl_->CallLibrary(key, caller, /*site=*/0, args);
  impl_->obligations = saved;
  TS_RETURN_IF_ERROR(r.status());
  ModelledCall out{std::nullopt, ops_.False()};
  if (r->normal) out.value = r->normal->value;
  if (r->exceptional) out.throws = r->exceptional->guard;
  return out;
}

std::optional<Value> Machine::Impl::LibraryStatic(const FieldInfo& field) {
  std::string key = absl::StrCat(field.owner, ".", field.name);
  auto it = library_statics_.find(key);
  if (it != library_statics_.end()) return Value{Kind::kRef, it->second};
  if (key == "java/lang/System.out" || key == "java/lang/System.err") {
    z3::expr r = Preexisting(program.TypeIdOf("java/io/PrintStream"));
    library_statics_.emplace(key, r);
    return Value{Kind::kRef, r};
  }
  if (key == "java/lang/Boolean.TRUE" || key == "java/lang/Boolean.FALSE") {
    z3::expr r = Preexisting(program.TypeIdOf("java/lang/Boolean"));
    const FieldInfo* value = program.ResolveField("java/lang/Boolean", "value", "Z");
    m.axioms_.push_back(z3::select(InitialField(value->id), r) ==
                        ops.StoreAs('Z', ops.Int(key == "java/lang/Boolean.TRUE" ? 1 : 0)));
    library_statics_.emplace(key, r);
    return Value{Kind::kRef, r};
  }
  return std::nullopt;
}

z3::expr Machine::Impl::BoxCacheBase(const std::string& owner, int count) {
  auto it = box_caches_.find(owner);
  if (it != box_caches_.end()) return it->second;
  uint32_t base = next_preexisting_ - static_cast<uint32_t>(count - 1);
  next_preexisting_ = base - 1;
  z3::expr r = ops.Ref(base);
  box_caches_.emplace(owner, r);
  return r;
}

}  // namespace tracespec::symex

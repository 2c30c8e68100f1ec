// Tautologies among specification predicates, decided by Z3; see
// tautology.h.
#include "validator/check/tautology.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "validator/jml/printer.h"
#include "validator/jml/types.h"
#include "z3++.h"

namespace tracespec::check {
namespace {

using jml::BinaryOp;
using jml::Expr;
using jml::ExprKind;
using jml::Type;

// Z3's time for one predicate: they are a few atoms, decided at once.
constexpr unsigned kTimeoutMs = 2000;

// The value type of `t` in a numeric or boolean context (boxes unboxed).
Type ValueType(const Type& t) {
  Type unboxed = jml::UnboxedType(t);
  return unboxed.IsError() ? t : unboxed;
}

// Bits of an integral type's values; 0 for \bigint (mathematical integers).
int Width(const Type& t) {
  if (t.Is(Type::Kind::kByte)) return 8;
  if (t.Is(Type::Kind::kShort) || t.Is(Type::Kind::kChar)) return 16;
  if (t.Is(Type::Kind::kLong)) return 64;
  if (t.IsBigint()) return 0;
  return 32;
}

bool Floating(const Type& t) {
  return t.Is(Type::Kind::kFloat) || t.Is(Type::Kind::kDouble) || t.IsReal();
}

// Whether `e` may denote a different value at each evaluation (an
// allocation), or was not typed (operands may be type names: `Integer` of
// `Integer.MAX_VALUE`).
bool Unreadable(const Expr& e) {
  if (e.type.IsError()) return true;
  std::function<bool(const Expr&)> allocates = [&](const Expr& x) {
    if (x.kind == ExprKind::kNewObject || x.kind == ExprKind::kNewArray ||
        x.kind == ExprKind::kArrayInit) {
      return true;
    }
    for (const auto& op : x.operands) {
      if (op != nullptr && allocates(*op)) return true;
    }
    return false;
  };
  return allocates(e);
}

bool CallsMethod(const Expr& e) {
  if (e.kind == ExprKind::kMethodCall) return true;
  for (const auto& op : e.operands) {
    if (op != nullptr && CallsMethod(*op)) return true;
  }
  return false;
}

// The bounds of the integral types, as written in specifications.
std::optional<int64_t> Constant(const std::string& text) {
  static const auto* constants = new std::map<std::string, int64_t>{
      {"Integer.MAX_VALUE", INT32_MAX}, {"Integer.MIN_VALUE", INT32_MIN},
      {"Long.MAX_VALUE", INT64_MAX},    {"Long.MIN_VALUE", INT64_MIN},
      {"Short.MAX_VALUE", INT16_MAX},   {"Short.MIN_VALUE", INT16_MIN},
      {"Byte.MAX_VALUE", INT8_MAX},     {"Byte.MIN_VALUE", INT8_MIN},
      {"Character.MAX_VALUE", 0xFFFF},  {"Character.MIN_VALUE", 0},
  };
  absl::string_view name = text;
  absl::ConsumePrefix(&name, "java.lang.");
  auto it = constants->find(std::string(name));
  if (it == constants->end()) return std::nullopt;
  return it->second;
}

// A predicate as Z3 terms; nullopt where the encoding cannot read it.
class Encoder {
 public:
  explicit Encoder(z3::context& z) : z_(z), ref_sort_(z.uninterpreted_sort("Ref")) {}

  std::optional<z3::expr> Bool(const Expr& e) {
    if (Unreadable(e) || !ValueType(e.type).IsBoolean()) return std::nullopt;
    switch (e.kind) {
      case ExprKind::kLiteral:
        return z_.bool_val(e.literal.bits != 0);
      case ExprKind::kLabeled:
        if (e.operands.size() == 1) return Bool(*e.operands[0]);
        return std::nullopt;
      case ExprKind::kUnary:
        if (e.unary_op == jml::UnaryOp::kNot && e.operands.size() == 1) {
          std::optional<z3::expr> a = Bool(*e.operands[0]);
          if (a) return !*a;
          return std::nullopt;
        }
        return std::nullopt;
      case ExprKind::kConditional: {
        if (e.operands.size() != 3) return std::nullopt;
        std::optional<z3::expr> c = Bool(*e.operands[0]), a = Bool(*e.operands[1]),
                                b = Bool(*e.operands[2]);
        if (c && a && b) return z3::ite(*c, *a, *b);
        return std::nullopt;
      }
      case ExprKind::kBinary:
        return Binary(e);
      default:
        return Atom(e);
    }
  }

 private:
  std::optional<z3::expr> Binary(const Expr& e) {
    if (e.operands.size() != 2) return std::nullopt;
    const Expr& l = *e.operands[0];
    const Expr& r = *e.operands[1];
    switch (e.binary_op) {
      case BinaryOp::kAnd:
      case BinaryOp::kOr:
      case BinaryOp::kImplies:
      case BinaryOp::kReverseImplies:
      case BinaryOp::kEquiv:
      case BinaryOp::kInequiv:
      case BinaryOp::kBitAnd:
      case BinaryOp::kBitOr:
      case BinaryOp::kBitXor: {
        std::optional<z3::expr> a = Bool(l), b = Bool(r);
        if (!a || !b) return std::nullopt;
        switch (e.binary_op) {
          case BinaryOp::kAnd:
          case BinaryOp::kBitAnd:
            return *a && *b;
          case BinaryOp::kOr:
          case BinaryOp::kBitOr:
            return *a || *b;
          case BinaryOp::kImplies:
            return z3::implies(*a, *b);
          case BinaryOp::kReverseImplies:
            return z3::implies(*b, *a);
          case BinaryOp::kEquiv:
            return *a == *b;
          default:  // <=!=>, ^
            return *a != *b;
        }
      }
      case BinaryOp::kEq:
      case BinaryOp::kNe: {
        std::optional<z3::expr> eq = Equal(e, l, r);
        if (!eq) return std::nullopt;
        return e.binary_op == BinaryOp::kEq ? *eq : !*eq;
      }
      case BinaryOp::kLt:
      case BinaryOp::kLe:
      case BinaryOp::kGt:
      case BinaryOp::kGe:
        return Compare(e, l, r);
      default:
        return Atom(e);
    }
  }

  // `l == r` as Java compares them.
  std::optional<z3::expr> Equal(const Expr& e, const Expr& l, const Expr& r) {
    Type lt = l.type, rt = r.type;
    if (lt.IsReference() && rt.IsReference()) {
      std::optional<z3::expr> a = Ref(l), b = Ref(r);
      if (a && b) return *a == *b;
      return std::nullopt;
    }
    lt = ValueType(lt);
    rt = ValueType(rt);
    if (lt.IsBoolean() && rt.IsBoolean()) {
      std::optional<z3::expr> a = Bool(l), b = Bool(r);
      if (a && b) return *a == *b;
      return std::nullopt;
    }
    if (Floating(lt) || Floating(rt)) return Atom(e);  // NaN != NaN
    if (!lt.IsIntegral() || !rt.IsIntegral()) return std::nullopt;
    int w = Promoted(lt, rt);
    std::optional<z3::expr> a = Num(l, w), b = Num(r, w);
    if (a && b) return *a == *b;
    return std::nullopt;
  }

  std::optional<z3::expr> Compare(const Expr& e, const Expr& l, const Expr& r) {
    Type lt = ValueType(l.type), rt = ValueType(r.type);
    if (Floating(lt) || Floating(rt)) return Atom(e);  // comparisons with NaN are false
    if (!lt.IsIntegral() || !rt.IsIntegral()) return std::nullopt;
    int w = Promoted(lt, rt);
    std::optional<z3::expr> a = Num(l, w), b = Num(r, w);
    if (!a || !b) return std::nullopt;
    bool ints = w == 0;
    switch (e.binary_op) {
      case BinaryOp::kLt:
        return ints ? *a < *b : z3::slt(*a, *b);
      case BinaryOp::kLe:
        return ints ? *a <= *b : z3::sle(*a, *b);
      case BinaryOp::kGt:
        return ints ? *a > *b : z3::sgt(*a, *b);
      default:
        return ints ? *a >= *b : z3::sge(*a, *b);
    }
  }

  // Binary numeric promotion of two integral types.
  static int Promoted(const Type& a, const Type& b) {
    if (a.IsBigint() || b.IsBigint()) return 0;
    return Width(a) == 64 || Width(b) == 64 ? 64 : 32;
  }

  // `e` (integral) converted to `width` bits (0: a mathematical integer).
  std::optional<z3::expr> Num(const Expr& e, int width) {
    Type t = ValueType(e.type);
    if (Unreadable(e) || !t.IsIntegral()) return std::nullopt;
    int own = Width(t);
    std::optional<z3::expr> v = Own(e, t, own);
    if (!v) return std::nullopt;
    if (own == width) return v;
    bool unsigned_value = t.Is(Type::Kind::kChar);
    if (width == 0) {
      z3::expr n = z3::bv2int(*v, /*is_signed=*/false);
      if (unsigned_value) return n;
      z3::expr wrapped = n - z_.int_val(std::to_string(uint64_t{1} << (own - 1)).c_str()) * 2;
      return z3::ite(z3::slt(*v, z_.bv_val(0, own)), wrapped, n);
    }
    if (own == 0 || own > width) return std::nullopt;
    return unsigned_value ? z3::zext(*v, width - own) : z3::sext(*v, width - own);
  }

  // The value of `e` at its own type's width.
  std::optional<z3::expr> Own(const Expr& e, const Type& t, int own) {
    switch (e.kind) {
      case ExprKind::kLiteral:
        if (own == 0) return z_.int_val(static_cast<int64_t>(e.literal.bits));
        return z_.bv_val(static_cast<uint64_t>(e.literal.bits), own);
      case ExprKind::kUnary: {
        if (e.operands.size() != 1) return std::nullopt;
        std::optional<z3::expr> a = Num(*e.operands[0], own);
        if (!a) return std::nullopt;
        switch (e.unary_op) {
          case jml::UnaryOp::kPlus:
            return a;
          case jml::UnaryOp::kMinus:
            return -*a;
          case jml::UnaryOp::kComplement:
            if (own == 0) return -*a - 1;
            return ~*a;
          default:
            return std::nullopt;
        }
      }
      case ExprKind::kBinary: {
        BinaryOp op = e.binary_op;
        if (op != BinaryOp::kAdd && op != BinaryOp::kSub && op != BinaryOp::kMul) break;
        if (e.operands.size() != 2) return std::nullopt;
        std::optional<z3::expr> a = Num(*e.operands[0], own), b = Num(*e.operands[1], own);
        if (!a || !b) return std::nullopt;
        if (op == BinaryOp::kAdd) return *a + *b;
        if (op == BinaryOp::kSub) return *a - *b;
        return *a * *b;
      }
      case ExprKind::kConditional: {
        if (e.operands.size() != 3) return std::nullopt;
        std::optional<z3::expr> c = Bool(*e.operands[0]);
        std::optional<z3::expr> a = Num(*e.operands[1], own), b = Num(*e.operands[2], own);
        if (c && a && b) return z3::ite(*c, *a, *b);
        return std::nullopt;
      }
      default:
        break;
    }
    std::string text = jml::PrintExpr(e);
    if (std::optional<int64_t> c = Constant(text); c && own != 0) {
      return z_.bv_val(static_cast<uint64_t>(*c), own);
    }
    // A maximal other subterm: a free value of its type.
    std::string key = absl::StrCat(t.ToString(), " ", text);
    return Var(key, own == 0 ? z_.int_sort() : z_.bv_sort(own));
  }

  std::optional<z3::expr> Ref(const Expr& e) {
    if (Unreadable(e)) return std::nullopt;
    if (e.kind == ExprKind::kLiteral && e.literal.kind == jml::LiteralKind::kNull) {
      return Var("null", ref_sort_);
    }
    // A call may answer a fresh object each time.
    if (CallsMethod(e)) return std::nullopt;
    return Var(absl::StrCat("ref ", jml::PrintExpr(e)), ref_sort_);
  }

  // A boolean subterm the encoding does not look into.
  std::optional<z3::expr> Atom(const Expr& e) {
    if (Unreadable(e)) return std::nullopt;
    return Var(absl::StrCat("bool ", jml::PrintExpr(e)), z_.bool_sort());
  }

  z3::expr Var(const std::string& key, const z3::sort& sort) {
    auto it = vars_.find(key);
    if (it != vars_.end()) return it->second;
    z3::expr v = z_.constant(absl::StrCat("t", vars_.size()).c_str(), sort);
    vars_.emplace(key, v);
    return v;
  }

  z3::context& z_;
  z3::sort ref_sort_;
  std::map<std::string, z3::expr> vars_;
};

}  // namespace

bool IsTautology(const jml::Expr& predicate) {
  try {
    z3::context z;
    Encoder encoder(z);
    std::optional<z3::expr> p = encoder.Bool(predicate);
    if (!p) return false;
    z3::solver solver(z);
    z3::params params(z);
    params.set("timeout", kTimeoutMs);
    // Z3 would otherwise take SIGINT for itself during the check (its
    // default), and a Ctrl-C then would not stop the run (interrupt.h).
    params.set("ctrl_c", false);
    solver.set(params);
    solver.add(!*p);
    return solver.check() == z3::unsat;
  } catch (const z3::exception&) {
    return false;
  }
}

}  // namespace tracespec::check

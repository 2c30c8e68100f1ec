// JML → Z3 over symbolic states; see lowering.h.
#include "validator/check/lowering.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <functional>

#include "absl/strings/str_cat.h"
#include "common/status.h"
#include "common/utf8.h"
#include "validator/classfile/class_file.h"
#include "validator/jdk/jdk_models.h"
#include "validator/jml/clauses.h"
#include "validator/jml/printer.h"
#include "validator/symex/solver.h"

namespace tracespec::check {
namespace {

using jml::BinaryOp;
using jml::Expr;
using jml::ExprKind;
using jml::SymbolKind;
using jml::Type;
using TK = jml::Type::Kind;

// Ranges of constant bounds expand up to this many values.
constexpr int64_t kConstantRangeCap = 256;

bool IsIntLike(const Type& t) {
  return t.Is(TK::kByte) || t.Is(TK::kShort) || t.Is(TK::kChar) || t.Is(TK::kInt);
}

bool IsFp(const Type& t) { return t.Is(TK::kFloat) || t.Is(TK::kDouble); }

// Binary numeric promotion (JLS §5.6.2) with \bigint; boxes unboxed.
Type Promote(Type a, Type b) {
  if (a.IsClass()) a = jml::UnboxedType(a);
  if (b.IsClass()) b = jml::UnboxedType(b);
  if (a.IsReal() || b.IsReal()) return Type::Real();
  if (a.IsBigint() || b.IsBigint()) return Type::Bigint();
  if (a.Is(TK::kDouble) || b.Is(TK::kDouble)) return Type::Double();
  if (a.Is(TK::kFloat) || b.Is(TK::kFloat)) return Type::Float();
  if (a.Is(TK::kLong) || b.Is(TK::kLong)) return Type::Long();
  return Type::Int();
}

std::string Text(const Expr& e) { return jml::PrintExpr(e); }

// What in `e` (part of the specification of a model method without a body)
// may read more than the method's arguments, or "" when nothing does: only
// such a specification describes a function of the arguments alone.
std::string ReadsBeyondArguments(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kLiteral:
    case ExprKind::kResult:
    case ExprKind::kUnary:
    case ExprKind::kBinary:
    case ExprKind::kConditional:
    case ExprKind::kCast:
    case ExprKind::kQuantifier:
    case ExprKind::kLet:
      break;
    case ExprKind::kName:
      if (e.sym.kind != jml::SymbolKind::kParameter && e.sym.kind != jml::SymbolKind::kBoundVar) {
        return absl::StrCat("'", Text(e), "'");
      }
      break;
    default:
      return absl::StrCat("'", Text(e), "'");
  }
  for (const jml::ExprPtr& o : e.operands) {
    std::string what = ReadsBeyondArguments(*o);
    if (!what.empty()) return what;
  }
  return "";
}

// The value of a 66-bit numeral as a signed integer.
std::optional<__int128> Signed66(const z3::expr& e) {
  if (!e.is_numeral()) return std::nullopt;
  std::string digits = Z3_get_numeral_string(e.ctx(), e);
  unsigned __int128 v = 0;
  for (char d : digits) v = v * 10 + static_cast<unsigned>(d - '0');
  __int128 out = static_cast<__int128>(v);
  if (v >> 65) out -= static_cast<__int128>(1) << 66;
  return out;
}

}  // namespace

std::string InternalTypeName(const Type& type) {
  if (type.IsArray()) return type.Descriptor();
  return classfile::BinaryToInternal(type.class_name());
}

struct Lowering::Scope {
  Scope(Lowering& l, const z3::expr& extra) : l(l), saved(l.guard_) {
    l.guard_ = l.ops_.And(l.guard_, extra);
  }
  ~Scope() { l.guard_ = saved; }
  Lowering& l;
  z3::expr saved;
};

Lowering::Lowering(symex::Machine& machine, const jml::MethodContext& method, LowerStates states,
                   z3::expr context, std::chrono::steady_clock::time_point deadline)
    : machine_(machine),
      ops_(machine.ops()),
      method_(method),
      states_(std::move(states)),
      context_(std::move(context)),
      deadline_(deadline),
      guard_(machine.ops().True()) {}

const symex::Heap& Lowering::heap() const {
  if (in_post_ && states_.post != nullptr) {
    return post_after_calls_ ? *post_after_calls_ : *states_.post;
  }
  return pre_after_calls_ ? *pre_after_calls_ : *states_.pre;
}

absl::Status Lowering::Unsupported(const Expr& e, const std::string& what) const {
  return jml::UnsupportedAt(e.span, what);
}

void Lowering::NoteUndefined(const z3::expr& bad, const Expr& where, const std::string& what) {
  z3::expr c = ops_.And(guard_, bad);
  if (symex::JavaOps::IsFalse(c)) return;
  undefined_.push_back(Undefined{c, absl::StrCat(what, " in '", Text(where), "' (",
                                                 where.span.ToString(), ")"),
                                 c, {}});
}

std::vector<Undefined> Lowering::TakeUndefined() {
  std::vector<Undefined> out;
  out.swap(undefined_);
  return out;
}

void Lowering::BindName(const std::string& name, Term value) {
  named_.insert_or_assign(name, std::move(value));
}

z3::expr Lowering::IntOf(const z3::expr& bv, bool is_signed) const {
  return z3::bv2int(bv, is_signed);
}

Term Lowering::FromValue(const symex::Value& v, const Type& type) const {
  if (type.IsBoolean()) {
    if (v.e.is_bool()) return Term{type, v.e};
    return Term{type, !(v.e == ops_.Int(0))};
  }
  return Term{type, v.e};
}

z3::expr Lowering::ToStored(const Term& t) const {
  if (t.type.IsBoolean()) return ops_.Ite(t.e, ops_.Int(1), ops_.Int(0));
  return t.e;
}

z3::expr Lowering::BoolOf(const Term& t) const {
  if (t.e.is_bool()) return t.e;
  return !(t.e == ops_.Int(0));
}

Term Lowering::Convert(const Term& t, const Type& to) const {
  const Type& from = t.type;
  if (from == to || to.IsError()) return Term{to, t.e};
  if (to.IsReference() || to.IsTypeOfType() || from.IsNull()) return Term{to, t.e};
  if (from.IsClass()) {
    // Unboxing: the box's value field.
    Type prim = jml::UnboxedType(from);
    const symex::FieldInfo* f = machine_.program().ResolveField(
        classfile::BinaryToInternal(from.class_name()), "value", prim.Descriptor());
    if (f == nullptr) return Term{to, t.e};
    symex::Value v = machine_.ReadField(heap(), t.e, *f);
    return Convert(FromValue(v, prim), to);
  }
  if (to.IsBoolean() || from.IsBoolean()) return Term{to, t.e};
  z3::expr e = t.e;
  // To a canonical int / long / float / double / bigint first.
  if (from.IsBigint()) {
    if (to.IsBigint()) return Term{to, e};
    z3::expr wide = z3::int2bv(64, e);
    if (to.Is(TK::kLong)) return Term{to, wide};
    if (to.Is(TK::kDouble)) return Term{to, ops_.L2D(wide)};
    if (to.Is(TK::kFloat)) return Term{to, ops_.L2F(wide)};
    return Convert(Term{Type::Int(), z3::int2bv(32, e)}, to);
  }
  if (IsIntLike(from)) {
    if (to.IsBigint()) return Term{to, IntOf(e)};
    if (to.Is(TK::kLong)) return Term{to, ops_.I2L(e)};
    if (to.Is(TK::kFloat)) return Term{to, ops_.I2F(e)};
    if (to.Is(TK::kDouble)) return Term{to, ops_.I2D(e)};
    if (to.Is(TK::kByte)) return Term{to, ops_.I2B(e)};
    if (to.Is(TK::kShort)) return Term{to, ops_.I2S(e)};
    if (to.Is(TK::kChar)) return Term{to, ops_.I2C(e)};
    return Term{to, e};
  }
  if (from.Is(TK::kLong)) {
    if (to.IsBigint()) return Term{to, IntOf(e)};
    if (to.Is(TK::kFloat)) return Term{to, ops_.L2F(e)};
    if (to.Is(TK::kDouble)) return Term{to, ops_.L2D(e)};
    return Convert(Term{Type::Int(), ops_.L2I(e)}, to);
  }
  if (IsFp(from)) {
    if (to.Is(TK::kDouble)) return Term{to, from.Is(TK::kFloat) ? ops_.F2D(e) : e};
    if (to.Is(TK::kFloat)) return Term{to, from.Is(TK::kDouble) ? ops_.D2F(e) : e};
    if (to.Is(TK::kLong)) return Term{to, ops_.FpToInt(e, 64)};
    if (to.IsBigint()) return Term{to, IntOf(ops_.FpToInt(e, 64))};
    return Convert(Term{Type::Int(), ops_.FpToInt(e, 32)}, to);
  }
  return Term{to, e};
}

absl::StatusOr<z3::expr> Lowering::Predicate(const Expr& e, bool in_post) {
  in_post_ = in_post;
  guard_ = ops_.True();
  return LowerBool(e);
}

absl::StatusOr<Term> Lowering::Value(const Expr& e, bool in_post) {
  in_post_ = in_post;
  guard_ = ops_.True();
  return Lower(e);
}

absl::StatusOr<Term> Lowering::ValueAs(const Expr& e, bool in_post, const Type& type) {
  TS_ASSIGN_OR_RETURN(Term t, Value(e, in_post));
  return Convert(t, type);
}

absl::StatusOr<z3::expr> Lowering::LowerBool(const Expr& e) {
  TS_ASSIGN_OR_RETURN(Term t, Lower(e));
  if (t.type.IsClass()) t = Convert(t, Type::Boolean());
  return BoolOf(t);
}

absl::StatusOr<Term> Lowering::Lower(const Expr& e) {
  if (std::chrono::steady_clock::now() > deadline_) {
    return absl::DeadlineExceededError("time limit reached while lowering the contract");
  }
  switch (e.kind) {
    case ExprKind::kLiteral: {
      const jml::Literal& l = e.literal;
      switch (l.kind) {
        case jml::LiteralKind::kNull: return Term{Type::Null(), ops_.Null()};
        case jml::LiteralKind::kBoolean: return Term{Type::Boolean(), ops_.ctx().bool_val(l.bits != 0)};
        case jml::LiteralKind::kInt:
          return Term{Type::Int(), ops_.Int(static_cast<int32_t>(static_cast<uint32_t>(l.bits)))};
        case jml::LiteralKind::kLong: return Term{Type::Long(), ops_.Long(static_cast<int64_t>(l.bits))};
        case jml::LiteralKind::kFloat: return Term{Type::Float(), ops_.Float(l.float_value)};
        case jml::LiteralKind::kDouble: return Term{Type::Double(), ops_.Double(l.double_value)};
        case jml::LiteralKind::kChar: return Term{Type::Char(), ops_.Int(static_cast<int32_t>(l.bits))};
        case jml::LiteralKind::kString:
          // The same object as the literal with this text in the bytecode.
          return Term{Type::String(),
                      machine_.StringLiteral(Utf16ToUtf8KeepingSurrogates(l.string_value))};
      }
      return Unsupported(e, "literal");
    }
    case ExprKind::kName: return LowerName(e);
    case ExprKind::kThis:
    case ExprKind::kQualifiedThis:
      if (!states_.receiver) return jml::ErrorAt(e.span, "'this' in a static method");
      return Term{e.type, states_.receiver->e};
    case ExprKind::kFieldAccess: return LowerField(e);
    case ExprKind::kArrayAccess: return LowerArrayAccess(e);
    case ExprKind::kNewArray: return LowerNewArray(e);
    case ExprKind::kMethodCall: return LowerCall(e);
    case ExprKind::kUnary: return LowerUnary(e);
    case ExprKind::kBinary: return LowerBinary(e);
    case ExprKind::kConditional: {
      TS_ASSIGN_OR_RETURN(z3::expr c, LowerBool(*e.operands[0]));
      absl::StatusOr<Term> a = [&] {
        Scope s(*this, c);
        return Lower(*e.operands[1]);
      }();
      TS_RETURN_IF_ERROR(a.status());
      absl::StatusOr<Term> b = [&] {
        Scope s(*this, ops_.Not(c));
        return Lower(*e.operands[2]);
      }();
      TS_RETURN_IF_ERROR(b.status());
      Term x = Convert(*a, e.type), y = Convert(*b, e.type);
      if (e.type.IsBoolean()) return Term{e.type, ops_.Ite(c, BoolOf(x), BoolOf(y))};
      return Term{e.type, ops_.Ite(c, x.e, y.e)};
    }
    case ExprKind::kCast: return LowerCast(e);
    case ExprKind::kInstanceOf: {
      TS_ASSIGN_OR_RETURN(Term v, Lower(*e.operands[0]));
      return Term{Type::Boolean(),
                  machine_.InstanceOf(v.e, InternalTypeName(e.type_ref.resolved))};
    }
    case ExprKind::kQuantifier: return LowerQuantifier(e);
    case ExprKind::kLet: {
      // The initializer's term, converted to the variable's type, stands for
      // the variable in the body.
      TS_ASSIGN_OR_RETURN(Term v, Lower(*e.operands[0]));
      std::pair<const jml::Expr*, int> key{&e, 0};
      bound_.insert_or_assign(key, Convert(v, e.type_ref.resolved));
      absl::StatusOr<Term> r = Lower(*e.operands[1]);
      bound_.erase(key);
      return r;
    }
    case ExprKind::kOld: {
      bool saved = in_post_;
      in_post_ = false;
      absl::StatusOr<Term> v = Lower(*e.operands[0]);
      in_post_ = saved;
      return v;
    }
    case ExprKind::kResult:
      if (!states_.result) return jml::ErrorAt(e.span, "\\result has no value here");
      return FromValue(*states_.result, e.type);
    case ExprKind::kJmlKeyword:
      if (e.name == "not_specified") return Term{Type::Boolean(), ops_.True()};
      return Unsupported(e, absl::StrCat("'\\", e.name, "' as a value"));
    case ExprKind::kJmlCall: return LowerJmlCall(e);
    case ExprKind::kLabeled: return Lower(*e.operands[0]);
    case ExprKind::kInformal: return Unsupported(e, "informal description (* ... *)");
    default: return Unsupported(e, absl::StrCat("expression '", Text(e), "'"));
  }
}

Term Lowering::StaticConstant(const Expr& e, bool* found) {
  *found = true;
  const std::string& owner = e.sym.owner;
  const std::string& name = e.name;
  if (name == "MAX_VALUE" || name == "MIN_VALUE") {
    bool max = name == "MAX_VALUE";
    if (owner == "java.lang.Integer") return Term{Type::Int(), ops_.Int(max ? INT32_MAX : INT32_MIN)};
    if (owner == "java.lang.Long") return Term{Type::Long(), ops_.Long(max ? INT64_MAX : INT64_MIN)};
    if (owner == "java.lang.Short") return Term{Type::Short(), ops_.Int(max ? INT16_MAX : INT16_MIN)};
    if (owner == "java.lang.Byte") return Term{Type::Byte(), ops_.Int(max ? INT8_MAX : INT8_MIN)};
    if (owner == "java.lang.Character") return Term{Type::Char(), ops_.Int(max ? 0xffff : 0)};
  }
  bool is_double = owner == "java.lang.Double";
  if (is_double || owner == "java.lang.Float") {
    auto fp = [&](double d, float f) {
      return is_double ? Term{Type::Double(), ops_.Double(d)} : Term{Type::Float(), ops_.Float(f)};
    };
    if (name == "NaN") return fp(std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<float>::quiet_NaN());
    if (name == "POSITIVE_INFINITY") return fp(HUGE_VAL, HUGE_VALF);
    if (name == "NEGATIVE_INFINITY") return fp(-HUGE_VAL, -HUGE_VALF);
    if (name == "MAX_VALUE") return fp(std::numeric_limits<double>::max(), std::numeric_limits<float>::max());
    if (name == "MIN_VALUE") {
      return fp(std::numeric_limits<double>::denorm_min(), std::numeric_limits<float>::denorm_min());
    }
    if (name == "MIN_NORMAL") return fp(std::numeric_limits<double>::min(), std::numeric_limits<float>::min());
  }
  if (owner == "java.lang.Math" && name == "PI") return Term{Type::Double(), ops_.Double(3.141592653589793)};
  if (owner == "java.lang.Math" && name == "E") return Term{Type::Double(), ops_.Double(2.718281828459045)};
  *found = false;
  return Term{Type::Error(), ops_.Int(0)};
}

absl::StatusOr<Term> Lowering::LowerName(const Expr& e) {
  switch (e.sym.kind) {
    case SymbolKind::kParameter:
      if (e.sym.index < 0 || e.sym.index >= static_cast<int>(states_.args.size())) {
        return jml::ErrorAt(e.span, absl::StrCat("parameter '", e.name, "' has no value"));
      }
      return FromValue(states_.args[e.sym.index], e.type);
    case SymbolKind::kField:
      return LowerField(e);
    case SymbolKind::kLocal: {
      auto it = states_.locals.find(e.name);
      if (it == states_.locals.end()) {
        return jml::ErrorAt(e.span, absl::StrCat("local variable '", e.name, "' is not live here"));
      }
      return FromValue(it->second, e.type);
    }
    case SymbolKind::kBoundVar: {
      auto it = bound_.find({e.sym.binder, e.sym.index});
      if (it == bound_.end()) return jml::ErrorAt(e.span, absl::StrCat("'", e.name, "' is not bound"));
      return it->second;
    }
    case SymbolKind::kOldVar:
    case SymbolKind::kSignalsVar:
    case SymbolKind::kForallVar: {
      auto it = named_.find(e.name);
      if (it == named_.end()) return jml::ErrorAt(e.span, absl::StrCat("'", e.name, "' has no value here"));
      return it->second;
    }
    case SymbolKind::kGhostLocal: {
      auto it = named_.find(e.name);
      if (it == named_.end()) {
        return Unsupported(e, absl::StrCat("ghost variable '", e.name,
                                           "' has no value here (ghost variables have values in "
                                           "the method body after their declaration, when every "
                                           "ghost statement has a place and a value)"));
      }
      return it->second;
    }
    default:
      return Unsupported(e, absl::StrCat("name '", e.name, "'"));
  }
}

absl::StatusOr<Term> Lowering::LowerField(const Expr& e) {
  if (e.sym.kind == SymbolKind::kArrayLength) {
    TS_ASSIGN_OR_RETURN(Term a, Lower(*e.operands[0]));
    NoteUndefined(ops_.Eq(a.e, ops_.Null()), e, "null dereference");
    return Term{Type::Int(), machine_.ArrayLength(a.e)};
  }
  if (e.sym.kind != SymbolKind::kField) return Unsupported(e, absl::StrCat("'", Text(e), "' as a value"));
  if (e.sym.is_model && !e.sym.is_static && represents_ != nullptr &&
      represents_->count(e.name) > 0 && model_depth_ < 16) {
    // The model field's value: its represents clause, read from the object.
    std::optional<symex::Value> object = states_.receiver;
    if (e.kind == ExprKind::kFieldAccess && e.operands.size() == 1 &&
        e.operands[0]->kind != ExprKind::kSuper) {
      TS_ASSIGN_OR_RETURN(Term o, Lower(*e.operands[0]));
      NoteUndefined(ops_.Eq(o.e, ops_.Null()), e, "null dereference");
      object = symex::Value{symex::Kind::kRef, o.e};
    }
    if (!object) return jml::ErrorAt(e.span, "model field without an object");
    std::optional<symex::Value> saved = states_.receiver;
    states_.receiver = object;
    ++model_depth_;
    absl::StatusOr<Term> v = Lower(*represents_->at(e.name));
    --model_depth_;
    states_.receiver = saved;
    TS_RETURN_IF_ERROR(v.status());
    return Convert(*v, e.type);
  }
  if (e.sym.is_ghost && !e.sym.is_static) {
    // A ghost field of the receiver: state the method's entry and its set
    // statements give values to (ghost fields of other objects have none).
    bool of_this = model_depth_ == 0 &&
                   (e.kind == ExprKind::kName || e.operands.empty() ||
                    e.operands[0]->kind == ExprKind::kThis);
    const std::map<std::string, Term>& values =
        in_post_ && states_.post != nullptr ? states_.ghost_post : states_.ghost_pre;
    auto it = values.find(e.name);
    if (of_this && it != values.end()) return Convert(it->second, e.type);
    return Unsupported(e, of_this ? absl::StrCat("ghost field '", e.name,
                                                 "' has no value here (a ghost statement of the "
                                                 "body has no place in the bytecode)")
                                  : absl::StrCat("ghost field '", e.name,
                                                 "' of an object other than this"));
  }
  if (e.sym.is_model || e.sym.is_ghost) {
    return Unsupported(e, absl::StrCat(e.sym.is_model ? "model" : "ghost", " field '", e.name,
                                       "'", e.sym.is_model ? " without a represents clause" : ""));
  }
  const symex::FieldInfo* field = machine_.program().ResolveField(
      classfile::BinaryToInternal(e.sym.owner), e.name, e.sym.descriptor);
  if (e.sym.is_static) {
    bool found = false;
    Term c = StaticConstant(e, &found);
    if (found) return Convert(c, e.type);
    if (field == nullptr || field->decl == nullptr) {
      return Unsupported(e, absl::StrCat("static field ", e.sym.owner, ".", e.name,
                                         " of a library class"));
    }
    const symex::ClassInfo* owner = machine_.program().FindClass(field->owner);
    if (owner != nullptr && machine_.MayBeUninitialized(heap(), *owner)) {
      return Unsupported(e, absl::StrCat("static field ", e.sym.owner, ".", e.name, " where ",
                                         e.sym.owner, " may not be initialised yet"));
    }
    return FromValue(machine_.ReadStatic(heap(), *field), e.type);
  }
  if (field == nullptr) {
    return jml::ErrorAt(e.span, absl::StrCat("field ", e.sym.owner, ".", e.name,
                                             " is not in the class files"));
  }
  z3::expr object = ops_.Null();
  if (e.kind == ExprKind::kFieldAccess && e.operands.size() == 1 &&
      e.operands[0]->kind != ExprKind::kSuper) {
    TS_ASSIGN_OR_RETURN(Term o, Lower(*e.operands[0]));
    object = o.e;
    NoteUndefined(ops_.Eq(object, ops_.Null()), e, "null dereference");
  } else {
    if (!states_.receiver) return jml::ErrorAt(e.span, "instance field in a static method");
    object = states_.receiver->e;
  }
  return FromValue(machine_.ReadField(heap(), object, *field), e.type);
}

absl::StatusOr<Term> Lowering::LowerArrayAccess(const Expr& e) {
  TS_ASSIGN_OR_RETURN(Term a, Lower(*e.operands[0]));
  TS_ASSIGN_OR_RETURN(Term i, Lower(*e.operands[1]));
  if (!a.type.IsArray()) return Unsupported(e, "element of a non-array");
  Term index = Convert(i, Type::Int());
  z3::expr len = machine_.ArrayLength(a.e);
  z3::expr is_null = ops_.Eq(a.e, ops_.Null());
  NoteUndefined(is_null, e, "null dereference");
  NoteUndefined(ops_.And(ops_.Not(is_null), ops_.Or(ops_.Lt(index.e, ops_.Int(0)),
                                                     ops_.Le(len, index.e))),
                e, "index out of bounds");
  symex::Value v = machine_.ReadElement(heap(), a.e, index.e, a.type.Descriptor());
  return FromValue(v, e.type);
}

// A fresh array, allocated as the bytecode's newarray (multianewarray)
// does: its length is a background fact; its elements, the defaults and
// then the initializer's values or the rows, are written into the heap the
// rest of the clause reads (as the heap after a pure call that allocated;
// the allocation axiom speaks of the initial heap only, not of a heap
// havocked by a loop).
absl::StatusOr<Term> Lowering::LowerNewArray(const Expr& e) {
  const Type& type = e.type;
  if (!type.IsArray()) return Unsupported(e, "creation of a non-array type");
  if (!quantified_.empty()) {
    // Its length would be a background fact over a quantified variable.
    return Unsupported(e, absl::StrCat("array creation '", Text(e),
                                       "' inside a quantifier whose range is not expanded"));
  }
  // The sizes or elements first (they may read or extend the heap), then
  // the arrays in the heap they leave.
  std::optional<z3::expr> ref;
  if (e.flag) {
    std::vector<z3::expr> values;
    TS_RETURN_IF_ERROR(LowerInitializerValues(e.operands, type, &values));
    symex::Heap written = heap();
    size_t next = 0;
    TS_ASSIGN_OR_RETURN(ref, AllocateInitialized(e, e.operands, type, values, &next, written));
    SetHeapAfterCalls(std::move(written));
  } else {
    // Every dimension is evaluated before any is checked (JLS §15.10.2).
    std::vector<z3::expr> counts;
    z3::expr negative = ops_.False();
    for (const jml::ExprPtr& op : e.operands) {
      TS_ASSIGN_OR_RETURN(Term n, Lower(*op));
      counts.push_back(Convert(n, Type::Int()).e);
      negative = ops_.Or(negative, ops_.Lt(counts.back(), ops_.Int(0)));
    }
    NoteUndefined(negative, e, "negative array size");
    symex::Heap written = heap();
    int rows = 0;
    TS_ASSIGN_OR_RETURN(ref, AllocateArrays(e, type, counts, negative, 0, written, &rows));
    SetHeapAfterCalls(std::move(written));
  }
  return Term{type, *ref};
}

// The heap the rest of the clause reads, in the state it is lowered in.
void Lowering::SetHeapAfterCalls(symex::Heap heap) {
  if (in_post_ && states_.post != nullptr) {
    post_after_calls_ = std::move(heap);
  } else {
    pre_after_calls_ = std::move(heap);
  }
}

// One array of `type` and `length` (0 where `negative`: the clause is
// undefined there, and 0 keeps the background fact true of every state),
// its elements the defaults in `written`.
absl::StatusOr<z3::expr> Lowering::AllocateArray(const Expr& e, const Type& type,
                                                 const z3::expr& length, const z3::expr& negative,
                                                 symex::Heap& written) {
  std::string descriptor = type.Descriptor();
  std::optional<z3::expr> ref = machine_.NewArray(descriptor, ops_.Ite(negative, ops_.Int(0), length));
  if (!ref) {
    return Unsupported(e, absl::StrCat("creation of ", type.ToString(),
                                       " in a specification (no such array type in the program)"));
  }
  machine_.WriteDefaultElements(written, *ref, descriptor);
  return *ref;
}

// `new T[c0][c1]...[]`: the array of dimension `dim` and, below it, its rows
// (a row is built for each index, so every size but the last given must be
// a constant).
absl::StatusOr<z3::expr> Lowering::AllocateArrays(const Expr& e, const Type& type,
                                                  const std::vector<z3::expr>& counts,
                                                  const z3::expr& negative, size_t dim,
                                                  symex::Heap& written, int* rows) {
  TS_ASSIGN_OR_RETURN(z3::expr ref, AllocateArray(e, type, counts[dim], negative, written));
  if (dim + 1 >= counts.size()) return ref;
  std::optional<uint64_t> n = symex::JavaOps::BvValue(counts[dim].simplify());
  if (!n) {
    return Unsupported(e, absl::StrCat("multi-dimensional array creation '", Text(e),
                                       "' whose size ", dim + 1, " is not a constant"));
  }
  int32_t length = static_cast<int32_t>(*n);
  if (length < 0) return ref;  // undefined (noted): no rows
  constexpr int kMaxRows = 256;
  *rows += length;
  if (*rows > kMaxRows) {
    return Unsupported(e, absl::StrCat("multi-dimensional array creation '", Text(e),
                                       "' with more than ", kMaxRows, " rows"));
  }
  std::string descriptor = type.Descriptor();
  for (int32_t i = 0; i < length; ++i) {
    TS_ASSIGN_OR_RETURN(z3::expr row, AllocateArrays(e, type.ElementType(), counts, negative,
                                                     dim + 1, written, rows));
    machine_.WriteElement(written, ref, ops_.Int(i), descriptor,
                          symex::Value{symex::Kind::kRef, row});
  }
  return ref;
}

// The values of an initializer's elements, depth first (a nested `{...}`
// for an array element gives its own), converted to the element type.
absl::Status Lowering::LowerInitializerValues(const std::vector<jml::ExprPtr>& elements,
                                              const Type& type, std::vector<z3::expr>* values) {
  Type element = type.ElementType();
  for (const jml::ExprPtr& op : elements) {
    if (op->kind == ExprKind::kArrayInit) {
      TS_RETURN_IF_ERROR(LowerInitializerValues(op->operands, element, values));
      continue;
    }
    TS_ASSIGN_OR_RETURN(Term v, Lower(*op));
    values->push_back(ToStored(Convert(v, element)));
  }
  return absl::OkStatus();
}

// `new T[]{e, ...}`: an array of the elements' values (`values` from
// `*next` on, as LowerInitializerValues gave them), a nested `{...}` an
// array of its own.
absl::StatusOr<z3::expr> Lowering::AllocateInitialized(const Expr& e,
                                                       const std::vector<jml::ExprPtr>& elements,
                                                       const Type& type,
                                                       const std::vector<z3::expr>& values,
                                                       size_t* next, symex::Heap& written) {
  Type element = type.ElementType();
  std::vector<z3::expr> stored;
  for (const jml::ExprPtr& op : elements) {
    if (op->kind == ExprKind::kArrayInit) {
      TS_ASSIGN_OR_RETURN(z3::expr row,
                          AllocateInitialized(e, op->operands, element, values, next, written));
      stored.push_back(row);
    } else {
      stored.push_back(values[(*next)++]);
    }
  }
  z3::expr length = ops_.Int(static_cast<int32_t>(stored.size()));
  TS_ASSIGN_OR_RETURN(z3::expr ref, AllocateArray(e, type, length, ops_.False(), written));
  std::string descriptor = type.Descriptor();
  char d = descriptor[1] == '[' ? 'L' : descriptor[1];
  for (size_t i = 0; i < stored.size(); ++i) {
    machine_.WriteElement(written, ref, ops_.Int(static_cast<int32_t>(i)), descriptor,
                          symex::Value{symex::KindOfDescriptor(d), stored[i]});
  }
  return ref;
}

absl::StatusOr<Term> Lowering::LowerUnary(const Expr& e) {
  TS_ASSIGN_OR_RETURN(Term a, Lower(*e.operands[0]));
  switch (e.unary_op) {
    case jml::UnaryOp::kNot: return Term{Type::Boolean(), ops_.Not(BoolOf(a))};
    case jml::UnaryOp::kPlus: return Convert(a, e.type);
    case jml::UnaryOp::kMinus: {
      Term x = Convert(a, e.type);
      if (e.type.IsBigint()) return Term{e.type, -x.e};
      if (IsFp(e.type)) return Term{e.type, ops_.FNeg(x.e)};
      if (e.type.IsReal()) return Unsupported(e, "\\real arithmetic");
      return Term{e.type, ops_.Neg(x.e)};
    }
    case jml::UnaryOp::kComplement: {
      Term x = Convert(a, e.type);
      if (e.type.IsBigint()) return Unsupported(e, "'~' on \\bigint");
      return Term{e.type, ~x.e};
    }
  }
  return Unsupported(e, "unary operator");
}

absl::StatusOr<Term> Lowering::LowerBinary(const Expr& e) {
  const Expr& le = *e.operands[0];
  const Expr& re = *e.operands[1];
  BinaryOp op = e.binary_op;
  // Short-circuit operators: the right operand is evaluated only when needed.
  if (op == BinaryOp::kAnd || op == BinaryOp::kOr || op == BinaryOp::kImplies) {
    TS_ASSIGN_OR_RETURN(z3::expr a, LowerBool(le));
    z3::expr when = op == BinaryOp::kOr ? ops_.Not(a) : a;
    absl::StatusOr<z3::expr> b = [&] {
      Scope s(*this, when);
      return LowerBool(re);
    }();
    TS_RETURN_IF_ERROR(b.status());
    z3::expr out = op == BinaryOp::kAnd ? ops_.And(a, *b)
                   : op == BinaryOp::kOr ? ops_.Or(a, *b)
                                         : ops_.Implies(a, *b);
    return Term{Type::Boolean(), out};
  }
  if (op == BinaryOp::kReverseImplies) {
    TS_ASSIGN_OR_RETURN(z3::expr b, LowerBool(re));
    absl::StatusOr<z3::expr> a = [&] {
      Scope s(*this, b);
      return LowerBool(le);
    }();
    TS_RETURN_IF_ERROR(a.status());
    return Term{Type::Boolean(), ops_.Implies(b, *a)};
  }
  TS_ASSIGN_OR_RETURN(Term l, Lower(le));
  TS_ASSIGN_OR_RETURN(Term r, Lower(re));
  auto both_bool = [&] { return l.type.IsBoolean() || r.type.IsBoolean(); };
  switch (op) {
    case BinaryOp::kEquiv: return Term{Type::Boolean(), BoolOf(l) == BoolOf(r)};
    case BinaryOp::kInequiv: return Term{Type::Boolean(), BoolOf(l) != BoolOf(r)};
    case BinaryOp::kEq:
    case BinaryOp::kNe: {
      z3::expr eq = ops_.True();
      bool numeric = (l.type.IsNumeric() || r.type.IsNumeric()) && !l.type.IsNull() &&
                     !r.type.IsNull();
      if (both_bool()) {
        eq = BoolOf(Convert(l, Type::Boolean())) == BoolOf(Convert(r, Type::Boolean()));
      } else if (numeric) {
        Type t = Promote(l.type, r.type);
        if (t.IsReal()) return Unsupported(e, "\\real arithmetic");
        Term x = Convert(l, t), y = Convert(r, t);
        eq = IsFp(t) ? ops_.FEq(x.e, y.e) : x.e == y.e;
      } else {
        eq = ops_.Eq(l.e, r.e);
      }
      return Term{Type::Boolean(), op == BinaryOp::kEq ? eq : ops_.Not(eq)};
    }
    case BinaryOp::kLt:
    case BinaryOp::kLe:
    case BinaryOp::kGt:
    case BinaryOp::kGe: {
      Type t = Promote(l.type, r.type);
      if (t.IsReal()) return Unsupported(e, "\\real arithmetic");
      Term x = Convert(l, t), y = Convert(r, t);
      if (op == BinaryOp::kGt || op == BinaryOp::kGe) std::swap(x, y);
      bool strict = op == BinaryOp::kLt || op == BinaryOp::kGt;
      z3::expr out = t.IsBigint() ? (strict ? x.e < y.e : x.e <= y.e)
                     : IsFp(t)    ? (strict ? ops_.FLt(x.e, y.e) : ops_.FLe(x.e, y.e))
                                  : (strict ? ops_.Lt(x.e, y.e) : ops_.Le(x.e, y.e));
      return Term{Type::Boolean(), out};
    }
    case BinaryOp::kBitAnd:
    case BinaryOp::kBitOr:
    case BinaryOp::kBitXor: {
      if (both_bool()) {
        z3::expr a = BoolOf(l), b = BoolOf(r);
        z3::expr out = op == BinaryOp::kBitAnd ? (a && b) : op == BinaryOp::kBitOr ? (a || b) : (a != b);
        return Term{Type::Boolean(), out};
      }
      if (e.type.IsBigint()) return Unsupported(e, "bit operations on \\bigint");
      Term x = Convert(l, e.type), y = Convert(r, e.type);
      z3::expr out = op == BinaryOp::kBitAnd ? ops_.BitAnd(x.e, y.e)
                     : op == BinaryOp::kBitOr ? ops_.BitOr(x.e, y.e)
                                              : ops_.BitXor(x.e, y.e);
      return Term{e.type, out};
    }
    case BinaryOp::kShl:
    case BinaryOp::kShr:
    case BinaryOp::kUshr: {
      if (e.type.IsBigint()) return Unsupported(e, "shifts on \\bigint");
      Term x = Convert(l, e.type);
      Term n = Convert(r, r.type.Is(TK::kLong) ? Type::Long() : Type::Int());
      z3::expr count = n.type.Is(TK::kLong) ? ops_.L2I(n.e) : n.e;
      z3::expr out = op == BinaryOp::kShl ? ops_.Shl(x.e, count)
                     : op == BinaryOp::kShr ? ops_.Shr(x.e, count)
                                            : ops_.Ushr(x.e, count);
      return Term{e.type, out};
    }
    case BinaryOp::kAdd:
    case BinaryOp::kSub:
    case BinaryOp::kMul:
    case BinaryOp::kDiv:
    case BinaryOp::kRem: {
      const Type& t = e.type;
      if (t.IsClass()) return LowerConcat(e, l, r);
      if (t.IsReal()) return Unsupported(e, "\\real arithmetic");
      Term x = Convert(l, t), y = Convert(r, t);
      if (t.IsBigint()) {
        if (op == BinaryOp::kAdd) return Term{t, x.e + y.e};
        if (op == BinaryOp::kSub) return Term{t, x.e - y.e};
        if (op == BinaryOp::kMul) return Term{t, x.e * y.e};
        NoteUndefined(y.e == ops_.ctx().int_val(0), e, "division by zero");
        // Truncating division, as Java's.
        z3::expr zero = ops_.ctx().int_val(0);
        z3::expr q = z3::ite(x.e >= zero, z3::ite(y.e > zero, x.e / y.e, -(x.e / -y.e)),
                             z3::ite(y.e > zero, -((-x.e) / y.e), (-x.e) / (-y.e)));
        return Term{t, op == BinaryOp::kDiv ? q : x.e - y.e * q};
      }
      if (IsFp(t)) {
        z3::expr out = op == BinaryOp::kAdd ? ops_.FAdd(x.e, y.e)
                       : op == BinaryOp::kSub ? ops_.FSub(x.e, y.e)
                       : op == BinaryOp::kMul ? ops_.FMul(x.e, y.e)
                       : op == BinaryOp::kDiv ? ops_.FDiv(x.e, y.e)
                                              : ops_.FRem(x.e, y.e);
        return Term{t, out};
      }
      if (op == BinaryOp::kAdd) return Term{t, ops_.Add(x.e, y.e)};
      if (op == BinaryOp::kSub) return Term{t, ops_.Sub(x.e, y.e)};
      if (op == BinaryOp::kMul) return Term{t, ops_.Mul(x.e, y.e)};
      z3::expr zero = t.Is(TK::kLong) ? ops_.Long(0) : ops_.Int(0);
      NoteUndefined(ops_.Eq(y.e, zero), e, "division by zero");
      return Term{t, op == BinaryOp::kDiv ? ops_.Div(x.e, y.e) : ops_.Rem(x.e, y.e)};
    }
    case BinaryOp::kSubtype: return Unsupported(e, "the subtype operator '<:'");
    default: break;
  }
  return Unsupported(e, absl::StrCat("operator '", jml::BinaryOpText(op), "'"));
}

absl::StatusOr<Term> Lowering::LowerCast(const Expr& e) {
  TS_ASSIGN_OR_RETURN(Term v, Lower(*e.operands[0]));
  const Type& to = e.type;
  if (to.IsReference()) {
    if (v.type.IsReference()) {
      z3::expr fails = ops_.And(ops_.Not(ops_.Eq(v.e, ops_.Null())),
                                ops_.Not(machine_.InstanceOf(v.e, InternalTypeName(to))));
      NoteUndefined(fails, e, "failing cast");
      return Term{to, v.e};
    }
    return Unsupported(e, "boxing conversion");
  }
  if (to.IsReal() || v.type.IsReal()) return Unsupported(e, "\\real arithmetic");
  return Convert(v, to);
}

absl::StatusOr<Term> Lowering::LowerCall(const Expr& e) {
  if (e.sym.kind != SymbolKind::kMethod) return Unsupported(e, "call");
  std::vector<const Expr*> arg_exprs = jml::Arguments(e);
  auto desc = jml::ParseMethodDescriptor(e.sym.descriptor);
  if (!desc.ok() || desc->params.size() != arg_exprs.size()) {
    return jml::ErrorAt(e.span, absl::StrCat("call '", Text(e), "' does not match ", e.sym.descriptor));
  }
  std::vector<Term> args;
  for (size_t i = 0; i < arg_exprs.size(); ++i) {
    TS_ASSIGN_OR_RETURN(Term a, Lower(*arg_exprs[i]));
    args.push_back(Convert(a, desc->params[i]));
  }
  std::optional<symex::Value> receiver;
  if (!e.sym.is_static) {
    const Expr* r = jml::Receiver(e);
    if (r == nullptr || r->kind == ExprKind::kSuper) {
      if (!states_.receiver) return jml::ErrorAt(e.span, "instance method call in a static method");
      receiver = *states_.receiver;
    } else {
      TS_ASSIGN_OR_RETURN(Term o, Lower(*r));
      NoteUndefined(ops_.Eq(o.e, ops_.Null()), e, "null dereference");
      receiver = symex::Value{symex::Kind::kRef, o.e};
    }
  }
  std::vector<symex::Value> values;
  for (size_t i = 0; i < args.size(); ++i) {
    char d = desc->params[i].Descriptor().empty() ? 'I' : desc->params[i].Descriptor()[0];
    values.push_back(symex::Value{symex::KindOfDescriptor(d == '[' ? 'L' : d), ToStored(args[i])});
  }
  return CallPure(e, receiver, std::move(values));
}

absl::StatusOr<Term> Lowering::CallPure(const Expr& e, std::optional<symex::Value> receiver,
                                        std::vector<symex::Value> args) {
  const symex::Program& program = machine_.program();
  std::string owner = classfile::BinaryToInternal(e.sym.owner);
  const std::string& name = e.name;
  const std::string& descriptor = e.sym.descriptor;
  const symex::MethodInfo* target = nullptr;
  if (const Expr* r = jml::Receiver(e); r != nullptr && r->type.IsArray() && receiver &&
                                        name == "equals" && args.size() == 1 &&
                                        descriptor == "(Ljava/lang/Object;)Z") {
    // An array's equals is Object's: the same object (Arrays.equals
    // compares the elements).
    return Term{Type::Boolean(), ops_.Eq(receiver->e, args[0].e)};
  }
  if (model_methods_ != nullptr && e.sym.owner == model_methods_->owner &&
      model_depth_ < 16) {
    auto body = model_methods_->bodies.find(absl::StrCat(name, descriptor));
    if (body != model_methods_->bodies.end()) {
      // A model method with a body: its `return e;` read with the call's
      // arguments and receiver (the same state as the call).
      std::optional<symex::Value> saved_receiver = states_.receiver;
      std::vector<symex::Value> saved_args = states_.args;
      if (!e.sym.is_static) states_.receiver = receiver;
      states_.args = std::move(args);
      ++model_depth_;
      absl::StatusOr<Term> v = Lower(*body->second);
      --model_depth_;
      states_.receiver = saved_receiver;
      states_.args = std::move(saved_args);
      TS_RETURN_IF_ERROR(v.status());
      return Convert(*v, e.type);
    }
  }
  if (model_methods_ != nullptr && e.sym.owner == model_methods_->owner) {
    auto contract = model_methods_->contracts.find(absl::StrCat(name, descriptor));
    if (contract != model_methods_->contracts.end()) {
      return CallAxiomatised(e, contract->first, *contract->second, args);
    }
  }
  if (e.sym.is_static || name == "<init>") {
    symex::CallTarget t = program.ResolveStatic(owner, name, descriptor);
    if (t.kind == symex::CallTarget::Kind::kBytecode) target = t.method;
    if (t.kind == symex::CallTarget::Kind::kLibrary) {
      return CallModel(e, t.library_key, std::move(receiver), std::move(args));
    }
  } else {
    std::vector<symex::DispatchCase> cases = program.Dispatch(owner, name, descriptor);
    // One modelled library method whatever the receiver's class.
    if (!cases.empty() && std::all_of(cases.begin(), cases.end(), [&](const symex::DispatchCase& c) {
          return c.target.kind == symex::CallTarget::Kind::kLibrary &&
                 c.target.library_key == cases.front().target.library_key;
        })) {
      return CallModel(e, cases.front().target.library_key, std::move(receiver), std::move(args));
    }
    for (const symex::DispatchCase& c : cases) {
      if (c.target.kind != symex::CallTarget::Kind::kBytecode) {
        return Unsupported(e, absl::StrCat("call '", Text(e), "': an implementation is not bytecode (",
                                           c.target.reason, ")"));
      }
      if (target != nullptr && target != c.target.method) {
        return Unsupported(e, absl::StrCat("call '", Text(e),
                                           "' with several implementations (dynamic dispatch)"));
      }
      target = c.target.method;
    }
  }
  if (e.sym.is_model && (target == nullptr || !target->has_code())) {
    return Unsupported(e, absl::StrCat("call of model method ", e.sym.owner, ".", name, descriptor,
                                       " whose body is not a single `return e;` (a model method "
                                       "is inlined from such a body, or axiomatised by its "
                                       "contract when it has none)"));
  }
  if (target == nullptr || !target->has_code()) {
    const symex::ClassInfo* cls = program.FindClass(owner);
    if (cls == nullptr || cls->origin != symex::ClassInfo::Origin::kClassPath) {
      return Unsupported(e, absl::StrCat("call of ", e.sym.owner, ".", name, descriptor,
                                         " in a specification is not modelled by the validator"));
    }
    return Unsupported(e, absl::StrCat("call of ", e.sym.owner, ".", name, descriptor,
                                       " (no bytecode to inline)"));
  }
  return RunPure(e, target, std::move(receiver), std::move(args));
}

absl::StatusOr<z3::expr> Lowering::ModelContract(const jml::MethodDecl& decl,
                                                  const std::vector<symex::Value>& args,
                                                  const symex::Value& result, z3::expr* pre) {
  auto refused = [](const std::string& why) { return absl::FailedPreconditionError(why); };
  std::vector<jml::FlatCase> cases = jml::FlattenSpecCases(decl.spec);
  for (const jml::FlatCase& c : cases) {
    if (c.behavior != jml::Behavior::kLightweight && c.behavior != jml::Behavior::kNormal) {
      return refused(absl::StrCat(c.label, " of its specification may throw"));
    }
    if (!c.vars.empty()) return refused(absl::StrCat(c.label, " declares specification variables"));
    for (const jml::Clause* clause : c.clauses) {
      if (clause->kind == jml::ClauseKind::kAssignable ||
          clause->kind == jml::ClauseKind::kAccessible) {
        continue;  // a model method is pure
      }
      if ((clause->kind != jml::ClauseKind::kRequires &&
           clause->kind != jml::ClauseKind::kEnsures) ||
          clause->pred == nullptr || clause->pred->kind == ExprKind::kJmlKeyword) {
        return refused(absl::StrCat("its clause '", jml::ClauseKeyword(clause->kind), "' (",
                                    clause->span.ToString(), ") is not axiomatised"));
      }
      std::string reads = ReadsBeyondArguments(*clause->pred);
      if (!reads.empty()) {
        return refused(absl::StrCat("its specification reads more than its arguments: ", reads,
                                    " (", clause->span.ToString(), ")"));
      }
    }
  }
  // Lowered in a state of its own: the arguments and the result, nothing
  // known, nothing undefined.
  std::optional<symex::Value> saved_receiver = states_.receiver;
  std::vector<symex::Value> saved_args = states_.args;
  std::optional<symex::Value> saved_result = states_.result;
  z3::expr saved_guard = guard_;
  size_t undefined_mark = undefined_.size();
  size_t obligations_mark = call_obligations_.size();
  states_.receiver.reset();
  states_.args = args;
  states_.result = result;
  guard_ = ops_.True();
  in_model_contract_ = true;
  absl::Status failed;
  z3::expr all = ops_.True();
  *pre = cases.empty() ? ops_.True() : ops_.False();
  for (const jml::FlatCase& c : cases) {
    z3::expr assumed = ops_.True(), promised = ops_.True();
    for (const jml::Clause* clause : c.clauses) {
      bool is_requires = clause->kind == jml::ClauseKind::kRequires;
      if (!is_requires && clause->kind != jml::ClauseKind::kEnsures) continue;
      absl::StatusOr<z3::expr> p = LowerBool(*clause->pred);
      if (!p.ok()) {
        failed = p.status();
        break;
      }
      z3::expr& part = is_requires ? assumed : promised;
      part = ops_.And(part, *p);
    }
    if (!failed.ok()) break;
    all = ops_.And(all, ops_.Implies(assumed, promised));
    *pre = ops_.Or(*pre, assumed);
  }
  in_model_contract_ = false;
  states_.receiver = saved_receiver;
  states_.args = std::move(saved_args);
  states_.result = saved_result;
  guard_ = saved_guard;
  bool undefined = undefined_.size() > undefined_mark;
  bool calls = call_obligations_.size() > obligations_mark;
  undefined_.erase(undefined_.begin() + static_cast<ptrdiff_t>(undefined_mark), undefined_.end());
  call_obligations_.erase(call_obligations_.begin() + static_cast<ptrdiff_t>(obligations_mark),
                          call_obligations_.end());
  if (!failed.ok()) {
    return refused(absl::StrCat("its specification cannot be lowered (", failed.message(), ")"));
  }
  if (undefined || calls) return refused("its specification may be undefined");
  return all;
}

absl::StatusOr<Term> Lowering::CallAxiomatised(const Expr& e, const std::string& key,
                                               const jml::MethodDecl& decl,
                                               const std::vector<symex::Value>& args) {
  std::string what = absl::StrCat("model method ", e.sym.owner, ".", key);
  auto unsupported = [&](const std::string& why) {
    return Unsupported(e, absl::StrCat("call of ", what, " (declared without a body, so "
                                       "axiomatised by its contract): ", why));
  };
  if (in_model_contract_) {
    return unsupported("called in the specification of a model method without a body "
                       "(nested and recursive ones are not axiomatised)");
  }
  auto desc = jml::ParseMethodDescriptor(e.sym.descriptor);
  if (!desc.ok()) return unsupported(std::string(desc.status().message()));
  bool primitive = !desc->result.IsReference() && !desc->result.IsVoid();
  for (const Type& t : desc->params) primitive &= !t.IsReference();
  if (!primitive) return unsupported("only model methods over primitive values are axiomatised");
  z3::context& ctx = ops_.ctx();
  char r = desc->result.Descriptor()[0];
  z3::sort range = ops_.StoredSort(r);
  symex::Kind kind = symex::KindOfDescriptor(r);
  // Once per method: whether its contract admits a result for every
  // argument that meets its precondition. Only then is assuming it at
  // every call sound (a contract without a result would make every
  // query vacuous).
  auto known = model_methods_->feasible.find(key);
  if (known == model_methods_->feasible.end()) {
    std::vector<symex::Value> params;
    for (size_t i = 0; i < desc->params.size(); ++i) {
      params.push_back(machine_.Fresh(desc->params[i].Descriptor(),
                                      absl::StrCat(decl.name, "!arg", i, "!", fresh_++)));
    }
    z3::expr any = ctx.constant(absl::StrCat(decl.name, "!result", fresh_++).c_str(), range);
    z3::expr pre(ctx);
    absl::StatusOr<z3::expr> contract =
        ModelContract(decl, params, symex::Value{kind, ops_.LoadAs(r, any)}, &pre);
    absl::Status verdict;
    if (!contract.ok()) {
      verdict = contract.status();
    } else {
      symex::SolveResult none = symex::Solve(ctx, {}, z3::forall(any, !*contract), deadline_,
                                             /*want_model=*/false);
      if (none.result == z3::sat) {
        verdict = absl::FailedPreconditionError(
            "its contract admits no result for some arguments that meet its precondition");
      } else if (none.result != z3::unsat) {
        verdict = absl::FailedPreconditionError(absl::StrCat(
            "whether its contract admits a result for every argument is undecided (",
            none.why_unknown, ")"));
      }
    }
    known = model_methods_->feasible.emplace(key, verdict).first;
  }
  if (!known->second.ok()) return unsupported(std::string(known->second.message()));
  // The call: an uninterpreted function of the arguments (one per
  // declaration), and its contract at these arguments as a background
  // axiom (under the variables of enclosing quantifiers).
  z3::sort_vector domain(ctx);
  z3::expr_vector actual(ctx);
  for (const symex::Value& a : args) {
    domain.push_back(a.e.get_sort());
    actual.push_back(a.e);
  }
  // Named by owner, name and descriptor (unique per declaration), never by
  // an address: the same inputs give the solver the same symbols.
  z3::func_decl f = ctx.function(what.c_str(), domain, range);
  symex::Value value{kind, ops_.LoadAs(r, f(actual))};
  z3::expr pre(ctx);
  absl::StatusOr<z3::expr> contract = ModelContract(decl, args, value, &pre);
  if (!contract.ok()) return unsupported(std::string(contract.status().message()));
  z3::expr axiom = *contract;
  if (!quantified_.empty()) {
    z3::expr_vector vars(ctx);
    for (const z3::expr& v : quantified_) vars.push_back(v);
    axiom = z3::forall(vars, axiom);
  }
  machine_.AddAxiom(axiom);
  NoteUndefined(ops_.Not(pre), e, absl::StrCat("call of ", what, " outside its precondition"));
  return FromValue(value, e.type);
}

absl::StatusOr<Term> Lowering::RunPure(const Expr& e, const symex::MethodInfo* target,
                                       std::optional<symex::Value> receiver,
                                       std::vector<symex::Value> args) {
  symex::EntryState entry{target, ops_.True(), heap(), receiver, std::move(args), {}, {}};
  TS_ASSIGN_OR_RETURN(symex::ExecutionResult run, machine_.Execute(entry));
  for (symex::Obligation& o : run.obligations) {
    o.condition = ops_.And(guard_, o.condition);
    call_obligations_.push_back(std::move(o));
  }
  if (run.exceptional) {
    NoteUndefined(run.exceptional->guard, e, absl::StrCat("exception thrown by ", target->DisplayName()));
  }
  if (run.normal) {
    // A pure method writes only objects it allocated; later reads in the
    // clause see them (the array Arrays.copyOf returns, with its elements).
    SetHeapAfterCalls(run.normal->heap);
  }
  if (!run.normal || !run.normal->value) {
    if (e.type.IsVoid()) return Term{e.type, ops_.True()};
    symex::Value fresh = machine_.Fresh(e.type.Descriptor(), absl::StrCat("call", fresh_++));
    return FromValue(fresh, e.type);
  }
  return FromValue(*run.normal->value, e.type);
}

absl::StatusOr<Term> Lowering::LowerConcat(const Expr& e, const Term& l, const Term& r) {
  // Java's string conversion of each operand (JLS 5.1.11), by the models
  // the executor runs for the same conversion in the bytecode: a string as
  // it is (null as "null"), a number, char or boolean through
  // String.valueOf; others have no modelled text.
  const symex::Program& program = machine_.program();
  std::vector<symex::Value> parts;
  for (const Term* t : {&l, &r}) {
    const Type& type = t->type;
    if (type.IsNull() || (type.IsClass() && type.class_name() == "java.lang.String")) {
      parts.push_back(symex::Value{symex::Kind::kRef, t->e});
      continue;
    }
    std::string d = type.Is(Type::Kind::kChar) || type.IsBoolean() ? type.Descriptor() : "I";
    if (!(type.Is(Type::Kind::kByte) || type.Is(Type::Kind::kShort) ||
          type.Is(Type::Kind::kInt) || d != "I")) {
      return Unsupported(e, absl::StrCat("string concatenation of a ", type.ToString(),
                                         " in a specification (its text is not modelled)"));
    }
    symex::CallTarget valueOf =
        program.ResolveStatic("java/lang/String", "valueOf", absl::StrCat("(", d, ")Ljava/lang/String;"));
    if (valueOf.kind != symex::CallTarget::Kind::kBytecode) {
      return absl::InternalError("the model of String.valueOf is missing");
    }
    Term arg = Convert(*t, d == "I" ? Type::Int() : type);
    symex::Value v{symex::KindOfDescriptor(d[0]), ToStored(arg)};
    TS_ASSIGN_OR_RETURN(Term text, RunPure(e, valueOf.method, std::nullopt, {v}));
    parts.push_back(symex::Value{symex::Kind::kRef, text.e});
  }
  symex::CallTarget plus = program.ResolveStatic(
      jdk::ModelClassName("java/lang/String"), "plus",
      "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;");
  if (plus.kind != symex::CallTarget::Kind::kBytecode) {
    return absl::InternalError("the model of string concatenation is missing");
  }
  return RunPure(e, plus.method, std::nullopt, std::move(parts));
}

absl::StatusOr<Term> Lowering::CallModel(const Expr& e, const std::string& key,
                                         std::optional<symex::Value> receiver,
                                         std::vector<symex::Value> args) {
  // The executor's model of the method (symex/library.cpp), so that a
  // specification and the code it describes mean the same by the call.
  if (receiver) args.insert(args.begin(), *receiver);
  auto call = machine_.CallLibraryModel(key, heap(), guard_, args);
  if (!call.ok()) {
    if (call.status().code() == absl::StatusCode::kNotFound) {
      return Unsupported(e, absl::StrCat("call of ", e.sym.owner, ".", e.name, e.sym.descriptor,
                                         " in a specification is not modelled by the validator"));
    }
    return call.status();
  }
  NoteUndefined(call->throws, e, absl::StrCat("exception thrown by ", e.sym.owner, ".", e.name));
  if (!call->value) {
    if (e.type.IsVoid()) return Term{e.type, ops_.True()};
    symex::Value fresh = machine_.Fresh(e.type.Descriptor(), absl::StrCat("call", fresh_++));
    return FromValue(fresh, e.type);
  }
  return FromValue(*call->value, e.type);
}

absl::StatusOr<Term> Lowering::LowerJmlCall(const Expr& e) {
  const std::string& n = e.name;
  if (n == "nonnullelements") {
    TS_ASSIGN_OR_RETURN(Term a, Lower(*e.operands[0]));
    z3::expr not_null = ops_.Not(ops_.Eq(a.e, ops_.Null()));
    z3::expr len = machine_.ArrayLength(a.e);
    std::string desc = a.type.Descriptor();
    // The elements of a primitive array are never null (an int element 0
    // is not the null reference).
    if (desc.size() < 2 || (desc[1] != 'L' && desc[1] != '[')) return Term{Type::Boolean(), not_null};
    int cap = machine_.options().max_array;
    TS_ASSIGN_OR_RETURN(bool small, ProvablyAtMost(ops_.ctx().bv_val(0, 66), z3::sext(len, 34), cap));
    z3::expr all = ops_.True();
    if (small) {
      for (int j = 0; j < cap; ++j) {
        z3::expr in = ops_.Lt(ops_.Int(j), len);
        z3::expr elem = machine_.ReadElement(heap(), a.e, ops_.Int(j), desc).e;
        all = ops_.And(all, ops_.Implies(in, ops_.Not(ops_.Eq(elem, ops_.Null()))));
      }
    } else {
      z3::expr i = ops_.ctx().bv_const(absl::StrCat("nne!", fresh_++).c_str(), 32);
      z3::expr elem = machine_.ReadElement(heap(), a.e, i, desc).e;
      z3::expr in = ops_.And(ops_.Le(ops_.Int(0), i), ops_.Lt(i, len));
      all = z3::forall(i, z3::implies(in, !(elem == ops_.Null())));
    }
    return Term{Type::Boolean(), ops_.And(not_null, all)};
  }
  if (n == "typeof") {
    TS_ASSIGN_OR_RETURN(Term a, Lower(*e.operands[0]));
    if (!a.type.IsReference()) return Unsupported(e, "\\typeof of a primitive value");
    NoteUndefined(ops_.Eq(a.e, ops_.Null()), e, "\\typeof(null)");
    return Term{Type::TypeOfType(), machine_.TypeOf(a.e)};
  }
  if (n == "type") {
    const Type& t = e.type_ref.resolved;
    int id = t.IsReference() ? machine_.program().TypeIdOf(InternalTypeName(t)) : 0;
    if (id == 0) return Unsupported(e, absl::StrCat("\\type(", t.ToString(), ") (not a concrete class)"));
    return Term{Type::TypeOfType(), ops_.TypeId(id)};
  }
  if (n == "fresh") {
    if (!in_post_) return jml::ErrorAt(e.span, "\\fresh outside a postcondition");
    z3::expr all = ops_.True();
    for (const auto& op : e.operands) {
      TS_ASSIGN_OR_RETURN(Term a, Lower(*op));
      all = ops_.And(all, ops_.And(ops_.Not(ops_.Eq(a.e, ops_.Null())),
                                   ops_.Not(machine_.ExistedAtEntry(a.e))));
    }
    return Term{Type::Boolean(), all};
  }
  if (n == "not_modified") {
    z3::expr all = ops_.True();
    for (const jml::StoreRef& r : e.store_refs) {
      if (r.kind != jml::StoreRef::Kind::kLocation || !r.expr) {
        return Unsupported(e, "\\not_modified of a location set");
      }
      bool saved = in_post_;
      in_post_ = false;
      absl::StatusOr<Term> before = Lower(*r.expr);
      in_post_ = true;
      absl::StatusOr<Term> after = before.ok() ? Lower(*r.expr) : before;
      in_post_ = saved;
      TS_RETURN_IF_ERROR(after.status());
      z3::expr same = IsFp(before->type) ? ops_.FEq(before->e, after->e)
                                         : (BoolOf(*before) == BoolOf(*after));
      if (!before->type.IsBoolean() && !IsFp(before->type)) same = before->e == after->e;
      all = ops_.And(all, same);
    }
    return Term{Type::Boolean(), all};
  }
  return Unsupported(e, absl::StrCat("'\\", n, "'"));
}

absl::StatusOr<bool> Lowering::ProvablyAtMost(const z3::expr& lo, const z3::expr& hi, int64_t n) {
  // 66-bit operands: hi - lo cannot wrap.
  z3::expr too_many = z3::sgt(hi - lo, ops_.ctx().bv_val(static_cast<uint64_t>(n), 66));
  too_many = too_many.simplify();
  if (too_many.is_false()) return true;
  if (too_many.is_true()) return false;
  symex::SolveResult r = symex::Solve(ops_.ctx(), machine_.axioms(),
                                      ops_.And(ops_.And(context_, guard_), too_many), deadline_,
                                      /*want_model=*/false);
  return r.result == z3::unsat;
}

absl::StatusOr<bool> Lowering::ExpandRange(const Expr& q, std::vector<Instance>* out) {
  const Type& vt = q.type_ref.resolved;
  bool integral = vt.Is(TK::kInt) || vt.Is(TK::kLong) || vt.Is(TK::kShort) ||
                  vt.Is(TK::kByte) || vt.Is(TK::kChar);
  if (!integral && !vt.IsBoolean()) return false;
  // Bounds come from the range and, for \forall / \exists / \num_of, from
  // the antecedent or conjuncts of the body (outside them the body is
  // trivially true / false).
  std::vector<const Expr*> conjuncts;
  if (const Expr* range = jml::QuantifierRange(q)) jml::CollectConjuncts(*range, &conjuncts);
  const Expr& body = jml::QuantifierBody(q);
  if (q.quantifier == jml::QuantifierKind::kForall && body.kind == ExprKind::kBinary &&
      body.binary_op == BinaryOp::kImplies) {
    jml::CollectConjuncts(*body.operands[0], &conjuncts);
  } else if (q.quantifier == jml::QuantifierKind::kExists ||
             q.quantifier == jml::QuantifierKind::kNumOf) {
    jml::CollectConjuncts(body, &conjuncts);
  }
  std::vector<jml::QuantifiedVarBounds> bounds = jml::ExtractBounds(q.bound_vars, conjuncts);
  const size_t n = q.bound_vars.size();
  std::vector<bool> done(n, false);
  int cap = machine_.options().max_array;
  auto mentions_unbound = [&](const Expr& x) {
    for (size_t k = 0; k < n; ++k) {
      if (!done[k] && jml::MentionsName(x, q.bound_vars[k].name)) return true;
    }
    return false;
  };
  // A bound of variable k usable now: one that mentions only variables with
  // values, or, through a bound that is another variable still without a
  // value (i < j, j < n), that variable's bound, taken inclusively (i <= n):
  // a superset of the values, which the range predicate then filters.
  auto index_of = [&](const Expr& x) -> int {
    if (x.kind != ExprKind::kName || x.sym.kind != SymbolKind::kBoundVar || x.sym.binder != &q) {
      return -1;
    }
    return x.sym.index;
  };
  std::function<std::optional<jml::VarBound>(size_t, bool, int)> find_bound =
      [&](size_t k, bool upper, int depth) -> std::optional<jml::VarBound> {
    const std::vector<jml::VarBound>& list = upper ? bounds[k].upper : bounds[k].lower;
    for (const jml::VarBound& b : list) {
      if (!mentions_unbound(*b.expr)) return b;
    }
    if (depth >= static_cast<int>(n)) return std::nullopt;
    for (const jml::VarBound& b : list) {
      int m = index_of(*b.expr);
      if (m < 0 || static_cast<size_t>(m) == k || done[m]) continue;
      std::optional<jml::VarBound> via = find_bound(static_cast<size_t>(m), upper, depth + 1);
      if (via) return jml::VarBound{via->expr, /*inclusive=*/true};
    }
    return std::nullopt;
  };
  unsigned width = vt.Is(TK::kLong) ? 64 : 32;
  std::vector<std::pair<int, Term>> current;
  // Expands the remaining variables in an order where each one's bounds
  // mention only variables already given values.
  std::function<absl::StatusOr<bool>(size_t)> expand = [&](size_t count) -> absl::StatusOr<bool> {
    if (count == n) {
      z3::expr range = ops_.True();
      if (const Expr* r = jml::QuantifierRange(q)) {
        TS_ASSIGN_OR_RETURN(range, LowerBool(*r));
      }
      out->push_back(Instance{range, current});
      return true;
    }
    for (size_t k = 0; k < n; ++k) {
      if (done[k]) continue;
      std::vector<Term> values;
      if (vt.IsBoolean()) {
        values = {Term{vt, ops_.False()}, Term{vt, ops_.True()}};
      } else {
        std::optional<jml::VarBound> lo = find_bound(k, /*upper=*/false, 0);
        std::optional<jml::VarBound> hi = find_bound(k, /*upper=*/true, 0);
        if (!lo || !hi) continue;
        TS_ASSIGN_OR_RETURN(Term lt, Lower(*lo->expr));
        TS_ASSIGN_OR_RETURN(Term ht, Lower(*hi->expr));
        if (!lt.type.IsNumeric() || !ht.type.IsNumeric() || lt.type.IsBigint() ||
            ht.type.IsBigint() || IsFp(lt.type) || IsFp(ht.type)) {
          continue;
        }
        // [l, h) in 66 bits, where neither the adjustments nor h - l wrap.
        z3::context& c = ops_.ctx();
        z3::expr l = z3::sext(Convert(lt, Type::Long()).e, 2);
        z3::expr h = z3::sext(Convert(ht, Type::Long()).e, 2);
        if (!lo->inclusive) l = l + c.bv_val(1, 66);  // lo < i
        if (hi->inclusive) h = h + c.bv_val(1, 66);   // i <= hi
        l = l.simplify();
        h = h.simplify();
        int64_t size = cap;
        auto lv = Signed66(l);
        auto hv = Signed66(h);
        if (lv && hv) {
          __int128 diff = *hv - *lv;
          if (diff > kConstantRangeCap) continue;
          size = diff < 0 ? 0 : static_cast<int64_t>(diff);
        } else {
          // The array cap first (ranges bounded by array lengths), then
          // larger ones for ranges a precondition bounds (n <= 20).
          bool small = false;
          int64_t previous = -1;
          for (int64_t n : {static_cast<int64_t>(cap), int64_t{16}, int64_t{64}, kConstantRangeCap}) {
            if (n <= previous) continue;
            previous = n;
            TS_ASSIGN_OR_RETURN(small, ProvablyAtMost(l, h, n));
            if (small) {
              size = n;
              break;
            }
          }
          if (!small) continue;
        }
        for (int64_t j = 0; j < size; ++j) {
          z3::expr v = (l + c.bv_val(static_cast<uint64_t>(j), 66)).extract(width - 1, 0).simplify();
          Term t{vt, v};
          if (!vt.Is(TK::kInt) && !vt.Is(TK::kLong)) t = Convert(Term{Type::Int(), v}, vt);
          values.push_back(t);
        }
        // Values past h (when fewer than the cap) fail the range predicate
        // or the body's antecedent, which every instance is checked against.
      }
      done[k] = true;
      for (const Term& v : values) {
        bound_.insert_or_assign({&q, static_cast<int>(k)}, v);
        current.emplace_back(static_cast<int>(k), v);
        absl::StatusOr<bool> ok = expand(count + 1);
        current.pop_back();
        if (!ok.ok() || !*ok) {
          done[k] = false;
          bound_.erase({&q, static_cast<int>(k)});
          return ok;
        }
      }
      bound_.erase({&q, static_cast<int>(k)});
      done[k] = false;
      return true;
    }
    return false;  // no variable can be bounded
  };
  size_t before = out->size();
  absl::StatusOr<bool> ok = expand(0);
  if (!ok.ok()) return ok.status();
  if (!*ok) out->erase(out->begin() + static_cast<long>(before), out->end());
  return *ok;
}

absl::StatusOr<Term> Lowering::LowerQuantifier(const Expr& q) {
  const Expr& body = jml::QuantifierBody(q);
  const Type& vt = q.type_ref.resolved;
  std::vector<Instance> instances;
  // Instances need the bounds on each value's membership: the range
  // predicate and, for bounds read from the body, the body itself (an
  // implication or conjunction that is trivially true/false outside).
  std::vector<Undefined> saved_undefined = TakeUndefined();
  absl::StatusOr<bool> expanded = ExpandRange(q, &instances);
  // Undefinedness while computing bounds belongs to the expression too.
  std::vector<Undefined> bound_undefined = TakeUndefined();
  undefined_ = std::move(saved_undefined);
  for (Undefined& u : bound_undefined) undefined_.push_back(std::move(u));
  TS_RETURN_IF_ERROR(expanded.status());
  jml::QuantifierKind kind = q.quantifier;
  if (*expanded) {
    // Membership of each instance: its variables lie within the bounds that
    // made the expansion exact (implied by the range or the body), so the
    // whole range predicate decides.
    z3::expr acc = ops_.True();
    Term numeric{q.type, ops_.Int(0)};
    z3::expr any = ops_.False();
    bool first = true;
    if (kind == jml::QuantifierKind::kExists) acc = ops_.False();
    if (q.type.IsBigint()) numeric.e = ops_.ctx().int_val(kind == jml::QuantifierKind::kProduct ? 1 : 0);
    else if (q.type.Is(TK::kLong)) numeric.e = ops_.Long(kind == jml::QuantifierKind::kProduct ? 1 : 0);
    else if (q.type.Is(TK::kFloat)) numeric.e = ops_.Float(kind == jml::QuantifierKind::kProduct ? 1 : 0);
    else if (q.type.Is(TK::kDouble)) numeric.e = ops_.Double(kind == jml::QuantifierKind::kProduct ? 1 : 0);
    else numeric.e = ops_.Int(kind == jml::QuantifierKind::kProduct ? 1 : 0);
    for (const Instance& inst : instances) {
      for (const auto& [k, v] : inst.values) bound_.insert_or_assign({&q, k}, v);
      Scope s(*this, inst.range);
      absl::StatusOr<Term> b = Lower(body);
      if (!b.ok()) {
        for (const auto& [k, v] : inst.values) bound_.erase({&q, k});
        return b.status();
      }
      switch (kind) {
        case jml::QuantifierKind::kForall:
          acc = ops_.And(acc, ops_.Implies(inst.range, BoolOf(*b)));
          break;
        case jml::QuantifierKind::kExists:
          acc = ops_.Or(acc, ops_.And(inst.range, BoolOf(*b)));
          break;
        case jml::QuantifierKind::kNumOf: {
          z3::expr one = q.type.IsBigint() ? ops_.ctx().int_val(1)
                         : q.type.Is(TK::kLong) ? ops_.Long(1) : ops_.Int(1);
          z3::expr zero = q.type.IsBigint() ? ops_.ctx().int_val(0)
                          : q.type.Is(TK::kLong) ? ops_.Long(0) : ops_.Int(0);
          z3::expr inc = ops_.Ite(ops_.And(inst.range, BoolOf(*b)), one, zero);
          numeric.e = q.type.IsBigint() ? numeric.e + inc : ops_.Add(numeric.e, inc);
          break;
        }
        case jml::QuantifierKind::kSum:
        case jml::QuantifierKind::kProduct: {
          Term v = Convert(*b, q.type);
          bool sum = kind == jml::QuantifierKind::kSum;
          z3::expr next = q.type.IsBigint() ? (sum ? numeric.e + v.e : numeric.e * v.e)
                          : IsFp(q.type)    ? (sum ? ops_.FAdd(numeric.e, v.e) : ops_.FMul(numeric.e, v.e))
                                            : (sum ? ops_.Add(numeric.e, v.e) : ops_.Mul(numeric.e, v.e));
          numeric.e = ops_.Ite(inst.range, next, numeric.e);
          break;
        }
        case jml::QuantifierKind::kMax:
        case jml::QuantifierKind::kMin: {
          Term v = Convert(*b, q.type);
          bool max = kind == jml::QuantifierKind::kMax;
          z3::expr better = q.type.IsBigint() ? (max ? v.e > numeric.e : v.e < numeric.e)
                            : IsFp(q.type)    ? (max ? ops_.FLt(numeric.e, v.e) : ops_.FLt(v.e, numeric.e))
                                              : (max ? ops_.Lt(numeric.e, v.e) : ops_.Lt(v.e, numeric.e));
          z3::expr take = first ? inst.range
                                : ops_.And(inst.range, ops_.Or(ops_.Not(any), better));
          numeric.e = first ? v.e : ops_.Ite(take, v.e, numeric.e);
          any = ops_.Or(any, inst.range);
          first = false;
          break;
        }
      }
      for (const auto& [k, v] : inst.values) bound_.erase({&q, k});
    }
    if (kind == jml::QuantifierKind::kForall || kind == jml::QuantifierKind::kExists) {
      return Term{Type::Boolean(), acc};
    }
    if (kind == jml::QuantifierKind::kMax || kind == jml::QuantifierKind::kMin) {
      NoteUndefined(ops_.Not(any), q,
                    absl::StrCat(jml::QuantifierText(kind), " over an empty range"));
      if (first) {
        symex::Value fresh = machine_.Fresh(q.type.Descriptor().empty() ? "J" : q.type.Descriptor(),
                                            absl::StrCat("empty", fresh_++));
        return FromValue(fresh, q.type);
      }
    }
    return numeric;
  }
  if (kind != jml::QuantifierKind::kForall && kind != jml::QuantifierKind::kExists) {
    // Not an unsupported construct: this range is beyond what the bounds
    // expand, and truncating it would be unsound.
    return absl::OutOfRangeError(absl::StrCat(
        q.span.ToString(), ": ", jml::QuantifierText(kind),
        " over a range not bounded by constants or array lengths within the cap "
        "(never truncated)"));
  }
  // A Z3 quantifier over the bound variables.
  z3::expr_vector vars(ops_.ctx());
  std::vector<std::pair<int, Term>> values;
  for (size_t k = 0; k < q.bound_vars.size(); ++k) {
    std::string name = absl::StrCat(q.bound_vars[k].name, "!q", fresh_++);
    z3::expr v = vt.IsBoolean() ? ops_.ctx().bool_const(name.c_str())
                 : vt.IsBigint() ? ops_.ctx().int_const(name.c_str())
                 : vt.Is(TK::kLong) ? ops_.ctx().bv_const(name.c_str(), 64)
                 : vt.IsReference() ? ops_.ctx().bv_const(name.c_str(), symex::kRefBits)
                 : (vt.IsNumeric() && !IsFp(vt)) ? ops_.ctx().bv_const(name.c_str(), 32)
                                                 : z3::expr(ops_.ctx());
    if (!bool(v)) return Unsupported(q, absl::StrCat("quantifier over ", vt.ToString()));
    vars.push_back(v);
    bound_.insert_or_assign({&q, static_cast<int>(k)}, Term{vt, v});
  }
  // The variable's values are those of its type.
  z3::expr domain = ops_.True();
  for (unsigned k = 0; k < vars.size(); ++k) {
    if (vt.Is(TK::kByte)) domain = domain && (vars[k] == ops_.I2B(vars[k]));
    if (vt.Is(TK::kShort)) domain = domain && (vars[k] == ops_.I2S(vars[k]));
    if (vt.Is(TK::kChar)) domain = domain && (vars[k] == ops_.I2C(vars[k]));
  }
  size_t mark = undefined_.size();
  size_t quantified_mark = quantified_.size();
  for (unsigned k = 0; k < vars.size(); ++k) quantified_.push_back(vars[k]);
  z3::expr range = domain;
  if (const Expr* r = jml::QuantifierRange(q)) {
    absl::StatusOr<z3::expr> rv = LowerBool(*r);
    if (!rv.ok()) {
      quantified_.erase(quantified_.begin() + static_cast<ptrdiff_t>(quantified_mark),
                        quantified_.end());
      return rv.status();
    }
    range = range && *rv;
  }
  absl::StatusOr<z3::expr> b = [&] {
    Scope s(*this, range);
    return LowerBool(body);
  }();
  quantified_.erase(quantified_.begin() + static_cast<ptrdiff_t>(quantified_mark),
                    quantified_.end());
  for (size_t k = 0; k < q.bound_vars.size(); ++k) bound_.erase({&q, static_cast<int>(k)});
  TS_RETURN_IF_ERROR(b.status());
  for (size_t i = mark; i < undefined_.size(); ++i) {
    undefined_[i].condition = z3::exists(vars, undefined_[i].condition);
    for (size_t k = 0; k < q.bound_vars.size(); ++k) {
      undefined_[i].vars.emplace_back(q.bound_vars[k].name, vars[static_cast<int>(k)]);
    }
  }
  if (kind == jml::QuantifierKind::kForall) {
    return Term{Type::Boolean(), z3::forall(vars, z3::implies(range, *b))};
  }
  return Term{Type::Boolean(), z3::exists(vars, range && *b)};
}

// ---- frames ----

absl::StatusOr<z3::expr> Lowering::FieldInFrame(const jml::StoreRef& ref, const z3::expr& object,
                                                int field_id) {
  using K = jml::StoreRef::Kind;
  in_post_ = false;
  guard_ = ops_.True();
  switch (ref.kind) {
    case K::kNothing: return ops_.False();
    case K::kEverything: return ops_.True();
    case K::kNotSpecified: return ops_.True();
    case K::kAllElements:
    case K::kArrayRange: return ops_.False();
    case K::kInformal: return jml::UnsupportedAt(ref.span, "informal store reference");
    case K::kAllFields: {
      TS_ASSIGN_OR_RETURN(Term o, Lower(*ref.expr));
      return ops_.Eq(o.e, object);
    }
    case K::kLocation: {
      const Expr& x = *ref.expr;
      if (x.kind == ExprKind::kArrayAccess) return ops_.False();
      if (x.sym.kind != SymbolKind::kField || x.sym.is_static) return ops_.False();
      const symex::FieldInfo* f = machine_.program().ResolveField(
          classfile::BinaryToInternal(x.sym.owner), x.name, x.sym.descriptor);
      if (f == nullptr) {
        if (x.sym.is_model || x.sym.is_ghost) return ops_.False();
        return jml::ErrorAt(x.span, absl::StrCat("field '", x.name, "' is not in the class files"));
      }
      if (f->id != field_id) return ops_.False();
      if (x.kind == ExprKind::kName || x.operands.empty() ||
          x.operands[0]->kind == ExprKind::kSuper) {
        if (!states_.receiver) return ops_.False();
        return ops_.Eq(states_.receiver->e, object);
      }
      TS_ASSIGN_OR_RETURN(Term o, Lower(*x.operands[0]));
      return ops_.Eq(o.e, object);
    }
  }
  return ops_.False();
}

absl::StatusOr<z3::expr> Lowering::ElementInFrame(const jml::StoreRef& ref, const z3::expr& array,
                                                  const z3::expr& index) {
  using K = jml::StoreRef::Kind;
  in_post_ = false;
  guard_ = ops_.True();
  switch (ref.kind) {
    case K::kEverything:
    case K::kNotSpecified: return ops_.True();
    case K::kInformal: return jml::UnsupportedAt(ref.span, "informal store reference");
    case K::kAllElements: {
      TS_ASSIGN_OR_RETURN(Term a, Lower(*ref.expr));
      return ops_.Eq(a.e, array);
    }
    case K::kArrayRange: {
      TS_ASSIGN_OR_RETURN(Term a, Lower(*ref.expr));
      TS_ASSIGN_OR_RETURN(Term lo, Lower(*ref.lo));
      TS_ASSIGN_OR_RETURN(Term hi, Lower(*ref.hi));
      z3::expr l = Convert(lo, Type::Int()).e, h = Convert(hi, Type::Int()).e;
      return ops_.And(ops_.Eq(a.e, array), ops_.And(ops_.Le(l, index), ops_.Le(index, h)));
    }
    case K::kLocation: {
      const Expr& x = *ref.expr;
      if (x.kind != ExprKind::kArrayAccess) return ops_.False();
      TS_ASSIGN_OR_RETURN(Term a, Lower(*x.operands[0]));
      TS_ASSIGN_OR_RETURN(Term i, Lower(*x.operands[1]));
      return ops_.And(ops_.Eq(a.e, array), ops_.Eq(Convert(i, Type::Int()).e, index));
    }
    default: return ops_.False();
  }
}

absl::StatusOr<z3::expr> Lowering::StaticInFrame(const jml::StoreRef& ref, int field_id) {
  using K = jml::StoreRef::Kind;
  if (ref.kind == K::kEverything || ref.kind == K::kNotSpecified) return ops_.True();
  if (ref.kind != K::kLocation) return ops_.False();
  const Expr& x = *ref.expr;
  if (x.sym.kind != SymbolKind::kField || !x.sym.is_static) return ops_.False();
  const symex::FieldInfo* f = machine_.program().ResolveField(
      classfile::BinaryToInternal(x.sym.owner), x.name, x.sym.descriptor);
  return f != nullptr && f->id == field_id ? ops_.True() : ops_.False();
}

}  // namespace tracespec::check

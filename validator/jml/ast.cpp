// AST helpers: operator spellings, modifiers, deep copies and structural
// equality; see ast.h.
#include "validator/jml/ast.h"

#include <cstring>
#include <unordered_map>

namespace tracespec::jml {

Expr::Expr() = default;
Expr::~Expr() {
  // Release deep left- or right-leaning chains iteratively so that even a
  // very tall tree cannot exhaust the stack while being destroyed.
  std::vector<ExprPtr> pending;
  for (auto& op : operands) pending.push_back(std::move(op));
  while (!pending.empty()) {
    ExprPtr e = std::move(pending.back());
    pending.pop_back();
    if (!e) continue;
    for (auto& op : e->operands) pending.push_back(std::move(op));
    e->operands.clear();
  }
}
Expr::Expr(Expr&&) noexcept = default;
Expr& Expr::operator=(Expr&&) noexcept = default;

StoreRef::StoreRef() = default;
StoreRef::~StoreRef() = default;
StoreRef::StoreRef(StoreRef&&) noexcept = default;
StoreRef& StoreRef::operator=(StoreRef&&) noexcept = default;

const char* UnaryOpText(UnaryOp op) {
  switch (op) {
    case UnaryOp::kPlus:
      return "+";
    case UnaryOp::kMinus:
      return "-";
    case UnaryOp::kNot:
      return "!";
    case UnaryOp::kComplement:
      return "~";
  }
  return "?";
}

const char* BinaryOpText(BinaryOp op) {
  switch (op) {
    case BinaryOp::kEquiv:
      return "<==>";
    case BinaryOp::kInequiv:
      return "<=!=>";
    case BinaryOp::kImplies:
      return "==>";
    case BinaryOp::kReverseImplies:
      return "<==";
    case BinaryOp::kOr:
      return "||";
    case BinaryOp::kAnd:
      return "&&";
    case BinaryOp::kBitOr:
      return "|";
    case BinaryOp::kBitXor:
      return "^";
    case BinaryOp::kBitAnd:
      return "&";
    case BinaryOp::kEq:
      return "==";
    case BinaryOp::kNe:
      return "!=";
    case BinaryOp::kLt:
      return "<";
    case BinaryOp::kLe:
      return "<=";
    case BinaryOp::kGt:
      return ">";
    case BinaryOp::kGe:
      return ">=";
    case BinaryOp::kSubtype:
      return "<:";
    case BinaryOp::kShl:
      return "<<";
    case BinaryOp::kShr:
      return ">>";
    case BinaryOp::kUshr:
      return ">>>";
    case BinaryOp::kAdd:
      return "+";
    case BinaryOp::kSub:
      return "-";
    case BinaryOp::kMul:
      return "*";
    case BinaryOp::kDiv:
      return "/";
    case BinaryOp::kRem:
      return "%";
  }
  return "?";
}

const char* QuantifierText(QuantifierKind q) {
  switch (q) {
    case QuantifierKind::kForall:
      return "\\forall";
    case QuantifierKind::kExists:
      return "\\exists";
    case QuantifierKind::kSum:
      return "\\sum";
    case QuantifierKind::kProduct:
      return "\\product";
    case QuantifierKind::kMax:
      return "\\max";
    case QuantifierKind::kMin:
      return "\\min";
    case QuantifierKind::kNumOf:
      return "\\num_of";
  }
  return "?";
}

const char* ClauseKeyword(ClauseKind kind) {
  switch (kind) {
    case ClauseKind::kRequires:
      return "requires";
    case ClauseKind::kEnsures:
      return "ensures";
    case ClauseKind::kSignals:
      return "signals";
    case ClauseKind::kSignalsOnly:
      return "signals_only";
    case ClauseKind::kAssignable:
      return "assignable";
    case ClauseKind::kAccessible:
      return "accessible";
    case ClauseKind::kCaptures:
      return "captures";
    case ClauseKind::kCallable:
      return "callable";
    case ClauseKind::kDiverges:
      return "diverges";
    case ClauseKind::kWhen:
      return "when";
    case ClauseKind::kWorkingSpace:
      return "working_space";
    case ClauseKind::kDuration:
      return "duration";
    case ClauseKind::kMeasuredBy:
      return "measured_by";
  }
  return "?";
}

const char* BehaviorKeyword(Behavior b) {
  switch (b) {
    case Behavior::kLightweight:
      return "";
    case Behavior::kBehavior:
      return "behavior";
    case Behavior::kNormal:
      return "normal_behavior";
    case Behavior::kExceptional:
      return "exceptional_behavior";
    case Behavior::kExample:
      return "example";
    case Behavior::kNormalExample:
      return "normal_example";
    case Behavior::kExceptionalExample:
      return "exceptional_example";
  }
  return "";
}

Behavior NestedBehavior(Behavior outer, Behavior inner) {
  if (inner == Behavior::kLightweight) return outer;
  if (outer == Behavior::kLightweight || outer == Behavior::kBehavior ||
      outer == Behavior::kExample) {
    return inner;
  }
  return outer;
}

const char* VisibilityKeyword(Visibility v) {
  switch (v) {
    case Visibility::kPackage:
      return "";
    case Visibility::kPublic:
      return "public";
    case Visibility::kProtected:
      return "protected";
    case Visibility::kPrivate:
      return "private";
  }
  return "";
}

const char* ClassClauseKeyword(ClassClauseKind kind) {
  switch (kind) {
    case ClassClauseKind::kInvariant:
      return "invariant";
    case ClassClauseKind::kConstraint:
      return "constraint";
    case ClassClauseKind::kInitially:
      return "initially";
    case ClassClauseKind::kAxiom:
      return "axiom";
    case ClassClauseKind::kRepresents:
      return "represents";
    case ClassClauseKind::kReadable:
      return "readable";
    case ClassClauseKind::kWritable:
      return "writable";
    case ClassClauseKind::kMonitorsFor:
      return "monitors_for";
    case ClassClauseKind::kIn:
      return "in";
    case ClassClauseKind::kMaps:
      return "maps";
  }
  return "?";
}

const char* BodyAnnotationKeyword(BodyAnnotationKind kind) {
  switch (kind) {
    case BodyAnnotationKind::kAssert:
      return "assert";
    case BodyAnnotationKind::kAssume:
      return "assume";
    case BodyAnnotationKind::kLoopInvariant:
      return "loop_invariant";
    case BodyAnnotationKind::kDecreases:
      return "decreases";
    case BodyAnnotationKind::kLoopAssignable:
      return "loop_modifies";
    case BodyAnnotationKind::kGhostDecl:
      return "ghost";
    case BodyAnnotationKind::kSet:
      return "set";
    case BodyAnnotationKind::kDebug:
      return "debug";
    case BodyAnnotationKind::kUnreachable:
      return "unreachable";
    case BodyAnnotationKind::kReachable:
      return "reachable";
    case BodyAnnotationKind::kHenceBy:
      return "hence_by";
  }
  return "?";
}

namespace {

struct ModifierName {
  uint64_t bit;
  const char* word;
  bool jml;
};

// Declaration order is the canonical printing order.
constexpr ModifierName kModifierNames[] = {
    {kModPublic, "public", false},
    {kModProtected, "protected", false},
    {kModPrivate, "private", false},
    {kModAbstract, "abstract", false},
    {kModStatic, "static", false},
    {kModFinal, "final", false},
    {kModSealed, "sealed", false},
    {kModNonSealed, "non-sealed", false},
    {kModTransient, "transient", false},
    {kModVolatile, "volatile", false},
    {kModSynchronized, "synchronized", false},
    {kModNative, "native", false},
    {kModStrictfp, "strictfp", false},
    {kModDefault, "default", false},
    {kModSpecPublic, "spec_public", true},
    {kModSpecProtected, "spec_protected", true},
    {kModModel, "model", true},
    {kModGhost, "ghost", true},
    {kModInstance, "instance", true},
    {kModPure, "pure", true},
    {kModStrictlyPure, "strictly_pure", true},
    {kModFunction, "function", true},
    {kModHelper, "helper", true},
    {kModQuery, "query", true},
    {kModSecret, "secret", true},
    {kModNullable, "nullable", true},
    {kModNonNull, "non_null", true},
    {kModNullableByDefault, "nullable_by_default", true},
    {kModNonNullByDefault, "non_null_by_default", true},
    {kModSpecJavaMath, "spec_java_math", true},
    {kModSpecSafeMath, "spec_safe_math", true},
    {kModSpecBigintMath, "spec_bigint_math", true},
    {kModCodeJavaMath, "code_java_math", true},
    {kModCodeSafeMath, "code_safe_math", true},
    {kModCodeBigintMath, "code_bigint_math", true},
    {kModUninitialized, "uninitialized", true},
    {kModMonitored, "monitored", true},
    {kModExtract, "extract", true},
    {kModPeer, "peer", true},
    {kModRep, "rep", true},
    {kModReadonly, "readonly", true},
    {kModCodeContract, "code_contract", true},
};

}  // namespace

uint64_t ModifierBit(const std::string& word, bool jml) {
  for (const auto& m : kModifierNames) {
    if (word == m.word && (jml || !m.jml)) return m.bit;
  }
  return 0;
}

std::string ModifierText(uint64_t bits) {
  std::string out;
  for (const auto& m : kModifierNames) {
    if ((bits & m.bit) == 0) continue;
    if (!out.empty()) out += ' ';
    out += m.word;
  }
  return out;
}

Visibility Modifiers::visibility() const {
  if (Has(kModPublic)) return Visibility::kPublic;
  if (Has(kModProtected)) return Visibility::kProtected;
  if (Has(kModPrivate)) return Visibility::kPrivate;
  return Visibility::kPackage;
}

const Expr* Receiver(const Expr& call) { return call.flag ? call.operands[0].get() : nullptr; }

std::vector<const Expr*> Arguments(const Expr& call) {
  std::vector<const Expr*> out;
  for (size_t i = call.flag ? 1 : 0; i < call.operands.size(); ++i)
    out.push_back(call.operands[i].get());
  return out;
}

const Expr* QuantifierRange(const Expr& q) { return q.flag ? q.operands[0].get() : nullptr; }
const Expr& QuantifierBody(const Expr& q) { return *q.operands.back(); }

const TypeDecl* CompilationUnit::FindType(const std::string& binary_name) const {
  for (const auto& t : types) {
    if (t->binary_name == binary_name) return t.get();
  }
  return nullptr;
}

TypeDecl* CompilationUnit::FindType(const std::string& binary_name) {
  for (auto& t : types) {
    if (t->binary_name == binary_name) return t.get();
  }
  return nullptr;
}

// ---- Cloning ----

namespace {

ExprPtr CloneInto(const Expr& e, std::unordered_map<const Expr*, const Expr*>* map);

StoreRef CloneStoreRefInto(const StoreRef& r, std::unordered_map<const Expr*, const Expr*>* map) {
  StoreRef out;
  out.kind = r.kind;
  out.span = r.span;
  if (r.expr) out.expr = CloneInto(*r.expr, map);
  if (r.lo) out.lo = CloneInto(*r.lo, map);
  if (r.hi) out.hi = CloneInto(*r.hi, map);
  out.informal = r.informal;
  return out;
}

ExprPtr CloneInto(const Expr& e, std::unordered_map<const Expr*, const Expr*>* map) {
  auto out = std::make_unique<Expr>();
  out->kind = e.kind;
  out->span = e.span;
  out->literal = e.literal;
  out->name = e.name;
  out->name_span = e.name_span;
  out->unary_op = e.unary_op;
  out->binary_op = e.binary_op;
  out->quantifier = e.quantifier;
  out->flag = e.flag;
  for (const auto& op : e.operands) out->operands.push_back(CloneInto(*op, map));
  out->type_ref = CloneTypeRef(e.type_ref);
  out->bound_vars = e.bound_vars;
  for (const auto& r : e.store_refs) out->store_refs.push_back(CloneStoreRefInto(r, map));
  out->height = e.height;
  out->type = e.type;
  out->sym = e.sym;
  (*map)[&e] = out.get();
  return out;
}

// Points cloned bound-variable references at the cloned binder.
void Rebind(Expr* e, const std::unordered_map<const Expr*, const Expr*>& map) {
  if (e->sym.binder != nullptr) {
    auto it = map.find(e->sym.binder);
    if (it != map.end()) e->sym.binder = it->second;
  }
  for (auto& op : e->operands) Rebind(op.get(), map);
  for (auto& r : e->store_refs) {
    if (r.expr) Rebind(r.expr.get(), map);
    if (r.lo) Rebind(r.lo.get(), map);
    if (r.hi) Rebind(r.hi.get(), map);
  }
}

ExprPtr CloneOrNull(const ExprPtr& e) { return e ? CloneExpr(*e) : nullptr; }

}  // namespace

ExprPtr CloneExpr(const Expr& e) {
  std::unordered_map<const Expr*, const Expr*> map;
  ExprPtr out = CloneInto(e, &map);
  Rebind(out.get(), map);
  return out;
}

TypeRef CloneTypeRef(const TypeRef& t) { return t; }

StoreRef CloneStoreRef(const StoreRef& r) {
  StoreRef out;
  out.kind = r.kind;
  out.span = r.span;
  out.expr = CloneOrNull(r.expr);
  out.lo = CloneOrNull(r.lo);
  out.hi = CloneOrNull(r.hi);
  out.informal = r.informal;
  return out;
}

Clause CloneClause(const Clause& c) {
  Clause out;
  out.kind = c.kind;
  out.redundant = c.redundant;
  out.span = c.span;
  out.semicolon_omitted = c.semicolon_omitted;
  out.pred = CloneOrNull(c.pred);
  out.condition = CloneOrNull(c.condition);
  out.exception_type = c.exception_type;
  out.exception_var = c.exception_var;
  out.exception_var_span = c.exception_var_span;
  out.types = c.types;
  out.nothing = c.nothing;
  for (const auto& r : c.store_refs) out.store_refs.push_back(CloneStoreRef(r));
  out.methods = c.methods;
  out.keyword = c.keyword;
  return out;
}

SpecCase CloneSpecCase(const SpecCase& c) {
  SpecCase out;
  out.behavior = c.behavior;
  out.visibility = c.visibility;
  out.code = c.code;
  out.span = c.span;
  for (const auto& v : c.vars) {
    SpecVarDecl d;
    d.is_old = v.is_old;
    d.type = v.type;
    d.name = v.name;
    d.span = v.span;
    d.init = CloneOrNull(v.init);
    out.vars.push_back(std::move(d));
  }
  for (const auto& cl : c.clauses) out.clauses.push_back(CloneClause(cl));
  for (const auto& n : c.nested) out.nested.push_back(CloneSpecCase(n));
  return out;
}

MethodSpec CloneMethodSpec(const MethodSpec& s) {
  MethodSpec out;
  out.extending = s.extending;
  out.span = s.span;
  for (const auto& c : s.cases) out.cases.push_back(CloneSpecCase(c));
  for (const auto& c : s.implies_that) out.implies_that.push_back(CloneSpecCase(c));
  for (const auto& c : s.examples) out.examples.push_back(CloneSpecCase(c));
  return out;
}

// ---- Structural equality ----

namespace {

bool SameOpt(const ExprPtr& a, const ExprPtr& b) {
  if (!a || !b) return !a && !b;
  return SameExpr(*a, *b);
}

template <typename T, typename F>
bool SameVec(const std::vector<T>& a, const std::vector<T>& b, F same) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!same(a[i], b[i])) return false;
  }
  return true;
}

bool SameLiteral(const Literal& a, const Literal& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case LiteralKind::kFloat:
      return std::memcmp(&a.float_value, &b.float_value, sizeof(float)) == 0;
    case LiteralKind::kDouble:
      return std::memcmp(&a.double_value, &b.double_value, sizeof(double)) == 0;
    case LiteralKind::kString:
      return a.string_value == b.string_value;
    case LiteralKind::kNull:
      return true;
    default:
      return a.bits == b.bits;
  }
}

bool SameMethodRef(const MethodRef& a, const MethodRef& b) {
  return a.name == b.name && a.has_params == b.has_params &&
         SameVec(a.params, b.params, SameTypeRef);
}

bool SameModifiers(const Modifiers& a, const Modifiers& b) {
  return a.bits == b.bits && a.annotations == b.annotations;
}

}  // namespace

bool SameTypeRef(const TypeRef& a, const TypeRef& b) {
  return a.name == b.name && a.dims == b.dims && a.has_type_args == b.has_type_args &&
         SameVec(a.type_args, b.type_args, SameTypeRef);
}

bool SameExpr(const Expr& a, const Expr& b) {
  if (a.kind != b.kind || a.name != b.name || a.flag != b.flag) return false;
  if (a.operands.size() != b.operands.size()) return false;
  switch (a.kind) {
    case ExprKind::kLiteral:
      if (!SameLiteral(a.literal, b.literal)) return false;
      break;
    case ExprKind::kUnary:
      if (a.unary_op != b.unary_op) return false;
      break;
    case ExprKind::kBinary:
      if (a.binary_op != b.binary_op) return false;
      break;
    case ExprKind::kQuantifier:
    case ExprKind::kLet:
      if (a.kind == ExprKind::kQuantifier && a.quantifier != b.quantifier) return false;
      if (!SameVec(a.bound_vars, b.bound_vars,
                   [](const BoundVar& x, const BoundVar& y) { return x.name == y.name; })) {
        return false;
      }
      break;
    default:
      break;
  }
  if (!SameTypeRef(a.type_ref, b.type_ref)) return false;
  if (!SameVec(a.store_refs, b.store_refs, SameStoreRef)) return false;
  for (size_t i = 0; i < a.operands.size(); ++i) {
    if (!SameExpr(*a.operands[i], *b.operands[i])) return false;
  }
  return true;
}

bool SameStoreRef(const StoreRef& a, const StoreRef& b) {
  return a.kind == b.kind && SameOpt(a.expr, b.expr) && SameOpt(a.lo, b.lo) &&
         SameOpt(a.hi, b.hi) && a.informal == b.informal;
}

bool SameClause(const Clause& a, const Clause& b) {
  return a.kind == b.kind && a.redundant == b.redundant && SameOpt(a.pred, b.pred) &&
         SameOpt(a.condition, b.condition) && SameTypeRef(a.exception_type, b.exception_type) &&
         a.exception_var == b.exception_var && SameVec(a.types, b.types, SameTypeRef) &&
         a.nothing == b.nothing && SameVec(a.store_refs, b.store_refs, SameStoreRef) &&
         SameVec(a.methods, b.methods, SameMethodRef) && a.keyword == b.keyword;
}

bool SameSpecCase(const SpecCase& a, const SpecCase& b) {
  return a.behavior == b.behavior && a.visibility == b.visibility && a.code == b.code &&
         SameVec(a.vars, b.vars,
                 [](const SpecVarDecl& x, const SpecVarDecl& y) {
                   return x.is_old == y.is_old && SameTypeRef(x.type, y.type) && x.name == y.name &&
                          SameOpt(x.init, y.init);
                 }) &&
         SameVec(a.clauses, b.clauses, SameClause) && SameVec(a.nested, b.nested, SameSpecCase);
}

bool SameMethodSpec(const MethodSpec& a, const MethodSpec& b) {
  return a.extending == b.extending && SameVec(a.cases, b.cases, SameSpecCase) &&
         SameVec(a.implies_that, b.implies_that, SameSpecCase) &&
         SameVec(a.examples, b.examples, SameSpecCase);
}

bool SameClassClause(const ClassClause& a, const ClassClause& b) {
  return a.kind == b.kind && SameModifiers(a.mods, b.mods) && a.redundant == b.redundant &&
         SameOpt(a.pred, b.pred) && SameOpt(a.target, b.target) && a.represents == b.represents &&
         a.for_everything == b.for_everything &&
         SameVec(a.for_methods, b.for_methods, SameMethodRef) &&
         SameVec(a.exprs, b.exprs,
                 [](const ExprPtr& x, const ExprPtr& y) { return SameOpt(x, y); }) &&
         a.groups == b.groups && SameVec(a.maps_refs, b.maps_refs, SameStoreRef);
}

bool SameBodyAnnotation(const BodyAnnotation& a, const BodyAnnotation& b) {
  return a.kind == b.kind && a.redundant == b.redundant && SameOpt(a.expr, b.expr) &&
         SameOpt(a.message, b.message) && SameOpt(a.target, b.target) &&
         SameTypeRef(a.ghost_type, b.ghost_type) && a.ghost_name == b.ghost_name &&
         SameModifiers(a.mods, b.mods) && SameVec(a.store_refs, b.store_refs, SameStoreRef);
}

}  // namespace tracespec::jml

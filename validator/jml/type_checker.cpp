// The JML type checker; see type_checker.h. Typing follows the JLS
// (chapter 5 conversions, chapter 15 expressions) with JML's additions
// (JML Reference Manual ch. 12): logical operators on boolean, quantifiers,
// \old/\result placement, \bigint/\real promotion, \TYPE.
#include "validator/jml/type_checker.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/did_you_mean.h"
#include "common/status.h"
#include "validator/jml/clauses.h"
#include "validator/jml/printer.h"

namespace tracespec::jml {

std::string MethodContext::Describe() const {
  return absl::StrCat(class_name, ".", method.name, method.descriptor);
}

namespace {

constexpr size_t kMaxErrors = 25;

MathMode MathModeOf(const std::vector<std::string>& modifiers, MathMode fallback) {
  for (const auto& m : modifiers) {
    if (m == "spec_bigint_math") return MathMode::kBigint;
    if (m == "spec_safe_math") return MathMode::kSafe;
    if (m == "spec_java_math") return MathMode::kJava;
  }
  return fallback;
}

Nullity Effective(Nullity declared, const Type& type, const TypeCheckOptions& options) {
  if (!type.IsReference()) return Nullity::kUnspecified;
  return declared == Nullity::kUnspecified ? options.default_nullity : declared;
}

int VisibilityRank(Visibility v) {
  switch (v) {
    case Visibility::kPrivate:
      return 0;
    case Visibility::kPackage:
      return 1;
    case Visibility::kProtected:
      return 2;
    case Visibility::kPublic:
      return 3;
  }
  return 3;
}

const char* VisibilityName(Visibility v) {
  return v == Visibility::kPackage ? "package-private" : VisibilityKeyword(v);
}

Type UnaryPromote(const Type& t) {
  Type u = t.IsReference() ? UnboxedType(t) : t;
  if (u.IsError()) return u;
  switch (u.element_kind()) {
    case Type::Kind::kByte:
    case Type::Kind::kShort:
    case Type::Kind::kChar:
      return u.IsArray() ? Type::Error() : Type::Int();
    default:
      return u;
  }
}

// Binary numeric promotion (JLS §5.6.2) with \bigint and \real.
Type BinaryPromote(const Type& a, const Type& b) {
  Type x = UnaryPromote(a), y = UnaryPromote(b);
  if (!x.IsNumeric() || !y.IsNumeric()) return Type::Error();
  if (x.IsReal() || y.IsReal()) return Type::Real();
  if (x.IsBigint() || y.IsBigint()) {
    Type other = x.IsBigint() ? y : x;
    return other.IsIntegral() ? Type::Bigint() : Type::Real();
  }
  if (x.Is(Type::Kind::kDouble) || y.Is(Type::Kind::kDouble)) return Type::Double();
  if (x.Is(Type::Kind::kFloat) || y.Is(Type::Kind::kFloat)) return Type::Float();
  if (x.Is(Type::Kind::kLong) || y.Is(Type::Kind::kLong)) return Type::Long();
  return Type::Int();
}

bool IsBooleanish(const Type& t) { return t.IsBoolean() || UnboxedType(t).IsBoolean(); }
bool IsNumericish(const Type& t) { return t.IsNumeric() || UnboxedType(t).IsNumeric(); }
bool IsIntegralish(const Type& t) { return t.IsIntegral() || UnboxedType(t).IsIntegral(); }

std::string TypeName(const Type& t) { return t.ToString(); }

class Checker {
 public:
  enum class Phase {
    kPre,          // requires, old-variable initializers, assignable locations
    kPost,         // ensures
    kExceptional,  // signals
    kInvariant,    // invariant, initially
    kConstraint,   // constraint: two-state
    kBody,         // in-body annotations
    kModelBody,    // a model method's return expression
  };

  Checker(const TypeEnvironment& env, const TypeCheckOptions& options, std::string class_name,
          NameContext names, bool static_context, MathMode math, const MethodContext* method)
      : env_(env),
        options_(options),
        class_name_(std::move(class_name)),
        names_(std::move(names)),
        static_context_(static_context),
        math_(math),
        method_(method) {
    if (method_ != nullptr) {
      for (size_t i = 0; i < method_->param_names.size() && i < method_->method.params.size();
           ++i) {
        Var v;
        v.name = method_->param_names[i];
        v.type = method_->method.params[i];
        v.kind = SymbolKind::kParameter;
        v.index = static_cast<int>(i);
        scope_.push_back(std::move(v));
      }
      required_visibility_ = method_->visibility;
    }
  }

  // ---- Results ----

  absl::StatusOr<TypeCheckResult> Finish() {
    if (errors_.empty()) {
      TypeCheckResult r;
      r.notes = std::move(notes_);
      r.math_mode = math_;
      return r;
    }
    return Combined();
  }

  absl::Status Combined() const {
    bool all_unsupported = true;
    std::vector<std::string> messages;
    for (const auto& e : errors_) {
      if (e.code() != absl::StatusCode::kUnimplemented) all_unsupported = false;
      messages.emplace_back(e.message());
    }
    std::string text = absl::StrJoin(messages, "\n");
    return all_unsupported ? absl::UnimplementedError(text) : absl::InvalidArgumentError(text);
  }

  bool ok() const { return errors_.empty(); }

  void Error(const SourceSpan& span, const std::string& message) {
    if (errors_.size() < kMaxErrors) errors_.push_back(ErrorAt(span, message));
  }
  void Unsupported(const SourceSpan& span, const std::string& message) {
    if (suppress_unsupported_) return;
    if (errors_.size() < kMaxErrors)
      errors_.push_back(UnsupportedAt(span, absl::StrCat("unsupported: ", message)));
  }
  void Note(const SourceSpan& span, const std::string& message) {
    notes_.push_back(CheckNote{span, message});
  }
  // The note for a clause or statement written without its final ';'.
  void NoteOmittedSemicolon(bool omitted, const SourceSpan& span, const std::string& what) {
    if (omitted) Note(span, absl::StrCat(what, " has no ';' at its end (accepted, as by OpenJML)"));
  }

  // ---- Phases ----

  void SetPhase(Phase phase, std::string where) {
    phase_ = phase;
    where_ = std::move(where);
  }
  void set_suppress_unsupported(bool s) { suppress_unsupported_ = s; }
  void set_required_visibility(Visibility v) { required_visibility_ = v; }
  void set_static_context(bool s) { static_context_ = s; }

  // ---- Scopes ----

  struct Var {
    std::string name;
    Type type;
    SymbolKind kind = SymbolKind::kUnresolved;
    int index = -1;
    const Expr* binder = nullptr;
  };
  size_t ScopeMark() const { return scope_.size(); }
  void PopScope(size_t mark) { scope_.resize(mark); }
  void PushVar(Var v) { scope_.push_back(std::move(v)); }

  const Var* LookupVar(const std::string& name) const {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it) {
      if (it->name == name) return &*it;
    }
    return nullptr;
  }

  static const char* VarKindName(SymbolKind k) {
    switch (k) {
      case SymbolKind::kParameter:
        return "parameter";
      case SymbolKind::kLocal:
        return "local variable";
      case SymbolKind::kGhostLocal:
        return "ghost variable";
      case SymbolKind::kBoundVar:
        return "bound variable";
      case SymbolKind::kOldVar:
        return "old variable";
      case SymbolKind::kForallVar:
        return "forall variable";
      case SymbolKind::kSignalsVar:
        return "exception variable";
      default:
        return "variable";
    }
  }

  // Declares a new variable, rejecting shadowing of other variables (as
  // Java does for locals).
  void Declare(const std::string& name, const SourceSpan& span, Type type, SymbolKind kind,
               int index, const Expr* binder) {
    if (const Var* existing = LookupVar(name)) {
      Error(span, absl::StrCat(VarKindName(kind), " '", name, "' shadows ",
                               VarKindName(existing->kind), " '", name, "'"));
    }
    Var v;
    v.name = name;
    v.type = std::move(type);
    v.kind = kind;
    v.index = index;
    v.binder = binder;
    scope_.push_back(std::move(v));
  }

  Type Resolve(TypeRef& ref) {
    absl::StatusOr<Type> t = ResolveType(env_, names_, ref);
    if (!t.ok()) {
      errors_.push_back(t.status());
      ref.resolved = Type::Error();
      return Type::Error();
    }
    ref.resolved = *t;
    return *t;
  }

  bool IsThrowable(const Type& t) const {
    return t.IsClass() && IsSubclassOf(env_, t.class_name(), "java.lang.Throwable");
  }

  // ---- Expressions ----

  // `new T[n]...[]` (elements at their defaults, rows for each given size)
  // or `new T[]...{e, ...}` (a nested `{...}` for an array element): a fresh
  // array.
  Type CheckNewArray(Expr& e) {
    Type t = Resolve(e.type_ref);
    if (t.IsError()) return t;
    if (!t.IsArray()) {
      Error(e.span, absl::StrCat("array creation of the non-array type ", TypeName(t)));
      return Type::Error();
    }
    if (e.flag) {
      CheckArrayInitializer(e.operands, t);
      return t;
    }
    for (ExprPtr& op : e.operands) {
      Type n = Check(*op);
      if (!n.IsError() && !UnaryPromote(n).Is(Type::Kind::kInt)) {
        Error(op->span, absl::StrCat("array length must be int, found ", TypeName(n)));
      }
    }
    return t;
  }

  void CheckArrayInitializer(std::vector<ExprPtr>& elements, const Type& array) {
    Type element = array.ElementType();
    for (ExprPtr& op : elements) {
      if (op->kind != ExprKind::kArrayInit) {
        CheckAssignable(*op, element, "array initializer element");
        continue;
      }
      if (!element.IsArray()) {
        Error(op->span, absl::StrCat("illegal initializer for ", TypeName(element)));
        continue;
      }
      op->type = element;
      CheckArrayInitializer(op->operands, element);
    }
  }

  Type Check(Expr& e) {
    Type t = CheckImpl(e);
    e.type = t;
    return t;
  }

  // Checks `e` and requires a boolean (or Boolean) value.
  void CheckBoolean(Expr& e, const std::string& what) {
    Type t = Check(e);
    if (t.IsError() || IsBooleanish(t)) return;
    Error(e.span, absl::StrCat(what, " must be boolean, found ", TypeName(t)));
  }

  void CheckAssignable(Expr& e, const Type& to, const std::string& what) {
    Type t = Check(e);
    if (t.IsError() || to.IsError()) return;
    if (IsAssignable(env_, t, to)) return;
    // Constant narrowing (JLS §5.2): an int literal fits a byte/short/char.
    if (e.kind == ExprKind::kLiteral && e.literal.kind == LiteralKind::kInt &&
        (to.Is(Type::Kind::kByte) || to.Is(Type::Kind::kShort) || to.Is(Type::Kind::kChar))) {
      int64_t v = static_cast<int32_t>(e.literal.bits);
      bool fits = to.Is(Type::Kind::kByte)    ? (v >= -128 && v <= 127)
                  : to.Is(Type::Kind::kShort) ? (v >= -32768 && v <= 32767)
                                              : (v >= 0 && v <= 65535);
      if (fits) return;
    }
    Error(e.span, absl::StrCat(what, ": cannot convert ", TypeName(t), " to ", TypeName(to)));
  }

 private:
  // What a name or qualified name denotes.
  struct Denotation {
    enum Kind { kValue, kType, kPackage, kSuper } kind = kValue;
    Type type;              // kValue
    std::string name;       // kType: binary name; kPackage: dotted prefix
    SourceSpan first_span;  // kPackage: the leading unknown name
    std::string first_name;
  };

  Denotation ValueOf(Type t) {
    Denotation d;
    d.kind = Denotation::kValue;
    d.type = std::move(t);
    return d;
  }

  bool InstanceAllowed(const SourceSpan& span, const std::string& what) {
    if (static_context_) {
      Error(span, absl::StrCat(what, " cannot be used in a static context",
                               method_ != nullptr
                                   ? absl::StrCat(" (static method ", method_->method.name, ")")
                                   : ""));
      return false;
    }
    if (phase_ == Phase::kPre && method_ != nullptr && method_->method.is_constructor) {
      Error(span, absl::StrCat(what, " cannot be used in ", where_,
                               " of a constructor (the object does not exist yet)"));
      return false;
    }
    return true;
  }

  void CheckVisibility(const SourceSpan& span, const std::string& what, Visibility declared,
                       bool spec_public, bool spec_protected) {
    if (!options_.enforce_visibility) return;
    int have = VisibilityRank(declared);
    if (spec_public) have = 3;
    if (spec_protected) have = std::max(have, 2);
    if (have >= VisibilityRank(required_visibility_)) return;
    Error(span,
          absl::StrCat(
              VisibilityName(declared), " ", what, " cannot be used in a ",
              VisibilityName(required_visibility_),
              " specification (declare it spec_public or lower the specification's visibility)"));
  }

  Type UseField(Expr& e, const FieldLookup& f, const SourceSpan& span, bool via_instance) {
    e.sym.kind = SymbolKind::kField;
    e.sym.owner = f.owner->name;
    e.sym.descriptor = f.field->type.Descriptor();
    e.sym.is_static = f.field->is_static;
    e.sym.is_ghost = f.field->is_ghost;
    e.sym.is_model = f.field->is_model;
    e.sym.is_enum_constant = f.field->is_enum_constant;
    if (!f.field->is_static && !via_instance) {
      if (!InstanceAllowed(span, absl::StrCat("instance field '", f.field->name, "'")))
        return Type::Error();
    }
    CheckVisibility(span, absl::StrCat("field '", f.field->name, "'"), f.field->visibility,
                    f.field->spec_public, f.field->spec_protected);
    return f.field->type;
  }

  std::vector<std::string> NameCandidates() const {
    std::vector<std::string> out;
    for (const auto& v : scope_) out.push_back(v.name);
    std::vector<std::string> work = {class_name_};
    for (size_t i = 0; i < work.size() && i < 16; ++i) {
      const ClassInfo* info = env_.FindClass(work[i]);
      if (info == nullptr) continue;
      for (const auto& f : info->fields) out.push_back(f.name);
      if (!info->superclass.empty()) work.push_back(info->superclass);
    }
    return out;
  }

  std::vector<std::string> FieldCandidates(const std::string& cls) const {
    std::vector<std::string> out;
    std::vector<std::string> work = {cls};
    for (size_t i = 0; i < work.size() && i < 16; ++i) {
      const ClassInfo* info = env_.FindClass(work[i]);
      if (info == nullptr) continue;
      for (const auto& f : info->fields) out.push_back(f.name);
      if (!info->superclass.empty()) work.push_back(info->superclass);
    }
    return out;
  }

  // A field imported by a static import, as "class binary name", or "".
  std::string StaticImportOwner(const std::string& member, bool field) const {
    for (const auto& imp : names_.imports) {
      if (!imp.is_static) continue;
      std::string cls_name;
      if (imp.on_demand) {
        cls_name = imp.name;
      } else {
        size_t dot = imp.name.rfind('.');
        if (dot == std::string::npos || imp.name.substr(dot + 1) != member) continue;
        cls_name = imp.name.substr(0, dot);
      }
      std::optional<std::string> cls = ResolveClassName(env_, names_, cls_name);
      if (!cls) continue;
      if (field) {
        auto f = LookupField(env_, *cls, member);
        if (f && f->field->is_static) return *cls;
      } else {
        for (const auto& m : LookupMethods(env_, *cls, member)) {
          if (m.method->is_static) return *cls;
        }
      }
    }
    return "";
  }

  Denotation ResolveName(Expr& e) {
    if (const Var* v = LookupVar(e.name)) {
      e.sym.kind = v->kind;
      e.sym.index = v->index;
      e.sym.binder = v->binder;
      e.sym.is_ghost = v->kind == SymbolKind::kGhostLocal;
      return ValueOf(v->type);
    }
    if (auto f = LookupField(env_, class_name_, e.name))
      return ValueOf(UseField(e, *f, e.name_span, false));
    std::string owner = StaticImportOwner(e.name, /*field=*/true);
    if (!owner.empty()) {
      auto f = LookupField(env_, owner, e.name);
      return ValueOf(UseField(e, *f, e.name_span, true));
    }
    if (auto cls = ResolveClassName(env_, names_, e.name)) {
      e.sym.kind = SymbolKind::kType;
      e.sym.owner = *cls;
      Denotation d;
      d.kind = Denotation::kType;
      d.name = *cls;
      return d;
    }
    e.sym.kind = SymbolKind::kPackage;
    Denotation d;
    d.kind = Denotation::kPackage;
    d.name = e.name;
    d.first_name = e.name;
    d.first_span = e.name_span;
    return d;
  }

  Denotation ResolveFieldAccess(Expr& e) {
    Denotation recv = ResolveReceiver(*e.operands[0]);
    switch (recv.kind) {
      case Denotation::kPackage: {
        std::string full = absl::StrCat(recv.name, ".", e.name);
        if (auto cls = ResolveClassName(env_, names_, full)) {
          e.sym.kind = SymbolKind::kType;
          e.sym.owner = *cls;
          Denotation d;
          d.kind = Denotation::kType;
          d.name = *cls;
          return d;
        }
        e.sym.kind = SymbolKind::kPackage;
        recv.name = full;
        return recv;
      }
      case Denotation::kType: {
        if (auto f = LookupField(env_, recv.name, e.name)) {
          if (!f->field->is_static) {
            Error(e.name_span, absl::StrCat("instance field '", e.name,
                                            "' cannot be accessed through the class ", recv.name));
            return ValueOf(Type::Error());
          }
          return ValueOf(UseField(e, *f, e.name_span, true));
        }
        std::string member = absl::StrCat(recv.name, "$", e.name);
        if (env_.FindClass(member) != nullptr) {
          e.sym.kind = SymbolKind::kType;
          e.sym.owner = member;
          Denotation d;
          d.kind = Denotation::kType;
          d.name = member;
          return d;
        }
        Error(e.name_span, absl::StrCat("unknown field '", e.name, "' in class ", recv.name,
                                        DidYouMean(e.name, FieldCandidates(recv.name))));
        return ValueOf(Type::Error());
      }
      case Denotation::kSuper: {
        const ClassInfo* info = env_.FindClass(class_name_);
        std::string super = info != nullptr ? info->superclass : "";
        if (auto f = super.empty() ? std::nullopt : LookupField(env_, super, e.name)) {
          return ValueOf(UseField(e, *f, e.name_span, false));
        }
        Error(e.name_span, absl::StrCat("unknown field '", e.name, "' in superclass ", super));
        return ValueOf(Type::Error());
      }
      case Denotation::kValue:
        break;
    }
    const Type& t = recv.type;
    if (t.IsError()) return ValueOf(Type::Error());
    if (t.IsArray()) {
      if (e.name == "length") {
        e.sym.kind = SymbolKind::kArrayLength;
        return ValueOf(Type::Int());
      }
      Error(e.name_span, absl::StrCat("arrays have no field '", e.name, "' (only length)"));
      return ValueOf(Type::Error());
    }
    if (!t.IsClass()) {
      Error(e.name_span,
            absl::StrCat("cannot access field '", e.name, "' of a value of type ", TypeName(t)));
      return ValueOf(Type::Error());
    }
    if (env_.FindClass(t.class_name()) == nullptr) {
      Error(e.name_span,
            absl::StrCat("unknown field '", e.name, "': class ", t.class_name(), " is not known"));
      return ValueOf(Type::Error());
    }
    if (auto f = LookupField(env_, t.class_name(), e.name))
      return ValueOf(UseField(e, *f, e.name_span, true));
    Error(e.name_span, absl::StrCat("unknown field '", e.name, "' in class ", t.class_name(),
                                    DidYouMean(e.name, FieldCandidates(t.class_name()))));
    return ValueOf(Type::Error());
  }

  Denotation ResolveReceiver(Expr& e) {
    Denotation d;
    switch (e.kind) {
      case ExprKind::kName:
        d = ResolveName(e);
        break;
      case ExprKind::kFieldAccess:
        d = ResolveFieldAccess(e);
        break;
      case ExprKind::kSuper:
        if (!InstanceAllowed(e.span, "'super'")) return ValueOf(Type::Error());
        d.kind = Denotation::kSuper;
        break;
      default:
        return ValueOf(Check(e));
    }
    if (d.kind == Denotation::kValue) e.type = d.type;
    return d;
  }

  Type AsValue(Expr& e, const Denotation& d) {
    switch (d.kind) {
      case Denotation::kValue:
        return d.type;
      case Denotation::kType:
        Error(e.span, absl::StrCat("'", PrintExpr(e), "' is a type, not a value"));
        return Type::Error();
      case Denotation::kPackage:
        Error(d.first_span, absl::StrCat("unknown name '", d.first_name, "'",
                                         DidYouMean(d.first_name, NameCandidates())));
        return Type::Error();
      case Denotation::kSuper:
        Error(e.span, "'super' can only be used to access a field or method");
        return Type::Error();
    }
    return Type::Error();
  }

  // Overload resolution (JLS §15.12.2, phases 1-3).
  const MethodLookup* ChooseMethod(const std::vector<MethodLookup>& candidates,
                                   const std::vector<Type>& args) {
    for (int phase = 1; phase <= 3; ++phase) {
      std::vector<const MethodLookup*> applicable;
      for (const auto& c : candidates) {
        const auto& params = c.method->params;
        bool ok = true;
        if (phase < 3) {
          if (params.size() != args.size()) continue;
          for (size_t i = 0; i < args.size() && ok; ++i) {
            ok = IsConvertibleForCall(env_, args[i], params[i], phase == 2);
          }
        } else {
          if (!c.method->is_varargs || params.empty() || args.size() + 1 < params.size()) continue;
          for (size_t i = 0; i + 1 < params.size() && ok; ++i)
            ok = IsConvertibleForCall(env_, args[i], params[i], true);
          Type elem = params.back().ElementType();
          for (size_t i = params.size() - 1; i < args.size() && ok; ++i) {
            ok = IsConvertibleForCall(env_, args[i], elem, true);
          }
        }
        if (ok) applicable.push_back(&c);
      }
      if (applicable.empty()) continue;
      // Most specific: every parameter converts to the other's.
      const MethodLookup* best = nullptr;
      for (const MethodLookup* a : applicable) {
        bool most = true;
        for (const MethodLookup* b : applicable) {
          if (a == b || a->method->params.size() != b->method->params.size()) continue;
          for (size_t i = 0; i < a->method->params.size() && most; ++i) {
            most = IsConvertibleForCall(env_, a->method->params[i], b->method->params[i], false);
          }
        }
        if (most) {
          if (best != nullptr) return nullptr;  // ambiguous
          best = a;
        }
      }
      return best;  // nullptr: ambiguous
    }
    return nullptr;
  }

  std::string Signature(const std::string& name, const std::vector<Type>& types) {
    std::vector<std::string> parts;
    for (const auto& t : types) parts.push_back(TypeName(t));
    return absl::StrCat(name, "(", absl::StrJoin(parts, ", "), ")");
  }

  Type CheckCall(Expr& e) {
    std::string cls;
    bool static_only = false;
    bool implicit = !e.flag;
    std::vector<MethodLookup> candidates;
    if (implicit) {
      cls = class_name_;
      candidates = LookupMethods(env_, cls, e.name);
      if (candidates.empty()) {
        std::string owner = StaticImportOwner(e.name, /*field=*/false);
        if (!owner.empty()) {
          cls = owner;
          static_only = true;
          candidates = LookupMethods(env_, cls, e.name);
        }
      }
    } else {
      Denotation recv = ResolveReceiver(*e.operands[0]);
      switch (recv.kind) {
        case Denotation::kType:
          cls = recv.name;
          static_only = true;
          break;
        case Denotation::kSuper: {
          const ClassInfo* info = env_.FindClass(class_name_);
          cls =
              info != nullptr && !info->superclass.empty() ? info->superclass : "java.lang.Object";
          break;
        }
        case Denotation::kPackage:
          AsValue(*e.operands[0], recv);
          return Type::Error();
        case Denotation::kValue:
          if (recv.type.IsError()) return Type::Error();
          if (recv.type.IsArray()) {
            cls = "java.lang.Object";
          } else if (recv.type.IsClass()) {
            cls = recv.type.class_name();
          } else {
            Error(e.name_span, absl::StrCat("cannot call method '", e.name, "' on a value of type ",
                                            TypeName(recv.type)));
            return Type::Error();
          }
          break;
      }
      candidates = LookupMethods(env_, cls, e.name);
    }
    std::vector<Type> arg_types;
    bool arg_error = false;
    for (size_t i = e.flag ? 1 : 0; i < e.operands.size(); ++i) {
      arg_types.push_back(Check(*e.operands[i]));
      arg_error |= arg_types.back().IsError();
    }
    if (candidates.empty()) {
      std::vector<std::string> names;
      if (const ClassInfo* info = env_.FindClass(cls)) {
        for (const auto& m : info->methods) names.push_back(m.name);
      }
      Error(e.name_span,
            absl::StrCat(
                env_.FindClass(cls) == nullptr ? "unknown class " : "unknown method '",
                env_.FindClass(cls) == nullptr ? cls : absl::StrCat(e.name, "' in class ", cls),
                DidYouMean(e.name, names)));
      return Type::Error();
    }
    if (arg_error) return Type::Error();
    const MethodLookup* chosen = ChooseMethod(candidates, arg_types);
    if (chosen == nullptr) {
      std::vector<std::string> sigs;
      for (const auto& c : candidates) sigs.push_back(Signature(e.name, c.method->params));
      std::sort(sigs.begin(), sigs.end());
      Error(e.name_span,
            absl::StrCat("no unique method ", Signature(e.name, arg_types), " in class ", cls,
                         "; candidates: ", absl::StrJoin(sigs, ", ")));
      return Type::Error();
    }
    const MethodInfo& m = *chosen->method;
    e.sym.kind = SymbolKind::kMethod;
    e.sym.owner = chosen->owner->name;
    e.sym.descriptor = m.descriptor;
    e.sym.is_static = m.is_static;
    e.sym.is_model = m.is_model;
    std::string full = absl::StrCat(chosen->owner->name, ".", m.name, m.descriptor);
    if (m.is_constructor) {
      Error(e.name_span, "constructors cannot be called in specifications");
      return Type::Error();
    }
    if (static_only && !m.is_static) {
      Error(e.name_span, absl::StrCat("instance method '", e.name,
                                      "' cannot be called through the class ", cls));
      return Type::Error();
    }
    if (implicit && !m.is_static &&
        !InstanceAllowed(e.name_span, absl::StrCat("instance method '", e.name, "'"))) {
      return Type::Error();
    }
    if (options_.require_pure_calls && !m.is_pure) {
      Error(e.name_span,
            absl::StrCat("method '", full,
                         "' is not pure; a specification may only call pure methods (declare it "
                         "/*@ pure @*/)"));
      return Type::Error();
    }
    CheckVisibility(e.name_span, absl::StrCat("method '", e.name, "'"), m.visibility, m.spec_public,
                    m.spec_protected);
    if (m.result.IsVoid()) {
      Error(e.name_span, absl::StrCat("method '", full, "' returns void, which has no value"));
      return Type::Error();
    }
    return m.result;
  }

  std::string BinaryOperandError(const Expr& e, const Type& l, const Type& r) {
    return absl::StrCat("operator '", BinaryOpText(e.binary_op), "' cannot be applied to ",
                        TypeName(l), " and ", TypeName(r));
  }

  Type Arith(const Type& t) {
    if (math_ == MathMode::kBigint && (t.Is(Type::Kind::kInt) || t.Is(Type::Kind::kLong)))
      return Type::Bigint();
    return t;
  }

  Type CheckBinary(Expr& e) {
    Expr& le = *e.operands[0];
    Expr& re = *e.operands[1];
    Type l = Check(le);
    Type r = Check(re);
    if (l.IsError() || r.IsError()) return Type::Error();
    switch (e.binary_op) {
      case BinaryOp::kEquiv:
      case BinaryOp::kInequiv:
      case BinaryOp::kImplies:
      case BinaryOp::kReverseImplies:
      case BinaryOp::kOr:
      case BinaryOp::kAnd:
        if (IsBooleanish(l) && IsBooleanish(r)) return Type::Boolean();
        Error(IsBooleanish(l) ? re.span : le.span, BinaryOperandError(e, l, r));
        return Type::Error();
      case BinaryOp::kBitOr:
      case BinaryOp::kBitXor:
      case BinaryOp::kBitAnd:
        if (IsBooleanish(l) && IsBooleanish(r)) return Type::Boolean();
        if (IsIntegralish(l) && IsIntegralish(r)) return BinaryPromote(l, r);
        Error(e.span, BinaryOperandError(e, l, r));
        return Type::Error();
      case BinaryOp::kEq:
      case BinaryOp::kNe: {
        if (IsNumericish(l) && IsNumericish(r) &&
            (l.IsPrimitive() || r.IsPrimitive() || l.IsNumeric() || r.IsNumeric())) {
          return Type::Boolean();
        }
        if (IsBooleanish(l) && IsBooleanish(r) && (l.IsBoolean() || r.IsBoolean()))
          return Type::Boolean();
        if (l.IsTypeOfType() && r.IsTypeOfType()) return Type::Boolean();
        if (l.IsReference() && r.IsReference()) {
          if (IsCastable(env_, l, r)) return Type::Boolean();
          Error(e.span, absl::StrCat("incomparable types ", TypeName(l), " and ", TypeName(r),
                                     " in '", BinaryOpText(e.binary_op), "'"));
          return Type::Error();
        }
        Error(e.span, absl::StrCat("incomparable types ", TypeName(l), " and ", TypeName(r),
                                   " in '", BinaryOpText(e.binary_op), "'"));
        return Type::Error();
      }
      case BinaryOp::kLt:
      case BinaryOp::kLe:
      case BinaryOp::kGt:
      case BinaryOp::kGe:
        if (IsNumericish(l) && IsNumericish(r)) return Type::Boolean();
        Error(e.span, BinaryOperandError(e, l, r));
        return Type::Error();
      case BinaryOp::kSubtype:
        if (l.IsTypeOfType() && r.IsTypeOfType()) return Type::Boolean();
        Error(e.span,
              absl::StrCat(
                  "operator '<:' compares \\TYPE values (from \\type(T) or \\typeof(e)), found ",
                  TypeName(l), " and ", TypeName(r)));
        return Type::Error();
      case BinaryOp::kShl:
      case BinaryOp::kShr:
      case BinaryOp::kUshr: {
        Type pl = UnaryPromote(l), pr = UnaryPromote(r);
        if (pl.IsIntegral() && pr.IsIntegral() && !pl.IsBigint() && !pr.IsBigint()) return pl;
        Error(e.span, BinaryOperandError(e, l, r));
        return Type::Error();
      }
      case BinaryOp::kAdd:
        if ((l.IsClass() && l.class_name() == "java.lang.String") ||
            (r.IsClass() && r.class_name() == "java.lang.String")) {
          if (!l.IsVoid() && !r.IsVoid() && !l.IsBigint() && !r.IsBigint() && !l.IsReal() &&
              !r.IsReal()) {
            return Type::String();
          }
        }
        [[fallthrough]];
      case BinaryOp::kSub:
      case BinaryOp::kMul:
      case BinaryOp::kDiv:
      case BinaryOp::kRem: {
        Type t = BinaryPromote(l, r);
        if (t.IsError()) {
          Error(e.span, BinaryOperandError(e, l, r));
          return t;
        }
        return Arith(t);
      }
    }
    return Type::Error();
  }

  Type CheckConditional(Expr& e) {
    CheckBoolean(*e.operands[0], "the condition of '?:'");
    Type a = Check(*e.operands[1]);
    Type b = Check(*e.operands[2]);
    if (a.IsError() || b.IsError()) return Type::Error();
    if (a == b) return a;
    if (IsBooleanish(a) && IsBooleanish(b)) return Type::Boolean();
    if (IsNumericish(a) && IsNumericish(b) &&
        (a.IsPrimitive() || b.IsPrimitive() || a.IsNumeric())) {
      return BinaryPromote(a, b);
    }
    if (a.IsNull() && b.IsPrimitive()) return BoxedType(b);
    if (b.IsNull() && a.IsPrimitive()) return BoxedType(a);
    if (a.IsReference() && b.IsReference()) {
      if (a.IsNull()) return b;
      if (b.IsNull()) return a;
      if (IsAssignable(env_, a, b)) return b;
      if (IsAssignable(env_, b, a)) return a;
      return Type::Object();
    }
    Error(e.span, absl::StrCat("incompatible types in '?:': ", TypeName(a), " and ", TypeName(b)));
    return Type::Error();
  }

  Type CheckQuantifier(Expr& e) {
    Type vt = Resolve(e.type_ref);
    if (vt.IsVoid()) Error(e.type_ref.span, "a bound variable cannot have type void");
    size_t mark = ScopeMark();
    for (size_t i = 0; i < e.bound_vars.size(); ++i) {
      Declare(e.bound_vars[i].name, e.bound_vars[i].span, vt, SymbolKind::kBoundVar,
              static_cast<int>(i), &e);
    }
    std::string q = QuantifierText(e.quantifier);
    if (e.flag) CheckBoolean(*e.operands[0], absl::StrCat("the range of ", q));
    Expr& body = *e.operands.back();
    Type result;
    switch (e.quantifier) {
      case QuantifierKind::kForall:
      case QuantifierKind::kExists:
        CheckBoolean(body, absl::StrCat("the body of ", q));
        result = Type::Boolean();
        break;
      case QuantifierKind::kNumOf:
        CheckBoolean(body, absl::StrCat("the body of ", q));
        result = math_ == MathMode::kBigint ? Type::Bigint() : Type::Long();
        break;
      default: {
        Type t = Check(body);
        if (t.IsError()) {
          result = t;
        } else if (!IsNumericish(t)) {
          Error(body.span,
                absl::StrCat("the body of ", q, " must be numeric, found ", TypeName(t)));
          result = Type::Error();
        } else {
          result = UnaryPromote(t);
          if (e.quantifier == QuantifierKind::kSum || e.quantifier == QuantifierKind::kProduct) {
            result = Arith(result);
          }
        }
        break;
      }
    }
    PopScope(mark);
    return result;
  }

  // (\let T x = init; body): init is checked before x is declared (a later
  // binding sees the earlier ones) and must be assignable to T; the value is
  // the body's.
  Type CheckLet(Expr& e) {
    Type vt = Resolve(e.type_ref);
    if (vt.IsVoid()) Error(e.type_ref.span, "a \\let variable cannot have type void");
    const BoundVar& v = e.bound_vars[0];
    CheckAssignable(*e.operands[0], vt, absl::StrCat("\\let variable '", v.name, "'"));
    size_t mark = ScopeMark();
    Declare(v.name, v.span, vt, SymbolKind::kBoundVar, 0, &e);
    Type result = Check(*e.operands[1]);
    PopScope(mark);
    return result;
  }

  bool PostPhase() const {
    return phase_ == Phase::kPost || phase_ == Phase::kExceptional ||
           phase_ == Phase::kConstraint || phase_ == Phase::kBody;
  }

  // Checks an argument of \\fn, which must satisfy `ok`.
  void CheckArgument(Expr& arg, const std::string& fn, const char* what, bool (Type::*ok)() const) {
    Type t = Check(arg);
    if (!t.IsError() && !(t.*ok)()) {
      Error(arg.span, absl::StrCat("\\", fn, " takes ", what, ", found ", TypeName(t)));
    }
  }

  Type CheckJmlCall(Expr& e) {
    const std::string& n = e.name;
    if (n == "fresh" || n == "not_modified") {
      if (!PostPhase() || phase_ == Phase::kBody) {
        Error(e.span,
              absl::StrCat("'\\", n, "' is only allowed in postconditions, not in ", where_));
        return Type::Error();
      }
    }
    if (n == "fresh") {
      for (auto& a : e.operands) CheckArgument(*a, n, "references", &Type::IsReference);
      return Type::Boolean();
    }
    if (n == "nonnullelements") {
      CheckArgument(*e.operands[0], n, "an array", &Type::IsArray);
      return Type::Boolean();
    }
    if (n == "typeof") {
      Check(*e.operands[0]);
      return Type::TypeOfType();
    }
    if (n == "elemtype") {
      CheckArgument(*e.operands[0], n, "a \\TYPE", &Type::IsTypeOfType);
      return Type::TypeOfType();
    }
    if (n == "type") {
      Resolve(e.type_ref);
      return Type::TypeOfType();
    }
    if (n == "invariant_for") {
      CheckArgument(*e.operands[0], n, "an object", &Type::IsClass);
      return Type::Boolean();
    }
    if (n == "not_modified") {
      for (auto& r : e.store_refs) CheckStoreRef(r, /*allow_locals=*/false, "\\not_modified");
      return Type::Boolean();
    }
    Unsupported(e.span, absl::StrCat("JML construct '\\", n, "'"));
    return Type::Error();
  }

  Type CheckCast(Expr& e) {
    Type to = Resolve(e.type_ref);
    Type from = Check(*e.operands[0]);
    if (to.IsError() || from.IsError()) return to;
    if (to.IsVoid()) {
      Error(e.type_ref.span, "cannot cast to void");
      return Type::Error();
    }
    if (!IsCastable(env_, from, to)) {
      Error(e.span, absl::StrCat("cannot cast ", TypeName(from), " to ", TypeName(to)));
      return Type::Error();
    }
    return to;
  }

  Type CheckImpl(Expr& e) {
    switch (e.kind) {
      case ExprKind::kLiteral:
        switch (e.literal.kind) {
          case LiteralKind::kNull:
            return Type::Null();
          case LiteralKind::kBoolean:
            return Type::Boolean();
          case LiteralKind::kInt:
            return Type::Int();
          case LiteralKind::kLong:
            return Type::Long();
          case LiteralKind::kFloat:
            return Type::Float();
          case LiteralKind::kDouble:
            return Type::Double();
          case LiteralKind::kChar:
            return Type::Char();
          case LiteralKind::kString:
            return Type::String();
        }
        return Type::Error();
      case ExprKind::kName:
      case ExprKind::kFieldAccess: {
        Denotation d = e.kind == ExprKind::kName ? ResolveName(e) : ResolveFieldAccess(e);
        return AsValue(e, d);
      }
      case ExprKind::kThis:
        if (!InstanceAllowed(e.span, "'this'")) return Type::Error();
        return Type::Class(class_name_);
      case ExprKind::kSuper:
        Error(e.span, "'super' can only be used to access a field or method");
        return Type::Error();
      case ExprKind::kQualifiedThis: {
        auto cls = ResolveClassName(env_, names_, e.type_ref.name);
        if (cls && *cls == class_name_) {
          if (!InstanceAllowed(e.span, "'this'")) return Type::Error();
          return Type::Class(class_name_);
        }
        Unsupported(e.span, absl::StrCat("'", e.type_ref.name, ".this' of an enclosing instance"));
        return Type::Error();
      }
      case ExprKind::kArrayAccess: {
        Type a = Check(*e.operands[0]);
        Type i = Check(*e.operands[1]);
        if (!i.IsError()) {
          Type pi = UnaryPromote(i);
          if (!(pi.Is(Type::Kind::kInt) || pi.IsBigint())) {
            Error(e.operands[1]->span,
                  absl::StrCat("array index must be int, found ", TypeName(i)));
          }
        }
        if (a.IsError()) return a;
        if (!a.IsArray()) {
          Error(e.operands[0]->span, absl::StrCat("array required, but ", TypeName(a), " found"));
          return Type::Error();
        }
        return a.ElementType();
      }
      case ExprKind::kMethodCall:
        return CheckCall(e);
      case ExprKind::kUnary: {
        Type t = Check(*e.operands[0]);
        if (t.IsError()) return t;
        switch (e.unary_op) {
          case UnaryOp::kNot:
            if (IsBooleanish(t)) return Type::Boolean();
            break;
          case UnaryOp::kComplement:
            if (IsIntegralish(t)) return UnaryPromote(t);
            break;
          case UnaryOp::kMinus:
            if (IsNumericish(t)) return Arith(UnaryPromote(t));
            break;
          case UnaryOp::kPlus:
            if (IsNumericish(t)) return UnaryPromote(t);
            break;
        }
        Error(e.span, absl::StrCat("operator '", UnaryOpText(e.unary_op), "' cannot be applied to ",
                                   TypeName(t)));
        return Type::Error();
      }
      case ExprKind::kBinary:
        return CheckBinary(e);
      case ExprKind::kConditional:
        return CheckConditional(e);
      case ExprKind::kCast:
        return CheckCast(e);
      case ExprKind::kInstanceOf: {
        Type t = Check(*e.operands[0]);
        Type target = Resolve(e.type_ref);
        if (t.IsError() || target.IsError()) return Type::Boolean();
        if (!t.IsReference() || !target.IsReference()) {
          Error(e.span, absl::StrCat("instanceof needs a reference and a reference type, found ",
                                     TypeName(t), " and ", TypeName(target)));
        } else if (!IsCastable(env_, t, target)) {
          Error(e.span, absl::StrCat("incompatible types: ", TypeName(t), " can never be a ",
                                     TypeName(target)));
        }
        return Type::Boolean();
      }
      case ExprKind::kQuantifier:
        return CheckQuantifier(e);
      case ExprKind::kLet:
        return CheckLet(e);
      case ExprKind::kOld: {
        if (!PostPhase()) {
          Error(e.span,
                absl::StrCat("'", e.flag ? "\\pre" : "\\old", "' cannot be used in ", where_,
                             "; it refers to the pre-state, so it belongs in postconditions"));
          return Type::Error();
        }
        if (in_old_) {
          Error(e.span, "'\\old' cannot be nested inside another '\\old'");
          return Type::Error();
        }
        if (!e.name.empty() && e.name != "Pre" && e.name != "Old" && e.name != "Here") {
          Unsupported(e.name_span, absl::StrCat("\\old with the statement label '", e.name, "'"));
          return Type::Error();
        }
        in_old_ = true;
        Type t = Check(*e.operands[0]);
        in_old_ = false;
        return t;
      }
      case ExprKind::kResult: {
        if (phase_ != Phase::kPost) {
          Error(e.span,
                absl::StrCat("'\\result' cannot be used in ", where_, "; only in ensures clauses"));
          return Type::Error();
        }
        if (in_old_) {
          Error(e.span, "'\\result' cannot be used inside '\\old'");
          return Type::Error();
        }
        if (method_ == nullptr || method_->method.result.IsVoid()) {
          Error(e.span,
                absl::StrCat(
                    "'\\result' cannot be used: ",
                    method_ != nullptr && method_->method.is_constructor
                        ? "a constructor returns no value"
                        : absl::StrCat("method ", method_ != nullptr ? method_->method.name : "",
                                       " returns void")));
          return Type::Error();
        }
        return method_->method.result;
      }
      case ExprKind::kJmlKeyword:
        if (e.name == "not_specified") {
          Error(e.span, "'\\not_specified' can only stand alone as the predicate of a clause");
        } else if (e.name == "nothing" || e.name == "everything") {
          Error(e.span,
                absl::StrCat("'\\", e.name,
                             "' is a set of locations, only allowed in assignable clauses"));
        } else {
          Unsupported(e.span, absl::StrCat("JML construct '\\", e.name, "'"));
        }
        return Type::Error();
      case ExprKind::kJmlCall:
        return CheckJmlCall(e);
      case ExprKind::kLabeled:
        CheckBoolean(*e.operands[0], absl::StrCat("the labeled expression '", e.name, "'"));
        return Type::Boolean();
      case ExprKind::kInformal:
        Unsupported(e.span, "informal description '(* ... *)' cannot be checked");
        return Type::Error();
      case ExprKind::kNewArray:
        return CheckNewArray(e);
      case ExprKind::kNewObject:
        Unsupported(e.span, "object creation in specifications");
        return Type::Error();
      case ExprKind::kArrayInit:
        // Only inside an array creation (CheckArrayInitializer).
        Error(e.span, "an array initializer outside an array creation");
        return Type::Error();
      case ExprKind::kClassLiteral:
        Unsupported(e.span, "class literals (use \\type(T) to talk about types)");
        return Type::Error();
    }
    return Type::Error();
  }

 public:
  // `requires \same;` replaced by what it means here (see the definition).
  void ExpandSamePreconditions(MethodSpec& spec);

  // ---- Store references ----

  void CheckStoreRef(StoreRef& r, bool allow_locals, const std::string& clause) {
    switch (r.kind) {
      case StoreRef::Kind::kNothing:
      case StoreRef::Kind::kEverything:
      case StoreRef::Kind::kNotSpecified:
        return;
      case StoreRef::Kind::kInformal:
        Unsupported(r.span, "informal description '(* ... *)' as a location");
        return;
      case StoreRef::Kind::kLocation: {
        Expr& e = *r.expr;
        Type t = Check(e);
        if (t.IsError()) return;
        if (e.kind == ExprKind::kArrayAccess) return;
        if (e.kind == ExprKind::kThis) {
          Error(e.span,
                absl::StrCat("'this' is not a location; use this.* for all fields in ", clause));
          return;
        }
        switch (e.sym.kind) {
          case SymbolKind::kField:
            return;
          case SymbolKind::kArrayLength:
            Error(e.name_span,
                  absl::StrCat("the length of an array cannot change; remove it from ", clause));
            return;
          case SymbolKind::kParameter:
            Error(e.span,
                  absl::StrCat(
                      clause, " names parameter '", e.name,
                      "'; parameters are passed by value, so assigning one is invisible to callers "
                      "(did you mean ",
                      e.name, "[*] or ", e.name, ".*?)"));
            return;
          case SymbolKind::kLocal:
          case SymbolKind::kGhostLocal:
            if (allow_locals) return;
            break;
          default:
            break;
        }
        Error(e.span, absl::StrCat("'", PrintExpr(e), "' is not a location that can be assigned"));
        return;
      }
      case StoreRef::Kind::kAllFields: {
        Expr& e = *r.expr;
        if (e.kind == ExprKind::kName || e.kind == ExprKind::kFieldAccess) {
          Denotation d = e.kind == ExprKind::kName ? ResolveName(e) : ResolveFieldAccess(e);
          if (d.kind == Denotation::kType) return;  // C.*: the static fields of C
          Type t = AsValue(e, d);
          e.type = t;
          if (!t.IsError() && !t.IsClass()) {
            Error(e.span, absl::StrCat("'.*' needs an object, found ", TypeName(t)));
          }
          return;
        }
        Type t = Check(e);
        if (!t.IsError() && !t.IsClass())
          Error(e.span, absl::StrCat("'.*' needs an object, found ", TypeName(t)));
        return;
      }
      case StoreRef::Kind::kAllElements:
      case StoreRef::Kind::kArrayRange: {
        Type t = Check(*r.expr);
        if (!t.IsError() && !t.IsArray()) {
          Error(r.expr->span, absl::StrCat("array required, but ", TypeName(t), " found"));
        }
        for (ExprPtr* bound : {&r.lo, &r.hi}) {
          if (!*bound) continue;
          Type bt = Check(**bound);
          if (!bt.IsError() && !(UnaryPromote(bt).Is(Type::Kind::kInt) || bt.IsBigint())) {
            Error((*bound)->span, absl::StrCat("array index must be int, found ", TypeName(bt)));
          }
        }
        return;
      }
    }
  }

  // ---- Clauses ----

  void CheckPredicate(ExprPtr& pred, const std::string& what) {
    if (!pred) return;
    if (pred->kind == ExprKind::kJmlKeyword && pred->name == "not_specified") {
      pred->type = Type::Boolean();
      return;
    }
    if (pred->kind == ExprKind::kJmlKeyword && pred->name == "same") {
      Unsupported(pred->span, "'\\same' outside a requires clause");
      return;
    }
    CheckBoolean(*pred, what);
  }

  void CheckClause(Clause& c, Behavior behavior) {
    std::string kw = ClauseKeyword(c.kind);
    std::string what = absl::StrCat("the ", kw, " clause");
    NoteOmittedSemicolon(c.semicolon_omitted, c.span, what);
    auto not_checked = [&] {
      Note(c.span, absl::StrCat(kw, " clause parsed but not checked"));
      set_suppress_unsupported(true);
    };
    switch (c.kind) {
      case ClauseKind::kRequires:
        SetPhase(Phase::kPre, "a requires clause");
        CheckPredicate(c.pred, what);
        break;
      case ClauseKind::kEnsures:
        if (behavior == Behavior::kExceptional || behavior == Behavior::kExceptionalExample) {
          Error(c.span,
                "an exceptional_behavior case cannot have an ensures clause (it promises an "
                "exception)");
        }
        SetPhase(Phase::kPost, "an ensures clause");
        CheckPredicate(c.pred, what);
        break;
      case ClauseKind::kSignals: {
        if (behavior == Behavior::kNormal || behavior == Behavior::kNormalExample) {
          Error(c.span,
                "a normal_behavior case cannot have a signals clause (it promises no exception)");
        }
        Type t = Resolve(c.exception_type);
        if (!t.IsError() && !IsThrowable(t)) {
          Error(c.exception_type.span,
                absl::StrCat("'", TypeName(t),
                             "' in signals is not an exception type (not a subclass of "
                             "java.lang.Throwable)"));
        }
        size_t mark = ScopeMark();
        if (!c.exception_var.empty()) {
          Declare(c.exception_var, c.exception_var_span, t, SymbolKind::kSignalsVar, 0, nullptr);
        }
        SetPhase(Phase::kExceptional, "a signals clause");
        CheckPredicate(c.pred, what);
        PopScope(mark);
        break;
      }
      case ClauseKind::kSignalsOnly:
        if (behavior == Behavior::kNormal || behavior == Behavior::kNormalExample) {
          Error(c.span,
                "a normal_behavior case cannot have a signals_only clause (it promises no "
                "exception)");
        }
        for (auto& ref : c.types) {
          Type t = Resolve(ref);
          if (!t.IsError() && !IsThrowable(t)) {
            Error(ref.span,
                  absl::StrCat("'", TypeName(t),
                               "' in signals_only is not an exception type (not a subclass of "
                               "java.lang.Throwable)"));
          }
        }
        break;
      case ClauseKind::kAssignable:
        SetPhase(Phase::kPre, "an assignable clause");
        for (auto& r : c.store_refs)
          CheckStoreRef(r, /*allow_locals=*/false, "the assignable clause");
        break;
      case ClauseKind::kAccessible:
      case ClauseKind::kCaptures:
        not_checked();
        SetPhase(Phase::kPre, absl::StrCat("an ", kw, " clause"));
        for (auto& r : c.store_refs) CheckStoreRef(r, false, what);
        break;
      case ClauseKind::kCallable:
        not_checked();
        break;
      case ClauseKind::kDiverges:
      case ClauseKind::kWhen:
        not_checked();
        SetPhase(Phase::kPre, absl::StrCat("a ", kw, " clause"));
        CheckPredicate(c.pred, what);
        break;
      case ClauseKind::kWorkingSpace:
      case ClauseKind::kDuration:
      case ClauseKind::kMeasuredBy: {
        not_checked();
        SetPhase(c.kind == ClauseKind::kMeasuredBy ? Phase::kPre : Phase::kPost,
                 absl::StrCat("a ", kw, " clause"));
        if (c.pred && !(c.pred->kind == ExprKind::kJmlKeyword && c.pred->name == "not_specified")) {
          Type t = Check(*c.pred);
          if (!t.IsError() && !IsNumericish(t)) {
            Error(c.pred->span,
                  absl::StrCat("the ", kw, " clause needs a number, found ", TypeName(t)));
          }
        }
        if (c.condition)
          CheckBoolean(*c.condition, absl::StrCat("the condition of the ", kw, " clause"));
        break;
      }
    }
    set_suppress_unsupported(false);
  }

  void CheckCaseBody(SpecCase& c, Behavior behavior) {
    size_t mark = ScopeMark();
    for (auto& v : c.vars) {
      Type t = Resolve(v.type);
      if (v.is_old) {
        SetPhase(Phase::kPre, "an old variable's initializer");
        if (v.init) CheckAssignable(*v.init, t, absl::StrCat("old variable '", v.name, "'"));
        Declare(v.name, v.span, t, SymbolKind::kOldVar, static_cast<int>(&v - c.vars.data()),
                nullptr);
      } else {
        Declare(v.name, v.span, t, SymbolKind::kForallVar, static_cast<int>(&v - c.vars.data()),
                nullptr);
      }
    }
    for (auto& clause : c.clauses) CheckClause(clause, behavior);
    for (auto& n : c.nested) {
      // A nested case with its own header has its own visibility.
      Visibility saved = required_visibility_;
      if (n.behavior != Behavior::kLightweight) set_required_visibility(n.visibility);
      CheckCaseBody(n, NestedBehavior(behavior, n.behavior));
      set_required_visibility(saved);
    }
    PopScope(mark);
  }

  void CheckCase(SpecCase& c) {
    // A lightweight case has the visibility of its method (JML RM §9.2).
    if (c.behavior == Behavior::kLightweight) {
      set_required_visibility(method_ != nullptr ? method_->visibility : Visibility::kPackage);
    } else {
      set_required_visibility(c.visibility);
    }
    CheckCaseBody(c, c.behavior);
  }

 private:
  const TypeEnvironment& env_;
  const TypeCheckOptions& options_;
  std::string class_name_;
  NameContext names_;
  bool static_context_;
  MathMode math_;
  const MethodContext* method_;
  std::vector<Var> scope_;
  Phase phase_ = Phase::kPre;
  std::string where_ = "a requires clause";
  bool in_old_ = false;
  bool suppress_unsupported_ = false;
  Visibility required_visibility_ = Visibility::kPrivate;
  std::vector<absl::Status> errors_;
  std::vector<CheckNote> notes_;
};

Checker MakeChecker(const TypeEnvironment& env, const TypeCheckOptions& options,
                    const MethodContext& ctx) {
  return Checker(env, options, ctx.class_name, ctx.names, ctx.method.is_static, ctx.math_mode,
                 &ctx);
}

}  // namespace

// ---- Contexts ----

absl::StatusOr<MethodContext> MakeMethodContext(const SourceTypeEnvironment& env,
                                                const TypeDecl& decl, const MethodDecl& method,
                                                const TypeCheckOptions& options) {
  const MethodInfo* info = env.InfoFor(decl, method);
  if (info == nullptr) {
    return ErrorAt(method.span, absl::StrCat("method '", method.name, "' is not declared in ",
                                             decl.binary_name));
  }
  MethodContext ctx;
  ctx.class_name = decl.binary_name;
  ctx.method = *info;
  ctx.param_names = info->param_names;
  ctx.names = env.ContextFor(decl, method);
  for (size_t i = 0; i < info->params.size(); ++i) {
    ctx.param_nullity.push_back(
        Effective(i < info->param_nullity.size() ? info->param_nullity[i] : Nullity::kUnspecified,
                  info->params[i], options));
  }
  ctx.result_nullity = Effective(info->result_nullity, info->result, options);
  const ClassInfo* cls = env.FindClass(decl.binary_name);
  ctx.math_mode =
      MathModeOf(info->math_modifiers,
                 MathModeOf(cls != nullptr ? cls->math_modifiers : std::vector<std::string>{},
                            MathMode::kJava));
  ctx.visibility = info->visibility;
  return ctx;
}

absl::StatusOr<MethodContext> MakeMethodContext(
    const TypeEnvironment& env, const std::string& class_name, const std::string& method_name,
    const std::string& descriptor, const std::vector<std::string>& param_names, NameContext names,
    const TypeCheckOptions& options) {
  const ClassInfo* cls = env.FindClass(class_name);
  if (cls == nullptr) return absl::NotFoundError(absl::StrCat("unknown class ", class_name));
  const MethodInfo* info = cls->FindMethod(method_name, descriptor);
  if (info == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("no method ", method_name, descriptor, " in class ", class_name));
  }
  MethodContext ctx;
  ctx.class_name = class_name;
  ctx.method = *info;
  ctx.param_names = param_names.empty() ? info->param_names : param_names;
  if (ctx.param_names.size() != info->params.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("method ", class_name, ".", method_name, descriptor, " has ",
                     info->params.size(), " parameters but ", ctx.param_names.size(),
                     " names are known; the specification needs their names"));
  }
  if (names.enclosing_class.empty()) names.enclosing_class = class_name;
  if (names.package.empty()) {
    size_t dot = class_name.rfind('.');
    if (dot != std::string::npos) names.package = class_name.substr(0, dot);
  }
  ctx.names = std::move(names);
  for (size_t i = 0; i < info->params.size(); ++i) {
    ctx.param_nullity.push_back(
        Effective(i < info->param_nullity.size() ? info->param_nullity[i] : Nullity::kUnspecified,
                  info->params[i], options));
  }
  ctx.result_nullity = Effective(info->result_nullity, info->result, options);
  ctx.math_mode =
      MathModeOf(info->math_modifiers, MathModeOf(cls->math_modifiers, MathMode::kJava));
  ctx.visibility = info->visibility;
  return ctx;
}

// ---- TypeChecker ----

TypeChecker::TypeChecker(const TypeEnvironment& env, TypeCheckOptions options)
    : env_(env), options_(std::move(options)) {}

namespace {

bool IsSameKeyword(const Expr* e) {
  return e != nullptr && e->kind == ExprKind::kJmlKeyword && e->name == "same";
}

ExprPtr BoolLiteral(bool value, const SourceSpan& span) {
  auto e = std::make_unique<Expr>();
  e->span = span;
  e->literal.kind = LiteralKind::kBoolean;
  e->literal.bits = value ? 1 : 0;
  return e;
}

ExprPtr Join(BinaryOp op, ExprPtr a, ExprPtr b) {
  if (!a) return b;
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kBinary;
  e->binary_op = op;
  e->span = a->span;
  e->height = std::max(a->height, b->height) + 1;
  e->operands.push_back(std::move(a));
  e->operands.push_back(std::move(b));
  return e;
}

void CollectSameClauses(SpecCase& c, std::vector<Clause*>* out) {
  for (Clause& cl : c.clauses) {
    if (cl.kind == ClauseKind::kRequires && IsSameKeyword(cl.pred.get())) out->push_back(&cl);
  }
  for (SpecCase& n : c.nested) CollectSameClauses(n, out);
}

}  // namespace

// `requires \same;` (JML RM §9.9.1) means the precondition of the
// specification being refined. Inherited specifications are not read here,
// so for a single method it is the precondition of the method's other
// specification cases: the disjunction, over the (flattened) cases without
// \same, of the conjunction of their requires clauses (`true` when there is
// no such case, the default precondition). The predicate replaces \same,
// with a note that says so.
void Checker::ExpandSamePreconditions(MethodSpec& spec) {
  std::vector<Clause*> same;
  for (SpecCase& c : spec.cases) CollectSameClauses(c, &same);
  if (same.empty()) return;
  ExprPtr pre;
  for (const FlatCase& fc : FlattenSpecCases(spec)) {
    bool uses_same = false;
    ExprPtr conj;
    for (const Clause* cl : fc.clauses) {
      if (cl->kind != ClauseKind::kRequires || !cl->pred) continue;
      if (IsSameKeyword(cl->pred.get())) uses_same = true;
      if (cl->pred->kind == ExprKind::kJmlKeyword) continue;  // \same, \not_specified
      conj = Join(BinaryOp::kAnd, std::move(conj), CloneExpr(*cl->pred));
    }
    if (uses_same) continue;
    if (!fc.vars.empty()) {
      Unsupported(same[0]->pred->span,
                  absl::StrCat("'requires \\same' with a case that declares forall/old variables (",
                               fc.label, ")"));
      return;
    }
    if (!conj) conj = BoolLiteral(true, fc.span);
    pre = Join(BinaryOp::kOr, std::move(pre), std::move(conj));
  }
  if (!pre) pre = BoolLiteral(true, same[0]->span);
  std::string text = PrintExpr(*pre);
  for (Clause* cl : same) {
    SourceSpan span = cl->pred->span;
    cl->pred = CloneExpr(*pre);
    Note(span, absl::StrCat("'requires \\same' read as the precondition of the method's other "
                            "specification cases: ",
                            text, spec.extending ? " (an inherited specification is not read)" : ""));
  }
}

absl::StatusOr<TypeCheckResult> TypeChecker::CheckMethodSpec(MethodSpec& spec,
                                                             const MethodContext& ctx) const {
  Checker checker = MakeChecker(env_, options_, ctx);
  checker.ExpandSamePreconditions(spec);
  for (auto& c : spec.cases) checker.CheckCase(c);
  for (auto* extra : {&spec.implies_that, &spec.examples}) {
    for (auto& c : *extra) {
      checker.Note(c.span, absl::StrCat(extra == &spec.examples ? "for_example" : "implies_that",
                                        " case parsed but not checked"));
      checker.set_suppress_unsupported(true);
      checker.CheckCase(c);
      checker.set_suppress_unsupported(false);
    }
  }
  return checker.Finish();
}

absl::StatusOr<Type> TypeChecker::CheckExpression(Expr& e, const MethodContext& ctx,
                                                  Position position) const {
  Checker checker = MakeChecker(env_, options_, ctx);
  switch (position) {
    case Position::kPrecondition:
      checker.SetPhase(Checker::Phase::kPre, "a requires clause");
      break;
    case Position::kPostcondition:
      checker.SetPhase(Checker::Phase::kPost, "an ensures clause");
      break;
    case Position::kExceptional:
      checker.SetPhase(Checker::Phase::kExceptional, "a signals clause");
      break;
  }
  checker.Check(e);
  TS_RETURN_IF_ERROR(checker.Finish().status());
  return e.type;
}

absl::StatusOr<TypeCheckResult> TypeChecker::CheckClassDecl(
    TypeDecl& decl, const SourceTypeEnvironment& env) const {
  NameContext names = env.ContextFor(decl);
  const ClassInfo* cls = env_.FindClass(decl.binary_name);
  MathMode math = MathModeOf(cls != nullptr ? cls->math_modifiers : std::vector<std::string>{},
                             MathMode::kJava);
  bool is_interface = decl.kind == TypeDeclKind::kInterface;
  Checker checker(env_, options_, decl.binary_name, names, false, math, nullptr);
  for (auto& c : decl.clauses) {
    bool is_static = c.mods.Has(kModStatic) || (is_interface && !c.mods.Has(kModInstance));
    checker.set_static_context(is_static);
    checker.set_required_visibility(c.mods.visibility());
    std::string kw = ClassClauseKeyword(c.kind);
    std::string what = absl::StrCat("the ", kw, " clause");
    checker.NoteOmittedSemicolon(c.semicolon_omitted, c.span, what);
    switch (c.kind) {
      case ClassClauseKind::kInvariant:
      case ClassClauseKind::kInitially:
        checker.SetPhase(Checker::Phase::kInvariant, absl::StrCat("an ", kw));
        checker.CheckPredicate(c.pred, what);
        break;
      case ClassClauseKind::kAxiom:
        checker.set_static_context(true);
        checker.SetPhase(Checker::Phase::kInvariant, "an axiom");
        checker.CheckPredicate(c.pred, what);
        break;
      case ClassClauseKind::kConstraint:
        checker.SetPhase(Checker::Phase::kConstraint, "a constraint");
        checker.CheckPredicate(c.pred, what);
        for (const auto& m : c.for_methods) {
          std::string simple =
              m.name.substr(m.name.rfind('.') == std::string::npos ? 0 : m.name.rfind('.') + 1);
          if (LookupMethods(env_, decl.binary_name, simple).empty() && simple != decl.name) {
            checker.Error(
                m.span, absl::StrCat("unknown method '", m.name, "' in class ", decl.binary_name));
          }
        }
        break;
      case ClassClauseKind::kRepresents: {
        checker.SetPhase(Checker::Phase::kInvariant, "a represents clause");
        Type field_type = checker.Check(*c.target);
        const Expr& t = *c.target;
        bool is_model = t.sym.kind == SymbolKind::kField && t.sym.is_model;
        if (!field_type.IsError() && !is_model) {
          checker.Error(t.span, absl::StrCat("a represents clause must name a model field; '",
                                             PrintExpr(t), "' is not one"));
          break;
        }
        if (t.sym.is_static) checker.set_static_context(true);
        if (c.represents == RepresentsKind::kSuchThat) {
          checker.CheckPredicate(c.pred, "the \\such_that predicate");
        } else if (c.pred) {
          checker.CheckAssignable(*c.pred, field_type, absl::StrCat("represents ", PrintExpr(t)));
        }
        break;
      }
      default:
        checker.Note(c.span, absl::StrCat(kw, " clause parsed but not checked"));
        break;
    }
  }
  for (auto& f : decl.fields) {
    if (!f.init) continue;
    const FieldInfo* fi = cls != nullptr ? cls->FindField(f.name) : nullptr;
    if (fi == nullptr) continue;
    checker.set_static_context(fi->is_static);
    checker.SetPhase(Checker::Phase::kInvariant, "a ghost field initializer");
    checker.CheckAssignable(*f.init, fi->type, absl::StrCat("ghost field '", f.name, "'"));
  }
  absl::Status status = checker.ok() ? absl::OkStatus() : checker.Combined();
  TypeCheckResult result;
  if (checker.ok()) {
    auto r = checker.Finish();
    result = *std::move(r);
  }
  // Model methods: their specifications and `return e;` bodies.
  std::vector<std::string> messages;
  bool all_unsupported = status.ok() || status.code() == absl::StatusCode::kUnimplemented;
  if (!status.ok()) messages.emplace_back(status.message());
  for (auto& m : decl.methods) {
    if (!m.mods.Has(kModModel)) continue;
    absl::StatusOr<MethodContext> ctx = MakeMethodContext(env, decl, m, options_);
    if (!ctx.ok()) {
      messages.emplace_back(ctx.status().message());
      all_unsupported = false;
      continue;
    }
    absl::StatusOr<TypeCheckResult> r = CheckMethodSpec(m.spec, *ctx);
    if (!r.ok()) {
      messages.emplace_back(r.status().message());
      all_unsupported &= r.status().code() == absl::StatusCode::kUnimplemented;
    } else {
      for (auto& n : r->notes) result.notes.push_back(std::move(n));
    }
    if (m.model_body) {
      Checker body = MakeChecker(env_, options_, *ctx);
      body.SetPhase(Checker::Phase::kModelBody, "a model method body");
      body.CheckAssignable(*m.model_body, ctx->method.result,
                           absl::StrCat("the result of model method ", m.name));
      if (!body.ok()) {
        absl::Status s = body.Combined();
        messages.emplace_back(s.message());
        all_unsupported &= s.code() == absl::StatusCode::kUnimplemented;
      }
    }
  }
  if (!messages.empty()) {
    std::string text = absl::StrJoin(messages, "\n");
    return all_unsupported ? absl::UnimplementedError(text) : absl::InvalidArgumentError(text);
  }
  result.math_mode = math;
  return result;
}

absl::StatusOr<TypeCheckResult> TypeChecker::CheckBodyAnnotations(
    std::vector<BodyAnnotation>& annotations, const MethodContext& ctx,
    const LocalsAtLine& locals) const {
  Checker checker = MakeChecker(env_, options_, ctx);
  std::vector<std::pair<std::string, Type>> ghosts;
  for (auto& a : annotations) {
    size_t mark = checker.ScopeMark();
    if (locals) {
      for (auto& [name, type] : locals(a.span.line)) {
        Checker::Var v;
        v.name = name;
        v.type = type;
        v.kind = SymbolKind::kLocal;
        checker.PushVar(std::move(v));
      }
    }
    for (size_t i = 0; i < ghosts.size(); ++i) {
      Checker::Var v;
      v.name = ghosts[i].first;
      v.type = ghosts[i].second;
      v.kind = SymbolKind::kGhostLocal;
      v.index = static_cast<int>(i);
      checker.PushVar(std::move(v));
    }
    std::string kw = BodyAnnotationKeyword(a.kind);
    checker.SetPhase(Checker::Phase::kBody, absl::StrCat("a ", kw, " statement"));
    std::string what = absl::StrCat("the ", kw, " statement");
    checker.NoteOmittedSemicolon(a.semicolon_omitted, a.span, what);
    switch (a.kind) {
      case BodyAnnotationKind::kAssert:
      case BodyAnnotationKind::kAssume:
      case BodyAnnotationKind::kLoopInvariant:
      case BodyAnnotationKind::kHenceBy:
      case BodyAnnotationKind::kReachable:
        if (a.expr) checker.CheckBoolean(*a.expr, what);
        if (a.message) checker.Check(*a.message);
        break;
      case BodyAnnotationKind::kDecreases: {
        Type t = checker.Check(*a.expr);
        if (!t.IsError() && !IsIntegralish(t)) {
          checker.Error(a.expr->span,
                        absl::StrCat("decreases needs an integral value, found ", TypeName(t)));
        }
        break;
      }
      case BodyAnnotationKind::kLoopAssignable:
        for (auto& r : a.store_refs) checker.CheckStoreRef(r, /*allow_locals=*/true, what);
        break;
      case BodyAnnotationKind::kGhostDecl: {
        Type t = checker.Resolve(a.ghost_type);
        if (a.expr)
          checker.CheckAssignable(*a.expr, t, absl::StrCat("ghost variable '", a.ghost_name, "'"));
        if (const Checker::Var* existing = checker.LookupVar(a.ghost_name)) {
          checker.Error(
              a.span, absl::StrCat("ghost variable '", a.ghost_name, "' shadows ",
                                   Checker::VarKindName(existing->kind), " '", a.ghost_name, "'"));
        }
        ghosts.emplace_back(a.ghost_name, t);
        break;
      }
      case BodyAnnotationKind::kSet: {
        Type t = checker.Check(*a.target);
        const Expr& target = *a.target;
        bool ghost = target.sym.kind == SymbolKind::kGhostLocal ||
                     (target.sym.kind == SymbolKind::kField && target.sym.is_ghost);
        if (!t.IsError() && !ghost && target.kind != ExprKind::kArrayAccess) {
          checker.Error(target.span,
                        absl::StrCat("set can only assign ghost variables and ghost fields; '",
                                     PrintExpr(target), "' is not one"));
        }
        if (a.expr) checker.CheckAssignable(*a.expr, t, "set");
        break;
      }
      case BodyAnnotationKind::kDebug:
        checker.Note(a.span, "debug statement parsed but not checked");
        break;
      case BodyAnnotationKind::kUnreachable:
        break;
    }
    checker.PopScope(mark);
  }
  return checker.Finish();
}

}  // namespace tracespec::jml

// Type environments, subtyping and conversions, name resolution; see
// type_env.h.
#include "validator/jml/type_env.h"

#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/status.h"

namespace tracespec::jml {

const FieldInfo* ClassInfo::FindField(absl::string_view field_name) const {
  for (const auto& f : fields) {
    if (f.name == field_name) return &f;
  }
  return nullptr;
}

const MethodInfo* ClassInfo::FindMethod(absl::string_view method_name,
                                        absl::string_view descriptor) const {
  for (const auto& m : methods) {
    if (m.name == method_name && m.descriptor == descriptor) return &m;
  }
  return nullptr;
}

// ---- Subtyping and conversions ----

bool IsSubclassOf(const TypeEnvironment& env, absl::string_view sub, absl::string_view super) {
  if (sub == super || super == "java.lang.Object") return true;
  std::vector<std::string> work = {std::string(sub)};
  std::set<std::string> seen;
  while (!work.empty()) {
    std::string name = std::move(work.back());
    work.pop_back();
    if (!seen.insert(name).second) continue;
    const ClassInfo* info = env.FindClass(name);
    if (info == nullptr) continue;
    if (!info->superclass.empty()) {
      if (info->superclass == super) return true;
      work.push_back(info->superclass);
    }
    for (const auto& i : info->interfaces) {
      if (i == super) return true;
      work.push_back(i);
    }
  }
  return false;
}

namespace {

int NumericRank(const Type& t) {
  switch (t.element_kind()) {
    case Type::Kind::kByte:
      return 1;
    case Type::Kind::kShort:
      return 2;
    case Type::Kind::kChar:
      return 2;
    case Type::Kind::kInt:
      return 3;
    case Type::Kind::kLong:
      return 4;
    case Type::Kind::kFloat:
      return 5;
    case Type::Kind::kDouble:
      return 6;
    default:
      return 0;
  }
}

// Widening primitive conversion (JLS §5.1.2) plus integral -> \bigint and
// numeric -> \real.
bool IsWideningPrimitive(const Type& from, const Type& to) {
  if (!from.IsNumeric() || !to.IsNumeric()) return false;
  if (from == to) return true;
  if (to.IsReal()) return true;
  if (to.IsBigint()) return from.IsIntegral();
  if (from.IsBigint() || from.IsReal()) return false;
  if (from.Is(Type::Kind::kChar)) return NumericRank(to) >= 3;
  if (to.Is(Type::Kind::kChar)) return false;
  if (from.Is(Type::Kind::kShort) && to.Is(Type::Kind::kChar)) return false;
  return NumericRank(from) < NumericRank(to);
}

bool IsWideningReference(const TypeEnvironment& env, const Type& from, const Type& to) {
  if (!from.IsReference() || !to.IsReference()) return false;
  if (from.IsNull()) return true;
  if (to.IsClass() && to.class_name() == "java.lang.Object") return true;
  if (from.IsArray()) {
    if (to.IsClass()) {
      return to.class_name() == "java.lang.Cloneable" || to.class_name() == "java.io.Serializable";
    }
    if (!to.IsArray()) return false;
    Type fe = from.ElementType(), te = to.ElementType();
    if (fe.IsPrimitive() || te.IsPrimitive()) return fe == te;
    return IsWideningReference(env, fe, te);
  }
  if (to.IsArray()) return false;
  return IsSubclassOf(env, from.class_name(), to.class_name());
}

}  // namespace

bool IsConvertibleForCall(const TypeEnvironment& env, const Type& from, const Type& to,
                          bool allow_boxing) {
  if (from.IsError() || to.IsError()) return true;
  if (from == to) return true;
  if (IsWideningPrimitive(from, to)) return true;
  if (IsWideningReference(env, from, to)) return true;
  if (!allow_boxing) return false;
  if (from.IsPrimitive()) {
    Type boxed = BoxedType(from);
    return IsWideningReference(env, boxed, to);
  }
  Type unboxed = UnboxedType(from);
  if (!unboxed.IsError()) return unboxed == to || IsWideningPrimitive(unboxed, to);
  return false;
}

bool IsAssignable(const TypeEnvironment& env, const Type& from, const Type& to) {
  return IsConvertibleForCall(env, from, to, /*allow_boxing=*/true);
}

bool IsCastable(const TypeEnvironment& env, const Type& from, const Type& to) {
  if (from.IsError() || to.IsError()) return true;
  if (from == to) return true;
  if (from.IsNumeric() && to.IsNumeric()) return true;
  if (from.IsBoolean() || to.IsBoolean()) {
    if (from.IsBoolean() && to.IsBoolean()) return true;
    // (Boolean) b, (boolean) boxedOrObject
    return IsAssignable(env, from, to) || (from.IsReference() && to.IsBoolean() &&
                                           IsCastable(env, from, Type::Class("java.lang.Boolean")));
  }
  if (from.IsPrimitive() && to.IsReference()) return IsWideningReference(env, BoxedType(from), to);
  if (from.IsReference() && to.IsPrimitive()) {
    Type box = BoxedType(to);
    return IsCastable(env, from, box);
  }
  if (!from.IsReference() || !to.IsReference()) return false;
  if (from.IsNull()) return true;
  if (IsWideningReference(env, from, to) || IsWideningReference(env, to, from)) return true;
  if (from.IsArray() && to.IsArray()) {
    Type fe = from.ElementType(), te = to.ElementType();
    if (fe.IsPrimitive() || te.IsPrimitive()) return fe == te;
    return IsCastable(env, fe, te);
  }
  if (from.IsArray() || to.IsArray()) return false;
  // Between a non-final class and an interface, or two interfaces, a cast
  // may succeed at run time.
  const ClassInfo* f = env.FindClass(from.class_name());
  const ClassInfo* t = env.FindClass(to.class_name());
  if (f == nullptr || t == nullptr) return false;
  if (f->is_interface && t->is_interface) return true;
  if (f->is_interface) return !t->is_final;
  if (t->is_interface) return !f->is_final;
  return false;
}

// ---- Member lookup ----

std::optional<FieldLookup> LookupField(const TypeEnvironment& env, absl::string_view class_name,
                                       absl::string_view field_name) {
  std::vector<std::string> work = {std::string(class_name)};
  std::set<std::string> seen;
  // Breadth-first: the class, then its superclass chain before interfaces.
  for (size_t i = 0; i < work.size(); ++i) {
    if (!seen.insert(work[i]).second) continue;
    const ClassInfo* info = env.FindClass(work[i]);
    if (info == nullptr) continue;
    if (const FieldInfo* f = info->FindField(field_name)) return FieldLookup{info, f};
    if (!info->superclass.empty()) work.push_back(info->superclass);
    for (const auto& iface : info->interfaces) work.push_back(iface);
  }
  return std::nullopt;
}

std::vector<MethodLookup> LookupMethods(const TypeEnvironment& env, absl::string_view class_name,
                                        absl::string_view name) {
  std::vector<MethodLookup> out;
  std::set<std::string> descriptors;
  std::vector<std::string> work = {std::string(class_name)};
  std::set<std::string> seen;
  for (size_t i = 0; i < work.size(); ++i) {
    if (!seen.insert(work[i]).second) continue;
    const ClassInfo* info = env.FindClass(work[i]);
    if (info == nullptr) continue;
    for (const auto& m : info->methods) {
      if (m.name != name) continue;
      if (name == "<init>" && i > 0) continue;
      if (descriptors.insert(m.descriptor).second) out.push_back(MethodLookup{info, &m});
    }
    if (!info->superclass.empty()) work.push_back(info->superclass);
    for (const auto& iface : info->interfaces) work.push_back(iface);
    // Interfaces inherit Object's public methods.
    if (info->is_interface && info->superclass.empty()) work.push_back("java.lang.Object");
  }
  return out;
}

// ---- Name resolution ----

namespace {

// "java.util.Map.Entry" as a binary name known to env: converts trailing
// dots to '$' until a class is found.
std::optional<std::string> KnownBinaryName(const TypeEnvironment& env, const std::string& dotted) {
  std::string candidate = dotted;
  while (true) {
    if (env.FindClass(candidate) != nullptr) return candidate;
    size_t dot = candidate.rfind('.');
    if (dot == std::string::npos) return std::nullopt;
    candidate[dot] = '$';
  }
}

// The binary name a dotted name most plausibly has: segments from the first
// one starting with an upper-case letter are classes.
std::string GuessBinaryName(const std::string& dotted) {
  std::vector<std::string> parts = absl::StrSplit(dotted, '.');
  std::string out;
  bool in_class = false;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += in_class ? "$" : ".";
    out += parts[i];
    if (!parts[i].empty() && absl::ascii_isupper(parts[i][0])) in_class = true;
  }
  return out;
}

std::optional<std::string> ResolveSimple(const TypeEnvironment& env, const NameContext& ctx,
                                         const std::string& name) {
  // Member classes of the enclosing classes and of their supertypes.
  std::string enclosing = ctx.enclosing_class;
  while (!enclosing.empty()) {
    std::vector<std::string> work = {enclosing};
    std::set<std::string> seen;
    for (size_t i = 0; i < work.size(); ++i) {
      if (!seen.insert(work[i]).second) continue;
      std::string member = absl::StrCat(work[i], "$", name);
      if (env.FindClass(member) != nullptr) return member;
      const ClassInfo* info = env.FindClass(work[i]);
      if (info == nullptr) continue;
      if (!info->superclass.empty()) work.push_back(info->superclass);
      for (const auto& iface : info->interfaces) work.push_back(iface);
    }
    // The enclosing class itself, by its simple name.
    size_t cut = enclosing.find_last_of(".$");
    std::string simple = cut == std::string::npos ? enclosing : enclosing.substr(cut + 1);
    if (simple == name) return enclosing;
    size_t dollar = enclosing.rfind('$');
    enclosing = dollar == std::string::npos ? "" : enclosing.substr(0, dollar);
  }
  for (const auto& imp : ctx.imports) {
    if (imp.is_static || imp.on_demand) continue;
    if (imp.name == name || absl::EndsWith(imp.name, absl::StrCat(".", name))) {
      if (auto known = KnownBinaryName(env, imp.name)) return known;
    }
  }
  std::string in_package = ctx.package.empty() ? name : absl::StrCat(ctx.package, ".", name);
  if (env.FindClass(in_package) != nullptr) return in_package;
  for (const auto& imp : ctx.imports) {
    if (imp.is_static || !imp.on_demand) continue;
    if (auto known = KnownBinaryName(env, absl::StrCat(imp.name, ".", name))) return known;
  }
  std::string lang = absl::StrCat("java.lang.", name);
  if (env.FindClass(lang) != nullptr) return lang;
  return std::nullopt;
}

}  // namespace

std::optional<std::string> ResolveClassName(const TypeEnvironment& env, const NameContext& ctx,
                                            absl::string_view name) {
  std::vector<std::string> parts = absl::StrSplit(name, '.');
  if (parts.empty() || parts[0].empty()) return std::nullopt;
  if (auto head = ResolveSimple(env, ctx, parts[0])) {
    std::string out = *head;
    for (size_t i = 1; i < parts.size(); ++i) absl::StrAppend(&out, "$", parts[i]);
    if (env.FindClass(out) != nullptr) return out;
    if (parts.size() == 1) return std::nullopt;
  }
  if (parts.size() > 1) return KnownBinaryName(env, std::string(name));
  return std::nullopt;
}

absl::StatusOr<Type> ResolveType(const TypeEnvironment& env, const NameContext& ctx,
                                 const TypeRef& ref, bool guess) {
  Type base = Type::FromKeyword(ref.name);
  if (base.IsError()) {
    auto tv = ctx.type_variables.find(ref.name);
    if (tv != ctx.type_variables.end()) {
      if (tv->second.empty() || tv->second[0].name == ref.name) {
        base = Type::Object();
      } else {
        NameContext outer = ctx;
        outer.type_variables.erase(ref.name);  // bounds cannot loop back
        TS_ASSIGN_OR_RETURN(base, ResolveType(env, outer, tv->second[0], guess));
      }
    } else if (auto resolved = ResolveClassName(env, ctx, ref.name)) {
      base = Type::Class(*resolved);
    } else if (guess) {
      std::string guessed;
      for (const auto& imp : ctx.imports) {
        if (!imp.is_static && !imp.on_demand &&
            absl::EndsWith(imp.name, absl::StrCat(".", ref.name))) {
          guessed = GuessBinaryName(imp.name);
        }
      }
      if (guessed.empty()) {
        guessed = ref.name.find('.') != std::string::npos ? GuessBinaryName(ref.name)
                  : ctx.package.empty()                   ? ref.name
                                        : absl::StrCat(ctx.package, ".", ref.name);
      }
      base = Type::Class(guessed);
    } else {
      return ErrorAt(ref.span, absl::StrCat("unknown type '", ref.name, "'"));
    }
  } else if (base.IsVoid() && ref.dims > 0) {
    return ErrorAt(ref.span, "void cannot be an array element type");
  }
  return Type::ArrayOf(base, ref.dims);
}

// ---- SourceTypeEnvironment ----

Nullity DeclaredNullity(const Modifiers& mods, Nullity class_default) {
  if (mods.Has(kModNullable)) return Nullity::kNullable;
  if (mods.Has(kModNonNull)) return Nullity::kNonNull;
  return class_default;
}

namespace {

Nullity ClassNullityDefault(const TypeDecl* decl) {
  for (const TypeDecl* d = decl; d != nullptr; d = d->outer) {
    if (d->mods.Has(kModNullableByDefault)) return Nullity::kNullable;
    if (d->mods.Has(kModNonNullByDefault)) return Nullity::kNonNull;
  }
  return Nullity::kUnspecified;
}

std::vector<std::string> MathModifiers(const Modifiers& mods) {
  std::vector<std::string> out;
  for (uint64_t bit : {kModSpecJavaMath, kModSpecSafeMath, kModSpecBigintMath, kModCodeJavaMath,
                       kModCodeSafeMath, kModCodeBigintMath}) {
    if (mods.Has(bit)) out.push_back(ModifierText(bit));
  }
  return out;
}

void AddTypeParams(const std::vector<TypeParam>& params, NameContext* ctx) {
  for (const auto& p : params) ctx->type_variables[p.name] = p.bounds;
}

}  // namespace

SourceTypeEnvironment::SourceTypeEnvironment(std::vector<const CompilationUnit*> units,
                                             const TypeEnvironment* fallback)
    : fallback_(fallback) {
  for (const CompilationUnit* unit : units) {
    for (const auto& decl : unit->types) {
      auto entry = std::make_unique<Entry>();
      entry->unit = unit;
      entry->decl = decl.get();
      entry->info.name = decl->binary_name;
      classes_.emplace(decl->binary_name, std::move(entry));
    }
  }
  for (auto& [name, entry] : classes_) Build(entry.get());
}

const ClassInfo* SourceTypeEnvironment::FindClass(absl::string_view binary_name) const {
  auto it = classes_.find(binary_name);
  if (it != classes_.end()) return &it->second->info;
  return fallback_ != nullptr ? fallback_->FindClass(binary_name) : nullptr;
}

const TypeDecl* SourceTypeEnvironment::FindDecl(absl::string_view binary_name) const {
  auto it = classes_.find(binary_name);
  return it == classes_.end() ? nullptr : it->second->decl;
}

const CompilationUnit* SourceTypeEnvironment::FindUnit(absl::string_view binary_name) const {
  auto it = classes_.find(binary_name);
  return it == classes_.end() ? nullptr : it->second->unit;
}

NameContext SourceTypeEnvironment::ContextFor(const TypeDecl& decl) const {
  NameContext ctx;
  if (const CompilationUnit* unit = FindUnit(decl.binary_name)) {
    ctx.package = unit->package;
    ctx.imports = unit->imports;
  }
  ctx.enclosing_class = decl.binary_name;
  std::vector<const TypeDecl*> chain;
  for (const TypeDecl* d = &decl; d != nullptr; d = d->outer) chain.push_back(d);
  // Outer type variables first so that inner ones shadow them.
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if ((*it)->mods.Has(kModStatic) && *it != &decl) continue;
    AddTypeParams((*it)->type_params, &ctx);
  }
  return ctx;
}

NameContext SourceTypeEnvironment::ContextFor(const TypeDecl& decl,
                                              const MethodDecl& method) const {
  NameContext ctx = ContextFor(decl);
  AddTypeParams(method.type_params, &ctx);
  return ctx;
}

const MethodInfo* SourceTypeEnvironment::InfoFor(const TypeDecl& decl,
                                                 const MethodDecl& method) const {
  auto it = classes_.find(decl.binary_name);
  if (it == classes_.end()) return nullptr;
  for (size_t i = 0; i < decl.methods.size(); ++i) {
    if (&decl.methods[i] == &method) return &it->second->info.methods[i];
  }
  return nullptr;
}

void SourceTypeEnvironment::Build(Entry* entry) {
  const TypeDecl& decl = *entry->decl;
  ClassInfo& info = entry->info;
  NameContext ctx = ContextFor(decl);
  auto resolve = [&](const NameContext& c, const TypeRef& ref) {
    absl::StatusOr<Type> t = ResolveType(*this, c, ref, /*guess=*/true);
    return t.ok() ? *t : Type::Error();
  };
  info.is_interface =
      decl.kind == TypeDeclKind::kInterface || decl.kind == TypeDeclKind::kAnnotation;
  info.is_abstract = decl.mods.Has(kModAbstract) || info.is_interface;
  info.is_final = decl.mods.Has(kModFinal) || decl.kind == TypeDeclKind::kRecord;
  info.math_modifiers = MathModifiers(decl.mods);
  for (const TypeDecl* d = decl.outer; d != nullptr && info.math_modifiers.empty(); d = d->outer) {
    info.math_modifiers = MathModifiers(d->mods);
  }
  switch (decl.kind) {
    case TypeDeclKind::kEnum:
      info.superclass = "java.lang.Enum";
      break;
    case TypeDeclKind::kRecord:
      info.superclass = "java.lang.Record";
      break;
    case TypeDeclKind::kInterface:
    case TypeDeclKind::kAnnotation:
      info.superclass = "";
      break;
    case TypeDeclKind::kClass:
      info.superclass = "java.lang.Object";
      if (!decl.extends.empty()) {
        Type t = resolve(ctx, decl.extends);
        if (t.IsClass()) info.superclass = t.class_name();
      }
      break;
  }
  if (info.is_interface) info.superclass = "";
  for (const auto& ref : decl.implements) {
    Type t = resolve(ctx, ref);
    if (t.IsClass()) info.interfaces.push_back(t.class_name());
  }
  Nullity class_default = ClassNullityDefault(&decl);
  bool class_pure = decl.mods.Has(kModPure);
  for (const auto& f : decl.fields) {
    FieldInfo fi;
    fi.name = f.name;
    fi.type = resolve(ctx, f.type);
    fi.is_static = f.mods.Has(kModStatic) || (info.is_interface && !f.mods.Has(kModInstance));
    fi.is_final = f.mods.Has(kModFinal) || (info.is_interface && !f.jml);
    fi.visibility = info.is_interface ? Visibility::kPublic : f.mods.visibility();
    fi.is_ghost = f.mods.Has(kModGhost);
    fi.is_model = f.mods.Has(kModModel);
    fi.is_enum_constant = f.enum_constant;
    fi.spec_public = f.mods.Has(kModSpecPublic);
    fi.spec_protected = f.mods.Has(kModSpecProtected);
    fi.nullity =
        fi.type.IsReference() ? DeclaredNullity(f.mods, class_default) : Nullity::kUnspecified;
    info.fields.push_back(std::move(fi));
  }
  for (const auto& m : decl.methods) {
    NameContext mctx = ContextFor(decl, m);
    MethodInfo mi;
    mi.name = m.name;
    mi.is_constructor = m.is_constructor;
    mi.result = m.is_constructor ? Type::Void() : resolve(mctx, m.return_type);
    for (const auto& p : m.params) {
      mi.params.push_back(resolve(mctx, p.type));
      mi.param_names.push_back(p.name);
      mi.param_nullity.push_back(mi.params.back().IsReference()
                                     ? DeclaredNullity(p.mods, class_default)
                                     : Nullity::kUnspecified);
      if (p.varargs) mi.is_varargs = true;
    }
    mi.result_nullity =
        mi.result.IsReference() ? DeclaredNullity(m.mods, class_default) : Nullity::kUnspecified;
    mi.descriptor = MakeMethodDescriptor(mi.params, mi.result);
    mi.is_static = m.mods.Has(kModStatic);
    mi.is_model = m.mods.Has(kModModel);
    mi.is_abstract =
        m.mods.Has(kModAbstract) ||
        (info.is_interface && !m.has_body && !m.mods.Has(kModStatic | kModDefault | kModPrivate));
    mi.is_pure = m.mods.Has(kModPure | kModStrictlyPure | kModFunction) || mi.is_model || class_pure;
    mi.visibility =
        info.is_interface && !m.mods.Has(kModPrivate) ? Visibility::kPublic : m.mods.visibility();
    mi.spec_public = m.mods.Has(kModSpecPublic);
    mi.spec_protected = m.mods.Has(kModSpecProtected);
    mi.math_modifiers = MathModifiers(m.mods);
    for (const auto& t : m.throws) {
      Type e = resolve(mctx, t);
      if (e.IsClass()) mi.exceptions.push_back(e.class_name());
    }
    info.methods.push_back(std::move(mi));
  }
  if (decl.kind == TypeDeclKind::kRecord) {
    // Records get their component accessors.
    for (const auto& f : info.fields) {
      if (f.is_static || info.FindMethod(f.name, MakeMethodDescriptor({}, f.type)) != nullptr)
        continue;
      MethodInfo acc;
      acc.name = f.name;
      acc.result = f.type;
      acc.descriptor = MakeMethodDescriptor({}, f.type);
      acc.visibility = Visibility::kPublic;
      info.methods.push_back(std::move(acc));
    }
  }
}

// ---- Chained and overlay ----

const ClassInfo* ChainedTypeEnvironment::FindClass(absl::string_view binary_name) const {
  for (const TypeEnvironment* layer : layers_) {
    if (const ClassInfo* c = layer->FindClass(binary_name)) return c;
  }
  return nullptr;
}

const ClassInfo* OverlayTypeEnvironment::FindClass(absl::string_view binary_name) const {
  const ClassInfo* b = base_.FindClass(binary_name);
  const ClassInfo* o = overlay_.FindClass(binary_name);
  if (b == nullptr || o == nullptr || b == o) return b != nullptr ? b : o;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = merged_.find(binary_name);
  if (it != merged_.end()) return it->second.get();
  auto merged = std::make_unique<ClassInfo>(*b);
  if (merged->math_modifiers.empty()) merged->math_modifiers = o->math_modifiers;
  for (const auto& of : o->fields) {
    FieldInfo* bf = nullptr;
    for (auto& f : merged->fields) {
      if (f.name == of.name) bf = &f;
    }
    if (bf == nullptr) {
      merged->fields.push_back(of);
      continue;
    }
    bf->spec_public |= of.spec_public;
    bf->spec_protected |= of.spec_protected;
    if (of.nullity != Nullity::kUnspecified) bf->nullity = of.nullity;
  }
  for (const auto& om : o->methods) {
    MethodInfo* bm = nullptr;
    for (auto& m : merged->methods) {
      if (m.name == om.name && m.descriptor == om.descriptor) bm = &m;
    }
    if (bm == nullptr) {
      merged->methods.push_back(om);
      continue;
    }
    bm->is_pure |= om.is_pure;
    bm->spec_public |= om.spec_public;
    bm->spec_protected |= om.spec_protected;
    if (bm->param_names.empty()) bm->param_names = om.param_names;
    if (!om.param_nullity.empty()) bm->param_nullity = om.param_nullity;
    if (om.result_nullity != Nullity::kUnspecified) bm->result_nullity = om.result_nullity;
    if (bm->math_modifiers.empty()) bm->math_modifiers = om.math_modifiers;
    if (bm->exceptions.empty()) bm->exceptions = om.exceptions;
  }
  const ClassInfo* out = merged.get();
  merged_.emplace(std::string(binary_name), std::move(merged));
  return out;
}

}  // namespace tracespec::jml

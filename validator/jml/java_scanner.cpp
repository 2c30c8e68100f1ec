// The light Java declaration scanner: package, imports, (nested) types,
// fields, method and constructor headers; bodies are skipped by brace
// matching while the JML annotations inside them are collected. JML
// annotations at member level become method specifications, class clauses,
// modifiers and ghost/model declarations. See parser_impl.h.
#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/status.h"
#include "validator/jml/parser_impl.h"

namespace tracespec::jml::internal {
namespace {

bool IsTypeDeclKeyword(const Parser& p) {
  if (p.IsIdent("class") || p.IsIdent("interface") || p.IsIdent("enum")) return true;
  if (p.IsOp("@") && p.IsIdent("interface", 1)) return true;
  // `record` is contextual: record Name ( or record Name <
  return p.IsIdent("record") && p.Peek(1).kind == TokenKind::kIdentifier &&
         (p.IsOp("(", 2) || p.IsOp("<", 2));
}

}  // namespace

absl::StatusOr<std::string> Parser::ParseQualifiedName() {
  TS_ASSIGN_OR_RETURN(std::string name, ExpectIdentifier("a name"));
  while (IsOp(".") && Peek(1).kind == TokenKind::kIdentifier) {
    Next();
    absl::StrAppend(&name, ".", Next().text);
  }
  return name;
}

absl::Status Parser::SkipBalanced(absl::string_view open, absl::string_view close) {
  const Token& first = Peek();
  if (!first.IsOp(open)) return Unexpected(absl::StrCat("'", open, "'"), "");
  SourceSpan open_span = first.span;
  int depth = 0;
  while (true) {
    const Token& t = Peek();
    if (t.kind == TokenKind::kEnd)
      return ErrorAt(open_span, absl::StrCat("'", open, "' is never closed"));
    if (t.kind == TokenKind::kError) return ErrorAtToken(t, t.text);
    if (t.IsOp(open)) ++depth;
    if (t.IsOp(close)) --depth;
    Next();
    if (depth == 0) return absl::OkStatus();
  }
}

void Parser::SkipRunAfterError(size_t start) {
  if (start < tokens_.size() && tokens_[start].run > 0) {
    // Resynchronise after the failing clause's ';' within the annotation
    // run, so that later clauses of the same run are still read.
    size_t end = RunEnd(start);
    size_t p = std::max(pos_, start);
    int depth = 0;
    for (; p < end; ++p) {
      const Token& t = tokens_[p];
      if (t.IsOp("(") || t.IsOp("[") || t.IsOp("{") || t.IsOp("{|")) ++depth;
      if (t.IsOp(")") || t.IsOp("]") || t.IsOp("}") || t.IsOp("|}")) --depth;
      if (depth <= 0 && t.IsOp(";")) {
        ++p;
        break;
      }
    }
    pos_ = std::max(std::min(p, end), start + 1);
    return;
  }
  // JML outside comments (.jml files, spec texts): resynchronise after the
  // next ';' at nesting depth 0, or before a '}' that closes the class.
  if (pos_ <= start) pos_ = std::min(start + 1, limit_);
  int depth = 0;
  while (!AtEnd()) {
    const Token& t = Peek();
    if (depth == 0 && t.IsOp(";")) {
      Next();
      return;
    }
    if (depth == 0 && t.IsOp("}")) return;
    if (t.IsOp("(") || t.IsOp("[") || t.IsOp("{")) ++depth;
    if (t.IsOp(")") || t.IsOp("]") || t.IsOp("}")) --depth;
    Next();
  }
}

absl::StatusOr<std::vector<TypeParam>> Parser::ParseTypeParams() {
  std::vector<TypeParam> params;
  TS_RETURN_IF_ERROR(Expect("<", "to start type parameters"));
  while (true) {
    Modifiers ignored;
    TS_RETURN_IF_ERROR(ParseModifiers(&ignored));
    TypeParam p;
    TS_ASSIGN_OR_RETURN(p.name, ExpectIdentifier("a type parameter name"));
    if (IsIdent("extends")) {
      Next();
      while (true) {
        TS_ASSIGN_OR_RETURN(TypeRef bound, ParseType(false));
        p.bounds.push_back(std::move(bound));
        if (!IsOp("&")) break;
        Next();
      }
    }
    params.push_back(std::move(p));
    if (IsOp(",")) {
      Next();
      continue;
    }
    break;
  }
  // '>>' cannot close type parameters (bounds already consumed their own).
  TS_RETURN_IF_ERROR(Expect(">", "to close type parameters"));
  return params;
}

absl::StatusOr<std::unique_ptr<CompilationUnit>> Parser::ParseCompilationUnit(
    std::shared_ptr<const std::string> file) {
  auto unit = std::make_unique<CompilationUnit>();
  unit->file = file;
  unit->kind = kind_;
  while (!AtEnd()) {
    const Token& t = Peek();
    if (t.kind == TokenKind::kError) {
      if (t.run > 0) {
        unit->errors.push_back(ErrorAtToken(t, t.text));
        SkipRunAfterError(pos_);
        continue;
      }
      return ErrorAtToken(t, t.text);
    }
    if (t.IsOp(";")) {
      Next();
      continue;
    }
    size_t start = pos_;
    if (t.IsIdent("package") && unit->types.empty()) {
      Next();
      TS_ASSIGN_OR_RETURN(unit->package, ParseQualifiedName());
      TS_RETURN_IF_ERROR(ExpectSemicolon("package declaration"));
      continue;
    }
    if (t.IsIdent("import") || (t.jml && t.IsIdent("model") && IsIdent("import", 1))) {
      ImportDecl imp;
      if (t.IsIdent("model")) {
        imp.model = true;
        Next();
      }
      Next();
      if (IsIdent("static")) {
        imp.is_static = true;
        Next();
      }
      TS_ASSIGN_OR_RETURN(imp.name, ParseQualifiedName());
      if (IsOp(".") && IsOp("*", 1)) {
        Next();
        Next();
        imp.on_demand = true;
      }
      TS_RETURN_IF_ERROR(ExpectSemicolon("import declaration"));
      imp.span = SpanSince(start);
      unit->imports.push_back(std::move(imp));
      continue;
    }
    Modifiers mods;
    absl::Status st = ParseModifiers(&mods);
    if (st.ok() && AtSpecStart()) {
      st = ErrorAtToken(Peek(), "a method specification must be inside a class, before a method");
    }
    if (st.ok() && AtClassClauseStart()) {
      st =
          ErrorAtToken(Peek(), absl::StrCat("a '", Peek().text, "' clause must be inside a class"));
    }
    if (!st.ok()) {
      if (tokens_[std::min(pos_, tokens_.size() - 1)].run > 0 || kind_ != SourceKind::kJava) {
        unit->errors.push_back(st);
        SkipRunAfterError(pos_);
        continue;
      }
      return st;
    }
    if (IsTypeDeclKeyword(*this)) {
      TS_RETURN_IF_ERROR(ParseTypeDecl(unit.get(), std::move(mods), nullptr, start));
      continue;
    }
    if (AtEnd()) break;
    return Unexpected("a class, interface, enum or record declaration", "");
  }
  return unit;
}

absl::Status Parser::ParseTypeDecl(CompilationUnit* unit, Modifiers mods, TypeDecl* outer,
                                   size_t start) {
  auto decl = std::make_unique<TypeDecl>();
  TypeDecl* d = decl.get();
  d->mods = std::move(mods);
  d->outer = outer;
  if (IsOp("@")) {
    Next();
    d->kind = TypeDeclKind::kAnnotation;
  } else if (IsIdent("interface")) {
    d->kind = TypeDeclKind::kInterface;
  } else if (IsIdent("enum")) {
    d->kind = TypeDeclKind::kEnum;
  } else if (IsIdent("record")) {
    d->kind = TypeDeclKind::kRecord;
  }
  Next();
  d->span = Peek().span;
  TS_ASSIGN_OR_RETURN(d->name, ExpectIdentifier("a type name"));
  if (outer != nullptr) {
    d->binary_name = absl::StrCat(outer->binary_name, "$", d->name);
  } else {
    d->binary_name = unit->package.empty() ? d->name : absl::StrCat(unit->package, ".", d->name);
  }
  unit->types.push_back(std::move(decl));
  if (IsOp("<")) {
    TS_ASSIGN_OR_RETURN(d->type_params, ParseTypeParams());
  }
  if (d->kind == TypeDeclKind::kRecord) {
    // Record components become private final fields.
    MethodDecl header;
    TS_RETURN_IF_ERROR(Expect("(", "after the record name"));
    while (!IsOp(")")) {
      FieldDecl f;
      TS_RETURN_IF_ERROR(ParseModifiers(&f.mods));
      f.mods.bits |= kModPrivate | kModFinal;
      TS_ASSIGN_OR_RETURN(f.type, ParseType(false));
      if (IsOp("...")) {
        Next();
        ++f.type.dims;
      }
      f.span = Peek().span;
      TS_ASSIGN_OR_RETURN(f.name, ExpectIdentifier("a record component name"));
      d->fields.push_back(std::move(f));
      if (IsOp(",")) {
        Next();
        continue;
      }
      if (!IsOp(")")) return Unexpected("',' or ')'", "in record components");
    }
    Next();
  }
  while (true) {
    if (IsIdent("extends")) {
      Next();
      while (true) {
        TS_ASSIGN_OR_RETURN(TypeRef t, ParseType(false));
        if (d->kind == TypeDeclKind::kClass && d->extends.empty()) {
          d->extends = std::move(t);
        } else {
          d->implements.push_back(std::move(t));
        }
        if (!IsOp(",")) break;
        Next();
      }
      continue;
    }
    if (IsIdent("implements") || IsIdent("permits")) {
      bool permits = IsIdent("permits");
      Next();
      while (true) {
        TS_ASSIGN_OR_RETURN(TypeRef t, ParseType(false));
        if (!permits) d->implements.push_back(std::move(t));
        if (!IsOp(",")) break;
        Next();
      }
      continue;
    }
    break;
  }
  if (d->kind == TypeDeclKind::kAnnotation) return SkipBalanced("{", "}");
  (void)start;
  return ParseClassBody(unit, d);
}

absl::Status Parser::ParseClassBody(CompilationUnit* unit, TypeDecl* decl) {
  if (!IsOp("{")) return Unexpected("'{'", absl::StrCat("to start the body of ", decl->name));
  SourceSpan open = Peek().span;
  Next();
  if (decl->kind == TypeDeclKind::kEnum) {
    // Enum constants (with arguments and bodies) up to ';' or '}'; each is
    // a public static final field of the enum type.
    int depth = 0;
    bool expect_constant = true;
    while (true) {
      const Token& t = Peek();
      if (depth == 0 && t.IsOp("@") && Peek(1).kind == TokenKind::kIdentifier) {
        Next();
        TS_RETURN_IF_ERROR(ParseQualifiedName().status());
        if (IsOp("(")) TS_RETURN_IF_ERROR(SkipBalanced("(", ")"));
        continue;
      }
      if (depth == 0 && expect_constant && t.kind == TokenKind::kIdentifier && t.run == 0) {
        FieldDecl f;
        f.mods.bits = kModPublic | kModStatic | kModFinal;
        f.enum_constant = true;
        f.type.name = decl->name;
        f.type.span = t.span;
        f.name = t.text;
        f.span = t.span;
        decl->fields.push_back(std::move(f));
        expect_constant = false;
        Next();
        continue;
      }
      if (depth == 0 && t.IsOp(",")) expect_constant = true;
      if (t.kind == TokenKind::kEnd)
        return ErrorAt(open, absl::StrCat("the body of ", decl->name, " is never closed"));
      if (t.kind == TokenKind::kError && t.run == 0) return ErrorAtToken(t, t.text);
      if (t.run > 0) {
        pos_ = RunEnd(pos_);
        continue;
      }
      if (depth == 0 && t.IsOp(";")) {
        Next();
        break;
      }
      if (depth == 0 && t.IsOp("}")) {
        Next();
        return absl::OkStatus();
      }
      if (t.IsOp("(") || t.IsOp("{") || t.IsOp("[")) ++depth;
      if (t.IsOp(")") || t.IsOp("}") || t.IsOp("]")) --depth;
      Next();
    }
  }
  MethodSpec pending;
  bool has_pending = false;
  std::vector<absl::Status> pending_errors;
  while (true) {
    if (IsOp("}")) {
      Next();
      break;
    }
    if (AtEnd()) return ErrorAt(open, absl::StrCat("the body of ", decl->name, " is never closed"));
    TS_RETURN_IF_ERROR(ParseMember(unit, decl, &pending, &has_pending, &pending_errors));
  }
  if (has_pending) {
    decl->errors.push_back(
        ErrorAt(pending.span, "a method specification must be followed by a method declaration"));
  }
  for (auto& e : pending_errors) decl->errors.push_back(std::move(e));
  return absl::OkStatus();
}

absl::Status Parser::ParseMember(CompilationUnit* unit, TypeDecl* decl, MethodSpec* pending,
                                 bool* has_pending, std::vector<absl::Status>* pending_errors) {
  const Token& first = Peek();
  if (first.kind == TokenKind::kError) {
    if (first.run > 0 || kind_ != SourceKind::kJava) {
      pending_errors->push_back(ErrorAtToken(first, first.text));
      SkipRunAfterError(pos_);
      return absl::OkStatus();
    }
    return ErrorAtToken(first, first.text);
  }
  if (first.IsOp(";")) {
    Next();
    return absl::OkStatus();
  }
  size_t start = pos_;
  Modifiers mods;
  while (true) {
    size_t before = pos_;
    absl::Status st = ParseModifiers(&mods);
    if (!st.ok()) {
      if (tokens_[pos_].run > 0 || kind_ != SourceKind::kJava) {
        pending_errors->push_back(st);
        SkipRunAfterError(pos_);
        return absl::OkStatus();
      }
      return st;
    }
    if (!AtSpecStart()) break;
    size_t spec_start = pos_;
    absl::StatusOr<MethodSpec> spec;
    {
      Limit limit(this, kind_ == SourceKind::kJava ? RunEnd(pos_) : tokens_.size() - 1);
      spec = ParseMethodSpec();
    }
    if (!spec.ok()) {
      pending_errors->push_back(spec.status());
      SkipRunAfterError(spec_start);
      return absl::OkStatus();
    }
    absl::Status merged = MergeSpec(pending, *std::move(spec));
    if (!merged.ok()) pending_errors->push_back(merged);
    *has_pending = true;
    if (pos_ == before) break;
  }
  if (AtClassClauseStart()) {
    size_t clause_start = pos_;
    absl::StatusOr<ClassClause> clause;
    {
      Limit limit(this, kind_ == SourceKind::kJava ? RunEnd(pos_) : tokens_.size() - 1);
      clause = ParseClassClause(std::move(mods));
    }
    if (!clause.ok()) {
      // The position alone does not say what was being read ("expected an
      // expression, found ';'"): the clause's keyword does.
      absl::Status st = clause.status();
      const std::string clause_name = absl::StrCat(tokens_[clause_start].text, " clause");
      if (!absl::StrContains(st.message(), clause_name)) {
        st = absl::Status(st.code(), absl::StrCat(st.message(), " (in the ", clause_name, ")"));
      }
      decl->errors.push_back(std::move(st));
      SkipRunAfterError(clause_start);
      return absl::OkStatus();
    }
    if (*has_pending) {
      decl->errors.push_back(
          ErrorAt(pending->span, absl::StrCat("a method specification must be followed by a method "
                                              "declaration, not a ",
                                              ClassClauseKeyword(clause->kind), " clause")));
      *pending = MethodSpec();
      *has_pending = false;
    }
    if (clause->kind == ClassClauseKind::kIn && !decl->fields.empty()) {
      for (const auto& g : clause->groups) decl->fields.back().in_groups.push_back(g);
    }
    decl->clauses.push_back(*std::move(clause));
    return absl::OkStatus();
  }
  const Token& t = Peek();
  bool in_annotation = t.run > 0;
  if (in_annotation && !mods.Has(kModGhost | kModModel)) {
    // Inside an annotation comment only ghost and model declarations (and
    // specifications, clauses and modifiers, handled above) may appear.
    size_t at = pos_;
    if (!pending_errors->empty()) {
      // The rest of a specification that failed (resynchronising after its
      // failing clause may land inside it, e.g. before `also` or `|}` of a
      // nested group): its error, kept for the method, is the one to show.
      SkipRunAfterError(at);
      return absl::OkStatus();
    }
    decl->errors.push_back(ErrorAtToken(
        t,
        t.kind == TokenKind::kIdentifier
            ? absl::StrCat("unexpected '", t.text,
                           "' in a JML annotation (expected a specification clause, a class-level "
                           "clause, a modifier, or a ghost or model declaration)")
            : absl::StrCat("unexpected ", DescribeToken(t), " in a JML annotation")));
    SkipRunAfterError(at);
    return absl::OkStatus();
  }
  std::optional<Limit> limit;
  if (in_annotation) limit.emplace(this, RunEnd(pos_));
  auto drop_pending = [&](absl::string_view what) {
    if (*has_pending) {
      decl->errors.push_back(ErrorAt(
          pending->span,
          absl::StrCat("a method specification must be followed by a method declaration, not ",
                       what)));
      *pending = MethodSpec();
      *has_pending = false;
    }
    for (auto& e : *pending_errors) decl->errors.push_back(std::move(e));
    pending_errors->clear();
  };
  if (t.IsOp("{")) {
    drop_pending("an initializer block");
    return SkipBody(nullptr);
  }
  if (IsTypeDeclKeyword(*this)) {
    drop_pending("a nested type");
    return ParseTypeDecl(unit, std::move(mods), decl, start);
  }
  std::vector<TypeParam> type_params;
  if (IsOp("<")) {
    TS_ASSIGN_OR_RETURN(type_params, ParseTypeParams());
  }
  auto finish_method = [&](MethodDecl m) {
    m.spec = std::move(*pending);
    *pending = MethodSpec();
    *has_pending = false;
    for (auto& e : *pending_errors) m.errors.push_back(std::move(e));
    pending_errors->clear();
    decl->methods.push_back(std::move(m));
  };
  if (Peek().kind == TokenKind::kIdentifier && Peek().text == decl->name && IsOp("(", 1)) {
    MethodDecl m;
    m.mods = std::move(mods);
    m.type_params = std::move(type_params);
    m.is_constructor = true;
    m.name = "<init>";
    m.span = Peek().span;
    m.jml = in_annotation;
    Next();
    absl::Status st = ParseMethodRest(&m, in_annotation);
    if (!st.ok()) {
      if (!in_annotation) return st;
      decl->errors.push_back(st);
      SkipRunAfterError(start);
      return absl::OkStatus();
    }
    finish_method(std::move(m));
    return absl::OkStatus();
  }
  if (decl->kind == TypeDeclKind::kRecord && Peek().kind == TokenKind::kIdentifier &&
      Peek().text == decl->name && IsOp("{", 1)) {
    drop_pending("a compact constructor");
    Next();
    return SkipBody(nullptr);
  }
  absl::StatusOr<TypeRef> type = ParseType(/*allow_void=*/true);
  absl::StatusOr<std::string> name;
  SourceSpan name_span;
  if (type.ok()) {
    name_span = Peek().span;
    name = ExpectIdentifier("a field or method name");
  }
  absl::Status st = !type.ok() ? type.status() : name.status();
  if (st.ok() && IsOp("(")) {
    MethodDecl m;
    m.mods = std::move(mods);
    m.type_params = std::move(type_params);
    m.return_type = *std::move(type);
    m.name = *name;
    m.span = name_span;
    m.jml = in_annotation;
    st = ParseMethodRest(&m, in_annotation);
    if (st.ok()) {
      finish_method(std::move(m));
      return absl::OkStatus();
    }
  } else if (st.ok()) {
    if (type->name == "void") {
      st = ErrorAt(type->span, absl::StrCat("field '", *name, "' cannot have type void"));
    } else {
      drop_pending(absl::StrCat("field '", *name, "'"));
      st = ParseFieldRest(decl, mods, *std::move(type), *name, name_span, in_annotation);
      if (st.ok()) return absl::OkStatus();
    }
  }
  if (!in_annotation) return st;
  decl->errors.push_back(st);
  SkipRunAfterError(start);
  return absl::OkStatus();
}

absl::Status Parser::ParseMethodRest(MethodDecl* m, bool in_annotation) {
  TS_RETURN_IF_ERROR(Expect("(", "to start the parameters"));
  while (!IsOp(")")) {
    ParamDecl p;
    TS_RETURN_IF_ERROR(ParseModifiers(&p.mods));
    TS_ASSIGN_OR_RETURN(p.type, ParseType(false));
    if (IsIdent("this")) {
      // A receiver parameter (Foo this) is not a real parameter.
      Next();
    } else {
      if (IsOp("...")) {
        Next();
        p.varargs = true;
        ++p.type.dims;
      }
      p.span = Peek().span;
      TS_ASSIGN_OR_RETURN(p.name, ExpectIdentifier("a parameter name"));
      while (IsOp("[") && IsOp("]", 1)) {
        Next();
        Next();
        ++p.type.dims;
      }
      m->params.push_back(std::move(p));
    }
    if (IsOp(",")) {
      Next();
      continue;
    }
    if (!IsOp(")")) return Unexpected("',' or ')'", "in the parameter list");
  }
  Next();
  while (IsOp("[") && IsOp("]", 1)) {
    Next();
    Next();
    ++m->return_type.dims;
  }
  if (IsIdent("throws")) {
    Next();
    while (true) {
      TS_ASSIGN_OR_RETURN(TypeRef t, ParseType(false));
      m->throws.push_back(std::move(t));
      if (!IsOp(",")) break;
      Next();
    }
  }
  if (IsIdent("default")) {
    // Annotation element default value.
    while (!AtEnd() && !IsOp(";")) Next();
  }
  if (IsOp(";")) {
    Next();
    return absl::OkStatus();
  }
  if (!IsOp("{")) return Unexpected("'{' or ';'", absl::StrCat("after the header of ", m->name));
  (void)in_annotation;
  return SkipBody(m);
}

absl::Status Parser::SkipBody(MethodDecl* m) {
  SourceSpan open = Peek().span;
  int run = Peek().run;
  if (m != nullptr) m->has_body = true;
  if (m != nullptr) m->body_begin_line = open.line;
  if (run > 0) {
    // A body inside an annotation comment (a model method): braces count
    // within the comment run only.
    Limit limit(this, RunEnd(pos_));
    if (m != nullptr && IsOp("{") && IsIdent("return", 1)) {
      size_t saved = pos_;
      Next();
      Next();
      absl::StatusOr<ExprPtr> e = ParseExpression();
      if (e.ok() && IsOp(";") && IsOp("}", 1)) {
        Next();
        m->body_end_line = Peek().span.line;
        Next();
        m->model_body = *std::move(e);
        return absl::OkStatus();
      }
      set_pos(saved);
    }
    absl::Status st = SkipBalanced("{", "}");
    if (m != nullptr) m->body_end_line = tokens_[pos_ > 0 ? pos_ - 1 : 0].span.line;
    return st;
  }
  int depth = 0;
  while (true) {
    const Token& t = Peek();
    if (t.kind == TokenKind::kEnd) return ErrorAt(open, "'{' is never closed");
    if (t.run > 0) {
      size_t end = RunEnd(pos_);
      if (m != nullptr) {
        size_t first_new = m->body_annotations.size();
        {
          Limit limit(this, end);
          while (!AtEnd()) {
            absl::StatusOr<BodyAnnotation> a = ParseBodyAnnotation();
            if (!a.ok()) {
              m->errors.push_back(a.status());
              break;
            }
            m->body_annotations.push_back(*std::move(a));
          }
        }
        int next_line = end < tokens_.size() && tokens_[end].kind != TokenKind::kEnd
                            ? tokens_[end].span.line
                            : 0;
        size_t stmt = end;  // the statement after the annotations, past a label
        if (stmt + 2 < tokens_.size() && tokens_[stmt].kind == TokenKind::kIdentifier &&
            tokens_[stmt].run == 0 && tokens_[stmt + 1].IsOp(":")) {
          stmt += 2;
        }
        bool loop = stmt < tokens_.size() && tokens_[stmt].run == 0 &&
                    (tokens_[stmt].IsIdent("for") || tokens_[stmt].IsIdent("while") ||
                     tokens_[stmt].IsIdent("do"));
        for (size_t i = first_new; i < m->body_annotations.size(); ++i) {
          m->body_annotations[i].next_code_line = next_line;
          m->body_annotations[i].precedes_loop = loop;
        }
      }
      pos_ = end;
      continue;
    }
    if (t.kind == TokenKind::kError) return ErrorAtToken(t, t.text);
    if (t.IsOp("{")) ++depth;
    if (t.IsOp("}")) --depth;
    Next();
    if (depth == 0) break;
  }
  if (m != nullptr) m->body_end_line = tokens_[pos_ - 1].span.line;
  return absl::OkStatus();
}

absl::Status Parser::SkipJavaInitializer() {
  int depth = 0;
  while (true) {
    const Token& t = Peek();
    if (t.kind == TokenKind::kEnd) return Unexpected("';'", "at the end of a field declaration");
    if (t.run > 0) {
      pos_ = RunEnd(pos_);
      continue;
    }
    if (t.kind == TokenKind::kError) return ErrorAtToken(t, t.text);
    if (depth == 0 && t.IsOp(";")) return absl::OkStatus();
    // A ',' at depth 0 starts another declarator only when one follows
    // (Map<K, V> m = new HashMap<K, V>() has a ',' inside type arguments).
    if (depth == 0 && t.IsOp(",") && Peek(1).kind == TokenKind::kIdentifier &&
        (IsOp("=", 2) || IsOp(",", 2) || IsOp(";", 2) || IsOp("[", 2))) {
      return absl::OkStatus();
    }
    if (t.IsOp("(") || t.IsOp("[") || t.IsOp("{")) ++depth;
    if (t.IsOp(")") || t.IsOp("]") || t.IsOp("}")) {
      if (depth == 0) return Unexpected("';'", "at the end of a field declaration");
      --depth;
    }
    Next();
  }
}

absl::Status Parser::ParseFieldRest(TypeDecl* decl, const Modifiers& mods, TypeRef type,
                                    std::string name, SourceSpan name_span, bool in_annotation) {
  bool jml = in_annotation || mods.Has(kModGhost | kModModel);
  while (true) {
    FieldDecl f;
    f.mods = mods;
    f.type = type;
    f.name = std::move(name);
    f.span = name_span;
    f.jml = jml;
    while (IsOp("[") && IsOp("]", 1)) {
      Next();
      Next();
      ++f.type.dims;
    }
    if (IsOp("=")) {
      Next();
      if (jml) {
        if (IsOp("{")) {
          TS_ASSIGN_OR_RETURN(f.init, ParseArrayInitializer());
        } else {
          TS_ASSIGN_OR_RETURN(f.init, ParseExpression());
        }
      } else {
        TS_RETURN_IF_ERROR(SkipJavaInitializer());
      }
    }
    decl->fields.push_back(std::move(f));
    if (IsOp(",")) {
      Next();
      name_span = Peek().span;
      TS_ASSIGN_OR_RETURN(name, ExpectIdentifier("a field name"));
      continue;
    }
    return ExpectSemicolon("field declaration");
  }
}

absl::Status Parser::ParseTrailingHeader(Modifiers mods, MethodDecl* m) {
  m->mods = std::move(mods);
  if (IsOp("<")) {
    TS_ASSIGN_OR_RETURN(m->type_params, ParseTypeParams());
  }
  if (Peek().kind == TokenKind::kIdentifier && IsOp("(", 1)) {
    m->is_constructor = true;
    m->span = Peek().span;
    m->name = Next().text;
  } else {
    TS_ASSIGN_OR_RETURN(m->return_type, ParseType(/*allow_void=*/true));
    m->span = Peek().span;
    TS_ASSIGN_OR_RETURN(m->name, ExpectIdentifier("a method name"));
  }
  TS_RETURN_IF_ERROR(ParseMethodRest(m, false));
  if (!AtEnd()) return Unexpected("the end of the text", "after the method declaration");
  if (!m->errors.empty()) return m->errors.front();
  return absl::OkStatus();
}

absl::Status Parser::ParseSpecText(MethodSpec* spec, std::unique_ptr<MethodDecl>* method) {
  Modifiers mods;
  while (true) {
    size_t before = pos_;
    TS_RETURN_IF_ERROR(ParseModifiers(&mods));
    if (AtSpecStart()) {
      TS_ASSIGN_OR_RETURN(MethodSpec more, ParseMethodSpec());
      TS_RETURN_IF_ERROR(MergeSpec(spec, std::move(more)));
    }
    if (pos_ == before) break;
  }
  if (AtClassClauseStart()) {
    return ErrorAtToken(
        Peek(), absl::StrCat("a '", Peek().text,
                             "' clause belongs to a class; put it in a .java or .jml file"));
  }
  if (!AtEnd()) {
    // A method declaration may follow; without a specification before it,
    // the text is more likely a mistyped clause, and is reported as such.
    size_t header_start = pos_;
    auto m = std::make_unique<MethodDecl>();
    absl::Status st = ParseTrailingHeader(std::move(mods), m.get());
    if (!st.ok()) {
      if (!spec->empty()) return st;
      set_pos(header_start);
      if (std::string meant = MisspeltClause(Peek().text);
          Peek().kind == TokenKind::kIdentifier && !meant.empty()) {
        return ErrorAtToken(Peek(), absl::StrCat("unknown clause keyword '", Peek().text,
                                                 "' (did you mean '", meant, "'?)"));
      }
      return Unexpected("a specification clause such as requires or ensures", "");
    }
    *method = std::move(m);
  }
  if (spec->empty())
    return ErrorAtToken(Peek(), "empty specification: expected requires, ensures, ...");
  return absl::OkStatus();
}

}  // namespace tracespec::jml::internal

// Private to validator/jml: the recursive-descent parser shared by the JML
// grammar (jml_parser.cpp: expressions, clauses, spec cases, class clauses,
// in-body annotations) and the light Java declaration scanner
// (java_scanner.cpp: package, imports, types, fields, method headers, bodies
// skipped by brace matching). Both walk one token vector from the lexer.
#ifndef TRACESPEC_VALIDATOR_JML_PARSER_IMPL_H_
#define TRACESPEC_VALIDATOR_JML_PARSER_IMPL_H_

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "validator/jml/ast.h"
#include "validator/jml/lexer.h"

namespace tracespec::jml::internal {

// The clause keyword `word` is a misspelling of ("ensure", "requries",
// "asignable"), or "" when it is none: at most one edit (insertion,
// deletion, substitution, or a swap of neighbours) away from a keyword of
// five or more letters.
std::string MisspeltClause(absl::string_view word);

// Bounds on nesting so that hostile input cannot exhaust the stack.
inline constexpr int kMaxNesting = 200;
inline constexpr int kMaxExprHeight = 400;

class Parser {
 public:
  Parser(std::vector<Token> tokens, SourceKind kind);

  // ---- Cursor ----
  // The token `k` ahead; past the current limit, a kEnd token.
  const Token& Peek(int k = 0) const;
  const Token& Next();
  bool AtEnd() const { return Peek().kind == TokenKind::kEnd; }
  bool IsOp(absl::string_view op, int k = 0) const { return Peek(k).IsOp(op); }
  bool IsIdent(absl::string_view word, int k = 0) const { return Peek(k).IsIdent(word); }
  absl::Status Expect(absl::string_view op, absl::string_view context);
  absl::StatusOr<std::string> ExpectIdentifier(absl::string_view what);
  // An error at `token` (or the lexer's message for error tokens).
  absl::Status ErrorAtToken(const Token& token, absl::string_view message) const;
  // "expected X in CONTEXT, found Y" at the current token.
  absl::Status Unexpected(absl::string_view expected, absl::string_view context) const;
  size_t pos() const { return pos_; }
  void set_pos(size_t pos) { pos_ = pos; }
  // Span from token index `first` to the token before the cursor.
  SourceSpan SpanSince(size_t first) const;
  // Index one past the last token of the annotation run at `from`.
  size_t RunEnd(size_t from) const;

  // Restricts the cursor to tokens before `limit` while alive.
  class Limit {
   public:
    Limit(Parser* p, size_t limit) : p_(p), saved_(p->limit_) {
      p_->limit_ = std::min(limit, p_->limit_);
    }
    ~Limit() { p_->limit_ = saved_; }

   private:
    Parser* p_;
    size_t saved_;
  };

  // ---- JML (jml_parser.cpp) ----
  absl::StatusOr<ExprPtr> ParseExpression();
  absl::StatusOr<TypeRef> ParseType(bool allow_void);
  bool AtTypeStart(int k = 0) const;
  bool AtSpecStart() const;
  bool AtClassClauseStart() const;
  absl::StatusOr<MethodSpec> ParseMethodSpec();
  absl::StatusOr<ClassClause> ParseClassClause(Modifiers mods);
  absl::StatusOr<BodyAnnotation> ParseBodyAnnotation();
  absl::StatusOr<StoreRef> ParseStoreRef();
  // Java annotations (@Name(...)) and Java/JML modifiers.
  absl::Status ParseModifiers(Modifiers* mods);
  // Appends `more` to `spec`: joins lightweight clauses split over several
  // annotation comments, insists on `also` between other cases.
  absl::Status MergeSpec(MethodSpec* spec, MethodSpec more);

  // ---- Java declarations (java_scanner.cpp) ----
  absl::StatusOr<std::unique_ptr<CompilationUnit>> ParseCompilationUnit(
      std::shared_ptr<const std::string> file);
  // A bare specification text, optionally followed by one method declaration.
  absl::Status ParseSpecText(MethodSpec* spec, std::unique_ptr<MethodDecl>* method);
  absl::StatusOr<std::vector<TypeParam>> ParseTypeParams();
  absl::Status ParseMethodRest(MethodDecl* m, bool in_annotation);
  // The method declaration that may follow a specification text.
  absl::Status ParseTrailingHeader(Modifiers mods, MethodDecl* m);

 private:
  // Expressions.
  absl::StatusOr<ExprPtr> ParseConditional();
  absl::StatusOr<ExprPtr> ParseEquivalence();
  absl::StatusOr<ExprPtr> ParseImplication();
  absl::StatusOr<ExprPtr> ParseBinaryLevel(int level);
  absl::StatusOr<ExprPtr> ParseUnary();
  absl::StatusOr<ExprPtr> ParsePostfix(ExprPtr base);
  absl::StatusOr<ExprPtr> ParsePrimary();
  absl::StatusOr<ExprPtr> ParseParenthesized();
  absl::StatusOr<ExprPtr> ParseQuantifier(size_t start);
  absl::StatusOr<ExprPtr> ParseQuantifierUnparenthesized();
  absl::StatusOr<ExprPtr> ParseLetUnparenthesized();
  bool SemicolonEndsClause() const;
  absl::StatusOr<ExprPtr> ParseBackslashPrimary();
  absl::StatusOr<ExprPtr> ParseNew();
  absl::StatusOr<ExprPtr> ParseArrayInitializer();
  absl::StatusOr<std::vector<ExprPtr>> ParseArguments();
  bool LooksLikeCast() const;
  absl::Status CheckHeight(const Expr& e) const;
  // Clauses and cases.
  absl::StatusOr<SpecCase> ParseSpecCase(bool examples);
  // [privacy] [code] [behavior keyword] of a spec case, top-level or nested.
  absl::Status ParseCaseHeader(SpecCase* c, bool examples);
  // The clauses and nested cases of a case whose (effective) behavior is
  // `behavior`.
  absl::Status ParseGenericCaseBody(SpecCase* c, bool examples, Behavior behavior);
  absl::StatusOr<Clause> ParseClause();
  absl::StatusOr<std::vector<StoreRef>> ParseStoreRefList(absl::string_view context);
  absl::StatusOr<MethodRef> ParseMethodRef();
  absl::Status ExpectSemicolon(absl::string_view context);
  // The ';' ending a clause or statement; `*omitted` is set when it was
  // left out where OpenJML allows that.
  absl::Status ExpectClauseEnd(absl::string_view context, bool* omitted);
  // Java.
  absl::Status ParseTypeDecl(CompilationUnit* unit, Modifiers mods, TypeDecl* outer, size_t start);
  absl::Status ParseClassBody(CompilationUnit* unit, TypeDecl* decl);
  absl::Status ParseMember(CompilationUnit* unit, TypeDecl* decl, MethodSpec* pending_spec,
                           bool* has_pending, std::vector<absl::Status>* pending_errors);
  absl::Status ParseFieldRest(TypeDecl* decl, const Modifiers& mods, TypeRef type, std::string name,
                              SourceSpan name_span, bool in_annotation);
  absl::Status SkipBody(MethodDecl* m);
  absl::Status SkipBalanced(absl::string_view open, absl::string_view close);
  absl::Status SkipJavaInitializer();
  absl::StatusOr<std::string> ParseQualifiedName();
  void SkipRunAfterError(size_t start);
  bool AtJmlToken() const;

  std::vector<Token> tokens_;
  SourceKind kind_;
  size_t pos_ = 0;
  size_t limit_;
  int depth_ = 0;
  int open_parens_ = 0;  // enclosing '(' of the expression being parsed
  mutable Token end_token_;  // the synthetic end returned past a limit
};

}  // namespace tracespec::jml::internal

#endif  // TRACESPEC_VALIDATOR_JML_PARSER_IMPL_H_

// The JML grammar (JML Reference Manual ch. 9 method specifications, ch. 8
// class-level clauses, ch. 12 expressions, ch. 13 in-body annotations) over
// the token vector; see parser_impl.h.
#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "common/status.h"
#include "validator/jml/parser_impl.h"

namespace tracespec::jml::internal {
namespace {

constexpr const char* kPrimitiveKeywords[] = {"boolean", "byte", "short", "char",
                                              "int",     "long", "float", "double"};

// Java reserved words that can never be a name in an expression.
constexpr const char* kReservedWords[] = {
    "abstract", "assert", "boolean",    "break",     "byte",       "case",      "catch",
    "char",     "class",  "const",      "continue",  "default",    "do",        "double",
    "else",     "enum",   "extends",    "final",     "finally",    "float",     "for",
    "goto",     "if",     "implements", "import",    "instanceof", "int",       "interface",
    "long",     "native", "new",        "package",   "private",    "protected", "public",
    "return",   "short",  "static",     "strictfp",  "super",      "switch",    "synchronized",
    "this",     "throw",  "throws",     "transient", "try",        "void",      "volatile",
    "while",    "true",   "false",      "null"};

bool IsPrimitiveKeyword(absl::string_view w) {
  for (const char* k : kPrimitiveKeywords) {
    if (w == k) return true;
  }
  return false;
}

bool IsReserved(absl::string_view w) {
  for (const char* k : kReservedWords) {
    if (w == k) return true;
  }
  return false;
}

struct ClauseKeywordInfo {
  const char* word;
  ClauseKind kind;
};

constexpr ClauseKeywordInfo kClauseKeywords[] = {
    {"requires", ClauseKind::kRequires},
    {"pre", ClauseKind::kRequires},
    {"ensures", ClauseKind::kEnsures},
    {"post", ClauseKind::kEnsures},
    {"signals", ClauseKind::kSignals},
    {"exsures", ClauseKind::kSignals},
    {"signals_only", ClauseKind::kSignalsOnly},
    {"assignable", ClauseKind::kAssignable},
    {"modifiable", ClauseKind::kAssignable},
    {"modifies", ClauseKind::kAssignable},
    {"accessible", ClauseKind::kAccessible},
    {"captures", ClauseKind::kCaptures},
    {"callable", ClauseKind::kCallable},
    {"diverges", ClauseKind::kDiverges},
    {"when", ClauseKind::kWhen},
    {"working_space", ClauseKind::kWorkingSpace},
    {"duration", ClauseKind::kDuration},
    {"measured_by", ClauseKind::kMeasuredBy},
};

// Finds the clause kind of `word`, accepting the *_redundantly forms.
bool LookupClause(absl::string_view word, ClauseKind* kind, bool* redundant) {
  *redundant = absl::ConsumeSuffix(&word, "_redundantly");
  for (const auto& c : kClauseKeywords) {
    if (word == c.word) {
      *kind = c.kind;
      return true;
    }
  }
  return false;
}

bool LookupBehavior(absl::string_view word, Behavior* b) {
  static const std::map<std::string, Behavior, std::less<>> kMap = {
      {"behavior", Behavior::kBehavior},
      {"behaviour", Behavior::kBehavior},
      {"normal_behavior", Behavior::kNormal},
      {"normal_behaviour", Behavior::kNormal},
      {"exceptional_behavior", Behavior::kExceptional},
      {"exceptional_behaviour", Behavior::kExceptional},
      {"example", Behavior::kExample},
      {"normal_example", Behavior::kNormalExample},
      {"exceptional_example", Behavior::kExceptionalExample},
  };
  auto it = kMap.find(word);
  if (it == kMap.end()) return false;
  *b = it->second;
  return true;
}

bool IsExampleBehavior(Behavior b) {
  return b == Behavior::kExample || b == Behavior::kNormalExample ||
         b == Behavior::kExceptionalExample;
}

// Cases that admit only normal, or only exceptional, termination.
bool NormalOnly(Behavior b) { return b == Behavior::kNormal || b == Behavior::kNormalExample; }
bool ExceptionalOnly(Behavior b) {
  return b == Behavior::kExceptional || b == Behavior::kExceptionalExample;
}

bool IsPrivacy(absl::string_view w) { return w == "public" || w == "protected" || w == "private"; }

bool LookupClassClause(absl::string_view word, ClassClauseKind* kind, bool* redundant) {
  *redundant = absl::ConsumeSuffix(&word, "_redundantly");
  static const std::map<std::string, ClassClauseKind, std::less<>> kMap = {
      {"invariant", ClassClauseKind::kInvariant},
      {"constraint", ClassClauseKind::kConstraint},
      {"initially", ClassClauseKind::kInitially},
      {"axiom", ClassClauseKind::kAxiom},
      {"represents", ClassClauseKind::kRepresents},
      {"readable", ClassClauseKind::kReadable},
      {"writable", ClassClauseKind::kWritable},
      {"monitors_for", ClassClauseKind::kMonitorsFor},
      {"in", ClassClauseKind::kIn},
      {"maps", ClassClauseKind::kMaps},
  };
  auto it = kMap.find(word);
  if (it == kMap.end()) return false;
  *kind = it->second;
  return true;
}

// Finds the in-body JML statement of `word` (assert, maintaining, ...),
// accepting the *_redundantly forms.
bool LookupStatement(absl::string_view word, BodyAnnotationKind* kind, bool* redundant) {
  *redundant = absl::ConsumeSuffix(&word, "_redundantly");
  static const std::map<std::string, BodyAnnotationKind, std::less<>> kMap = {
      {"assert", BodyAnnotationKind::kAssert},
      {"assume", BodyAnnotationKind::kAssume},
      {"loop_invariant", BodyAnnotationKind::kLoopInvariant},
      {"maintaining", BodyAnnotationKind::kLoopInvariant},
      {"decreases", BodyAnnotationKind::kDecreases},
      {"decreasing", BodyAnnotationKind::kDecreases},
      {"loop_modifies", BodyAnnotationKind::kLoopAssignable},
      {"loop_assigns", BodyAnnotationKind::kLoopAssignable},
      {"loop_writes", BodyAnnotationKind::kLoopAssignable},
      {"set", BodyAnnotationKind::kSet},
      {"debug", BodyAnnotationKind::kDebug},
      {"unreachable", BodyAnnotationKind::kUnreachable},
      {"reachable", BodyAnnotationKind::kReachable},
      {"hence_by", BodyAnnotationKind::kHenceBy},
  };
  auto it = kMap.find(word);
  if (it == kMap.end()) return false;
  *kind = it->second;
  return true;
}

bool LookupQuantifier(absl::string_view word, QuantifierKind* q) {
  static const std::map<std::string, QuantifierKind, std::less<>> kMap = {
      {"\\forall", QuantifierKind::kForall}, {"\\exists", QuantifierKind::kExists},
      {"\\sum", QuantifierKind::kSum},       {"\\product", QuantifierKind::kProduct},
      {"\\max", QuantifierKind::kMax},       {"\\min", QuantifierKind::kMin},
      {"\\num_of", QuantifierKind::kNumOf},
  };
  auto it = kMap.find(word);
  if (it == kMap.end()) return false;
  *q = it->second;
  return true;
}

// JML functions written \name(args). `kind` says what the arguments are.
enum class ArgKind { kExprs, kType, kStoreRefs };
struct JmlFunction {
  const char* name;
  ArgKind args;
  int min_args;
  int max_args;  // -1: unbounded
};
constexpr JmlFunction kJmlFunctions[] = {
    {"fresh", ArgKind::kExprs, 1, -1},
    {"nonnullelements", ArgKind::kExprs, 1, 1},
    {"typeof", ArgKind::kExprs, 1, 1},
    {"elemtype", ArgKind::kExprs, 1, 1},
    {"type", ArgKind::kType, 1, 1},
    {"invariant_for", ArgKind::kExprs, 1, 1},
    {"reach", ArgKind::kExprs, 1, -1},
    {"duration", ArgKind::kExprs, 1, 1},
    {"space", ArgKind::kExprs, 1, 1},
    {"working_space", ArgKind::kExprs, 1, 1},
    {"max", ArgKind::kExprs, 1, 1},
    {"is_initialized", ArgKind::kType, 1, 1},
    {"not_modified", ArgKind::kStoreRefs, 1, -1},
    {"not_assigned", ArgKind::kStoreRefs, 1, -1},
    {"only_assigned", ArgKind::kStoreRefs, 1, -1},
    {"only_accessed", ArgKind::kStoreRefs, 1, -1},
    {"only_captured", ArgKind::kStoreRefs, 1, -1},
    {"only_called", ArgKind::kStoreRefs, 1, -1},
};

constexpr const char* kJmlKeywords[] = {"nothing", "everything", "not_specified", "lockset",
                                        "same"};

// Binary operator precedence levels from || (0) to * / % (9).
struct BinaryOpInfo {
  const char* text;
  BinaryOp op;
  int level;
};
constexpr BinaryOpInfo kBinaryOps[] = {
    {"||", BinaryOp::kOr, 0},    {"&&", BinaryOp::kAnd, 1},   {"|", BinaryOp::kBitOr, 2},
    {"^", BinaryOp::kBitXor, 3}, {"&", BinaryOp::kBitAnd, 4}, {"==", BinaryOp::kEq, 5},
    {"!=", BinaryOp::kNe, 5},    {"<", BinaryOp::kLt, 6},     {"<=", BinaryOp::kLe, 6},
    {">", BinaryOp::kGt, 6},     {">=", BinaryOp::kGe, 6},    {"<:", BinaryOp::kSubtype, 6},
    {"<<", BinaryOp::kShl, 7},   {">>", BinaryOp::kShr, 7},   {">>>", BinaryOp::kUshr, 7},
    {"+", BinaryOp::kAdd, 8},    {"-", BinaryOp::kSub, 8},    {"*", BinaryOp::kMul, 9},
    {"/", BinaryOp::kDiv, 9},    {"%", BinaryOp::kRem, 9},
};
constexpr int kRelationalLevel = 6;
constexpr int kTopBinaryLevel = 9;

const BinaryOpInfo* FindBinaryOp(const Token& t) {
  if (t.kind != TokenKind::kOperator) return nullptr;
  for (const auto& b : kBinaryOps) {
    if (t.text == b.text) return &b;
  }
  return nullptr;
}

bool IsAssignmentOp(const Token& t) {
  static const char* kOps[] = {
      "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>="};
  if (t.kind != TokenKind::kOperator) return false;
  for (const char* op : kOps) {
    if (t.text == op) return true;
  }
  return false;
}

int HeightOf(const Expr& e) {
  int h = 0;
  for (const auto& op : e.operands) h = std::max(h, op->height);
  for (const auto& r : e.store_refs) {
    if (r.expr) h = std::max(h, r.expr->height);
    if (r.lo) h = std::max(h, r.lo->height);
    if (r.hi) h = std::max(h, r.hi->height);
  }
  return h + 1;
}

ExprPtr NewExpr(ExprKind kind, SourceSpan span) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->span = std::move(span);
  return e;
}

ExprPtr MakeBinary(BinaryOp op, ExprPtr l, ExprPtr r) {
  auto e = NewExpr(ExprKind::kBinary, SourceSpan::Join(l->span, r->span));
  e->binary_op = op;
  e->operands.push_back(std::move(l));
  e->operands.push_back(std::move(r));
  e->height = HeightOf(*e);
  return e;
}

// Guards recursion depth.
class DepthGuard {
 public:
  explicit DepthGuard(int* depth) : depth_(depth) { ++*depth_; }
  ~DepthGuard() { --*depth_; }
  bool exceeded() const { return *depth_ > kMaxNesting; }

 private:
  int* depth_;
};

}  // namespace

// See parser_impl.h.
std::string MisspeltClause(absl::string_view word) {
  if (word.size() < 4) return "";
  // Optimal string alignment distance, cut off above 1.
  auto distance = [](absl::string_view a, absl::string_view b) {
    if (a.size() > b.size() + 1 || b.size() > a.size() + 1) return 2;
    std::vector<std::vector<int>> d(a.size() + 1, std::vector<int>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); ++i) d[i][0] = static_cast<int>(i);
    for (size_t j = 0; j <= b.size(); ++j) d[0][j] = static_cast<int>(j);
    for (size_t i = 1; i <= a.size(); ++i) {
      for (size_t j = 1; j <= b.size(); ++j) {
        int cost = a[i - 1] == b[j - 1] ? 0 : 1;
        d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
          d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.size()][b.size()];
  };
  for (const auto& c : kClauseKeywords) {
    absl::string_view k = c.word;
    if (k.size() >= 5 && distance(word, k) == 1) return std::string(k);
  }
  return "";
}

// ---- Cursor ----

Parser::Parser(std::vector<Token> tokens, SourceKind kind)
    : tokens_(std::move(tokens)), kind_(kind) {
  if (tokens_.empty() || tokens_.back().kind != TokenKind::kEnd) tokens_.emplace_back();
  limit_ = tokens_.size() - 1;
}

const Token& Parser::Peek(int k) const {
  size_t idx = pos_ + k;
  if (idx < limit_) return tokens_[idx];
  if (limit_ == tokens_.size() - 1) return tokens_.back();
  // A synthetic end just after the last token of the annotation.
  Token& end = end_token_;
  end.kind = TokenKind::kEnd;
  end.text = "end of annotation";
  const SourceSpan& last = tokens_[limit_ > 0 ? limit_ - 1 : 0].span;
  end.span = last;
  end.span.line = last.end_line;
  end.span.column = last.end_column;
  end.jml = true;
  return end;
}

const Token& Parser::Next() {
  const Token& t = Peek();
  if (pos_ < limit_) ++pos_;
  return t;
}

absl::Status Parser::ErrorAtToken(const Token& token, absl::string_view message) const {
  if (token.kind == TokenKind::kError) return ErrorAt(token.span, token.text);
  return ErrorAt(token.span, message);
}

absl::Status Parser::Unexpected(absl::string_view expected, absl::string_view context) const {
  const Token& t = Peek();
  std::string msg = absl::StrCat("expected ", expected);
  if (!context.empty()) absl::StrAppend(&msg, " ", context);
  absl::StrAppend(&msg, ", found ", DescribeToken(t));
  return ErrorAtToken(t, msg);
}

absl::Status Parser::Expect(absl::string_view op, absl::string_view context) {
  if (!IsOp(op)) return Unexpected(absl::StrCat("'", op, "'"), context);
  Next();
  return absl::OkStatus();
}

absl::StatusOr<std::string> Parser::ExpectIdentifier(absl::string_view what) {
  const Token& t = Peek();
  if (t.kind != TokenKind::kIdentifier || IsReserved(t.text)) return Unexpected(what, "");
  Next();
  return t.text;
}

SourceSpan Parser::SpanSince(size_t first) const {
  size_t last = pos_ > first ? pos_ - 1 : first;
  if (first >= tokens_.size()) first = tokens_.size() - 1;
  if (last >= tokens_.size()) last = tokens_.size() - 1;
  return SourceSpan::Join(tokens_[first].span, tokens_[last].span);
}

size_t Parser::RunEnd(size_t from) const {
  int run = tokens_[from].run;
  size_t i = from;
  while (i < tokens_.size() - 1 && tokens_[i].run == run && tokens_[i].kind != TokenKind::kEnd) ++i;
  return i;
}

absl::Status Parser::CheckHeight(const Expr& e) const {
  if (e.height > kMaxExprHeight) return ErrorAt(e.span, "expression is nested too deeply");
  return absl::OkStatus();
}

// ---- Types ----

bool Parser::AtTypeStart(int k) const {
  const Token& t = Peek(k);
  if (t.kind == TokenKind::kBackslashWord) {
    return t.text == "\\bigint" || t.text == "\\real" || t.text == "\\TYPE";
  }
  if (t.kind != TokenKind::kIdentifier) return false;
  return IsPrimitiveKeyword(t.text) || !IsReserved(t.text);
}

absl::StatusOr<TypeRef> Parser::ParseType(bool allow_void) {
  DepthGuard guard(&depth_);
  if (guard.exceeded()) return ErrorAtToken(Peek(), "type is nested too deeply");
  size_t start = pos_;
  TypeRef t;
  // Type annotations (@NonNull String) carry nothing the checker needs.
  while (IsOp("@") && Peek(1).kind == TokenKind::kIdentifier && !IsIdent("interface", 1)) {
    Next();
    TS_RETURN_IF_ERROR(ParseQualifiedName().status());
    if (IsOp("(")) TS_RETURN_IF_ERROR(SkipBalanced("(", ")"));
  }
  const Token& first = Peek();
  if (first.kind == TokenKind::kBackslashWord &&
      (first.text == "\\bigint" || first.text == "\\real" || first.text == "\\TYPE")) {
    t.name = first.text;
    Next();
  } else if (first.kind == TokenKind::kIdentifier &&
             (IsPrimitiveKeyword(first.text) || (allow_void && first.text == "void"))) {
    t.name = first.text;
    Next();
  } else if (first.kind == TokenKind::kIdentifier && !IsReserved(first.text)) {
    t.name = first.text;
    Next();
    while (true) {
      if (IsOp("<")) {
        Next();
        t.has_type_args = true;
        t.type_args.clear();
        while (!IsOp(">") && !IsOp(">>") && !IsOp(">>>")) {
          if (IsOp("?")) {
            size_t wstart = pos_;
            Next();
            TypeRef wildcard;
            wildcard.name = "?";
            if (IsIdent("extends") || IsIdent("super")) {
              wildcard.name = IsIdent("extends") ? "? extends" : "? super";
              Next();
              TS_ASSIGN_OR_RETURN(TypeRef bound, ParseType(false));
              wildcard.type_args.push_back(std::move(bound));
            }
            wildcard.span = SpanSince(wstart);
            t.type_args.push_back(std::move(wildcard));
          } else {
            TS_ASSIGN_OR_RETURN(TypeRef arg, ParseType(false));
            t.type_args.push_back(std::move(arg));
          }
          if (IsOp(",")) {
            Next();
            continue;
          }
          if (!IsOp(">") && !IsOp(">>") && !IsOp(">>>"))
            return Unexpected("'>'", "after type arguments");
        }
        // Split '>>' and '>>>' so that nested type arguments can close.
        Token& closer = tokens_[pos_];
        if (closer.text == ">") {
          Next();
        } else {
          closer.text = closer.text.substr(1);
          closer.span.column += 1;
        }
      }
      if (IsOp(".") && Peek(1).kind == TokenKind::kIdentifier && !IsReserved(Peek(1).text)) {
        Next();
        absl::StrAppend(&t.name, ".", Next().text);
        continue;
      }
      break;
    }
  } else {
    return Unexpected("a type", "");
  }
  while (IsOp("[") && IsOp("]", 1)) {
    Next();
    Next();
    ++t.dims;
  }
  t.span = SpanSince(start);
  return t;
}

// ---- Expressions ----

absl::StatusOr<ExprPtr> Parser::ParseExpression() {
  DepthGuard guard(&depth_);
  if (guard.exceeded()) return ErrorAtToken(Peek(), "expression is nested too deeply");
  TS_ASSIGN_OR_RETURN(ExprPtr e, ParseConditional());
  const Token& t = Peek();
  if (IsAssignmentOp(t)) {
    if (t.text == "=") {
      return ErrorAtToken(
          t, "'=' is an assignment, which a specification cannot contain; use '==' to compare");
    }
    return ErrorAtToken(
        t, absl::StrCat("assignment '", t.text, "' is not allowed in a specification expression"));
  }
  return e;
}

absl::StatusOr<ExprPtr> Parser::ParseConditional() {
  TS_ASSIGN_OR_RETURN(ExprPtr cond, ParseEquivalence());
  if (!IsOp("?")) return cond;
  Next();
  DepthGuard guard(&depth_);
  if (guard.exceeded()) return ErrorAtToken(Peek(), "expression is nested too deeply");
  TS_ASSIGN_OR_RETURN(ExprPtr then_e, ParseExpression());
  TS_RETURN_IF_ERROR(Expect(":", "in conditional expression"));
  TS_ASSIGN_OR_RETURN(ExprPtr else_e, ParseConditional());
  auto e = NewExpr(ExprKind::kConditional, SourceSpan::Join(cond->span, else_e->span));
  e->operands.push_back(std::move(cond));
  e->operands.push_back(std::move(then_e));
  e->operands.push_back(std::move(else_e));
  e->height = HeightOf(*e);
  TS_RETURN_IF_ERROR(CheckHeight(*e));
  return e;
}

absl::StatusOr<ExprPtr> Parser::ParseEquivalence() {
  TS_ASSIGN_OR_RETURN(ExprPtr left, ParseImplication());
  while (IsOp("<==>") || IsOp("<=!=>")) {
    BinaryOp op = IsOp("<==>") ? BinaryOp::kEquiv : BinaryOp::kInequiv;
    Next();
    TS_ASSIGN_OR_RETURN(ExprPtr right, ParseImplication());
    left = MakeBinary(op, std::move(left), std::move(right));
    TS_RETURN_IF_ERROR(CheckHeight(*left));
  }
  return left;
}

// ==> associates to the right, <== to the left, and the two do not mix
// without parentheses (JML Reference Manual §12.6.2).
absl::StatusOr<ExprPtr> Parser::ParseImplication() {
  TS_ASSIGN_OR_RETURN(ExprPtr left, ParseBinaryLevel(0));
  if (IsOp("==>")) {
    std::vector<ExprPtr> chain;
    chain.push_back(std::move(left));
    while (IsOp("==>")) {
      Next();
      TS_ASSIGN_OR_RETURN(ExprPtr next, ParseBinaryLevel(0));
      chain.push_back(std::move(next));
    }
    if (IsOp("<=="))
      return ErrorAtToken(Peek(), "'<==' after '==>' needs parentheses to say which applies first");
    ExprPtr result = std::move(chain.back());
    for (size_t i = chain.size() - 1; i-- > 0;) {
      result = MakeBinary(BinaryOp::kImplies, std::move(chain[i]), std::move(result));
      TS_RETURN_IF_ERROR(CheckHeight(*result));
    }
    return result;
  }
  while (IsOp("<==")) {
    Next();
    TS_ASSIGN_OR_RETURN(ExprPtr right, ParseBinaryLevel(0));
    left = MakeBinary(BinaryOp::kReverseImplies, std::move(left), std::move(right));
    TS_RETURN_IF_ERROR(CheckHeight(*left));
    if (IsOp("==>"))
      return ErrorAtToken(Peek(), "'==>' after '<==' needs parentheses to say which applies first");
  }
  return left;
}

absl::StatusOr<ExprPtr> Parser::ParseBinaryLevel(int level) {
  if (level > kTopBinaryLevel) return ParseUnary();
  TS_ASSIGN_OR_RETURN(ExprPtr left, ParseBinaryLevel(level + 1));
  // The right operand of the previous comparison, for chained comparisons
  // (a <= b < c, an OpenJML extension; Java rejects it as a type error).
  const Expr* last_compared = nullptr;
  int chain_direction = 0;
  while (true) {
    const Token& t = Peek();
    if (level == kRelationalLevel && t.IsIdent("instanceof")) {
      Next();
      TS_ASSIGN_OR_RETURN(TypeRef type, ParseType(false));
      auto e = NewExpr(ExprKind::kInstanceOf, SourceSpan::Join(left->span, type.span));
      e->type_ref = std::move(type);
      e->operands.push_back(std::move(left));
      e->height = HeightOf(*e);
      left = std::move(e);
      last_compared = nullptr;
      continue;
    }
    const BinaryOpInfo* info = FindBinaryOp(t);
    if (info == nullptr || info->level != level) break;
    Next();
    TS_ASSIGN_OR_RETURN(ExprPtr right, ParseBinaryLevel(level + 1));
    int direction = 0;
    if (info->op == BinaryOp::kLt || info->op == BinaryOp::kLe) direction = 1;
    if (info->op == BinaryOp::kGt || info->op == BinaryOp::kGe) direction = -1;
    if (last_compared != nullptr && direction != 0 && direction == chain_direction) {
      // a < b < c  ==>  a < b && b < c
      ExprPtr middle = CloneExpr(*last_compared);
      const Expr* new_last = right.get();
      ExprPtr cmp = MakeBinary(info->op, std::move(middle), std::move(right));
      left = MakeBinary(BinaryOp::kAnd, std::move(left), std::move(cmp));
      last_compared = new_last;
    } else {
      const Expr* new_last = right.get();
      left = MakeBinary(info->op, std::move(left), std::move(right));
      last_compared = direction != 0 ? new_last : nullptr;
      chain_direction = direction;
    }
    TS_RETURN_IF_ERROR(CheckHeight(*left));
  }
  return left;
}

bool Parser::LooksLikeCast() const {
  // Called at '('.
  const Token& t1 = Peek(1);
  int k = 1;
  bool primitive = false;
  if (t1.kind == TokenKind::kBackslashWord) {
    if (t1.text != "\\bigint" && t1.text != "\\real" && t1.text != "\\TYPE") return false;
    primitive = true;
    k = 2;
  } else if (t1.kind == TokenKind::kIdentifier && IsPrimitiveKeyword(t1.text)) {
    primitive = true;
    k = 2;
  } else if (t1.kind == TokenKind::kIdentifier && !IsReserved(t1.text)) {
    k = 2;
    while (IsOp(".", k) && Peek(k + 1).kind == TokenKind::kIdentifier) k += 2;
  } else {
    return false;
  }
  int dims = 0;
  while (IsOp("[", k) && IsOp("]", k + 1)) {
    k += 2;
    ++dims;
  }
  if (!IsOp(")", k)) return false;
  if (primitive || dims > 0) return true;
  // A parenthesized name is a cast only when an operand follows that cannot
  // continue a binary expression (JLS §15.16).
  const Token& after = Peek(k + 1);
  switch (after.kind) {
    case TokenKind::kIdentifier:
      return after.text != "instanceof";
    case TokenKind::kBackslashWord:
    case TokenKind::kIntLiteral:
    case TokenKind::kLongLiteral:
    case TokenKind::kFloatLiteral:
    case TokenKind::kDoubleLiteral:
    case TokenKind::kCharLiteral:
    case TokenKind::kStringLiteral:
    case TokenKind::kInformal:
      return true;
    case TokenKind::kOperator:
      return after.text == "(" || after.text == "!" || after.text == "~";
    default:
      return false;
  }
}

absl::StatusOr<ExprPtr> Parser::ParseUnary() {
  DepthGuard guard(&depth_);
  if (guard.exceeded()) return ErrorAtToken(Peek(), "expression is nested too deeply");
  size_t start = pos_;
  const Token& t = Peek();
  if (t.IsOp("++") || t.IsOp("--")) {
    return ErrorAtToken(
        t, absl::StrCat("'", t.text, "' has a side effect, which a specification cannot contain"));
  }
  if (t.IsOp("+") || t.IsOp("-") || t.IsOp("!") || t.IsOp("~")) {
    std::string op = t.text;
    Next();
    // -2147483648 and -9223372036854775808L are single literals.
    if (op == "-" && Peek().needs_minus &&
        (Peek().kind == TokenKind::kIntLiteral || Peek().kind == TokenKind::kLongLiteral)) {
      const Token& lit = Next();
      auto e = NewExpr(ExprKind::kLiteral, SpanSince(start));
      e->literal.kind = lit.kind == TokenKind::kIntLiteral ? LiteralKind::kInt : LiteralKind::kLong;
      e->literal.bits = lit.kind == TokenKind::kIntLiteral
                            ? static_cast<uint64_t>(int64_t{INT32_MIN})
                            : static_cast<uint64_t>(INT64_MIN);
      return ParsePostfix(std::move(e));
    }
    TS_ASSIGN_OR_RETURN(ExprPtr operand, ParseUnary());
    auto e = NewExpr(ExprKind::kUnary, SourceSpan::Join(tokens_[start].span, operand->span));
    e->unary_op = op == "+"   ? UnaryOp::kPlus
                  : op == "-" ? UnaryOp::kMinus
                  : op == "!" ? UnaryOp::kNot
                              : UnaryOp::kComplement;
    e->operands.push_back(std::move(operand));
    e->height = HeightOf(*e);
    TS_RETURN_IF_ERROR(CheckHeight(*e));
    return e;
  }
  if (t.IsOp("(") && LooksLikeCast()) {
    Next();
    TS_ASSIGN_OR_RETURN(TypeRef type, ParseType(false));
    TS_RETURN_IF_ERROR(Expect(")", "after the type of a cast"));
    bool primitive = type.dims == 0 && (IsPrimitiveKeyword(type.name) || type.name[0] == '\\');
    if (!primitive && (IsOp("+") || IsOp("-"))) {
      return ErrorAtToken(
          Peek(),
          "a cast to a reference type cannot be followed by a sign; parenthesize the operand");
    }
    TS_ASSIGN_OR_RETURN(ExprPtr operand, ParseUnary());
    auto e = NewExpr(ExprKind::kCast, SourceSpan::Join(tokens_[start].span, operand->span));
    e->type_ref = std::move(type);
    e->operands.push_back(std::move(operand));
    e->height = HeightOf(*e);
    TS_RETURN_IF_ERROR(CheckHeight(*e));
    return e;
  }
  TS_ASSIGN_OR_RETURN(ExprPtr primary, ParsePrimary());
  return ParsePostfix(std::move(primary));
}

absl::StatusOr<std::vector<ExprPtr>> Parser::ParseArguments() {
  TS_RETURN_IF_ERROR(Expect("(", "before arguments"));
  std::vector<ExprPtr> args;
  if (IsOp(")")) {
    Next();
    return args;
  }
  while (true) {
    TS_ASSIGN_OR_RETURN(ExprPtr a, ParseExpression());
    args.push_back(std::move(a));
    if (IsOp(",")) {
      Next();
      continue;
    }
    TS_RETURN_IF_ERROR(Expect(")", "after arguments"));
    return args;
  }
}

absl::StatusOr<ExprPtr> Parser::ParsePostfix(ExprPtr base) {
  while (true) {
    const Token& t = Peek();
    if (t.IsOp("++") || t.IsOp("--")) {
      return ErrorAtToken(
          t,
          absl::StrCat("'", t.text, "' has a side effect, which a specification cannot contain"));
    }
    if (t.IsOp("[") && IsOp("]", 1)) {
      // A qualified array type before .class: java.lang.String[].class
      std::vector<std::string> parts;
      const Expr* b = base.get();
      while (b->kind == ExprKind::kFieldAccess) {
        parts.push_back(b->name);
        b = b->operands[0].get();
      }
      if (b->kind != ExprKind::kName) return Unexpected("an expression", "in '[ ]'");
      TypeRef type;
      type.name = b->name;
      for (auto it = parts.rbegin(); it != parts.rend(); ++it)
        absl::StrAppend(&type.name, ".", *it);
      while (IsOp("[") && IsOp("]", 1)) {
        Next();
        Next();
        ++type.dims;
      }
      if (!(IsOp(".") && IsIdent("class", 1))) return Unexpected("'.class'", "after an array type");
      Next();
      Next();
      type.span = SourceSpan::Join(base->span, tokens_[pos_ - 3].span);
      auto e =
          NewExpr(ExprKind::kClassLiteral, SourceSpan::Join(base->span, tokens_[pos_ - 1].span));
      e->type_ref = std::move(type);
      base = std::move(e);
      continue;
    }
    if (t.IsOp("[")) {
      Next();
      if (IsOp("*")) {
        return ErrorAtToken(Peek(),
                            "'[*]' denotes a set of locations; it is only allowed in assignable "
                            "clauses and \\not_modified");
      }
      TS_ASSIGN_OR_RETURN(ExprPtr index, ParseExpression());
      if (IsOp("..")) {
        return ErrorAtToken(
            Peek(), "'..' ranges are only allowed in assignable clauses and \\not_modified");
      }
      TS_RETURN_IF_ERROR(Expect("]", "after array index"));
      auto e =
          NewExpr(ExprKind::kArrayAccess, SourceSpan::Join(base->span, tokens_[pos_ - 1].span));
      e->operands.push_back(std::move(base));
      e->operands.push_back(std::move(index));
      e->height = HeightOf(*e);
      TS_RETURN_IF_ERROR(CheckHeight(*e));
      base = std::move(e);
      continue;
    }
    if (!t.IsOp(".")) break;
    Next();
    const Token& member = Peek();
    if (member.IsOp("<"))
      return UnsupportedAt(member.span, "unsupported: explicit type arguments in a method call");
    if (member.IsOp("*")) {
      return ErrorAtToken(
          member,
          "'.*' denotes all fields; it is only allowed in assignable clauses and \\not_modified");
    }
    if (member.IsIdent("this") || member.IsIdent("class")) {
      // Qualified this / class literal: the base must be a (qualified) name.
      std::string name;
      const Expr* b = base.get();
      std::vector<std::string> parts;
      while (b->kind == ExprKind::kFieldAccess) {
        parts.push_back(b->name);
        b = b->operands[0].get();
      }
      if (b->kind != ExprKind::kName)
        return ErrorAtToken(member, absl::StrCat("'.", member.text, "' must follow a type name"));
      name = b->name;
      for (auto it = parts.rbegin(); it != parts.rend(); ++it) absl::StrAppend(&name, ".", *it);
      Next();
      auto e = NewExpr(member.text == "this" ? ExprKind::kQualifiedThis : ExprKind::kClassLiteral,
                       SourceSpan::Join(base->span, tokens_[pos_ - 1].span));
      e->type_ref.name = name;
      e->type_ref.span = base->span;
      base = std::move(e);
      continue;
    }
    if (member.kind != TokenKind::kIdentifier || IsReserved(member.text)) {
      return Unexpected("a field or method name", "after '.'");
    }
    std::string name = member.text;
    SourceSpan name_span = member.span;
    Next();
    if (IsOp("(")) {
      TS_ASSIGN_OR_RETURN(std::vector<ExprPtr> args, ParseArguments());
      auto e = NewExpr(ExprKind::kMethodCall, SourceSpan::Join(base->span, tokens_[pos_ - 1].span));
      e->name = std::move(name);
      e->name_span = name_span;
      e->flag = true;
      e->operands.push_back(std::move(base));
      for (auto& a : args) e->operands.push_back(std::move(a));
      e->height = HeightOf(*e);
      TS_RETURN_IF_ERROR(CheckHeight(*e));
      base = std::move(e);
      continue;
    }
    auto e = NewExpr(ExprKind::kFieldAccess, SourceSpan::Join(base->span, name_span));
    e->name = std::move(name);
    e->name_span = name_span;
    e->operands.push_back(std::move(base));
    e->height = HeightOf(*e);
    TS_RETURN_IF_ERROR(CheckHeight(*e));
    base = std::move(e);
  }
  return base;
}

absl::StatusOr<ExprPtr> Parser::ParsePrimary() {
  size_t start = pos_;
  const Token& t = Peek();
  auto literal = [&](LiteralKind kind) {
    auto e = NewExpr(ExprKind::kLiteral, t.span);
    e->literal.kind = kind;
    e->literal.bits = t.int_value;
    e->literal.float_value = t.float_value;
    e->literal.double_value = t.double_value;
    e->literal.string_value = t.string_value;
    Next();
    return e;
  };
  switch (t.kind) {
    case TokenKind::kError:
      return ErrorAtToken(t, t.text);
    case TokenKind::kIntLiteral:
    case TokenKind::kLongLiteral:
      if (t.needs_minus) {
        return ErrorAtToken(
            t, absl::StrCat(t.kind == TokenKind::kIntLiteral ? "integer" : "long",
                            " number too large: ", t.text, " (only -", t.text, " is in range)"));
      }
      return literal(t.kind == TokenKind::kIntLiteral ? LiteralKind::kInt : LiteralKind::kLong);
    case TokenKind::kFloatLiteral:
      return literal(LiteralKind::kFloat);
    case TokenKind::kDoubleLiteral:
      return literal(LiteralKind::kDouble);
    case TokenKind::kCharLiteral:
      return literal(LiteralKind::kChar);
    case TokenKind::kStringLiteral:
      return literal(LiteralKind::kString);
    case TokenKind::kInformal: {
      auto e = NewExpr(ExprKind::kInformal, t.span);
      e->name = t.text;
      Next();
      return e;
    }
    case TokenKind::kBackslashWord:
      return ParseBackslashPrimary();
    case TokenKind::kOperator:
      if (t.IsOp("(")) return ParseParenthesized();
      if (t.IsOp("{|") || t.IsOp("|}")) return Unexpected("an expression", "");
      return Unexpected("an expression", "");
    case TokenKind::kEnd:
      return Unexpected("an expression", "");
    case TokenKind::kIdentifier:
      break;
  }
  if (t.text == "true" || t.text == "false") {
    auto e = literal(LiteralKind::kBoolean);
    e->literal.bits = t.text == "true" ? 1 : 0;
    return e;
  }
  if (t.text == "null") return literal(LiteralKind::kNull);
  if (t.text == "this") {
    Next();
    if (IsOp("("))
      return ErrorAtToken(Peek(), "constructor calls are not allowed in specifications");
    return NewExpr(ExprKind::kThis, tokens_[start].span);
  }
  if (t.text == "super") {
    Next();
    if (!IsOp(".")) return Unexpected("'.'", "after 'super'");
    return NewExpr(ExprKind::kSuper, tokens_[start].span);
  }
  if (t.text == "new") return ParseNew();
  if (IsPrimitiveKeyword(t.text) || t.text == "void") {
    // int.class, int[].class
    TS_ASSIGN_OR_RETURN(TypeRef type, ParseType(/*allow_void=*/true));
    if (!(IsOp(".") && IsIdent("class", 1))) {
      return ErrorAt(type.span, absl::StrCat("unexpected type '", type.name, "' in an expression"));
    }
    Next();
    Next();
    auto e = NewExpr(ExprKind::kClassLiteral, SpanSince(start));
    e->type_ref = std::move(type);
    return e;
  }
  if (IsReserved(t.text)) {
    return ErrorAtToken(t, absl::StrCat("unexpected keyword '", t.text, "' in an expression"));
  }
  std::string name = t.text;
  Next();
  if (IsOp("(")) {
    TS_ASSIGN_OR_RETURN(std::vector<ExprPtr> args, ParseArguments());
    auto e = NewExpr(ExprKind::kMethodCall, SpanSince(start));
    e->name = std::move(name);
    e->name_span = tokens_[start].span;
    for (auto& a : args) e->operands.push_back(std::move(a));
    e->height = HeightOf(*e);
    return e;
  }
  // Array type class literal: String[].class
  if (IsOp("[") && IsOp("]", 1)) {
    set_pos(start);
    TS_ASSIGN_OR_RETURN(TypeRef type, ParseType(false));
    if (!(IsOp(".") && IsIdent("class", 1))) {
      return ErrorAt(type.span, "an array type here must be followed by '.class'");
    }
    Next();
    Next();
    auto e = NewExpr(ExprKind::kClassLiteral, SpanSince(start));
    e->type_ref = std::move(type);
    return e;
  }
  auto e = NewExpr(ExprKind::kName, tokens_[start].span);
  e->name = std::move(name);
  e->name_span = tokens_[start].span;
  return e;
}

absl::StatusOr<ExprPtr> Parser::ParseParenthesized() {
  size_t start = pos_;
  DepthGuard open(&open_parens_);
  const Token& t1 = Peek(1);
  QuantifierKind q;
  if (t1.kind == TokenKind::kBackslashWord && LookupQuantifier(t1.text, &q) && !IsOp("(", 2)) {
    return ParseQuantifier(start);
  }
  if (t1.kind == TokenKind::kBackslashWord && t1.text == "\\let") {
    Next();  // (
    TS_ASSIGN_OR_RETURN(ExprPtr e, ParseLetUnparenthesized());
    TS_RETURN_IF_ERROR(Expect(")", "to close \\let"));
    e->span = SpanSince(start);
    return e;
  }
  if (t1.kind == TokenKind::kBackslashWord && (t1.text == "\\lblpos" || t1.text == "\\lblneg")) {
    Next();
    Next();
    TS_ASSIGN_OR_RETURN(std::string label, ExpectIdentifier("a label name"));
    TS_ASSIGN_OR_RETURN(ExprPtr inner, ParseExpression());
    TS_RETURN_IF_ERROR(Expect(")", absl::StrCat("to close ", t1.text)));
    auto e = NewExpr(ExprKind::kLabeled, SpanSince(start));
    e->name = std::move(label);
    e->flag = t1.text == "\\lblpos";
    e->operands.push_back(std::move(inner));
    e->height = HeightOf(*e);
    return e;
  }
  Next();
  TS_ASSIGN_OR_RETURN(ExprPtr inner, ParseExpression());
  TS_RETURN_IF_ERROR(Expect(")", "to close '('"));
  // Keep the parenthesized span for diagnostics.
  inner->span = SpanSince(start);
  return inner;
}

absl::StatusOr<ExprPtr> Parser::ParseQuantifier(size_t start) {
  Next();  // (
  TS_ASSIGN_OR_RETURN(ExprPtr e, ParseQuantifierUnparenthesized());
  TS_RETURN_IF_ERROR(Expect(")", absl::StrCat("to close ", tokens_[start + 1].text)));
  e->span = SpanSince(start);
  return e;
}

// At a quantifier keyword: the quantifier, whose body extends as far to
// the right as possible (JML): up to the closing parenthesis of an
// enclosing `(`, or to the end of the clause when it is not parenthesized.
// So a body may itself be a quantifier without parentheses:
// \forall int j; 0 <= j && j < n; \forall int i; 0 <= i && i < j; a[i] <= a[j]
// reads as (\forall int j; ...; (\forall int i; ...; a[i] <= a[j])).
absl::StatusOr<ExprPtr> Parser::ParseQuantifierUnparenthesized() {
  size_t start = pos_;
  const Token& qt = Next();
  auto e = NewExpr(ExprKind::kQuantifier, qt.span);
  LookupQuantifier(qt.text, &e->quantifier);
  // Nullity modifiers on the bound variables are allowed and irrelevant here.
  while (IsIdent("nullable") || IsIdent("non_null")) Next();
  TS_ASSIGN_OR_RETURN(e->type_ref, ParseType(false));
  while (true) {
    const Token& v = Peek();
    if (v.kind != TokenKind::kIdentifier || IsReserved(v.text)) {
      return Unexpected("a bound variable name", absl::StrCat("in ", qt.text));
    }
    e->bound_vars.push_back(BoundVar{v.text, v.span});
    Next();
    if (IsOp(",")) {
      Next();
      continue;
    }
    break;
  }
  if (IsOp("=")) return ErrorAtToken(Peek(), "a bound variable cannot have an initializer");
  TS_RETURN_IF_ERROR(Expect(";", absl::StrCat("after the variables of ", qt.text)));
  ExprPtr range;
  if (IsOp(";")) {
    Next();  // an empty range: \forall T x; ; body
  }
  TS_ASSIGN_OR_RETURN(ExprPtr first, ParseExpression());
  if (IsOp(";") && !SemicolonEndsClause()) {
    Next();
    range = std::move(first);
    TS_ASSIGN_OR_RETURN(first, ParseExpression());
  }
  e->flag = range != nullptr;
  if (range) e->operands.push_back(std::move(range));
  e->operands.push_back(std::move(first));
  e->span = SpanSince(start);
  e->height = HeightOf(*e);
  TS_RETURN_IF_ERROR(CheckHeight(*e));
  return e;
}

// At `\let`: `\let T x = e [, [U] y = f]...; body` (JML), the body
// extending as far to the right as a quantifier's. Each binding is a kLet
// whose body is the next binding (flag set) or, for the last, the body; a
// binding after ',' without a type has the type of the one before it.
absl::StatusOr<ExprPtr> Parser::ParseLetUnparenthesized() {
  size_t start = pos_;
  const Token& lt = Next();
  struct Binding {
    size_t start;
    TypeRef type;
    BoundVar var;
    ExprPtr init;
  };
  std::vector<Binding> bindings;
  while (true) {
    Binding b;
    b.start = pos_;
    bool typed = !(Peek().kind == TokenKind::kIdentifier && IsOp("=", 1) && !bindings.empty());
    if (typed) {
      while (IsIdent("nullable") || IsIdent("non_null")) Next();
      TS_ASSIGN_OR_RETURN(b.type, ParseType(false));
    } else {
      b.type = bindings.back().type;
    }
    const Token& v = Peek();
    if (v.kind != TokenKind::kIdentifier || IsReserved(v.text)) {
      return Unexpected("a variable name", absl::StrCat("in ", lt.text));
    }
    b.var = BoundVar{v.text, v.span};
    Next();
    TS_RETURN_IF_ERROR(
        Expect("=", absl::StrCat("after the variable '", b.var.name, "' of ", lt.text)));
    TS_ASSIGN_OR_RETURN(b.init, ParseExpression());
    bindings.push_back(std::move(b));
    if (IsOp(",")) {
      Next();
      continue;
    }
    break;
  }
  TS_RETURN_IF_ERROR(Expect(";", absl::StrCat("after the bindings of ", lt.text)));
  TS_ASSIGN_OR_RETURN(ExprPtr body, ParseExpression());
  for (size_t i = bindings.size(); i-- > 0;) {
    Binding& b = bindings[i];
    auto e = NewExpr(ExprKind::kLet, SpanSince(i == 0 ? start : b.start));
    e->flag = i > 0;
    e->type_ref = std::move(b.type);
    e->bound_vars.push_back(std::move(b.var));
    e->operands.push_back(std::move(b.init));
    e->operands.push_back(std::move(body));
    e->height = HeightOf(*e);
    TS_RETURN_IF_ERROR(CheckHeight(*e));
    body = std::move(e);
  }
  return body;
}

absl::StatusOr<ExprPtr> Parser::ParseBackslashPrimary() {
  size_t start = pos_;
  const Token& t = Peek();
  std::string word = t.text.substr(1);
  QuantifierKind q;
  if (LookupQuantifier(t.text, &q) && !(q == QuantifierKind::kMax && IsOp("(", 1))) {
    return ParseQuantifierUnparenthesized();
  }
  if (word == "result") {
    Next();
    return NewExpr(ExprKind::kResult, t.span);
  }
  if (word == "let") return ParseLetUnparenthesized();
  if (word == "old" || word == "pre") {
    Next();
    TS_RETURN_IF_ERROR(Expect("(", absl::StrCat("after ", t.text)));
    TS_ASSIGN_OR_RETURN(ExprPtr inner, ParseExpression());
    auto e = NewExpr(ExprKind::kOld, t.span);
    e->flag = word == "pre";
    if (IsOp(",") && word == "old") {
      Next();
      e->name_span = Peek().span;
      TS_ASSIGN_OR_RETURN(e->name, ExpectIdentifier("a label after ','"));
    }
    TS_RETURN_IF_ERROR(Expect(")", absl::StrCat("to close ", t.text)));
    e->operands.push_back(std::move(inner));
    e->span = SpanSince(start);
    e->height = HeightOf(*e);
    return e;
  }
  for (const char* k : kJmlKeywords) {
    if (word == k) {
      Next();
      auto e = NewExpr(ExprKind::kJmlKeyword, t.span);
      e->name = word;
      return e;
    }
  }
  for (const auto& f : kJmlFunctions) {
    if (word != f.name) continue;
    Next();
    auto e = NewExpr(ExprKind::kJmlCall, t.span);
    e->name = word;
    e->name_span = t.span;
    TS_RETURN_IF_ERROR(Expect("(", absl::StrCat("after ", t.text)));
    int count = 0;
    while (true) {
      if (f.args == ArgKind::kType) {
        TS_ASSIGN_OR_RETURN(e->type_ref, ParseType(/*allow_void=*/true));
      } else if (f.args == ArgKind::kStoreRefs) {
        TS_ASSIGN_OR_RETURN(StoreRef r, ParseStoreRef());
        e->store_refs.push_back(std::move(r));
      } else {
        TS_ASSIGN_OR_RETURN(ExprPtr a, ParseExpression());
        e->operands.push_back(std::move(a));
      }
      ++count;
      if (IsOp(",") && (f.max_args < 0 || count < f.max_args)) {
        Next();
        continue;
      }
      break;
    }
    TS_RETURN_IF_ERROR(Expect(")", absl::StrCat("to close ", t.text)));
    e->span = SpanSince(start);
    e->height = HeightOf(*e);
    return e;
  }
  if (word == "bigint" || word == "real" || word == "TYPE") {
    return ErrorAtToken(t, absl::StrCat("unexpected type '", t.text, "' in an expression"));
  }
  if (word == "lblpos" || word == "lblneg") {
    return ErrorAtToken(t,
                        absl::StrCat(t.text, " must be parenthesized: (", t.text, " label expr)"));
  }
  if (word == "into" || word == "such_that") {
    return ErrorAtToken(t, absl::StrCat("'", t.text, "' belongs in a represents or maps clause"));
  }
  return ErrorAtToken(t, absl::StrCat("unknown JML keyword '", t.text, "'"));
}

absl::StatusOr<ExprPtr> Parser::ParseNew() {
  size_t start = pos_;
  Next();  // new
  TypeRef type;
  {
    // Parse the element type without dimensions: they may hold expressions.
    const Token& t = Peek();
    if (t.kind != TokenKind::kIdentifier || (IsReserved(t.text) && !IsPrimitiveKeyword(t.text))) {
      return Unexpected("a type", "after 'new'");
    }
    size_t type_start = pos_;
    type.name = Next().text;
    while (IsOp(".") && Peek(1).kind == TokenKind::kIdentifier) {
      Next();
      absl::StrAppend(&type.name, ".", Next().text);
    }
    if (IsOp("<")) {
      set_pos(type_start);
      TS_ASSIGN_OR_RETURN(type, ParseType(false));
      type.dims = 0;
      if (IsOp("[")) return Unexpected("'('", "after a generic type in 'new'");
    }
    type.span = SpanSince(type_start);
  }
  if (IsOp("(")) {
    TS_ASSIGN_OR_RETURN(std::vector<ExprPtr> args, ParseArguments());
    if (IsOp("{"))
      return UnsupportedAt(Peek().span, "unsupported: anonymous classes in specifications");
    auto e = NewExpr(ExprKind::kNewObject, SpanSince(start));
    e->type_ref = std::move(type);
    for (auto& a : args) e->operands.push_back(std::move(a));
    e->height = HeightOf(*e);
    return e;
  }
  if (IsOp("{")) {
    return UnsupportedAt(Peek().span, "unsupported: JML set comprehensions (new T { x | P })");
  }
  if (!IsOp("[")) return Unexpected("'(' or '['", "after 'new T'");
  auto e = NewExpr(ExprKind::kNewArray, tokens_[start].span);
  while (IsOp("[") && !IsOp("]", 1)) {
    Next();
    TS_ASSIGN_OR_RETURN(ExprPtr dim, ParseExpression());
    TS_RETURN_IF_ERROR(Expect("]", "after array dimension"));
    e->operands.push_back(std::move(dim));
    ++type.dims;
  }
  while (IsOp("[") && IsOp("]", 1)) {
    Next();
    Next();
    ++type.dims;
  }
  if (e->operands.empty()) {
    if (!IsOp("{")) return Unexpected("an array initializer '{'", "after 'new T[]'");
    TS_ASSIGN_OR_RETURN(ExprPtr init, ParseArrayInitializer());
    e->flag = true;
    e->operands = std::move(init->operands);
  }
  e->type_ref = std::move(type);
  e->span = SpanSince(start);
  e->height = HeightOf(*e);
  TS_RETURN_IF_ERROR(CheckHeight(*e));
  return e;
}

absl::StatusOr<ExprPtr> Parser::ParseArrayInitializer() {
  DepthGuard guard(&depth_);
  if (guard.exceeded()) return ErrorAtToken(Peek(), "array initializer is nested too deeply");
  size_t start = pos_;
  TS_RETURN_IF_ERROR(Expect("{", "to start an array initializer"));
  auto e = NewExpr(ExprKind::kArrayInit, tokens_[start].span);
  while (!IsOp("}")) {
    if (IsOp("{")) {
      TS_ASSIGN_OR_RETURN(ExprPtr inner, ParseArrayInitializer());
      e->operands.push_back(std::move(inner));
    } else {
      TS_ASSIGN_OR_RETURN(ExprPtr elem, ParseExpression());
      e->operands.push_back(std::move(elem));
    }
    if (IsOp(",")) {
      Next();
      continue;
    }
    if (!IsOp("}")) return Unexpected("',' or '}'", "in array initializer");
  }
  Next();
  e->span = SpanSince(start);
  e->height = HeightOf(*e);
  return e;
}

// ---- Store references ----

absl::StatusOr<StoreRef> Parser::ParseStoreRef() {
  DepthGuard guard(&depth_);
  if (guard.exceeded()) return ErrorAtToken(Peek(), "store reference is nested too deeply");
  size_t start = pos_;
  StoreRef r;
  const Token& t = Peek();
  if (t.kind == TokenKind::kInformal) {
    r.kind = StoreRef::Kind::kInformal;
    r.informal = t.text;
    Next();
    r.span = SpanSince(start);
    return r;
  }
  if (t.kind == TokenKind::kBackslashWord &&
      (t.text == "\\nothing" || t.text == "\\everything" || t.text == "\\not_specified")) {
    r.kind = t.text == "\\nothing"      ? StoreRef::Kind::kNothing
             : t.text == "\\everything" ? StoreRef::Kind::kEverything
                                        : StoreRef::Kind::kNotSpecified;
    Next();
    r.span = SpanSince(start);
    return r;
  }
  ExprPtr base;
  if (t.IsIdent("this")) {
    base = NewExpr(ExprKind::kThis, t.span);
    Next();
  } else if (t.IsIdent("super")) {
    base = NewExpr(ExprKind::kSuper, t.span);
    Next();
  } else if (t.kind == TokenKind::kIdentifier && !IsReserved(t.text)) {
    base = NewExpr(ExprKind::kName, t.span);
    base->name = t.text;
    base->name_span = t.span;
    Next();
  } else {
    return Unexpected("a location (a field, this.f, a[i], a[*], a[i..j], o.*)", "");
  }
  r.kind = StoreRef::Kind::kLocation;
  while (true) {
    if (IsOp(".")) {
      Next();
      if (IsOp("*")) {
        Next();
        r.kind = StoreRef::Kind::kAllFields;
        break;
      }
      const Token& m = Peek();
      if (m.kind != TokenKind::kIdentifier || IsReserved(m.text)) {
        return Unexpected("a field name or '*'", "after '.' in a location");
      }
      Next();
      auto e = NewExpr(ExprKind::kFieldAccess, SourceSpan::Join(base->span, m.span));
      e->name = m.text;
      e->name_span = m.span;
      e->operands.push_back(std::move(base));
      e->height = HeightOf(*e);
      base = std::move(e);
      continue;
    }
    if (IsOp("[")) {
      Next();
      if (IsOp("*")) {
        Next();
        TS_RETURN_IF_ERROR(Expect("]", "after '[*'"));
        r.kind = StoreRef::Kind::kAllElements;
        break;
      }
      TS_ASSIGN_OR_RETURN(ExprPtr lo, ParseExpression());
      if (IsOp("..")) {
        Next();
        TS_ASSIGN_OR_RETURN(ExprPtr hi, ParseExpression());
        TS_RETURN_IF_ERROR(Expect("]", "after an index range"));
        r.kind = StoreRef::Kind::kArrayRange;
        r.lo = std::move(lo);
        r.hi = std::move(hi);
        break;
      }
      TS_RETURN_IF_ERROR(Expect("]", "after array index"));
      auto e = NewExpr(ExprKind::kArrayAccess, SpanSince(start));
      e->operands.push_back(std::move(base));
      e->operands.push_back(std::move(lo));
      e->height = HeightOf(*e);
      base = std::move(e);
      continue;
    }
    break;
  }
  if (r.kind != StoreRef::Kind::kLocation && (IsOp(".") || IsOp("["))) {
    return UnsupportedAt(Peek().span, "unsupported: a location may not continue after '*' or '..'");
  }
  if (base->kind == ExprKind::kSuper && r.kind == StoreRef::Kind::kLocation) {
    return ErrorAt(base->span, "'super' alone is not a location");
  }
  TS_RETURN_IF_ERROR(CheckHeight(*base));
  r.expr = std::move(base);
  r.span = SpanSince(start);
  return r;
}

absl::StatusOr<std::vector<StoreRef>> Parser::ParseStoreRefList(absl::string_view context) {
  std::vector<StoreRef> refs;
  while (true) {
    TS_ASSIGN_OR_RETURN(StoreRef r, ParseStoreRef());
    refs.push_back(std::move(r));
    if (!IsOp(",")) break;
    Next();
  }
  if (refs.size() > 1) {
    for (const auto& r : refs) {
      if (r.kind == StoreRef::Kind::kNothing || r.kind == StoreRef::Kind::kEverything ||
          r.kind == StoreRef::Kind::kNotSpecified) {
        return ErrorAt(
            r.span, absl::StrCat("\\nothing, \\everything and \\not_specified must stand alone in ",
                                 context));
      }
    }
  }
  return refs;
}

absl::StatusOr<MethodRef> Parser::ParseMethodRef() {
  size_t start = pos_;
  MethodRef m;
  const Token& t = Peek();
  if (t.kind != TokenKind::kIdentifier) return Unexpected("a method name", "");
  m.name = Next().text;
  while (IsOp(".") && Peek(1).kind == TokenKind::kIdentifier) {
    Next();
    absl::StrAppend(&m.name, ".", Next().text);
  }
  if (IsOp("(")) {
    Next();
    m.has_params = true;
    while (!IsOp(")")) {
      TS_ASSIGN_OR_RETURN(TypeRef p, ParseType(false));
      m.params.push_back(std::move(p));
      if (IsOp(",")) {
        Next();
        continue;
      }
      if (!IsOp(")")) return Unexpected("',' or ')'", "in a method reference");
    }
    Next();
  }
  m.span = SpanSince(start);
  return m;
}

// ---- Clauses and spec cases ----

absl::Status Parser::ExpectSemicolon(absl::string_view context) {
  if (IsOp(";")) {
    Next();
    return absl::OkStatus();
  }
  return Unexpected("';'", absl::StrCat("at the end of the ", context));
}

// The end of a JML clause or statement: its ';', which (as OpenJML does) may
// be left out after the last one of an annotation — where the annotation
// comment ends, or where the next clause starts on a later line (the
// expression parser has already taken every token that could continue it).
absl::Status Parser::ExpectClauseEnd(absl::string_view context, bool* omitted) {
  if (IsOp(";") || pos_ == 0) return ExpectSemicolon(context);
  const Token& prev = tokens_[pos_ - 1];
  const Token& t = Peek();
  if (prev.jml && (t.kind == TokenKind::kEnd || !t.jml || t.run != prev.run ||
                   t.span.line > prev.span.end_line)) {
    *omitted = true;
    return absl::OkStatus();
  }
  return ExpectSemicolon(context);
}

// At a ';' after the first expression of a quantifier: whether the ';'
// ends the clause (or statement) the quantifier stands in, rather than
// separating the quantifier's range from its body. Outside parentheses it
// ends it where no expression can follow: at the end of the annotation or text, before '|}'
// or '}', or before the keyword of a clause, spec case, class-level clause,
// JML statement, modifier or declaration.
bool Parser::SemicolonEndsClause() const {
  // Inside parentheses a ';' separates a quantifier's parts.
  if (open_parens_ > 0) return false;
  const Token& semi = Peek();
  const Token& t = Peek(1);
  if (t.kind == TokenKind::kEnd || !t.jml || t.run != semi.run) return true;
  if (t.IsOp("|}") || t.IsOp("}")) return true;
  if (t.kind != TokenKind::kIdentifier) return false;
  // A keyword used as a name: `set.size() > 0`, `in[i]`, `old == 0`. After
  // a clause or statement keyword comes an expression, a type or a name;
  // an operator that can only continue an expression makes it a name.
  static const char* const kInfixOnly[] = {
      ".",  "[",  "==", "!=", "<",   "<=",   ">",   ">=",   ">>",    ">>>",   "<<", "&&",
      "||", "&",  "|",  "^",  "*",   "/",    "%",   "?",    "==>",   "<==",   "<==>",
      "<=!=>", "<:", ")", ",", ":", "]"};
  const Token& after = Peek(2);
  if (after.IsIdent("instanceof")) return false;
  for (const char* op : kInfixOnly) {
    if (after.IsOp(op)) return false;
  }
  // A declaration: a type followed by a name.
  if (AtTypeStart(1) && Peek(2).kind == TokenKind::kIdentifier) return true;
  ClauseKind clause;
  Behavior behavior;
  ClassClauseKind class_clause;
  BodyAnnotationKind statement;
  bool redundant;
  bool is_clause = LookupClause(t.text, &clause, &redundant);
  bool is_class_clause = LookupClassClause(t.text, &class_clause, &redundant);
  bool is_statement = LookupStatement(t.text, &statement, &redundant);
  // Keywords followed by an expression, which may start with a unary
  // operator (`ensures -1 < x`); the others are followed by a type, a name,
  // a store reference or a keyword, never by one: `old + i` is a name.
  bool before_expression =
      (is_clause && (clause == ClauseKind::kRequires || clause == ClauseKind::kEnsures ||
                     clause == ClauseKind::kDiverges || clause == ClauseKind::kWhen ||
                     clause == ClauseKind::kWorkingSpace || clause == ClauseKind::kDuration ||
                     clause == ClauseKind::kMeasuredBy)) ||
      (is_class_clause &&
       (class_clause == ClassClauseKind::kInvariant || class_clause == ClassClauseKind::kConstraint ||
        class_clause == ClassClauseKind::kInitially || class_clause == ClassClauseKind::kAxiom)) ||
      (is_statement && statement != BodyAnnotationKind::kSet &&
       statement != BodyAnnotationKind::kLoopAssignable);
  if (!before_expression &&
      (after.IsOp("+") || after.IsOp("-") || after.IsOp("!") || after.IsOp("~"))) {
    return false;
  }
  return is_clause || is_class_clause || is_statement || LookupBehavior(t.text, &behavior) ||
         ModifierBit(t.text, true) != 0 || t.text == "also" || t.text == "implies_that" ||
         t.text == "for_example" || t.text == "forall" || t.text == "old" || t.text == "code";
}

bool Parser::AtJmlToken() const {
  const Token& t = Peek();
  return t.jml && t.kind != TokenKind::kEnd;
}

bool Parser::AtSpecStart() const {
  if (!AtJmlToken()) return false;
  const Token& t = Peek();
  if (t.IsOp("{|")) return true;
  if (t.kind != TokenKind::kIdentifier) return false;
  ClauseKind ck;
  bool red;
  Behavior b;
  if (LookupClause(t.text, &ck, &red) || LookupBehavior(t.text, &b)) return true;
  if (t.text == "also" || t.text == "implies_that" || t.text == "for_example" ||
      t.text == "model_program")
    return true;
  if (IsPrivacy(t.text) || t.text == "code") {
    // A visibility before a behavior keyword, or (wrongly) before a clause,
    // which the spec-case parser then reports.
    int k = 1;
    if (IsIdent("code", k)) ++k;
    const Token& next = Peek(k);
    return next.kind == TokenKind::kIdentifier && next.jml &&
           (LookupBehavior(next.text, &b) || next.text == "model_program" ||
            LookupClause(next.text, &ck, &red));
  }
  if (t.text == "forall" || t.text == "old") {
    // forall T x;  old T x = e;
    return AtTypeStart(1) && Peek(2).kind == TokenKind::kIdentifier;
  }
  return false;
}

absl::StatusOr<Clause> Parser::ParseClause() {
  size_t start = pos_;
  const Token& kw = Next();
  Clause c;
  if (!LookupClause(kw.text, &c.kind, &c.redundant)) {
    return ErrorAtToken(kw, absl::StrCat("unknown specification clause '", kw.text, "'"));
  }
  std::string context = absl::StrCat(kw.text, " clause");
  switch (c.kind) {
    case ClauseKind::kRequires:
    case ClauseKind::kEnsures:
    case ClauseKind::kDiverges:
    case ClauseKind::kWhen: {
      if (IsOp(";")) return Unexpected("a predicate", absl::StrCat("after '", kw.text, "'"));
      TS_ASSIGN_OR_RETURN(c.pred, ParseExpression());
      break;
    }
    case ClauseKind::kSignals: {
      TS_RETURN_IF_ERROR(
          Expect("(", absl::StrCat("after '", kw.text, "' (signals (Exception e) predicate;)")));
      TS_ASSIGN_OR_RETURN(c.exception_type, ParseType(false));
      if (Peek().kind == TokenKind::kIdentifier && !IsReserved(Peek().text)) {
        c.exception_var_span = Peek().span;
        c.exception_var = Next().text;
      }
      TS_RETURN_IF_ERROR(Expect(")", "after the exception of a signals clause"));
      if (!IsOp(";")) {
        TS_ASSIGN_OR_RETURN(c.pred, ParseExpression());
      }
      break;
    }
    case ClauseKind::kSignalsOnly: {
      if (Peek().Is(TokenKind::kBackslashWord, "\\nothing")) {
        Next();
        c.nothing = true;
        break;
      }
      while (true) {
        TS_ASSIGN_OR_RETURN(TypeRef t, ParseType(false));
        c.types.push_back(std::move(t));
        if (!IsOp(",")) break;
        Next();
      }
      break;
    }
    case ClauseKind::kAssignable:
    case ClauseKind::kAccessible:
    case ClauseKind::kCaptures: {
      TS_ASSIGN_OR_RETURN(c.store_refs, ParseStoreRefList(context));
      break;
    }
    case ClauseKind::kCallable: {
      const Token& t = Peek();
      if (t.kind == TokenKind::kBackslashWord &&
          (t.text == "\\nothing" || t.text == "\\everything" || t.text == "\\not_specified")) {
        c.keyword = t.text.substr(1);
        Next();
        break;
      }
      while (true) {
        TS_ASSIGN_OR_RETURN(MethodRef m, ParseMethodRef());
        c.methods.push_back(std::move(m));
        if (!IsOp(",")) break;
        Next();
      }
      break;
    }
    case ClauseKind::kWorkingSpace:
    case ClauseKind::kDuration:
    case ClauseKind::kMeasuredBy: {
      TS_ASSIGN_OR_RETURN(c.pred, ParseExpression());
      if (IsIdent("if")) {
        Next();
        TS_ASSIGN_OR_RETURN(c.condition, ParseExpression());
      }
      break;
    }
  }
  TS_RETURN_IF_ERROR(ExpectClauseEnd(context, &c.semicolon_omitted));
  c.span = SpanSince(start);
  return c;
}

absl::Status Parser::ParseGenericCaseBody(SpecCase* c, bool examples, Behavior behavior) {
  // spec-var-decls
  while ((IsIdent("forall") || IsIdent("old")) && AtTypeStart(1) &&
         Peek(2).kind == TokenKind::kIdentifier) {
    size_t start = pos_;
    SpecVarDecl v;
    v.is_old = Next().text == "old";
    TS_ASSIGN_OR_RETURN(v.type, ParseType(false));
    v.span = Peek().span;
    TS_ASSIGN_OR_RETURN(v.name, ExpectIdentifier("a variable name"));
    if (v.is_old) {
      TS_RETURN_IF_ERROR(Expect("=", "in an old variable declaration (old T x = e;)"));
      TS_ASSIGN_OR_RETURN(v.init, ParseExpression());
    }
    TS_RETURN_IF_ERROR(ExpectSemicolon(v.is_old ? "old declaration" : "forall declaration"));
    (void)start;
    c->vars.push_back(std::move(v));
  }
  while (AtJmlToken() && Peek().kind == TokenKind::kIdentifier) {
    ClauseKind ck;
    bool red;
    if (!LookupClause(Peek().text, &ck, &red)) {
      // A misspelt keyword at the head of a clause, not a declaration such
      // as `Sting name;` (a type, a name, then one of ; = ( , [). Clause
      // keywords are lower case: a lower-case word followed by a name is
      // still a misspelt keyword when that name is a type, as in
      // `signal_only IllegalArgumentException;` (a class name starts upper
      // case) — a declaration's type is rarely a lower-case word one edit
      // from a keyword.
      std::string meant = MisspeltClause(Peek().text);
      const std::string& second = Peek(1).text;
      bool names_a_type = Peek(1).kind == TokenKind::kIdentifier && !second.empty() &&
                          absl::ascii_isupper(static_cast<unsigned char>(second[0]));
      bool declaration = Peek(1).kind == TokenKind::kIdentifier && !names_a_type &&
                         (IsOp(";", 2) || IsOp("=", 2) || IsOp("(", 2) || IsOp(",", 2) ||
                          IsOp("[", 2));
      if (!meant.empty() && !declaration) {
        return ErrorAtToken(Peek(), absl::StrCat("unknown clause keyword '", Peek().text,
                                                 "' (did you mean '", meant, "'?)"));
      }
      break;
    }
    TS_ASSIGN_OR_RETURN(Clause clause, ParseClause());
    c->clauses.push_back(std::move(clause));
  }
  if (IsOp("{|")) {
    DepthGuard guard(&depth_);
    if (guard.exceeded()) return ErrorAtToken(Peek(), "specification cases are nested too deeply");
    Next();
    while (true) {
      SpecCase inner;
      size_t start = pos_;
      // As OpenJML allows, a nested case may have a header of its own
      // (`{| normal_behavior ... also exceptional_behavior ... |}`).
      const Token& head = Peek();
      TS_RETURN_IF_ERROR(ParseCaseHeader(&inner, examples));
      Behavior inner_behavior = NestedBehavior(behavior, inner.behavior);
      if (NormalOnly(behavior) && ExceptionalOnly(inner.behavior)) {
        return ErrorAtToken(head, absl::StrCat("an ", BehaviorKeyword(inner.behavior),
                                               " case cannot be nested in a ",
                                               BehaviorKeyword(behavior), " case"));
      }
      if (ExceptionalOnly(behavior) && NormalOnly(inner.behavior)) {
        return ErrorAtToken(head, absl::StrCat("a ", BehaviorKeyword(inner.behavior),
                                               " case cannot be nested in an ",
                                               BehaviorKeyword(behavior), " case"));
      }
      TS_RETURN_IF_ERROR(ParseGenericCaseBody(&inner, examples, inner_behavior));
      if (inner.vars.empty() && inner.clauses.empty() && inner.nested.empty()) {
        return Unexpected("a specification clause", "inside '{|'");
      }
      inner.span = SpanSince(start);
      c->nested.push_back(std::move(inner));
      if (IsIdent("also")) {
        Next();
        continue;
      }
      break;
    }
    if (!IsOp("|}")) return Unexpected("'also' or '|}'", "in nested specification cases");
    Next();
  }
  return absl::OkStatus();
}

absl::Status Parser::ParseCaseHeader(SpecCase* c, bool examples) {
  bool heavy = false;
  while (AtJmlToken() && (IsPrivacy(Peek().text) || Peek().IsIdent("code")) &&
         Peek().kind == TokenKind::kIdentifier) {
    const Token& t = Next();
    if (t.text == "code") {
      c->code = true;
    } else {
      c->visibility = t.text == "public"      ? Visibility::kPublic
                      : t.text == "protected" ? Visibility::kProtected
                                              : Visibility::kPrivate;
    }
    heavy = true;
  }
  if (IsIdent("model_program")) {
    return UnsupportedAt(Peek().span, "unsupported: model programs (model_program)");
  }
  Behavior b;
  if (Peek().kind == TokenKind::kIdentifier && LookupBehavior(Peek().text, &b)) {
    if (IsExampleBehavior(b) != examples) {
      return ErrorAtToken(Peek(),
                          examples ? absl::StrCat("'", Peek().text, "' is not an example keyword")
                                   : absl::StrCat("'", Peek().text, "' belongs after for_example"));
    }
    c->behavior = b;
    Next();
  } else if (heavy) {
    return Unexpected("normal_behavior, exceptional_behavior or behavior",
                      "after the visibility of a spec case");
  }
  return absl::OkStatus();
}

absl::StatusOr<SpecCase> Parser::ParseSpecCase(bool examples) {
  size_t start = pos_;
  SpecCase c;
  TS_RETURN_IF_ERROR(ParseCaseHeader(&c, examples));
  TS_RETURN_IF_ERROR(ParseGenericCaseBody(&c, examples, c.behavior));
  if (c.behavior == Behavior::kLightweight && c.vars.empty() && c.clauses.empty() &&
      c.nested.empty()) {
    return Unexpected("a specification clause", "");
  }
  c.span = SpanSince(start);
  return c;
}

absl::StatusOr<MethodSpec> Parser::ParseMethodSpec() {
  size_t start = pos_;
  MethodSpec spec;
  if (IsIdent("also")) {
    spec.extending = true;
    Next();
  }
  auto parse_seq = [&](std::vector<SpecCase>* out, bool examples) -> absl::Status {
    while (true) {
      TS_ASSIGN_OR_RETURN(SpecCase c, ParseSpecCase(examples));
      out->push_back(std::move(c));
      if (IsIdent("also")) {
        Next();
        continue;
      }
      Behavior b;
      if (AtJmlToken() && Peek().kind == TokenKind::kIdentifier &&
          LookupBehavior(Peek().text, &b) && IsExampleBehavior(b) && !examples) {
        return ErrorAtToken(Peek(), absl::StrCat("'", Peek().text, "' belongs after for_example"));
      }
      if (AtJmlToken() &&
          ((Peek().kind == TokenKind::kIdentifier && LookupBehavior(Peek().text, &b)) ||
           (IsPrivacy(Peek().text) && AtSpecStart()) || IsOp("{|"))) {
        return Unexpected("'also'", "between specification cases");
      }
      return absl::OkStatus();
    }
  };
  if (!IsIdent("implies_that") && !IsIdent("for_example")) {
    TS_RETURN_IF_ERROR(parse_seq(&spec.cases, false));
  }
  if (IsIdent("implies_that")) {
    Next();
    TS_RETURN_IF_ERROR(parse_seq(&spec.implies_that, false));
  }
  if (IsIdent("for_example")) {
    Next();
    TS_RETURN_IF_ERROR(parse_seq(&spec.examples, true));
  }
  spec.span = SpanSince(start);
  return spec;
}

absl::Status Parser::MergeSpec(MethodSpec* spec, MethodSpec more) {
  if (spec->empty()) {
    *spec = std::move(more);
    return absl::OkStatus();
  }
  spec->span = SourceSpan::Join(spec->span, more.span);
  if (!more.cases.empty() && !more.extending && !spec->cases.empty() &&
      spec->implies_that.empty() && spec->examples.empty()) {
    SpecCase& last = spec->cases.back();
    SpecCase& first = more.cases.front();
    if (last.behavior != Behavior::kLightweight || first.behavior != Behavior::kLightweight ||
        !last.nested.empty() || !first.vars.empty()) {
      return ErrorAt(first.span, "expected 'also' between specification cases");
    }
    last.span = SourceSpan::Join(last.span, first.span);
    for (auto& c : first.clauses) last.clauses.push_back(std::move(c));
    for (auto& n : first.nested) last.nested.push_back(std::move(n));
    more.cases.erase(more.cases.begin());
  } else if (!more.cases.empty() && (!spec->implies_that.empty() || !spec->examples.empty())) {
    return ErrorAt(more.cases.front().span,
                   "specification cases must come before implies_that and for_example");
  }
  for (auto& c : more.cases) spec->cases.push_back(std::move(c));
  for (auto& c : more.implies_that) spec->implies_that.push_back(std::move(c));
  for (auto& c : more.examples) spec->examples.push_back(std::move(c));
  return absl::OkStatus();
}

// ---- Modifiers ----

absl::Status Parser::ParseModifiers(Modifiers* mods) {
  size_t start = pos_;
  static const std::map<std::string, uint64_t, std::less<>> kJmlAnnotations = {
      {"Pure", kModPure},
      {"Helper", kModHelper},
      {"SpecPublic", kModSpecPublic},
      {"SpecProtected", kModSpecProtected},
      {"Nullable", kModNullable},
      {"NonNull", kModNonNull},
      {"Model", kModModel},
      {"Ghost", kModGhost},
      {"NullableByDefault", kModNullableByDefault},
      {"NonNullByDefault", kModNonNullByDefault},
      {"SpecBigintMath", kModSpecBigintMath},
      {"SpecJavaMath", kModSpecJavaMath},
      {"SpecSafeMath", kModSpecSafeMath},
  };
  while (true) {
    const Token& t = Peek();
    if (t.kind == TokenKind::kError) return ErrorAtToken(t, t.text);
    if (t.IsOp("@") && Peek(1).kind == TokenKind::kIdentifier && !IsIdent("interface", 1)) {
      Next();
      TS_ASSIGN_OR_RETURN(std::string name, ParseQualifiedName());
      if (IsOp("(")) TS_RETURN_IF_ERROR(SkipBalanced("(", ")"));
      std::string simple =
          name.substr(name.rfind('.') == std::string::npos ? 0 : name.rfind('.') + 1);
      auto it = kJmlAnnotations.find(simple);
      if (it != kJmlAnnotations.end()) mods->bits |= it->second;
      mods->annotations.push_back(simple);
      continue;
    }
    if (t.kind != TokenKind::kIdentifier) break;
    // A visibility keyword that opens a heavyweight spec case is not a modifier.
    if (t.jml && (IsPrivacy(t.text) || t.text == "code") && AtSpecStart()) break;
    if (t.text == "non" && IsOp("-", 1) && IsIdent("sealed", 2)) {
      Next();
      Next();
      Next();
      mods->bits |= kModNonSealed;
      continue;
    }
    if (t.text == "sealed" && !(Peek(1).kind == TokenKind::kIdentifier)) break;
    uint64_t bit = ModifierBit(t.text, t.jml);
    if (bit == 0) break;
    // `default` in annotation members and switch never reaches here; in an
    // interface it is a modifier only when a declaration follows.
    if (bit == kModDefault && IsOp(":", 1)) break;
    mods->bits |= bit;
    Next();
  }
  if (pos_ > start) mods->span = SpanSince(start);
  return absl::OkStatus();
}

// ---- Class-level clauses ----

bool Parser::AtClassClauseStart() const {
  if (!AtJmlToken() || Peek().kind != TokenKind::kIdentifier) return false;
  ClassClauseKind k;
  bool red;
  if (!LookupClassClause(Peek().text, &k, &red)) return false;
  // `in` and `maps` are common identifiers; require their clause shape.
  if (k == ClassClauseKind::kIn) return Peek(1).kind == TokenKind::kIdentifier;
  if (k == ClassClauseKind::kMaps) return Peek(1).kind == TokenKind::kIdentifier;
  return true;
}

absl::StatusOr<ClassClause> Parser::ParseClassClause(Modifiers mods) {
  size_t start = pos_;
  const Token& kw = Next();
  ClassClause c;
  c.mods = std::move(mods);
  LookupClassClause(kw.text, &c.kind, &c.redundant);
  std::string context = absl::StrCat(kw.text, " clause");
  switch (c.kind) {
    case ClassClauseKind::kInvariant:
    case ClassClauseKind::kInitially:
    case ClassClauseKind::kAxiom: {
      TS_ASSIGN_OR_RETURN(c.pred, ParseExpression());
      break;
    }
    case ClassClauseKind::kConstraint: {
      TS_ASSIGN_OR_RETURN(c.pred, ParseExpression());
      if (IsIdent("for")) {
        Next();
        if (Peek().Is(TokenKind::kBackslashWord, "\\everything")) {
          Next();
          c.for_everything = true;
        } else {
          while (true) {
            TS_ASSIGN_OR_RETURN(MethodRef m, ParseMethodRef());
            c.for_methods.push_back(std::move(m));
            if (!IsOp(",")) break;
            Next();
          }
        }
      }
      break;
    }
    case ClassClauseKind::kRepresents: {
      TS_ASSIGN_OR_RETURN(StoreRef target, ParseStoreRef());
      if (target.kind != StoreRef::Kind::kLocation || target.expr->kind == ExprKind::kArrayAccess) {
        return ErrorAt(target.span, "a represents clause must name a model field");
      }
      c.target = std::move(target.expr);
      if (IsOp("=")) {
        Next();
        c.represents = RepresentsKind::kEquals;
        TS_ASSIGN_OR_RETURN(c.pred, ParseExpression());
      } else if (IsOp("<") && IsOp("-", 1)) {
        Next();
        Next();
        c.represents = RepresentsKind::kArrow;
        TS_ASSIGN_OR_RETURN(c.pred, ParseExpression());
      } else if (Peek().Is(TokenKind::kBackslashWord, "\\such_that")) {
        Next();
        c.represents = RepresentsKind::kSuchThat;
        TS_ASSIGN_OR_RETURN(c.pred, ParseExpression());
      } else {
        return Unexpected("'=' or '\\such_that'", "in represents clause");
      }
      break;
    }
    case ClassClauseKind::kReadable:
    case ClassClauseKind::kWritable: {
      TS_ASSIGN_OR_RETURN(StoreRef target, ParseStoreRef());
      c.target = std::move(target.expr);
      if (!IsIdent("if")) return Unexpected("'if'", absl::StrCat("in ", context));
      Next();
      TS_ASSIGN_OR_RETURN(c.pred, ParseExpression());
      break;
    }
    case ClassClauseKind::kMonitorsFor: {
      TS_ASSIGN_OR_RETURN(StoreRef target, ParseStoreRef());
      c.target = std::move(target.expr);
      if (IsOp("=")) {
        Next();
      } else if (IsOp("<") && IsOp("-", 1)) {
        Next();
        Next();
      } else {
        return Unexpected("'='", "in monitors_for clause");
      }
      while (true) {
        TS_ASSIGN_OR_RETURN(ExprPtr e, ParseExpression());
        c.exprs.push_back(std::move(e));
        if (!IsOp(",")) break;
        Next();
      }
      break;
    }
    case ClassClauseKind::kIn:
    case ClassClauseKind::kMaps: {
      if (c.kind == ClassClauseKind::kMaps) {
        TS_ASSIGN_OR_RETURN(StoreRef r, ParseStoreRef());
        c.maps_refs.push_back(std::move(r));
        if (!Peek().Is(TokenKind::kBackslashWord, "\\into"))
          return Unexpected("'\\into'", "in maps clause");
        Next();
      }
      while (true) {
        TS_ASSIGN_OR_RETURN(std::string g, ExpectIdentifier("a data group name"));
        c.groups.push_back(std::move(g));
        if (!IsOp(",")) break;
        Next();
      }
      break;
    }
  }
  TS_RETURN_IF_ERROR(ExpectClauseEnd(context, &c.semicolon_omitted));
  c.span = SpanSince(start);
  return c;
}

// ---- In-body annotations ----

absl::StatusOr<BodyAnnotation> Parser::ParseBodyAnnotation() {
  size_t start = pos_;
  BodyAnnotation a;
  const Token& kw = Peek();
  if (kw.kind == TokenKind::kError) return ErrorAtToken(kw, kw.text);
  if (kw.kind != TokenKind::kIdentifier) return Unexpected("a JML statement", "");
  bool ghost = false;
  if (!LookupStatement(kw.text, &a.kind, &a.redundant)) {
    Modifiers mods;
    TS_RETURN_IF_ERROR(ParseModifiers(&mods));
    if (!mods.Has(kModGhost)) {
      ClauseKind ck;
      bool red;
      Behavior b;
      if (LookupClause(kw.text, &ck, &red) || LookupBehavior(kw.text, &b) ||
          kw.text == "refining") {
        return UnsupportedAt(kw.span, absl::StrCat("unsupported: statement specifications ('",
                                                   kw.text, "' inside a method body)"));
      }
      set_pos(start);
      return ErrorAtToken(kw, absl::StrCat("unknown JML statement '", kw.text, "'"));
    }
    ghost = true;
    a.kind = BodyAnnotationKind::kGhostDecl;
    a.mods = std::move(mods);
  } else {
    Next();
  }
  std::string context = absl::StrCat(ghost ? "ghost" : kw.text, " statement");
  switch (a.kind) {
    case BodyAnnotationKind::kGhostDecl: {
      TS_ASSIGN_OR_RETURN(a.ghost_type, ParseType(false));
      TS_ASSIGN_OR_RETURN(a.ghost_name, ExpectIdentifier("a ghost variable name"));
      while (IsOp("[") && IsOp("]", 1)) {
        Next();
        Next();
        ++a.ghost_type.dims;
      }
      if (IsOp("=")) {
        Next();
        if (IsOp("{")) {
          TS_ASSIGN_OR_RETURN(a.expr, ParseArrayInitializer());
        } else {
          TS_ASSIGN_OR_RETURN(a.expr, ParseExpression());
        }
      }
      break;
    }
    case BodyAnnotationKind::kSet: {
      TS_ASSIGN_OR_RETURN(ExprPtr target, ParsePrimary());
      TS_ASSIGN_OR_RETURN(a.target, ParsePostfix(std::move(target)));
      if (!IsOp("=")) return Unexpected("'='", "in set statement");
      Next();
      TS_ASSIGN_OR_RETURN(a.expr, ParseExpression());
      break;
    }
    case BodyAnnotationKind::kLoopAssignable: {
      TS_ASSIGN_OR_RETURN(a.store_refs, ParseStoreRefList(context));
      break;
    }
    case BodyAnnotationKind::kUnreachable:
      break;
    case BodyAnnotationKind::kReachable:
      if (!IsOp(";")) {
        TS_ASSIGN_OR_RETURN(a.expr, ParseExpression());
      }
      break;
    default: {
      TS_ASSIGN_OR_RETURN(a.expr, ParseExpression());
      if (a.kind == BodyAnnotationKind::kAssert && IsOp(":")) {
        Next();
        TS_ASSIGN_OR_RETURN(a.message, ParseExpression());
      }
      break;
    }
  }
  TS_RETURN_IF_ERROR(ExpectClauseEnd(context, &a.semicolon_omitted));
  a.span = SpanSince(start);
  return a;
}

}  // namespace tracespec::jml::internal

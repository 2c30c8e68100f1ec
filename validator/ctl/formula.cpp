// CTL parser (recursive descent over the grammar in formula.h) and printer.
#include "validator/ctl/formula.h"

#include "absl/strings/str_cat.h"
#include "validator/ctl/kripke.h"

namespace tracespec::ctl {

bool IsTemporal(Op op) { return op >= Op::kEX; }

bool Formula::HasTemporal(int node) const {
  const Node& n = nodes[node];
  if (IsTemporal(n.op)) return true;
  return (n.lhs >= 0 && HasTemporal(n.lhs)) || (n.rhs >= 0 && HasTemporal(n.rhs));
}

namespace {

// Binding strength for printing: larger binds tighter.
int Precedence(Op op) {
  switch (op) {
    case Op::kIff: return 1;
    case Op::kImplies: return 2;
    case Op::kOr: return 3;
    case Op::kAnd: return 4;
    case Op::kNot: case Op::kEX: case Op::kAX: case Op::kEF:
    case Op::kAF: case Op::kEG: case Op::kAG: return 5;
    default: return 6;
  }
}

const char* PrefixName(Op op) {
  switch (op) {
    case Op::kNot: return "!";
    case Op::kEX: return "EX ";
    case Op::kAX: return "AX ";
    case Op::kEF: return "EF ";
    case Op::kAF: return "AF ";
    case Op::kEG: return "EG ";
    case Op::kAG: return "AG ";
    default: return "";
  }
}

struct Tok {
  enum Kind { kEnd, kName, kQuoted, kNot, kAnd, kOr, kImplies, kIff, kLParen, kRParen, kLBracket, kRBracket } kind;
  std::string text;
  int column;
};

class Parser {
 public:
  explicit Parser(absl::string_view text) : text_(text) {}

  absl::StatusOr<Formula> Run() {
    formula_.text = std::string(text_);
    absl::Status lexed = Lex();
    if (!lexed.ok()) return lexed;
    absl::StatusOr<int> root = Iff();
    if (!root.ok()) return root.status();
    if (too_large_) return Error(1, absl::StrCat("formula has more than ", kMaxNodes, " operators and operands"));
    if (Peek().kind != Tok::kEnd) return Error(Peek(), "expected an operator or the end of the formula");
    return std::move(formula_);
  }

 private:
  absl::Status Error(int column, absl::string_view message) const {
    return absl::InvalidArgumentError(absl::StrCat("formula \"", text_, "\": column ", column, ": ", message));
  }
  absl::Status Error(const Tok& t, absl::string_view message) const {
    const std::string found = t.kind == Tok::kEnd ? "the end of the formula" : absl::StrCat("'", t.text, "'");
    return Error(t.column, absl::StrCat(message, ", found ", found));
  }

  absl::Status Lex() {
    size_t i = 0;
    while (i < text_.size()) {
      const char c = text_[i];
      const int column = static_cast<int>(i) + 1;
      auto two = [&](absl::string_view s) { return text_.substr(i, s.size()) == s; };
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') { ++i; continue; }
      if (two("<->")) { toks_.push_back({Tok::kIff, "<->", column}); i += 3; continue; }
      if (two("->")) { toks_.push_back({Tok::kImplies, "->", column}); i += 2; continue; }
      switch (c) {
        case '!': toks_.push_back({Tok::kNot, "!", column}); ++i; continue;
        case '&': toks_.push_back({Tok::kAnd, "&", column}); ++i; continue;
        case '|': toks_.push_back({Tok::kOr, "|", column}); ++i; continue;
        case '(': toks_.push_back({Tok::kLParen, "(", column}); ++i; continue;
        case ')': toks_.push_back({Tok::kRParen, ")", column}); ++i; continue;
        case '[': toks_.push_back({Tok::kLBracket, "[", column}); ++i; continue;
        case ']': toks_.push_back({Tok::kRBracket, "]", column}); ++i; continue;
        default: break;
      }
      if (c == '"') {
        std::string name;
        ++i;
        while (i < text_.size() && text_[i] != '"') {
          if (text_[i] == '\\' && i + 1 < text_.size()) ++i;
          name += text_[i++];
        }
        if (i >= text_.size()) return Error(column, "unterminated quoted name");
        ++i;
        toks_.push_back({Tok::kQuoted, std::move(name), column});
        continue;
      }
      if (IsNameChar(c)) {
        const size_t start = i;
        while (i < text_.size() && IsNameChar(text_[i]) && !two("->")) ++i;
        toks_.push_back({Tok::kName, std::string(text_.substr(start, i - start)), column});
        continue;
      }
      return Error(column, absl::StrCat("unexpected character '", std::string(1, c), "'"));
    }
    toks_.push_back({Tok::kEnd, "", static_cast<int>(text_.size()) + 1});
    return absl::OkStatus();
  }

  const Tok& Peek() const { return toks_[pos_]; }
  bool IsWord(const Tok& t, absl::string_view w) const { return t.kind == Tok::kName && t.text == w; }
  int Add(Op op, int column, int lhs = -1, int rhs = -1, std::string atom = "") {
    if (formula_.nodes.size() >= kMaxNodes) too_large_ = true;
    formula_.nodes.push_back({op, lhs, rhs, std::move(atom), column});
    return static_cast<int>(formula_.nodes.size()) - 1;
  }

  absl::StatusOr<int> Iff() {
    absl::StatusOr<int> lhs = Implies();
    if (!lhs.ok()) return lhs;
    int node = *lhs;
    while (Peek().kind == Tok::kIff) {
      ++pos_;
      absl::StatusOr<int> rhs = Implies();
      if (!rhs.ok()) return rhs;
      node = Add(Op::kIff, formula_.nodes[node].column, node, *rhs);
    }
    return node;
  }
  absl::StatusOr<int> Implies() {
    absl::StatusOr<int> lhs = Or();
    if (!lhs.ok() || Peek().kind != Tok::kImplies) return lhs;
    ++pos_;
    absl::StatusOr<int> rhs = Implies();
    if (!rhs.ok()) return rhs;
    return Add(Op::kImplies, formula_.nodes[*lhs].column, *lhs, *rhs);
  }
  absl::StatusOr<int> Or() {
    absl::StatusOr<int> lhs = And();
    if (!lhs.ok()) return lhs;
    int node = *lhs;
    while (Peek().kind == Tok::kOr) {
      ++pos_;
      absl::StatusOr<int> rhs = And();
      if (!rhs.ok()) return rhs;
      node = Add(Op::kOr, formula_.nodes[node].column, node, *rhs);
    }
    return node;
  }
  absl::StatusOr<int> And() {
    absl::StatusOr<int> lhs = Unary();
    if (!lhs.ok()) return lhs;
    int node = *lhs;
    while (Peek().kind == Tok::kAnd) {
      ++pos_;
      absl::StatusOr<int> rhs = Unary();
      if (!rhs.ok()) return rhs;
      node = Add(Op::kAnd, formula_.nodes[node].column, node, *rhs);
    }
    return node;
  }
  absl::StatusOr<int> Unary() {
    if (++depth_ > 1000) return Error(Peek().column, "formula nested too deeply");
    const Tok t = Peek();
    static const std::pair<const char*, Op> kPrefix[] = {
        {"EX", Op::kEX}, {"AX", Op::kAX}, {"EF", Op::kEF},
        {"AF", Op::kAF}, {"EG", Op::kEG}, {"AG", Op::kAG}};
    Op op = Op::kTrue;
    bool prefix = false;
    if (t.kind == Tok::kNot) {
      op = Op::kNot;
      prefix = true;
    }
    for (const auto& [word, o] : kPrefix)
      if (IsWord(t, word)) {
        op = o;
        prefix = true;
      }
    absl::StatusOr<int> result;
    if (prefix) {
      ++pos_;
      absl::StatusOr<int> operand = Unary();
      if (!operand.ok()) return operand;
      result = Add(op, t.column, *operand);
    } else {
      result = Primary();
    }
    --depth_;
    return result;
  }
  absl::StatusOr<int> Primary() {
    const Tok t = Peek();
    if (t.kind == Tok::kLParen) {
      ++pos_;
      absl::StatusOr<int> inner = Iff();
      if (!inner.ok()) return inner;
      if (Peek().kind != Tok::kRParen)
        return Error(Peek(), absl::StrCat("expected ')' to close the '(' at column ", t.column));
      ++pos_;
      return inner;
    }
    if (t.kind == Tok::kQuoted) {
      ++pos_;
      return Add(Op::kAtom, t.column, -1, -1, t.text);
    }
    if (t.kind == Tok::kName) {
      if (IsWord(t, "E") || IsWord(t, "A")) {
        ++pos_;
        if (Peek().kind != Tok::kLBracket)
          return Error(Peek(), absl::StrCat("expected '[' after '", t.text, "' (as in ", t.text, "[p U q])"));
        ++pos_;
        absl::StatusOr<int> lhs = Iff();
        if (!lhs.ok()) return lhs;
        if (!IsWord(Peek(), "U")) return Error(Peek(), "expected 'U'");
        ++pos_;
        absl::StatusOr<int> rhs = Iff();
        if (!rhs.ok()) return rhs;
        if (Peek().kind != Tok::kRBracket)
          return Error(Peek(), absl::StrCat("expected ']' to close the '[' of ", t.text, "[... U ...]"));
        ++pos_;
        return Add(t.text == "E" ? Op::kEU : Op::kAU, t.column, *lhs, *rhs);
      }
      if (IsWord(t, "true") || IsWord(t, "false")) {
        ++pos_;
        return Add(t.text == "true" ? Op::kTrue : Op::kFalse, t.column);
      }
      if (IsWord(t, "U")) return Error(t, "'U' only appears inside E[... U ...] or A[... U ...]");
      for (const char* kw : {"EX", "AX", "EF", "AF", "EG", "AG"})
        if (IsWord(t, kw)) return Error(t, "expected a formula");
      ++pos_;
      return Add(Op::kAtom, t.column, -1, -1, t.text);
    }
    return Error(t, "expected a proposition, 'true', 'false', '(', a prefix operator or E[/A[");
  }

  absl::string_view text_;
  std::vector<Tok> toks_;
  size_t pos_ = 0;
  int depth_ = 0;
  // Printing and explaining recurse along the tree, so its size is bounded.
  static constexpr size_t kMaxNodes = 20000;
  bool too_large_ = false;
  Formula formula_;
};

}  // namespace

std::string Formula::ToString(int node) const {
  const Node& n = nodes[node];
  auto operand = [&](int child, int min_prec) {
    std::string s = ToString(child);
    return Precedence(nodes[child].op) < min_prec ? absl::StrCat("(", s, ")") : s;
  };
  switch (n.op) {
    case Op::kTrue: return "true";
    case Op::kFalse: return "false";
    case Op::kAtom: return QuoteName(n.atom);
    case Op::kNot: case Op::kEX: case Op::kAX: case Op::kEF:
    case Op::kAF: case Op::kEG: case Op::kAG:
      return absl::StrCat(PrefixName(n.op), operand(n.lhs, 5));
    case Op::kAnd: return absl::StrCat(operand(n.lhs, 4), " & ", operand(n.rhs, 5));
    case Op::kOr: return absl::StrCat(operand(n.lhs, 3), " | ", operand(n.rhs, 4));
    case Op::kImplies: return absl::StrCat(operand(n.lhs, 3), " -> ", operand(n.rhs, 2));
    case Op::kIff: return absl::StrCat(operand(n.lhs, 1), " <-> ", operand(n.rhs, 2));
    case Op::kEU: return absl::StrCat("E[", ToString(n.lhs), " U ", ToString(n.rhs), "]");
    case Op::kAU: return absl::StrCat("A[", ToString(n.lhs), " U ", ToString(n.rhs), "]");
  }
  return "";
}

absl::StatusOr<Formula> ParseFormula(absl::string_view text) { return Parser(text).Run(); }

}  // namespace tracespec::ctl

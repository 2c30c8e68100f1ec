// Mentions of sensitive names that can carry data; see sensitive_mention.h.
#include "common/sensitive_mention.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <map>
#include <vector>

#include "common/deny_rule.h"
#include "common/distinctive.h"
#include "common/name_words.h"

namespace tracespec {
namespace {

bool IsIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
}
bool IsIdentChar(char c) { return IsIdentStart(c) || std::isdigit(static_cast<unsigned char>(c)); }

// A token of the text as the mention rules read it.
struct Token {
  enum Kind { kText, kIdentifier, kPunct };  // kText: a comment or literal
  Kind kind;
  size_t begin;
  size_t end;
  size_t statement;
};

// Words before an identifier that are not its type.
bool IsKeyword(std::string_view word) {
  for (std::string_view k : {"new", "return", "throw", "else", "case", "assert", "yield",
                             "instanceof", "package", "import", "extends", "implements", "throws",
                             "class", "interface", "enum", "default", "do", "this", "super"}) {
    if (word == k) return true;
  }
  return false;
}

// Java's types no secret fits in, as the source spells them.
bool IsPlainType(std::string_view type) {
  for (std::string_view t : {"boolean", "byte", "short", "char", "int", "float", "double",
                             "Boolean", "Byte", "Short", "Character", "Integer", "Float",
                             "Double"}) {
    if (type == t) return true;
  }
  return false;
}

// An upper-camel-case name: a type by Java's conventions (a constant,
// `API_TOKEN`, has no lower-case letter).
bool IsTypeName(std::string_view name) {
  if (name.empty() || !std::isupper(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name) {
    if (std::islower(static_cast<unsigned char>(c))) return true;
  }
  return false;
}

// The end of the char literal starting at `i` (a `'`), or `i` when none
// closes within a few characters on the line (an apostrophe in prose).
size_t CharLiteralEnd(std::string_view text, size_t i) {
  for (size_t k = i + 1; k < text.size() && k <= i + 8; ++k) {
    if (text[k] == '\n') return i;
    if (text[k] == '\\') {
      ++k;
      continue;
    }
    if (text[k] == '\'') return k == i + 1 ? i : k + 1;
  }
  return i;
}

// The end of the number literal starting at `i`; sets `*distinctive` when
// its magnitude is beyond the taint bound.
size_t NumberEnd(std::string_view text, size_t i, bool* distinctive) {
  size_t k = i;
  int base = 10;
  if (text[k] == '0' && k + 1 < text.size() && (text[k + 1] == 'x' || text[k + 1] == 'X')) {
    base = 16;
    k += 2;
  } else if (text[k] == '0' && k + 1 < text.size() && (text[k + 1] == 'b' || text[k + 1] == 'B')) {
    base = 2;
    k += 2;
  }
  uint64_t value = 0;
  bool big = false;
  for (; k < text.size(); ++k) {
    char c = text[k];
    if (c == '_') continue;
    int digit = -1;
    if (std::isdigit(static_cast<unsigned char>(c))) digit = c - '0';
    if (base == 16 && std::isxdigit(static_cast<unsigned char>(c))) {
      digit = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : std::tolower(c) - 'a' + 10;
    }
    if (digit < 0 || digit >= base) break;
    if (value > (UINT64_MAX - static_cast<uint64_t>(digit)) / static_cast<uint64_t>(base)) big = true;
    value = value * static_cast<uint64_t>(base) + static_cast<uint64_t>(digit);
  }
  // A fraction, an exponent, a suffix: read along; an exponent may make
  // any mantissa large, so it counts as distinctive.
  while (k < text.size() && (IsIdentChar(text[k]) || text[k] == '.')) {
    char c = text[k];
    if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && base == 10) big = true;
    ++k;
  }
  *distinctive = big || DistinctiveNumber(static_cast<double>(value));
  return k;
}

}  // namespace

std::optional<MentionSpan> FindSensitiveMention(std::string_view text, std::string_view name,
                                                const std::set<std::string>* plain_names) {
  std::vector<Token> tokens;
  std::vector<bool> spells_data(1, false);  // per statement
  size_t statement = 0;
  auto literal = [&](size_t begin, size_t end) {
    tokens.push_back({Token::kText, begin, end, statement});
    spells_data[statement] = true;
  };
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      size_t end = text.find('\n', i);
      if (end == std::string_view::npos) end = text.size();
      tokens.push_back({Token::kText, i, end, statement});
      i = end;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      size_t end = text.find("*/", i + 2);
      end = end == std::string_view::npos ? text.size() : end + 2;
      tokens.push_back({Token::kText, i, end, statement});
      i = end;
    } else if (text.substr(i, 3) == "\"\"\"") {
      size_t end = text.find("\"\"\"", i + 3);
      end = end == std::string_view::npos ? text.size() : end + 3;
      literal(i, end);
      i = end;
    } else if (c == '"') {
      size_t end = i + 1;
      while (end < text.size() && text[end] != '"' && text[end] != '\n') {
        end += text[end] == '\\' ? 2 : 1;
      }
      end = end < text.size() && text[end] == '"' ? end + 1 : std::min(end, text.size());
      literal(i, end);
      i = end;
    } else if (c == '\'' && CharLiteralEnd(text, i) != i) {
      size_t end = CharLiteralEnd(text, i);
      literal(i, end);
      i = end;
    } else if (IsIdentStart(c)) {
      size_t end = i;
      while (end < text.size() && IsIdentChar(text[end])) ++end;
      tokens.push_back({Token::kIdentifier, i, end, statement});
      i = end;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      bool distinctive = false;
      i = NumberEnd(text, i, &distinctive);
      if (distinctive) spells_data[statement] = true;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else {
      tokens.push_back({Token::kPunct, i, i + 1, statement});
      if (c == ';' || c == '{' || c == '}') {
        ++statement;
        spells_data.push_back(false);
      }
      ++i;
    }
  }

  auto spelling = [&](const Token& t) { return text.substr(t.begin, t.end - t.begin); };
  auto is_punct = [&](size_t k, char c) {
    return k < tokens.size() && tokens[k].kind == Token::kPunct && text[tokens[k].begin] == c;
  };
  // Whether tokens[k-1] is where a type stands before a declared name.
  auto after_type = [&](size_t k) {
    if (k == 0) return false;
    const Token& prev = tokens[k - 1];
    if (prev.kind == Token::kIdentifier) return !IsKeyword(spelling(prev));
    return is_punct(k - 1, '>') || is_punct(k - 1, ']');
  };
  // Names the text declares: whether every declaration has a plain type.
  std::map<std::string, bool> declared_plain;
  std::set<size_t> skipped_statements;  // package and import
  for (size_t k = 0; k < tokens.size(); ++k) {
    if (tokens[k].kind != Token::kIdentifier) continue;
    bool first = k == 0 || tokens[k - 1].statement != tokens[k].statement;
    if (first && (spelling(tokens[k]) == "package" || spelling(tokens[k]) == "import")) {
      skipped_statements.insert(tokens[k].statement);
    }
    bool declares = after_type(k) && (is_punct(k + 1, '=') || is_punct(k + 1, ';') ||
                                       is_punct(k + 1, ',') || is_punct(k + 1, ')') ||
                                       is_punct(k + 1, ':'));
    if (!declares) continue;
    bool plain = tokens[k - 1].kind == Token::kIdentifier && IsPlainType(spelling(tokens[k - 1]));
    auto [it, inserted] = declared_plain.emplace(std::string(spelling(tokens[k])), plain);
    if (!inserted) it->second = it->second && plain;
  }

  for (size_t k = 0; k < tokens.size(); ++k) {
    const Token& t = tokens[k];
    if (t.kind == Token::kPunct || skipped_statements.count(t.statement) != 0) continue;
    NameWords words(spelling(t));
    std::optional<NameWords::Span> at = words.Find(name);
    if (!at) continue;
    if (t.kind == Token::kIdentifier) {
      if (!words.NamesTheThing(*at)) continue;
      std::string id(spelling(t));
      // A method's own name (`void takesTokens() {`, `pkg.T#takesTokens`)
      // says what it is about; what it does is in its body.
      bool method_declared = is_punct(k + 1, '(') && after_type(k);
      bool method_ref = k > 0 && is_punct(k - 1, '#');
      if (method_declared || method_ref) continue;
      if (IsTypeName(id)) {
        if (!spells_data[t.statement]) continue;
      } else {
        auto declared = declared_plain.find(id);
        bool plain = declared != declared_plain.end()
                         ? declared->second
                         : plain_names != nullptr && plain_names->count(id) != 0;
        if (plain && !spells_data[t.statement]) continue;
      }
    }
    return MentionSpan{t.begin + at->begin, t.begin + at->end};
  }
  return std::nullopt;
}

std::set<std::string> PlainValueNames(const std::vector<v1::Observation>& observations) {
  std::set<std::string> plain, not_plain;
  for (const v1::Observation& o : observations) {
    for (const auto* graph : {&o.pre(), &o.post()}) {
      for (const v1::ObjectState& state : *graph) {
        for (const v1::Field& field : state.fields()) {
          bool is_plain = !field.jvm_type().empty() && CannotHoldSecret(field.jvm_type()) &&
                          field.value().kind_case() != v1::Value::kRedacted;
          (is_plain ? plain : not_plain).insert(field.name());
        }
      }
    }
  }
  for (const std::string& name : not_plain) plain.erase(name);
  return plain;
}

}  // namespace tracespec

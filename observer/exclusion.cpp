// Sensitive-test exclusion; see exclusion.h.
#include "observer/exclusion.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/name_words.h"
#include "common/files.h"
#include "common/method_id.h"
#include "common/method_signature.h"
#include "common/sensitive_mention.h"

namespace tracespec::observer {
namespace {

bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

// Whether `word` stands at `at` in `s` as a whole word.
bool IsWordAt(const std::string& s, size_t at, const std::string& word) {
  return s.compare(at, word.size(), word) == 0 && (at == 0 || !IsWordChar(s[at - 1])) &&
         (at + word.size() >= s.size() || !IsWordChar(s[at + word.size()]));
}

// Skips a comment or a string/char literal starting at `i`; returns the
// position after it, or `i` when none starts there.
size_t SkipNonCode(const std::string& s, size_t i) {
  if (s.compare(i, 2, "//") == 0) {
    size_t end = s.find('\n', i);
    return end == std::string::npos ? s.size() : end;
  }
  if (s.compare(i, 2, "/*") == 0) {
    size_t end = s.find("*/", i + 2);
    return end == std::string::npos ? s.size() : end + 2;
  }
  if (s.compare(i, 3, "\"\"\"") == 0) {  // Text block.
    size_t end = s.find("\"\"\"", i + 3);
    return end == std::string::npos ? s.size() : end + 3;
  }
  if (s[i] == '"' || s[i] == '\'') {
    char quote = s[i];
    for (size_t j = i + 1; j < s.size(); ++j) {
      if (s[j] == '\\') {
        ++j;
      } else if (s[j] == quote || s[j] == '\n') {
        return j + 1;
      }
    }
    return s.size();
  }
  return i;
}

// Position after the bracketed text opening at `open` (s[open] is `left`),
// or npos when it never closes.
size_t MatchBrackets(const std::string& s, size_t open, char left, char right) {
  int depth = 0;
  for (size_t i = open; i < s.size();) {
    size_t skipped = SkipNonCode(s, i);
    if (skipped != i) {
      i = skipped;
      continue;
    }
    if (s[i] == left) ++depth;
    if (s[i] == right && --depth == 0) return i + 1;
    ++i;
  }
  return std::string::npos;
}

int LineOf(const std::string& s, size_t pos) {
  return 1 + static_cast<int>(std::count(s.begin(), s.begin() + static_cast<long>(pos), '\n'));
}

// The first sensitive name `text` mentions, or "". Recorded data
// (`as_source` false) mentions a name wherever it holds it as whole words
// (NameWords: "token" in `accessToken`, not in `tokenize`); a test's source
// only where the mention can carry data (FindSensitiveMention: in a comment
// or literal, or naming the thing in a statement that spells data), so
// `new TokenBucket(5)` or `PasswordRules.longEnough(6, 12)` exclude nothing.
std::string FirstMention(const std::string& text,
                         const google::protobuf::RepeatedPtrField<std::string>& names,
                         bool as_source, const std::set<std::string>* plain_names = nullptr,
                         size_t* where = nullptr) {
  NameWords words(as_source ? std::string_view() : std::string_view(text));
  size_t best = std::string::npos;
  std::string found;
  for (const std::string& name : names) {
    size_t begin = std::string::npos;
    if (as_source) {
      if (std::optional<MentionSpan> at = FindSensitiveMention(text, name, plain_names)) begin = at->begin;
    } else if (std::optional<NameWords::Span> at = words.Find(name)) {
      begin = at->begin;
    }
    if (begin < best) {
      best = begin;
      found = name;
    }
  }
  if (where != nullptr) *where = best;
  return found;
}

void CollectStrings(const v1::Value& value, std::vector<const std::string*>* out) {
  if (value.has_string_value()) out->push_back(&value.string_value());
}

void CollectStrings(const google::protobuf::RepeatedPtrField<v1::ObjectState>& states,
                    std::vector<const std::string*>* out) {
  for (const v1::ObjectState& state : states) {
    for (const v1::Field& field : state.fields()) CollectStrings(field.value(), out);
    for (const v1::Value& element : state.array().elements()) CollectStrings(element, out);
  }
}

// The body `{...}` (positions of its braces, end exclusive) of the type
// declaration named `name` directly inside [begin, end) of `s` — at brace
// depth 0 of that range, outside comments and literals — or npos.
std::pair<size_t, size_t> TypeBody(const std::string& s, size_t begin, size_t end,
                                   const std::string& name) {
  int depth = 0;
  for (size_t i = begin; i < end;) {
    size_t skipped = SkipNonCode(s, i);
    if (skipped != i) {
      i = skipped;
      continue;
    }
    if (s[i] == '{') ++depth;
    if (s[i] == '}') --depth;
    bool keyword = depth == 0 && (IsWordAt(s, i, "class") || IsWordAt(s, i, "interface") ||
                                  IsWordAt(s, i, "enum") || IsWordAt(s, i, "record"));
    if (!keyword) {
      ++i;
      continue;
    }
    const char* blanks = " \t\r\n";
    size_t j = s.find_first_not_of(blanks, s.find_first_of(blanks, i));
    if (j == std::string::npos || !IsWordAt(s, j, name)) {
      ++i;
      continue;
    }
    size_t open = s.find('{', j);
    if (open == std::string::npos || open >= end) break;
    size_t close = MatchBrackets(s, open, '{', '}');
    if (close == std::string::npos) break;
    return {open, close};
  }
  return {std::string::npos, std::string::npos};
}

// A method declaration in a source text: [begin, end) from the start of
// its line to its closing brace; [params_begin, params_end) the text
// between its parentheses.
struct Declaration {
  size_t begin = 0, end = 0;
  size_t params_begin = 0, params_end = 0;
};

// The declarations (signature and body) of methods named `method` in
// `source`, in order; calls are not declarations.
std::vector<Declaration> Declarations(const std::string& source, const std::string& method,
                                      bool first_only) {
  std::vector<Declaration> out;
  for (size_t i = 0; i < source.size();) {
    size_t skipped = SkipNonCode(source, i);
    if (skipped != i) {
      i = skipped;
      continue;
    }
    if (!IsWordAt(source, i, method)) {
      ++i;
      continue;
    }
    size_t j = i + method.size();
    while (j < source.size() && std::isspace(static_cast<unsigned char>(source[j]))) ++j;
    if (j >= source.size() || source[j] != '(') {
      ++i;
      continue;
    }
    size_t after = MatchBrackets(source, j, '(', ')');
    if (after == std::string::npos) break;
    // A declaration continues with `{` or `throws ... {`; a call does not.
    size_t k = after;
    while (k < source.size() && std::isspace(static_cast<unsigned char>(source[k]))) ++k;
    if (source.compare(k, 6, "throws") == 0) {
      k = source.find('{', k);
      if (k == std::string::npos) break;
    }
    if (k >= source.size() || source[k] != '{') {
      i = after;
      continue;
    }
    size_t end = MatchBrackets(source, k, '{', '}');
    if (end == std::string::npos) break;
    // From the start of the declaring line.
    size_t line_start = source.rfind('\n', i);
    line_start = line_start == std::string::npos ? 0 : line_start + 1;
    out.push_back({line_start, end, j + 1, after - 1});
    if (first_only) break;
    i = end;
  }
  return out;
}

// The types of a declared parameter list, Java spelling, without
// annotations, modifiers and names: "@A(x = 1) final Map<K, V> m, int xs[]"
// -> {"Map<K, V>", "int[]"}.
std::vector<std::string> ParameterTypes(const std::string& list) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    char c = list[i];
    if (c == '@') {  // an annotation, with its arguments
      size_t j = i + 1;
      while (j < list.size() && (IsWordChar(list[j]) || list[j] == '.')) ++j;
      size_t k = j;
      while (k < list.size() && std::isspace(static_cast<unsigned char>(list[k]))) ++k;
      if (k < list.size() && list[k] == '(') {
        j = k;
        size_t close = MatchBrackets(list, j, '(', ')');
        j = close == std::string::npos ? list.size() : close;
      }
      i = j - 1;
      parts.back() += ' ';
      continue;
    }
    if (c == '<' || c == '(') ++depth;
    if (c == '>' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  std::vector<std::string> types;
  for (std::string part : parts) {
    part = std::string(absl::StripAsciiWhitespace(part));
    if (part.empty()) continue;
    if (IsWordAt(part, 0, "final")) part = std::string(absl::StripAsciiWhitespace(part.substr(5)));
    // `int xs[]`: the brackets after the name belong to the type.
    std::string dims;
    while (absl::EndsWith(part, "]")) {
      size_t open = part.rfind('[');
      if (open == std::string::npos) break;
      dims += "[]";
      part = std::string(absl::StripAsciiWhitespace(part.substr(0, open)));
    }
    size_t name = part.size();
    while (name > 0 && IsWordChar(part[name - 1])) --name;
    types.push_back(std::string(absl::StripAsciiWhitespace(part.substr(0, name))) + dims);
  }
  return types;
}

// A field descriptor reduced to what a source spelling fixes without its
// imports: array dimensions and the primitive, or the simple class name
// ("[Ljava/util/Map$Entry;" -> "[Entry").
std::string DescriptorShape(absl::string_view d) {
  size_t dims = 0;
  while (dims < d.size() && d[dims] == '[') ++dims;
  absl::string_view base = d.substr(dims);
  if (base.size() > 2 && base[0] == 'L') {
    base = base.substr(1, base.size() - 2);
    size_t cut = base.find_last_of("/$");
    if (cut != absl::string_view::npos) base = base.substr(cut + 1);
  }
  return absl::StrCat(std::string(dims, '['), base);
}

// The shapes of the parameters of `descriptor` ("(I[Ljava/lang/String;)V"
// or "(I)"), or nullopt when it is none.
std::optional<std::vector<std::string>> DescriptorParameterShapes(absl::string_view descriptor) {
  if (!IsMethodDescriptor(descriptor, /*allow_parameters_only=*/true)) return std::nullopt;
  std::vector<std::string> out;
  absl::string_view rest = descriptor.substr(1, descriptor.find(')') - 1);
  while (!rest.empty()) {
    size_t length = FieldDescriptorLength(rest);
    if (length == 0) return std::nullopt;
    out.push_back(DescriptorShape(rest.substr(0, length)));
    rest.remove_prefix(length);
  }
  return out;
}

// Whether the declared parameter types `types` spell `shapes`; a type
// that is not a Java type (a type variable is one) matches nothing.
bool SameShapes(const std::vector<std::string>& types, const std::vector<std::string>& shapes) {
  if (types.size() != shapes.size()) return false;
  for (size_t i = 0; i < types.size(); ++i) {
    absl::StatusOr<std::string> d = JavaParametersToDescriptor(types[i], /*package=*/"");
    if (!d.ok() || d->size() < 2) return false;
    if (DescriptorShape(absl::string_view(*d).substr(1, d->size() - 2)) != shapes[i]) return false;
  }
  return true;
}

// The range [begin, end) of `source` holding the body of class
// `class_name` (binary name), as FindTestMethodSource describes, or
// nullopt when its top-level class is not there.
std::optional<std::pair<size_t, size_t>> ClassRange(const std::string& source,
                                                    const std::string& class_name) {
  std::string simple = class_name.substr(class_name.find_last_of('.') + 1);
  std::vector<std::string> chain = absl::StrSplit(simple, '$');
  size_t begin = 0, end = source.size();
  for (size_t k = 0; k < chain.size(); ++k) {
    const std::string& name = chain[k];
    // An anonymous or local class: its enclosing one.
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) break;
    auto [open, close] = TypeBody(source, begin, end, name);
    if (open == std::string::npos) {
      if (k == 0) return std::nullopt;  // the file is named after its top-level class
      break;                            // a nested class not spelt as expected: its enclosing one
    }
    begin = open + 1;
    end = close - 1;
  }
  return std::make_pair(begin, end);
}

// The declarations of `method` in the own body of class `class_name`
// (see FindTestMethodSource), positions in `source`.
std::vector<Declaration> TestMethodDeclarations(const std::string& source,
                                                const std::string& class_name,
                                                const std::string& method,
                                                const std::string& descriptor) {
  std::optional<std::pair<size_t, size_t>> range = ClassRange(source, class_name);
  if (!range) return {};
  auto [begin, end] = *range;
  // The class's own level: every nested block's content blanked, so that
  // only declarations directly in the class are seen (offsets kept).
  std::string shallow = source;
  int depth = 0;
  for (size_t i = begin; i < end;) {
    size_t skipped = SkipNonCode(source, i);
    if (skipped != i) {
      for (size_t k = i; k < skipped && k < end; ++k) {
        if (depth > 0 && shallow[k] != '\n') shallow[k] = ' ';
      }
      i = skipped;
      continue;
    }
    if (source[i] == '}') --depth;
    if (depth > 0 && source[i] != '\n') shallow[i] = ' ';
    if (source[i] == '{') ++depth;
    ++i;
  }
  std::vector<Declaration> found =
      Declarations(shallow.substr(begin, end - begin), method, /*first_only=*/false);
  for (Declaration& d : found) {
    d.begin += begin;
    d.end += begin;
    d.params_begin += begin;
    d.params_end += begin;
  }
  std::optional<std::vector<std::string>> shapes;
  if (!descriptor.empty()) shapes = DescriptorParameterShapes(descriptor);
  if (!shapes) return found;
  // By parameter count, then by the types where they tell.
  std::vector<Declaration> by_count, by_type;
  for (const Declaration& d : found) {
    std::vector<std::string> types =
        ParameterTypes(source.substr(d.params_begin, d.params_end - d.params_begin));
    if (types.size() != shapes->size()) continue;
    by_count.push_back(d);
    if (SameShapes(types, *shapes)) by_type.push_back(d);
  }
  return by_type.empty() ? by_count : by_type;
}

}  // namespace

std::string FindMethodSource(const std::string& source, const std::string& method) {
  std::vector<Declaration> found = Declarations(source, method, /*first_only=*/true);
  return found.empty() ? "" : source.substr(found[0].begin, found[0].end - found[0].begin);
}

std::string FindTestMethodSource(const std::string& source, const std::string& class_name,
                                 const std::string& method, const std::string& descriptor) {
  std::string out;
  for (const Declaration& d : TestMethodDeclarations(source, class_name, method, descriptor)) {
    if (!out.empty()) out += "\n";
    out += source.substr(d.begin, d.end - d.begin);
  }
  return out;
}

std::string SourceMention(const std::string& tests_src, const std::string& test_id,
                          const google::protobuf::RepeatedPtrField<std::string>& sensitive_names,
                          const std::set<std::string>* plain_names) {
  if (tests_src.empty() || sensitive_names.empty()) return "";
  size_t hash = test_id.find('#');
  if (hash == std::string::npos) return "";
  std::string class_name = test_id.substr(0, hash);
  std::string method = test_id.substr(hash + 1);
  // Nested classes live in their outermost class's file.
  std::string top = class_name.substr(0, class_name.find('$'));
  std::string relative = top;
  std::replace(relative.begin(), relative.end(), '.', '/');
  relative += ".java";
  auto text = ReadFile(tests_src + "/" + relative);
  if (!text.ok()) return "";
  // Every overload: the test id names them all. The text read is the one
  // FindTestMethodSource gives, the text that is sent.
  for (const Declaration& d : TestMethodDeclarations(*text, class_name, method, "")) {
    size_t where = 0;
    std::string name =
        FirstMention(text->substr(d.begin, d.end - d.begin), sensitive_names,
                     /*as_source=*/true, plain_names, &where);
    if (name.empty()) continue;
    return absl::StrCat("test source mentions \"", name, "\" (", relative, ":",
                        LineOf(*text, d.begin + where), ")");
  }
  return "";
}

std::string DataMention(const v1::Observation& observation,
                        const google::protobuf::RepeatedPtrField<std::string>& sensitive_names) {
  if (sensitive_names.empty()) return "";
  std::vector<const std::string*> strings;
  for (const v1::Value& arg : observation.args()) CollectStrings(arg, &strings);
  CollectStrings(observation.pre(), &strings);
  CollectStrings(observation.post(), &strings);
  CollectStrings(observation.outcome().returned(), &strings);
  if (observation.outcome().thrown().has_message()) {
    strings.push_back(&observation.outcome().thrown().message());
  }
  for (const std::string* s : strings) {
    std::string name = FirstMention(*s, sensitive_names, /*as_source=*/false);
    if (!name.empty()) {
      const v1::MethodRef& m = observation.method();
      return absl::StrCat("recorded data mentions \"", name, "\" (a string in a call of ",
                          MethodId::FromRef(m).Key(), ")");
    }
  }
  return "";
}

}  // namespace tracespec::observer

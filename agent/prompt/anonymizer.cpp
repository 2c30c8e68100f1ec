// Identifier anonymisation and its reverse; see anonymizer.h.
#include "agent/prompt/anonymizer.h"

#include <algorithm>
#include <cctype>
#include <tuple>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"

namespace tracespec::prompt {
namespace {

bool IsIdentChar(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

// Names that keep their meaning for Java: keywords, literals, the array
// length and the methods every object has.
bool MustKeep(absl::string_view name) {
  static const char* const kKeep[] = {
      "abstract", "assert",   "boolean",    "break",     "byte",       "case",      "catch",
      "char",     "class",    "const",      "continue",  "default",    "do",        "double",
      "else",     "enum",     "extends",    "final",     "finally",    "float",     "for",
      "goto",     "if",       "implements", "import",    "instanceof", "int",       "interface",
      "long",     "native",   "new",        "package",   "private",    "protected", "public",
      "return",   "short",    "static",     "strictfp",  "super",      "switch",    "synchronized",
      "this",     "throw",    "throws",     "transient", "try",        "void",      "volatile",
      "while",    "true",     "false",      "null",      "var",        "record",    "yield",
      "sealed",   "permits",  "length",     "equals",    "hashCode",   "toString",  "getClass",
      "clone",    "finalize", "notify",     "notifyAll", "wait"};
  if (name.empty() || name[0] == '<' || std::isdigit(static_cast<unsigned char>(name[0]))) {
    return true;
  }
  for (const char* keep : kKeep) {
    if (name == keep) return true;
  }
  for (unsigned char c : name) {
    if (!IsIdentChar(c)) return true;
  }
  return false;
}

bool IsLibraryClass(absl::string_view binary_name) {
  static const char* const kPrefixes[] = {
      "java.",      "javax.",          "jdk.",          "sun.",  "com.sun.",
      "org.junit.", "org.opentest4j.", "org.hamcrest.", "junit."};
  for (const char* prefix : kPrefixes) {
    if (absl::StartsWith(binary_name, prefix)) return true;
  }
  return false;
}

// "[[Lbank.Account;" or "[Lbank/Account;" -> "bank.Account"; "[I" -> "".
std::string ArrayElementClass(absl::string_view descriptor) {
  size_t start = descriptor.find_first_not_of('[');
  if (start == absl::string_view::npos || descriptor[start] != 'L') return "";
  size_t end = descriptor.find(';', start);
  if (end == absl::string_view::npos) return "";
  return absl::StrReplaceAll(descriptor.substr(start + 1, end - start - 1), {{"/", "."}});
}

const char* Prefix(v1::NameKind kind) {
  switch (kind) {
    case v1::PACKAGE: return "pkg";
    case v1::CLASS: return "C";
    case v1::METHOD: return "m";
    case v1::FIELD: return "f";
    case v1::PARAMETER: return "a";
    case v1::TEST_CLASS: return "T";
    case v1::TEST_METHOD: return "t";
    default: return "n";
  }
}

void CollectIdentifiers(absl::string_view text, std::set<std::string>* out) {
  size_t i = 0;
  while (i < text.size()) {
    if (!IsIdentChar(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && IsIdentChar(static_cast<unsigned char>(text[j]))) ++j;
    out->emplace(text.substr(i, j - i));
    i = j;
  }
}

// camelCase, PascalCase, snake_case and ALL_CAPS parts of an identifier;
// digits stay with the part before them ("C1", "x2Count" -> x2, Count).
std::vector<std::string> SplitSubTokens(absl::string_view word) {
  std::vector<std::string> parts;
  std::string current;
  auto flush = [&] {
    if (!current.empty()) parts.push_back(std::move(current));
    current.clear();
  };
  for (size_t i = 0; i < word.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(word[i]);
    if (c == '_' || c == '$') {
      flush();
      parts.push_back(std::string(1, static_cast<char>(c)));
      continue;
    }
    if (std::isupper(c) && !current.empty()) {
      unsigned char prev = static_cast<unsigned char>(current.back());
      bool next_lower = i + 1 < word.size() && std::islower(static_cast<unsigned char>(word[i + 1]));
      // aB | Ab: a new part; ABc: "A" ends the upper run before "Bc".
      if (std::islower(prev) || std::isdigit(prev) || (std::isupper(prev) && next_lower)) flush();
    }
    current += static_cast<char>(c);
  }
  flush();
  return parts;
}

// Words too generic to say anything about the code: never hidden as parts.
bool IsGenericWord(absl::string_view lower) {
  static const char* const kGeneric[] = {
      "get",    "set",    "has",    "add",    "put",     "remove",  "new",    "test",  "tests",
      "should", "when",   "then",   "with",   "for",     "and",     "not",    "value", "values",
      "size",   "list",   "map",    "string", "int",     "long",    "name",   "names", "count",
      "data",   "info",   "item",   "items",  "index",   "result",  "expected", "actual",
      "assert", "equals", "true",   "false",  "null",    "main",    "java",   "com",   "org",
      "net",    "util",   "the",    "init",   "can",     "make",    "create", "build", "check",
      "update", "delete", "find",   "from",   "all",     "max",     "min",    "sum",   "total",
      "num",    "number", "empty",  "first",  "last",    "next",    "before", "after", "each",
      "exception", "error", "impl", "base",   "default", "type",    "object", "class", "array",
      "length", "char",   "byte",   "bool",   "boolean", "double",  "float",  "short", "void",
      "this",   "that",   "other",  "one",    "two",     "zero",    "old",    "current", "state",
      "throws", "returns", "does",  "are",    "was",     "were",    "will",   "its",   "case"};
  for (const char* g : kGeneric) {
    if (lower == g) return true;
  }
  return false;
}

// `neutral` in the case shape of `like`: "c1" for "ledger", "C1" for
// "Ledger" or "LEDGER".
std::string InCaseOf(absl::string_view like, const std::string& neutral) {
  std::string out = neutral;
  bool upper_first = !like.empty() && std::isupper(static_cast<unsigned char>(like[0]));
  int letters = static_cast<int>(std::count_if(
      like.begin(), like.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }));
  bool all_upper = letters >= 2 && std::none_of(like.begin(), like.end(), [](char c) {
                     return std::islower(static_cast<unsigned char>(c));
                   });
  for (size_t i = 0; i < out.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(out[i]);
    out[i] = static_cast<char>((all_upper || (i == 0 && upper_first)) ? std::toupper(c)
                                                                       : std::tolower(c));
  }
  return out;
}

std::string Lower(absl::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Splits "pkg.T#m" into class and method ("" when absent).
std::pair<std::string, std::string> SplitTestId(absl::string_view id) {
  size_t hash = id.find('#');
  if (hash == absl::string_view::npos) return {std::string(id), ""};
  return {std::string(id.substr(0, hash)), std::string(id.substr(hash + 1))};
}

}  // namespace

void Anonymizer::Add(v1::NameKind kind, const std::string& original) {
  if (kind == v1::PACKAGE) {
    if (original.empty() || kinds_.count(original) > 0) return;
  } else if (MustKeep(original) || forward_.count(original) > 0) {
    return;
  }
  std::string neutral;
  do {
    neutral = absl::StrCat(Prefix(kind), ++counters_[kind]);
  } while (taken_.count(neutral) > 0 || backward_.count(neutral) > 0);
  kinds_[original] = kind;
  backward_[neutral] = original;
  if (kind == v1::PACKAGE) {
    packages_.push_back({original, neutral});
    std::stable_sort(packages_.begin(), packages_.end(),
                     [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  } else {
    forward_[original] = neutral;
  }
}

void Anonymizer::AddClass(absl::string_view binary_name, v1::NameKind kind) {
  std::string name(binary_name);
  if (!name.empty() && name[0] == '[') name = ArrayElementClass(name);
  name = absl::StrReplaceAll(name, {{"/", "."}});
  if (name.empty() || IsLibraryClass(name)) return;
  size_t dot = name.rfind('.');
  if (dot != std::string::npos) Add(v1::PACKAGE, name.substr(0, dot));
  std::string simple = dot == std::string::npos ? name : name.substr(dot + 1);
  size_t start = 0;
  while (start <= simple.size()) {
    size_t end = simple.find('$', start);
    if (end == std::string::npos) end = simple.size();
    Add(kind, simple.substr(start, end - start));
    start = end + 1;
  }
}

Anonymizer Anonymizer::Create(const MethodSignature& signature,
                              const std::vector<TestSource>& tests,
                              const std::vector<v1::Observation>& observations,
                              const ExtraNames& extra) {
  Anonymizer a;
  // Every identifier of every input is taken: neutral names avoid them.
  for (const TestSource& test : tests) {
    CollectIdentifiers(test.id, &a.taken_);
    CollectIdentifiers(test.text, &a.taken_);
  }
  CollectIdentifiers(RenderDeclaration(signature), &a.taken_);
  CollectIdentifiers(signature.class_name, &a.taken_);
  for (const v1::Observation& o : observations) CollectIdentifiers(o.DebugString(), &a.taken_);
  for (const auto* list : {&extra.classes, &extra.methods, &extra.fields}) {
    for (const std::string& name : *list) CollectIdentifiers(name, &a.taken_);
  }

  a.AddClass(signature.class_name, v1::CLASS);
  a.Add(v1::METHOD, signature.method_name);
  for (const Parameter& p : signature.params) a.Add(v1::PARAMETER, p.name);
  for (const std::string& e : signature.exceptions) a.AddClass(e, v1::CLASS);

  auto add_test_id = [&a](absl::string_view id) {
    auto [test_class, test_method] = SplitTestId(id);
    a.AddClass(test_class, v1::TEST_CLASS);
    if (!test_method.empty()) a.Add(v1::TEST_METHOD, test_method);
  };
  for (const TestSource& test : tests) add_test_id(test.id);

  for (const v1::Observation& o : observations) {
    a.AddClass(o.method().class_name(), v1::CLASS);
    a.Add(v1::METHOD, o.method().name());
    for (const std::string& name : o.method().param_names()) a.Add(v1::PARAMETER, name);
    if (!o.test_id().empty()) add_test_id(o.test_id());
    for (const auto* graph : {&o.pre(), &o.post()}) {
      for (const v1::ObjectState& state : *graph) {
        std::string class_name = state.class_name();
        if (!class_name.empty() && class_name[0] == '[') class_name = ArrayElementClass(class_name);
        if (class_name.empty() || IsLibraryClass(class_name)) continue;
        a.AddClass(class_name, v1::CLASS);
        for (const v1::Field& field : state.fields()) {
          a.Add(v1::FIELD, field.name());
          if (!field.declaring_class().empty()) a.AddClass(field.declaring_class(), v1::CLASS);
        }
      }
    }
    if (o.outcome().has_thrown()) a.AddClass(o.outcome().thrown().class_name(), v1::CLASS);
  }

  for (const std::string& c : extra.classes) a.AddClass(c, v1::CLASS);
  for (const std::string& m : extra.methods) a.Add(v1::METHOD, m);
  for (const std::string& f : extra.fields) a.Add(v1::FIELD, f);
  a.AddSubTokens();
  return a;
}

void Anonymizer::AddSubTokens() {
  std::vector<std::string> words;
  for (const auto& [original, neutral] : forward_) {
    for (const std::string& part : SplitSubTokens(original)) words.push_back(part);
  }
  for (const auto& [package, neutral] : packages_) {
    for (absl::string_view part : absl::StrSplit(package, '.')) {
      for (const std::string& sub : SplitSubTokens(part)) words.push_back(sub);
    }
  }
  // Hidden whole names by lower case, for words that are names themselves.
  std::map<std::string, std::string> whole;
  for (const auto& [original, neutral] : forward_) whole.emplace(Lower(original), Lower(neutral));
  for (const auto& [package, neutral] : packages_) {
    if (package.find('.') == std::string::npos) whole.emplace(Lower(package), Lower(neutral));
  }
  std::sort(words.begin(), words.end());
  int counter = 0;
  for (const std::string& word : words) {
    std::string lower = Lower(word);
    if (lower.size() < 3 || sub_forward_.count(lower) > 0 || IsGenericWord(lower) ||
        MustKeep(lower) || !std::isalpha(static_cast<unsigned char>(lower[0]))) {
      continue;
    }
    std::string neutral;
    auto it = whole.find(lower);
    if (it != whole.end()) {
      neutral = it->second;
    } else {
      do {
        neutral = absl::StrCat("w", ++counter);
      } while (taken_.count(neutral) > 0 || backward_.count(neutral) > 0 ||
               taken_.count(InCaseOf("W", neutral)) > 0);
    }
    sub_forward_[lower] = neutral;
    sub_backward_.emplace(neutral, lower);
  }
}

std::string Anonymizer::ReplaceSubTokens(absl::string_view word,
                                         const std::map<std::string, std::string>& words) const {
  if (words.empty()) return std::string(word);
  std::vector<std::string> parts = SplitSubTokens(word);
  if (parts.size() < 2 && words.count(Lower(word)) == 0) return std::string(word);
  // In an ALL_CAPS constant every part is upper case ("MAX_C1_A1").
  bool constant = std::none_of(word.begin(), word.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c));
  });
  std::string out;
  for (const std::string& part : parts) {
    auto it = words.find(Lower(part));
    if (it == words.end()) {
      out += part;
    } else {
      out += InCaseOf(constant ? std::string("XX") : part, it->second);
    }
  }
  return out;
}

Anonymizer Anonymizer::FromMap(const v1::AnonymizationMap& map) {
  Anonymizer a;
  for (const v1::NameMapping& m : map.names()) {
    if (m.kind() == v1::WORD) {
      a.sub_forward_[m.original()] = m.neutral();
      a.sub_backward_.emplace(m.neutral(), m.original());
      continue;
    }
    a.kinds_[m.original()] = m.kind();
    a.backward_[m.neutral()] = m.original();
    if (m.kind() == v1::PACKAGE) {
      a.packages_.push_back({m.original(), m.neutral()});
    } else {
      a.forward_[m.original()] = m.neutral();
    }
  }
  std::stable_sort(a.packages_.begin(), a.packages_.end(),
                   [](const auto& x, const auto& y) { return x.first.size() > y.first.size(); });
  return a;
}

std::string Anonymizer::Replace(
    absl::string_view text, const std::map<std::string, std::string>& words,
    const std::vector<std::pair<std::string, std::string>>& dotted) const {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (!IsIdentChar(c)) {
      out += text[i++];
      continue;
    }
    bool replaced = false;
    if (!std::isdigit(c)) {
      for (const auto& [from, to] : dotted) {
        size_t end = i + from.size();
        if (text.substr(i, from.size()) == from &&
            (end == text.size() || !IsIdentChar(static_cast<unsigned char>(text[end])))) {
          out += to;
          i = end;
          replaced = true;
          break;
        }
      }
    }
    if (replaced) continue;
    size_t j = i;
    while (j < text.size() && IsIdentChar(static_cast<unsigned char>(text[j]))) ++j;
    std::string word(text.substr(i, j - i));
    auto it = std::isdigit(c) ? words.end() : words.find(word);
    if (it != words.end()) {
      out += it->second;
    } else if (!std::isdigit(c)) {
      // Not a hidden name: hide the hidden words it is made of.
      out += ReplaceSubTokens(word, &words == &forward_ ? sub_forward_ : sub_backward_);
    } else {
      out += word;
    }
    i = j;
  }
  return out;
}

std::string Anonymizer::AnonymizeText(absl::string_view text) const {
  return Replace(text, forward_, packages_);
}

std::string Anonymizer::Deanonymize(absl::string_view text) const {
  return Replace(text, backward_, {});
}

std::string Anonymizer::AnonymizeDescriptor(absl::string_view descriptor) const {
  std::string out;
  size_t i = 0;
  while (i < descriptor.size()) {
    char c = descriptor[i];
    size_t end = descriptor.find(';', i);
    if (c != 'L' || end == absl::string_view::npos) {
      out += c;
      ++i;
      continue;
    }
    bool slashes = descriptor.substr(i, end - i).find('/') != absl::string_view::npos;
    std::string name = absl::StrReplaceAll(descriptor.substr(i + 1, end - i - 1), {{"/", "."}});
    name = AnonymizeText(name);
    if (slashes) name = absl::StrReplaceAll(name, {{".", "/"}});
    absl::StrAppend(&out, "L", name, ";");
    i = end + 1;
  }
  return out;
}

MethodSignature Anonymizer::Anonymize(const MethodSignature& signature) const {
  MethodSignature out = signature;
  out.class_name = AnonymizeText(signature.class_name);
  out.method_name = AnonymizeText(signature.method_name);
  out.jvm_descriptor = AnonymizeDescriptor(signature.jvm_descriptor);
  out.return_type = AnonymizeText(signature.return_type);
  for (Parameter& p : out.params) {
    p.name = AnonymizeText(p.name);
    p.java_type = AnonymizeText(p.java_type);
  }
  for (std::string& e : out.exceptions) e = AnonymizeText(e);
  return out;
}

TestSource Anonymizer::Anonymize(const TestSource& test) const {
  return {AnonymizeText(test.id), AnonymizeText(test.text)};
}

void Anonymizer::AnonymizeValue(v1::Value* value) const {
  if (value->kind_case() == v1::Value::kStringValue) {
    value->set_string_value(AnonymizeText(value->string_value()));
  }
}

v1::Observation Anonymizer::Anonymize(const v1::Observation& observation) const {
  v1::Observation o = observation;
  v1::MethodRef* method = o.mutable_method();
  method->set_class_name(AnonymizeText(method->class_name()));
  if (method->name() != "<init>") method->set_name(AnonymizeText(method->name()));
  method->set_jvm_descriptor(AnonymizeDescriptor(method->jvm_descriptor()));
  for (std::string& name : *method->mutable_param_names()) name = AnonymizeText(name);
  o.set_test_id(AnonymizeText(o.test_id()));
  o.set_excluded_reason(AnonymizeText(o.excluded_reason()));
  if (o.has_receiver()) AnonymizeValue(o.mutable_receiver());
  for (v1::Value& arg : *o.mutable_args()) AnonymizeValue(&arg);
  for (auto* graph : {o.mutable_pre(), o.mutable_post()}) {
    for (v1::ObjectState& state : *graph) {
      const std::string& class_name = state.class_name();
      state.set_class_name(!class_name.empty() && class_name[0] == '['
                               ? AnonymizeDescriptor(class_name)
                               : AnonymizeText(class_name));
      for (v1::Field& field : *state.mutable_fields()) {
        field.set_name(AnonymizeText(field.name()));
        field.set_jvm_type(AnonymizeDescriptor(field.jvm_type()));
        field.set_declaring_class(AnonymizeText(field.declaring_class()));
        AnonymizeValue(field.mutable_value());
      }
      if (state.has_array()) {
        v1::ArrayContents* array = state.mutable_array();
        array->set_element_descriptor(AnonymizeDescriptor(array->element_descriptor()));
        for (v1::Value& element : *array->mutable_elements()) AnonymizeValue(&element);
      }
    }
  }
  if (o.outcome().has_returned()) AnonymizeValue(o.mutable_outcome()->mutable_returned());
  if (o.outcome().has_thrown()) {
    v1::Thrown* thrown = o.mutable_outcome()->mutable_thrown();
    thrown->set_class_name(AnonymizeText(thrown->class_name()));
    thrown->set_message(AnonymizeText(thrown->message()));
  }
  return o;
}

v1::AnonymizationMap Anonymizer::ToProto() const {
  v1::AnonymizationMap map;
  map.set_format_version(v1::FORMAT_VERSION_1);
  std::vector<std::tuple<int, std::string, std::string>> rows;
  for (const auto& [neutral, original] : backward_) {
    rows.emplace_back(kinds_.at(original), original, neutral);
  }
  for (const auto& [word, neutral] : sub_forward_) rows.emplace_back(v1::WORD, word, neutral);
  std::sort(rows.begin(), rows.end());
  for (const auto& [kind, original, neutral] : rows) {
    v1::NameMapping* m = map.add_names();
    m->set_kind(static_cast<v1::NameKind>(kind));
    m->set_original(original);
    m->set_neutral(neutral);
  }
  return map;
}

std::vector<std::string> Anonymizer::OriginalNames() const {
  std::vector<std::string> out;
  for (const auto& [original, kind] : kinds_) out.push_back(original);
  return out;
}

}  // namespace tracespec::prompt

// Method signatures and descriptors; see method_signature.h.
#include "common/method_signature.h"

#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace tracespec {
namespace {

bool IsIdentifierChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         (static_cast<unsigned char>(c) & 0x80) != 0;
}

bool IsIdentifier(absl::string_view s) {
  if (s.empty() || absl::ascii_isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!IsIdentifierChar(c)) return false;
  }
  return true;
}

// The classes of java.lang a simple name in a signature stands for.
bool IsJavaLangClass(absl::string_view name) {
  static constexpr absl::string_view kNames[] = {
      "Appendable", "ArithmeticException", "ArrayIndexOutOfBoundsException", "Boolean",
      "Byte", "CharSequence", "Character", "Class", "ClassCastException", "Cloneable",
      "Comparable", "Double", "Enum", "Error", "Exception", "Float",
      "IllegalArgumentException", "IllegalStateException", "IndexOutOfBoundsException",
      "Integer", "Iterable", "Long", "Math", "NullPointerException", "Number", "Object",
      "Runnable", "RuntimeException", "Short", "String", "StringBuffer", "StringBuilder",
      "Thread", "Throwable", "UnsupportedOperationException", "Void"};
  for (absl::string_view n : kNames) {
    if (n == name) return true;
  }
  return false;
}

// Removes type arguments ("Map<K, List<V>>" -> "Map").
absl::StatusOr<std::string> Erase(absl::string_view type) {
  std::string out;
  int depth = 0;
  for (char c : type) {
    if (c == '<') {
      ++depth;
    } else if (c == '>') {
      if (--depth < 0) return absl::InvalidArgumentError(absl::StrCat("unbalanced '>' in ", type));
    } else if (depth == 0) {
      out += c;
    }
  }
  if (depth != 0) return absl::InvalidArgumentError(absl::StrCat("unbalanced '<' in ", type));
  return out;
}

absl::StatusOr<std::string> JavaTypeToDescriptor(absl::string_view text,
                                                 absl::string_view package) {
  absl::StatusOr<std::string> erased = Erase(text);
  if (!erased.ok()) return erased.status();
  std::string spelled = absl::StrReplaceAll(*erased, {{" ", ""}, {"\t", ""}});
  absl::string_view type = spelled;
  std::string dims;
  if (absl::ConsumeSuffix(&type, "...")) dims += "[";
  while (absl::ConsumeSuffix(&type, "[]")) dims += "[";
  static constexpr std::pair<absl::string_view, absl::string_view> kPrimitives[] = {
      {"boolean", "Z"}, {"byte", "B"}, {"char", "C"},   {"short", "S"},
      {"int", "I"},     {"long", "J"}, {"float", "F"}, {"double", "D"}};
  for (const auto& [name, code] : kPrimitives) {
    if (type == name) return absl::StrCat(dims, code);
  }
  if (type.empty()) return absl::InvalidArgumentError("a parameter type is missing");
  std::vector<std::string> segments = absl::StrSplit(type, '.');
  for (const std::string& s : segments) {
    if (!IsIdentifier(s)) {
      return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not a Java type"));
    }
  }
  std::string internal;
  if (segments.size() == 1 && IsJavaLangClass(segments[0])) {
    internal = absl::StrCat("java/lang/", segments[0]);
  } else {
    // Package segments, then the class and the classes nested in it.
    size_t first_class = 0;
    while (first_class < segments.size() &&
           !absl::ascii_isupper(static_cast<unsigned char>(segments[first_class][0]))) {
      ++first_class;
    }
    if (first_class == segments.size()) first_class = segments.size() - 1;
    std::vector<std::string> packages(segments.begin(), segments.begin() + first_class);
    std::vector<std::string> classes(segments.begin() + first_class, segments.end());
    if (packages.empty() && !package.empty()) {
      packages = absl::StrSplit(package, '.');
    }
    internal = absl::StrJoin(classes, "$");
    if (!packages.empty()) internal = absl::StrCat(absl::StrJoin(packages, "/"), "/", internal);
  }
  return absl::StrCat(dims, "L", internal, ";");
}

}  // namespace

size_t FieldDescriptorLength(absl::string_view d) {
  size_t i = 0;
  while (i < d.size() && d[i] == '[') ++i;
  if (i > 255 || i >= d.size()) return 0;
  switch (d[i]) {
    case 'B': case 'C': case 'D': case 'F': case 'I': case 'J': case 'S': case 'Z':
      return i + 1;
    case 'L': {
      size_t end = d.find(';', i);
      if (end == absl::string_view::npos || end == i + 1) return 0;
      for (size_t j = i + 1; j < end; ++j) {
        if (d[j] == '.' || d[j] == '[' || d[j] == '(') return 0;
      }
      return end + 1;
    }
    default:
      return 0;
  }
}

bool IsMethodDescriptor(absl::string_view d, bool allow_parameters_only) {
  if (d.empty() || d[0] != '(') return false;
  size_t i = 1;
  while (i < d.size() && d[i] != ')') {
    size_t n = FieldDescriptorLength(d.substr(i));
    if (n == 0) return false;
    i += n;
  }
  if (i >= d.size()) return false;
  absl::string_view ret = d.substr(i + 1);
  if (ret.empty()) return allow_parameters_only;
  return ret == "V" || FieldDescriptorLength(ret) == ret.size();
}

absl::StatusOr<std::string> JavaParametersToDescriptor(absl::string_view parameters,
                                                       absl::string_view package) {
  std::string out = "(";
  if (absl::StripAsciiWhitespace(parameters).empty()) return out + ")";
  // Split at the commas outside type arguments.
  std::vector<std::string> types(1);
  int depth = 0;
  for (char c : parameters) {
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (c == ',' && depth == 0) {
      types.emplace_back();
    } else {
      types.back() += c;
    }
  }
  for (const std::string& type : types) {
    absl::StatusOr<std::string> d = JavaTypeToDescriptor(absl::StripAsciiWhitespace(type), package);
    if (!d.ok()) return d.status();
    out += *d;
  }
  return out + ")";
}

absl::Status CheckClassName(absl::string_view name, absl::string_view what) {
  bool ok = !name.empty();
  for (absl::string_view segment : absl::StrSplit(name, '.')) ok = ok && IsIdentifier(segment);
  if (!ok) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, " '", name, "' is not a binary class name (expected e.g. bank.Account or ",
        "pkg.Outer$Inner)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<MethodSignature> MethodSignature::Parse(absl::string_view text) {
  auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(
        "method '", text, "': ", why,
        " (expected pkg.Class#name, pkg.Class#name(int[], String) or "
        "pkg.Class#name(JVM descriptor), e.g. bank.Account#deposit(int))"));
  };
  size_t hash = text.find('#');
  if (hash == absl::string_view::npos) return bad("no '#' between class and method");
  MethodSignature s;
  s.class_name = std::string(text.substr(0, hash));
  absl::Status class_ok = CheckClassName(s.class_name, "class");
  if (!class_ok.ok()) return bad(class_ok.message());
  absl::string_view rest = text.substr(hash + 1);
  size_t paren = rest.find('(');
  s.method_name = std::string(absl::StripAsciiWhitespace(rest.substr(0, paren)));
  if (s.method_name.empty()) return bad("the method name is missing");
  if (s.method_name != "<init>" && s.method_name != "<clinit>" && !IsIdentifier(s.method_name)) {
    return bad(absl::StrCat("'", s.method_name, "' is not a method name"));
  }
  if (paren == absl::string_view::npos) return s;
  absl::string_view in_parens = rest.substr(paren);
  if (IsMethodDescriptor(in_parens, /*allow_parameters_only=*/true)) {
    s.descriptor = std::string(in_parens);
    return s;
  }
  size_t close = in_parens.rfind(')');
  if (close == absl::string_view::npos) return bad("')' is missing");
  if (!absl::StripAsciiWhitespace(in_parens.substr(close + 1)).empty()) {
    return bad(absl::StrCat("'", in_parens, "' is neither a JVM descriptor nor Java parameter "
                            "types"));
  }
  size_t dot = s.class_name.rfind('.');
  absl::string_view package =
      dot == std::string::npos ? absl::string_view() : absl::string_view(s.class_name).substr(0, dot);
  absl::StatusOr<std::string> descriptor =
      JavaParametersToDescriptor(in_parens.substr(1, close - 1), package);
  if (!descriptor.ok()) {
    return bad(absl::StrCat("'", in_parens, "' is neither a JVM descriptor nor Java parameter "
                            "types: ", descriptor.status().message()));
  }
  s.descriptor = *std::move(descriptor);
  return s;
}

std::string DescriptorToJava(absl::string_view d) {
  size_t dims = 0;
  while (dims < d.size() && d[dims] == '[') ++dims;
  absl::string_view base = d.substr(dims);
  std::string out;
  if (base == "B") out = "byte";
  else if (base == "C") out = "char";
  else if (base == "D") out = "double";
  else if (base == "F") out = "float";
  else if (base == "I") out = "int";
  else if (base == "J") out = "long";
  else if (base == "S") out = "short";
  else if (base == "Z") out = "boolean";
  else if (base == "V") out = "void";
  else if (base.size() >= 2 && base[0] == 'L' && base.back() == ';')
    out = absl::StrReplaceAll(base.substr(1, base.size() - 2), {{"/", "."}});
  else out = std::string(base);
  for (size_t i = 0; i < dims; ++i) out += "[]";
  return out;
}

std::string PackageOf(absl::string_view binary) {
  size_t dot = binary.rfind('.');
  return dot == absl::string_view::npos ? "" : std::string(binary.substr(0, dot));
}

std::string SimpleClassName(absl::string_view binary) {
  size_t dot = binary.rfind('.');
  return std::string(dot == absl::string_view::npos ? binary : binary.substr(dot + 1));
}

std::string MethodSignature::ToString() const {
  return absl::StrCat(class_name, "#", method_name, descriptor);
}

bool MethodSignature::Matches(absl::string_view full) const {
  if (descriptor.empty()) return true;
  if (descriptor.back() == ')') return absl::StartsWith(full, descriptor);
  return full == descriptor;
}

}  // namespace tracespec

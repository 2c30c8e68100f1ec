// Target and class-name parsing; see target.h.
#include "observer/target.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace tracespec::observer {
namespace {

// One field descriptor at `pos`; returns the position after it or npos.
size_t FieldDescriptorEnd(const std::string& d, size_t pos) {
  while (pos < d.size() && d[pos] == '[') ++pos;
  if (pos >= d.size()) return std::string::npos;
  if (absl::StrContains("ZBCSIJFD", d[pos])) return pos + 1;
  if (d[pos] != 'L') return std::string::npos;
  size_t semi = d.find(';', pos);
  if (semi == std::string::npos || semi == pos + 1) return std::string::npos;
  for (size_t i = pos + 1; i < semi; ++i) {
    if (absl::StrContains(".[(", d[i])) return std::string::npos;
  }
  return semi + 1;
}

bool IsIdentifierChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         (static_cast<unsigned char>(c) & 0x80) != 0;
}

}  // namespace

bool IsMethodDescriptor(const std::string& descriptor) {
  if (descriptor.empty() || descriptor[0] != '(') return false;
  size_t pos = 1;
  while (pos < descriptor.size() && descriptor[pos] != ')') {
    pos = FieldDescriptorEnd(descriptor, pos);
    if (pos == std::string::npos) return false;
  }
  if (pos >= descriptor.size()) return false;
  ++pos;
  if (descriptor.substr(pos) == "V") return true;
  return FieldDescriptorEnd(descriptor, pos) == descriptor.size();
}

absl::Status CheckClassName(const std::string& name, const std::string& what) {
  bool ok = !name.empty();
  bool segment_start = true;
  for (char c : name) {
    if (c == '.') {
      ok = ok && !segment_start;
      segment_start = true;
    } else if (IsIdentifierChar(c)) {
      ok = ok && !(segment_start && absl::ascii_isdigit(static_cast<unsigned char>(c)));
      segment_start = false;
    } else {
      ok = false;
    }
  }
  if (!ok || segment_start) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, " '", name, "' is not a binary class name (expected e.g. bank.Account or ",
        "pkg.Outer$Inner)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::ProbeTarget> ParseTarget(const std::string& spec) {
  auto bad = [&](const std::string& why) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--method '", spec, "': ", why,
        " (expected pkg.Class#name or pkg.Class#name(descriptor), e.g. "
        "bank.Account#deposit(I)V)"));
  };
  size_t hash = spec.find('#');
  if (hash == std::string::npos) return bad("no '#' between class and method");
  v1::ProbeTarget target;
  target.set_spec(spec);
  target.set_class_name(spec.substr(0, hash));
  absl::Status class_ok = CheckClassName(target.class_name(), "class");
  if (!class_ok.ok()) return bad(std::string(class_ok.message()));
  std::string rest = spec.substr(hash + 1);
  size_t paren = rest.find('(');
  std::string name = rest.substr(0, paren);
  if (name.empty()) return bad("the method name is missing");
  bool special = name == "<init>" || name == "<clinit>";
  for (char c : name) {
    if (!special && !IsIdentifierChar(c)) return bad("'" + name + "' is not a method name");
  }
  if (name == "<clinit>") return bad("static initializers cannot be observed");
  target.set_method_name(name);
  if (paren != std::string::npos) {
    std::string descriptor = rest.substr(paren);
    if (!IsMethodDescriptor(descriptor)) {
      return bad("'" + descriptor + "' is not a JVM method descriptor");
    }
    target.set_jvm_descriptor(descriptor);
  }
  return target;
}

}  // namespace tracespec::observer

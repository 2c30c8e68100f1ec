// Semantic types; see types.h.
#include "validator/jml/types.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "common/status.h"

namespace tracespec::jml {
namespace {

struct PrimitiveName {
  Type::Kind kind;
  const char* keyword;
  char descriptor;
  const char* box;
};

constexpr PrimitiveName kPrimitives[] = {
    {Type::Kind::kBoolean, "boolean", 'Z', "java.lang.Boolean"},
    {Type::Kind::kByte, "byte", 'B', "java.lang.Byte"},
    {Type::Kind::kShort, "short", 'S', "java.lang.Short"},
    {Type::Kind::kChar, "char", 'C', "java.lang.Character"},
    {Type::Kind::kInt, "int", 'I', "java.lang.Integer"},
    {Type::Kind::kLong, "long", 'J', "java.lang.Long"},
    {Type::Kind::kFloat, "float", 'F', "java.lang.Float"},
    {Type::Kind::kDouble, "double", 'D', "java.lang.Double"},
    {Type::Kind::kVoid, "void", 'V', nullptr},
};

const PrimitiveName* FindPrimitive(Type::Kind kind) {
  for (const auto& p : kPrimitives) {
    if (p.kind == kind) return &p;
  }
  return nullptr;
}

}  // namespace

Type Type::ArrayOf(const Type& element, int dims) {
  Type t = element;
  t.dims_ += dims;
  return t;
}

Type Type::FromKeyword(absl::string_view keyword) {
  for (const auto& p : kPrimitives) {
    if (keyword == p.keyword) return Type(p.kind);
  }
  if (keyword == "\\bigint") return Bigint();
  if (keyword == "\\real") return Real();
  if (keyword == "\\TYPE") return TypeOfType();
  return Error();
}

bool Type::IsPrimitive() const {
  if (dims_ > 0) return false;
  switch (kind_) {
    case Kind::kBoolean:
    case Kind::kByte:
    case Kind::kShort:
    case Kind::kChar:
    case Kind::kInt:
    case Kind::kLong:
    case Kind::kFloat:
    case Kind::kDouble:
      return true;
    default:
      return false;
  }
}

bool Type::IsNumeric() const {
  if (dims_ > 0) return false;
  switch (kind_) {
    case Kind::kFloat:
    case Kind::kDouble:
    case Kind::kReal:
      return true;
    default:
      return IsIntegral();
  }
}

bool Type::IsIntegral() const {
  if (dims_ > 0) return false;
  switch (kind_) {
    case Kind::kByte:
    case Kind::kShort:
    case Kind::kChar:
    case Kind::kInt:
    case Kind::kLong:
    case Kind::kBigint:
      return true;
    default:
      return false;
  }
}

Type Type::ElementType() const {
  if (dims_ == 0) return Error();
  Type t = *this;
  --t.dims_;
  return t;
}

std::string Type::ToString() const {
  std::string base;
  switch (kind_) {
    case Kind::kError:
      base = "<error>";
      break;
    case Kind::kBigint:
      base = "\\bigint";
      break;
    case Kind::kReal:
      base = "\\real";
      break;
    case Kind::kTypeOfType:
      base = "\\TYPE";
      break;
    case Kind::kNull:
      base = "null";
      break;
    case Kind::kClass:
      base = class_name_;
      break;
    default:
      base = FindPrimitive(kind_)->keyword;
      break;
  }
  for (int i = 0; i < dims_; ++i) base += "[]";
  return base;
}

std::string Type::Descriptor() const {
  std::string out(dims_, '[');
  if (kind_ == Kind::kClass) {
    absl::StrAppend(&out, "L", absl::StrReplaceAll(class_name_, {{".", "/"}}), ";");
    return out;
  }
  const PrimitiveName* p = FindPrimitive(kind_);
  if (p == nullptr || (p->kind == Kind::kVoid && dims_ > 0)) return "";
  out += p->descriptor;
  return out;
}

namespace {

// Parses one field type at `*pos` of `d`.
absl::StatusOr<Type> ParseFieldType(absl::string_view d, size_t* pos, bool allow_void) {
  int dims = 0;
  while (*pos < d.size() && d[*pos] == '[') {
    ++dims;
    ++*pos;
  }
  if (*pos >= d.size()) {
    return absl::InvalidArgumentError(absl::StrCat("truncated descriptor '", d, "'"));
  }
  char c = d[*pos];
  if (c == 'L') {
    size_t end = d.find(';', *pos);
    if (end == absl::string_view::npos || end == *pos + 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("malformed class name in descriptor '", d, "'"));
    }
    std::string name = absl::StrReplaceAll(d.substr(*pos + 1, end - *pos - 1), {{"/", "."}});
    *pos = end + 1;
    return Type::ArrayOf(Type::Class(std::move(name)), dims);
  }
  for (const auto& p : kPrimitives) {
    if (p.descriptor == c) {
      if (p.kind == Type::Kind::kVoid && (!allow_void || dims > 0)) break;
      ++*pos;
      return Type::ArrayOf(Type::FromKeyword(p.keyword), dims);
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unexpected '", std::string(1, c), "' in descriptor '", d, "'"));
}

}  // namespace

absl::StatusOr<Type> Type::FromDescriptor(absl::string_view descriptor) {
  size_t pos = 0;
  TS_ASSIGN_OR_RETURN(Type t, ParseFieldType(descriptor, &pos, /*allow_void=*/false));
  if (pos != descriptor.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("trailing characters in descriptor '", descriptor, "'"));
  }
  return t;
}

absl::StatusOr<MethodDescriptor> ParseMethodDescriptor(absl::string_view d) {
  if (d.empty() || d[0] != '(') {
    return absl::InvalidArgumentError(
        absl::StrCat("method descriptor '", d, "' does not start with '('"));
  }
  MethodDescriptor out;
  size_t pos = 1;
  while (pos < d.size() && d[pos] != ')') {
    TS_ASSIGN_OR_RETURN(Type t, ParseFieldType(d, &pos, /*allow_void=*/false));
    out.params.push_back(std::move(t));
  }
  if (pos >= d.size()) {
    return absl::InvalidArgumentError(absl::StrCat("method descriptor '", d, "' lacks ')'"));
  }
  ++pos;
  TS_ASSIGN_OR_RETURN(out.result, ParseFieldType(d, &pos, /*allow_void=*/true));
  if (pos != d.size()) {
    return absl::InvalidArgumentError(absl::StrCat("trailing characters in descriptor '", d, "'"));
  }
  return out;
}

std::string MakeMethodDescriptor(const std::vector<Type>& params, const Type& result) {
  std::string out = "(";
  for (const Type& p : params) out += p.Descriptor();
  absl::StrAppend(&out, ")", result.Descriptor());
  return out;
}

Type UnboxedType(const Type& type) {
  if (!type.IsClass()) return Type::Error();
  for (const auto& p : kPrimitives) {
    if (p.box != nullptr && type.class_name() == p.box) return Type::FromKeyword(p.keyword);
  }
  return Type::Error();
}

Type BoxedType(const Type& type) {
  if (!type.IsPrimitive()) return Type::Error();
  return Type::Class(FindPrimitive(type.element_kind())->box);
}

}  // namespace tracespec::jml

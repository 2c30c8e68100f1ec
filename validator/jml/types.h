// Semantic types of the JML front-end: Java's primitive, class and array
// types plus JML's \bigint, \real and \TYPE, with JVM descriptor conversion.
#ifndef TRACESPEC_VALIDATOR_JML_TYPES_H_
#define TRACESPEC_VALIDATOR_JML_TYPES_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tracespec::jml {

// A type as the type checker sees it. Class names are JVM binary names with
// dots for packages and '$' for nesting ("java.lang.String",
// "java.util.Map$Entry"). Arrays are an element kind (+ class name) with a
// dimension count: int[][] is {kInt, "", 2}.
class Type {
 public:
  enum class Kind {
    kError,  // the type of an ill-typed expression (suppresses follow-on errors)
    kVoid,
    kBoolean,
    kByte,
    kShort,
    kChar,
    kInt,
    kLong,
    kFloat,
    kDouble,
    kBigint,      // JML \bigint: unbounded integers
    kReal,        // JML \real: mathematical reals
    kTypeOfType,  // JML \TYPE: the type of \type(T) and \typeof(e)
    kNull,        // the type of the literal null
    kClass,       // a class or interface, named by class_name()
  };

  Type() = default;
  static Type Error() { return Type(Kind::kError); }
  static Type Void() { return Type(Kind::kVoid); }
  static Type Boolean() { return Type(Kind::kBoolean); }
  static Type Byte() { return Type(Kind::kByte); }
  static Type Short() { return Type(Kind::kShort); }
  static Type Char() { return Type(Kind::kChar); }
  static Type Int() { return Type(Kind::kInt); }
  static Type Long() { return Type(Kind::kLong); }
  static Type Float() { return Type(Kind::kFloat); }
  static Type Double() { return Type(Kind::kDouble); }
  static Type Bigint() { return Type(Kind::kBigint); }
  static Type Real() { return Type(Kind::kReal); }
  static Type TypeOfType() { return Type(Kind::kTypeOfType); }
  static Type Null() { return Type(Kind::kNull); }
  static Type Class(std::string binary_name) {
    Type t(Kind::kClass);
    t.class_name_ = std::move(binary_name);
    return t;
  }
  static Type Object() { return Class("java.lang.Object"); }
  static Type String() { return Class("java.lang.String"); }
  // `element` with `dims` more array dimensions.
  static Type ArrayOf(const Type& element, int dims = 1);

  // Primitive keyword ("int", "boolean", ...; also "\bigint", "\real",
  // "\TYPE", "void") to type; kError for anything else.
  static Type FromKeyword(absl::string_view keyword);

  // Parses one field descriptor ("I", "[J", "Ljava/lang/String;").
  static absl::StatusOr<Type> FromDescriptor(absl::string_view descriptor);

  // The kind of the elements for arrays, of the type itself otherwise.
  Kind element_kind() const { return kind_; }
  // kClass for arrays of objects too; use IsArray() first.
  const std::string& class_name() const { return class_name_; }
  int dims() const { return dims_; }

  bool IsArray() const { return dims_ > 0; }
  bool IsError() const { return dims_ == 0 && kind_ == Kind::kError; }
  bool IsVoid() const { return dims_ == 0 && kind_ == Kind::kVoid; }
  bool IsNull() const { return dims_ == 0 && kind_ == Kind::kNull; }
  bool IsBoolean() const { return dims_ == 0 && kind_ == Kind::kBoolean; }
  // Java primitive types (boolean and the numeric ones).
  bool IsPrimitive() const;
  // byte short char int long float double, plus \bigint and \real.
  bool IsNumeric() const;
  // byte short char int long, plus \bigint.
  bool IsIntegral() const;
  bool IsBigint() const { return dims_ == 0 && kind_ == Kind::kBigint; }
  bool IsReal() const { return dims_ == 0 && kind_ == Kind::kReal; }
  bool IsTypeOfType() const { return dims_ == 0 && kind_ == Kind::kTypeOfType; }
  // Classes, arrays and null.
  bool IsReference() const { return dims_ > 0 || kind_ == Kind::kClass || kind_ == Kind::kNull; }
  bool IsClass() const { return dims_ == 0 && kind_ == Kind::kClass; }
  bool Is(Kind kind) const { return dims_ == 0 && kind_ == kind; }

  // The element type of an array (one dimension less).
  Type ElementType() const;

  // Java source spelling: "int", "int[]", "java.lang.String", "\bigint".
  std::string ToString() const;
  // JVM field descriptor; empty for \bigint, \real, \TYPE, null and error.
  std::string Descriptor() const;

  bool operator==(const Type& other) const {
    return kind_ == other.kind_ && dims_ == other.dims_ && class_name_ == other.class_name_;
  }
  bool operator!=(const Type& other) const { return !(*this == other); }

 private:
  explicit Type(Kind kind) : kind_(kind) {}
  Kind kind_ = Kind::kError;
  std::string class_name_;
  int dims_ = 0;
};

// A parsed method descriptor "(I[J)V".
struct MethodDescriptor {
  std::vector<Type> params;
  Type result;
};
absl::StatusOr<MethodDescriptor> ParseMethodDescriptor(absl::string_view descriptor);
std::string MakeMethodDescriptor(const std::vector<Type>& params, const Type& result);

// The primitive type unboxed from a box class (java.lang.Integer -> int), or
// kError when `type` is not one of the eight box classes.
Type UnboxedType(const Type& type);
// The box class of a primitive type (int -> java.lang.Integer); kError otherwise.
Type BoxedType(const Type& type);

}  // namespace tracespec::jml

#endif  // TRACESPEC_VALIDATOR_JML_TYPES_H_

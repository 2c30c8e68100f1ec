// A method's identity: class, name and full descriptor, with the two
// spellings every stage uses written once — the key ("bank.Account#deposit(I)V",
// the name of infer directories, run.json entries and audit labels) and the
// Java-style display for people ("bank.Account#deposit(int)"). The proto
// message is tracespec.v1.MethodId (proto/tracespec/v1/method.proto).
#ifndef TRACESPEC_COMMON_METHOD_ID_H_
#define TRACESPEC_COMMON_METHOD_ID_H_

#include <string>
#include <tuple>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "common/method_signature.h"
#include "tracespec/v1/method.pb.h"
#include "tracespec/v1/observation.pb.h"

namespace tracespec {

class MethodId {
 public:
  MethodId() = default;
  MethodId(std::string class_name, std::string name, std::string descriptor)
      : class_name_(std::move(class_name)), name_(std::move(name)),
        descriptor_(std::move(descriptor)) {}

  // Parses a key "pkg.C#m(DESCRIPTOR)" with a full JVM method descriptor;
  // the error names the text and what is wrong.
  static absl::StatusOr<MethodId> Parse(absl::string_view key);
  static MethodId FromRef(const v1::MethodRef& ref);
  static MethodId FromProto(const v1::MethodId& id);

  const std::string& class_name() const { return class_name_; }
  const std::string& name() const { return name_; }
  const std::string& descriptor() const { return descriptor_; }
  std::string package() const { return PackageOf(class_name_); }
  std::string simple_class_name() const { return SimpleClassName(class_name_); }

  // "bank.Account#deposit(I)V".
  std::string Key() const;
  // "bank.Account#deposit(int)": parameter types in Java, java.lang classes
  // and classes of the method's own package by their simple name, others by
  // their binary name. MethodSignature::Parse of it selects exactly this
  // method (one Java parameter list has one descriptor up to the return
  // type, which Java overloading cannot vary); where the Java spelling
  // would name another type (a class of the package that shadows a
  // java.lang name, a package segment starting with an upper-case letter)
  // the display is the key.
  std::string Display() const;

  v1::MethodId ToProto() const;

  friend bool operator==(const MethodId& a, const MethodId& b) {
    return a.Tie() == b.Tie();
  }
  friend bool operator!=(const MethodId& a, const MethodId& b) { return !(a == b); }
  friend bool operator<(const MethodId& a, const MethodId& b) { return a.Key() < b.Key(); }

 private:
  std::tuple<const std::string&, const std::string&, const std::string&> Tie() const {
    return std::tie(class_name_, name_, descriptor_);
  }

  std::string class_name_;
  std::string name_;
  std::string descriptor_;
};

}  // namespace tracespec

#endif  // TRACESPEC_COMMON_METHOD_ID_H_

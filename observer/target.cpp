// Target parsing; see target.h.
#include "observer/target.h"

#include "absl/strings/str_cat.h"

namespace tracespec::observer {

absl::StatusOr<v1::ProbeTarget> ParseTarget(const std::string& spec) {
  absl::StatusOr<MethodSignature> signature = MethodSignature::Parse(spec);
  if (!signature.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--", signature.status().message()));
  }
  if (signature->method_name == "<clinit>") {
    return absl::InvalidArgumentError(
        absl::StrCat("--method '", spec, "': static initializers cannot be observed"));
  }
  v1::ProbeTarget target;
  target.set_spec(spec);
  target.set_class_name(signature->class_name);
  target.set_method_name(signature->method_name);
  target.set_jvm_descriptor(signature->descriptor);
  return target;
}

}  // namespace tracespec::observer

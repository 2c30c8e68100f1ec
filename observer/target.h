// Parsing target specifications ("pkg.Class#name", "pkg.Class#name(I)V")
// and test class names given on the command line.
#ifndef TRACESPEC_OBSERVER_TARGET_H_
#define TRACESPEC_OBSERVER_TARGET_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tracespec/v1/probe.pb.h"

namespace tracespec::observer {

// "pkg.Class#name" selects every overload; "pkg.Class#name(descriptor)"
// one (JVM descriptor, e.g. "(I)V" or "([Ljava/lang/String;)I").
// Constructors are "<init>". Errors name the spec and what is wrong.
absl::StatusOr<v1::ProbeTarget> ParseTarget(const std::string& spec);

// Checks a binary class name such as "bank.Account" or "pkg.Outer$Inner".
absl::Status CheckClassName(const std::string& name, const std::string& what);

// True when `descriptor` is a well-formed JVM method descriptor.
bool IsMethodDescriptor(const std::string& descriptor);

}  // namespace tracespec::observer

#endif  // TRACESPEC_OBSERVER_TARGET_H_

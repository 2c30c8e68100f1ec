// Parsing target specifications given on the command line into the probe's
// targets; the syntax is common/method_signature.h's (JVM descriptors and
// the Java spelling of parameter types).
#ifndef TRACESPEC_OBSERVER_TARGET_H_
#define TRACESPEC_OBSERVER_TARGET_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/method_signature.h"
#include "validator/classfile/class_path.h"
#include "tracespec/v1/probe.pb.h"

namespace tracespec::observer {

// "pkg.Class#name" selects every overload; "pkg.Class#name(descriptor)" or
// "pkg.Class#name(int[], String)" one (the probe's jvm_descriptor is then a
// full or a parameters-only descriptor). Constructors are "<init>". Errors
// name the spec and what is wrong. A spec with `*` or `?` is a pattern
// ("com.acme.pricing.*#*", "pkg.Class#*", "pkg.*#get*"): globs over binary
// class names and method names selecting public methods (ProbeTarget.pattern).
absl::StatusOr<v1::ProbeTarget> ParseTarget(const std::string& spec);

// Whether a pattern target (ParseTarget of "pkg.*#get*") selects the method
// `method_name` of the class `class_name` (binary name) by name, as the probe
// tests it: both globs match and the method is not a constructor or static
// initializer. (Which methods the probe instruments — public, with code — it
// decides from the class file.)
bool PatternSelects(const v1::ProbeTarget& target, std::string_view class_name,
                    std::string_view method_name);

// Checks a parsed target against the class files on `class_path` before any
// JVM starts, as the probe will match it when the class loads: a named
// method's class must be there (unless `class_required` is false: then a
// class not there is left to the run), and a method of that name (and
// descriptor) with code must be in it; a pattern must match a class there
// and a public method with code in one of them (skipped when
// `class_required` is false). `where` names the class path in messages
// ("--classpath"). Errors are NotFound or InvalidArgument and read
// "--method SPEC: ..." with a "did you mean" for a near miss. A class file
// the class path cannot parse is left to the probe, which reports it.
absl::Status ResolveTarget(const v1::ProbeTarget& target, classfile::ClassPath* class_path,
                           bool class_required, const std::string& where);

using ::tracespec::CheckClassName;

}  // namespace tracespec::observer

#endif  // TRACESPEC_OBSERVER_TARGET_H_

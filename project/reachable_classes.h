// Which of a project's class files the tests and the targets can reach, so
// that what a run reuses depends on those alone: adding or changing a class
// nothing reaches leaves the observations (and every finished method) as
// they were.
#ifndef TRACESPEC_PROJECT_REACHABLE_CLASSES_H_
#define TRACESPEC_PROJECT_REACHABLE_CLASSES_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tracespec::project {

// The .class files under the directories `dirs` reachable from the classes
// `roots` (binary names, "pkg.C"), as paths "DIR/pkg/C.class", sorted.
//
// A class reaches every project class its class file names anywhere in its
// constant pool: class references, superclass and interfaces, nested
// classes, field and method descriptors, generic signatures, annotation
// values (`@ExtendWith(X.class)` is a descriptor), and string constants that
// spell a class name ("pkg.C" or "pkg/C", as Class.forName is given).
// Not covered: a name computed at run time (concatenated, read from a file),
// which a service loader does with META-INF/services files — the caller
// keys every non-class file separately. A class file that does not parse
// is reachable when named, and reaches nothing further.
absl::StatusOr<std::vector<std::string>> ReachableClassFiles(
    const std::vector<std::string>& dirs, const std::vector<std::string>& roots);

}  // namespace tracespec::project

#endif  // TRACESPEC_PROJECT_REACHABLE_CLASSES_H_

// A project as `tracespec run` and `tracespec check` see it: its
// configuration (PROJECT_DIR/tracespec.textproto, else a discovered Maven or
// Gradle layout) with every path made absolute, and what it names resolved
// against the class files: the test classes to run and the target methods.
#ifndef TRACESPEC_PROJECT_CONFIG_H_
#define TRACESPEC_PROJECT_CONFIG_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tracespec/v1/project.pb.h"
#include "tracespec/v1/run.pb.h"

namespace tracespec::project {

// The configuration file's name inside a project directory.
inline constexpr char kConfigFileName[] = "tracespec.textproto";

struct Project {
  // Absolute, without a trailing '/'.
  std::string dir;
  v1::ConfigSource source = v1::CONFIG_SOURCE_UNSPECIFIED;
  // The configuration file, or "maven layout: target/classes, ..." naming
  // the directories found.
  std::string description;
  // With every path absolute (relative ones resolved against `dir`).
  v1::ProjectConfig config;
};

// Reads DIR/tracespec.textproto (unknown or malformed entries: an
// InvalidArgument naming file:line:column), else discovers a Maven layout
// (target/classes, target/test-classes, src/main/java, src/test/java) or a
// Gradle layout (build/classes/java/main and test, src/main/java,
// src/test/java). Neither: NotFound naming what was looked for. A missing
// directory: NotFound. The build command is not run here, so class
// directories named by a configuration file need not exist yet.
absl::StatusOr<Project> LoadProject(const std::string& dir);

// The class path of the code under test: classes, then classpath entries.
std::string MainClassPath(const Project& project);
// The same with the test classes (for running the tests).
std::string FullClassPath(const Project& project);

// The test classes to run: `tests` in the order given (a name must be a
// class under test_classes; a glob stands for the JUnit test classes there
// it matches, sorted: observer::ExpandTestClasses), or every test-like class
// there (Test*, *Test, *Tests, *TestCase; not nested, not abstract), sorted.
// A name or glob that matches nothing is an InvalidArgument.
// None when the configuration names a `command` instead.
absl::StatusOr<std::vector<std::string>> ResolveTests(const Project& project);

// The target methods as resolved selectors ("pkg.C#m(I)V"), sorted:
// `methods` (each resolved against the class files; without a descriptor
// every overload) and every public method declared by the `target_classes`
// (names or globs), or by every top-level class under `classes` when both
// are empty. Constructors, static initializers, abstract, synthetic and
// bridge methods are left out of the class-wide selections. Unknown class
// or method: NotFound.
absl::StatusOr<std::vector<std::string>> ResolveTargets(const Project& project);

}  // namespace tracespec::project

#endif  // TRACESPEC_PROJECT_CONFIG_H_

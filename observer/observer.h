// `tracespec observe` as a library call: run JUnit tests (or any JVM
// command line) under the probe and turn what it recorded into
// observations, a summary and the sensitive-test flags. The CLI (cli/observe_command.cpp) only translates
// flags into ObserveOptions and the result into output and an exit status.
#ifndef TRACESPEC_OBSERVER_OBSERVER_H_
#define TRACESPEC_OBSERVER_OBSERVER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "observer/noninterference.h"
#include "tracespec/v1/summary.pb.h"

namespace tracespec::observer {

// The default of ObserveOptions::max_methods (--max-methods).
inline constexpr int kDefaultMaxMethods = 100;

struct ObserveOptions {
  // Class path of the code under test and its tests (':'-separated).
  std::string classpath;
  // The JUnit test classes to run: binary names, or globs over the test
  // classes on `classpath` ("shop.*"; see ExpandTestClasses in junit.h).
  std::vector<std::string> test_classes;
  // Instead of test classes: a command line to run under the probe. When
  // argv[0] is `java` (or ends in "/java") the probe goes in as
  // -agentpath, else through JAVA_TOOL_OPTIONS (a launcher that starts
  // java itself). Observations then carry no test id but an entry point.
  std::vector<std::string> command;
  // The command's working directory; empty = the current one.
  std::string cwd;
  // Targets as "pkg.Class#name" or "pkg.Class#name(descriptor)".
  std::vector<std::string> methods;
  // A RedactionPolicy text file; empty = the built-in default
  // (policies/default.textproto).
  std::string policy_path;
  // Root of the test sources (optional), searched for sensitive names.
  std::string tests_src;
  // Output directory (created if missing).
  std::string out_dir;
  // Kill the JVM after this many seconds; 0 = no limit. A command gets
  // SIGTERM first, so its JVM can shut down and keep what it recorded.
  double timeout_seconds = 0;
  // Stop recording once the trace would exceed this many bytes; 0 = no
  // limit. The run is then marked incomplete.
  uint64_t max_bytes = 0;
  // Observations kept per method (store.h): 0 = the policy's
  // max_observations_per_method; -1 = keep all.
  int64_t max_observations_per_method = 0;
  // At most this many methods are instrumented; a run whose --method
  // patterns match more is refused (nothing but jvm.log written). 0 = no
  // limit.
  int max_methods = kDefaultMaxMethods;
  // Count the calls of the target methods instead of recording them: the
  // result's summary_text (and out_dir/hot.txt) lists calls per method.
  bool list_hot = false;
  // Decide what depends on a denied field by running the tests again with
  // every denied field substituted (noninterference.h): values that differ
  // are withheld. kDefault: on for test runs, off for a command (the
  // summary says so) and list_hot; kOn with a command or list_hot is an
  // error.
  enum class Noninterference { kDefault, kOn, kOff };
  Noninterference noninterference = Noninterference::kDefault;
  uint64_t noninterference_seed = kDefaultNoninterferenceSeed;
};

struct ObserveResult {
  v1::ObserveSummary summary;
  // The summary for people (what `tracespec observe` prints).
  std::string summary_text;
  // Set when the results were written but are not what was asked for: a
  // target whose class the run never loaded (or a command's target not on
  // the class path its command line names, which matched nothing), or a
  // JVM that died mid-run (then the
  // observations are partial). The files under out_dir are complete and
  // consistent either way.
  absl::Status problem;
};

// Runs the tests under the probe and writes out_dir/observations.pb,
// out_dir/observations.jsonl, out_dir/summary.json and out_dir/jvm.log
// (each atomically). Errors that prevent a run (bad flags, malformed policy,
// missing JVM or probe, nonexistent class-path entries, a --method whose
// class or method is not in the class files: target.h's ResolveTarget) are
// returned before any JVM starts or out_dir is touched.
absl::StatusOr<ObserveResult> Observe(const ObserveOptions& options);

}  // namespace tracespec::observer

#endif  // TRACESPEC_OBSERVER_OBSERVER_H_

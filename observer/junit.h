// Running JUnit 5 under the probe: where java, the probe, the listener jar
// and the JUnit console launcher are, the command line, and the per-test
// results the listener (observer/listener/) writes.
#ifndef TRACESPEC_OBSERVER_JUNIT_H_
#define TRACESPEC_OBSERVER_JUNIT_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tracespec/v1/summary.pb.h"

namespace tracespec::observer {

// $JAVA_HOME/bin/java, else `java` on PATH; Unavailable when neither exists.
absl::StatusOr<std::string> FindJava();

// The files tracespec ships next to its binary (or in its build tree):
// $TRACESPEC_PROBE / $TRACESPEC_LISTENER_JAR / $TRACESPEC_JUNIT_JAR
// override them.
absl::StatusOr<std::string> FindProbe();
absl::StatusOr<std::string> FindListenerJar();
absl::StatusOr<std::string> FindJunitJar();

struct JunitCommand {
  std::string java;
  // Options for the JVM, before the probe's.
  std::vector<std::string> jvm_options;
  std::string probe;          // empty: run without the probe
  std::string probe_config;
  std::string listener_jar;   // empty: no listener
  std::string junit_jar;
  std::string results_path;   // where the listener writes
  std::string classpath;
  std::vector<std::string> test_classes;
  // When not empty, the launcher selects these instead of test_classes:
  // "pkg.C#m(types)" a method, "pkg.C" a class (see MethodSelectors).
  std::vector<std::string> selectors;
};

// What selects the tests `test_ids` (the listener's "pkg.C#m", or "pkg.C#*"
// for a class JUnit skipped) and nothing else, for JunitCommand::selectors:
// a method with the parameter types of every method of that name the class
// or a superclass on `classpath` declares (JUnit finds a parameterized test
// only by its parameter types), a class for "pkg.C#*". An id of another
// form (a test without a method source) cannot be selected and is left
// out; a method not found on `classpath` is selected by its name alone.
// Sorted, each once.
std::vector<std::string> MethodSelectors(const std::vector<std::string>& test_ids,
                                         const std::string& classpath);

// The test classes `patterns` name, in order: a binary name stands for
// itself (whether it exists is JUnit's to say); a glob (`*` any run of
// characters, `?` one; `shop.*`, `shop.*Test`) stands for the JUnit test
// classes on `classpath` (':'-separated directories and jars) whose binary
// name it matches, sorted. A JUnit test class is concrete, not nested
// (nested ones run with their outer class), and it or a superclass on the
// class path mentions a JUnit test annotation (`@Test`, `@ParameterizedTest`,
// `@RepeatedTest`, `@TestFactory`, `@TestTemplate`, JUnit 4's `@Test`).
// Names are listed once. A glob that matches no test class is an
// InvalidArgument error naming `what` and the entries searched; an
// unreadable class file a glob matches is skipped.
absl::StatusOr<std::vector<std::string>> ExpandTestClasses(
    const std::vector<std::string>& patterns, const std::string& classpath,
    const std::string& what);

// The java command line that runs the test classes with the console
// launcher.
std::vector<std::string> BuildCommand(const JunitCommand& command);

// What the listener reported.
struct TestResults {
  bool plan_started = false;
  bool plan_finished = false;
  // By test id, sorted; a test run several times (parameterized, repeated)
  // is FAILED if any run failed. A container whose own code failed (a
  // class's @BeforeAll, the engine) is an entry of kind
  // TEST_ENTRY_CONTAINER, FAILED.
  std::map<std::string, v1::TestSummary> tests;
  // Test ids started and never finished, sorted.
  std::vector<std::string> unfinished;
};

// Parses the listener's results file (see TracespecListener.java).
TestResults ParseTestResults(const std::string& text);

// Running test classes without the probe (to judge a program, e.g. a
// mutant, by its tests): the console launcher and the listener as
// `observe` runs them.
struct TestRunOptions {
  std::string classpath;  // code under test, tests and their dependencies
  std::vector<std::string> test_classes;  // binary names
  // Kill the JVM after this many seconds; 0 = no limit.
  double timeout_seconds = 0;
  // The listener's results file and the JVM's output go here (created).
  std::string work_dir;
};

struct TestRun {
  TestResults results;
  bool timed_out = false;
  std::string jvm;  // SubprocessResult::Describe()
  double seconds = 0;
  // Test ids FAILED or INTERRUPTED, sorted.
  std::vector<std::string> failed;
  std::string log_path;  // the JVM's output
};

// Runs `test_classes` with JUnit on the real JVM. Errors: no java, no
// listener or launcher jar, a JVM that cannot be started, and JUnit never
// starting its test plan (a class it cannot load, no tests: the message
// says which, as `observe` does). A run that ends early (crash, timeout)
// is a TestRun with the unfinished tests among `failed`. SIGINT or SIGTERM
// while the JVM runs kills it and is a Cancelled error.
absl::StatusOr<TestRun> RunTests(const TestRunOptions& options);

// Why JUnit never started its test plan, from the JVM's output `log`
// (written to `log_path`): a class it could not load (NotFound), no tests
// in `test_classes` (exit code 2: NotFound), else Unavailable.
absl::Status PlanNotStarted(const std::string& log, int exit_code, const std::string& jvm,
                            const std::vector<std::string>& test_classes,
                            const std::string& log_path);

// The first line of the JVM's output that says why JUnit could not run a
// selected class ("Could not load class with name: X"), or "".
std::string DiscoveryProblem(const std::string& jvm_log);

}  // namespace tracespec::observer

#endif  // TRACESPEC_OBSERVER_JUNIT_H_

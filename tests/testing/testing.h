// Helpers for tests: a temporary directory removed at the end of the test,
// compiling Java sources with the real javac, running the tracespec binary.
#ifndef TRACESPEC_TESTS_TESTING_TESTING_H_
#define TRACESPEC_TESTS_TESTING_TESTING_H_

#include <map>
#include <string>
#include <vector>

#include "common/subprocess.h"

namespace tracespec::testing {

// A fresh directory, removed when the object goes away (kept when the
// environment variable TRACESPEC_KEEP_TEST_DIRS is set, for debugging).
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }
  // Writes `content` to path()/relative (creating parent directories) and
  // returns the full path.
  std::string Write(const std::string& relative, const std::string& content) const;

 private:
  std::string path_;
};

// The tracespec binary under test ($TRACESPEC_BINARY, else the one built
// with the tests).
std::string TracespecBinary();
// The source tree ($TRACESPEC_SOURCE_DIR, else the one the tests were
// built from).
std::string SourceDir();
// The JUnit console launcher jar ($TRACESPEC_JUNIT_JAR).
std::string JunitJar();

// Compiles `sources` (relative path -> Java text) with javac into
// `dir`/classes and returns that directory. `extra_args` go to javac (e.g.
// "-g:none", "--release", "8"); `classpath` is added with -cp. Fails the
// current test (ADD_FAILURE) and returns "" when javac fails.
std::string CompileJava(const TempDir& dir, const std::map<std::string, std::string>& sources,
                        const std::vector<std::string>& extra_args = {},
                        const std::string& classpath = "");

// Runs the tracespec binary with `args`.
SubprocessResult RunTracespec(const std::vector<std::string>& args,
                              const SubprocessOptions& options = {});

// Every byte of every file under `dir`, concatenated (for scanning outputs).
std::string ReadTree(const std::string& dir);

}  // namespace tracespec::testing

#endif  // TRACESPEC_TESTS_TESTING_TESTING_H_

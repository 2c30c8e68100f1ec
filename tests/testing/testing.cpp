// Test helpers; see testing.h.
#include "tests/testing/testing.h"

#include <cstdlib>
#include <filesystem>

#include "absl/strings/str_join.h"
#include "common/files.h"
#include "gtest/gtest.h"

namespace tracespec::testing {
namespace {

std::string EnvOr(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

}  // namespace

TempDir::TempDir() {
  auto dir = MakeTempDir("tracespec-test-");
  if (!dir.ok()) {
    ADD_FAILURE() << dir.status();
    return;
  }
  path_ = *dir;
}

TempDir::~TempDir() {
  if (!path_.empty() && std::getenv("TRACESPEC_KEEP_TEST_DIRS") == nullptr) {
    (void)RemoveAll(path_);
  }
}

std::string TempDir::Write(const std::string& relative, const std::string& content) const {
  std::string full = path_ + "/" + relative;
  std::filesystem::path parent = std::filesystem::path(full).parent_path();
  EXPECT_TRUE(MakeDirs(parent.string()).ok());
  absl::Status status = WriteFileAtomic(full, content);
  EXPECT_TRUE(status.ok()) << status;
  return full;
}

std::string TracespecBinary() { return EnvOr("TRACESPEC_BINARY", TRACESPEC_TEST_BINARY); }
std::string SourceDir() { return EnvOr("TRACESPEC_SOURCE_DIR", TRACESPEC_TEST_SOURCE_DIR); }
std::string JunitJar() { return EnvOr("TRACESPEC_JUNIT_JAR", TRACESPEC_TEST_JUNIT_JAR); }

std::string CompileJava(const TempDir& dir, const std::map<std::string, std::string>& sources,
                        const std::vector<std::string>& extra_args,
                        const std::string& classpath) {
  std::string out = dir.path() + "/classes";
  EXPECT_TRUE(MakeDirs(out).ok());
  std::vector<std::string> argv = {"javac", "-nowarn", "-d", out};
  if (!classpath.empty()) {
    argv.push_back("-cp");
    argv.push_back(classpath);
  }
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  for (const auto& [relative, text] : sources) argv.push_back(dir.Write("src/" + relative, text));
  auto result = RunSubprocess(argv);
  if (!result.ok()) {
    ADD_FAILURE() << result.status();
    return "";
  }
  if (!result->Succeeded()) {
    ADD_FAILURE() << "javac failed (" << result->Describe() << "):\n"
                  << result->stdout_data << result->stderr_data << "\ncommand: "
                  << absl::StrJoin(argv, " ");
    return "";
  }
  return out;
}

SubprocessResult RunTracespec(const std::vector<std::string>& args,
                              const SubprocessOptions& options) {
  std::vector<std::string> argv = {TracespecBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  auto result = RunSubprocess(argv, options);
  if (!result.ok()) {
    ADD_FAILURE() << result.status();
    return SubprocessResult{};
  }
  return *result;
}

std::string ReadTree(const std::string& dir) {
  std::string all;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    auto data = ReadFile(entry.path().string());
    if (data.ok()) all += *data;
  }
  return all;
}

}  // namespace tracespec::testing

// JUnit launch and results; see junit.h.
#include "observer/junit.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "common/glob.h"
#include "common/interrupt.h"
#include "common/status.h"
#include "common/subprocess.h"
#include "validator/classfile/class_path.h"
#include "validator/classfile/descriptors.h"

namespace tracespec::observer {
namespace {

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

std::string ExecutableDir() {
  std::error_code error;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? "" : self.parent_path().string();
}

// The first existing file among: the environment override, beside the
// binary (installed layout), and the build tree.
absl::StatusOr<std::string> FindShipped(const char* env, const std::string& installed_name,
                                        const std::string& build_path, const std::string& what) {
  std::vector<std::string> candidates;
  std::string from_env = Env(env);
  if (!from_env.empty()) {
    if (FileExists(from_env)) return from_env;
    return absl::UnavailableError(absl::StrCat(what, " not found: $", env, " names ", from_env,
                                               ", which does not exist"));
  }
  std::string dir = ExecutableDir();
  if (!dir.empty()) candidates.push_back(dir + "/../lib/tracespec/" + installed_name);
  candidates.push_back(build_path);
  for (const std::string& candidate : candidates) {
    if (FileExists(candidate)) return candidate;
  }
  return absl::UnavailableError(absl::StrCat(what, " not found (looked at ",
                                             absl::StrJoin(candidates, ", "), "; set $", env,
                                             " or rebuild tracespec)"));
}

// Whether `internal` or a superclass of it on `path` mentions a JUnit test
// annotation in its constant pool (annotation types are named there).
bool MentionsTestAnnotation(classfile::ClassPath& path, std::string internal) {
  static constexpr const char* kAnnotations[] = {
      "Lorg/junit/jupiter/api/Test;",          "Lorg/junit/jupiter/api/RepeatedTest;",
      "Lorg/junit/jupiter/api/TestFactory;",   "Lorg/junit/jupiter/api/TestTemplate;",
      "Lorg/junit/jupiter/params/ParameterizedTest;", "Lorg/junit/Test;"};
  for (int depth = 0; depth < 64 && !internal.empty(); ++depth) {
    absl::StatusOr<const classfile::ClassFile*> cls = path.Load(internal);
    if (!cls.ok()) return false;
    const classfile::ConstantPool& pool = (*cls)->pool;
    for (size_t i = 1; i < pool.size(); ++i) {
      if (pool.tag(i) != classfile::CpTag::kUtf8) continue;
      for (const char* annotation : kAnnotations) {
        if (pool.Utf8(i) == annotation) return true;
      }
    }
    internal = (*cls)->super_name;
  }
  return false;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ExpandTestClasses(
    const std::vector<std::string>& patterns, const std::string& classpath,
    const std::string& what) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::optional<classfile::ClassPath> path;
  std::vector<std::string> candidates;  // binary names of the JUnit test classes, sorted
  for (const std::string& pattern : patterns) {
    if (!path) {
      TS_ASSIGN_OR_RETURN(classfile::ClassPath created, classfile::ClassPath::Create(classpath));
      path.emplace(std::move(created));
    }
    if (!IsGlobPattern(pattern)) {
      // A named class must be there: bad input before any JVM runs or
      // anything is written.
      absl::StatusOr<const classfile::ClassFile*> named =
          path->Load(classfile::BinaryToInternal(pattern));
      if (named.status().code() == absl::StatusCode::kNotFound) {
        return absl::InvalidArgumentError(absl::StrCat(
            what, ": test class '", pattern, "' was not found on the class path ",
            classpath.empty() ? "(empty)" : classpath));
      }
      if (!named.ok()) return named.status();
      if (seen.insert(pattern).second) out.push_back(pattern);
      continue;
    }
    if (candidates.empty()) {
      for (const std::string& internal : path->ListClasses()) {
        if (internal.find('$') != std::string::npos) continue;
        absl::StatusOr<const classfile::ClassFile*> cls = path->Load(internal);
        if (!cls.ok() || (*cls)->is_abstract() || (*cls)->is_interface()) continue;
        if (!MentionsTestAnnotation(*path, internal)) continue;
        candidates.push_back(classfile::InternalToBinary(internal));
      }
      std::sort(candidates.begin(), candidates.end());
    }
    bool any = false;
    for (const std::string& name : candidates) {
      if (!GlobMatch(pattern, name)) continue;
      any = true;
      if (seen.insert(name).second) out.push_back(name);
    }
    if (!any) {
      return absl::InvalidArgumentError(absl::StrCat(
          what, " '", pattern, "' matches no JUnit test class on ",
          classpath.empty() ? "an empty class path" : classpath));
    }
  }
  return out;
}

std::vector<std::string> MethodSelectors(const std::vector<std::string>& test_ids,
                                         const std::string& classpath) {
  std::set<std::string> out;
  absl::StatusOr<classfile::ClassPath> path = classfile::ClassPath::Create(classpath);
  for (const std::string& id : test_ids) {
    size_t hash = id.find('#');
    if (hash == std::string::npos || hash == 0 || id[0] == '[') continue;
    std::string class_name = id.substr(0, hash);
    std::string method = id.substr(hash + 1);
    if (method == "*") {
      out.insert(class_name);
      continue;
    }
    bool found = false;
    std::string internal = classfile::BinaryToInternal(class_name);
    for (int depth = 0; path.ok() && depth < 64 && !internal.empty(); ++depth) {
      absl::StatusOr<const classfile::ClassFile*> cls = path->Load(internal);
      if (!cls.ok()) break;
      for (const classfile::Method& m : (*cls)->methods) {
        if (m.name != method) continue;
        absl::StatusOr<classfile::MethodDescriptor> descriptor =
            classfile::ParseMethodDescriptor(m.descriptor);
        if (!descriptor.ok()) continue;
        std::vector<std::string> types;
        for (const std::string& param : descriptor->params) {
          types.push_back(classfile::DescriptorToJava(param));
        }
        out.insert(absl::StrCat(id, "(", absl::StrJoin(types, ","), ")"));
        found = true;
      }
      internal = (*cls)->super_name;
    }
    if (!found) out.insert(id);
  }
  return std::vector<std::string>(out.begin(), out.end());
}

absl::StatusOr<std::string> FindJava() {
  std::string home = Env("JAVA_HOME");
  if (!home.empty()) {
    std::string java = home + "/bin/java";
    if (::access(java.c_str(), X_OK) == 0) return java;
  }
  std::string java = FindInPath("java");
  if (!java.empty()) return java;
  return absl::UnavailableError(
      "java not found: install a JDK 17 (Debian: apt-get install openjdk-17-jdk-headless), "
      "put `java` on PATH or set JAVA_HOME");
}

absl::StatusOr<std::string> FindProbe() {
  return FindShipped("TRACESPEC_PROBE", "libtracespec_probe.so", TRACESPEC_PROBE_BUILD_PATH,
                     "the tracespec probe (libtracespec_probe.so)");
}

absl::StatusOr<std::string> FindListenerJar() {
  return FindShipped("TRACESPEC_LISTENER_JAR", "tracespec-listener.jar",
                     TRACESPEC_LISTENER_BUILD_PATH, "the tracespec JUnit listener jar");
}

absl::StatusOr<std::string> FindJunitJar() {
  std::string jar = Env("TRACESPEC_JUNIT_JAR");
  if (jar.empty()) jar = TRACESPEC_JUNIT_JAR_DEFAULT;
  if (FileExists(jar)) return jar;
  return absl::UnavailableError(absl::StrCat(
      "the JUnit console launcher ", jar,
      " is missing (Debian: apt-get install junit5, or set $TRACESPEC_JUNIT_JAR)"));
}

std::vector<std::string> BuildCommand(const JunitCommand& command) {
  std::vector<std::string> argv = {command.java};
  argv.insert(argv.end(), command.jvm_options.begin(), command.jvm_options.end());
  if (!command.probe.empty()) {
    argv.push_back(absl::StrCat("-agentpath:", command.probe, "=config=", command.probe_config));
  }
  if (!command.results_path.empty()) {
    argv.push_back("-Dtracespec.results=" + command.results_path);
  }
  std::vector<std::string> classpath;
  if (!command.classpath.empty()) classpath.push_back(command.classpath);
  if (!command.listener_jar.empty()) classpath.push_back(command.listener_jar);
  classpath.push_back(command.junit_jar);
  argv.insert(argv.end(), {"-cp", absl::StrJoin(classpath, ":"),
                           "org.junit.platform.console.ConsoleLauncher", "--disable-banner",
                           "--disable-ansi-colors", "--fail-if-no-tests"});
  if (!command.selectors.empty()) {
    for (const std::string& selector : command.selectors) {
      bool method = selector.find('#') != std::string::npos;
      argv.push_back((method ? "--select-method=" : "--select-class=") + selector);
    }
    return argv;
  }
  for (const std::string& test_class : command.test_classes) {
    argv.push_back("--select-class=" + test_class);
  }
  return argv;
}

TestResults ParseTestResults(const std::string& text) {
  TestResults results;
  std::map<std::string, int> open;  // test id → runs started, not finished
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    std::vector<std::string> parts = absl::StrSplit(line, '\t');
    const std::string& event = parts[0];
    if (event == "plan-started") {
      results.plan_started = true;
      continue;
    }
    if (event == "plan-finished") {
      results.plan_finished = true;
      continue;
    }
    if (parts.size() < 2) continue;
    const std::string& id = parts[1];
    v1::TestSummary& test = results.tests[id];
    test.set_test_id(id);
    if (event == "started") {
      ++open[id];
    } else if (event == "skipped") {
      if (test.status() == v1::TEST_STATUS_UNSPECIFIED) test.set_status(v1::TEST_STATUS_SKIPPED);
    } else if (event == "container-failed") {
      // A container reports after its tests (if any ran): a test template
      // whose runs were reported stays a test, failed.
      test.set_status(v1::TEST_STATUS_FAILED);
      if (parts.size() > 2 && test.failure_class().empty()) test.set_failure_class(parts[2]);
      if (open.count(id) == 0) test.set_kind(v1::TEST_ENTRY_CONTAINER);
    } else if (event == "finished") {
      --open[id];
      std::string status = parts.size() > 2 ? parts[2] : "";
      if (status == "FAILED") {
        test.set_status(v1::TEST_STATUS_FAILED);
        if (parts.size() > 3 && test.failure_class().empty()) test.set_failure_class(parts[3]);
      } else if (status == "SUCCESSFUL") {
        if (test.status() != v1::TEST_STATUS_FAILED) test.set_status(v1::TEST_STATUS_PASSED);
      } else if (test.status() == v1::TEST_STATUS_UNSPECIFIED) {
        test.set_status(v1::TEST_STATUS_SKIPPED);  // ABORTED: an assumption did not hold.
      }
    }
  }
  for (const auto& [id, count] : open) {
    if (count > 0) {
      results.tests[id].set_status(v1::TEST_STATUS_INTERRUPTED);
      results.unfinished.push_back(id);
    }
  }
  return results;
}

std::string DiscoveryProblem(const std::string& jvm_log) {
  for (absl::string_view line : absl::StrSplit(jvm_log, '\n')) {
    size_t at = line.find("Could not load class with name: ");
    if (at != absl::string_view::npos) {
      return absl::StrCat("test class '", line.substr(at + 32),
                          "' was not found on the class path");
    }
  }
  return "";
}

absl::Status PlanNotStarted(const std::string& log, int exit_code, const std::string& jvm,
                            const std::vector<std::string>& test_classes,
                            const std::string& log_path) {
  std::string discovery = DiscoveryProblem(log);
  if (!discovery.empty()) return absl::NotFoundError(discovery);
  if (exit_code == 2) {
    return absl::NotFoundError(
        absl::StrCat("JUnit found no tests in ", absl::StrJoin(test_classes, ", ")));
  }
  return absl::UnavailableError(
      absl::StrCat("JUnit did not run the tests (", jvm, "); see ", log_path));
}

absl::StatusOr<TestRun> RunTests(const TestRunOptions& options) {
  JunitCommand command;
  TS_ASSIGN_OR_RETURN(command.java, FindJava());
  TS_ASSIGN_OR_RETURN(command.listener_jar, FindListenerJar());
  TS_ASSIGN_OR_RETURN(command.junit_jar, FindJunitJar());
  TS_RETURN_IF_ERROR(MakeDirs(options.work_dir));
  command.results_path = options.work_dir + "/results.tsv";
  command.classpath = options.classpath;
  command.test_classes = options.test_classes;
  TestRun run;
  run.log_path = options.work_dir + "/jvm.log";
  TS_RETURN_IF_ERROR(RemoveAll(command.results_path));
  SubprocessOptions subprocess;
  subprocess.stdout_path = run.log_path;
  subprocess.stderr_path = run.log_path;
  subprocess.timeout_seconds = options.timeout_seconds;
  // Ctrl-C or SIGTERM stops the JVM (its process group) at once and ends
  // the caller's work with it, as during `run`'s build.
  subprocess.stop_on_interrupt = true;
  TS_ASSIGN_OR_RETURN(SubprocessResult jvm, RunSubprocess(BuildCommand(command), subprocess));
  if (jvm.interrupted_by != 0) {
    return absl::CancelledError(absl::StrCat(
        InterruptReason(jvm.interrupted_by), " while JUnit ran ",
        absl::StrJoin(options.test_classes, ", "), " (stopped after ",
        static_cast<int>(jvm.seconds), "s)"));
  }
  run.timed_out = jvm.timed_out;
  run.jvm = jvm.Describe();
  run.seconds = jvm.seconds;
  run.results = ParseTestResults(ReadFile(command.results_path).value_or(""));
  if (!run.results.plan_started && !jvm.timed_out) {
    return PlanNotStarted(ReadFile(run.log_path).value_or(""), jvm.exit_code, run.jvm,
                          options.test_classes, run.log_path);
  }
  for (const auto& [id, test] : run.results.tests) {
    if (test.status() == v1::TEST_STATUS_FAILED || test.status() == v1::TEST_STATUS_INTERRUPTED) {
      run.failed.push_back(id);
    }
  }
  for (const std::string& id : run.results.unfinished) run.failed.push_back(id);
  std::sort(run.failed.begin(), run.failed.end());
  run.failed.erase(std::unique(run.failed.begin(), run.failed.end()), run.failed.end());
  return run;
}

}  // namespace tracespec::observer

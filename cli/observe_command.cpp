// `tracespec observe`: run JUnit tests under the probe and record
// observations of the target methods (observer/observer.h does the work).
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "cli/commands.h"
#include "cli/common_flags.h"
#include "observer/observer.h"

namespace tracespec::cli {

void AddObserveCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<observer::ObserveOptions>();
  auto tests = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand(
      "observe",
      "Run JUnit 5 tests under the tracespec probe and record ⟨args, pre, post, outcome⟩ "
      "observations of target methods; fields the policy denies are never read");
  cmd->add_option("--classpath", options->classpath,
                  "Class path of the compiled code and tests (':'-separated)")
      ->required();
  cmd->add_option("--tests", *tests,
                  "JUnit test classes to run: binary names, or globs over the JUnit test "
                  "classes on --classpath (shop.*, shop.*Test; * any characters, ? one)")
      ->required()
      ->delimiter(',');
  cmd->add_option("--method", options->methods,
                  "Target method: pkg.Class#name (all overloads), "
                  "pkg.Class#name(JVM descriptor) or pkg.Class#name(Java parameter types), "
                  "e.g. bank.Account#deposit(I)V or shop.Stats#max(int[]); "
                  "constructors are <init>; repeatable")
      ->required();
  cmd->add_option("--policy", options->policy_path,
                  "Redaction policy (.textproto); default: the built-in "
                  "policies/default.textproto");
  cmd->add_option("--tests-src", options->tests_src,
                  "Root of the test sources: tests whose source mentions a sensitive name "
                  "are marked excluded");
  cmd->add_option("--out", options->out_dir,
                  "Output directory: observations.pb, observations.jsonl, summary.json, "
                  "jvm.log")
      ->required();
  cmd->add_option("--max-observations", options->max_observations_per_method,
                  "Observations kept per method: every distinct behaviour, then a deterministic "
                  "sample up to N in all; -1 keeps all (default: the policy's "
                  "max_observations_per_method, else 1000)")
      ->check(CLI::Range(int64_t{-1}, int64_t{1} << 40));
  cmd->add_option("--timeout", options->timeout_seconds,
                  "Kill the JVM after this many seconds (0 = no limit)")
      ->check(CLI::NonNegativeNumber);
  cmd->footer(ExitStatusFooter(
      {{kExitOk, "results written; failing tests are listed in the summary"},
       {kExitInputError,
        "unknown or corrupt class, unknown method, malformed policy, test class not found, "
        "missing path"},
       {kExitEnvironment,
        "missing JVM, or a JVM that died mid-run: partial results written and marked"}}));
  cmd->callback([options, tests, exit_code] {
    options->test_classes = *tests;
    *exit_code = CheckPathFlags({{"--classpath", options->classpath, PathKind::kClassPath},
                                 {"--policy", options->policy_path, PathKind::kFile},
                                 {"--tests-src", options->tests_src, PathKind::kDirectory}});
    if (*exit_code != kExitOk) return;
    auto result = observer::Observe(*options);
    if (!result.ok()) {
      *exit_code = ReportError(result.status());
      return;
    }
    std::fputs(result->summary_text.c_str(), stdout);
    std::fflush(stdout);
    *exit_code = result->problem.ok() ? kExitOk : ReportError(result->problem);
  });
}

}  // namespace tracespec::cli

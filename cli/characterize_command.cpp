// `tracespec characterize`: JUnit 5 characterization tests from recorded
// calls (observer/characterize.h does the work).
#include <cstdio>
#include <map>
#include <utility>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cli/commands.h"
#include "cli/common_flags.h"
#include "observer/characterize.h"

namespace tracespec::cli {

void AddCharacterizeCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<observer::CharacterizeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "characterize",
      "Write JUnit 5 characterization tests from recorded calls: one class per target class "
      "(OUT/<package>/<Class>CharacterizationTest.java) whose tests rebuild a call's inputs "
      "(primitives, strings, null, arrays recorded in full, objects of classes with a "
      "constructor without parameters whose fields were all recorded, set by reflection) and "
      "assert its recorded outcome (the return value, or the exact class of the exception; the "
      "inputs' primitive and string fields and arrays afterwards). Calls that cannot be rebuilt "
      "(constructors, private methods, withheld or partly recorded inputs, ...) are listed with "
      "why in OUT/not-rebuilt.txt; values the policy withheld are never written into a test. "
      "Compile the tests against the classes and the JUnit console launcher and run them");
  cmd->add_option("--observations", options->observations,
                  "Output directory of `tracespec observe` (or an observations .pb/.jsonl file)")
      ->required();
  cmd->add_option("--method", options->methods,
                  "Target method: pkg.Class#name, pkg.Class#name(JVM descriptor) or "
                  "pkg.Class#name(Java parameter types); repeatable; default: every method "
                  "with recorded calls");
  AddClassPathOption(cmd, &options->classpath,
                     "Directories and jars of the classes the calls were recorded on")
      ->required();
  cmd->add_option("--out", options->out_dir,
                  "Directory for the .java files and not-rebuilt.txt (created if missing; files "
                  "of the same name are replaced)")
      ->required();
  cmd->footer(ExitStatusFooter(
      {{kExitOk, "tests written (calls that cannot be rebuilt are listed)"},
       {kExitInputError, "malformed method, no recorded calls of a method, missing path"}}));
  cmd->callback([options, exit_code] {
    *exit_code = CheckPathFlags({{"--classpath", options->classpath, PathKind::kClassPath},
                                 {"--observations", options->observations,
                                  PathKind::kFileOrDirectory}});
    if (*exit_code != kExitOk) return;
    auto result = observer::Characterize(*options);
    if (!result.ok()) {
      *exit_code = ReportError(result.status());
      return;
    }
    for (const std::string& file : result->files) {
      std::printf("written: %s/%s\n", options->out_dir.c_str(), file.c_str());
    }
    std::printf("%d recorded calls: %d tests, %d calls repeating an earlier test, %zu not "
                "rebuilt%s\n",
                result->calls, result->tests, result->duplicates, result->not_rebuilt.size(),
                result->not_rebuilt.empty()
                    ? ""
                    : absl::StrCat(" (each listed in ", options->out_dir, "/not-rebuilt.txt)")
                          .c_str());
    // Grouped by method and reason, sorted.
    std::map<std::pair<std::string, std::string>, int> reasons;
    for (const observer::NotRebuilt& n : result->not_rebuilt) ++reasons[{n.method, n.why}];
    for (const auto& [key, count] : reasons) {
      std::printf("  not rebuilt: %s: %d %s: %s\n", key.first.c_str(), count,
                  count == 1 ? "call" : "calls", key.second.c_str());
    }
    *exit_code = kExitOk;
  });
}

}  // namespace tracespec::cli

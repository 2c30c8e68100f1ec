// `tracespec strength [PROJECT_DIR]` and `tracespec strength --classpath CP
// --method M --contract FILE --observations DIR [--tests CLASS...]`: flags ->
// project::MeasureProjectStrength / check::Validator::MeasureStrength and
// strength::RunMutants -> the strength and mutant tables and exit status.
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/strength/mutation.h"
#include "cli/commands.h"
#include "cli/common_flags.h"
#include "common/files.h"
#include "common/log.h"
#include "common/proto_io.h"
#include "project/run.h"
#include "validator/check/validator.h"

namespace tracespec::cli {
namespace {

struct StrengthFlags {
  std::string project_dir;
  std::string out_dir;
  std::string classpath;
  std::string method;
  std::string contract;
  std::string observations;
  int unwind = 4;
  int max_array = 4;
  double timeout = 60;
  std::vector<std::string> tests;
  std::string test_classpath;
  bool no_mutants = false;
  int max_mutants = 40;
};

void MutantProgress(const std::string& line) { Info(absl::StrCat("mutants: ", line)); }

int Print(const std::string& text) {
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
  return kExitOk;
}

int ProjectStrength(const StrengthFlags& flags) {
  project::StrengthOptions options;
  options.project_dir = flags.project_dir.empty() ? "." : flags.project_dir;
  options.out_dir = flags.out_dir;
  options.mutants = !flags.no_mutants;
  options.max_mutants = flags.max_mutants;
  options.progress = MutantProgress;
  absl::StatusOr<project::ProjectStrength> result = project::MeasureProjectStrength(options);
  if (!result.ok()) return ReportError(result.status());
  return Print(result->text);
}

int OneStrength(const StrengthFlags& flags) {
  int code = CheckPathFlags({{"--classpath", flags.classpath, PathKind::kClassPath},
                             {"--contract", flags.contract, PathKind::kFile},
                             {"--observations", flags.observations, PathKind::kFileOrDirectory}});
  if (code != kExitOk) return code;
  check::ValidateRequest request;
  request.method = flags.method;
  absl::StatusOr<std::string> contract = ReadFile(flags.contract);
  if (!contract.ok()) return ReportError(contract.status());
  request.contract = *std::move(contract);
  request.contract_file = flags.contract;
  request.has_observations = true;
  absl::StatusOr<std::vector<v1::Observation>> observations = ReadObservations(flags.observations);
  if (!observations.ok()) return ReportError(observations.status());
  request.observations = *std::move(observations);
  request.unwind = flags.unwind;
  request.max_array = flags.max_array;
  request.timeout_seconds = flags.timeout;
  auto validator = check::Validator::Create(flags.classpath);
  if (!validator.ok()) return ReportError(validator.status());
  absl::StatusOr<check::ValidationReport> report = (*validator)->MeasureStrength(request);
  if (!report.ok()) return ReportError(report.status());
  if (!report->strength.measured) {
    return ReportError(absl::InvalidArgumentError(report->strength.note));
  }
  std::string text = check::FormatStrengthTable({{report->method, report->strength}});
  if (flags.no_mutants) {
    absl::StrAppend(&text, "\nmutants: skipped (--no-mutants)\n");
    return Print(text);
  }
  strength::MutantRunOptions run;
  run.method = flags.method;
  run.classpath = flags.classpath;
  run.contract = request.contract;
  run.contract_file = flags.contract;
  run.unwind = flags.unwind;
  run.max_array = flags.max_array;
  run.timeout_seconds = flags.timeout;
  run.test_classpath = flags.test_classpath.empty() ? flags.classpath : flags.test_classpath;
  run.test_classes = flags.tests;
  run.max_mutants = flags.max_mutants;
  run.progress = MutantProgress;
  absl::StatusOr<strength::MutantResult> mutants = strength::RunMutants(run);
  if (!mutants.ok()) return ReportError(mutants.status());
  absl::StrAppend(&text, "\nmutants (tests: ",
                  flags.tests.empty() ? "none" : absl::StrJoin(flags.tests, ", "), ")\n",
                  strength::FormatMutantTable({{report->method, *mutants}}));
  return Print(text);
}

}  // namespace

void AddStrengthCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<StrengthFlags>();
  CLI::App* cmd = app.add_subcommand(
      "strength",
      "Measure how much contracts say: for every contract a `tracespec run` stored under "
      "PROJECT_DIR (default .), or for one contract (--classpath, --method, --contract, "
      "--observations). Determinism: per observation the contract admits, whether it pins the "
      "result (of a void method: the recorded primitive post-state) — one Z3 query asks for "
      "another normal outcome it admits. Completeness: perturbed outcomes (result or changed "
      "field ±1 and ±k, boolean flipped, double one ulp and far off, one array element "
      "changed, return swapped for an exception and back) and the share the contract rejects. "
      "Mutants: single-change mutants of the method's bytecode (operator swaps, boundary "
      "shifts, negated branches, constants ±1/0, removed field stores, returns of the default), "
      "each run against the project's JUnit tests (one contract: --tests) on the JVM and "
      "checked against the contract by the consistency check");
  cmd->add_option("PROJECT_DIR", flags->project_dir,
                  "The project of an earlier `tracespec run` (default .)");
  cmd->add_option("--out", flags->out_dir, "The run's output directory (default PROJECT_DIR/tracespec-out)");
  auto* cp = cmd->add_option("--classpath,--cp", flags->classpath,
                             "One contract: directories and jars, ':'-separated");
  auto* method = cmd->add_option("--method", flags->method,
                                 "One contract: the method, pkg.Class#name or "
                                 "pkg.Class#name(JVM descriptor)");
  auto* contract = cmd->add_option("--contract", flags->contract,
                                   "One contract: a .jml file, a .java file with JML comments, "
                                   "or a text file of clauses");
  auto* observations = cmd->add_option(
      "--observations", flags->observations,
      "One contract: recorded observations (.pb, .jsonl, or a directory holding observations.pb)");
  for (CLI::Option* o : {cp, method, contract, observations}) {
    for (CLI::Option* other : {cp, method, contract, observations}) {
      if (o != other) o->needs(other);
    }
  }
  auto* tests = cmd->add_option(
      "--tests", flags->tests,
      "One contract: JUnit test classes (binary names) run against each mutant (default: none, "
      "tests not run)");
  auto* test_cp = cmd->add_option(
      "--test-classpath", flags->test_classpath,
      "One contract: the class path the tests run on, ':'-separated (default --classpath)");
  tests->needs(cp);
  test_cp->needs(tests);
  cmd->add_flag("--no-mutants", flags->no_mutants,
                "Skip the mutation analysis (the output says skipped)");
  cmd->add_option("--max-mutants", flags->max_mutants,
                  "Mutants per method, chosen evenly over all of them (default 40; 0: all)")
      ->check(CLI::NonNegativeNumber);
  AddUnwindOption(cmd, &flags->unwind);
  AddMaxArrayOption(cmd, &flags->max_array);
  AddTimeoutOption(cmd, &flags->timeout,
                   "Time limit of the determinism queries and of the contract check on each "
                   "mutant, in seconds");
  cmd->footer(
      "Output: a table (method, observations admitted, pinned, threw, throw pinned, undecided, "
      "perturbed outcomes, rejected, weak) and per method `pins \\result on 17/17 "
      "observations, rejects 96% of perturbed outcomes`; an observation where the method threw "
      "never pins the result: it pins the exception when some case of the contract applies and "
      "admits no normal outcome (`... and the exception on 1/1 that threw`). `weak` when the "
      "result is pinned on fewer than half of the observations that returned; `says nothing` "
      "when nothing is pinned and no perturbed outcome is rejected but unchanged fields "
      "changed (a tautology or a bare frame). Undecided queries count as not pinned. Then the "
      "mutant table (method, "
      "mutants, killed by tests, by the contract, by both, by the contract only, survived, "
      "consistency undecided) and per method each mutant only the contract kills with its "
      "counterexample; "
      "a test that passes on the original and fails (or a run that times out) kills a mutant, "
      "a consistency FAIL with a counterexample kills it for the contract, UNKNOWN does not. "
      "Equivalent mutants are not detected: they count as survived. Project mode records the "
      "mutant figures in the run's run.json and result.json files (strength.mutants) and "
      "writes the report again with them. Progress goes to stderr. "
      "The same inputs print the same bytes. Project mode uses the class files, test classes "
      "and observations as the run left them (no build), the configuration's tests and the "
      "run's bounds; --unwind, --max-array and --timeout are for one contract.\n" +
      ExitStatusFooter({{kExitOk, "measured (weak contracts included)"},
                        {kExitInputError,
                         "no run.json under OUT, no project, unknown class or method, a "
                         "contract that does not check, missing path, a test class JUnit "
                         "cannot load"},
                        {kExitEnvironment, "unreadable file, no java"}}));
  cmd->callback([flags, exit_code, cp] {
    if (!flags->classpath.empty() || cp->count() > 0) {
      if (!flags->project_dir.empty()) {
        *exit_code = ReportError(absl::InvalidArgumentError(
            "give either PROJECT_DIR or --classpath/--method/--contract/--observations"));
        return;
      }
      *exit_code = OneStrength(*flags);
      return;
    }
    *exit_code = ProjectStrength(*flags);
  });
}

}  // namespace tracespec::cli

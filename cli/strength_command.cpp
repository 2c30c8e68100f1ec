// `tracespec strength [PROJECT_DIR]` and `tracespec strength --classpath CP
// --method M --contract FILE [--observations DIR]`: flags ->
// project::MeasureProjectStrength / check::Validator::MeasureStrength ->
// the strength table and exit status.
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.h"
#include "cli/common_flags.h"
#include "common/files.h"
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
};

int Print(const std::string& text) {
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
  return kExitOk;
}

int ProjectStrength(const StrengthFlags& flags) {
  project::StrengthOptions options;
  options.project_dir = flags.project_dir.empty() ? "." : flags.project_dir;
  options.out_dir = flags.out_dir;
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
  return Print(check::FormatStrengthTable({{report->method, report->strength}}));
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
      "changed, return swapped for an exception and back) and the share the contract rejects");
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
  AddUnwindOption(cmd, &flags->unwind);
  AddMaxArrayOption(cmd, &flags->max_array);
  AddTimeoutOption(cmd, &flags->timeout, "Time limit of the determinism queries in seconds");
  cmd->footer(
      "Output: a table (method, observations admitted, pinned, undecided, perturbed outcomes, "
      "rejected, weak) and per method `pins \\result on 17/17 observations, rejects 96% of "
      "perturbed outcomes`; `weak` when the result is pinned on fewer than half of the "
      "observations. Undecided queries count as not pinned. The same inputs print the same "
      "bytes. Project mode uses the class files and observations as the run left them (no "
      "build) and the run's bounds; --unwind, --max-array and --timeout are for one "
      "contract.\n" +
      ExitStatusFooter({{kExitOk, "measured (weak contracts included)"},
                        {kExitInputError,
                         "no run.json under OUT, no project, unknown class or method, a "
                         "contract that does not check, missing path"},
                        {kExitEnvironment, "unreadable file"}}));
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

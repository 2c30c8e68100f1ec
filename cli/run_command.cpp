// `tracespec run [PROJECT_DIR]` and `tracespec check [PROJECT_DIR]`: flags
// -> project::RunProject / CheckProject -> progress, results, exit status.
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "cli/commands.h"
#include "cli/common_flags.h"
#include "cli/status_line.h"
#include "common/interrupt.h"
#include "common/proto_io.h"
#include "project/run.h"

namespace tracespec::cli {
namespace {

struct ProjectFlags {
  std::string project_dir = ".";
  std::string out_dir;
  int jobs = 1;
  ValidatorsFlags validators;
  // run and check.
  bool accept_lost = false;
  // check only.
  bool frozen = false;
  bool json = false;
  // run only.
  bool no_noninterference = false;
  std::string gateway;
  services::ClientTlsFiles gateway_tls{"--gateway"};  // --gateway-ca, -cert, -key
};

// Progress on stderr: on a terminal one status line rewritten in place
// (finished methods and stages stay as lines above it), its elapsed time
// ticking every second; otherwise plain lines (stages, and each method's
// refinement lines and result).
class ProgressPrinter {
 public:
  void operator()(const project::ProgressEvent& e) {
    using Kind = project::ProgressEvent::Kind;
    std::string counter = e.total > 0 ? absl::StrFormat("[%d/%d] ", e.done, e.total) : "";
    switch (e.kind) {
      case Kind::kStage:
        status_.Print(e.text);
        return;
      case Kind::kMethodStart:
      case Kind::kMethodUpdate:
        if (status_.live()) {
          status_.Set(absl::StrCat(counter, e.method, ": ",
                                   e.kind == Kind::kMethodStart ? "starting" : e.text),
                      absl::Now() - absl::Seconds(e.elapsed));
        } else if (e.kind == Kind::kMethodUpdate) {
          // Plain output gets the method's own lines only.
          status_.Print(absl::StrCat(e.method, ": ", e.text));
        }
        return;
      case Kind::kMethodDone:
        status_.Print(absl::StrFormat("%s%s: %s (%.1fs)", counter, e.method, e.text, e.elapsed));
        return;
    }
  }

  // Clears the status line and stops the ticker.
  void Finish() { status_.Finish(); }

 private:
  StatusLine status_;
};

void AddProjectArguments(CLI::App* cmd, ProjectFlags* flags) {
  cmd->add_option("PROJECT_DIR", flags->project_dir,
                  "The project: a directory with a tracespec.textproto, or a Maven or Gradle "
                  "layout (default: the current directory)");
  cmd->add_option("--out", flags->out_dir, "Output directory (default: PROJECT_DIR/tracespec-out)");
  AddValidatorsOptions(cmd, &flags->validators);
}

int RunCommand(const ProjectFlags& flags) {
  auto printer = std::make_shared<ProgressPrinter>();
  project::RunOptions options;
  options.project_dir = flags.project_dir;
  options.out_dir = flags.out_dir;
  options.jobs = flags.jobs;
  options.no_noninterference = flags.no_noninterference;
  options.accept_lost = flags.accept_lost;
  options.progress = [printer](const project::ProgressEvent& e) { (*printer)(e); };
  // Connected before the build runs: no server, nothing done or written.
  absl::StatusOr<check::ValidatorFactory> make_validator = ValidatorFactoryFor(flags.validators);
  if (!make_validator.ok()) return ReportError(make_validator.status());
  options.make_validator = *std::move(make_validator);
  absl::StatusOr<gateway::GatewayClientFactory> make_gateway_client =
      GatewayFactoryFor(flags.gateway, flags.gateway_tls);
  if (!make_gateway_client.ok()) {
    printer->Finish();
    return ReportError(make_gateway_client.status());
  }
  options.gateway = flags.gateway;
  options.make_gateway_client = *std::move(make_gateway_client);
  StopOnSignals();
  absl::StatusOr<project::RunResult> result = project::RunProject(options);
  printer->Finish();
  if (!result.ok()) return ReportError(result.status());
  std::fputs(result->text.c_str(), stdout);
  std::fflush(stdout);
  return kExitOk;
}

int CheckCommand(const ProjectFlags& flags) {
  auto printer = std::make_shared<ProgressPrinter>();
  project::CheckOptions options;
  options.project_dir = flags.project_dir;
  options.out_dir = flags.out_dir;
  options.frozen = flags.frozen;
  options.accept_lost = flags.accept_lost;
  options.progress = [printer](const project::ProgressEvent& e) { (*printer)(e); };
  absl::StatusOr<check::ValidatorFactory> make_validator = ValidatorFactoryFor(flags.validators);
  if (!make_validator.ok()) return ReportError(make_validator.status());
  options.make_validator = *std::move(make_validator);
  absl::StatusOr<project::CheckResult> result = project::CheckProject(options);
  printer->Finish();
  if (!result.ok()) {
    if (flags.json) {
      v1::CheckSummary refused;
      refused.set_refused(std::string(result.status().message()));
      std::fputs((ToJsonLine(refused) + "\n").c_str(), stdout);
      std::fflush(stdout);
    }
    return ReportError(result.status());
  }
  std::fputs(flags.json ? (ToJsonLine(result->summary) + "\n").c_str() : result->text.c_str(),
             stdout);
  std::fflush(stdout);
  if (result->broken > 0) return kExitCheckFailed;
  if (result->added_since_run > 0) return kExitInputError;
  if (result->lost > 0 && !flags.accept_lost) return kExitInputError;
  if (result->undecided > 0) return kExitUnknown;
  return kExitOk;
}

}  // namespace

void AddRunCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<ProjectFlags>();
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Infer contracts for a whole project: run its build command, its JUnit tests under the "
      "probe (observe), then infer and validate a contract per target method, and write one "
      ".jml file per class (OpenJML --specspath layout), run.json and the report");
  AddProjectArguments(cmd, flags.get());
  cmd->add_option("--jobs", flags->jobs,
                  "Methods inferred at once, each with its own validator (default 1)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--gateway", flags->gateway,
                  "Address (HOST:PORT) of a `tracespec serve gateway`: the model is the "
                  "gateway's, whatever the configuration's model says (its endpoint's model "
                  "name, impl_src and anonymize still apply; its url, api_key_env, "
                  "egress_policy, timeout and attempts are the gateway's own); the requests go "
                  "through the gateway's egress gate into its audit log, and this run holds no "
                  "key. Reached before the build runs. Plaintext unless --gateway-ca is given");
  AddGatewayTlsOptions(cmd, &flags->gateway_tls);
  cmd->add_flag("--no-noninterference", flags->no_noninterference,
                "Observe the tests once, as with observe_noninterference: false: values "
                "computed from a denied field (its characters as an int[], its hash) are then "
                "recorded and may reach the model; only the field itself, and equal copies of "
                "it, are withheld. Default (observe_noninterference unset or true): the tests "
                "run a second time with every denied field substituted, and what differs is "
                "withheld (`tracespec observe --help`, --noninterference)");
  cmd->add_flag("--accept-lost", flags->accept_lost,
                "Accept the contracts this run finds lost: those the previous run had and this "
                "one has not, and those lost in an earlier run and still not regained. They are "
                "recorded as accepted (run.json: contracts_lost_accepted) instead of lost, so "
                "that `tracespec check` does not exit 3 on them and later runs no longer carry "
                "them. For a loss you mean (a method whose behaviour changed on purpose, a test "
                "removed); a loss from a bug is fixed in the code");
  cmd->footer(
      "Configuration: PROJECT_DIR/tracespec.textproto (tracespec.v1.ProjectConfig: build, "
      "classes, test_classes, classpath, tests, tests_src, methods, target_classes, "
      "redaction_policy, bounds, model, rounds, observe_timeout_seconds, "
      "observe_noninterference (default: on for tests; false = --no-noninterference); paths "
      "relative to "
      "the project), else a Maven layout (target/classes, target/test-classes, src/test/java) "
      "or a Gradle layout (build/classes/java/main and test, src/test/java): every test-like "
      "class is run and every public method of every top-level class is a target.\n"
      "Output (OUT): observations/ (observe's files), infer/ (infer's run directory), "
      "specs/<package>/<Class>.jml (the contracts that passed both checks, merged per class), "
      "run.json (tracespec.v1.RunSummary), report.html and report.md. A re-run reuses the observations when the class "
      "files, tests, targets and policy are unchanged, and every method's finished rounds.\n"
      "Each method's line ends with its contract's strength after a Success (see `tracespec "
      "strength`). The last lines warn (WARNING:) of the tests that failed (`tracespec check` "
      "refuses the run's contracts until they pass) and of the methods that had a contract in "
      "the previous run and have none now (run.json: contracts_lost). A loss is sticky: each "
      "run lists again the losses the previous run listed whose method still has no contract "
      "(\"lost its contract in an earlier run and still has none\"; run.json: "
      "contracts_lost_carried), and `tracespec check` exits 3 on them, until the method has a "
      "contract again or a run accepts the loss (--accept-lost).\n"
      "Object invariants: before inferring, candidates are read off the recorded states of each "
      "target class's objects (private integral fields: not negative, not zero, ordered, within "
      "an array field's length) and kept only when proved over every constructor and "
      "non-private instance method (the `invariants:` line names them, or what refuted them); "
      "the class's .jml file states them and its contracts assume them.\n"
      "Until it ends, a run is recorded as unfinished in OUT/failed-run.json (\"it started at "
      "... and did not finish\"), so that a run killed outright (SIGKILL, out of memory, a "
      "crash) leaves `tracespec check` refusing; a run that fails records its error there, one "
      "that succeeds removes it.\n" +
      ExitStatusFooter(
          {{kExitOk,
            "the run completed; methods without a contract that holds are listed, and failing "
            "tests and lost contracts are warned of"},
           {kExitInputError,
            "no project found, unknown or malformed configuration entry with file:line:column, "
            "build command failed, unknown class or method, no tests, a bad PEM file of "
            "--validators-ca, --validators-cert or --validators-key, or of --gateway-ca, "
            "--gateway-cert or --gateway-key"},
           {kExitEnvironment,
            "missing JVM, the test JVM died, endpoint or gateway unreachable (a failed TLS "
            "handshake too), I/O"},
           {kExitInterrupted,
            "Ctrl-C or SIGTERM: stops within seconds (the build command's and the test JVMs' "
            "process groups are killed at once; the previous observations stay), finished "
            "methods are kept and a re-run continues from them; recorded as a failed run; a "
            "second signal ends at once"}}));
  cmd->callback([flags, exit_code] { *exit_code = RunCommand(*flags); });
}

void AddCheckCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<ProjectFlags>();
  CLI::App* cmd = app.add_subcommand(
      "check",
      "Re-validate the contracts of the last `tracespec run` (OUT/specs) against the current "
      "build, after running the project's build command: no model, no tests, no new "
      "observations; lists every method whose contract no longer holds with its "
      "counterexample");
  AddProjectArguments(cmd, flags.get());
  cmd->add_flag("--frozen", flags->frozen,
                "Refuse (exit 3) when a contract or object invariant under OUT/specs was edited "
                "since the run (its JML differs from the one run.json records, or an invariant "
                "run.json records is gone), naming each with file:line: for pipelines where "
                "contracts change only through `tracespec run`");
  cmd->add_flag("--accept-lost", flags->accept_lost,
                "Accept, for this check only, the contracts the last run lost and did not "
                "accept (run.json: contracts_lost; listed as \"lost since the previous run: "
                "METHOD: ...\" or \"lost in an earlier run and not regained: METHOD: ...\"): "
                "they become a note instead of exit 3. The next run still lists them; `tracespec "
                "run --accept-lost` accepts them for good. For a loss you mean (a method whose "
                "behaviour changed on purpose, a test removed); a loss from a bug is fixed in the "
                "code");
  AddJsonFlag(cmd, &flags->json,
              "Print the result as one JSON document (tracespec.v1.CheckSummary: per contract "
              "its verdict, file, line, whether it was edited since the run and the parser's "
              "message when it does not parse; how many were checked and how many do not parse; "
              "the edited invariants; the contracts lost by the last run); when check refuses "
              "before checking (exit 3 or 4), a document with only `refused`, the reason");
  cmd->footer(
      "Only consistency is checked (within the bounds of the configuration); coverage is "
      "skipped: check records no observations. A contract that no longer type-checks, or "
      "whose method is gone, counts as broken. So does a contract that does not parse, or "
      "whose .jml file does not (exit 10, not 3: like a contract that no longer type-checks, "
      "what the run proved can no longer be checked, so check cannot say it holds; the rest is "
      "still checked): it is named with the parser's message (\"FILE:LINE:COLUMN: "
      "construct\"), said once for a whole file (whose object invariants are not checked "
      "either), counted in the last line as not parsed rather "
      "than checked (\"2 contracts checked, 1 not parsed, ...\"), and --json carries it "
      "(parse_error; checked, not_parsed). A "
      "contract edited by hand since the run is "
      "checked as it stands and listed (\"edited since the run: METHOD (FILE:LINE)\", and "
      "counted in the last line); --frozen refuses it. Check does not pass on nothing: it "
      "stops (exit 3) when the last run failed or did not finish (OUT/failed-run.json, also "
      "when no run has succeeded yet), when OUT/specs holds a file or a method's contract that run.json does "
      "not name, or lacks the contract of a method run.json puts in a file (each named with "
      "file:line), when the last run wrote no contract, and, without a build command, when a "
      "source (the configuration's `sources`, default src/main/java, else src) is newer than "
      "its class "
      "file. Nor does it check less than the run proved: when the configuration's bounds "
      "{ unwind max_array } are lower than those run.json records, it stops (exit 3), naming "
      "each contract (\"METHOD: checked with max_array 2, below the run's 4\"); raise them "
      "again, or run `tracespec run` to prove the contracts within the lower bounds (higher "
      "bounds, and any time limit, are fine). The object invariants the OUT/specs files state "
      "(`//@ public invariant P;`, which every contract's check assumes at entry and proves at "
      "its exits) are proved over the constructors and the non-private methods without a "
      "stored contract (one line each: \"keeps the class invariants\"; a violated one named "
      "with FILE:LINE; one over a field that proof does not follow — static, non-private, "
      "written by a static method or through another object, a superclass's — is "
      "undecided); one run.json does not record, or one it records that the file no "
      "longer states, is listed as edited since the run like a contract. "
      "Nor does it pass on contracts the project's own "
      "tests reject: when the last run recorded failing tests (run.json: failed_tests) it stops "
      "(exit 3) naming them; a run that was killed before it finished is a failed run.\n"
      "Every target method of the project as the class files now are that has no contract "
      "checked is listed as \"not covered: METHOD: ...\" and counted in the last line "
      "(--json: not_covered): covered by the run without a contract (its run line), or added "
      "since the run (run.json has no entry for it); an added method makes check exit 3 after "
      "checking (unless a contract is broken: 10): run `tracespec run` to cover it.\n"
      "Nor does it take a run that lost contracts for a baseline: each method that had a "
      "contract in the run before the last and has none in the last (run.json: "
      "contracts_lost; the tests may still pass while the contract fails) is listed as \"lost "
      "since the previous run: METHOD: ...\" with the last run's line for it, and check exits "
      "3 after checking the rest (10 when a contract is broken): fix the code and run "
      "`tracespec run` again, or accept the loss: `tracespec run --accept-lost` for good, "
      "--accept-lost here for this check only. A loss is sticky: a later run lists it again "
      "(\"lost in an earlier run and not regained: METHOD: ...\") until the method has a "
      "contract again or a run accepts it.\n" +
      ExitStatusFooter(
          {{kExitOk, "every contract holds"},
           {kExitCheckFailed,
            "some contract is broken: a clause fails, or it no longer type-checks or parses, "
            "or its method is gone"},
           {kExitUnknown, "none broken but some undecided: bound, timeout, unsupported"},
           {kExitInputError,
            "no run.json under OUT, the last run failed or did not finish, its tests failed, a "
            "target method added since the run, contracts lost by the last run (without "
            "--accept-lost), specs/ and run.json disagree, a "
            "contract or invariant edited since the run with --frozen, a .jml file that does "
            "not parse and holds no contract (only invariants), bounds lower than the run's, nothing to check, stale class files, no project, build command failed, a bad PEM file of "
            "--validators-ca, --validators-cert or --validators-key"},
           {kExitInterrupted,
            "Ctrl-C or SIGTERM during the build command: its process group is killed at once "
            "and nothing is checked"}}));
  cmd->callback([flags, exit_code] { *exit_code = CheckCommand(*flags); });
}

}  // namespace tracespec::cli

// `tracespec validate`: flags -> check::Validator -> report and exit status.
#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "cli/commands.h"
#include "cli/common_flags.h"
#include "cli/status_line.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "validator/check/validator.h"

namespace tracespec::cli {
namespace {

struct ValidateFlags {
  std::string classpath;
  std::string method;
  std::string contract;
  std::string observations;
  int unwind = 4;
  int max_array = 4;
  double timeout = 60;
  bool check_loop_invariants = false;
  bool skip_loop_invariants = false;
  bool no_deepen = false;
  bool json = false;
  ValidatorsFlags validators;
};

bool IsContractError(const check::CheckResult& r) {
  for (const check::Diagnostic& d : r.diagnostics) {
    if (d.kind == check::Diagnostic::Kind::kSyntax || d.kind == check::Diagnostic::Kind::kType) {
      return true;
    }
  }
  return false;
}

}  // namespace

void AddValidateCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<ValidateFlags>();
  CLI::App* cmd = app.add_subcommand(
      "validate",
      "Check a JML contract of one method: consistency (every execution of the bytecode from a "
      "pre-state a spec case admits satisfies that case, within the bounds) and coverage "
      "(every recorded observation is admitted by the contract). Needs only class files.");
  AddClassPathOption(cmd, &flags->classpath,
                     "Directories and jars (not needed with --validators, whose servers have "
                     "their own)")
      ->required(false);
  AddValidatorsOptions(cmd, &flags->validators);
  cmd->add_option("--method", flags->method,
                  "The method: pkg.Class#name, pkg.Class#name(JVM descriptor) or "
                  "pkg.Class#name(Java parameter types), e.g. bank.Account#deposit(I)V or "
                  "shop.Stats#max(int[])")
      ->required();
  cmd->add_option("--contract", flags->contract,
                  "The contract: a .jml file, a .java file with JML comments (the specification "
                  "in front of the method), or a text file of clauses (//@ lines or bare)")
      ->required();
  cmd->add_option("--observations", flags->observations,
                  "Recorded observations: a .pb (length-delimited) or .jsonl file, or a "
                  "directory holding observations.pb (only the method's own are used); without it "
                  "coverage is SKIPPED");
  AddUnwindOption(cmd, &flags->unwind);
  AddMaxArrayOption(cmd, &flags->max_array);
  AddTimeoutOption(cmd, &flags->timeout, "Time limit of consistency in seconds");
  auto* skip = cmd->add_flag(
      "--skip-loop-invariants", flags->skip_loop_invariants,
      "Do not check the loop invariants (maintaining, loop_invariant) of a .java contract; "
      "by default each is checked at every arrival at its loop within the bounds. Assert, "
      "assume, ghost and set statements in the body are always executed");
  cmd->add_flag("--check-loop-invariants", flags->check_loop_invariants,
                "Check the loop invariants (the default; kept for older scripts)")
      ->excludes(skip);
  cmd->add_flag("--no-deepen", flags->no_deepen,
                "Do not look again with longer inputs after a PASS that cut input lengths (by "
                "default such a PASS is checked once more with inputs up to twice --max-array "
                "and loops unwound as far, within a few seconds; a counterexample there makes "
                "it FAIL)");
  AddJsonFlag(cmd, &flags->json);
  cmd->footer(
      "Output: 'consistency: PASS|FAIL|ERROR|UNKNOWN (...)', 'coverage: ... (n of m observations "
      "admitted)', 'result: 11' (the paper's notation: consistency then coverage, 1 = pass, 0 = not, - = skipped: 'result: 1-' without observations), "
      "then diagnostics and counterexamples (arguments, pre/post objects, outcome). A PASS "
      "'within bounds' means no violation among executions whose loops fit in k iterations "
      "and whose input arrays and strings have at most L elements; the summary names each "
      "bound that cut something.\n" +
      ExitStatusFooter(
          {{kExitOk, "both checks pass"},
           {kExitUsage, "unknown flag, a bound or time limit out of range"},
           {kExitInputError,
            "JML syntax or type error, missing class, method or field, no observation of the "
            "method, corrupt or truncated observation file, missing path, a bad PEM file of "
            "--validators-ca, --validators-cert or --validators-key"},
           {kExitEnvironment,
            "unreadable file, no validator reachable (none SERVING, a TLS handshake failed)"},
           {kExitCheckFailed, "a check fails"},
           {kExitUnknown,
            "a check is UNKNOWN, or ERROR on valid JML the checker does not handle, and "
            "nothing failed"}}));
  cmd->callback([flags, exit_code] {
    if (flags->classpath.empty() && flags->validators.validators.empty()) {
      std::fprintf(stderr, "tracespec: error: --classpath is required (or --validators)\n");
      *exit_code = kExitUsage;
      return;
    }
    *exit_code =
        CheckPathFlags({{"--classpath", flags->classpath, PathKind::kClassPath},
                        {"--contract", flags->contract, PathKind::kFile},
                        {"--observations", flags->observations, PathKind::kFileOrDirectory}});
    if (*exit_code != kExitOk) return;
    absl::StatusOr<ValidatorPool> pool = ReadValidatorsFlags(flags->validators);
    if (!pool.ok()) {
      *exit_code = ReportError(pool.status());
      return;
    }
    check::ValidateRequest request;
    request.method = flags->method;
    auto contract = ReadFile(flags->contract);
    if (!contract.ok()) {
      *exit_code = ReportError(contract.status());
      return;
    }
    request.contract = std::move(*contract);
    request.contract_file = flags->contract;
    if (!flags->observations.empty()) {
      auto observations = ReadObservations(flags->observations);
      if (!observations.ok()) {
        *exit_code = ReportError(observations.status());
        return;
      }
      request.has_observations = true;
      request.observations = std::move(*observations);
    }
    request.unwind = flags->unwind;
    request.max_array = flags->max_array;
    request.timeout_seconds = flags->timeout;
    request.check_loop_invariants = !flags->skip_loop_invariants;
    request.deepen = !flags->no_deepen;
    auto validator =
        MakeValidator(flags->classpath, *pool, /*local_strength=*/false);
    if (!validator.ok()) {
      *exit_code = ReportError(validator.status());
      return;
    }
    absl::StatusOr<check::ValidationReport> report = [&] {
      // On a terminal, a status line while the checks run (a long one can
      // take minutes); nothing otherwise.
      StatusLine status;
      status.Set(absl::StrCat("validate ", flags->method, ": checking consistency",
                              request.has_observations ? " and coverage" : ""),
                 absl::Now());
      return (*validator)->Validate(request);
    }();
    if (!report.ok()) {
      *exit_code = ReportError(report.status());
      return;
    }
    const check::CheckResult* checks[] = {&report->consistency, &report->coverage};
    bool failed = false, unknown = false, bad_contract = false;
    for (const check::CheckResult* r : checks) {
      failed |= r->status == check::CheckStatus::kFail;
      unknown |= r->status == check::CheckStatus::kUnknown;
      bad_contract |= r->status == check::CheckStatus::kError && IsContractError(*r);
      unknown |= r->status == check::CheckStatus::kError && !IsContractError(*r);
    }
    // A contract that does not parse or type-check was not checked: no
    // verdict line, only the error (once, with file:line:column); --json
    // still gets the report, whose diagnostics say the same.
    if (flags->json || !bad_contract) {
      std::string text = flags->json ? check::FormatReportJson(*report)
                                     : check::FormatReportText(*report);
      std::fputs(text.c_str(), stdout);
      std::fflush(stdout);
    }
    if (bad_contract) {
      for (const check::CheckResult* r : checks) {
        if (r->status == check::CheckStatus::kError && !r->diagnostics.empty()) {
          const check::Diagnostic& d = r->diagnostics[0];
          std::fprintf(stderr, "tracespec: error: %s%s\n",
                       d.span.valid() ? (d.span.ToString() + ": ").c_str() : "",
                       d.message.c_str());
          break;
        }
      }
      *exit_code = kExitInputError;
    } else if (failed) {
      *exit_code = kExitCheckFailed;
    } else if (unknown) {
      *exit_code = kExitUnknown;
    } else {
      *exit_code = kExitOk;
    }
  });
}

}  // namespace tracespec::cli

// `tracespec ctl`: checks CTL formulas against a Kripke structure and prints
// the verdicts with their evidence.
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cli/commands.h"
#include "cli/common_flags.h"
#include "common/files.h"
#include "common/status.h"
#include "validator/ctl/check.h"
#include "validator/ctl/kripke_io.h"

namespace tracespec::cli {

namespace {

struct CtlFlags {
  std::string model;
  std::vector<std::string> formulas;
  std::vector<std::string> init;
  std::vector<std::string> fair;
  std::string deadlock = "error";
  bool json = false;
  std::string dot;
};

absl::StatusOr<bool> RunCtl(const CtlFlags& flags) {
  const ctl::DeadlockPolicy policy =
      flags.deadlock == "self-loop" ? ctl::DeadlockPolicy::kSelfLoop : ctl::DeadlockPolicy::kError;
  absl::StatusOr<ctl::Kripke> read = ctl::ReadKripkeFile(flags.model, policy);
  if (read.status().code() == absl::StatusCode::kFailedPrecondition)  // deadlock states
    return absl::InvalidArgumentError(
        absl::StrCat(read.status().message(), " (--deadlock=self-loop adds s -> s to each)"));
  TS_ASSIGN_OR_RETURN(ctl::Kripke model, std::move(read));
  if (!flags.init.empty()) {
    std::vector<uint32_t> init;
    for (const std::string& name : flags.init) {
      std::optional<uint32_t> s = model.FindState(name);
      if (!s) return absl::InvalidArgumentError(absl::StrCat("--init: unknown state '", name, "' in ", flags.model));
      init.push_back(*s);
    }
    model.set_initial_states(std::move(init));
  }
  ctl::CheckOptions options;
  options.fairness = flags.fair;
  TS_ASSIGN_OR_RETURN(ctl::CheckReport report, ctl::CheckFormulas(model, flags.formulas, options));
  const std::string out = flags.json ? ctl::RenderJson(model, report) : ctl::RenderText(model, report);
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (!flags.dot.empty()) TS_RETURN_IF_ERROR(WriteFileAtomic(flags.dot, ctl::RenderDot(model, report)));
  return report.all_hold;
}

}  // namespace

void AddCtlCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<CtlFlags>();
  CLI::App* cmd = app.add_subcommand(
      "ctl",
      "Check CTL formulas against a Kripke structure (explicit-state, with fairness) and show "
      "witnesses and counterexamples");
  cmd->add_option("model", flags->model,
                  "Model file: text (.kripke and others), JSON (.json) or Aldebaran (.aut); "
                  "formats in validator/ctl/README.md")
      ->required();
  cmd->add_option("formulas", flags->formulas,
                  "CTL formulas: true false ! & | -> <-> EX AX EF AF EG AG E[f U g] A[f U g] "
                  "and parentheses; every state name is a proposition")
      ->required();
  cmd->add_option("--init", flags->init, "Start in these states instead of the model's initial states (repeatable)");
  cmd->add_option("--fair", flags->fair,
                  "Fairness constraint: only paths on which this formula holds infinitely often count "
                  "(repeatable)");
  cmd->add_option("--deadlock", flags->deadlock,
                  "States without successors: 'error' (default) or 'self-loop' (add s -> s and list them)")
      ->check(CLI::IsMember({"error", "self-loop"}));
  AddJsonFlag(cmd, &flags->json, "Print one JSON document instead of text");
  cmd->add_option("--dot", flags->dot, "Write the evidence traces and their neighbourhood as Graphviz DOT");
  cmd->footer(absl::StrCat(
      "A formula holds iff it holds in every initial state.\n",
      ExitStatusFooter({{kExitOk, "all formulas hold"},
                        {kExitInputError, "model, formula, unknown state or proposition"},
                        {kExitEnvironment, "unreadable model, unwritable --dot file"},
                        {kExitCheckFailed, "some formula fails"}})));
  cmd->callback([flags, exit_code] {
    absl::StatusOr<bool> all_hold = RunCtl(*flags);
    if (!all_hold.ok()) {
      *exit_code = ReportError(all_hold.status());
      return;
    }
    *exit_code = *all_hold ? kExitOk : kExitCheckFailed;
  });
}

}  // namespace tracespec::cli

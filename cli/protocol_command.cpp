// `tracespec protocol mine|explore`: builds a class protocol (a Kripke
// structure for `tracespec ctl`) from recorded observations or from the
// bytecode, optionally checks CTL formulas on it and compares the two.
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cli/commands.h"
#include "cli/common_flags.h"
#include "common/files.h"
#include "common/log.h"
#include "common/status.h"
#include "validator/protocol/compare.h"
#include "validator/protocol/explore.h"
#include "validator/protocol/mine.h"
#include "validator/protocol/report.h"

namespace tracespec::cli {

namespace {

// Flags both subcommands share.
struct CommonFlags {
  std::string class_name;
  std::vector<std::string> state_fields;
  std::string out;
  std::vector<std::string> checks;
  std::vector<std::string> fair;
};

struct MineFlags : CommonFlags {
  std::string observations;
  std::string classpath;
};

struct ExploreFlags : CommonFlags {
  std::string classpath;
  std::string observations;
  std::vector<std::string> methods;
  protocol::ExploreOptions options;
  bool json = false;
};

void Print(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

absl::StatusOr<protocol::MinedProtocol> Mine(const std::string& observations, const std::string& classpath,
                                             const CommonFlags& flags) {
  TS_ASSIGN_OR_RETURN(std::vector<v1::Observation> recorded, protocol::ReadObservationsFrom(observations));
  protocol::MineOptions options;
  options.class_name = flags.class_name;
  options.state_fields = flags.state_fields;
  options.source = observations;
  if (!classpath.empty()) {
    TS_ASSIGN_OR_RETURN(options.domains,
                        protocol::StateFieldDomains(classpath, flags.class_name, flags.state_fields));
  }
  TS_ASSIGN_OR_RETURN(protocol::MinedProtocol mined, protocol::MineProtocol(recorded, options));
  for (const std::string& s : mined.skipped) Warn(absl::StrCat("skipped ", s));
  for (const std::string& g : mined.gaps) Info(absl::StrCat("gap: ", g));
  return mined;
}

// Exit status of a run: formulas failing first, then an incomplete model.
int Verdict(const protocol::ProtocolCheck* check, bool complete) {
  if (check && !check->report.all_hold) return kExitCheckFailed;
  return complete ? kExitOk : kExitUnknown;
}

absl::StatusOr<int> RunMine(const MineFlags& flags) {
  TS_ASSIGN_OR_RETURN(protocol::MinedProtocol mined, Mine(flags.observations, flags.classpath, flags));
  Info(absl::StrCat(flags.class_name, ": ", mined.model.num_states(), " abstract states, ", mined.calls,
                    " calls on ", mined.objects, " objects in ", mined.tests, " tests"));
  if (!flags.out.empty()) {
    TS_RETURN_IF_ERROR(WriteFileAtomic(flags.out, mined.text));
  } else if (flags.checks.empty()) {
    Print(mined.text);
  }
  if (flags.checks.empty()) return kExitOk;
  TS_ASSIGN_OR_RETURN(protocol::ProtocolCheck check,
                      protocol::CheckProtocol(mined.model, mined.graph, flags.checks, flags.fair));
  Print(protocol::RenderCheckText(mined.model, check));
  return Verdict(&check, /*complete=*/true);
}

absl::StatusOr<int> RunExplore(ExploreFlags& flags) {
  protocol::ExploreOptions& options = flags.options;
  options.class_path = flags.classpath;
  options.class_name = flags.class_name;
  options.state_fields = flags.state_fields;
  options.methods = flags.methods;
  TS_ASSIGN_OR_RETURN(protocol::ExploredProtocol explored, protocol::ExploreProtocol(options));
  protocol::ExploreReport report;
  report.explored = &explored;
  protocol::MinedProtocol mined;
  protocol::ProtocolComparison comparison;
  if (!flags.observations.empty()) {
    TS_ASSIGN_OR_RETURN(mined, Mine(flags.observations, flags.classpath, flags));
    comparison = protocol::CompareProtocols(explored.graph, mined.graph);
    report.mined = &mined;
    report.comparison = &comparison;
    report.observations = flags.observations;
  }
  protocol::ProtocolCheck check;
  if (!flags.checks.empty()) {
    TS_ASSIGN_OR_RETURN(check, protocol::CheckProtocol(explored.model, explored.graph, flags.checks, flags.fair));
    report.check = &check;
  }
  if (!flags.out.empty()) TS_RETURN_IF_ERROR(WriteFileAtomic(flags.out, explored.text));
  if (flags.json) {
    Print(protocol::RenderExploreJson(report));
  } else {
    Print(protocol::RenderExploreText(report));
    if (flags.out.empty()) Print(absl::StrCat("\nmodel (text format; --out writes it to a file):\n", explored.text));
  }
  return Verdict(report.check, explored.incomplete.empty());
}

void AddCommonOptions(CLI::App* cmd, CommonFlags* flags) {
  cmd->add_option("--class", flags->class_name, "Binary class name, e.g. loan.LoanApplication")->required();
  cmd->add_option("--state-fields", flags->state_fields,
                  "Comma-separated instance fields whose values make the abstract state")
      ->delimiter(',')
      ->required();
  cmd->add_option("--check", flags->checks,
                  "Check this CTL formula on the model (repeatable; propositions are the states' names and "
                  "field=value); evidence is also shown as a call sequence");
  cmd->add_option("--fair", flags->fair, "Fairness constraint for --check (repeatable), as in `tracespec ctl`");
}

template <typename Flags, typename Run>
void SetCallback(CLI::App* cmd, std::shared_ptr<Flags> flags, int* exit_code, Run run) {
  cmd->callback([flags, exit_code, run] {
    *exit_code = CheckPathFlags(
        {{"--classpath", flags->classpath, PathKind::kClassPath},
         {"--observations", flags->observations, PathKind::kFileOrDirectory}});
    if (*exit_code != kExitOk) return;
    absl::StatusOr<int> code = run(*flags);
    *exit_code = code.ok() ? *code : ReportError(code.status());
  });
}

}  // namespace

void AddProtocolCommand(CLI::App& app, int* exit_code) {
  CLI::App* cmd = app.add_subcommand("protocol", "Class protocols as state machines for `tracespec ctl`");
  cmd->require_subcommand(1);

  auto mine_flags = std::make_shared<MineFlags>();
  cmd->footer(ExitStatusFooter({{kExitCheckFailed, "a --check formula fails"},
                                {kExitUnknown, "explore: the exploration was cut"}}));
  CLI::App* mine = cmd->add_subcommand(
      "mine",
      "Mine a class's protocol from observations: abstract states are the values of the named "
      "fields, transitions the observed calls between them (constructors give the initial states)");
  mine->add_option("--observations", mine_flags->observations,
                   "Observation file (.pb or .jsonl) or a directory of them (a .jsonl beside a .pb of the "
                   "same name is the same data and is skipped)")
      ->required();
  AddCommonOptions(mine, mine_flags.get());
  mine->add_option("--classpath", mine_flags->classpath,
                   "Read the class here to declare every value of boolean and enum state fields as a "
                   "proposition, also values never observed");
  mine->add_option("--out", mine_flags->out,
                   "Write the model here (text format); without it the model goes to stdout, unless --check "
                   "is given");
  mine->footer(ExitStatusFooter(
      {{kExitOk, "model written, and every --check formula holds"},
       {kExitInputError, "observations, class, state fields, formula"},
       {kExitEnvironment, "unreadable or unwritable file"},
       {kExitCheckFailed, "a --check formula fails"}}));
  SetCallback(mine, mine_flags, exit_code, [](MineFlags& f) { return RunMine(f); });

  auto explore_flags = std::make_shared<ExploreFlags>();
  CLI::App* explore = cmd->add_subcommand(
      "explore",
      "Explore a class's protocol from its bytecode: every public method (and constructor, for the "
      "initial states) runs symbolically from every reachable abstract state, with the other fields, "
      "the arguments and static fields free, and the solver lists every abstract state each normal "
      "or exceptional exit can lead to (label m or m!Exception). The graph over-approximates what "
      "real objects can do; it never misses a transition within the loop bound");
  AddClassPathOption(explore, &explore_flags->classpath);
  AddCommonOptions(explore, explore_flags.get());
  explore->add_option("--methods", explore_flags->methods,
                      "Explore only these public methods (comma-separated names; default: all)")
      ->delimiter(',');
  explore->add_option("--observations", explore_flags->observations,
                      "Observations to compare with (file or directory, as for `protocol mine`): lists the "
                      "transitions the implementation allows that the tests never exercised");
  protocol::ExploreOptions& bounds = explore_flags->options;
  AddUnwindOption(explore, &bounds.unwind, "First loop and recursion bound k",
                  "; doubled while a deeper iteration is reachable, up to --max-unwind");
  explore->add_option("--max-unwind", bounds.max_unwind,
                      WithDefault("Largest loop bound", bounds.max_unwind,
                                  "; calls still cut there are reported as incomplete"))
      ->check(CLI::Range(1, kMaxUnwindFlag));
  AddMaxArrayOption(explore, &bounds.max_array);
  explore->add_option("--max-states", bounds.max_states,
                      WithDefault("At most this many abstract states", bounds.max_states,
                                  ", else the state fields are reported as not bounded"))
      ->check(CLI::PositiveNumber);
  explore->add_option("--max-values", bounds.max_values,
                      WithDefault("At most this many post-states per call from one state",
                                  bounds.max_values, ", else not bounded"))
      ->check(CLI::PositiveNumber);
  AddTimeoutOption(explore, &bounds.timeout_seconds);
  explore->add_option("--out", explore_flags->out, "Write the model here (text format of `tracespec ctl`)");
  AddJsonFlag(explore, &explore_flags->json, "Print the report as one JSON document (with the model)");
  explore->footer(
      "State fields may be boolean, enum (constants and null) or integral (values found by the "
      "exploration, which stops when they are not bounded).\n" +
      ExitStatusFooter(
          {{kExitOk, "explored completely, and every --check formula holds"},
           {kExitInputError, "class, field, unbounded values"},
           {kExitEnvironment, "timeout, unreadable or unwritable file"},
           {kExitCheckFailed, "a --check formula fails"},
           {kExitUnknown, "some call's exploration was cut: bound, unsupported construct, solver"}}));
  SetCallback(explore, explore_flags, exit_code, [](ExploreFlags& f) { return RunExplore(f); });
}

}  // namespace tracespec::cli

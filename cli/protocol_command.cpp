// `tracespec protocol mine`: builds a class protocol (a Kripke structure for
// `tracespec ctl`) from recorded observations.
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cli/commands.h"
#include "common/files.h"
#include "common/log.h"
#include "common/status.h"
#include "validator/protocol/mine.h"

namespace tracespec::cli {

namespace {

struct MineFlags {
  std::string observations;
  std::string class_name;
  std::vector<std::string> state_fields;
  std::string out;
};

absl::Status RunMine(const MineFlags& flags) {
  TS_ASSIGN_OR_RETURN(std::vector<v1::Observation> observations,
                      protocol::ReadObservationsFrom(flags.observations));
  protocol::MineOptions options;
  options.class_name = flags.class_name;
  options.state_fields = flags.state_fields;
  options.source = flags.observations;
  TS_ASSIGN_OR_RETURN(protocol::MinedProtocol mined, protocol::MineProtocol(observations, options));
  for (const std::string& s : mined.skipped) Warn(absl::StrCat("skipped ", s));
  for (const std::string& g : mined.gaps) Info(absl::StrCat("gap: ", g));
  Info(absl::StrCat(flags.class_name, ": ", mined.model.num_states(), " abstract states, ",
                    mined.calls, " calls on ", mined.objects, " objects in ", mined.tests, " tests"));
  if (flags.out.empty()) {
    std::fwrite(mined.text.data(), 1, mined.text.size(), stdout);
    return absl::OkStatus();
  }
  return WriteFileAtomic(flags.out, mined.text);
}

}  // namespace

void AddProtocolCommand(CLI::App& app, int* exit_code) {
  CLI::App* cmd = app.add_subcommand("protocol", "Class protocols as state machines for `tracespec ctl`");
  cmd->require_subcommand(1);
  auto flags = std::make_shared<MineFlags>();
  CLI::App* mine = cmd->add_subcommand(
      "mine",
      "Mine a class's protocol from observations: abstract states are the values of the named "
      "fields, transitions the observed calls between them (constructors give the initial states)");
  mine->add_option("--observations", flags->observations,
                   "Observation file (.pb or .jsonl) or a directory of them")
      ->required();
  mine->add_option("--class", flags->class_name, "Binary class name, e.g. bank.Loan")->required();
  mine->add_option("--state-fields", flags->state_fields,
                   "Comma-separated fields whose values make the abstract state (primitive, String or enum)")
      ->delimiter(',')
      ->required();
  mine->add_option("--out", flags->out, "Write the model here (text format) instead of stdout");
  mine->callback([flags, exit_code] {
    absl::Status status = RunMine(*flags);
    *exit_code = status.ok() ? kExitOk : ReportError(status);
  });
}

}  // namespace tracespec::cli

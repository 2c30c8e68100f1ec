// `tracespec report [OUT_DIR]`: (re)writes report.html and report.md of an
// output directory of `tracespec run` (report::WriteReports).
#include <cstdio>
#include <memory>
#include <string>

#include "agent/report/report.h"
#include "cli/commands.h"

namespace tracespec::cli {

void AddReportCommand(CLI::App& app, int* exit_code) {
  auto out_dir = std::make_shared<std::string>("tracespec-out");
  CLI::App* cmd = app.add_subcommand(
      "report",
      "Write report.html (self-contained, loads nothing) and report.md of a run's output "
      "directory: per method the contract, history bits, rounds, counterexamples, "
      "observations, excluded tests, redactions and what left the machine");
  cmd->add_option("OUT_DIR", *out_dir,
                  "Output directory of tracespec run (holding observations/ and infer/)")
      ->capture_default_str();
  cmd->callback([out_dir, exit_code] {
    absl::Status written = report::WriteReports(*out_dir);
    if (!written.ok()) {
      *exit_code = ReportError(written);
      return;
    }
    std::printf("report: %s/report.html\nreport: %s/report.md\n", out_dir->c_str(),
                out_dir->c_str());
    *exit_code = kExitOk;
  });
}

}  // namespace tracespec::cli

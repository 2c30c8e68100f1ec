// The subcommands of the `tracespec` binary. Each Add*Command registers its
// options on the app; when the subcommand is chosen, its callback stores the
// process exit status in *exit_code. All logic lives in the libraries; these
// functions only translate flags and results.
#ifndef TRACESPEC_CLI_COMMANDS_H_
#define TRACESPEC_CLI_COMMANDS_H_

#include "CLI/CLI.hpp"
#include "absl/status/status.h"

namespace tracespec::cli {

// Exit statuses shared by every subcommand (documented in `--help`).
enum ExitCode : int {
  kExitOk = 0,
  kExitUsage = 2,        // bad flags (CLI11 reports these itself)
  kExitInputError = 3,   // bad input: malformed file, unknown class/method
  kExitEnvironment = 4,  // missing JVM, unreadable path, I/O failure
  kExitInternal = 5,     // a bug: please report
  kExitCheckFailed = 10, // a check ran and found a violation
  kExitUnknown = 11,     // a check could not decide (bound reached, timeout, unsupported)
};

// `tracespec ctl MODEL FORMULA...` (cli/ctl_command.cpp).
void AddCtlCommand(CLI::App& app, int* exit_code);
// `tracespec protocol mine|explore ...` (cli/protocol_command.cpp).
void AddProtocolCommand(CLI::App& app, int* exit_code);
// `tracespec verify`: bounded model checking of Java bytecode.
void AddVerifyCommand(CLI::App& app, int* exit_code);

// `tracespec validate`: the JML checks of one method (cli/validate_command.cpp).
void AddValidateCommand(CLI::App& app, int* exit_code);

// Prints "tracespec: error: <message>" and maps the status to an exit code.
int ReportError(const absl::Status& status);

// `tracespec audit verify|show LOG` (audit_command.cpp).
void AddAuditCommand(CLI::App& app, int* exit_code);
// `tracespec infer` (cli/infer_command.cpp).
void AddInferCommand(CLI::App& app, int* exit_code);
// `tracespec run [PROJECT_DIR]` and `tracespec check [PROJECT_DIR]` (cli/run_command.cpp).
void AddRunCommand(CLI::App& app, int* exit_code);
void AddCheckCommand(CLI::App& app, int* exit_code);
// `tracespec observe` (cli/observe_command.cpp).
void AddObserveCommand(CLI::App& app, int* exit_code);
// `tracespec report [OUT_DIR]` (cli/report_command.cpp).
void AddReportCommand(CLI::App& app, int* exit_code);

}  // namespace tracespec::cli

#endif  // TRACESPEC_CLI_COMMANDS_H_

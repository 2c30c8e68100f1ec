// The subcommands of the `tracespec` binary. Each Add*Command registers its
// options on the app; when the subcommand is chosen, its callback stores the
// process exit status in *exit_code. All logic lives in the libraries; these
// functions only translate flags and results.
#ifndef TRACESPEC_CLI_COMMANDS_H_
#define TRACESPEC_CLI_COMMANDS_H_

#include <map>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"

namespace tracespec::cli {

// Exit statuses shared by every subcommand. kExitStatusTable below gives
// each its meaning; every `--help` footer is generated from it
// (ExitStatusFooter), so help and behaviour cannot drift apart.
enum ExitCode : int {
  kExitOk = 0,
  kExitUsage = 2,        // bad flags: unknown, malformed, out of range
  kExitInputError = 3,   // bad input: malformed file, unknown class/method
  kExitEnvironment = 4,  // missing JVM, unreadable path, I/O failure, network
  kExitInternal = 5,     // a bug: please report
  kExitCheckFailed = 10, // a check ran and found a violation
  kExitUnknown = 11,     // a check could not decide (bound reached, timeout, unsupported)
  kExitInterrupted = 130, // stopped by SIGINT/SIGTERM; finished work kept (run, infer, observe, check)
};

struct ExitStatusRow {
  ExitCode code;
  const char* meaning;
};

// The one table of exit statuses.
inline constexpr ExitStatusRow kExitStatusTable[] = {
    {kExitOk, "success"},
    {kExitUsage, "bad usage"},
    {kExitInputError, "bad input"},
    {kExitEnvironment, "environment"},
    {kExitInternal, "internal error"},
    {kExitCheckFailed, "a check found a violation"},
    {kExitUnknown, "a check could not decide"},
    {kExitInterrupted, "interrupted"},
};

// The footer line "Exit status: 0 success (DETAIL), 2 bad usage, ..." of one
// subcommand: every row of kExitStatusTable with the subcommand's detail in
// parentheses when `details` has one. Statuses 10, 11 and 130 are listed
// only when `details` names them (a subcommand without checks never returns
// 10 or 11; only `run`, `infer`, `observe` and `check` stop on a signal with 130); 2, 3, 4 and
// 5 always are.
std::string ExitStatusFooter(const std::map<ExitCode, std::string>& details);

// The exit status of an error status: kInvalidArgument, kNotFound,
// kDataLoss, kFailedPrecondition, kUnimplemented are bad input;
// kPermissionDenied, kUnavailable, kDeadlineExceeded, kResourceExhausted
// the environment; everything else an internal error.
ExitCode ExitCodeFor(const absl::Status& status);

// `tracespec ctl MODEL FORMULA...` (cli/ctl_command.cpp).
void AddCtlCommand(CLI::App& app, int* exit_code);
// `tracespec protocol mine|explore ...` (cli/protocol_command.cpp).
void AddProtocolCommand(CLI::App& app, int* exit_code);
// `tracespec verify`: bounded model checking of Java bytecode.
void AddVerifyCommand(CLI::App& app, int* exit_code);

// `tracespec validate`: the JML checks of one method (cli/validate_command.cpp).
void AddValidateCommand(CLI::App& app, int* exit_code);
// `tracespec serve validator`: the validator as a gRPC service (cli/serve_command.cpp).
void AddServeCommand(CLI::App& app, int* exit_code);

// Prints "tracespec: error: <message>" once and returns ExitCodeFor(status).
int ReportError(const absl::Status& status);

// `tracespec audit verify|show LOG` (audit_command.cpp).
void AddAuditCommand(CLI::App& app, int* exit_code);
// `tracespec infer` (cli/infer_command.cpp).
void AddInferCommand(CLI::App& app, int* exit_code);
// `tracespec run [PROJECT_DIR]` and `tracespec check [PROJECT_DIR]` (cli/run_command.cpp).
void AddRunCommand(CLI::App& app, int* exit_code);
void AddCheckCommand(CLI::App& app, int* exit_code);
// `tracespec strength [PROJECT_DIR]` or for one contract (cli/strength_command.cpp).
void AddStrengthCommand(CLI::App& app, int* exit_code);
// `tracespec observe` (cli/observe_command.cpp); `command` is what followed
// "--" on the command line (CutCommand).
void AddObserveCommand(CLI::App& app, int* exit_code, std::vector<std::string> command);
// `tracespec observe ... -- COMMAND...`: removes "--" and the words after
// it from argv (when an `observe` came before it) and returns them. CLI11
// would otherwise read the command's own options as ours.
std::vector<std::string> CutCommand(int* argc, char** argv);
// `tracespec characterize` (cli/characterize_command.cpp).
void AddCharacterizeCommand(CLI::App& app, int* exit_code);
// `tracespec report [OUT_DIR]` (cli/report_command.cpp).
void AddReportCommand(CLI::App& app, int* exit_code);

}  // namespace tracespec::cli

#endif  // TRACESPEC_CLI_COMMANDS_H_

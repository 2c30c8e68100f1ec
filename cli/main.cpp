// tracespec: one thin main that dispatches to the subcommands.
#include <cstdio>
#include <string>

#include "CLI/CLI.hpp"
#include "cli/commands.h"
#include "cli/version.h"
#include "common/log.h"

namespace tracespec::cli {

int ReportError(const absl::Status& status) {
  std::fprintf(stderr, "tracespec: error: %s\n", std::string(status.message()).c_str());
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kDataLoss:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kUnimplemented:
      return kExitInputError;
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kUnavailable:
    case absl::StatusCode::kDeadlineExceeded:
    case absl::StatusCode::kResourceExhausted:
      return kExitEnvironment;
    default:
      return kExitInternal;
  }
}

}  // namespace tracespec::cli

int main(int argc, char** argv) {
  using namespace tracespec::cli;
  CLI::App app{"tracespec " TRACESPEC_VERSION
               " — infer JML contracts from tests and recorded executions, "
               "and prove them against the bytecode"};
  app.set_version_flag("--version", "tracespec " TRACESPEC_VERSION);
  bool quiet = false, verbose = false;
  app.add_flag("-q,--quiet", quiet, "Only print results and errors");
  app.add_flag("-v,--verbose", verbose, "Print more detail about the work");
  app.require_subcommand(1);
  app.footer(
      "Exit status: 0 success, 2 bad usage, 3 bad input, 4 environment "
      "(missing JVM, I/O), 5 internal error, 10 a check found a violation, "
      "11 a check could not decide.");
  int exit_code = kExitOk;
  app.parse_complete_callback([&] {
    tracespec::SetVerbosity(quiet     ? tracespec::Verbosity::kQuiet
                            : verbose ? tracespec::Verbosity::kVerbose
                                      : tracespec::Verbosity::kNormal);
  });
  // Subcommands, one Add*Command per file in cli/ (see commands.h).
  AddRunCommand(app, &exit_code);
  AddCheckCommand(app, &exit_code);
  AddAuditCommand(app, &exit_code);
  AddCtlCommand(app, &exit_code);
  AddInferCommand(app, &exit_code);
  AddProtocolCommand(app, &exit_code);
  AddObserveCommand(app, &exit_code);
  AddReportCommand(app, &exit_code);
  AddVerifyCommand(app, &exit_code);
  AddValidateCommand(app, &exit_code);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : kExitUsage;
  }
  return exit_code;
}

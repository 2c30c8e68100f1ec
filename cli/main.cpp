// tracespec: one thin main that dispatches to the subcommands.
#include "CLI/CLI.hpp"
#include "cli/commands.h"
#include "cli/version.h"
#include "common/log.h"
#include "common/owned_paths.h"

int main(int argc, char** argv) {
  using namespace tracespec::cli;
  // What tracespec and the JVMs it starts write is the user's alone.
  tracespec::RestrictUmask();
  CLI::App app{"tracespec " TRACESPEC_VERSION
               " — infer JML contracts from tests and recorded executions, "
               "and prove them against the bytecode"};
  app.set_version_flag("--version", "tracespec " TRACESPEC_VERSION);
  bool quiet = false, verbose = false;
  app.add_flag("-q,--quiet", quiet, "Only print results and errors");
  app.add_flag("-v,--verbose", verbose, "Print more detail about the work");
  app.require_subcommand(1);
  // -q/-v are accepted after the subcommand too (`tracespec run -q`): an
  // option a subcommand does not know falls through to the global ones.
  app.fallthrough();
  app.footer(ExitStatusFooter({{kExitEnvironment, "missing JVM, unreadable path, I/O, network"},
                                {kExitInternal, "a bug: please report it"},
                                {kExitCheckFailed, ""},
                                {kExitUnknown, "bound reached, timeout, unsupported construct"}}));
  int exit_code = kExitOk;
  app.parse_complete_callback([&] {
    tracespec::SetVerbosity(quiet     ? tracespec::Verbosity::kQuiet
                            : verbose ? tracespec::Verbosity::kVerbose
                                      : tracespec::Verbosity::kNormal);
  });
  // Subcommands, one Add*Command per file in cli/ (see commands.h).
  AddRunCommand(app, &exit_code);
  AddCheckCommand(app, &exit_code);
  AddStrengthCommand(app, &exit_code);
  AddAuditCommand(app, &exit_code);
  AddCtlCommand(app, &exit_code);
  AddInferCommand(app, &exit_code);
  AddProtocolCommand(app, &exit_code);
  AddObserveCommand(app, &exit_code, CutCommand(&argc, argv));
  AddCharacterizeCommand(app, &exit_code);
  AddReportCommand(app, &exit_code);
  AddVerifyCommand(app, &exit_code);
  AddValidateCommand(app, &exit_code);
  AddServeCommand(app, &exit_code);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : kExitUsage;
  }
  return exit_code;
}

// `tracespec verify`: flags -> symex::Verify -> report and exit status.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "cli/commands.h"
#include "cli/common_flags.h"
#include "cli/status_line.h"
#include "common/files.h"
#include "validator/symex/verify.h"

namespace tracespec::cli {
namespace {

struct VerifyFlags {
  symex::VerifyOptions options;
  std::string property = "assert";
  bool json = false;
  std::string emit_driver;
};

}  // namespace

void AddVerifyCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<VerifyFlags>();
  symex::VerifyOptions& o = flags->options;
  CLI::App* cmd = app.add_subcommand(
      "verify",
      "Prove that no assertion fails (or no RuntimeException escapes) in Java bytecode, by "
      "bounded model checking on Z3. Without --method the class's main(String[]) is the "
      "harness and inputs come from org.sosy_lab.sv_benchmarks.Verifier.nondet*(); with "
      "--method the method's parameters, the receiver's fields and static fields are free.");
  AddClassPathOption(cmd, &o.class_path);
  cmd->add_option("--class", o.class_name, "Class to verify, e.g. pkg.Main")->required();
  cmd->add_option("--method", o.method,
                  "Verify this method instead of main: NAME, NAME(JVM descriptor) or "
                  "NAME(Java parameter types), e.g. push(I)V or push(int)");
  cmd->add_option("--property", flags->property,
                  "assert: no AssertionError escapes (default); no-runtime-exception: no "
                  "RuntimeException escapes")
      ->check(CLI::IsMember({"assert", "no-runtime-exception"}));
  AddUnwindOption(cmd, &o.unwind, "First loop and recursion bound k",
                  "; doubled while the bound is reached and time is left");
  cmd->add_option("--max-unwind", o.max_unwind,
                  "Stop deepening at this bound (default: only the time limit stops it)")
      ->check(CLI::Range(0, kMaxUnwindFlag));
  AddMaxArrayOption(cmd, &o.max_array);
  AddTimeoutOption(cmd, &o.timeout_seconds);
  AddJsonFlag(cmd, &flags->json, "Print the result as one JSON document");
  cmd->add_option("--emit-driver", flags->emit_driver,
                  "On VERIFICATION FAILED, write a Java file that replays the counterexample: "
                  "a replacement Verifier.java (harness mode; compile it to its own directory "
                  "and put that first on the class path) or TracespecReplay.java (--method)");
  cmd->footer(
      "Output: VERIFICATION SUCCESSFUL (a proof, input arrays having at most L elements: "
      "either every loop and recursion fits in the final bound k, 'complete' when no "
      "longer input array or string could have been read, else 'within bounds: input "
      "arrays of at most L elements', or the loops "
      "that do not are closed by an induction step, 'proved by induction', with the "
      "invariants it used), VERIFICATION FAILED with the inputs, "
      "the failing instruction and the path's source lines, or UNKNOWN (bound reached, "
      "timeout, or an unsupported construct, named).\n" +
      ExitStatusFooter({{kExitOk, "VERIFICATION SUCCESSFUL"},
                        {kExitUsage, "unknown flag, a bound or time limit out of range"},
                        {kExitInputError, "malformed or missing class, no such method"},
                        {kExitEnvironment, "unreadable path, I/O"},
                        {kExitCheckFailed, "VERIFICATION FAILED"},
                        {kExitUnknown, "UNKNOWN"}}));
  cmd->callback([flags, exit_code] {
    *exit_code = CheckPathFlags({{"--classpath", flags->options.class_path, PathKind::kClassPath}});
    if (*exit_code != kExitOk) return;
    symex::VerifyOptions options = flags->options;
    options.property = flags->property == "no-runtime-exception"
                           ? symex::Property::kNoRuntimeException
                           : symex::Property::kAssert;
    auto result = [&] {
      // On a terminal, a status line while the search runs; nothing
      // otherwise.
      StatusLine status;
      status.Set(absl::StrCat("verify ", options.class_name,
                              options.method.empty() ? "" : absl::StrCat("#", options.method),
                              ": searching"),
                 absl::Now());
      return symex::Verify(options);
    }();
    if (!result.ok()) {
      *exit_code = ReportError(result.status());
      return;
    }
    std::string report = flags->json ? symex::FormatVerifyJson(*result)
                                     : symex::FormatVerifyText(*result);
    std::fputs(report.c_str(), stdout);
    std::fflush(stdout);
    if (!flags->emit_driver.empty() && result->verdict == symex::Verdict::kFailed) {
      std::string parent = std::filesystem::path(flags->emit_driver).parent_path().string();
      absl::Status written = parent.empty() ? absl::OkStatus() : MakeDirs(parent);
      if (written.ok()) written = WriteFileAtomic(flags->emit_driver, result->driver);
      if (!written.ok()) {
        *exit_code = ReportError(written);
        return;
      }
    }
    switch (result->verdict) {
      case symex::Verdict::kSuccessful: *exit_code = kExitOk; break;
      case symex::Verdict::kFailed: *exit_code = kExitCheckFailed; break;
      case symex::Verdict::kUnknown: *exit_code = kExitUnknown; break;
    }
  });
}

}  // namespace tracespec::cli

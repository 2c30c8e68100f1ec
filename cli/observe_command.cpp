// `tracespec observe`: run JUnit tests (or any JVM command line) under the
// probe and record observations of the target methods (observer/observer.h
// does the work).
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_split.h"
#include "cli/commands.h"
#include "cli/common_flags.h"
#include "common/interrupt.h"
#include "observer/observer.h"

namespace tracespec::cli {

std::vector<std::string> CutCommand(int* argc, char** argv) {
  int observe = -1;
  for (int i = 1; i < *argc; ++i) {
    std::string word = argv[i];
    if (word == "--") {
      if (observe < 0) return {};
      std::vector<std::string> command(argv + i + 1, argv + *argc);
      *argc = i;
      return command;
    }
    if (word == "observe" && observe < 0) observe = i;
  }
  return {};
}

void AddObserveCommand(CLI::App& app, int* exit_code, std::vector<std::string> command) {
  auto options = std::make_shared<observer::ObserveOptions>();
  auto tests = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand(
      "observe",
      "Run JUnit 5 tests, or any JVM command line, under the tracespec probe and record "
      "⟨args, pre, post, outcome⟩ observations of target methods; fields the policy denies "
      "are never read.\n"
      "  tracespec observe --classpath CP --tests T1,T2 --method M... --out DIR\n"
      "  tracespec observe --method M... --out DIR [OPTIONS] -- COMMAND...\n"
      "COMMAND (everything after --) runs instead of tests, e.g. -- java -jar app.jar "
      "input.txt. When its program is java (or a path ending in /java) the probe is added as "
      "-agentpath, else through JAVA_TOOL_OPTIONS, for a script that starts java itself. "
      "Observations then carry no test id; the summary groups them by thread and entry "
      "point. Ctrl-C or SIGTERM stops the command and keeps what was recorded, marked "
      "partial (exit 130); the command's own exit status is reported, not passed on");
  cmd->add_option("--classpath", options->classpath,
                  "Class path of the compiled code and tests (':'-separated); required with "
                  "--tests, unused with a command");
  cmd->add_option("--tests", *tests,
                  "JUnit test classes to run: binary names, or globs over the JUnit test "
                  "classes on --classpath (shop.*, shop.*Test; * any characters, ? one)")
      ->delimiter(',');
  cmd->add_option("--method", options->methods,
                  "Target method: pkg.Class#name (all overloads), "
                  "pkg.Class#name(JVM descriptor) or pkg.Class#name(Java parameter types), "
                  "e.g. bank.Account#deposit(I)V or shop.Stats#max(int[]); "
                  "constructors are <init>; or a pattern selecting public methods: "
                  "'com.acme.pricing.*#*' (classes whose names match, * any characters "
                  "including dots, ? one), 'pkg.Class#*', 'pkg.*#get*'; repeatable")
      ->required();
  cmd->add_option("--max-methods", options->max_methods,
                  "Refuse a run whose --method patterns match more than N methods (checked as "
                  "classes load; 0 = no limit)")
      ->default_val(observer::kDefaultMaxMethods)
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--list-hot", options->list_hot,
                "Count the calls of the target methods (cheap; nothing recorded) and print "
                "them, most called first, to pick targets from; also written to DIR/hot.txt");
  auto noninterference = std::make_shared<std::pair<bool, bool>>();  // on, off
  CLI::Option* ni_on = cmd->add_flag(
      "--noninterference", noninterference->first,
      "On by default for tests (this flag only makes it explicit; an error with a command "
      "or --list-hot): run the tests a second time, in a JVM beside the first, with every "
      "field a deny pattern names (in classes a record rule covers; not the JDK's, JUnit's or "
      "tracespec's) replaced by a same-shape substitute when read, and withhold every "
      "recorded value that differs between the runs (an encoding, a hash, a result computed "
      "from a denied field; every value of a test whose calls differ). When the runs differ "
      "a third run separates nondeterministic values (withheld too, marked so). Not covered: "
      "timing; secrets not read from a denied field (constants in code, denied parameters, "
      "environment, files); denied fields of object types other than strings, primitive "
      "arrays, UUIDs and IP addresses; a derived value the substitute happens not to change. "
      "Costs one extra JVM run at the same time as the tests, and a third one, started as "
      "soon as the second substitutes a value, when the runs differ (on examples/bank "
      "observe took 1.4-1.7x as long); none when the policy denies no field. A command is "
      "never run twice: its summary says so");
  cmd->add_flag("--no-noninterference", noninterference->second,
                "Run the tests once: values computed from a denied field (its characters as an "
                "int[], its hash) are then recorded and may leave with the observations; only "
                "the field itself, and equal copies of it, are withheld")
      ->excludes(ni_on);
  cmd->add_option("--noninterference-seed", options->noninterference_seed,
                  "Seed of the substitutes (recorded in summary.json)")
      ->default_val(observer::kDefaultNoninterferenceSeed);
  cmd->add_option("--policy", options->policy_path,
                  "Redaction policy (.textproto); default: the built-in "
                  "policies/default.textproto");
  cmd->add_option("--tests-src", options->tests_src,
                  "Root of the test sources: tests whose source mentions a sensitive name "
                  "are marked excluded (their observations stay local; the other tests then "
                  "run again without them and their observations come from that run)");
  cmd->add_option("--out", options->out_dir,
                  "Output directory: observations.pb, observations.jsonl, summary.json, "
                  "jvm.log")
      ->required();
  cmd->add_option("--max-observations", options->max_observations_per_method,
                  "Observations kept per method: every distinct behaviour, then a deterministic "
                  "sample up to N in all; -1 keeps all (default: the policy's "
                  "max_observations_per_method, else 1000)")
      ->check(CLI::Range(int64_t{-1}, int64_t{1} << 40));
  cmd->add_option("--timeout", options->timeout_seconds,
                  "Stop the JVM after this many seconds (0 = no limit); a command gets "
                  "SIGTERM and 10 s to shut down before it is killed")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--max-bytes", options->max_bytes,
                  "Stop recording once the probe's trace would exceed this many bytes "
                  "(0 = no limit); the observations are then marked partial, with exit status 0 "
                  "(a bound that was asked for)")
      ->check(CLI::NonNegativeNumber);
  cmd->footer(ExitStatusFooter(
      {{kExitOk,
        "results written; failing tests, and test classes whose own code failed "
        "(@BeforeAll, @AfterAll, a static initializer), are listed in the summary, their calls "
        "flagged excluded (kept out of inference, used for local checks only)"},
       {kExitInputError,
        "unknown or corrupt class, unknown method, malformed policy, test class not found, "
        "missing path (all found before any JVM starts: DIR stays as it was), a target "
        "class the tests never load (the other targets written), a command that starts no "
        "JVM or never loads a target class (the packages it loaded are listed)"},
       {kExitEnvironment,
        "missing JVM, or a JVM that died mid-run or timed out: partial results written and "
        "marked"},
       {kExitInterrupted,
        "Ctrl-C or SIGTERM: the test JVMs are killed at once and nothing is written (what DIR "
        "held stays); a command gets SIGTERM and 10 s to shut down, and what it recorded is "
        "written, marked partial; a second signal ends at once"}}));
  cmd->callback([options, tests, noninterference, command, exit_code] {
    options->test_classes = *tests;
    options->command = command;
    using Noninterference = observer::ObserveOptions::Noninterference;
    options->noninterference = noninterference->first    ? Noninterference::kOn
                               : noninterference->second ? Noninterference::kOff
                                                         : Noninterference::kDefault;
    if (command.empty() && tests->empty()) {
      throw CLI::RequiredError("--tests (with --classpath) or a command after --");
    }
    if (!command.empty() && !tests->empty()) {
      throw CLI::ExcludesError("--tests", "a command after --");
    }
    if (command.empty() && options->classpath.empty()) {
      throw CLI::RequiredError("--classpath");
    }
    *exit_code = CheckPathFlags({{"--classpath", options->classpath, PathKind::kClassPath},
                                 {"--policy", options->policy_path, PathKind::kFile},
                                 {"--tests-src", options->tests_src, PathKind::kDirectory}});
    if (*exit_code != kExitOk) return;
    // A signal stops the JVM (or the command) and then observe, which
    // exits 130 (tests: nothing written; a command: its capture written).
    StopOnSignals();
    auto result = observer::Observe(*options);
    if (!result.ok()) {
      *exit_code = ReportError(result.status());
      return;
    }
    std::fputs(result->summary_text.c_str(), stdout);
    std::fflush(stdout);
    *exit_code = result->problem.ok() ? kExitOk : ReportError(result->problem);
  });
}

}  // namespace tracespec::cli

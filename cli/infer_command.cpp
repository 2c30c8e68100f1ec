// `tracespec infer`: flags -> loop::RunInfer -> one line per method and an
// exit status.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "agent/loop/infer.h"
#include "cli/commands.h"
#include "cli/common_flags.h"
#include "common/interrupt.h"
#include "common/log.h"
#include "common/proto_io.h"
#include "tracespec/v1/infer.pb.h"

namespace tracespec::cli {
namespace {

struct InferFlags {
  loop::InferOptions options;
  bool builtin = false;
  bool json = false;
  ValidatorsFlags validators;
  services::ClientTlsFiles gateway_tls{"--gateway"};  // --gateway-ca, -cert, -key
};

int Run(InferFlags& flags) {
  loop::InferOptions& options = flags.options;
  std::vector<PathFlag> paths = {
      {"--classpath", options.classpath, PathKind::kClassPath},
      {"--observations", options.observations, PathKind::kFileOrDirectory},
      {"--tests-src", options.tests_src, PathKind::kDirectory},
      {"--test-classpath", options.test_classpath, PathKind::kClassPath},
      {"--egress-policy", options.egress_policy, PathKind::kFile},
      {"--redaction-policy", options.redaction_policy, PathKind::kFile}};
  for (const std::string& source : options.implementation_sources) {
    paths.push_back({"--impl-src", source, PathKind::kFileOrDirectory});
  }
  if (int code = CheckPathFlags(paths); code != kExitOk) return code;
  if (flags.builtin && !options.llm_url.empty()) {
    std::fprintf(stderr, "tracespec: error: --builtin and --llm exclude each other\n");
    return kExitUsage;
  }
  if (!options.gateway.empty()) {
    std::vector<std::string> local = loop::LocalEgressFlags(options);
    if (flags.builtin) local.insert(local.begin(), "--builtin");
    if (!local.empty()) {
      std::fprintf(stderr,
                   "tracespec: error: --gateway excludes %s: the gateway's own endpoint, egress "
                   "policy, audit log, key and dry run apply\n",
                   absl::StrJoin(local, ", ").c_str());
      return kExitUsage;
    }
  }
  if (!options.llm_url.empty() && options.refine.model.empty()) {
    std::fprintf(stderr, "tracespec: error: --llm needs --model NAME\n");
    return kExitUsage;
  }
  if (options.api_key_env.empty() && std::getenv("TRACESPEC_API_KEY") != nullptr) {
    options.api_key_env = "TRACESPEC_API_KEY";
  }
  options.refine.progress = [](absl::string_view line) { Info(line); };
  // Connected before anything is written: no server, no run directory.
  absl::StatusOr<check::ValidatorFactory> make_validator = ValidatorFactoryFor(flags.validators);
  if (!make_validator.ok()) return ReportError(make_validator.status());
  options.make_validator = *std::move(make_validator);
  // Reached before anything is written: no gateway, no run directory.
  absl::StatusOr<gateway::GatewayClientFactory> make_gateway_client =
      GatewayFactoryFor(options.gateway, flags.gateway_tls);
  if (!make_gateway_client.ok()) return ReportError(make_gateway_client.status());
  options.make_gateway_client = *std::move(make_gateway_client);
  StopOnSignals();
  absl::StatusOr<loop::InferRun> run = loop::RunInfer(options);
  if (!run.ok()) return ReportError(run.status());
  if (flags.json) {
    std::printf("%s\n", ToJsonLine(run->summary).c_str());
  } else {
    std::fputs(run->text.c_str(), stdout);
  }
  std::fflush(stdout);
  if (!run->stopped.ok()) {
    std::fprintf(stderr, "tracespec: error: %s\n", std::string(run->stopped.message()).c_str());
    switch (run->stopped.code()) {
      case absl::StatusCode::kInvalidArgument:
      case absl::StatusCode::kNotFound:
      case absl::StatusCode::kFailedPrecondition:
      case absl::StatusCode::kUnimplemented:
        return kExitInputError;
      default:
        return kExitEnvironment;
    }
  }
  if (run->dry_run) return kExitOk;
  // A method whose contract was refuted outweighs one left undecided.
  int exit_code = kExitOk;
  for (const v1::InferResult& r : run->summary.results()) {
    if (r.status() == v1::INFER_UNKNOWN) {
      exit_code = kExitUnknown;
    } else if (r.status() != v1::INFER_SUCCESS) {
      return kExitCheckFailed;
    }
  }
  return exit_code;
}

}  // namespace

void AddInferCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<InferFlags>();
  loop::InferOptions& o = flags->options;
  CLI::App* cmd = app.add_subcommand(
      "infer",
      "Infer a JML contract per method by counterexample-guided refinement: a model (the "
      "built-in synthesizer, or a chat-completions endpoint behind the audited egress gate) "
      "proposes a contract from the tests and the observations, the validator checks it "
      "(consistency with the bytecode, then coverage of the observations), and its "
      "counterexamples go back to the model, for at most --rounds rounds. A coverage verdict "
      "that changes when the texts the prompt shows only by shape (strings, char[], "
      "builders, text-like byte[] and ByteBuffers, UUIDs, big numbers, IP addresses) are "
      "replaced by "
      "same-shape substitutes is not fed back: the feedback says only that it depends on "
      "withheld data (README, \"What observations and prompts may carry\")");
  AddClassPathOption(cmd, &o.classpath, "Directories and jars of the code under analysis");
  cmd->add_option("--method", o.methods,
                  "Method to infer: pkg.Class#name, pkg.Class#name(JVM descriptor) or "
                  "pkg.Class#name(Java parameter types, e.g. int[], String); or a pattern as "
                  "`observe --method` takes it ('vault.Vault#*', 'pkg.*#get*'; * any "
                  "characters, ? one), standing for every observed method it selects "
                  "(constructors only by name); repeatable")
      ->required();
  cmd->add_option("--observations", o.observations,
                  "Output directory of `tracespec observe` (or an observations .pb/.jsonl file)")
      ->required();
  cmd->add_option("--tests-src", o.tests_src,
                  "Root of the test sources: the source of the tests that called the method "
                  "goes into the prompt (never the implementation's)");
  cmd->add_option("--test-classpath", o.test_classpath,
                  "Class path of the compiled tests (default: --classpath). With --llm, the "
                  "string constants javac compiled into the test classes whose sources go "
                  "into the prompt are scanned by the secret rules as well: a secret spelt "
                  "with escapes or built from constants in the source is found as javac "
                  "folded it");
  cmd->add_flag("--builtin", flags->builtin,
                "Use the built-in synthesizer (the default): nothing leaves the process");
  cmd->add_option("--llm", o.llm_url,
                  "Base URL of an OpenAI-compatible chat-completions endpoint, e.g. "
                  "http://127.0.0.1:8000/v1");
  cmd->add_option("--gateway", o.gateway,
                  "Address (HOST:PORT) of a `tracespec serve gateway`: the requests go through "
                  "its egress gate, to its endpoint, into its audit log, signed with its key; "
                  "this run sends the gateway only its protected material (the redaction "
                  "policy, the observations, the --impl-src texts) and the prompts, and holds "
                  "no key. Excludes --llm, --egress-policy, --audit-log, --audit-key and "
                  "--dry-run (the gateway's own apply). Plaintext unless --gateway-ca is "
                  "given. No gateway reachable: exit 4");
  AddGatewayTlsOptions(cmd, &flags->gateway_tls);
  cmd->add_option("--model", o.refine.model,
                  "Model name for --llm (required with it); with --gateway, default: the "
                  "gateway's");
  cmd->add_option("--api-key-env", o.api_key_env,
                  "Environment variable holding the API key for --llm (default: "
                  "TRACESPEC_API_KEY when set, else no key); the key is never logged");
  cmd->add_option("--rounds", o.refine.rounds,
                  WithDefault("Refinement rounds at most", o.refine.rounds))
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--out", o.out_dir,
                  WithDefault("Run directory", o.out_dir,
                              "; re-running with the same --out continues after the last "
                              "completed round"));
  cmd->add_option("--egress-policy", o.egress_policy,
                  "Egress policy for --llm (required with it), e.g. policies/egress.textproto");
  cmd->add_option("--audit-log", o.audit_log,
                  "Hash-chained audit log of every send (default OUT/audit.jsonl)");
  cmd->add_option("--audit-key", o.audit_key,
                  "Ed25519 private key (PEM) that signs the audit log's checkpoints and seal, "
                  "created on first use (mode 0600); must lie outside OUT (default: "
                  "$TRACESPEC_AUDIT_KEY, else $XDG_CONFIG_HOME/tracespec/audit-key.pem, else "
                  "~/.config/tracespec/audit-key.pem)");
  cmd->add_option("--impl-src", o.implementation_sources,
                  "Implementation sources (files or directories): their fingerprints block "
                  "any request that copies them; repeatable");
  cmd->add_option("--redaction-policy", o.redaction_policy,
                  "Redaction policy the observations were recorded under (default: the one "
                  "OBSERVATIONS/summary.json names)");
  cmd->add_flag("--dry-run", o.dry_run,
                "With --llm: write the exact request bodies to OUT/<method>/dry-run/ and "
                "send nothing");
  cmd->add_flag("--anonymize", o.anonymize,
                "With --llm: rename classes, methods, fields, parameters and tests before "
                "sending; answers are mapped back");
  cmd->add_option("--llm-timeout", o.llm_timeout_seconds,
                  WithDefault("Seconds one HTTP attempt may take", o.llm_timeout_seconds))
      ->check(PositiveSeconds());
  cmd->add_option("--llm-attempts", o.llm_attempts,
                  WithDefault("HTTP attempts per request, retries included", o.llm_attempts))
      ->check(CLI::Range(1, 100));
  AddUnwindOption(cmd, &o.refine.unwind, "Loop bound k of the consistency check");
  AddMaxArrayOption(cmd, &o.refine.max_array,
                    "Bound L on input array lengths in the consistency check");
  cmd->add_option("--check-timeout", o.refine.validation_timeout_seconds,
                  WithDefault("Seconds one validation may take",
                              o.refine.validation_timeout_seconds))
      ->check(PositiveSeconds());
  AddValidatorsOptions(cmd, &flags->validators);
  AddJsonFlag(cmd, &flags->json, "Print the summary as one JSON document");
  cmd->footer(
      "Output: per method `pkg.C#m: Success 11 (rounds: 01,11)` — Success (a candidate "
      "passed consistency and coverage), Fail (rounds exhausted, the final contract failed a check), "
      "Unknown (rounds exhausted, the final contract neither passed nor refuted: the reason "
      "names the undecided check, e.g. a call the validator does not model), Error (no "
      "candidate ever parsed and type-checked) or Stopped (endpoint unreachable, timeout, invalid answer, "
      "blocked request, no observations: re-run to continue) — with the history of rounds "
      "in the paper's notation (consistency bit, coverage bit) and the contract's .jml file; "
      "after a Success the contract's strength (`pins \\result on 17/17 observations, "
      "rejects 96% of perturbed outcomes`, `weak` when pinned on fewer than half; see "
      "`tracespec strength`). "
      "Progress goes to stderr; every prompt, answer, candidate and report is kept under "
      "OUT/<method>/round-N/.\n" +
      ExitStatusFooter(
          {{kExitOk, "every method Success, or a dry run that wrote its requests"},
           {kExitUsage,
            "unknown flag, conflicting flags, a bound, round count or time limit out of range"},
           {kExitInputError,
            "unknown class or method, no observations, malformed policy or observations, "
            "missing path, a bad PEM file of --validators-ca, --validators-cert or "
            "--validators-key, or of --gateway-ca, --gateway-cert or --gateway-key"},
           {kExitEnvironment,
            "endpoint or gateway unreachable (a failed TLS handshake too), timeout, answer not "
            "a chat completion, request blocked by the egress gate, I/O"},
           {kExitCheckFailed, "some method Fail or Error"},
           {kExitUnknown, "some method Unknown (its final contract undecided), none Fail or Error"},
           {kExitInterrupted,
            "Ctrl-C or SIGTERM: the running method's unfinished round is not recorded, "
            "finished methods are kept, a re-run continues; a second signal ends at once"}}));
  cmd->callback([flags, exit_code] { *exit_code = Run(*flags); });
}

}  // namespace tracespec::cli

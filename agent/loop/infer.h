// `tracespec infer` as one library call: for each method, load its inputs,
// build the client (the built-in synthesizer, or the audited remote stack of
// agent/gateway), run the refinement loop (refine.h) into OUT/<method>/, and
// write OUT/summary.txt and OUT/summary.json.
#ifndef TRACESPEC_AGENT_LOOP_INFER_H_
#define TRACESPEC_AGENT_LOOP_INFER_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "agent/gateway/gateway.h"
#include "agent/loop/refine.h"
#include "tracespec/v1/infer.pb.h"
#include "tracespec/v1/observation.pb.h"
#include "validator/check/validator.h"
#include "validator/classfile/class_path.h"

namespace tracespec::loop {

struct InferOptions;

// What every method of a run reads, opened and read once: the class path
// (also the built-in synthesizer's type environment), the observations and,
// with a remote model, the compiled tests' class path and classes (whose
// string constants the gate scans). `tracespec run` opens one and its
// workers share it; RunInfer opens its own when not given one.
struct InferWorld {
  // Opens `options.classpath` and `options.test_classpath` and reads
  // `options.observations`, or takes `observations` when given (read
  // already by the caller). Bad input is a status naming it.
  static absl::StatusOr<std::unique_ptr<InferWorld>> Open(
      const InferOptions& options, std::optional<std::vector<v1::Observation>> observations = {});

  classfile::ClassPath class_path;  // Load may be called from any thread
  std::vector<v1::Observation> observations;
  // Remote models only: the compiled tests' class path (null: class_path)
  // and its classes.
  classfile::ClassPath* test_path() { return own_test_path ? &*own_test_path : &class_path; }
  std::optional<classfile::ClassPath> own_test_path;
  std::vector<std::string> test_classes;
};

struct InferOptions {
  std::string classpath;
  // "pkg.C#m" or "pkg.C#m(descriptor)", at least one.
  std::vector<std::string> methods;
  // A `tracespec observe` output directory (observations.pb, summary.json)
  // or an observations file (.pb / .jsonl).
  std::string observations;
  // Root of the test sources (pkg/T.java); optional.
  std::string tests_src;
  // Class path of the compiled tests ("" = `classpath`): with a remote
  // model, the string constants javac compiled into the test classes whose
  // sources may be sent are scanned for secrets by the gate.
  std::string test_classpath;
  // Each method's refinement loop: rounds, the model name (also the remote
  // endpoint's), validation bounds and the progress callback (which also
  // gets infer's own lines). `refine.prompt.anonymize` is set from
  // `anonymize` below.
  RefineOptions refine;
  // Remote model: chat-completions base URL; empty = the built-in
  // synthesizer.
  std::string llm_url;
  // Environment variable holding the API key ("" = none).
  std::string api_key_env;
  // Remote model through `tracespec serve gateway` at this address instead
  // of llm_url: the endpoint, the egress policy, the audit log and its key
  // and the dry run are the gateway's, so llm_url, egress_policy,
  // audit_log, audit_key and dry_run must be unset. The client comes from
  // make_gateway_client (required with it), given each method's
  // GatewayConfig with the protected material filled in.
  std::string gateway;
  gateway::GatewayClientFactory make_gateway_client;
  // Remote model only (llm_url): the egress policy (required), the audit log (default
  // OUT/audit.jsonl), implementation sources to fingerprint, the redaction
  // policy the observations were recorded under ("" = the one
  // summary.json names, else the built-in default).
  std::string egress_policy;
  std::string audit_log;
  // The key that signs the audit log ("" = gateway::DefaultAuditKeyPath());
  // must lie outside out_dir.
  std::string audit_key;
  std::vector<std::string> implementation_sources;
  std::string redaction_policy;
  // llm_url only: write the request bodies to OUT/<method>/dry-run/ and
  // send nothing. Remote model only: anonymize the prompts.
  bool dry_run = false;
  bool anonymize = false;
  // Whether this run writes OUT/summary.json and summary.txt (merged with
  // what OUT holds). False when the caller owns them: `tracespec run`, whose
  // workers each infer one method into the same OUT, writes them once from
  // every method's result.json, so no two threads read-modify-write them.
  bool write_summary = true;
  double llm_timeout_seconds = 120;
  int llm_attempts = 4;
  std::string out_dir = "tracespec-infer";
  // The validator the rounds check their candidates with (and that
  // measures their strength), made for `classpath`; unset: in process.
  check::ValidatorFactory make_validator;
  // Set by a caller that infers many methods one RunInfer call at a time,
  // from several threads (`tracespec run`): the world they share (see
  // InferWorld), and this thread's validator (borrowed; make_validator is
  // then not called). Unset: RunInfer opens its own.
  InferWorld* world = nullptr;
  check::Validator* validator = nullptr;
};

struct InferRun {
  // This run's methods, in the order given. OUT/summary.json and
  // summary.txt hold more: every method of every run into OUT, the latest
  // result of each, sorted by method (a re-run on some methods leaves the
  // others' results in place).
  v1::InferSummary summary;
  // For each of summary.results: its method's last completed round (see
  // RefineOutcome::last_round).
  std::vector<std::optional<v1::InferRound>> last_rounds;
  // This run's part of summary.txt: one line per method
  // ("bank.Account#deposit: Success 11 (rounds: 01,11)") and the contract's
  // path.
  std::string text;
  // The first method that stopped, with its error (its code tells bad input
  // from environment); OK when none did.
  absl::Status stopped;
  bool dry_run = false;
};

// The flags of a gate built in process that `options` sets ("--llm",
// "--egress-policy", "--audit-log", "--audit-key", "--dry-run"): with
// --gateway there must be none.
std::vector<std::string> LocalEgressFlags(const InferOptions& options);

// Errors that prevent any method from starting (bad flags, unreadable
// observations, broken egress policy, unusable audit log, unknown class
// path) are returned as a status after summary.json/summary.txt record them
// (when OUT can be written). Per-method problems are in the summary.
absl::StatusOr<InferRun> RunInfer(const InferOptions& options);

// The validator's strength measurement as recorded in InferResult/MethodRun.
v1::Strength StrengthProto(const check::StrengthResult& strength);

// "Success 11" followed by " — <strength summary>" when measured.
std::string WithStrength(std::string line, const v1::Strength& strength);

// One line per method, and its contract file under `out_dir`.
std::string FormatSummaryText(const v1::InferSummary& summary, const std::string& out_dir);

}  // namespace tracespec::loop

#endif  // TRACESPEC_AGENT_LOOP_INFER_H_

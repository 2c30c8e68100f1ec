// `tracespec infer` as one library call: for each method, load its inputs,
// build the client (the built-in synthesizer, or the audited remote stack of
// agent/gateway), run the refinement loop (refine.h) into OUT/<method>/, and
// write OUT/summary.txt and OUT/summary.json.
#ifndef TRACESPEC_AGENT_LOOP_INFER_H_
#define TRACESPEC_AGENT_LOOP_INFER_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tracespec/v1/infer.pb.h"

namespace tracespec::loop {

struct InferOptions {
  std::string classpath;
  // "pkg.C#m" or "pkg.C#m(descriptor)", at least one.
  std::vector<std::string> methods;
  // A `tracespec observe` output directory (observations.pb, summary.json)
  // or an observations file (.pb / .jsonl).
  std::string observations;
  // Root of the test sources (pkg/T.java); optional.
  std::string tests_src;
  // Remote model: chat-completions base URL and model; empty URL = the
  // built-in synthesizer.
  std::string llm_url;
  std::string model;
  // Environment variable holding the API key ("" = none).
  std::string api_key_env;
  // Remote model only: the egress policy (required), the audit log (default
  // OUT/audit.jsonl), implementation sources to fingerprint, the redaction
  // policy the observations were recorded under ("" = the one
  // summary.json names, else the built-in default).
  std::string egress_policy;
  std::string audit_log;
  std::vector<std::string> implementation_sources;
  std::string redaction_policy;
  // Write the request bodies to OUT/<method>/dry-run/ and send nothing.
  bool dry_run = false;
  bool anonymize = false;
  double llm_timeout_seconds = 120;
  int llm_attempts = 4;
  int rounds = 3;
  std::string out_dir = "tracespec-infer";
  int unwind = 4;
  int max_array = 4;
  double validation_timeout_seconds = 60;
  std::function<void(absl::string_view)> progress;
};

struct InferRun {
  v1::InferSummary summary;
  // summary.txt: one line per method ("bank.Account#deposit: Success 11
  // (rounds: 01,11)") and the contract's path.
  std::string text;
  // The first method that stopped, with its error (its code tells bad input
  // from environment); OK when none did.
  absl::Status stopped;
  bool dry_run = false;
};

// Errors that prevent any method from starting (bad flags, unreadable
// observations, broken egress policy, unusable audit log, unknown class
// path) are returned as a status after summary.json/summary.txt record them
// (when OUT can be written). Per-method problems are in the summary.
absl::StatusOr<InferRun> RunInfer(const InferOptions& options);

// One line per method, and its contract file under `out_dir`.
std::string FormatSummaryText(const v1::InferSummary& summary, const std::string& out_dir);

}  // namespace tracespec::loop

#endif  // TRACESPEC_AGENT_LOOP_INFER_H_

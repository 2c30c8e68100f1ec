// Counterexample-guided refinement of one method's contract (the paper's
// loop): round r sends the prompt (round 1: the tests and the
// observations; later rounds: the previous answer and the validator's
// feedback), reads the answer's JML, pre-checks and repairs it
// (repair.h), validates it (consistency, then coverage) and stops at "11"
// or after N rounds. The client is any LlmClient: the audited remote stack
// or the built-in synthesizer — the loop cannot tell them apart.
//
// Everything goes into the method's run directory (run_dir.h), each file
// atomically; a re-run continues after the last completed round.
#ifndef TRACESPEC_AGENT_LOOP_REFINE_H_
#define TRACESPEC_AGENT_LOOP_REFINE_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "agent/gateway/llm_client.h"
#include "agent/loop/method_inputs.h"
#include "agent/prompt/prompt_builder.h"
#include "tracespec/v1/infer.pb.h"
#include "validator/check/validator.h"

namespace tracespec::loop {

struct RefineOptions {
  // At most this many completed rounds (the paper's N = 3).
  int rounds = 3;
  prompt::PromptOptions prompt;
  // Model name in requests; "" = the client's configured model.
  std::string model;
  // Validation bounds (see check::ValidateRequest).
  int unwind = 4;
  int max_array = 4;
  double validation_timeout_seconds = 60;
  // Invariants of the method's class proved by `tracespec run`
  // (check::ValidateRequest::class_invariants): every validation assumes
  // them, so no contract needs cases for states no object can reach.
  std::vector<std::string> class_invariants;
  // One line per event ("bank.Account#deposit round 1: 01 ..."); may be empty.
  std::function<void(absl::string_view)> progress;
  // Values masked in the feedback (see MaskConstants): set for a remote
  // model, empty for the built-in synthesizer (nothing leaves).
  std::vector<v1::Value> withheld_constants;
};

struct RefineOutcome {
  v1::InferResult result;
  // The last completed round, as its round.json holds it (none when no
  // round completed), and the contract file result.contract_file names, as
  // written: callers use these instead of reading the files back.
  std::optional<v1::InferRound> last_round;
  std::string contract_file_text;
  // Why the method stopped (status INFER_STOPPED): the exchange's or the
  // validator's error. OK otherwise, and for a dry run.
  absl::Status stop;
  bool dry_run = false;
};

// Refines the contract of `inputs`' method in `method_dir` (created if
// missing; its earlier rounds are resumed). `contract_root` is the directory
// result.contract_file is relative to. A status error means the run
// directory could not be read or written.
absl::StatusOr<RefineOutcome> RefineMethod(const MethodInputs& inputs, gateway::LlmClient* client,
                                           check::Validator* validator,
                                           const std::string& method_dir,
                                           const std::string& contract_root,
                                           const RefineOptions& options);

// The final contract as a .jml file for the method's class: its package, the
// class declaration and the method's declaration with the contract in front
// (for a nested or non-public class: the bare specification). Returns the
// file's name and content.
struct ContractFile {
  std::string name;
  std::string content;
};
ContractFile RenderContractFile(const MethodInputs& inputs, const v1::InferResult& result);

// A contract's annotation lines, and `signature` marked with what the
// contract's own declaration says (`/*@ nullable @*/` parameters and
// result; jml::SplitSpecTextDeclaration), for files that write the
// method's declaration themselves.
struct DeclaredContract {
  std::string annotations;
  prompt::MethodSignature signature;
};
DeclaredContract SplitContractDeclaration(const std::string& contract,
                                          prompt::MethodSignature signature);

}  // namespace tracespec::loop

#endif  // TRACESPEC_AGENT_LOOP_REFINE_H_

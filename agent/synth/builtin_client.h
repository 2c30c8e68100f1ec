// The built-in synthesizer behind the LlmClient interface, so the
// refinement loop drives it exactly like a remote model: same Complete()
// calls, same structured answer ({"contract": ..., "hypotheses": [...]},
// read with prompt::ParseAnswer). Nothing leaves the process: Destination()
// and EncodeRequest() are empty.
//
// It reads the structured inputs the loop attaches to each request
// (LlmRequest::local: the PromptInputs and the validator's feedback so far),
// not the chat messages; counterexamples in the feedback join the
// observations and prune what they refute. With an oracle it runs Houdini
// pruning inside one Complete() call. Use it without anonymisation: it
// answers with the real names.
#ifndef TRACESPEC_AGENT_SYNTH_BUILTIN_CLIENT_H_
#define TRACESPEC_AGENT_SYNTH_BUILTIN_CLIENT_H_

#include <optional>
#include <string>

#include "agent/gateway/llm_client.h"
#include "agent/synth/oracle.h"
#include "agent/synth/synthesizer.h"

namespace tracespec::synth {

class BuiltinSynthesizer : public gateway::LlmClient {
 public:
  // The model name its answers carry.
  static constexpr char kModelName[] = "tracespec-builtin";

  // `oracle` and `classpath` may be null and must outlive the client.
  explicit BuiltinSynthesizer(SynthesisOptions options = {}, ConsistencyOracle* oracle = nullptr,
                              const jml::TypeEnvironment* classpath = nullptr);

  // Synthesizes from request.local. A request without it is a
  // FailedPrecondition error (the synthesizer does not read prose).
  absl::StatusOr<gateway::LlmResponse> Complete(const gateway::LlmRequest& request) override;
  std::string Destination() const override { return ""; }
  absl::StatusOr<std::string> EncodeRequest(const gateway::LlmRequest& request) const override {
    return std::string();
  }

  // The result behind the last answer (clauses, supports, statistics).
  const std::optional<SynthesisResult>& last_result() const { return last_; }

 private:
  SynthesisOptions options_;
  ConsistencyOracle* oracle_;
  const jml::TypeEnvironment* classpath_;
  std::optional<SynthesisResult> last_;
};

}  // namespace tracespec::synth

#endif  // TRACESPEC_AGENT_SYNTH_BUILTIN_CLIENT_H_

// The built-in synthesizer as an LlmClient; see builtin_client.h.
#include "agent/synth/builtin_client.h"

#include "absl/time/clock.h"

namespace tracespec::synth {

BuiltinSynthesizer::BuiltinSynthesizer(SynthesisOptions options, ConsistencyOracle* oracle,
                                       const jml::TypeEnvironment* classpath)
    : options_(options), oracle_(oracle), classpath_(classpath) {}

absl::StatusOr<gateway::LlmResponse> BuiltinSynthesizer::Complete(
    const gateway::LlmRequest& request) {
  if (request.local == nullptr || request.local->inputs == nullptr) {
    return absl::FailedPreconditionError(
        "the built-in synthesizer needs the structured prompt inputs (LlmRequest::local); it "
        "does not read chat messages");
  }
  absl::Time start = absl::Now();
  const prompt::PromptInputs& inputs = *request.local->inputs;
  SynthesisInput in;
  in.signature = inputs.signature;
  in.observations = inputs.observations;
  for (const prompt::ValidationFeedback& f : request.local->feedback) {
    in.counterexamples.insert(in.counterexamples.end(), f.counterexamples.begin(),
                              f.counterexamples.end());
  }
  in.classpath = classpath_;
  absl::StatusOr<SynthesisResult> result = Synthesize(in, options_, oracle_);
  if (!result.ok()) return result.status();
  gateway::LlmResponse response;
  response.text = AnswerJson(*result);
  response.model = kModelName;
  response.finish_reason = "stop";
  response.latency = absl::Now() - start;
  last_ = *std::move(result);
  return response;
}

}  // namespace tracespec::synth

// Builds the messages that ask a model for a method's JML contract, in the
// paper's two stages (infer from the tests, then refine with the
// observations) plus feedback rounds, and reads the answers back.
//
// A conversation, as the refinement loop drives it:
//   messages = builder.Stage1Messages();          // rules, signature, tests
//   answer1  = client.Complete(messages)          // initial contract
//   messages += {AssistantMessage(answer1), builder.Stage2Message()}
//   answer2  = client.Complete(messages)          // refined with observations
//   candidate = builder.ReadAnswer(answer2)       // names mapped back
//   on failed validation:
//   messages += {AssistantMessage(answer2), builder.FeedbackMessage(fb)}
// SingleRequestMessages() asks for both stages in one request instead.
#ifndef TRACESPEC_AGENT_PROMPT_PROMPT_BUILDER_H_
#define TRACESPEC_AGENT_PROMPT_PROMPT_BUILDER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "agent/prompt/anonymizer.h"
#include "agent/prompt/answer.h"
#include "agent/prompt/chat.h"
#include "agent/prompt/disclosure.h"
#include "agent/prompt/inputs.h"

namespace tracespec::prompt {

struct PromptOptions {
  // Estimated tokens (EstimateTokens) the observation list may take; more
  // observations are summarised (see SummarizeObservations).
  int observation_token_budget = 3000;
  // The same for the counterexamples of one feedback message.
  int counterexample_token_budget = 1500;
  // Rename the code's identifiers before they go into any message (see
  // anonymizer.h); ReadAnswer maps them back.
  bool anonymize = false;
  // Which recorded strings the messages show as they are (see
  // disclosure.h); infer sets the redaction policy's setting for a remote
  // model. ALL here: the built-in synthesizer, where nothing leaves.
  v1::StringDisclosure string_disclosure = v1::ALL;
};

// What went into the prompt, for the run's report.
struct PromptStats {
  int tests_given = 0;
  int tests_left_out = 0;  // sources of excluded tests
  int observations_given = 0;
  int observations_left_out = 0;  // excluded, or from an excluded test
  int observations_distinct = 0;
  int observations_shown = 0;  // distinct behaviours in Stage2Message
};

class PromptBuilder {
 public:
  // Leaves out excluded observations, every observation and test source of
  // a test that has an excluded observation (a source named "pkg.T" goes when
  // any of its tests is excluded), and anonymises when asked. An error when
  // the signature lacks a class or method name.
  static absl::StatusOr<PromptBuilder> Create(PromptInputs inputs, PromptOptions options = {});

  // The system message (task and rules, answer format) and stage 1: the
  // signature and the tests' source.
  std::vector<ChatMessage> Stage1Messages() const;
  // Stage 2: the observations, to follow the model's stage-1 answer.
  ChatMessage Stage2Message() const;
  // Both stages in one user message after the system message.
  std::vector<ChatMessage> SingleRequestMessages() const;
  // A later round: the validator's diagnostics and counterexamples (excluded
  // ones withheld), to follow the model's previous answer.
  ChatMessage FeedbackMessage(const ValidationFeedback& feedback) const;
  // The model's answer as the next assistant message (sent back verbatim).
  static ChatMessage AssistantMessage(std::string answer_text);

  // The structured answer's schema, for the request's response_format.
  static ResponseSchema AnswerSchema() { return ContractAnswerSchema(); }

  // Parses an answer (see ParseAnswer) and maps anonymised names back.
  absl::StatusOr<ContractAnswer> ReadAnswer(absl::string_view answer_text) const;

  // Whether the messages leave `observation` out (excluded, or of a test
  // with an excluded observation).
  bool LeftOut(const v1::Observation& observation) const;
  // Whether the messages show `text`, a recorded string (or char[]
  // contents) of an observation they include, only by shape: the
  // disclosure's rule (disclosure.h) on the text as sent (anonymised when
  // anonymising). `by_shape` as for StringDisclosure::String.
  bool HidesText(const std::string& text, bool by_shape) const;

  // Non-null when anonymising; its map never goes into a message.
  const Anonymizer* anonymizer() const { return anonymizer_.get(); }
  const PromptStats& stats() const { return stats_; }

  // Every fixed text of the prompts (system text, instructions, notation):
  // the egress gate checks hidden names only outside their occurrences, so a
  // method named `add` is not blocked for the template's own "add".
  static std::vector<std::string> TemplateTexts();

 private:
  PromptBuilder() = default;
  std::string SystemText() const;
  std::string Stage1Text() const;
  std::string Stage2Text() const;

  PromptOptions options_;
  // The evidence is behaviour captured from a running program (every
  // observation has an entry point and no test): the texts say so.
  bool captured_ = false;
  // The inputs as sent: filtered and, when anonymising, renamed.
  MethodSignature signature_;
  std::vector<TestSource> tests_;
  std::vector<v1::Observation> observations_;
  std::vector<std::string> excluded_tests_;
  std::string observations_text_;
  std::shared_ptr<const Anonymizer> anonymizer_;
  // Shared by every message, so that aliases stay stable across rounds.
  std::shared_ptr<StringDisclosure> disclosure_;
  PromptStats stats_;
};

}  // namespace tracespec::prompt

#endif  // TRACESPEC_AGENT_PROMPT_PROMPT_BUILDER_H_

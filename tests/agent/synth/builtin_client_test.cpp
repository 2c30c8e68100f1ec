// Tests for agent/synth/builtin_client.h: the built-in synthesizer behind
// the LlmClient interface answers in the structured schema the prompt asks
// remote models for, reads the structured inputs and the feedback's
// counterexamples, and sends nothing anywhere.
#include "agent/synth/builtin_client.h"

#include "agent/prompt/answer.h"
#include "agent/prompt/prompt_builder.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/agent/synth/synth_testing.h"
#include "tests/agent/synth/tasks.h"

namespace tracespec::synth {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::shared_ptr<prompt::PromptInputs> MaxInputs() {
  auto inputs = std::make_shared<prompt::PromptInputs>();
  auto sig = prompt::SignatureFromDescriptor("m.MathUtil", "max", "(II)I", true, {"a", "b"});
  EXPECT_TRUE(sig.ok());
  inputs->signature = *sig;
  inputs->tests.push_back({"m.MathUtilTest#max", "assertEquals(5, MathUtil.max(5, 3));"});
  inputs->observations = {testing::MaxCall(5, 3), testing::MaxCall(4, 4),
                          testing::MaxCall(9, -1)};
  return inputs;
}

// The request a refinement loop sends: prompt messages plus the local inputs.
gateway::LlmRequest Request(std::shared_ptr<prompt::PromptInputs> inputs,
                            std::vector<prompt::ValidationFeedback> feedback = {}) {
  auto builder = prompt::PromptBuilder::Create(*inputs);
  EXPECT_TRUE(builder.ok());
  gateway::LlmRequest r;
  r.messages = builder->SingleRequestMessages();
  r.response_schema = prompt::PromptBuilder::AnswerSchema();
  auto local = std::make_shared<gateway::LocalInputs>();
  local->inputs = std::move(inputs);
  local->feedback = std::move(feedback);
  r.local = std::move(local);
  return r;
}

TEST(BuiltinSynthesizerTest, NothingLeavesTheProcess) {
  BuiltinSynthesizer client;
  EXPECT_EQ(client.Destination(), "");
  auto body = client.EncodeRequest(Request(MaxInputs()));
  ASSERT_TRUE(body.ok());
  EXPECT_EQ(*body, "");
}

TEST(BuiltinSynthesizerTest, AnswersInTheStructuredSchema) {
  BuiltinSynthesizer client;
  auto response = client.Complete(Request(MaxInputs()));
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->model, BuiltinSynthesizer::kModelName);
  EXPECT_EQ(response->finish_reason, "stop");
  EXPECT_EQ(response->http_status, 0);
  EXPECT_EQ(response->raw_body, "");
  auto answer = prompt::ParseAnswer(response->text);
  ASSERT_TRUE(answer.ok()) << answer.status() << response->text;
  EXPECT_EQ(answer->format, prompt::AnswerFormat::kJson);
  EXPECT_THAT(answer->jml, HasSubstr("//@   ensures \\result == a;"));
  ASSERT_TRUE(client.last_result().has_value());
  EXPECT_EQ(client.last_result()->jml, answer->jml + "\n");
  // The same request gives the same bytes.
  auto again = client.Complete(Request(MaxInputs()));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->text, response->text);
}

TEST(BuiltinSynthesizerTest, FeedbackCounterexamplesRefineTheNextAnswer) {
  BuiltinSynthesizer client;
  prompt::ValidationFeedback round1;
  round1.diagnostics.push_back("consistency: ensures \\result == a; fails");
  v1::Observation cex = testing::MaxCall(1, 2);
  cex.set_source(v1::COUNTEREXAMPLE);
  round1.counterexamples.push_back(cex);
  auto response = client.Complete(Request(MaxInputs(), {round1}));
  ASSERT_TRUE(response.ok()) << response.status();
  auto answer = prompt::ParseAnswer(response->text);
  ASSERT_TRUE(answer.ok());
  EXPECT_THAT(answer->jml, Not(HasSubstr("ensures \\result == a;")));
  EXPECT_THAT(answer->jml, HasSubstr("ensures \\result == (a <= b ? b : a);"));
}

TEST(BuiltinSynthesizerTest, RunsHoudiniWithAnOracle) {
  std::vector<v1::Observation> behaviours;
  for (int a = -2; a <= 2; ++a) {
    for (int b = -2; b <= 2; ++b) behaviours.push_back(testing::MaxCall(a, b));
  }
  testing::BehaviourOracle oracle(behaviours, false);
  BuiltinSynthesizer client({}, &oracle);
  auto response = client.Complete(Request(MaxInputs()));
  ASSERT_TRUE(response.ok()) << response.status();
  auto answer = prompt::ParseAnswer(response->text);
  ASSERT_TRUE(answer.ok());
  EXPECT_THAT(answer->jml, HasSubstr("ensures \\result == (a <= b ? b : a);"));
  EXPECT_EQ(client.last_result()->oracle_verdict, "PASS");
}

TEST(BuiltinSynthesizerTest, NeedsTheStructuredInputs) {
  BuiltinSynthesizer client;
  gateway::LlmRequest r = Request(MaxInputs());
  r.local = nullptr;
  auto response = client.Complete(r);
  EXPECT_EQ(response.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(response.status().message()), HasSubstr("LlmRequest::local"));
  auto empty = std::make_shared<prompt::PromptInputs>();
  empty->signature = MaxInputs()->signature;
  EXPECT_EQ(client.Complete(Request(empty)).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace tracespec::synth

// Tests for agent/gateway/openai_client.h and retrying_client.h against a
// real HTTP server on loopback (tests/agent/fake_llm_server.py).
#include "agent/gateway/openai_client.h"

#include <cstdlib>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "agent/gateway/errors.h"
#include "agent/gateway/retrying_client.h"
#include "gtest/gtest.h"
#include "tests/agent/fake_llm_server.h"

namespace tracespec::gateway {
namespace {

using testing::ContentEntry;
using testing::FakeLlmServer;

constexpr char kKeyVariable[] = "TRACESPEC_TEST_LLM_KEY";
constexpr char kKey[] = "test-credential-value-0123456789";

LlmRequest Request() {
  LlmRequest r;
  r.messages = {{prompt::Role::kSystem, "Write JML."}, {prompt::Role::kUser, "int f(int x)"}};
  r.response_schema = prompt::ResponseSchema{"jml_contract", R"({"type":"object"})"};
  r.temperature = 0.0;
  r.seed = 7;
  r.label = "label stays local";
  return r;
}

std::unique_ptr<OpenAiCompatibleClient> Client(const std::string& base_url,
                                               absl::Duration timeout = absl::Seconds(10)) {
  setenv(kKeyVariable, kKey, 1);
  OpenAiClientOptions options;
  options.base_url = base_url;
  options.model = "test-model";
  options.api_key_env = kKeyVariable;
  options.total_timeout = timeout;
  options.connect_timeout = absl::Seconds(2);
  auto client = OpenAiCompatibleClient::Create(options);
  EXPECT_TRUE(client.ok()) << client.status();
  return *std::move(client);
}

RetryOptions FastRetries() {
  RetryOptions r;
  r.max_attempts = 3;
  r.initial_backoff = absl::Milliseconds(20);
  r.max_backoff = absl::Milliseconds(100);
  r.deadline = absl::Seconds(20);
  return r;
}

TEST(OpenAiClientTest, SendsTheEncodedRequestAndReadsTheAnswer) {
  FakeLlmServer server("{\"responses\":[" + ContentEntry("//@ ensures \\result == x;") + "]}");
  ASSERT_TRUE(server.running());
  auto client = Client(server.base_url());
  EXPECT_EQ(client->Destination(), server.base_url() + "/chat/completions");
  auto response = client->Complete(Request());
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->text, "//@ ensures \\result == x;");
  EXPECT_EQ(response->model, "test-model");
  EXPECT_EQ(response->finish_reason, "stop");
  EXPECT_EQ(response->usage.prompt_tokens, 11);
  EXPECT_EQ(response->usage.completion_tokens, 7);
  EXPECT_EQ(response->usage.total_tokens, 18);
  EXPECT_EQ(response->http_status, 200);
  EXPECT_EQ(response->attempts, 1);
  EXPECT_GT(response->latency, absl::ZeroDuration());
  EXPECT_TRUE(absl::StrContains(response->raw_body, "chat.completion"));

  auto received = server.Received();
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].path, "/v1/chat/completions");
  EXPECT_EQ(received[0].authorization, absl::StrCat("Bearer ", kKey));
  EXPECT_EQ(received[0].body, *client->EncodeRequest(Request()));
  EXPECT_EQ(received[0].body,
            "{\"model\":\"test-model\",\"messages\":[{\"role\":\"system\",\"content\":\"Write "
            "JML.\"},{\"role\":\"user\",\"content\":\"int f(int x)\"}],\"temperature\":0.0,"
            "\"seed\":7,\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":"
            "\"jml_contract\",\"strict\":true,\"schema\":{\"type\":\"object\"}}}}");
  EXPECT_FALSE(absl::StrContains(received[0].body, "label stays local"));
}

TEST(OpenAiClientTest, LocalInputsNeverChangeTheBytesSent) {
  // The structured inputs for in-process clients ride along in the request;
  // the remote client neither encodes nor sends them.
  FakeLlmServer server("{\"responses\":[" + ContentEntry("//@ ensures true;") + "]}");
  ASSERT_TRUE(server.running());
  auto client = Client(server.base_url());
  LlmRequest plain = Request();
  LlmRequest with_local = Request();
  auto local = std::make_shared<LocalInputs>();
  auto inputs = std::make_shared<prompt::PromptInputs>();
  inputs->signature.class_name = "zz.LocalOnlyClass";
  inputs->tests.push_back({"zz.LocalOnlyTest", "local-only-test-source"});
  v1::Observation o;
  o.set_test_id("zz.LocalOnlyTest#localOnlyMarker");
  inputs->observations.push_back(o);
  local->inputs = inputs;
  local->feedback.push_back({{"local-only-diagnostic"}, {o}});
  with_local.local = local;
  auto a = client->EncodeRequest(plain);
  auto b = client->EncodeRequest(with_local);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
  ASSERT_TRUE(client->Complete(with_local).ok());
  auto received = server.Received();
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].body, *a);
  for (const char* marker : {"LocalOnly", "local-only", "localOnlyMarker"}) {
    EXPECT_FALSE(absl::StrContains(received[0].body, marker)) << marker;
  }
}

TEST(OpenAiClientTest, SlowAnswerTimesOut) {
  FakeLlmServer server("{\"responses\":[" + ContentEntry("late", "\"delay\":3") + "]}");
  ASSERT_TRUE(server.running());
  auto client = Client(server.base_url(), absl::Milliseconds(400));
  absl::Time start = absl::Now();
  auto response = client->Complete(Request());
  EXPECT_LT(absl::Now() - start, absl::Seconds(2));
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_TRUE(absl::StrContains(response.status().message(), "no complete answer within 400ms"))
      << response.status();
  EXPECT_TRUE(IsRetryable(response.status()));
}

TEST(OpenAiClientTest, MalformedAnswersAreDataLossAndNotRetried) {
  FakeLlmServer server(R"({"responses":[{"status":200,"raw":"{\"choices\": [oops"}]})");
  ASSERT_TRUE(server.running());
  RetryingClient client(Client(server.base_url()), FastRetries());
  auto response = client.Complete(Request());
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(response.status().message(), "the answer is not JSON"))
      << response.status();
  EXPECT_TRUE(absl::StrContains(response.status().message(), "(after 1 attempt)"));
  EXPECT_EQ(server.Received().size(), 1u);
}

TEST(OpenAiClientTest, AnswerWithoutMessageIsAnError) {
  FakeLlmServer server(R"({"responses":[{"status":200,"body":{"choices":[]}}]})");
  ASSERT_TRUE(server.running());
  auto response = Client(server.base_url())->Complete(Request());
  ASSERT_FALSE(response.ok());
  EXPECT_TRUE(absl::StrContains(response.status().message(), "the answer has no choices"));
}

TEST(OpenAiClientTest, UnreachableEndpointIsAClearError) {
  int port = testing::UnusedLoopbackPort();
  auto client = Client(absl::StrCat("http://127.0.0.1:", port, "/v1"));
  auto response = client->Complete(Request());
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(absl::StrContains(
      response.status().message(),
      absl::StrCat("http://127.0.0.1:", port, "/v1/chat/completions: cannot connect")))
      << response.status();
  EXPECT_TRUE(ExchangeFailureOf(response.status()).transport);
}

TEST(OpenAiClientTest, HttpErrorsCarryTheServerMessageButNeverTheKey) {
  std::string echo = absl::StrCat("Incorrect API key provided: ", kKey);
  FakeLlmServer server(absl::StrCat(R"({"responses":[{"status":401,"body":{"error":{"message":")",
                                    echo, R"("}}}]})"));
  ASSERT_TRUE(server.running());
  auto response = Client(server.base_url())->Complete(Request());
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kUnauthenticated);
  EXPECT_TRUE(absl::StrContains(response.status().message(), "HTTP 401: Incorrect API key"))
      << response.status();
  EXPECT_FALSE(absl::StrContains(response.status().message(), kKey));
  EXPECT_TRUE(absl::StrContains(response.status().message(), "<api key>"));
  EXPECT_FALSE(IsRetryable(response.status()));
  EXPECT_EQ(ExchangeFailureOf(response.status()).http_status, 401);
}

TEST(OpenAiClientTest, MissingKeyVariableIsNamedNotShown) {
  unsetenv("TRACESPEC_TEST_UNSET_KEY");
  OpenAiClientOptions options;
  options.base_url = "http://127.0.0.1:1/v1";
  options.model = "m";
  options.api_key_env = "TRACESPEC_TEST_UNSET_KEY";
  auto client = OpenAiCompatibleClient::Create(options);
  ASSERT_FALSE(client.ok());
  EXPECT_TRUE(absl::StrContains(client.status().message(),
                                "environment variable TRACESPEC_TEST_UNSET_KEY (the API key) is "
                                "not set"));
  options.api_key_env.clear();
  options.base_url = "ftp://127.0.0.1/v1";
  EXPECT_FALSE(OpenAiCompatibleClient::Create(options).ok());
}

TEST(RetryingClientTest, ServerErrorThenSuccess) {
  FakeLlmServer server("{\"responses\":[{\"status\":500,\"body\":{\"error\":\"boom\"}}," +
                       ContentEntry("//@ ensures true;") + "]}");
  ASSERT_TRUE(server.running());
  RetryingClient client(Client(server.base_url()), FastRetries());
  auto response = client.Complete(Request());
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->attempts, 2);
  auto received = server.Received();
  ASSERT_EQ(received.size(), 2u);
  EXPECT_EQ(received[0].body, received[1].body);
}

TEST(RetryingClientTest, HonoursRetryAfter) {
  FakeLlmServer server(
      "{\"responses\":[{\"status\":429,\"headers\":{\"Retry-After\":\"1\"},\"body\":{\"error\":"
      "{\"message\":\"slow down\"}}}," +
      ContentEntry("ok") + "]}");
  ASSERT_TRUE(server.running());
  RetryingClient client(Client(server.base_url()), FastRetries());
  absl::Time start = absl::Now();
  auto response = client.Complete(Request());
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_GE(absl::Now() - start, absl::Seconds(1));
  EXPECT_EQ(response->attempts, 2);
  EXPECT_GE(response->latency, absl::Seconds(1));
}

TEST(RetryingClientTest, GivesUpAfterMaxAttempts) {
  FakeLlmServer server(R"({"responses":[{"status":503,"body":{"error":"busy"}}]})");
  ASSERT_TRUE(server.running());
  RetryingClient client(Client(server.base_url()), FastRetries());
  auto response = client.Complete(Request());
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(absl::StrContains(response.status().message(),
                                "HTTP 503: busy (after 3 attempts; "
                                "giving up)"))
      << response.status();
  EXPECT_EQ(server.Received().size(), 3u);
  EXPECT_EQ(ExchangeFailureOf(response.status()).http_status, 503);
  EXPECT_EQ(ExchangeFailureOf(response.status()).attempts, 3);
}

TEST(RetryingClientTest, RetryAfterBeyondTheDeadlineStopsAtOnce) {
  FakeLlmServer server(
      R"({"responses":[{"status":429,"headers":{"Retry-After":"120"},"body":{}}]})");
  ASSERT_TRUE(server.running());
  RetryOptions options = FastRetries();
  options.deadline = absl::Seconds(5);
  RetryingClient client(Client(server.base_url()), options);
  absl::Time start = absl::Now();
  auto response = client.Complete(Request());
  EXPECT_LT(absl::Now() - start, absl::Seconds(3));
  ASSERT_FALSE(response.ok());
  EXPECT_TRUE(absl::StrContains(response.status().message(), "would pass the deadline of 5s"))
      << response.status();
  EXPECT_EQ(server.Received().size(), 1u);
}

TEST(RetryingClientTest, TransportErrorsAreRetried) {
  FakeLlmServer server(R"({"responses":[{"drop":true},)" + ContentEntry("fine") + "]}");
  ASSERT_TRUE(server.running());
  RetryingClient client(Client(server.base_url()), FastRetries());
  auto response = client.Complete(Request());
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->text, "fine");
  EXPECT_EQ(response->attempts, 2);
}

TEST(RetryingClientTest, BackoffGrowsIsCappedAndJittered) {
  RetryOptions options;
  options.initial_backoff = absl::Seconds(1);
  options.multiplier = 2;
  options.max_backoff = absl::Seconds(5);
  EXPECT_EQ(BackoffDelay(options, 1, 0.0), absl::Milliseconds(500));
  EXPECT_GT(BackoffDelay(options, 1, 0.999), absl::Milliseconds(999));
  EXPECT_LT(BackoffDelay(options, 1, 0.999), absl::Seconds(1));
  EXPECT_EQ(BackoffDelay(options, 3, 0.0), absl::Seconds(2));
  EXPECT_EQ(BackoffDelay(options, 10, 0.0), absl::Milliseconds(2500));
}

}  // namespace
}  // namespace tracespec::gateway

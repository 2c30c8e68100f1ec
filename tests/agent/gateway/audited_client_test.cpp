// Tests for agent/gateway/audited_client.h against a real HTTP server on
// loopback: what the gate lets through arrives byte for byte and is audited;
// what it blocks never arrives; a dry run sends nothing.
#include "agent/gateway/audited_client.h"

#include <cstdlib>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "agent/gateway/egress_policy.h"
#include "agent/gateway/errors.h"
#include "agent/gateway/gateway.h"
#include "agent/gateway/openai_client.h"
#include "agent/gateway/retrying_client.h"
#include "agent/prompt/prompt_builder.h"
#include "common/files.h"
#include "common/hash.h"
#include "gtest/gtest.h"
#include "tests/agent/fake_llm_server.h"
#include "tests/agent/observation_builders.h"

namespace tracespec::gateway {
namespace {

using testing::ContentEntry;
using testing::FakeLlmServer;

constexpr char kAnswer[] =
    R"({"contract": "//@ requires amount > 0;\n//@ ensures \\result == \\old(this.balance) + amount;", "hypotheses": []})";

constexpr char kImplementation[] = R"(package bank;
public class Account {
  private int balance;
  private String owner;
  private String pin;
  public int deposit(int amount) {
    if (amount <= 0) throw new IllegalArgumentException("amount must be positive");
    balance = Math.addExact(balance, amount);
    return balance;
  }
}
)";

constexpr char kTest[] = R"(@Test
void depositAddsAmount() {
  Account account = new Account("ann", 10);
  assertEquals(15, account.deposit(5));
})";

struct Stack {
  std::unique_ptr<LlmClient> client;
  std::string audit_path;
};

// The full stack from gateway.h with the loopback policy.
Stack MakeStack(const testing::TempDir& dir, const FakeLlmServer& server,
                const std::string& dry_run_dir = "", bool store_payloads = true) {
  std::string policy = absl::StrCat(R"(format_version: FORMAT_VERSION_1
allow { scheme: "http" host: "127.0.0.1" any_port: true path_prefix: "/v1/" }
audit { store_payloads: )",
                                    store_payloads ? "true" : "false", " }\n");
  GatewayConfig config;
  config.endpoint.base_url = server.base_url();
  config.endpoint.model = "test-model";
  config.retry.initial_backoff = absl::Milliseconds(10);
  config.egress_policy_path = dir.Write("egress.textproto", policy);
  config.audit_log_path = dir.path() + "/run/audit.jsonl";
  config.dry_run_dir = dry_run_dir;
  config.redaction_policy.add_sensitive_names("salary");
  v1::Observation hidden =
      testing::Deposit("bank.AccountTest#vip", 5, 10, 15, "", "", "Ms. Very Important");
  hidden.set_excluded(true);
  config.observations = {testing::Deposit("bank.AccountTest#depositAddsAmount", 5, 10, 15), hidden};
  config.implementation_sources = {dir.Write("impl/bank/Account.java", kImplementation)};
  auto client = MakeGatewayClient(config);
  EXPECT_TRUE(client.ok()) << client.status();
  return {client.ok() ? *std::move(client) : nullptr, config.audit_log_path};
}

LlmRequest RequestWith(const std::string& user_text) {
  LlmRequest r;
  r.messages = {{prompt::Role::kSystem, "Write JML."}, {prompt::Role::kUser, user_text}};
  r.label = "bank.Account#deposit round 1";
  return r;
}

std::vector<v1::AuditRecord> Records(const std::string& path) {
  auto records = ReadAuditRecords(path);
  EXPECT_TRUE(records.ok()) << records.status();
  return records.ok() ? *records : std::vector<v1::AuditRecord>{};
}

// The prompt the loop will send: built from the tests and the observations.
TEST(AuditedClientTest, APromptFromTestsAndObservationsIsSentAndAudited) {
  FakeLlmServer server("{\"responses\":[" + ContentEntry(kAnswer) + "]}");
  ASSERT_TRUE(server.running());
  testing::TempDir dir;
  Stack stack = MakeStack(dir, server);
  ASSERT_NE(stack.client, nullptr);

  prompt::PromptInputs in;
  in.signature =
      *prompt::SignatureFromDescriptor("bank.Account", "deposit", "(I)I", false, {"amount"});
  in.tests = {{"bank.AccountTest#depositAddsAmount", kTest}};
  in.observations = {testing::Deposit("bank.AccountTest#depositAddsAmount", 5, 10, 15)};
  auto builder = prompt::PromptBuilder::Create(in);
  ASSERT_TRUE(builder.ok());
  LlmRequest request;
  request.messages = builder->SingleRequestMessages();
  request.response_schema = prompt::PromptBuilder::AnswerSchema();
  auto response = stack.client->Complete(request);
  ASSERT_TRUE(response.ok()) << response.status();
  auto answer = builder->ReadAnswer(response->text);
  ASSERT_TRUE(answer.ok()) << answer.status();
  EXPECT_EQ(answer->jml,
            "//@ requires amount > 0;\n//@ ensures \\result == \\old(this.balance) + amount;");

  // What arrived is exactly what was audited, and holds nothing protected.
  auto received = server.Received();
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].authorization, "");
  std::vector<v1::AuditRecord> records = Records(stack.audit_path);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].direction(), v1::OUTBOUND);
  EXPECT_EQ(records[0].verdict(), v1::ALLOWED);
  EXPECT_EQ(records[0].payload_sha256(), Sha256Hex(received[0].body));
  EXPECT_EQ(records[0].payload_size(), received[0].body.size());
  EXPECT_EQ(records[0].payload_text(), received[0].body);
  EXPECT_EQ(records[1].direction(), v1::INBOUND);
  EXPECT_EQ(records[1].verdict(), v1::RECEIVED);
  EXPECT_EQ(records[1].request_sha256(), records[0].payload_sha256());
  EXPECT_EQ(records[1].payload_sha256(), Sha256Hex(response->raw_body));
  EXPECT_EQ(records[1].http_status(), 200);
  EXPECT_EQ(records[1].attempts(), 1);
  EXPECT_EQ(records[1].prompt_tokens(), 11);
  std::string arrived = server.RecordText();
  for (const char* never : {"Math.addExact", "amount must be positive", "private String pin",
                            "Ms. Very Important", "pin"}) {
    EXPECT_FALSE(absl::StrContains(arrived, never)) << never;
  }
  EXPECT_TRUE(absl::StrContains(received[0].body, "depositAddsAmount"));
}

TEST(AuditedClientTest, BlockedPayloadsNeverArriveAndSecretsAreNotEchoed) {
  FakeLlmServer server("{\"responses\":[" + ContentEntry(kAnswer) + "]}");
  ASSERT_TRUE(server.running());
  testing::TempDir dir;
  Stack stack = MakeStack(dir, server);
  ASSERT_NE(stack.client, nullptr);
  const std::string secret = std::string("ghp_") + "aB3dE6gH9jaB3dE6gH9jaB3dE6gH9jaB3dE6gH9j";
  struct Case {
    std::string text;
    std::string rule;
    std::string never;
  } cases[] = {
      {"debug token " + secret, "secret.github-token", secret},
      {"this.pin=1234", "redacted-field-name", "pin=1234"},
      {"owner=Ms. Very Important", "redacted-value", "Very Important"},
      {"int salaryCents = 312000;", "sensitive-name", "salaryCents"},
      {"if (amount <= 0) throw new IllegalArgumentException(\"amount must be positive\"); "
       "balance = Math.addExact(balance, amount); return balance;",
       "implementation-source", "addExact"},
  };
  for (const Case& c : cases) {
    auto response = stack.client->Complete(RequestWith(c.text));
    ASSERT_FALSE(response.ok()) << c.rule;
    EXPECT_EQ(response.status().code(), absl::StatusCode::kPermissionDenied);
    EXPECT_TRUE(absl::StrContains(response.status().message(), "blocked by rule " + c.rule))
        << response.status();
    EXPECT_FALSE(absl::StrContains(response.status().message(), c.never)) << response.status();
  }
  EXPECT_TRUE(server.Received().empty());
  std::vector<v1::AuditRecord> records = Records(stack.audit_path);
  ASSERT_EQ(records.size(), 5u);
  for (size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(records[i].verdict(), v1::BLOCKED);
    EXPECT_EQ(records[i].rule(), cases[i].rule);
    EXPECT_FALSE(records[i].has_payload_text());  // blocked payloads are never stored
    EXPECT_EQ(records[i].label(), "bank.Account#deposit round 1");
  }
  std::string log = *ReadFile(stack.audit_path);
  EXPECT_FALSE(absl::StrContains(log, secret));
  EXPECT_FALSE(absl::StrContains(log, "Very Important"));
  EXPECT_TRUE(VerifyAuditLog(stack.audit_path)->intact);
}

// The audit record names the rule that fired, for the rules that read
// inside longer text and the decoded source too; the copy kept for the
// record masks an escaped key's whole spelling.
TEST(AuditedClientTest, TheNewSecretRulesAreNamedInTheAuditRecord) {
  FakeLlmServer server("{\"responses\":[" + ContentEntry(kAnswer) + "]}");
  ASSERT_TRUE(server.running());
  testing::TempDir dir;
  Stack stack = MakeStack(dir, server);
  ASSERT_NE(stack.client, nullptr);
  const std::string token = "Zq8xP3vL9mT2kR7wY5nB4cD6fG1hJ0sA8eU3iO7";
  const std::string escaped_key = "\\u0041\\u004bIAQ7ZXQ7ZXQ7ZXQ7ZX";
  struct Case {
    std::string text;
    std::string rule;
  } cases[] = {
      {"get(\"/a\", \"Authorization: Bearer " + token + "\");", "secret.bearer-token"},
      {"get(\"/a\", \"Authorization: Basic c3ZjOmh1bnRlcjJwYXNzd29yZA==\");",
       "secret.basic-auth"},
      {"get(\"/a\", \"Cookie: theme=dark; sid=" + token + "\");", "secret.cookie-value"},
      {"get(\"/a\", \"X-Api-Key: " + token + "\");", "secret.api-key-header"},
      {"go(); // was: " + token + "\n", "secret.high-entropy-comment"},
      {"String s = \"secret " + token + " end\";", "secret.high-entropy-in-literal"},
      {"String k = \"" + escaped_key + "\";", "secret.aws-access-key-id"},
  };
  for (const Case& c : cases) {
    auto response = stack.client->Complete(RequestWith(c.text));
    ASSERT_FALSE(response.ok()) << c.rule;
    EXPECT_TRUE(absl::StrContains(response.status().message(), "blocked by rule " + c.rule))
        << response.status();
  }
  EXPECT_TRUE(server.Received().empty());
  std::vector<v1::AuditRecord> records = Records(stack.audit_path);
  ASSERT_EQ(records.size(), std::size(cases));
  for (size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(records[i].verdict(), v1::BLOCKED);
    EXPECT_EQ(records[i].rule(), cases[i].rule);
    EXPECT_TRUE(absl::StartsWith(records[i].detail(), cases[i].rule + " at messages[1].content"))
        << records[i].detail();
  }
  std::string log = *ReadFile(stack.audit_path);
  EXPECT_FALSE(absl::StrContains(log, token));
  EXPECT_FALSE(absl::StrContains(log, "Q7ZXQ7ZX"));

  auto masked = stack.client->ForTheRecord(RequestWith(cases[6].text));
  ASSERT_TRUE(masked.ok()) << masked.status();
  EXPECT_EQ(masked->messages[1].content,
            "String k = \"" + std::string(escaped_key.size(), '*') + "\";");
}

TEST(AuditedClientTest, DryRunWritesTheExactBodiesAndSendsNothing) {
  FakeLlmServer server("{\"responses\":[" + ContentEntry(kAnswer) + "]}");
  ASSERT_TRUE(server.running());
  testing::TempDir dir;
  std::string dry = dir.path() + "/dry";
  Stack stack = MakeStack(dir, server, dry);
  ASSERT_NE(stack.client, nullptr);
  for (int round = 0; round < 2; ++round) {
    auto response = stack.client->Complete(RequestWith(absl::StrCat("round ", round)));
    ASSERT_FALSE(response.ok());
    EXPECT_TRUE(IsDryRun(response.status())) << response.status();
    EXPECT_TRUE(absl::StrContains(response.status().message(), "nothing was sent"));
  }
  EXPECT_TRUE(server.Received().empty());
  std::vector<v1::AuditRecord> records = Records(stack.audit_path);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].verdict(), v1::DRY_RUN);
  auto body = ReadFile(dry + "/request-000002.json");
  ASSERT_TRUE(body.ok()) << body.status();
  EXPECT_EQ(*body, *stack.client->EncodeRequest(RequestWith("round 1")));
  EXPECT_EQ(records[1].payload_sha256(), Sha256Hex(*body));
  EXPECT_TRUE(FileExists(dry + "/request-000001.json"));
}

TEST(AuditedClientTest, FailedExchangesAreAuditedToo) {
  FakeLlmServer server(R"({"responses":[{"status":400,"body":{"error":{"message":"bad"}}}]})");
  ASSERT_TRUE(server.running());
  testing::TempDir dir;
  Stack stack = MakeStack(dir, server, "", /*store_payloads=*/false);
  ASSERT_NE(stack.client, nullptr);
  auto response = stack.client->Complete(RequestWith("hello"));
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kInvalidArgument);
  std::vector<v1::AuditRecord> records = Records(stack.audit_path);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].verdict(), v1::ALLOWED);
  EXPECT_FALSE(records[0].has_payload_text());  // not stored by this policy
  EXPECT_EQ(records[1].verdict(), v1::FAILED);
  EXPECT_EQ(records[1].http_status(), 400);
  EXPECT_EQ(records[1].attempts(), 1);
  EXPECT_TRUE(absl::StrContains(records[1].detail(), "HTTP 400: bad"));
  EXPECT_EQ(records[1].payload_size(), std::string(R"({"error": {"message": "bad"}})").size());
}

TEST(AuditedClientTest, DestinationOutsideThePolicyIsBlocked) {
  testing::TempDir dir;
  std::string policy = "format_version: FORMAT_VERSION_1\n";
  OpenAiClientOptions options;
  options.base_url = "http://127.0.0.1:9/v1";
  options.model = "m";
  auto http = OpenAiCompatibleClient::Create(options);
  ASSERT_TRUE(http.ok());
  auto parsed = ParseEgressPolicy(policy, "p");
  ASSERT_TRUE(parsed.ok());
  auto gate = EgressGate::Create(*parsed, {}, nullptr);
  ASSERT_TRUE(gate.ok());
  auto log = AuditLog::Open(dir.path() + "/audit.jsonl");
  ASSERT_TRUE(log.ok());
  AuditedClient client(*std::move(http), std::make_shared<const EgressGate>(*std::move(gate)),
                       std::shared_ptr<AuditLog>(*std::move(log)));
  auto response = client.Complete(RequestWith("hello"));
  ASSERT_FALSE(response.ok());
  EXPECT_TRUE(
      absl::StrContains(response.status().message(), "blocked by rule endpoint-not-allowed"))
      << response.status();
}

TEST(AuditedClientTest, BrokenPolicyIsAClearError) {
  testing::TempDir dir;
  GatewayConfig config;
  config.endpoint.base_url = "http://127.0.0.1:9/v1";
  config.endpoint.model = "m";
  config.egress_policy_path =
      dir.Write("egress.textproto", "format_version: FORMAT_VERSION_1\nallow {\n");
  config.audit_log_path = dir.path() + "/audit.jsonl";
  auto client = MakeGatewayClient(config);
  ASSERT_FALSE(client.ok());
  EXPECT_TRUE(absl::StrContains(client.status().message(), "egress.textproto:3:"))
      << client.status();
}

}  // namespace
}  // namespace tracespec::gateway

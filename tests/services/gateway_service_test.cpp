// `tracespec serve gateway` end to end: the real binary on loopback, called
// through services::ConnectGateway (the LlmClient the refinement loop
// gets), in front of the real fake chat-completions server of
// tests/agent/fake_llm_server.py. What the gateway's gate allows reaches
// the model byte for byte and the answer comes back; what it blocks comes
// back refused with the rule, never reaches the model, and is in the
// gateway's audit log; the client holds no key.
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/gateway/audit_log.h"
#include "agent/gateway/errors.h"
#include "agent/gateway/gateway.h"
#include "common/files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "observer/probe/substitute_value.h"
#include "services/gateway/client.h"
#include "tests/agent/fake_llm_server.h"
#include "tests/agent/observation_builders.h"
#include "tests/services/gateway_process.h"
#include "tests/testing/testing.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;
using testing::ContentEntry;
using testing::FakeLlmServer;

gateway::LlmRequest RequestWith(const std::string& user_text) {
  gateway::LlmRequest r;
  r.messages = {{prompt::Role::kSystem, "Write JML."}, {prompt::Role::kUser, user_text}};
  r.label = "bank.Account#deposit round 1";
  r.seed = 7;
  return r;
}

class GatewayServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // The client side of the test has a key path of its own that must
    // stay unused: the key is the gateway's.
    client_key_ = client_dir_.path() + "/audit-key.pem";
    setenv("TRACESPEC_AUDIT_KEY", client_key_.c_str(), 1);
    unsetenv("TRACESPEC_API_KEY");
    policy_ = gateway_dir_.Write("egress.textproto", kLoopbackEgressPolicy);
  }
  void TearDown() override { unsetenv("TRACESPEC_AUDIT_KEY"); }

  std::unique_ptr<ServerProcess> StartGateway(const FakeLlmServer& model,
                                              const std::vector<std::string>& extra = {}) {
    return tracespec::StartGateway(files_, model, policy_, extra);
  }

  // A run's material: an excluded observation holds a value that must not
  // leave; the implementation source is sent as text.
  gateway::GatewayMaterial Material() const {
    gateway::GatewayMaterial material;
    v1::Observation hidden =
        testing::Deposit("bank.AccountTest#vip", 5, 10, 15, "", "", "Ms. Very Important");
    hidden.set_excluded(true);
    material.observations = {testing::Deposit("bank.AccountTest#deposit", 5, 10, 15), hidden};
    // A value the tests read from a denied field, as its key.
    material.denied_keys.texts[20].insert(
        probe::ConstantKey(std::string_view("maple-harbor-lantern")));
    return material;
  }

  std::vector<v1::AuditRecord> Records() const { return GatewayRecords(files_); }

  testing::TempDir gateway_dir_;
  GatewayFiles files_{gateway_dir_.path()};
  const std::string& log_ = files_.log;
  const std::string& key_ = files_.key;
  testing::TempDir client_dir_;
  std::string client_key_;
  std::string policy_;
};

TEST_F(GatewayServiceTest, AnAllowedRequestReachesTheModelAndItsAnswerComesBack) {
  FakeLlmServer model("{\"responses\":[" + ContentEntry(kContractAnswer) + "]}");
  ASSERT_TRUE(model.running());
  auto server = StartGateway(model);
  ASSERT_NE(server->address(), "");
  EXPECT_THAT(server->listening_line(), HasSubstr("(to " + model.base_url() + "/chat/completions)"));

  auto client = services::ConnectGateway({server->address()}, Material());
  ASSERT_TRUE(client.ok()) << client.status();
  EXPECT_EQ((*client)->Destination(), model.base_url() + "/chat/completions");

  gateway::LlmRequest request = RequestWith("deposit(5) on 10 returned 15");
  auto encoded = (*client)->EncodeRequest(request);
  ASSERT_TRUE(encoded.ok()) << encoded.status();
  auto response = (*client)->Complete(request);
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->text, kContractAnswer);
  EXPECT_EQ(response->model, "fake-model");
  EXPECT_EQ(response->http_status, 200);

  // What reached the model is the body the gateway said it would send.
  auto received = model.Received();
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].body, *encoded);
  EXPECT_THAT(received[0].body, HasSubstr("\"seed\":7"));

  // Both directions are in the gateway's log, under the client's label.
  std::vector<v1::AuditRecord> records = Records();
  ASSERT_GE(records.size(), 2u);
  EXPECT_EQ(records[0].verdict(), v1::ALLOWED);
  EXPECT_EQ(records[0].label(), "bank.Account#deposit round 1");
  EXPECT_EQ(records[1].verdict(), v1::RECEIVED);

  // The key is the gateway's; the client's key path stayed unused.
  EXPECT_TRUE(std::filesystem::exists(key_));
  EXPECT_FALSE(std::filesystem::exists(client_key_));
}

TEST_F(GatewayServiceTest, ASecretIsRefusedWithItsRuleNeverSentAndAudited) {
  FakeLlmServer model("{\"responses\":[" + ContentEntry(kContractAnswer) + "]}");
  ASSERT_TRUE(model.running());
  auto server = StartGateway(model);
  ASSERT_NE(server->address(), "");
  auto client = services::ConnectGateway({server->address()}, Material());
  ASSERT_TRUE(client.ok()) << client.status();

  const std::string secret = std::string("ghp_") + "aB3dE6gH9jaB3dE6gH9jaB3dE6gH9jaB3dE6gH9j";
  gateway::LlmRequest request = RequestWith("assertEquals(\"" + secret + "\", token());");
  auto response = (*client)->Complete(request);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(gateway::BlockedRuleOf(response.status()), "secret.github-token");
  EXPECT_THAT(response.status().message(), HasSubstr("blocked by rule secret.github-token"));
  EXPECT_THAT(std::string(response.status().message()), ::testing::Not(HasSubstr(secret)));
  EXPECT_TRUE(model.Received().empty());

  // The run directory's copy has the secret masked, by the gateway's gate.
  auto recorded = (*client)->ForTheRecord(request);
  ASSERT_TRUE(recorded.ok()) << recorded.status();
  ASSERT_EQ(recorded->messages.size(), 2u);
  EXPECT_EQ(recorded->messages[0].content, "Write JML.");
  EXPECT_THAT(recorded->messages[1].content, ::testing::Not(HasSubstr(secret)));
  EXPECT_THAT(recorded->messages[1].content, HasSubstr(std::string(secret.size(), '*')));

  // The protected material crossed the wire: a value only the excluded
  // observation holds is refused too.
  auto withheld = (*client)->Complete(RequestWith("the owner is Ms. Very Important"));
  ASSERT_FALSE(withheld.ok());
  EXPECT_EQ(gateway::BlockedRuleOf(withheld.status()), "redacted-value");
  // And a value the tests read from a denied field, known by its key only.
  auto denied = (*client)->Complete(RequestWith("assertEquals(\"badge:maple-harbor-lantern\", x);"));
  ASSERT_FALSE(denied.ok());
  EXPECT_EQ(gateway::BlockedRuleOf(denied.status()), "denied-value");
  EXPECT_TRUE(model.Received().empty());

  std::vector<v1::AuditRecord> records = Records();
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[2].rule(), "denied-value");
  EXPECT_EQ(records[0].verdict(), v1::BLOCKED);
  EXPECT_EQ(records[0].rule(), "secret.github-token");
  EXPECT_EQ(records[1].verdict(), v1::BLOCKED);
  EXPECT_EQ(records[1].rule(), "redacted-value");
  EXPECT_THAT(ReadFile(log_).value_or(""), ::testing::Not(HasSubstr(secret)));
  EXPECT_THAT(ReadFile(log_).value_or(""), ::testing::Not(HasSubstr("maple-harbor-lantern")));
  EXPECT_FALSE(std::filesystem::exists(client_key_));
}

TEST_F(GatewayServiceTest, ADryRunWritesTheBodyOnTheGatewayAndSendsNothing) {
  FakeLlmServer model("{\"responses\":[" + ContentEntry(kContractAnswer) + "]}");
  ASSERT_TRUE(model.running());
  std::string dry = gateway_dir_.path() + "/dry";
  auto server = StartGateway(model, {"--dry-run", dry});
  ASSERT_NE(server->address(), "");
  auto client = services::ConnectGateway({server->address()}, Material());
  ASSERT_TRUE(client.ok()) << client.status();
  gateway::LlmRequest request = RequestWith("deposit(5) on 10 returned 15");
  auto response = (*client)->Complete(request);
  ASSERT_FALSE(response.ok());
  EXPECT_TRUE(gateway::IsDryRun(response.status())) << response.status();
  EXPECT_TRUE(model.Received().empty());
  auto written = ReadFile(dry + "/request-000001.json");
  ASSERT_TRUE(written.ok()) << written.status();
  EXPECT_EQ(*written, *(*client)->EncodeRequest(request));
}

TEST_F(GatewayServiceTest, SessionsAreBoundedAndClosedWithTheirClients) {
  FakeLlmServer model("{\"responses\":[" + ContentEntry(kContractAnswer) + "]}");
  ASSERT_TRUE(model.running());
  auto server = StartGateway(model, {"--max-sessions", "1"});
  ASSERT_NE(server->address(), "");
  {
    auto first = services::ConnectGateway({server->address()}, Material());
    ASSERT_TRUE(first.ok()) << first.status();
    auto second = services::ConnectGateway({server->address()}, Material());
    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.status().code(), absl::StatusCode::kResourceExhausted);
    EXPECT_THAT(second.status().message(), HasSubstr("all 1 sessions of the gateway are open"));
  }
  // The first client closed its session when it went.
  auto third = services::ConnectGateway({server->address()}, Material());
  ASSERT_TRUE(third.ok()) << third.status();
  EXPECT_TRUE((*third)->Complete(RequestWith("deposit(5) on 10 returned 15")).ok());
}

TEST_F(GatewayServiceTest, SigtermSealsTheLogWithTheGatewaysKey) {
  FakeLlmServer model("{\"responses\":[" + ContentEntry(kContractAnswer) + "]}");
  ASSERT_TRUE(model.running());
  auto server = StartGateway(model);
  ASSERT_NE(server->address(), "");
  {
    auto client = services::ConnectGateway({server->address()}, Material());
    ASSERT_TRUE(client.ok()) << client.status();
    EXPECT_TRUE((*client)->Complete(RequestWith("deposit(5) on 10 returned 15")).ok());
  }
  kill(server->pid(), SIGTERM);
  EXPECT_EQ(server->WaitForExit(20), 0) << server->Stderr();
  EXPECT_EQ(Records().back().verdict(), v1::SEAL);
  SubprocessResult key = testing::RunTracespec({"audit", "public-key", "--audit-key", key_});
  ASSERT_EQ(key.exit_code, 0) << key.stderr_data;
  std::string public_key = gateway_dir_.Write("public.pem", key.stdout_data);
  SubprocessResult verify = testing::RunTracespec(
      {"audit", "verify", log_, "--public-key", public_key, "--witness", "none"});
  EXPECT_EQ(verify.exit_code, 0) << verify.stdout_data << verify.stderr_data;
}

TEST_F(GatewayServiceTest, BadFlagsAndFilesStopTheGatewayBeforeItListens) {
  FakeLlmServer model("{\"responses\":[]}");
  ASSERT_TRUE(model.running());
  std::string missing = gateway_dir_.path() + "/missing.textproto";
  std::string broken = gateway_dir_.Write("broken.textproto", "format_version: FORMAT_VERSION_1\n"
                                                              "allow { scheme: \"gopher\" }\n");
  struct Case {
    std::vector<std::string> flags;
    int exit_code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--egress-policy", missing, "--audit-log", log_}, 3, missing},
      {{"--egress-policy", broken, "--audit-log", log_}, 3, broken},
      {{"--egress-policy", policy_, "--audit-log", log_, "--api-key-env", "TRACESPEC_NO_SUCH_KEY"},
       3, "TRACESPEC_NO_SUCH_KEY"},
      {{"--egress-policy", policy_}, 2, "--audit-log"},
      {{"--egress-policy", policy_, "--audit-log", log_, "--max-calls", "0"}, 2, "--max-calls"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"gateway", "--llm", model.base_url(), "--model", "m",
                                     "--audit-key", key_};
    args.insert(args.end(), c.flags.begin(), c.flags.end());
    ServerProcess server(args, gateway_dir_.path() + "/bad.err");
    std::string what = absl::StrJoin(c.flags, " ");
    EXPECT_EQ(server.address(), "") << what;
    EXPECT_EQ(server.WaitForExit(10), c.exit_code) << what << "\n" << server.Stderr();
    EXPECT_THAT(server.Stderr(), HasSubstr(c.message)) << what;
  }
  // Nothing was logged by gateways that never listened.
  EXPECT_FALSE(std::filesystem::exists(log_));
}

TEST_F(GatewayServiceTest, AnUnreachableGatewayIsUnavailable) {
  std::string address = absl::StrCat("127.0.0.1:", testing::UnusedLoopbackPort());
  auto client = services::ConnectGateway({address}, Material());
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(client.status().message(), HasSubstr("no gateway reachable at " + address));
}

}  // namespace
}  // namespace tracespec

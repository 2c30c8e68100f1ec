// `tracespec infer --gateway` end to end on examples/bank: a real
// `tracespec observe`, the real `serve gateway` in front of the fake model
// server, the real validator. The infer process holds no policy, log or
// key; the gateway's gate and log see every request.
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/agent/fake_llm_server.h"
#include "tests/services/gateway_process.h"
#include "tests/testing/observed_bank.h"
#include "tests/testing/testing.h"
#include "tracespec/v1/infer.pb.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::RunTracespec;

constexpr char kMethod[] = "bank.Account#deposit";

std::string Script() {
  return "{\"responses\":[" +
         testing::ContentEntry(absl::StrCat("```jml\n", testing::kDepositContract, "```\n")) +
         "],\"then\":\"fail\"}";
}

std::string Read(const std::string& path) {
  auto text = ReadFile(path);
  EXPECT_TRUE(text.ok()) << path << ": " << text.status();
  return text.ok() ? *text : "";
}

class GatewayInferTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    bank_ = new testing::ObservedBank({kMethod});
    ASSERT_FALSE(bank_->observations().empty());
  }
  static void TearDownTestSuite() { delete bank_; }

  void SetUp() override {
    // The infer process's key path, which must stay unused.
    client_key_ = client_dir_.path() + "/audit-key.pem";
    setenv("TRACESPEC_AUDIT_KEY", client_key_.c_str(), 1);
  }
  void TearDown() override { unsetenv("TRACESPEC_AUDIT_KEY"); }

  SubprocessResult Infer(const std::string& out, const std::vector<std::string>& extra) {
    std::vector<std::string> args = {
        "infer",        "--classpath", bank_->classes(), "--method",
        kMethod,        "--observations", bank_->observations(), "--tests-src",
        testing::SourceDir() + "/examples/bank/test", "--impl-src",
        testing::SourceDir() + "/examples/bank/src", "--out", out};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunTracespec(args);
  }

  static std::string Policy() { return testing::SourceDir() + "/policies/egress.textproto"; }

  testing::TempDir gateway_dir_;
  GatewayFiles files_{gateway_dir_.path()};
  testing::TempDir client_dir_;
  testing::TempDir tmp_;
  std::string client_key_;
  static testing::ObservedBank* bank_;
};

testing::ObservedBank* GatewayInferTest::bank_ = nullptr;

TEST_F(GatewayInferTest, InferThroughTheGatewayIsInferInProcess) {
  // In process: the gate, the log and the key are infer's.
  testing::FakeLlmServer local_model(Script());
  ASSERT_TRUE(local_model.running());
  std::string local_out = tmp_.path() + "/local";
  SubprocessResult local =
      Infer(local_out, {"--llm", local_model.base_url(), "--model", "fake-model",
                        "--egress-policy", Policy(), "--audit-key",
                        gateway_dir_.path() + "/local-key.pem"});
  ASSERT_EQ(local.exit_code, 0) << local.stdout_data << local.stderr_data;

  testing::FakeLlmServer model(Script());
  ASSERT_TRUE(model.running());
  auto gateway = StartGateway(files_, model, Policy());
  ASSERT_NE(gateway->address(), "");
  std::string out = tmp_.path() + "/remote";
  SubprocessResult r = Infer(out, {"--gateway", gateway->address()});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("bank.Account#deposit: Success"));

  // The same request reached the model, and the same contract came out.
  ASSERT_EQ(model.Received().size(), 1u);
  ASSERT_EQ(local_model.Received().size(), 1u);
  EXPECT_EQ(model.Received()[0].body, local_model.Received()[0].body);
  std::string dir = std::string("/") + kMethod;
  EXPECT_EQ(Read(out + dir + "/round-1/request.json"), model.Received()[0].body);
  v1::InferResult remote_result;
  v1::InferResult local_result;
  ASSERT_TRUE(FromJson(Read(out + dir + "/result.json"), &remote_result).ok());
  ASSERT_TRUE(FromJson(Read(local_out + dir + "/result.json"), &local_result).ok());
  EXPECT_EQ(remote_result.contract(), local_result.contract());
  EXPECT_EQ(remote_result.client(), model.base_url() + "/chat/completions");

  // The gateway's log has the exchange; the run directory has no log, and
  // the infer process never needed a key.
  std::vector<v1::AuditRecord> records = GatewayRecords(files_);
  ASSERT_GE(records.size(), 2u);
  EXPECT_EQ(records[0].verdict(), v1::ALLOWED);
  EXPECT_EQ(records[0].label(), "bank.Account#deposit(I)V round 1");
  EXPECT_EQ(records[1].verdict(), v1::RECEIVED);
  EXPECT_FALSE(std::filesystem::exists(out + "/audit.jsonl"));
  EXPECT_FALSE(std::filesystem::exists(client_key_));
}

TEST_F(GatewayInferTest, TheGatewaysPolicyBlocksAndTheRunStops) {
  testing::FakeLlmServer model(Script());
  ASSERT_TRUE(model.running());
  std::string policy = gateway_dir_.Write(
      "egress.textproto", Read(Policy()) + "\nblocked_terms: \"depositIncreasesBalance\"\n");
  auto gateway = StartGateway(files_, model, policy);
  ASSERT_NE(gateway->address(), "");
  std::string out = tmp_.path() + "/blocked";
  SubprocessResult r = Infer(out, {"--gateway", gateway->address()});
  EXPECT_EQ(r.exit_code, 4) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("bank.Account#deposit: Stopped (rounds: none)"));
  EXPECT_THAT(r.stderr_data, HasSubstr("blocked by rule blocked-term"));
  EXPECT_TRUE(model.Received().empty());
  v1::InferRound round;
  ASSERT_TRUE(
      FromJson(Read(out + "/" + kMethod + "/round-1/round.json"), &round).ok());
  EXPECT_EQ(round.outcome(), v1::ROUND_BLOCKED);
  // Masked for the record by the gateway's gate.
  std::string request = Read(out + "/" + kMethod + "/round-1/request.json");
  EXPECT_THAT(request, Not(HasSubstr("depositIncreasesBalance")));
  EXPECT_THAT(request, HasSubstr(std::string(std::strlen("depositIncreasesBalance"), '*')));
  std::vector<v1::AuditRecord> records = GatewayRecords(files_);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].verdict(), v1::BLOCKED);
  EXPECT_EQ(records[0].rule(), "blocked-term");
}

TEST_F(GatewayInferTest, AnUnreachableGatewayOrLocalEgressFlagsStopBeforeAnythingIsWritten) {
  std::string address = absl::StrCat("127.0.0.1:", testing::UnusedLoopbackPort());
  std::string out = tmp_.path() + "/unreachable";
  SubprocessResult r = Infer(out, {"--gateway", address});
  EXPECT_EQ(r.exit_code, 4) << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr("no gateway reachable at " + address));
  EXPECT_FALSE(std::filesystem::exists(out));

  SubprocessResult both = Infer(out, {"--gateway", address, "--egress-policy", Policy(),
                                      "--dry-run"});
  EXPECT_EQ(both.exit_code, 2) << both.stderr_data;
  EXPECT_THAT(both.stderr_data, HasSubstr("--gateway excludes --egress-policy, --dry-run"));
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST_F(GatewayInferTest, RunThroughTheGatewayHoldsNoKeyAndTheGatewayLogsItsRequests) {
  testing::FakeLlmServer model(Script());
  ASSERT_TRUE(model.running());
  auto gateway = StartGateway(files_, model, Policy());
  ASSERT_NE(gateway->address(), "");
  testing::TempDir project;
  std::string src = testing::SourceDir() + "/examples/bank";
  // The project's own model section names no egress policy: the gateway's
  // applies.
  project.Write("tracespec.textproto",
                absl::StrCat("classes: \"", bank_->classes(), "\"\ntest_classes: \"",
                             bank_->test_classes(), "\"\ntests: \"bank.AccountTest\"\n",
                             "tests_src: \"", src, "/test\"\nsources: \"", src, "/src\"\n",
                             "methods: \"", kMethod, "\"\n"));
  std::string out = tmp_.path() + "/run";
  SubprocessResult r =
      RunTracespec({"run", project.path(), "--out", out, "--gateway", gateway->address()});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("bank.Account#deposit(I)V: Success"));
  ASSERT_EQ(model.Received().size(), 1u);
  std::vector<v1::AuditRecord> records = GatewayRecords(files_);
  ASSERT_GE(records.size(), 2u);
  EXPECT_EQ(records[0].verdict(), v1::ALLOWED);
  EXPECT_EQ(records[1].verdict(), v1::RECEIVED);
  EXPECT_FALSE(std::filesystem::exists(out + "/infer/audit.jsonl"));
  EXPECT_FALSE(std::filesystem::exists(client_key_));

  // No gateway: stopped before the build, nothing written.
  std::string address = absl::StrCat("127.0.0.1:", testing::UnusedLoopbackPort());
  std::string none = tmp_.path() + "/none";
  SubprocessResult unreachable =
      RunTracespec({"run", project.path(), "--out", none, "--gateway", address});
  EXPECT_EQ(unreachable.exit_code, 4) << unreachable.stderr_data;
  EXPECT_THAT(unreachable.stderr_data, HasSubstr("no gateway reachable at " + address));
  EXPECT_FALSE(std::filesystem::exists(none));
}

}  // namespace
}  // namespace tracespec

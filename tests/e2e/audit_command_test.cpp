// End-to-end: requests go through the real gateway stack to the fake model
// server, then the real `tracespec audit verify|show` read the log back, and
// find a one-byte edit, a removed record and a truncated tail.
#include <cstdio>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "agent/gateway/gateway.h"
#include "common/files.h"
#include "gtest/gtest.h"
#include "tests/agent/fake_llm_server.h"
#include "tests/testing/testing.h"

namespace tracespec {
namespace {

using testing::RunTracespec;

class AuditCommandTest : public ::testing::Test {
 protected:
  // Two exchanges (one allowed and answered, one blocked) in a fresh log.
  void SetUp() override {
    server_ = std::make_unique<testing::FakeLlmServer>(
        "{\"responses\":[" + testing::ContentEntry("//@ ensures \\result == x;") + "]}");
    ASSERT_TRUE(server_->running());
    gateway::GatewayConfig config;
    config.endpoint.base_url = server_->base_url();
    config.endpoint.model = "test-model";
    config.egress_policy_path = testing::SourceDir() + "/policies/egress.textproto";
    log_ = dir_.path() + "/audit.jsonl";
    config.audit_log_path = log_;
    auto client = gateway::MakeGatewayClient(config);
    ASSERT_TRUE(client.ok()) << client.status();
    gateway::LlmRequest request;
    request.messages = {{prompt::Role::kUser, "Contract for int id(int x)?"}};
    request.label = "demo.Id#id round 1";
    ASSERT_TRUE((*client)->Complete(request).ok());
    request.messages = {{prompt::Role::kUser, std::string("pk: ") + "AKIA" + "Q7ZXQ7ZXQ7ZXQ7ZX"}};
    ASSERT_FALSE((*client)->Complete(request).ok());
  }

  std::vector<std::string> Lines() {
    return absl::StrSplit(*ReadFile(log_), '\n', absl::SkipEmpty());
  }
  void Rewrite(const std::vector<std::string>& lines) {
    std::string text = absl::StrJoin(lines, "\n") + "\n";
    std::FILE* f = std::fopen(log_.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }

  testing::TempDir dir_;
  std::unique_ptr<testing::FakeLlmServer> server_;
  std::string log_;
};

TEST_F(AuditCommandTest, VerifyAcceptsAnIntactLog) {
  SubprocessResult r = RunTracespec({"audit", "verify", log_});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_TRUE(absl::StrContains(r.stdout_data, ": intact, 3 record(s), head ")) << r.stdout_data;
}

TEST_F(AuditCommandTest, ShowPrintsWhatLeft) {
  SubprocessResult r = RunTracespec({"audit", "show", log_});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_data;
  const std::string& out = r.stdout_data;
  std::string destination = server_->base_url() + "/chat/completions";
  EXPECT_TRUE(absl::StrContains(out, "#1  ")) << out;
  EXPECT_TRUE(absl::StrContains(out, "out  ALLOWED  " + destination)) << out;
  EXPECT_TRUE(absl::StrContains(out, "in   RECEIVED  " + destination)) << out;
  EXPECT_TRUE(absl::StrContains(out, "out  BLOCKED  " + destination)) << out;
  EXPECT_TRUE(absl::StrContains(out, "for: demo.Id#id round 1"));
  EXPECT_TRUE(absl::StrContains(out, "rule: secret.aws-access-key-id"));
  EXPECT_TRUE(absl::StrContains(out, "[user]\n        Contract for int id(int x)?")) << out;
  EXPECT_TRUE(absl::StrContains(out, "[assistant]\n        //@ ensures \\result == x;")) << out;
  EXPECT_TRUE(absl::StrContains(out, "http 200, 1 attempt"));
  EXPECT_TRUE(absl::StrContains(out, "3 record(s); chain intact"));
  // The blocked secret is neither in the log nor in what show prints.
  EXPECT_FALSE(absl::StrContains(out, "Q7ZXQ7ZXQ7ZXQ7ZX"));
  EXPECT_FALSE(absl::StrContains(*ReadFile(log_), "Q7ZXQ7ZXQ7ZXQ7ZX"));

  SubprocessResult bare = RunTracespec({"audit", "show", "--no-payloads", log_});
  EXPECT_EQ(bare.exit_code, 0);
  EXPECT_FALSE(absl::StrContains(bare.stdout_data, "[user]"));
}

TEST_F(AuditCommandTest, VerifyNamesTheEditedRecord) {
  std::vector<std::string> lines = Lines();
  size_t at = lines[1].find("\"http_status\":200");
  ASSERT_NE(at, std::string::npos);
  lines[1][at + 15] = '3';  // 200 -> 300: one byte
  Rewrite(lines);
  SubprocessResult r = RunTracespec({"audit", "verify", log_});
  EXPECT_EQ(r.exit_code, 10);
  EXPECT_TRUE(absl::StrContains(r.stdout_data,
                                "BROKEN at line 2: the record's hash does not "
                                "match its content: it was edited"))
      << r.stdout_data;
  SubprocessResult show = RunTracespec({"audit", "show", log_});
  EXPECT_EQ(show.exit_code, 10);
  EXPECT_TRUE(absl::StrContains(show.stdout_data, "WARNING: the chain is broken at line 2"));
}

TEST_F(AuditCommandTest, VerifyNamesARemovedRecordAndATruncatedTail) {
  SubprocessResult intact = RunTracespec({"audit", "verify", log_});
  std::string head = intact.stdout_data.substr(intact.stdout_data.rfind(' ') + 1);
  head.pop_back();  // newline
  ASSERT_EQ(head.size(), 64u);

  std::vector<std::string> lines = Lines();
  Rewrite({lines[0], lines[2]});
  SubprocessResult removed = RunTracespec({"audit", "verify", log_});
  EXPECT_EQ(removed.exit_code, 10);
  EXPECT_TRUE(absl::StrContains(removed.stdout_data, "BROKEN at line 2")) << removed.stdout_data;

  // Dropping the last record leaves a valid chain; the kept head finds it.
  Rewrite({lines[0], lines[1]});
  EXPECT_EQ(RunTracespec({"audit", "verify", log_}).exit_code, 0);
  SubprocessResult truncated = RunTracespec({"audit", "verify", "--expect-head", head, log_});
  EXPECT_EQ(truncated.exit_code, 10);
  EXPECT_TRUE(absl::StrContains(truncated.stdout_data, "records were removed from the end"));
}

TEST_F(AuditCommandTest, MissingLogIsAnInputError) {
  SubprocessResult r = RunTracespec({"audit", "verify", dir_.path() + "/nope.jsonl"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_TRUE(absl::StrContains(r.stderr_data, "nope.jsonl: cannot open")) << r.stderr_data;
}

}  // namespace
}  // namespace tracespec

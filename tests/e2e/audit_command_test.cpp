// End-to-end: requests go through the real gateway stack to the fake model
// server, then the real `tracespec audit verify|show` read the log back, and
// find a one-byte edit, a removed record and a truncated tail; with the
// public key, the tampering cases of the threat model (delete the last
// record, truncate to zero, delete a middle record, drop records and
// rechain, edit a payload and rechain, re-sign with another key, remove a
// whole sealed run) are each found and name the record.
#include <cstdio>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "agent/gateway/gateway.h"
#include "absl/strings/str_replace.h"
#include "agent/gateway/audit_key.h"
#include "agent/gateway/audit_log.h"
#include "common/files.h"
#include "common/hash.h"
#include "common/proto_io.h"
#include "gtest/gtest.h"
#include "tests/agent/fake_llm_server.h"
#include "tests/agent/gateway/audit_tampering.h"
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
    log_ = dir_.path() + "/audit.jsonl";
    key_ = dir_.path() + "/keys/audit-key.pem";
    // The tampering cases below are found without a witness;
    // TheDefaultWitnessFindsALaunderedLog uses one.
    gateway::GatewayConfig config = Config(log_, "none");
    auto client = gateway::MakeGatewayClient(config);
    ASSERT_TRUE(client.ok()) << client.status();
    gateway::LlmRequest request;
    request.messages = {{prompt::Role::kUser, "Contract for int id(int x)?"}};
    request.label = "demo.Id#id round 1";
    ASSERT_TRUE((*client)->Complete(request).ok());
    request.messages = {{prompt::Role::kUser, std::string("pk: ") + "AKIA" + "Q7ZXQ7ZXQ7ZXQ7ZX"}};
    ASSERT_FALSE((*client)->Complete(request).ok());
    // The client going away seals the log (record 4).
  }

  // The gateway of a run writing `log`, signing with key_.
  gateway::GatewayConfig Config(const std::string& log, const std::string& witness) {
    gateway::GatewayConfig config;
    config.endpoint.base_url = server_->base_url();
    config.endpoint.model = "test-model";
    config.egress_policy_path = testing::SourceDir() + "/policies/egress.textproto";
    config.audit_log_path = log;
    config.audit_key_path = key_;
    config.audit_witness_path = witness;
    return config;
  }

  // Late-seal laundering by someone without the key: the first request's
  // payload edited (digest updated), the final SEAL deleted, the chain
  // recomputed. Returns the forged log's records.
  std::vector<v1::AuditRecord> Launder(const std::string& log) {
    std::vector<v1::AuditRecord> records;
    for (absl::string_view line : absl::StrSplit(*ReadFile(log), '\n', absl::SkipEmpty())) {
      v1::AuditRecord r;
      EXPECT_TRUE(FromJson(std::string(line), &r).ok());
      records.push_back(r);
    }
    EXPECT_EQ(records.back().verdict(), v1::SEAL);
    records.pop_back();
    EXPECT_TRUE(records[0].has_payload_text());
    records[0].set_payload_text(
        absl::StrReplaceAll(records[0].payload_text(), {{"int x", "int y"}}));
    records[0].set_payload_sha256(Sha256Hex(records[0].payload_text()));
    records[0].set_payload_size(records[0].payload_text().size());
    std::vector<std::string> lines = testing::RechainedLines(records, nullptr);
    EXPECT_TRUE(WriteFileAtomic(log, absl::StrJoin(lines, "\n") + "\n").ok());
    return records;
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

  std::vector<v1::AuditRecord> Records() {
    std::vector<v1::AuditRecord> out;
    for (const std::string& line : Lines()) {
      v1::AuditRecord r;
      EXPECT_TRUE(FromJson(line, &r).ok());
      out.push_back(r);
    }
    return out;
  }
  // Renumbers and recomputes every hash as an attacker without the key can
  // (signatures kept, or re-made with `resign`).
  void Rechain(std::vector<v1::AuditRecord> records, const gateway::AuditSigner* resign = nullptr) {
    Rewrite(testing::RechainedLines(std::move(records), resign));
  }
  SubprocessResult VerifySigned(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"audit", "verify", "--public-key", key_ + ".pub"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(log_);
    return RunTracespec(args);
  }

  testing::TempDir dir_;
  std::unique_ptr<testing::FakeLlmServer> server_;
  std::string log_;
  std::string key_;
};

TEST_F(AuditCommandTest, VerifyAcceptsAnIntactLog) {
  SubprocessResult r = RunTracespec({"audit", "verify", log_});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_TRUE(absl::StrContains(r.stdout_data, ": intact, 4 record(s), head ")) << r.stdout_data;
  EXPECT_TRUE(absl::StrContains(r.stdout_data, "(signatures not checked: pass --public-key)"));
  SubprocessResult signed_check = VerifySigned();
  EXPECT_EQ(signed_check.exit_code, 0) << signed_check.stdout_data << signed_check.stderr_data;
  EXPECT_TRUE(absl::StrContains(signed_check.stdout_data,
                                ": intact and sealed, 4 record(s), 1 signature(s) by key "))
      << signed_check.stdout_data;
}

TEST_F(AuditCommandTest, PublicKeyPrintsTheVerifyingKey) {
  SubprocessResult r = RunTracespec({"audit", "public-key", "--audit-key", key_});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_data;
  EXPECT_EQ(r.stdout_data, *ReadFile(key_ + ".pub"));
  EXPECT_TRUE(absl::StartsWith(r.stdout_data, "-----BEGIN PUBLIC KEY-----")) << r.stdout_data;
}

TEST_F(AuditCommandTest, DeletingTheLastRecordIsAnUnsealedTail) {
  std::vector<std::string> lines = Lines();
  lines.pop_back();
  Rewrite(lines);
  SubprocessResult r = VerifySigned();
  EXPECT_EQ(r.exit_code, 10);
  EXPECT_TRUE(absl::StrContains(r.stdout_data, "UNSEALED TAIL: records 1..3 come after"))
      << r.stdout_data;
}

// Late-seal laundering through the real gateway and CLI: someone without
// the key edits the allowed request's payload, deletes the seal and
// recomputes the chain. The next run's gateway refuses the log (nothing is
// signed or sent), verify reports the tail, and only an explicit, signed
// acknowledgement of exactly those records lets runs extend it again.
TEST_F(AuditCommandTest, ALaunderedLogIsRefusedUntilAcknowledged) {
  Launder(log_);
  std::string forged = *ReadFile(log_);
  gateway::GatewayConfig config = Config(log_, "none");
  auto client = gateway::MakeGatewayClient(config);
  ASSERT_FALSE(client.ok());
  EXPECT_TRUE(absl::StrContains(client.status().message(), "records 1..3 are not covered by a seal"))
      << client.status();
  EXPECT_EQ(*ReadFile(log_), forged);

  SubprocessResult v = VerifySigned();
  EXPECT_EQ(v.exit_code, 10) << v.stdout_data;
  EXPECT_TRUE(absl::StrContains(v.stdout_data, "UNSEALED TAIL: records 1..3")) << v.stdout_data;

  SubprocessResult wrong = RunTracespec({"audit", "acknowledge", log_, "--records", "2..3",
                                         "--reason", "reviewed", "--audit-key", key_});
  EXPECT_EQ(wrong.exit_code, 3);
  EXPECT_TRUE(absl::StrContains(wrong.stderr_data, "the unsealed records are 1..3, not 2..3"))
      << wrong.stderr_data;
  SubprocessResult ack = RunTracespec({"audit", "acknowledge", log_, "--records", "1..3",
                                       "--reason", "reviewed with the team", "--audit-key", key_});
  ASSERT_EQ(ack.exit_code, 0) << ack.stdout_data << ack.stderr_data;
  EXPECT_TRUE(absl::StrContains(ack.stdout_data, "records 1..3 acknowledged by ")) << ack.stdout_data;
  v = VerifySigned();
  EXPECT_EQ(v.exit_code, 0) << v.stdout_data;
  EXPECT_TRUE(absl::StrContains(v.stdout_data,
                                "records 1..3 were not sealed by the run that wrote them, "
                                "acknowledged by "))
      << v.stdout_data;
  EXPECT_TRUE(gateway::MakeGatewayClient(config).ok());
}

// The default witness lies outside the run directory (here:
// $TRACESPEC_AUDIT_WITNESS_DIR), and every signed record is copied there.
// After the laundering above, verify finds the removed seal without being
// told where the witness is, and no acknowledgement can seal the forgery.
TEST_F(AuditCommandTest, TheDefaultWitnessFindsALaunderedLog) {
  std::string state = dir_.path() + "/state";
  ASSERT_EQ(::setenv("TRACESPEC_AUDIT_WITNESS_DIR", state.c_str(), 1), 0);
  struct Unset {
    ~Unset() { ::unsetenv("TRACESPEC_AUDIT_WITNESS_DIR"); }
  } unset;
  std::string log = dir_.path() + "/run2/audit.jsonl";
  gateway::GatewayConfig config = Config(log, "");  // the default witness
  {
    auto client = gateway::MakeGatewayClient(config);
    ASSERT_TRUE(client.ok()) << client.status();
    gateway::LlmRequest request;
    request.messages = {{prompt::Role::kUser, "Contract for int id(int x)?"}};
    ASSERT_TRUE((*client)->Complete(request).ok());
  }
  std::string witness = gateway::DefaultAuditWitnessPath(log);
  ASSERT_EQ(witness.rfind(state + "/", 0), 0u) << witness;
  ASSERT_TRUE(FileExists(witness));
  SubprocessResult intact = RunTracespec({"audit", "verify", "--public-key", key_ + ".pub", log});
  EXPECT_EQ(intact.exit_code, 0) << intact.stdout_data << intact.stderr_data;
  EXPECT_TRUE(absl::StrContains(intact.stdout_data, "every signed record witness " + witness +
                                                        " holds is in the log"))
      << intact.stdout_data;

  std::vector<v1::AuditRecord> records = Launder(log);
  const std::string missing = absl::StrCat("record ", records.size() + 1, " (a SEAL the witness holds");

  SubprocessResult v = RunTracespec({"audit", "verify", "--public-key", key_ + ".pub", log});
  EXPECT_EQ(v.exit_code, 10) << v.stdout_data << v.stderr_data;
  EXPECT_TRUE(absl::StrContains(v.stdout_data, missing)) << v.stdout_data;
  SubprocessResult ack = RunTracespec({"audit", "acknowledge", log, "--records",
                                       absl::StrCat("1..", records.size()), "--reason", "looks fine",
                                       "--audit-key", key_});
  EXPECT_EQ(ack.exit_code, 3) << ack.stdout_data << ack.stderr_data;
  EXPECT_TRUE(absl::StrContains(ack.stderr_data, missing)) << ack.stderr_data;
  auto reopened = gateway::MakeGatewayClient(config);
  ASSERT_FALSE(reopened.ok());
  EXPECT_EQ(reopened.status().code(), absl::StatusCode::kDataLoss) << reopened.status();
}

TEST_F(AuditCommandTest, TruncatingToZeroIsUnsealed) {
  ASSERT_TRUE(WriteFileAtomic(log_, "").ok());
  SubprocessResult r = VerifySigned();
  EXPECT_EQ(r.exit_code, 10);
  EXPECT_TRUE(absl::StrContains(r.stdout_data, "UNSEALED: the log is empty")) << r.stdout_data;
  EXPECT_TRUE(absl::StrContains(r.stdout_data, "(record 1 at least)"));
}

TEST_F(AuditCommandTest, DeletingAMiddleRecordNamesIt) {
  std::vector<std::string> lines = Lines();
  lines.erase(lines.begin() + 1);
  Rewrite(lines);
  SubprocessResult r = VerifySigned();
  EXPECT_EQ(r.exit_code, 10);
  EXPECT_TRUE(absl::StrContains(r.stdout_data, "BROKEN at record 2: ")) << r.stdout_data;
}

TEST_F(AuditCommandTest, DroppingRecordsAndRechainingIsFoundAtTheSeal) {
  std::vector<v1::AuditRecord> records = Records();
  records.erase(records.begin(), records.begin() + 2);
  Rechain(records);
  // The chain alone cannot tell ...
  EXPECT_EQ(RunTracespec({"audit", "verify", log_}).exit_code, 0);
  // ... the seal's signature can.
  SubprocessResult r = VerifySigned();
  EXPECT_EQ(r.exit_code, 10);
  EXPECT_TRUE(absl::StrContains(r.stdout_data,
                                "BROKEN at record 2: the signature of SEAL record 2 does not "
                                "verify"))
      << r.stdout_data;
}

TEST_F(AuditCommandTest, EditingAPayloadIsFoundWithOrWithoutRechaining) {
  std::vector<v1::AuditRecord> records = Records();
  ASSERT_TRUE(records[0].has_payload_text());
  std::string forged = absl::StrReplaceAll(records[0].payload_text(), {{"int id", "int xx"}});
  ASSERT_NE(forged, records[0].payload_text());
  // Payload edited, its record's hash and the chain recomputed, digest kept.
  records[0].set_payload_text(forged);
  Rechain(records);
  SubprocessResult plain = RunTracespec({"audit", "verify", log_});
  EXPECT_EQ(plain.exit_code, 10);
  EXPECT_TRUE(absl::StrContains(plain.stdout_data,
                                "BROKEN at record 1: the stored payload does not match the "
                                "record's payload_sha256"))
      << plain.stdout_data;
  // The digest recomputed too: only the seal tells.
  records[0].set_payload_sha256(Sha256Hex(forged));
  Rechain(records);
  EXPECT_EQ(RunTracespec({"audit", "verify", log_}).exit_code, 0);
  SubprocessResult r = VerifySigned();
  EXPECT_EQ(r.exit_code, 10);
  EXPECT_TRUE(absl::StrContains(r.stdout_data, "BROKEN at record 4: the signature of SEAL"))
      << r.stdout_data;
}

TEST_F(AuditCommandTest, ALogSignedWithAnotherKeyIsAnInputError) {
  auto other = gateway::AuditSigner::LoadOrCreate(dir_.path() + "/keys/attacker.pem");
  ASSERT_TRUE(other.ok()) << other.status();
  std::vector<v1::AuditRecord> records = Records();
  records.erase(records.begin() + 2);
  Rechain(records, other->get());
  SubprocessResult r = VerifySigned();
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_TRUE(absl::StrContains(r.stderr_data, "audit.jsonl:3: record 3 is signed with key "))
      << r.stderr_data;
  EXPECT_TRUE(absl::StrContains(r.stderr_data, "the log was signed with another key"));
}

TEST_F(AuditCommandTest, AWitnessFindsAWholeSealedRunRemoved) {
  std::string first_run = *ReadFile(log_);
  std::string seal_line = Lines().back();
  // A second run appends and seals; its seal goes to the witness (syslog).
  {
    gateway::GatewayConfig config = Config(log_, "none");  // the witness here is syslog's
    auto client = gateway::MakeGatewayClient(config);
    ASSERT_TRUE(client.ok()) << client.status();
    gateway::LlmRequest request;
    request.messages = {{prompt::Role::kUser, "Contract for int id(int x)?"}};
    (*client)->Complete(request).IgnoreError();
  }
  std::string witness = dir_.Write(
      "syslog", "Dec  3 09:00:00 host tracespec-audit: " + seal_line + "\n" +
                    "Dec  3 09:01:00 host tracespec-audit: " + Lines().back() + "\n");
  EXPECT_EQ(VerifySigned({"--witness", witness}).exit_code, 0);
  // The second run removed whole, seal included: a valid, sealed log ...
  ASSERT_TRUE(WriteFileAtomic(log_, first_run).ok());
  EXPECT_EQ(VerifySigned().exit_code, 0);
  // ... that the witness contradicts.
  SubprocessResult r = VerifySigned({"--witness", witness});
  EXPECT_EQ(r.exit_code, 10);
  EXPECT_TRUE(absl::StrContains(r.stdout_data, "a SEAL the witness holds")) << r.stdout_data;
  EXPECT_TRUE(absl::StrContains(r.stdout_data, "is missing: the log ends at record 4"))
      << r.stdout_data;
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
  EXPECT_TRUE(absl::StrContains(out, "#4  ")) << out;
  EXPECT_TRUE(absl::StrContains(out, "-    SEAL\n    signs records 1..3, head ")) << out;
  EXPECT_TRUE(absl::StrContains(out, "4 record(s); chain intact"));
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
                                "BROKEN at record 2: the record's hash does not "
                                "match its content: it was edited"))
      << r.stdout_data;
  SubprocessResult show = RunTracespec({"audit", "show", log_});
  EXPECT_EQ(show.exit_code, 10);
  EXPECT_TRUE(absl::StrContains(show.stdout_data, "WARNING: the chain is broken at line 2"));
}

TEST_F(AuditCommandTest, VerifyNamesARemovedRecordAndATruncatedTail) {
  SubprocessResult intact = RunTracespec({"audit", "verify", log_});
  size_t at = intact.stdout_data.find(", head ");
  ASSERT_NE(at, std::string::npos) << intact.stdout_data;
  std::string head = intact.stdout_data.substr(at + 7, 64);

  std::vector<std::string> lines = Lines();
  Rewrite({lines[0], lines[2], lines[3]});
  SubprocessResult removed = RunTracespec({"audit", "verify", log_});
  EXPECT_EQ(removed.exit_code, 10);
  EXPECT_TRUE(absl::StrContains(removed.stdout_data, "BROKEN at record 2")) << removed.stdout_data;

  // Dropping the last record leaves a valid chain; the kept head finds it.
  Rewrite({lines[0], lines[1], lines[2]});
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

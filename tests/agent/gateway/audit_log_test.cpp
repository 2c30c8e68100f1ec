// Tests for agent/gateway/audit_log.h: the chain verifies, and an edited,
// removed, inserted or reordered record is found at its line; a stored
// payload that does not match its digest is found; with a signing key, the
// tampering a chain alone cannot show (deleting the tail, truncating,
// dropping records and recomputing the chain, editing a payload and
// recomputing, re-signing with another key) is found and names the record.
#include "agent/gateway/audit_log.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "common/hash.h"
#include "common/proto_io.h"
#include "gtest/gtest.h"
#include "tests/agent/gateway/audit_tampering.h"
#include "tests/testing/testing.h"

namespace tracespec::gateway {
namespace {

v1::AuditRecord Outbound(int i) {
  v1::AuditRecord r;
  r.set_destination("http://127.0.0.1:8080/v1/chat/completions");
  r.set_direction(v1::OUTBOUND);
  r.set_verdict(v1::ALLOWED);
  std::string payload = absl::StrCat("{\"n\":", i, "}");
  r.set_payload_size(payload.size());
  r.set_payload_sha256(Sha256Hex(payload));
  r.set_payload_text(payload);
  r.set_label(absl::StrCat("request ", i));
  return r;
}

// A log of `n` records; returns its path.
std::string WriteLog(const testing::TempDir& dir, int n) {
  std::string path = dir.path() + "/audit.jsonl";
  auto log = AuditLog::Open(path);
  EXPECT_TRUE(log.ok()) << log.status();
  for (int i = 1; i <= n; ++i) EXPECT_TRUE((*log)->Append(Outbound(i)).ok());
  return path;
}

std::vector<std::string> Lines(const std::string& path) {
  return absl::StrSplit(*ReadFile(path), '\n', absl::SkipEmpty());
}

// Overwrites the log in place, as someone tampering with it would (no
// fsync: the tests rewrite it hundreds of times).
void WriteLines(const std::string& path, const std::vector<std::string>& lines) {
  std::string text = absl::StrJoin(lines, "\n") + "\n";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(std::fwrite(text.data(), 1, text.size(), f), text.size());
  std::fclose(f);
}

AuditVerification Verify(const std::string& path) {
  auto v = VerifyAuditLog(path);
  EXPECT_TRUE(v.ok()) << v.status();
  return *v;
}

TEST(AuditLogTest, AppendedRecordsFormAChain) {
  testing::TempDir dir;
  std::string path = WriteLog(dir, 3);
  AuditVerification v = Verify(path);
  EXPECT_TRUE(v.intact) << v.problem;
  EXPECT_EQ(v.records, 3);
  auto records = ReadAuditRecords(path);
  ASSERT_TRUE(records.ok());
  ASSERT_EQ(records->size(), 3u);
  EXPECT_EQ((*records)[0].prev_hash(), kAuditGenesisHash);
  EXPECT_EQ((*records)[1].prev_hash(), (*records)[0].hash());
  EXPECT_EQ((*records)[2].sequence(), 3u);
  EXPECT_EQ(v.head_hash, (*records)[2].hash());
  EXPECT_EQ((*records)[2].hash(), AuditRecordHash((*records)[2]));
  EXPECT_EQ((*records)[0].format_version(), v1::FORMAT_VERSION_1);
  EXPECT_EQ((*records)[0].time().size(), std::string("2025-01-01T00:00:00.000000Z").size());
}

TEST(AuditLogTest, ReopeningContinuesTheChain) {
  testing::TempDir dir;
  std::string path = WriteLog(dir, 2);
  {
    auto log = AuditLog::Open(path);
    ASSERT_TRUE(log.ok());
    auto r = (*log)->Append(Outbound(3));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->sequence(), 3u);
  }
  EXPECT_TRUE(Verify(path).intact);
  EXPECT_EQ(Verify(path).records, 3);
}

TEST(AuditLogTest, EveryOneByteEditIsFoundAtItsRecord) {
  testing::TempDir dir;
  std::string path = WriteLog(dir, 4);
  std::vector<std::string> original = Lines(path);
  // Flip each byte of record 3 in turn (a different printable character).
  const std::string& line = original[2];
  for (size_t i = 0; i < line.size(); ++i) {
    std::vector<std::string> edited = original;
    edited[2][i] = line[i] == 'a' ? 'b' : 'a';
    WriteLines(path, edited);
    AuditVerification v = Verify(path);
    EXPECT_FALSE(v.intact) << "byte " << i;
    EXPECT_EQ(v.first_bad_line, 3) << "byte " << i << ": " << v.problem;
    EXPECT_EQ(v.records, 2);
  }
}

TEST(AuditLogTest, RemovedInsertedAndSwappedRecordsAreFound) {
  testing::TempDir dir;
  std::string path = WriteLog(dir, 5);
  std::vector<std::string> original = Lines(path);

  std::vector<std::string> removed = original;
  removed.erase(removed.begin() + 1);
  WriteLines(path, removed);
  AuditVerification v = Verify(path);
  EXPECT_EQ(v.first_bad_line, 2);
  EXPECT_NE(v.problem.find("removed, inserted or reordered"), std::string::npos) << v.problem;

  std::vector<std::string> swapped = original;
  std::swap(swapped[2], swapped[3]);
  WriteLines(path, swapped);
  EXPECT_EQ(Verify(path).first_bad_line, 3);

  std::vector<std::string> inserted = original;
  inserted.insert(inserted.begin() + 2, original[1]);
  WriteLines(path, inserted);
  EXPECT_EQ(Verify(path).first_bad_line, 3);

  // A record rewritten with a fresh, self-consistent hash still breaks the
  // link to its successor.
  std::vector<std::string> forged = original;
  v1::AuditRecord r;
  ASSERT_TRUE(FromJson(original[1], &r).ok());
  r.set_label("forged");
  r.set_hash(AuditRecordHash(r));
  forged[1] = ToJsonLine(r);
  WriteLines(path, forged);
  v = Verify(path);
  EXPECT_EQ(v.first_bad_line, 3);
  EXPECT_NE(v.problem.find("prev_hash"), std::string::npos) << v.problem;

  // A torn last line.
  ASSERT_TRUE(WriteFileAtomic(path, absl::StrJoin(original, "\n") + "\n{\"format").ok());
  v = Verify(path);
  EXPECT_EQ(v.first_bad_line, 6);
  EXPECT_EQ(v.records, 5);
}

TEST(AuditLogTest, ABrokenLogIsNotExtended) {
  testing::TempDir dir;
  std::string path = WriteLog(dir, 3);
  std::vector<std::string> lines = Lines(path);
  lines[1][lines[1].find("request 2")] = 'R';
  WriteLines(path, lines);
  auto log = AuditLog::Open(path);
  ASSERT_FALSE(log.ok());
  EXPECT_EQ(log.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(std::string(log.status().message()).find("audit.jsonl:2: "), std::string::npos)
      << log.status();
}

// A log planted as a link (to a file another user reads, say) or left
// writable by others is not appended to; the target is untouched.
TEST(AuditLogTest, ALinkedOrWritableLogIsRefused) {
  testing::TempDir dir;
  std::string target = WriteLog(dir, 2);
  std::string before = *ReadFile(target);
  std::string link = dir.path() + "/linked.jsonl";
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  auto log = AuditLog::Open(link);
  ASSERT_FALSE(log.ok());
  EXPECT_EQ(log.status().code(), absl::StatusCode::kPermissionDenied) << log.status();
  EXPECT_NE(std::string(log.status().message()).find("symbolic link"), std::string::npos)
      << log.status();
  EXPECT_EQ(*ReadFile(target), before);

  ASSERT_EQ(::chmod(target.c_str(), 0666), 0);
  log = AuditLog::Open(target);
  ASSERT_FALSE(log.ok());
  EXPECT_NE(std::string(log.status().message()).find("writable by others"), std::string::npos)
      << log.status();
}

TEST(AuditLogTest, ConcurrentWritersKeepOneChain) {
  testing::TempDir dir;
  std::string path = dir.path() + "/audit.jsonl";
  auto a = AuditLog::Open(path);
  auto b = AuditLog::Open(path);
  ASSERT_TRUE(a.ok() && b.ok());
  auto write = [](AuditLog* log, int base) {
    for (int i = 0; i < 20; ++i) ASSERT_TRUE(log->Append(Outbound(base + i)).ok());
  };
  std::thread t1(write, a->get(), 0);
  std::thread t2(write, b->get(), 100);
  t1.join();
  t2.join();
  AuditVerification v = Verify(path);
  EXPECT_TRUE(v.intact) << v.problem;
  EXPECT_EQ(v.records, 40);
}

TEST(AuditLogTest, EmptyLogIsIntact) {
  testing::TempDir dir;
  std::string path = dir.Write("empty.jsonl", "");
  AuditVerification v = Verify(path);
  EXPECT_TRUE(v.intact);
  EXPECT_EQ(v.records, 0);
  EXPECT_FALSE(VerifyAuditLog(dir.path() + "/missing.jsonl").ok());
}

TEST(AuditLogTest, AStoredPayloadThatDoesNotMatchItsDigestIsFound) {
  testing::TempDir dir;
  std::string path = WriteLog(dir, 3);
  std::vector<std::string> lines = Lines(path);
  // Edit the payload and recompute the record's own hash and the chain:
  // only the payload digest can tell.
  std::vector<v1::AuditRecord> records;
  for (const std::string& line : lines) {
    v1::AuditRecord r;
    ASSERT_TRUE(FromJson(line, &r).ok());
    records.push_back(r);
  }
  records[1].set_payload_text("{\"n\":7}");
  std::string prev = kAuditGenesisHash;
  for (size_t i = 0; i < records.size(); ++i) {
    records[i].set_prev_hash(prev);
    records[i].set_hash(AuditRecordHash(records[i]));
    prev = records[i].hash();
    lines[i] = ToJsonLine(records[i]);
  }
  WriteLines(path, lines);
  AuditVerification v = Verify(path);
  EXPECT_FALSE(v.intact);
  EXPECT_EQ(v.first_bad_line, 2);
  EXPECT_NE(v.problem.find("payload_sha256"), std::string::npos) << v.problem;
}

// A signed log and the attacks on it.
class SignedAuditLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto signer = AuditSigner::LoadOrCreate(dir_.path() + "/keys/audit-key.pem");
    ASSERT_TRUE(signer.ok()) << signer.status();
    signer_ = *signer;
    auto other = AuditSigner::LoadOrCreate(dir_.path() + "/keys/other-key.pem");
    ASSERT_TRUE(other.ok()) << other.status();
    other_ = *other;
    path_ = dir_.path() + "/run/audit.jsonl";
    // One run of 5 records: 1..5, then the SEAL (record 6).
    auto log = AuditLog::Open(path_, signer_);
    ASSERT_TRUE(log.ok()) << log.status();
    for (int i = 1; i <= 5; ++i) ASSERT_TRUE((*log)->Append(Outbound(i)).ok());
    auto seal = (*log)->Seal();
    ASSERT_TRUE(seal.ok()) << seal.status();
    EXPECT_EQ(seal->sequence(), 6u);
  }

  absl::StatusOr<AuditVerification> VerifySigned() {
    return VerifyAuditLog(path_, &signer_->public_key());
  }

  std::vector<v1::AuditRecord> Records() {
    std::vector<v1::AuditRecord> out;
    for (const std::string& line : Lines(path_)) {
      v1::AuditRecord r;
      EXPECT_TRUE(FromJson(line, &r).ok());
      out.push_back(r);
    }
    return out;
  }

  // What an attacker with write access but no key does: renumber and
  // recompute every hash, keeping the signatures (or making new ones with
  // `resign`'s key).
  void Rechain(std::vector<v1::AuditRecord> records, const AuditSigner* resign = nullptr) {
    WriteLines(path_, testing::RechainedLines(std::move(records), resign));
  }

  testing::TempDir dir_;
  std::shared_ptr<const AuditSigner> signer_, other_;
  std::string path_;
};

TEST_F(SignedAuditLogTest, AnIntactRunIsSealed) {
  auto v = VerifySigned();
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_TRUE(v->intact) << v->problem;
  EXPECT_TRUE(v->sealed());
  EXPECT_EQ(v->records, 6);
  EXPECT_EQ(v->seals, 1);
  std::vector<v1::AuditRecord> records = Records();
  EXPECT_EQ(records[5].verdict(), v1::SEAL);
  EXPECT_EQ(records[5].sealed_records(), 5u);
  EXPECT_EQ(records[5].sealed_head(), records[4].hash());
  EXPECT_EQ(records[5].signing_key_id(), signer_->public_key().id());
  // A second run continues the chain and seals again.
  {
    auto log = AuditLog::Open(path_, signer_);
    ASSERT_TRUE(log.ok()) << log.status();
    ASSERT_TRUE((*log)->Append(Outbound(6)).ok());
  }  // sealed on close
  v = VerifySigned();
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->sealed());
  EXPECT_EQ(v->records, 8);
  EXPECT_EQ(v->seals, 2);
}

TEST_F(SignedAuditLogTest, LongRunsGetCheckpoints) {
  {
    auto log = AuditLog::Open(path_, signer_);
    ASSERT_TRUE(log.ok());
    for (int i = 0; i < 2 * kAuditCheckpointInterval; ++i) {
      ASSERT_TRUE((*log)->Append(Outbound(i)).ok());
    }
  }
  auto v = VerifySigned();
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->sealed());
  // 6 + 32 records, 2 checkpoints, 1 seal.
  EXPECT_EQ(v->records, 6 + 2 * kAuditCheckpointInterval + 3);
  EXPECT_EQ(v->signed_records, 4);
}

TEST_F(SignedAuditLogTest, DeletingTheLastRecordLeavesAnUnsealedTail) {
  std::vector<std::string> lines = Lines(path_);
  lines.pop_back();
  WriteLines(path_, lines);
  auto v = VerifySigned();
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->intact);  // the chain itself is fine ...
  EXPECT_FALSE(v->sealed());  // ... but records 1..5 are covered by nothing
  EXPECT_EQ(v->last_signed, 0);
  EXPECT_EQ(v->records, 5);
}

TEST_F(SignedAuditLogTest, TruncatingToZeroIsUnsealed) {
  ASSERT_TRUE(WriteFileAtomic(path_, "").ok());
  auto v = VerifySigned();
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->records, 0);
  EXPECT_FALSE(v->sealed());
}

TEST_F(SignedAuditLogTest, DeletingAMiddleRecordNamesIt) {
  std::vector<std::string> lines = Lines(path_);
  lines.erase(lines.begin() + 2);
  WriteLines(path_, lines);
  auto v = VerifySigned();
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(v->intact);
  EXPECT_EQ(v->first_bad_line, 3);
}

TEST_F(SignedAuditLogTest, DroppingRecordsAndRechainingBreaksTheSeal) {
  std::vector<v1::AuditRecord> records = Records();
  records.erase(records.begin(), records.begin() + 2);  // drop records 1-2
  Rechain(records);
  EXPECT_TRUE(Verify(path_).intact);  // without the key it looks fine
  auto v = VerifySigned();
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(v->intact);
  EXPECT_EQ(v->first_bad_line, 4);  // the seal, now record 4
  EXPECT_NE(v->problem.find("SEAL record 4 does not verify"), std::string::npos) << v->problem;
}

TEST_F(SignedAuditLogTest, EditingAPayloadAndRechainingBreaksTheSeal) {
  std::vector<v1::AuditRecord> records = Records();
  std::string forged = "{\"n\":99}";
  records[2].set_payload_text(forged);
  records[2].set_payload_size(forged.size());
  records[2].set_payload_sha256(Sha256Hex(forged));
  Rechain(records);
  EXPECT_TRUE(Verify(path_).intact);
  auto v = VerifySigned();
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(v->intact);
  EXPECT_EQ(v->first_bad_line, 6);
}

TEST_F(SignedAuditLogTest, ResigningWithAnotherKeyIsNamed) {
  std::vector<v1::AuditRecord> records = Records();
  records.erase(records.begin() + 1);
  Rechain(records, other_.get());
  auto v = VerifySigned();
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(v.status().message().find("audit.jsonl:5: record 5 is signed with key "),
            absl::string_view::npos)
      << v.status();
  EXPECT_NE(v.status().message().find("signed with another key"), absl::string_view::npos);
  // Nor is such a log extended by a writer holding the real key.
  auto log = AuditLog::Open(path_, signer_);
  ASSERT_FALSE(log.ok());
  EXPECT_EQ(log.status().code(), absl::StatusCode::kInvalidArgument);
}

// A tail no seal covers — a run that died, or records edited and rechained
// by someone without the key — is never signed by the next session: it is
// refused until acknowledged, and the acknowledgement says by whom.
TEST_F(SignedAuditLogTest, AnUnsealedTailIsRefusedUntilAcknowledged) {
  {
    // A run that died before sealing: appended, never closed cleanly.
    auto log = AuditLog::Open(path_, nullptr);
    ASSERT_TRUE(log.ok());
    ASSERT_TRUE((*log)->Append(Outbound(7)).ok());
  }
  std::string before = *ReadFile(path_);
  auto log = AuditLog::Open(path_, signer_);
  ASSERT_FALSE(log.ok());
  EXPECT_EQ(log.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(log.status().message().find("records 7..7 are not covered by a seal"),
            absl::string_view::npos)
      << log.status();
  EXPECT_NE(log.status().message().find("tracespec audit acknowledge " + path_ +
                                        " --records 7..7 --reason TEXT"),
            absl::string_view::npos)
      << log.status();
  EXPECT_EQ(*ReadFile(path_), before);

  // One acknowledges exactly what one reviewed, with a reason.
  EXPECT_EQ(AuditLog::Acknowledge(path_, signer_, /*witness=*/"", 6, 7, "ok").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(AuditLog::Acknowledge(path_, signer_, /*witness=*/"", 7, 7, "").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(*ReadFile(path_), before);
  auto seal = AuditLog::Acknowledge(path_, signer_, /*witness=*/"", 7, 7, "the run was killed; request 7 checked");
  ASSERT_TRUE(seal.ok()) << seal.status();
  EXPECT_EQ(seal->sequence(), 8u);
  EXPECT_FALSE(seal->acknowledged_by().empty());
  auto v = VerifySigned();
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->sealed());
  EXPECT_TRUE(v->late_seals.empty());
  ASSERT_EQ(v->acknowledged.size(), 1u);
  EXPECT_EQ(v->acknowledged[0].seal, 8);
  EXPECT_EQ(v->acknowledged[0].from, 7);
  EXPECT_EQ(v->acknowledged[0].to, 7);
  EXPECT_NE(v->acknowledged[0].detail.find("request 7 checked"), std::string::npos);
  EXPECT_EQ(AuditLog::Acknowledge(path_, signer_, /*witness=*/"", 9, 9, "x").status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(AuditLog::Open(path_, signer_).ok());
}

// Late-seal laundering: the sealed run's payload is edited, its seal
// deleted and the chain recomputed. The next ordinary session must not
// sign that.
TEST_F(SignedAuditLogTest, ALaunderedRunIsNotSignedByTheNextSession) {
  std::vector<v1::AuditRecord> records = Records();
  records.pop_back();  // the SEAL
  records[1].set_payload_text("{\"n\":0}");
  records[1].set_payload_sha256(Sha256Hex(records[1].payload_text()));
  records[1].set_payload_size(records[1].payload_text().size());
  Rechain(records);
  std::string forged = *ReadFile(path_);
  auto log = AuditLog::Open(path_, signer_);
  ASSERT_FALSE(log.ok());
  EXPECT_NE(log.status().message().find("records 1..5 are not covered by a seal"),
            absl::string_view::npos)
      << log.status();
  EXPECT_EQ(*ReadFile(path_), forged);
  auto v = VerifySigned();
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(v->sealed());
}

// Sessions open at the same time (parallel methods of one run) do not take
// each other's records for an abandoned tail; each seal covers all before it.
TEST_F(SignedAuditLogTest, SessionsOpenAtOnceDoNotRefuseEachOther) {
  auto first = AuditLog::Open(path_, signer_);
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE((*first)->Append(Outbound(10)).ok());
  auto second = AuditLog::Open(path_, signer_);
  ASSERT_TRUE(second.ok()) << second.status();
  ASSERT_TRUE((*second)->Append(Outbound(11)).ok());
  EXPECT_EQ(AuditLog::Acknowledge(path_, signer_, /*witness=*/"", 7, 8, "x").status().code(),
            absl::StatusCode::kFailedPrecondition);
  first->reset();
  second->reset();
  auto v = VerifySigned();
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->sealed());
  EXPECT_TRUE(v->acknowledged.empty());
}

// A witness gets a copy of every signed record; a log that lost one (a
// whole sealed run removed from its end) is not extended.
TEST_F(SignedAuditLogTest, AWitnessCatchesASealedRunRemovedFromTheEnd) {
  std::string witness = dir_.path() + "/state/witness.jsonl";
  std::vector<std::string> first_run = Lines(path_);
  {
    auto log = AuditLog::Open(path_, signer_, witness);
    ASSERT_TRUE(log.ok()) << log.status();
    for (int i = 7; i <= 8; ++i) ASSERT_TRUE((*log)->Append(Outbound(i)).ok());
  }
  std::vector<std::string> witnessed = Lines(witness);
  ASSERT_EQ(witnessed.size(), 1u);  // the second run's SEAL, record 9
  EXPECT_EQ(witnessed[0], Lines(path_).back());
  auto agrees = CheckAuditWitness(witness, path_, &signer_->public_key());
  ASSERT_TRUE(agrees.ok()) << agrees.status();
  EXPECT_EQ(*agrees, "");

  WriteLines(path_, first_run);  // still a sealed, intact log
  auto v = VerifySigned();
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->sealed());
  auto found = CheckAuditWitness(witness, path_, &signer_->public_key());
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_NE(found->find("record 9 (a SEAL the witness holds"), std::string::npos) << *found;
  auto log = AuditLog::Open(path_, signer_, witness);
  ASSERT_FALSE(log.ok());
  EXPECT_EQ(log.status().code(), absl::StatusCode::kDataLoss) << log.status();
}

// A log made anew where an earlier one was (its run directory deleted)
// gets a new witness; the earlier witness is kept beside it.
TEST_F(SignedAuditLogTest, ANewLogAtTheSamePathStartsANewWitness) {
  std::string witness = dir_.path() + "/state/witness.jsonl";
  { ASSERT_TRUE(AuditLog::Open(path_, signer_, witness).ok()); }
  {
    auto log = AuditLog::Open(path_, signer_, witness);
    ASSERT_TRUE(log.ok()) << log.status();
    ASSERT_TRUE((*log)->Append(Outbound(7)).ok());
  }
  std::string earlier = *ReadFile(witness);
  ASSERT_TRUE(RemoveAll(dir_.path() + "/run").ok());
  {
    auto log = AuditLog::Open(path_, signer_, witness);
    ASSERT_TRUE(log.ok()) << log.status();
    ASSERT_TRUE((*log)->Append(Outbound(1)).ok());
  }
  EXPECT_EQ(*ReadFile(witness + ".1"), earlier);
  auto agrees = CheckAuditWitness(witness, path_, &signer_->public_key());
  ASSERT_TRUE(agrees.ok()) << agrees.status();
  EXPECT_EQ(*agrees, "");
  EXPECT_TRUE(AuditLog::Open(path_, signer_, witness).ok());
}

TEST_F(SignedAuditLogTest, OnlyTheLogWritesSignedRecords) {
  auto log = AuditLog::Open(path_, signer_);
  ASSERT_TRUE(log.ok());
  v1::AuditRecord seal;
  seal.set_verdict(v1::SEAL);
  EXPECT_FALSE((*log)->Append(seal).ok());
}

}  // namespace
}  // namespace tracespec::gateway

// Tests for agent/gateway/audit_log.h: the chain verifies, and an edited,
// removed, inserted or reordered record is found at its line.
#include "agent/gateway/audit_log.h"

#include <cstdio>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::gateway {
namespace {

v1::AuditRecord Outbound(int i) {
  v1::AuditRecord r;
  r.set_destination("http://127.0.0.1:8080/v1/chat/completions");
  r.set_direction(v1::OUTBOUND);
  r.set_verdict(v1::ALLOWED);
  r.set_payload_size(100 + i);
  r.set_payload_sha256(std::string(64, 'a' + i % 6));
  r.set_payload_text(absl::StrCat("{\"n\":", i, "}"));
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
  r.set_payload_size(999);
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

}  // namespace
}  // namespace tracespec::gateway

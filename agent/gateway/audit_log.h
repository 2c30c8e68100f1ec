// The audit log: an append-only file of tracespec.v1.AuditRecord, one JSON
// line each (protobuf JSON mapping, canonical form), hash-chained: every
// record holds the SHA-256 of its predecessor (`prev_hash`, 64 zeros for the
// first) and of itself (`hash`: SHA-256 of its own line with `hash` empty).
// Appends are serialised with flock, written in one write() and fsync'd.
//
// Verification finds any edited, removed, inserted or reordered record and
// names the first bad line. Removing records from the end leaves a valid
// shorter chain: compare the head hash with one kept elsewhere
// (`tracespec audit verify --expect-head`) to detect that too.
#ifndef TRACESPEC_AGENT_GATEWAY_AUDIT_LOG_H_
#define TRACESPEC_AGENT_GATEWAY_AUDIT_LOG_H_

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tracespec/v1/audit.pb.h"

namespace tracespec::gateway {

// SHA-256 (hex) of `record`'s canonical JSON line with `hash` cleared.
std::string AuditRecordHash(const v1::AuditRecord& record);

// The `prev_hash` of a log's first record.
extern const char kAuditGenesisHash[];

class AuditLog {
 public:
  // Opens the log at `path`, creating it (mode 0600) if missing. An existing
  // log is verified first; a broken one is refused (DataLoss naming the
  // first bad line) rather than extended.
  static absl::StatusOr<std::unique_ptr<AuditLog>> Open(const std::string& path);
  ~AuditLog();

  // Completes `record` — format version, sequence, time (unless set),
  // prev_hash, hash — appends it and fsyncs. Returns the record as written.
  absl::StatusOr<v1::AuditRecord> Append(v1::AuditRecord record);

  const std::string& path() const { return path_; }

 private:
  AuditLog(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}

  std::string path_;
  int fd_;
  std::mutex mutex_;
};

struct AuditVerification {
  bool intact = false;
  // Records that verified (all of them when intact).
  int records = 0;
  // Hash of the last record that verified (the genesis hash if none).
  std::string head_hash;
  // 1-based line of the first bad record; 0 when intact.
  int first_bad_line = 0;
  // What is wrong there.
  std::string problem;
};

// Checks the whole chain. An error status when the file cannot be read, or
// (kInvalidArgument) when it is no audit log at all: its first line is not
// an audit record and no other line is either.
absl::StatusOr<AuditVerification> VerifyAuditLog(const std::string& path);

// Every record, for display; a line that does not parse is an error naming it.
absl::StatusOr<std::vector<v1::AuditRecord>> ReadAuditRecords(const std::string& path);

}  // namespace tracespec::gateway

#endif  // TRACESPEC_AGENT_GATEWAY_AUDIT_LOG_H_

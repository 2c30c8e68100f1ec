// The audit log: an append-only file of tracespec.v1.AuditRecord, one JSON
// line each (protobuf JSON mapping, canonical form), hash-chained: every
// record holds the SHA-256 of its predecessor (`prev_hash`, 64 zeros for the
// first) and of itself (`hash`: SHA-256 of its own line with `hash` empty).
// Appends are serialised with flock, written in one write() and fsync'd.
//
// Verification finds any edited, removed, inserted or reordered record, and
// any stored payload that does not match its payload_sha256/payload_size,
// and names the first bad line. A chain alone can be recomputed by whoever
// can write the file, so a log opened with a signer (audit_key.h) also gets
// signed records: a CHECKPOINT every kAuditCheckpointInterval records and a
// SEAL when the log is closed, each signing the chain up to itself. With the
// public key, verification then detects a rechained log (a signature no
// longer verifies), a log signed with another key, and a tail that no
// signature covers (records after the last seal removed, or a run that did
// not finish). Removing whole sealed runs from the end still leaves a
// valid log: a witness copy of the seals (`tracespec audit verify
// --witness`) or of the head (`--expect-head`) detects that.
#ifndef TRACESPEC_AGENT_GATEWAY_AUDIT_LOG_H_
#define TRACESPEC_AGENT_GATEWAY_AUDIT_LOG_H_

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/gateway/audit_key.h"
#include "tracespec/v1/audit.pb.h"

namespace tracespec::gateway {

// SHA-256 (hex) of `record`'s canonical JSON line with `hash` and
// `signature` cleared.
std::string AuditRecordHash(const v1::AuditRecord& record);

// The `prev_hash` of a log's first record.
extern const char kAuditGenesisHash[];

// Records between checkpoints.
inline constexpr int kAuditCheckpointInterval = 16;

class AuditLog {
 public:
  // Opens the log at `path`, creating it (mode 0600) if missing. An existing
  // log is verified first; a broken one is refused (DataLoss naming the
  // first bad line) rather than extended, and so is one signed with another
  // key than `signer`'s (InvalidArgument naming the line). With a signer,
  // an existing tail no signature covers (a run that did not finish) is
  // sealed at once by a SEAL whose detail says it came late.
  static absl::StatusOr<std::unique_ptr<AuditLog>> Open(
      const std::string& path, std::shared_ptr<const AuditSigner> signer = nullptr);
  // Seals (best effort) unless Seal() was called after the last append.
  ~AuditLog();

  // Completes `record` — format version, sequence, time (unless set),
  // prev_hash, hash — appends it and fsyncs. Returns the record as written.
  // With a signer, every kAuditCheckpointInterval-th record of this session
  // is followed by a CHECKPOINT.
  absl::StatusOr<v1::AuditRecord> Append(v1::AuditRecord record);

  // With a signer, appends a SEAL when this session appended anything or
  // created the log, and returns it; otherwise returns an empty record.
  absl::StatusOr<v1::AuditRecord> Seal();

  const std::string& path() const { return path_; }

 private:
  AuditLog(std::string path, int fd, std::shared_ptr<const AuditSigner> signer)
      : path_(std::move(path)), fd_(fd), signer_(std::move(signer)) {}
  // Appends under the lock; `verdict` CHECKPOINT/SEAL records get signed.
  absl::StatusOr<v1::AuditRecord> AppendLocked(v1::AuditRecord record);

  std::string path_;
  int fd_;
  std::shared_ptr<const AuditSigner> signer_;
  std::mutex mutex_;
  // Records appended since the last signed one this session wrote.
  int unsigned_records_ = 0;
  // Whether a SEAL is owed when the log is closed.
  bool needs_seal_ = false;
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
  // Whether signatures were checked (a public key was given).
  bool signatures_checked = false;
  // Signed records (CHECKPOINT and SEAL) seen, and how many of them SEALs.
  int signed_records = 0;
  int seals = 0;
  // Sequence of the last signed record, of the last SEAL (0 if none).
  int last_signed = 0;
  int last_seal = 0;
  // Seals written on reopening a log a run left unsealed (their sequences).
  std::vector<int> late_seals;
  // Whether the last record is a SEAL: every record is covered by a signature.
  bool sealed() const { return records > 0 && last_seal == records; }
};

// Checks the whole chain and every stored payload; with `key`, also every
// signed record's signature. An error status when the file cannot be read,
// or (InvalidArgument, `path:line`) when a record is signed with another
// key than `key`.
absl::StatusOr<AuditVerification> VerifyAuditLog(const std::string& path,
                                                 const AuditPublicKey* key = nullptr);

// Every record, for display; a line that does not parse is an error naming it.
absl::StatusOr<std::vector<v1::AuditRecord>> ReadAuditRecords(const std::string& path);

}  // namespace tracespec::gateway

#endif  // TRACESPEC_AGENT_GATEWAY_AUDIT_LOG_H_

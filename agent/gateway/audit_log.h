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
// not finish). Such a tail is never signed by a later run: it is refused
// until someone reviews it and acknowledges it (AuditLog::Acknowledge, a
// signed SEAL naming who and why). Removing whole sealed runs from the end still leaves a
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

struct AuditVerification;

class AuditLog {
 public:
  // Opens the log at `path`, creating it (mode 0600) if missing; the path is
  // checked like an output directory (owned_paths.h). An existing log is
  // verified first; a broken one is refused (DataLoss naming the first bad
  // line) rather than extended, and so is one signed with another key than
  // `signer`'s (InvalidArgument naming the line). With a signer, an
  // existing tail no signature covers is refused (FailedPrecondition naming
  // the records and the command that acknowledges them) unless another
  // session that is still open (in this or another process) wrote it:
  // signing it would vouch for records this session did not write — a run
  // that died, or someone who edited the log and recomputed the chain.
  //
  // With a `witness` path, every signed record is also appended (one JSON
  // line, fsync'd) to that file, which should lie where whoever can write
  // the run directory cannot (DefaultAuditWitnessPath); and a log that no
  // longer holds a record its witness holds is refused (DataLoss): it was
  // rewritten, or sealed runs were removed from its end. A session that
  // creates the log starts a new witness (an earlier log's, at the same
  // path, is moved to WITNESS.1, .2, ...).
  static absl::StatusOr<std::unique_ptr<AuditLog>> Open(
      const std::string& path, std::shared_ptr<const AuditSigner> signer = nullptr,
      const std::string& witness = "");

  // Acknowledges, after review, the unsealed tail of the log at `path`:
  // appends a SEAL signed by `signer` that names records `from`..`to`, the
  // user running this and `reason`, and returns it. `from`..`to` must be
  // exactly the unsealed records (InvalidArgument otherwise: one
  // acknowledges what one reviewed); `reason` must not be empty. Refused
  // while another session has the log open, and (DataLoss) when `witness`
  // shows the log was rewritten: no acknowledgement launders that.
  static absl::StatusOr<v1::AuditRecord> Acknowledge(const std::string& path,
                                                     std::shared_ptr<const AuditSigner> signer,
                                                     const std::string& witness, int from,
                                                     int to, const std::string& reason);
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
  AuditLog(std::string path, int fd, int session_fd, std::shared_ptr<const AuditSigner> signer)
      : path_(std::move(path)), fd_(fd), session_fd_(session_fd), signer_(std::move(signer)) {}
  // Open's work; with `acknowledging`, an unsealed tail is not refused and
  // the caller must be the only session. `verified` (may be null) receives
  // the verification of an existing log.
  static absl::StatusOr<std::unique_ptr<AuditLog>> OpenSession(
      const std::string& path, std::shared_ptr<const AuditSigner> signer,
      const std::string& witness, bool acknowledging, AuditVerification* verified);
  // Appends under the lock; `verdict` CHECKPOINT/SEAL records get signed.
  absl::StatusOr<v1::AuditRecord> AppendLocked(v1::AuditRecord record);

  std::string path_;
  int fd_;
  // PATH.sessions, held with a shared flock while this session is open: a
  // session that gets it exclusively knows no other is writing.
  int session_fd_;
  std::shared_ptr<const AuditSigner> signer_;
  std::string witness_;
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
  // Seals written on reopening a log a run left unsealed (their sequences;
  // earlier versions did this).
  std::vector<int> late_seals;
  // Unsealed tails acknowledged after review (AuditLog::Acknowledge).
  struct Acknowledged {
    int seal = 0;  // the acknowledging SEAL's sequence
    int from = 0;
    int to = 0;
    std::string by;
    std::string detail;
  };
  std::vector<Acknowledged> acknowledged;
  // Whether the last record is a SEAL: every record is covered by a signature.
  bool sealed() const { return records > 0 && last_seal == records; }
};

// The default witness of the log at `log_path`: WITNESS_DIR/<first 16 hex
// digits of the SHA-256 of the log's absolute path>.jsonl, where
// WITNESS_DIR is $TRACESPEC_AUDIT_WITNESS_DIR, else
// $XDG_STATE_HOME/tracespec/witness, else ~/.local/state/tracespec/witness;
// "" when none of them is set.
std::string DefaultAuditWitnessPath(const std::string& log_path);

// Checks the signed records a witness file holds (JSON lines; other lines
// are ignored) against the log: each must be in the log, unchanged. ""
// when they all are, else what is wrong (naming the record and the
// witness line). An error status when a file cannot be read, or (with
// `key`) when a witnessed record is not signed by it.
absl::StatusOr<std::string> CheckAuditWitness(const std::string& witness_path,
                                              const std::string& log_path,
                                              const AuditPublicKey* key);

// Checks the whole chain and every stored payload; with `key`, also every
// signed record's signature. An error status when the file cannot be read,
// (InvalidArgument, `path:line`) when a record is signed with another key
// than `key`, or (InvalidArgument) when the file is no audit log at all: its
// first line is not an audit record and no other line is either.
absl::StatusOr<AuditVerification> VerifyAuditLog(const std::string& path,
                                                 const AuditPublicKey* key = nullptr);

// Every record, for display; a line that does not parse is an error naming it.
absl::StatusOr<std::vector<v1::AuditRecord>> ReadAuditRecords(const std::string& path);

}  // namespace tracespec::gateway

#endif  // TRACESPEC_AGENT_GATEWAY_AUDIT_LOG_H_

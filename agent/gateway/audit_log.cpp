// The hash-chained audit log; see audit_log.h.
#include "agent/gateway/audit_log.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "common/files.h"
#include "common/owned_paths.h"
#include "common/hash.h"
#include "common/proto_io.h"
#include "common/status.h"

namespace tracespec::gateway {

const char kAuditGenesisHash[] = "0000000000000000000000000000000000000000000000000000000000000000";

namespace {

absl::Status ErrnoError(absl::string_view what, const std::string& path) {
  return absl::InternalError(absl::StrCat(path, ": ", what, ": ", std::strerror(errno)));
}

// Holds an exclusive flock for its lifetime.
class FileLock {
 public:
  explicit FileLock(int fd) : fd_(fd) { locked_ = ::flock(fd_, LOCK_EX) == 0; }
  ~FileLock() {
    if (locked_) ::flock(fd_, LOCK_UN);
  }
  bool locked() const { return locked_; }

 private:
  int fd_;
  bool locked_;
};

// Appends `line` (a signed record, newline-terminated) to the witness file.
absl::Status AppendToWitness(const std::string& witness, const std::string& line) {
  TS_ASSIGN_OR_RETURN(int fd, OpenOwnedFileForAppend(witness));
  bool ok = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()) &&
            ::fsync(fd) == 0;
  ::close(fd);
  if (!ok) return ErrnoError("cannot write the audit witness", witness);
  return absl::OkStatus();
}

// The last line of the file behind `fd` (without its newline); empty for an
// empty file. An error when the file does not end with a newline.
absl::StatusOr<std::string> ReadLastLine(int fd, const std::string& path) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return ErrnoError("cannot stat", path);
  off_t size = st.st_size;
  if (size == 0) return std::string();
  std::string tail;
  off_t pos = size;
  constexpr off_t kChunk = 4096;
  while (pos > 0) {
    off_t start = pos > kChunk ? pos - kChunk : 0;
    std::string chunk(static_cast<size_t>(pos - start), '\0');
    ssize_t n = ::pread(fd, chunk.data(), chunk.size(), start);
    if (n != static_cast<ssize_t>(chunk.size())) return ErrnoError("cannot read", path);
    tail = chunk + tail;
    pos = start;
    if (tail.back() != '\n') {
      return absl::DataLossError(absl::StrCat(path,
                                              ": the last record is incomplete (no newline); "
                                              "run `tracespec audit verify`"));
    }
    size_t newline = tail.rfind('\n', tail.size() - 2);
    if (newline != std::string::npos || pos == 0) {
      size_t begin = newline == std::string::npos ? 0 : newline + 1;
      return tail.substr(begin, tail.size() - 1 - begin);
    }
  }
  return tail.substr(0, tail.size() - 1);
}

// Whether some line is an audit record (parses, has a hash): a file of
// which none is was never an audit log, rather than a broken one.
bool HasAuditRecord(const std::vector<absl::string_view>& lines) {
  for (absl::string_view line : lines) {
    v1::AuditRecord record;
    if (FromJson(std::string(line), &record).ok() && !record.hash().empty()) return true;
  }
  return false;
}

std::string NowRfc3339() {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%E6SZ", absl::Now(), absl::UTCTimeZone());
}

// Why a stored payload does not match the digest and size the record
// states; "" when it matches or none is stored.
std::string StoredPayloadProblem(const v1::AuditRecord& record) {
  const std::string* payload = nullptr;
  if (record.has_payload_text()) payload = &record.payload_text();
  if (record.has_payload_binary()) payload = &record.payload_binary();
  if (payload == nullptr) return "";
  if (payload->size() != record.payload_size()) {
    return absl::StrCat("the stored payload has ", payload->size(), " bytes, the record says ",
                        record.payload_size(), ": it was edited");
  }
  if (Sha256Hex(*payload) != record.payload_sha256()) {
    return "the stored payload does not match the record's payload_sha256: it was edited";
  }
  return "";
}

}  // namespace

std::string AuditRecordHash(const v1::AuditRecord& record) {
  v1::AuditRecord copy = record;
  copy.clear_hash();
  copy.clear_signature();
  return Sha256Hex(ToJsonLine(copy));
}

absl::StatusOr<std::unique_ptr<AuditLog>> AuditLog::Open(
    const std::string& path, std::shared_ptr<const AuditSigner> signer,
    const std::string& witness) {
  return OpenSession(path, std::move(signer), witness, /*acknowledging=*/false,
                     /*verified=*/nullptr);
}

absl::StatusOr<std::unique_ptr<AuditLog>> AuditLog::OpenSession(
    const std::string& path, std::shared_ptr<const AuditSigner> signer,
    const std::string& witness, bool acknowledging, AuditVerification* verified) {
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  // Refuses a log (or directory) another user made, could replace or links
  // elsewhere before anything is read from it or appended.
  TS_RETURN_IF_ERROR(CheckOwnedPath(path));
  // Sessions announce themselves on PATH.sessions (shared flock for their
  // lifetime). Getting it exclusively means no other session is open, so
  // an unsealed tail is nobody's to seal.
  TS_ASSIGN_OR_RETURN(int session_fd, OpenOwnedFileForAppend(path + ".sessions"));
  struct SessionGuard {
    int fd;
    ~SessionGuard() {
      if (fd >= 0) ::close(fd);
    }
  } session{session_fd};
  const bool alone = ::flock(session_fd, LOCK_EX | LOCK_NB) == 0;
  if (acknowledging && !alone) {
    return absl::FailedPreconditionError(absl::StrCat(
        path, ": another run has the audit log open; acknowledge its unsealed records once "
              "no run is writing it"));
  }
  bool existed = FileExists(path);
  if (existed) {
    TS_ASSIGN_OR_RETURN(AuditVerification check,
                        VerifyAuditLog(path, signer ? &signer->public_key() : nullptr));
    if (!check.intact) {
      return absl::DataLossError(
          absl::StrCat(Located(path, check.first_bad_line, 0, check.problem),
                       "; the audit log is broken and will not be extended"));
    }
    if (verified != nullptr) *verified = check;
    if (!witness.empty() && FileExists(witness)) {
      TS_ASSIGN_OR_RETURN(std::string problem,
                          CheckAuditWitness(witness, path, signer ? &signer->public_key() : nullptr));
      if (!problem.empty()) {
        return absl::DataLossError(
            absl::StrCat(path, ": ", problem, "; the audit log will not be extended"));
      }
    }
    if (signer && alone && !acknowledging && check.records > check.last_signed) {
      std::string records = absl::StrCat(check.last_signed + 1, "..", check.records);
      return absl::FailedPreconditionError(absl::StrCat(
          path, ": records ", records,
          " are not covered by a seal: the run that wrote them did not finish, or they were "
          "edited and the chain recomputed. This run will not sign records it did not write, "
          "so nothing was appended or sent. Review them (`tracespec audit show ", path,
          "`) and, if they are what was sent, acknowledge them: `tracespec audit acknowledge ",
          path, " --records ", records, " --reason TEXT`"));
    }
  }
  // From here on, others may open the log too.
  if (!acknowledging && ::flock(session_fd, LOCK_SH) != 0) {
    return ErrnoError("cannot lock", path + ".sessions");
  }
  if (!existed && !witness.empty() && FileExists(witness)) {
    // A new log at a path an earlier log had (its run directory deleted):
    // a new witness, the earlier one kept beside it as WITNESS.N.
    for (int n = 1;; ++n) {
      std::string aside = absl::StrCat(witness, ".", n);
      if (FileExists(aside)) continue;
      if (::rename(witness.c_str(), aside.c_str()) != 0) {
        return ErrnoError("cannot move the earlier witness aside", witness);
      }
      break;
    }
  }
  TS_ASSIGN_OR_RETURN(int fd, OpenOwnedFileForAppend(path));
  if (!existed) {
    // Make the new directory entry durable too.
    int dir = ::open(parent.empty() ? "." : parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
      ::fsync(dir);
      ::close(dir);
    }
  }
  std::unique_ptr<AuditLog> log(new AuditLog(path, fd, session.fd, std::move(signer)));
  session.fd = -1;
  log->witness_ = witness;
  // A new log is sealed even if nothing is appended: an empty file then
  // means it was truncated.
  log->needs_seal_ = log->signer_ != nullptr && !existed;
  return log;
}

absl::StatusOr<v1::AuditRecord> AuditLog::Acknowledge(const std::string& path,
                                                      std::shared_ptr<const AuditSigner> signer,
                                                      const std::string& witness, int from,
                                                      int to, const std::string& reason) {
  if (signer == nullptr) return absl::InvalidArgumentError("acknowledging needs the audit key");
  if (reason.empty()) {
    return absl::InvalidArgumentError("say why the records are acknowledged (--reason)");
  }
  if (!FileExists(path)) return absl::NotFoundError(absl::StrCat(path, ": no such audit log"));
  AuditVerification check;  // as OpenSession found the log, under the exclusive session lock
  TS_ASSIGN_OR_RETURN(std::unique_ptr<AuditLog> log,
                      OpenSession(path, signer, witness, /*acknowledging=*/true, &check));
  if (check.records == check.last_signed) {
    return absl::FailedPreconditionError(
        absl::StrCat(path, ": nothing to acknowledge: every record is covered by a seal"));
  }
  if (from != check.last_signed + 1 || to != check.records) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": the unsealed records are ", check.last_signed + 1, "..", check.records,
        ", not ", from, "..", to, "; name exactly the records you reviewed"));
  }
  std::string user = CurrentUserName();
  v1::AuditRecord seal;
  seal.set_verdict(v1::SEAL);
  seal.set_acknowledged_by(user);
  seal.set_acknowledged_from(static_cast<uint64_t>(from));
  seal.set_detail(absl::StrCat("records ", from, "..", to,
                               " were not sealed by the run that wrote them; acknowledged by ",
                               user, " after review: ", reason));
  std::lock_guard<std::mutex> guard(log->mutex_);
  FileLock lock(log->fd_);
  if (!lock.locked()) return ErrnoError("cannot lock audit log", path);
  return log->AppendLocked(std::move(seal));
}

AuditLog::~AuditLog() {
  if (needs_seal_) (void)Seal();
  if (fd_ >= 0) ::close(fd_);
  if (session_fd_ >= 0) ::close(session_fd_);  // ends this session's flock
}

absl::StatusOr<v1::AuditRecord> AuditLog::Seal() {
  if (!signer_ || !needs_seal_) return v1::AuditRecord();
  v1::AuditRecord seal;
  seal.set_verdict(v1::SEAL);
  std::lock_guard<std::mutex> guard(mutex_);
  FileLock lock(fd_);
  if (!lock.locked()) return ErrnoError("cannot lock audit log", path_);
  return AppendLocked(std::move(seal));
}

absl::StatusOr<v1::AuditRecord> AuditLog::Append(v1::AuditRecord record) {
  if (record.verdict() == v1::CHECKPOINT || record.verdict() == v1::SEAL) {
    return absl::InvalidArgumentError("audit log: signed records are written by the log itself");
  }
  std::lock_guard<std::mutex> guard(mutex_);
  FileLock lock(fd_);
  if (!lock.locked()) return ErrnoError("cannot lock audit log", path_);
  TS_ASSIGN_OR_RETURN(v1::AuditRecord written, AppendLocked(std::move(record)));
  if (signer_ && unsigned_records_ >= kAuditCheckpointInterval) {
    v1::AuditRecord checkpoint;
    checkpoint.set_verdict(v1::CHECKPOINT);
    TS_RETURN_IF_ERROR(AppendLocked(std::move(checkpoint)).status());
  }
  return written;
}

absl::StatusOr<v1::AuditRecord> AuditLog::AppendLocked(v1::AuditRecord record) {
  int read_fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (read_fd < 0) return ErrnoError("cannot read audit log", path_);
  absl::StatusOr<std::string> last = ReadLastLine(read_fd, path_);
  ::close(read_fd);
  if (!last.ok()) return last.status();

  std::string prev_hash = kAuditGenesisHash;
  uint64_t sequence = 1;
  if (!last->empty()) {
    v1::AuditRecord previous;
    absl::Status parsed = FromJson(*last, &previous);
    if (!parsed.ok() || previous.hash().empty()) {
      return absl::DataLossError(absl::StrCat(
          path_, ": the last record does not parse; the audit log will not be extended"));
    }
    prev_hash = previous.hash();
    sequence = previous.sequence() + 1;
  }
  record.set_format_version(v1::FORMAT_VERSION_1);
  record.set_sequence(sequence);
  if (record.time().empty()) record.set_time(NowRfc3339());
  record.set_prev_hash(prev_hash);
  bool signs = record.verdict() == v1::CHECKPOINT || record.verdict() == v1::SEAL;
  if (signs) {
    record.set_sealed_records(sequence - 1);
    record.set_sealed_head(prev_hash);
    record.set_signing_key_id(signer_->public_key().id());
  }
  record.set_hash(AuditRecordHash(record));
  if (signs) record.set_signature(signer_->Sign(AuditSignedMessage(record.hash())));
  std::string line = ToJsonLine(record) + "\n";
  size_t written = 0;
  while (written < line.size()) {
    ssize_t n = ::write(fd_, line.data() + written, line.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError("cannot write audit log", path_);
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd_) != 0) return ErrnoError("cannot fsync audit log", path_);
  if (signs && !witness_.empty()) TS_RETURN_IF_ERROR(AppendToWitness(witness_, line));
  if (signs) {
    unsigned_records_ = 0;
    needs_seal_ = record.verdict() == v1::CHECKPOINT;
  } else {
    ++unsigned_records_;
    needs_seal_ = true;
  }
  return record;
}

absl::StatusOr<AuditVerification> VerifyAuditLog(const std::string& path,
                                                 const AuditPublicKey* key) {
  TS_ASSIGN_OR_RETURN(std::string data, ReadFile(path));
  AuditVerification result;
  result.head_hash = kAuditGenesisHash;
  result.signatures_checked = key != nullptr;
  if (data.empty()) {
    result.intact = true;
    return result;
  }
  std::vector<absl::string_view> lines = absl::StrSplit(data, '\n');
  bool complete = lines.back().empty();
  if (complete) lines.pop_back();
  auto fail = [&result](int line, std::string problem) {
    result.first_bad_line = line;
    result.problem = std::move(problem);
    return result;
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    int line_number = static_cast<int>(i) + 1;
    absl::string_view line = lines[i];
    if (i + 1 == lines.size() && !complete) {
      return fail(line_number, "incomplete record (no newline at the end)");
    }
    v1::AuditRecord record;
    absl::Status parsed = FromJson(std::string(line), &record);
    if (!parsed.ok()) {
      if (line_number == 1 && !HasAuditRecord(lines)) {
        return absl::InvalidArgumentError(
            absl::StrCat(path, ": not an audit log (no line of it is an audit record)"));
      }
      return fail(line_number, absl::StrCat("not an audit record (", parsed.message(), ")"));
    }
    if (ToJsonLine(record) != line) {
      return fail(line_number, "the record is not in canonical form: it was edited");
    }
    absl::Status version = CheckFormatVersion(record.format_version(), "record");
    if (!version.ok()) return fail(line_number, std::string(version.message()));
    if (record.sequence() != static_cast<uint64_t>(line_number)) {
      return fail(line_number,
                  absl::StrCat("record has sequence ", record.sequence(), " but is record ",
                               line_number, ": records were removed, inserted or reordered"));
    }
    if (record.prev_hash() != result.head_hash) {
      return fail(line_number,
                  absl::StrCat("prev_hash does not match the hash of ",
                               line_number == 1 ? "the chain's start" : "the record before it",
                               ": records were removed, inserted or reordered"));
    }
    if (record.hash() != AuditRecordHash(record)) {
      return fail(line_number, "the record's hash does not match its content: it was edited");
    }
    std::string payload_problem = StoredPayloadProblem(record);
    if (!payload_problem.empty()) return fail(line_number, payload_problem);
    bool signs = record.verdict() == v1::CHECKPOINT || record.verdict() == v1::SEAL;
    if (signs || !record.signature().empty()) {
      if (!signs) {
        return fail(line_number, "a signature on a record that is neither CHECKPOINT nor SEAL");
      }
      if (record.sealed_records() + 1 != record.sequence() ||
          record.sealed_head() != record.prev_hash()) {
        return fail(line_number,
                    "the signed record's sealed_records/sealed_head do not match its position");
      }
      if (key != nullptr) {
        if (record.signing_key_id() != key->id()) {
          return absl::InvalidArgumentError(Located(
              path, line_number, 0,
              absl::StrCat("record ", line_number, " is signed with key ",
                           record.signing_key_id().substr(0, 16), "…, not with the public key ",
                           key->origin(), " (", key->id().substr(0, 16),
                           "…): the log was signed with another key")));
        }
        if (!key->Verify(AuditSignedMessage(record.hash()), record.signature())) {
          return fail(line_number,
                      absl::StrCat("the signature of ", v1::AuditVerdict_Name(record.verdict()),
                                   " record ", line_number,
                                   " does not verify: the chain up to it was recomputed "
                                   "(records removed, inserted or edited, then rechained) or "
                                   "the record was forged"));
        }
      }
      ++result.signed_records;
      result.last_signed = line_number;
      if (record.verdict() == v1::SEAL) {
        ++result.seals;
        result.last_seal = line_number;
        if (!record.acknowledged_by().empty()) {
          AuditVerification::Acknowledged a;
          a.seal = line_number;
          a.from = static_cast<int>(record.acknowledged_from());
          a.to = static_cast<int>(record.sealed_records());
          a.by = record.acknowledged_by();
          a.detail = record.detail();
          result.acknowledged.push_back(std::move(a));
        } else if (absl::StartsWith(record.detail(), "late seal")) {
          result.late_seals.push_back(line_number);
        }
      }
    }
    result.head_hash = record.hash();
    result.records = line_number;
  }
  result.intact = true;
  return result;
}

absl::StatusOr<std::vector<v1::AuditRecord>> ReadAuditRecords(const std::string& path) {
  TS_ASSIGN_OR_RETURN(std::string data, ReadFile(path));
  std::vector<v1::AuditRecord> records;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(data, '\n')) {
    ++line_number;
    if (line.empty()) continue;
    v1::AuditRecord record;
    absl::Status parsed = FromJson(std::string(line), &record);
    if (!parsed.ok()) return InputError(path, line_number, 0, parsed.message());
    records.push_back(std::move(record));
  }
  return records;
}

std::string DefaultAuditWitnessPath(const std::string& log_path) {
  std::string dir;
  const char* explicit_dir = std::getenv("TRACESPEC_AUDIT_WITNESS_DIR");
  const char* state = std::getenv("XDG_STATE_HOME");
  const char* home = std::getenv("HOME");
  if (explicit_dir != nullptr && *explicit_dir != '\0') {
    dir = explicit_dir;
  } else if (state != nullptr && *state != '\0') {
    dir = absl::StrCat(state, "/tracespec/witness");
  } else if (home != nullptr && *home != '\0') {
    dir = absl::StrCat(home, "/.local/state/tracespec/witness");
  } else {
    return "";
  }
  std::error_code ec;
  std::string absolute = std::filesystem::absolute(log_path, ec).lexically_normal().string();
  return absl::StrCat(dir, "/", Sha256Hex(absolute).substr(0, 16), ".jsonl");
}

absl::StatusOr<std::string> CheckAuditWitness(const std::string& witness_path,
                                              const std::string& log_path,
                                              const AuditPublicKey* key) {
  TS_ASSIGN_OR_RETURN(std::string text, ReadFile(witness_path));
  TS_ASSIGN_OR_RETURN(std::vector<v1::AuditRecord> records, ReadAuditRecords(log_path));
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    size_t brace = line.find('{');
    if (brace == absl::string_view::npos) continue;
    v1::AuditRecord seal;
    if (!FromJson(std::string(line.substr(brace)), &seal).ok()) continue;
    if (seal.verdict() != v1::SEAL && seal.verdict() != v1::CHECKPOINT) continue;
    if (key != nullptr && (seal.signing_key_id() != key->id() ||
                           !key->Verify(AuditSignedMessage(seal.hash()), seal.signature()))) {
      return absl::InvalidArgumentError(Located(
          witness_path, line_number, 0, "the witnessed record is not signed by the given public key"));
    }
    uint64_t sequence = seal.sequence();
    if (sequence == 0 || sequence > records.size()) {
      return absl::StrCat("record ", sequence, " (a ", v1::AuditVerdict_Name(seal.verdict()),
                          " the witness holds, ", witness_path, ":", line_number,
                          ") is missing: the log ends at record ", records.size(),
                          ", records were removed from its end");
    }
    if (records[sequence - 1].hash() != seal.hash()) {
      return absl::StrCat("record ", sequence, " differs from the ",
                          v1::AuditVerdict_Name(seal.verdict()), " the witness holds (",
                          witness_path, ":", line_number, "): the log was rewritten");
    }
  }
  return std::string();
}

}  // namespace tracespec::gateway

// The run directory's layout and resuming; see run_dir.h.
#include "agent/loop/run_dir.h"

#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "common/status.h"

namespace tracespec::loop {

std::string MethodDirName(absl::string_view method) {
  std::string out(method);
  for (char& c : out) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '.' || c == '_' || c == '#' || c == '$' || c == '(' || c == ')' || c == '-';
    if (!keep) c = '_';
  }
  if (out.empty() || out == "." || out == "..") out = "_" + out;
  return out;
}

std::string RoundDirName(int round) { return absl::StrCat("round-", round); }

bool IsCompleted(v1::RoundOutcome outcome) {
  return outcome == v1::ROUND_VALIDATED || outcome == v1::ROUND_NOT_CHECKABLE ||
         outcome == v1::ROUND_NO_CONTRACT;
}

absl::Status WriteJsonFile(const std::string& path, const google::protobuf::Message& message) {
  return WriteFileAtomic(path, ToJsonLine(message) + "\n");
}

absl::Status ReadJsonFile(const std::string& path, google::protobuf::Message* message) {
  TS_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  absl::Status parsed = FromJson(text, message);
  if (!parsed.ok()) {
    return absl::DataLossError(absl::StrCat(path, ": not a ", message->GetTypeName(),
                                            " record: ", parsed.message()));
  }
  return absl::OkStatus();
}

namespace {

// Moves `dir` to the first free "<dir>.attempt-K".
absl::StatusOr<std::string> MoveAside(const std::string& dir) {
  for (int k = 1;; ++k) {
    std::string target = absl::StrCat(dir, ".attempt-", k);
    if (FileExists(target)) continue;
    std::error_code ec;
    std::filesystem::rename(dir, target, ec);
    if (ec) {
      return absl::UnavailableError(
          absl::StrCat("cannot move the round directory ", dir, " aside: ", ec.message()));
    }
    return std::filesystem::path(target).filename().string();
  }
}

}  // namespace

absl::StatusOr<PriorRuns> LoadPriorRuns(const std::string& method_dir) {
  PriorRuns prior;
  if (!IsDirectory(method_dir)) return prior;
  bool incomplete = false;
  for (int round = 1;; ++round) {
    std::string dir = method_dir + "/" + RoundDirName(round);
    if (!IsDirectory(dir)) break;
    std::string record = dir + "/round.json";
    v1::InferRound r;
    // A record that cannot be read (cut short, edited into another round)
    // is a damaged journal entry: its round is redone like an incomplete
    // one, and the reason kept for the progress note.
    std::string damage;
    if (!incomplete && FileExists(record)) {
      absl::Status read = ReadJsonFile(record, &r);
      if (!read.ok()) {
        damage = std::string(read.message());
      } else if (r.round() != round) {
        damage = absl::StrCat(record, ": records round ", r.round(), ", expected ", round);
      } else if (IsCompleted(r.outcome())) {
        prior.rounds.push_back(std::move(r));
        continue;
      }
    }
    incomplete = true;
    TS_ASSIGN_OR_RETURN(std::string moved, MoveAside(dir));
    prior.moved_aside.push_back(moved);
    if (!damage.empty()) prior.damaged[moved] = std::move(damage);
  }
  return prior;
}

absl::StatusOr<std::vector<std::string>> MoveRoundsAside(const std::string& method_dir,
                                                         int rounds) {
  std::vector<std::string> moved;
  for (int round = 1; round <= rounds; ++round) {
    std::string dir = method_dir + "/" + RoundDirName(round);
    if (!IsDirectory(dir)) continue;
    TS_ASSIGN_OR_RETURN(std::string name, MoveAside(dir));
    moved.push_back(std::move(name));
  }
  return moved;
}

const char* InferStatusName(v1::InferStatus status) {
  switch (status) {
    case v1::INFER_SUCCESS: return "Success";
    case v1::INFER_FAIL: return "Fail";
    case v1::INFER_ERROR: return "Error";
    case v1::INFER_STOPPED: return "Stopped";
    case v1::INFER_UNKNOWN: return "Unknown";
    default: return "Unspecified";
  }
}

bool ShowsLastBits(v1::InferStatus status) {
  return status != v1::INFER_STOPPED && status != v1::INFER_UNKNOWN;
}

std::string SuccessScope(v1::InferStatus status, const v1::Verdict& consistency) {
  if (status != v1::INFER_SUCCESS || consistency.status() != v1::VERDICT_PASS ||
      consistency.complete()) {
    return "";
  }
  return consistency.proved() && !consistency.inputs_cut() ? "proved by induction"
                                                           : "within bounds";
}

std::string RoundsNote(const std::string& history, v1::InferStatus status,
                       const v1::Verdict& consistency) {
  std::string scope = SuccessScope(status, consistency);
  return absl::StrCat(" (rounds: ", history.empty() ? "none" : history,
                      scope.empty() ? "" : "; ", scope, ")");
}

const char* RoundOutcomeName(v1::RoundOutcome outcome) {
  switch (outcome) {
    case v1::ROUND_VALIDATED: return "validated";
    case v1::ROUND_NOT_CHECKABLE: return "not checkable";
    case v1::ROUND_NO_CONTRACT: return "no contract in the answer";
    case v1::ROUND_EXCHANGE_FAILED: return "exchange failed";
    case v1::ROUND_BLOCKED: return "blocked by the egress gate";
    case v1::ROUND_DRY_RUN: return "dry run";
    case v1::ROUND_VALIDATOR_FAILED: return "validator failed";
    default: return "unknown";
  }
}

}  // namespace tracespec::loop

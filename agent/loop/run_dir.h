// The run directory of `tracespec infer` and how a re-run finds where the
// last one stopped. Layout (every file written atomically):
//
//   OUT/summary.txt, OUT/summary.json        the run's results
//   OUT/audit.jsonl                          the gateway's audit log (remote models)
//   OUT/<method>/result.json                 tracespec.v1.InferResult
//   OUT/<method>/<Class>.jml                 the final contract
//   OUT/<method>/round-N/request.json        what was sent (the exact body for remote
//                                            models; the messages for the built-in one)
//   OUT/<method>/round-N/answer.txt          the answer's text
//   OUT/<method>/round-N/candidate.jml       the candidate as validated (after repairs)
//   OUT/<method>/round-N/repairs.txt         automatic repairs, one per paragraph
//   OUT/<method>/round-N/report.txt|json     the validator's report
//   OUT/<method>/round-N/round.json          tracespec.v1.InferRound, written last
//
// A round counts as done once its round.json records a completed outcome
// (validated, not checkable, no contract). An incomplete round — a crash
// before round.json, a failed exchange, a blocked or dry-run request — is
// moved aside to round-N.attempt-K and redone by the next run.
#ifndef TRACESPEC_AGENT_LOOP_RUN_DIR_H_
#define TRACESPEC_AGENT_LOOP_RUN_DIR_H_

#include <optional>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tracespec/v1/infer.pb.h"

namespace tracespec::loop {

// A method selector as a directory name: characters other than letters,
// digits and ._#$()- become '_' ("bank.Account#deposit(I)V" stays).
std::string MethodDirName(absl::string_view method);

// "round-3".
std::string RoundDirName(int round);

// True for outcomes that finish a round (it is not redone).
bool IsCompleted(v1::RoundOutcome outcome);

// What an earlier run left in a method's directory.
struct PriorRuns {
  // Completed rounds 1..n, in order.
  std::vector<v1::InferRound> rounds;
  // Incomplete round directories moved aside (relative names).
  std::vector<std::string> moved_aside;
  // Those of `moved_aside` whose round.json could not be read, and why.
  std::map<std::string, std::string> damaged;
};

// Reads the completed rounds of `method_dir` (missing directory: none) and
// moves the first incomplete round's directory (and any later ones) aside;
// a round whose record cannot be read counts as incomplete (`damaged`
// says why).
absl::StatusOr<PriorRuns> LoadPriorRuns(const std::string& method_dir);

// Moves the directories of rounds 1..`rounds` of `method_dir` aside, as
// LoadPriorRuns moves an incomplete one; their new (relative) names.
absl::StatusOr<std::vector<std::string>> MoveRoundsAside(const std::string& method_dir,
                                                         int rounds);

// Writes a protobuf message as JSON (one document, newline-terminated),
// atomically.
absl::Status WriteJsonFile(const std::string& path, const google::protobuf::Message& message);
absl::Status ReadJsonFile(const std::string& path, google::protobuf::Message* message);

// How far a Success reaches when its consistency PASS is not complete:
// "within bounds" (it cut loops or input lengths) or "proved by induction"
// (every loop closed, no input length cut); "" otherwise.
std::string SuccessScope(v1::InferStatus status, const v1::Verdict& consistency);

// "SUCCESS"-style names as the output prints them: "Success", "Fail",
// "Error", "Stopped", "Unknown".
const char* InferStatusName(v1::InferStatus status);
// Whether a status line shows the last round's bits after the name ("Fail
// 01"): not for Stopped (the method did not end there) nor Unknown (its 0 is
// a check that could not decide, not one that refuted the contract).
bool ShowsLastBits(v1::InferStatus status);
// " (rounds: 01,11)" after a method's status, and what its consistency PASS
// covered when not everything: " (rounds: 11; within bounds)" (input
// lengths, loops or recursion were cut), " (rounds: 11; proved by
// induction)" (the cut loops were closed, no input length was cut).
std::string RoundsNote(const std::string& history, v1::InferStatus status,
                       const v1::Verdict& consistency);
// "validated", "not checkable", "no contract", "exchange failed", ...
const char* RoundOutcomeName(v1::RoundOutcome outcome);

}  // namespace tracespec::loop

#endif  // TRACESPEC_AGENT_LOOP_RUN_DIR_H_

// The refinement loop for one method; see refine.h.
#include "agent/loop/refine.h"

#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "agent/gateway/errors.h"
#include "agent/loop/feedback.h"
#include "agent/loop/repair.h"
#include "agent/loop/run_dir.h"
#include "agent/loop/withheld_verdicts.h"
#include "agent/synth/synthesizer.h"
#include "common/files.h"
#include "common/interrupt.h"
#include "common/method_id.h"
#include "common/proto_io.h"
#include "common/status.h"
#include "validator/check/messages.h"
#include "validator/check/tautology.h"
#include "validator/jml/parser.h"
#include "validator/jml/spec_source.h"

namespace tracespec::loop {
namespace {

prompt::Role RoleFromName(const std::string& name) {
  if (name == "system") return prompt::Role::kSystem;
  if (name == "assistant") return prompt::Role::kAssistant;
  return prompt::Role::kUser;
}

prompt::ValidationFeedback FeedbackOf(const v1::InferRound& round) {
  prompt::ValidationFeedback out;
  out.diagnostics.assign(round.feedback().diagnostics().begin(),
                         round.feedback().diagnostics().end());
  out.counterexamples.assign(round.feedback().counterexamples().begin(),
                             round.feedback().counterexamples().end());
  out.withheld_verdicts = round.feedback().withheld_verdicts();
  out.withheld_values = round.feedback().withheld_values();
  return out;
}

void SetFeedback(const prompt::ValidationFeedback& feedback, v1::InferRound* round) {
  v1::InferFeedback* f = round->mutable_feedback();
  f->clear_diagnostics();
  f->clear_counterexamples();
  for (const std::string& d : feedback.diagnostics) f->add_diagnostics(d);
  for (const v1::Observation& o : feedback.counterexamples) *f->add_counterexamples() = o;
  f->set_withheld_verdicts(feedback.withheld_verdicts);
  f->set_withheld_values(feedback.withheld_values);
}

// The conversation of round `number` given the completed rounds before it.
std::vector<prompt::ChatMessage> Conversation(const prompt::PromptBuilder& builder,
                                              const std::vector<v1::InferRound>& done) {
  if (done.empty()) return builder.SingleRequestMessages();
  const v1::InferRound& last = done.back();
  std::vector<prompt::ChatMessage> messages;
  for (const v1::InferMessage& m : last.messages()) {
    messages.push_back({RoleFromName(m.role()), m.content()});
  }
  messages.push_back(prompt::PromptBuilder::AssistantMessage(last.answer()));
  messages.push_back(builder.FeedbackMessage(FeedbackOf(last)));
  return messages;
}

// request.json for clients that send nothing: the messages, as a record.
std::string LocalRequestJson(const v1::InferRound& round) {
  v1::InferRound only;
  only.set_format_version(v1::FORMAT_VERSION_1);
  only.set_method(round.method());
  only.set_round(round.round());
  *only.mutable_messages() = round.messages();
  only.set_model(round.model());
  return ToJsonLine(only) + "\n";
}

std::string Join(const std::string& dir, absl::string_view name) {
  return absl::StrCat(dir, "/", name);
}

// The round of the final contract when no round passed: the last checkable
// one; nullptr if none was.
const v1::InferRound* LastCheckable(const std::vector<v1::InferRound>& rounds) {
  for (auto it = rounds.rbegin(); it != rounds.rend(); ++it) {
    if (it->checkable()) return &*it;
  }
  return nullptr;
}

// Why the validated `round` is undecided: each check of it that was UNKNOWN
// ("consistency UNKNOWN (...)"), when none FAILED; "" when it was refuted or
// decided. A round of an older run without typed verdicts is never undecided.
std::string Undecided(const v1::InferRound& round) {
  if (round.outcome() != v1::ROUND_VALIDATED) return "";
  const v1::VerdictStatus consistency = round.consistency_verdict().status();
  const v1::VerdictStatus coverage = round.coverage_verdict().status();
  if (consistency == v1::VERDICT_FAIL || coverage == v1::VERDICT_FAIL) return "";
  std::vector<std::string> why;
  if (consistency == v1::VERDICT_UNKNOWN) why.push_back("consistency " + round.consistency());
  if (coverage == v1::VERDICT_UNKNOWN) why.push_back("coverage " + round.coverage());
  return absl::StrJoin(why, "; ");
}

// Whether a round's candidate passed both checks: from its typed verdicts
// (consistency and coverage PASS); a round of an older run without them
// by its bits ("11"). The bits are a rendering, not what is decided on.
bool Passed(const v1::InferRound& r) {
  if (r.outcome() != v1::ROUND_VALIDATED) return false;
  if (r.has_consistency_verdict() && r.has_coverage_verdict()) {
    return r.consistency_verdict().status() == v1::VERDICT_PASS &&
           r.coverage_verdict().status() == v1::VERDICT_PASS;
  }
  return r.bits() == "11";
}

// Success at the first passing round; otherwise Unknown when the final contract's
// checks were undecided (none refuted it), Fail when it was refuted, and
// Error when no candidate was ever checkable.
v1::InferStatus FinalStatus(const std::vector<v1::InferRound>& rounds) {
  for (const v1::InferRound& r : rounds) {
    if (Passed(r)) return v1::INFER_SUCCESS;
  }
  const v1::InferRound* last = LastCheckable(rounds);
  if (last == nullptr) return v1::INFER_ERROR;
  return Undecided(*last).empty() ? v1::INFER_FAIL : v1::INFER_UNKNOWN;
}

// The passing candidate, else the last checkable one, else the last one.
std::string FinalContract(const std::vector<v1::InferRound>& rounds) {
  for (const v1::InferRound& r : rounds) {
    if (Passed(r)) return r.candidate();
  }
  if (const v1::InferRound* last = LastCheckable(rounds)) return last->candidate();
  for (auto it = rounds.rbegin(); it != rounds.rend(); ++it) {
    if (!it->candidate().empty()) return it->candidate();
  }
  return "";
}

std::string History(const std::vector<v1::InferRound>& rounds) {
  std::vector<std::string> bits;
  for (const v1::InferRound& r : rounds) bits.push_back(r.bits());
  return absl::StrJoin(bits, ",");
}

std::string Indent(absl::string_view text, absl::string_view indent) {
  std::string out;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    absl::StrAppend(&out, indent, line, "\n");
  }
  return out;
}

// "PASS (complete)", as the report's text puts it.
std::string CheckLine(const check::CheckResult& result) {
  std::string status = check::CheckStatusName(result.status);
  return result.summary.empty() ? status : absl::StrCat(status, " (", result.summary, ")");
}

class MethodRun {
 public:
  MethodRun(const MethodInputs& inputs, gateway::LlmClient* client, check::Validator* validator,
            std::string method_dir, std::string contract_root, const RefineOptions& options)
      : inputs_(inputs),
        client_(client),
        validator_(validator),
        dir_(std::move(method_dir)),
        root_(std::move(contract_root)),
        options_(options) {}

  absl::StatusOr<RefineOutcome> Run() {
    absl::Time start = absl::Now();
    TS_RETURN_IF_ERROR(MakeDirs(dir_));
    TS_ASSIGN_OR_RETURN(PriorRuns prior, LoadPriorRuns(dir_));
    rounds_ = std::move(prior.rounds);
    for (const std::string& moved : prior.moved_aside) {
      auto damaged = prior.damaged.find(moved);
      Progress(damaged == prior.damaged.end()
                   ? absl::StrCat("the incomplete round of an earlier run was moved to ", moved,
                                  " and is redone")
                   : absl::StrCat("a round of an earlier run could not be read (",
                                  damaged->second, "): it was moved to ", moved,
                                  " and is redone"));
    }
    if (!rounds_.empty()) {
      Progress(absl::StrCat("continuing after round ", rounds_.size(), " (", History(rounds_),
                            ")"));
      TS_RETURN_IF_ERROR(RecheckEarlierSuccess());
    }
    TS_ASSIGN_OR_RETURN(prompt::PromptBuilder builder,
                        prompt::PromptBuilder::Create(inputs_.prompt, options_.prompt));
    auto shared_inputs = std::make_shared<const prompt::PromptInputs>(inputs_.prompt);

    RefineOutcome outcome;
    while (!undecided_again_ && static_cast<int>(rounds_.size()) < options_.rounds &&
           FinalStatus(rounds_) != v1::INFER_SUCCESS) {
      v1::InferRound round;
      TS_ASSIGN_OR_RETURN(bool completed, RunRound(builder, shared_inputs, &round, &outcome));
      if (!completed) {
        outcome.result = Result(v1::INFER_STOPPED, start);
        outcome.result.set_reason(absl::StrCat("round ", round.round(), ": ",
                                               RoundOutcomeName(round.outcome()), ": ",
                                               round.error()));
        TS_RETURN_IF_ERROR(WriteResult(&outcome));
        return outcome;
      }
      rounds_.push_back(std::move(round));
    }
    outcome.result = Result(FinalStatus(rounds_), start);
    if (outcome.result.status() == v1::INFER_ERROR) {
      outcome.result.set_reason(absl::StrCat("no candidate parsed and type-checked in ",
                                             rounds_.size(), " round(s)"));
    } else if (outcome.result.status() == v1::INFER_UNKNOWN) {
      outcome.result.set_reason(Undecided(*LastCheckable(rounds_)));
    }
    TS_RETURN_IF_ERROR(WriteResult(&outcome));
    return outcome;
  }

 private:
  void Progress(absl::string_view line) {
    if (options_.progress) options_.progress(absl::StrCat(inputs_.selector, ": ", line));
  }

  // A candidate checked against the method's observations within the run's
  // bounds.
  check::ValidateRequest ValidateRequestFor(const std::string& jml) const {
    check::ValidateRequest validate;
    validate.method = inputs_.resolved;
    validate.contract = jml;
    validate.contract_file = "candidate.jml";
    validate.format = jml::ContractFormat::kSpecText;
    validate.has_observations = true;
    validate.observations = inputs_.prompt.observations;
    validate.unwind = options_.unwind;
    validate.max_array = options_.max_array;
    validate.timeout_seconds = options_.validation_timeout_seconds;
    validate.class_invariants = options_.class_invariants;
    return validate;
  }

  // A run that continues from an earlier run's Success states that
  // contract only after validating it again: the journal is files that
  // whoever can write the run directory may have edited (a round.json that
  // still parses is read as it is), and the verdict a run writes is its own.
  // When the contract holds, the passing round keeps it with this check's
  // verdicts; when it is refuted (or no longer checkable), every round of
  // the earlier run is moved aside and the method starts again from round
  // 1; when it is undecided now, the method's result is Unknown.
  absl::Status RecheckEarlierSuccess() {
    auto passing = std::find_if(rounds_.begin(), rounds_.end(), Passed);
    if (passing == rounds_.end()) return absl::OkStatus();
    const int number = passing->round();
    absl::StatusOr<check::ValidationReport> report =
        validator_->Validate(ValidateRequestFor(passing->candidate()));
    if (!report.ok()) {
      return absl::Status(report.status().code(),
                          absl::StrCat(inputs_.selector, ": validating again the contract of round ",
                                       number, " of an earlier run failed: ",
                                       report.status().message()));
    }
    const bool refuted = report->consistency.status == check::CheckStatus::kFail ||
                         report->coverage.status == check::CheckStatus::kFail;
    if (!NotCheckable(*report) && !refuted) {
      passing->set_consistency(CheckLine(report->consistency));
      passing->set_coverage(CheckLine(report->coverage));
      *passing->mutable_consistency_verdict() = check::VerdictOf(report->consistency);
      *passing->mutable_coverage_verdict() = check::VerdictOf(report->coverage);
      if (Passed(*passing)) {
        Progress(absl::StrCat("the contract of round ", number,
                              " of an earlier run was validated again and holds"));
        return absl::OkStatus();
      }
      // Undecided this time (a check ran out of time on a busy machine, say)
      // but not refuted: nothing is redone and the rounds stay as they are
      // on disk, so a later run checks the contract again; this run did not
      // decide it, so its result is Unknown, not Success.
      passing->set_bits(report->Bits());
      undecided_again_ = true;
      Progress(absl::StrCat("the contract of round ", number,
                            " of an earlier run, recorded as Success, could not be decided now (",
                            Undecided(*passing), "): the method's result is Unknown; its rounds ",
                            "are kept and a later run validates the contract again"));
      return absl::OkStatus();
    }
    TS_ASSIGN_OR_RETURN(std::vector<std::string> moved,
                        MoveRoundsAside(dir_, static_cast<int>(rounds_.size())));
    Progress(absl::StrCat("the contract of round ", number,
                          " of an earlier run, recorded as Success, does not validate now ",
                          "(consistency ", CheckLine(report->consistency), ", coverage ",
                          CheckLine(report->coverage), "): its rounds were moved to ",
                          absl::StrJoin(moved, ", "), " and the method starts again"));
    rounds_.clear();
    return absl::OkStatus();
  }

  v1::InferResult Result(v1::InferStatus status, absl::Time start) {
    v1::InferResult r;
    r.set_format_version(v1::FORMAT_VERSION_1);
    r.set_method(inputs_.selector);
    r.set_resolved(inputs_.resolved);
    if (absl::StatusOr<MethodId> id = MethodId::Parse(inputs_.resolved); id.ok()) {
      *r.mutable_id() = id->ToProto();
    }
    r.set_status(status);
    r.set_history(History(rounds_));
    r.set_rounds(static_cast<int>(rounds_.size()));
    r.set_max_rounds(options_.rounds);
    r.set_contract(FinalContract(rounds_));
    for (const v1::InferRound& round : rounds_) {
      r.set_withheld_verdicts(r.withheld_verdicts() + round.feedback().withheld_verdicts());
      r.set_withheld_values(r.withheld_values() + round.feedback().withheld_values());
    }
    for (const v1::InferRound& round : rounds_) {
      if (round.candidate() != r.contract()) continue;
      for (const std::string& h : round.hypotheses()) {
        if (absl::StartsWith(h, "weakened: ")) *r.add_weakened() = h;
        if (absl::StartsWith(h, "dropped: ")) *r.add_dropped() = h;
      }
      break;
    }
    for (auto round = rounds_.rbegin(); round != rounds_.rend(); ++round) {
      if (round->candidate() != r.contract() || !round->has_consistency_verdict()) continue;
      *r.mutable_consistency_verdict() = round->consistency_verdict();
      break;
    }
    std::string destination = client_->Destination();
    r.set_client(destination.empty() ? "builtin" : destination);
    r.set_seconds(absl::ToDoubleSeconds(absl::Now() - start));
    return r;
  }

  // Writes the outcome's result.json and contract file, and keeps in it
  // what they hold that callers need (RefineOutcome).
  absl::Status WriteResult(RefineOutcome* outcome) {
    v1::InferResult* result = &outcome->result;
    if (!rounds_.empty()) outcome->last_round = rounds_.back();
    if (!result->contract().empty()) {
      ContractFile file = RenderContractFile(inputs_, *result);
      std::string path = Join(dir_, file.name);
      TS_RETURN_IF_ERROR(WriteFileAtomic(path, file.content));
      outcome->contract_file_text = file.content;
      std::string relative = path;
      if (!root_.empty() && relative.compare(0, root_.size() + 1, root_ + "/") == 0) {
        relative = relative.substr(root_.size() + 1);
      }
      result->set_contract_file(relative);
    }
    return WriteJsonFile(Join(dir_, "result.json"), *result);
  }

  // Runs one round into `round`. False when it could not complete (the
  // exchange failed, was blocked or was a dry run, or the validator
  // refused the request); `outcome` then says why.
  absl::StatusOr<bool> RunRound(const prompt::PromptBuilder& builder,
                                const std::shared_ptr<const prompt::PromptInputs>& inputs,
                                v1::InferRound* round, RefineOutcome* outcome) {
    int number = static_cast<int>(rounds_.size()) + 1;
    std::string dir = Join(dir_, RoundDirName(number));
    TS_RETURN_IF_ERROR(MakeDirs(dir));
    round->set_format_version(v1::FORMAT_VERSION_1);
    round->set_method(inputs_.resolved);
    round->set_round(number);

    gateway::LlmRequest request;
    request.messages = Conversation(builder, rounds_);
    request.model = options_.model;
    request.response_schema = prompt::PromptBuilder::AnswerSchema();
    request.label = absl::StrCat(inputs_.resolved, " round ", number);
    if (!rounds_.empty()) {
      request.withheld_verdicts = rounds_.back().feedback().withheld_verdicts();
      request.withheld_values = rounds_.back().feedback().withheld_values();
    }
    auto local = std::make_shared<gateway::LocalInputs>();
    local->inputs = inputs;
    for (const v1::InferRound& r : rounds_) local->feedback.push_back(FeedbackOf(r));
    request.local = local;
    // What the run directory keeps: the request, with whatever the gate
    // would block masked (a blocked request is never sent, and its secret
    // must not reach the disk either).
    TS_ASSIGN_OR_RETURN(gateway::LlmRequest recorded, client_->ForTheRecord(request));
    for (const prompt::ChatMessage& m : recorded.messages) {
      v1::InferMessage* out = round->add_messages();
      out->set_role(prompt::RoleName(m.role));
      out->set_content(m.content);
    }
    round->set_destination(client_->Destination());
    TS_ASSIGN_OR_RETURN(std::string body, client_->EncodeRequest(recorded));
    if (body.empty()) body = LocalRequestJson(*round);
    TS_RETURN_IF_ERROR(WriteFileAtomic(Join(dir, "request.json"), body));

    Progress(absl::StrCat("round ", number, ": asking ",
                          client_->Destination().empty() ? "the built-in synthesizer"
                                                         : client_->Destination(),
                          " (", body.size(), " bytes)"));
    absl::Time sent = absl::Now();
    absl::StatusOr<gateway::LlmResponse> response = client_->Complete(request);
    round->set_exchange_seconds(absl::ToDoubleSeconds(absl::Now() - sent));
    if (!response.ok()) {
      const absl::Status& status = response.status();
      if (gateway::IsDryRun(status)) {
        round->set_outcome(v1::ROUND_DRY_RUN);
        outcome->dry_run = true;
      } else if (status.code() == absl::StatusCode::kPermissionDenied) {
        round->set_outcome(v1::ROUND_BLOCKED);
        outcome->stop = status;
      } else {
        // Whatever the client's code (DataLoss for an answer that is not a
        // chat completion), a failed exchange is the environment's problem.
        round->set_outcome(v1::ROUND_EXCHANGE_FAILED);
        outcome->stop = absl::UnavailableError(status.message());
      }
      round->set_error(std::string(status.message()));
      TS_RETURN_IF_ERROR(RecordRound(dir, *round));
      Progress(absl::StrCat("round ", number, ": ", RoundOutcomeName(round->outcome()), ": ",
                            status.message()));
      return false;
    }
    round->set_answer(response->text);
    round->set_model(response->model);
    round->set_prompt_tokens(response->usage.prompt_tokens);
    round->set_completion_tokens(response->usage.completion_tokens);
    round->set_attempts(response->attempts);
    TS_RETURN_IF_ERROR(WriteFileAtomic(Join(dir, "answer.txt"), response->text));

    prompt::ValidationFeedback feedback;
    absl::StatusOr<prompt::ContractAnswer> answer = builder.ReadAnswer(response->text);
    if (!answer.ok()) {
      round->set_outcome(v1::ROUND_NO_CONTRACT);
      round->set_bits("00");
      round->set_error(std::string(answer.status().message()));
      feedback.diagnostics.push_back(absl::StrCat(
          "the answer holds no JML contract (", answer.status().message(),
          "): answer with the JSON object {\"contract\": ..., \"hypotheses\": [...]}"));
      return Finish(dir, feedback, round);
    }
    for (const std::string& h : answer->hypotheses) round->add_hypotheses(h);

    absl::StatusOr<PreparedCandidate> prepared = PrepareCandidate(answer->jml);
    if (!prepared.ok()) {
      round->set_outcome(v1::ROUND_NOT_CHECKABLE);
      round->set_bits("00");
      round->set_candidate(answer->jml);
      round->set_error(std::string(prepared.status().message()));
      TS_RETURN_IF_ERROR(WriteFileAtomic(Join(dir, "candidate.jml"), answer->jml));
      feedback.diagnostics.push_back(
          absl::StrCat("syntax error: ", prepared.status().message()));
      return Finish(dir, feedback, round);
    }
    TS_RETURN_IF_ERROR(RecordCandidate(dir, *prepared, round));

    // The same candidate as an earlier round (a synthesizer given the same
    // feedback answers the same): that round's report stands, and checking
    // it again would only spend the time limit again.
    if (auto it = validated_.find(prepared->jml); it != validated_.end()) {
      const v1::InferRound& earlier = rounds_[it->second];
      std::string earlier_dir = Join(dir_, RoundDirName(earlier.round()));
      for (const char* name : {"candidate.jml", "repairs.txt", "report.txt", "report.json"}) {
        TS_ASSIGN_OR_RETURN(std::string text, ReadFile(Join(earlier_dir, name)));
        TS_RETURN_IF_ERROR(WriteFileAtomic(Join(dir, name), text));
      }
      round->set_candidate(earlier.candidate());
      *round->mutable_repairs() = earlier.repairs();
      round->set_consistency(earlier.consistency());
      round->set_coverage(earlier.coverage());
      *round->mutable_consistency_verdict() = earlier.consistency_verdict();
      *round->mutable_coverage_verdict() = earlier.coverage_verdict();
      round->set_outcome(earlier.outcome());
      round->set_checkable(earlier.checkable());
      round->set_bits(earlier.bits());
      round->set_error(earlier.error());
      Progress(absl::StrCat("round ", number, ": the same candidate as round ", earlier.round(),
                            ", whose report stands (not checked again)"));
      return Finish(dir, FeedbackOf(earlier), round);
    }
    validated_[prepared->jml] = rounds_.size();

    check::ValidateRequest validate = ValidateRequestFor(prepared->jml);
    absl::Time checked = absl::Now();
    absl::StatusOr<check::ValidationReport> report = validator_->Validate(validate);
    round->set_validation_seconds(absl::ToDoubleSeconds(absl::Now() - checked));
    if (!report.ok()) {
      round->set_outcome(v1::ROUND_VALIDATOR_FAILED);
      round->set_error(std::string(report.status().message()));
      outcome->stop = report.status();
      TS_RETURN_IF_ERROR(RecordRound(dir, *round));
      Progress(absl::StrCat("round ", number, ": the validator failed: ",
                            report.status().message()));
      return false;
    }
    if (WeakenRefuted(validate, &*prepared, &*report)) {
      TS_RETURN_IF_ERROR(RecordCandidate(dir, *prepared, round));
    }
    TS_RETURN_IF_ERROR(WriteFileAtomic(Join(dir, "report.txt"), check::FormatReportText(*report)));
    TS_RETURN_IF_ERROR(WriteFileAtomic(Join(dir, "report.json"), check::FormatReportJson(*report)));
    round->set_consistency(CheckLine(report->consistency));
    round->set_coverage(CheckLine(report->coverage));
    *round->mutable_consistency_verdict() = check::VerdictOf(report->consistency);
    *round->mutable_coverage_verdict() = check::VerdictOf(report->coverage);
    // What the model may be told: coverage verdicts that depend on data
    // the prompt withholds are left out (withheld_verdicts.h).
    check::ValidateRequest as_checked = validate;
    as_checked.contract = prepared->jml;
    std::set<int> masked =
        VerdictsThatDependOnWithheldData(validator_, as_checked, report->coverage, builder);
    check::ValidationReport told = *report;
    WithholdVerdicts(masked, &told.coverage);
    feedback = FeedbackFromReport(told);
    feedback.withheld_verdicts = static_cast<int>(masked.size());
    if (!masked.empty()) {
      Progress(absl::StrCat("round ", number, ": ", masked.size(),
                            " coverage verdict(s) depend on withheld data and are not fed back"));
    }
    for (const Repair& r : prepared->repairs) {
      feedback.diagnostics.push_back(absl::StrCat("repaired before checking: ", r.reason,
                                                  "; checked as `", r.repaired, "`"));
    }
    WithholdLikeRecorded(inputs_.prompt.observations, &feedback);
    MaskConstants(options_.withheld_constants, &feedback);
    // Values the code computes from a denied constant at run time.
    int dependent = WithholdWhatDependsOnConstants(validator_, as_checked, report->consistency,
                                                   options_.withheld_constants, &feedback);
    feedback.withheld_values = dependent;
    if (dependent > 0) {
      Progress(absl::StrCat("round ", number, ": ", dependent,
                            " counterexample value(s) change when the denied constants are "
                            "substituted and are not fed back"));
    }
    if (NotCheckable(*report)) {
      round->set_outcome(v1::ROUND_NOT_CHECKABLE);
      round->set_bits("00");
      round->set_error("the validator could not check the candidate (see report.txt)");
    } else {
      round->set_outcome(v1::ROUND_VALIDATED);
      round->set_checkable(true);
      round->set_bits(report->Bits());
    }
    return Finish(dir, feedback, round);
  }

  // Counterexample-guided weakening of the candidate, whoever wrote it: an
  // ensures clause P the consistency check refutes with counterexamples is
  // replaced by `G ==> P` when the synthesizer's weakening search
  // (synth::GuardRefutedClause) finds a guard G false on the counterexamples
  // and true on every recorded call, and the candidate is validated again,
  // up to kMaxWeakeningSteps times (a refuted guard is replaced with all
  // counterexamples so far). Each guard is a repair; a guard that is only a
  // threshold read off single values is not applied, only noted. Returns
  // whether the candidate changed (then `report` is the new candidate's).
  bool WeakenRefuted(const check::ValidateRequest& base, PreparedCandidate* prepared,
                     check::ValidationReport* report) {
    constexpr int kMaxWeakeningSteps = 3;
    std::vector<v1::Observation> counterexamples;
    // Per line: the predicate as the candidate had it, and guards refuted.
    std::map<int, std::string> original;
    std::map<int, std::vector<std::string>> refuted_guards;
    std::map<int, size_t> repair_of;
    bool changed = false;
    for (int step = 0; step < kMaxWeakeningSteps; ++step) {
      const check::CheckResult& c = report->consistency;
      if (c.status != check::CheckStatus::kFail || c.counterexamples.empty()) break;
      counterexamples.insert(counterexamples.end(), c.counterexamples.begin(),
                             c.counterexamples.end());
      std::vector<std::string> lines = absl::StrSplit(prepared->jml, '\n');
      std::set<int> done;
      std::vector<Repair> repairs_before = prepared->repairs;
      std::map<int, size_t> repair_of_before = repair_of;
      bool edited = false;
      for (const check::Diagnostic& d : c.diagnostics) {
        int line = d.span.line;
        if (d.kind != check::Diagnostic::Kind::kViolated || !d.span.valid() || line < 1 ||
            line > static_cast<int>(lines.size()) || !done.insert(line).second)
          continue;
        absl::string_view text = lines[line - 1];
        size_t at = text.find("ensures ");
        absl::string_view prefix = text.substr(0, at == absl::string_view::npos ? 0 : at);
        if (at == absl::string_view::npos ||
            !absl::StripAsciiWhitespace(absl::StripPrefix(
                absl::StripAsciiWhitespace(prefix), "//@")).empty())
          continue;
        absl::string_view clause = absl::StripAsciiWhitespace(text.substr(at));
        if (!absl::ConsumeSuffix(&clause, ";")) continue;  // spans several lines
        clause.remove_prefix(strlen("ensures "));
        if (original.count(line)) {
          // Our guard was refuted: search again without it.
          auto& guards = refuted_guards[line];
          absl::string_view rest = clause;
          size_t arrow = rest.find(" ==> ");
          if (arrow != absl::string_view::npos) {
            guards.push_back(absl::StrCat("requires ", rest.substr(0, arrow), ";"));
          }
        } else {
          original[line] = std::string(clause);
        }
        synth::SynthesisInput in;
        in.signature = inputs_.prompt.signature;
        in.observations = inputs_.prompt.observations;
        in.counterexamples = counterexamples;
        in.banned = refuted_guards[line];
        absl::StatusOr<std::optional<synth::ClauseGuard>> guard =
            synth::GuardRefutedClause(in, original[line], {}, check::IsTautology);
        if (!guard.ok() || !guard->has_value()) continue;
        const synth::ClauseGuard& g = **guard;
        std::string from = absl::StrCat("ensures ", original[line], ";");
        std::string to = absl::StrCat("ensures ", g.guarded, ";");
        if (g.threshold) {
          Progress(absl::StrCat("`", to, "` would exclude the validator's counterexamples, but ",
                                "its guard is a threshold read off single values; not applied"));
          continue;
        }
        lines[line - 1] = absl::StrCat(prefix, to);
        Repair r{from, to,
                 absl::StrCat("`", from, "` is refuted by the validator's counterexamples: ",
                              "guarded with `", g.guard,
                              "`, false on them and true on every recorded call"),
                 static_cast<int>(counterexamples.size())};
        auto known = repair_of.find(line);
        if (known != repair_of.end()) {
          prepared->repairs[known->second] = r;
        } else {
          repair_of[line] = prepared->repairs.size();
          prepared->repairs.push_back(r);
        }
        edited = true;
      }
      if (!edited) break;
      check::ValidateRequest again = base;
      again.contract = absl::StrJoin(lines, "\n");
      absl::StatusOr<check::ValidationReport> next = validator_->Validate(again);
      if (!next.ok()) {
        prepared->repairs = std::move(repairs_before);
        repair_of = std::move(repair_of_before);
        break;
      }
      prepared->jml = again.contract;
      *report = *std::move(next);
      changed = true;
    }
    return changed;
  }

  // The candidate as it is validated and its repairs, in the round's
  // record and in candidate.jml and repairs.txt (replacing what an earlier
  // step of the round recorded).
  absl::Status RecordCandidate(const std::string& dir, const PreparedCandidate& prepared,
                               v1::InferRound* round) {
    round->set_candidate(prepared.jml);
    TS_RETURN_IF_ERROR(WriteFileAtomic(Join(dir, "candidate.jml"), prepared.jml));
    TS_RETURN_IF_ERROR(WriteFileAtomic(Join(dir, "repairs.txt"), FormatRepairs(prepared.repairs)));
    round->clear_repairs();
    for (const Repair& r : prepared.repairs) {
      v1::InferRepair* out = round->add_repairs();
      out->set_clause(r.clause);
      out->set_repaired(r.repaired);
      out->set_reason(r.reason);
      out->set_refuted_by(r.refuted_by);
    }
    return absl::OkStatus();
  }

  // Writes round.json, which makes the round finished for a re-run — unless
  // a stop was asked for (common/interrupt.h): then the round's verdicts may
  // come from queries the stop cut short, so the round stays unfinished (a
  // re-run moves it aside and redoes it) and the run ends.
  absl::Status RecordRound(const std::string& dir, const v1::InferRound& round) {
    if (StopSignal() != 0) {
      return absl::CancelledError(absl::StrCat(StopReason(), " during round ", round.round(),
                                               " of ", inputs_.selector, " (not recorded)"));
    }
    return WriteJsonFile(Join(dir, "round.json"), round);
  }

  absl::StatusOr<bool> Finish(const std::string& dir, const prompt::ValidationFeedback& feedback,
                              v1::InferRound* round) {
    SetFeedback(feedback, round);
    TS_RETURN_IF_ERROR(RecordRound(dir, *round));
    std::string detail = round->outcome() == v1::ROUND_VALIDATED
                             ? absl::StrCat("consistency ", round->consistency(), "; coverage ",
                                            round->coverage())
                             : absl::StrCat(RoundOutcomeName(round->outcome()), ": ",
                                            round->error());
    Progress(absl::StrCat("round ", round->round(), ": ", round->bits(), " (", detail, ")",
                          round->repairs_size() > 0
                              ? absl::StrCat(", ", round->repairs_size(), " repair(s)")
                              : ""));
    return true;
  }

  const MethodInputs& inputs_;
  gateway::LlmClient* client_;
  check::Validator* validator_;
  std::string dir_;
  std::string root_;
  const RefineOptions& options_;
  std::vector<v1::InferRound> rounds_;
  // The earlier run's Success could not be decided again (not refuted):
  // no round is run (RecheckEarlierSuccess).
  bool undecided_again_ = false;
  // Candidates validated (as prepared, before weakening) -> their round's
  // index in rounds_.
  std::map<std::string, size_t> validated_;
};

}  // namespace

absl::StatusOr<RefineOutcome> RefineMethod(const MethodInputs& inputs, gateway::LlmClient* client,
                                           check::Validator* validator,
                                           const std::string& method_dir,
                                           const std::string& contract_root,
                                           const RefineOptions& options) {
  MethodRun run(inputs, client, validator, method_dir, contract_root, options);
  return run.Run();
}

ContractFile RenderContractFile(const MethodInputs& inputs, const v1::InferResult& result) {
  std::string header = absl::StrCat("// ", inputs.resolved, ": ", InferStatusName(result.status()),
                                    result.history().empty() ? "" : " ",
                                    result.history().empty() ? "" : result.history(),
                                    " (inferred by tracespec infer)\n");
  DeclaredContract declared =
      SplitContractDeclaration(result.contract(), inputs.prompt.signature);
  const prompt::MethodSignature& sig = declared.signature;
  std::string contract = declared.annotations;
  if (!contract.empty() && contract.back() != '\n') contract += '\n';
  if (!inputs.class_is_nested) {
    std::string package = PackageOf(sig.class_name);
    std::string simple = SimpleClassName(sig.class_name);
    std::string text = header;
    if (!package.empty()) absl::StrAppend(&text, "package ", package, ";\n\n");
    absl::StrAppend(&text, inputs.class_is_public ? "public " : "", "class ", simple, " {\n",
                    Indent(contract, "  "), "  ", prompt::RenderDeclaration(sig), ";\n}\n");
    // Only a file the JML parser reads back is offered as a .jml file.
    if (jml::ParseJmlFile(text, simple + ".jml").ok()) return {simple + ".jml", text};
  }
  std::string whole = result.contract();  // a bare specification keeps its declaration
  if (!whole.empty() && whole.back() != '\n') whole += '\n';
  return {"contract.spec", header + whole};
}

DeclaredContract SplitContractDeclaration(const std::string& contract,
                                          prompt::MethodSignature signature) {
  jml::SpecTextDeclaration split = jml::SplitSpecTextDeclaration(contract);
  DeclaredContract out{split.annotations, std::move(signature)};
  if (!split.declared) return out;
  for (size_t k = 0; k < split.params.size() && k < out.signature.params.size(); ++k) {
    out.signature.params[k].nullable = split.params[k] == jml::Nullity::kNullable;
  }
  out.signature.nullable_result = split.result == jml::Nullity::kNullable;
  return out;
}

}  // namespace tracespec::loop

// Reading an output directory of `tracespec run` into the report's view;
// see run_view.h.
#include "agent/report/run_view.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "agent/gateway/audit_log.h"
#include "agent/loop/run_dir.h"
#include "agent/prompt/observations.h"
#include "common/files.h"
#include "common/method_id.h"
#include "common/proto_io.h"
#include "common/status.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"

namespace tracespec::report {
namespace {

std::string Join(const std::string& dir, const std::string& name) { return dir + "/" + name; }

// Subdirectories of `dir` holding `file`, sorted by name.
std::vector<std::string> SubdirsWith(const std::string& dir, const std::string& file) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!entry.is_directory(ec)) continue;
    std::string name = entry.path().filename().string();
    if (FileExists(Join(entry.path().string(), file))) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

const google::protobuf::Value* Get(const google::protobuf::Struct& s, const std::string& key) {
  auto it = s.fields().find(key);
  return it == s.fields().end() ? nullptr : &it->second;
}

std::string StringField(const google::protobuf::Struct& s, const std::string& key) {
  const google::protobuf::Value* v = Get(s, key);
  return v != nullptr && v->has_string_value() ? v->string_value() : "";
}

int IntField(const google::protobuf::Struct& s, const std::string& key) {
  const google::protobuf::Value* v = Get(s, key);
  return v != nullptr && v->kind_case() == google::protobuf::Value::kNumberValue
             ? static_cast<int>(v->number_value())
             : 0;
}

const google::protobuf::ListValue* ListField(const google::protobuf::Struct& s,
                                             const std::string& key) {
  const google::protobuf::Value* v = Get(s, key);
  return v != nullptr && v->has_list_value() ? &v->list_value() : nullptr;
}

// A counterexample of report.json (an Observation in the protobuf JSON
// mapping, held as a Struct) as one readable line.
absl::StatusOr<v1::Observation> ObservationOf(const google::protobuf::Value& value,
                                              const std::string& path) {
  std::string json;
  auto printed = google::protobuf::util::MessageToJsonString(value, &json);
  if (!printed.ok()) {
    return absl::DataLossError(absl::StrCat(path, ": a counterexample cannot be read"));
  }
  v1::Observation observation;
  absl::Status parsed = FromJson(json, &observation);
  if (!parsed.ok()) {
    return absl::DataLossError(
        absl::StrCat(path, ": a counterexample is not an observation: ", parsed.message()));
  }
  return observation;
}

void AddDiagnostics(const google::protobuf::ListValue* list, const std::string& check,
                    RoundView* round) {
  if (list == nullptr) return;
  for (const google::protobuf::Value& d : list->values()) {
    if (!d.has_struct_value()) continue;
    const google::protobuf::Struct& s = d.struct_value();
    round->diagnostics.push_back({check, StringField(s, "kind"), IntField(s, "line"),
                                  IntField(s, "column"), StringField(s, "clause"),
                                  StringField(s, "message")});
  }
}

// The diagnostics and counterexamples of round-N/report.json.
absl::Status ReadValidatorReport(const std::string& path, RoundView* round) {
  TS_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  google::protobuf::Struct report;
  absl::Status parsed = FromJson(text, &report);
  if (!parsed.ok()) {
    return absl::DataLossError(
        absl::StrCat(path, ": not a validation report: ", parsed.message()));
  }
  for (const char* check : {"consistency", "coverage"}) {
    const google::protobuf::Value* v = Get(report, check);
    if (v == nullptr || !v->has_struct_value()) continue;
    const google::protobuf::Struct& result = v->struct_value();
    AddDiagnostics(ListField(result, "diagnostics"), check, round);
    const google::protobuf::ListValue* examples = ListField(result, "counterexamples");
    const google::protobuf::ListValue* explanations = ListField(result, "explanations");
    if (examples == nullptr) continue;
    for (int i = 0; i < examples->values_size(); ++i) {
      TS_ASSIGN_OR_RETURN(v1::Observation o, ObservationOf(examples->values(i), path));
      CounterexampleView view;
      view.check = check;
      if (explanations != nullptr && i < explanations->values_size()) {
        view.explanation = explanations->values(i).string_value();
      }
      view.behaviour = prompt::RenderObservation(o).body;
      view.test_id = o.test_id();
      view.excluded = o.excluded();
      round->counterexamples.push_back(std::move(view));
    }
  }
  AddDiagnostics(ListField(report, "notes"), "contract", round);
  return absl::OkStatus();
}

absl::StatusOr<RoundView> ReadRound(const std::string& dir) {
  v1::InferRound record;
  TS_RETURN_IF_ERROR(loop::ReadJsonFile(Join(dir, "round.json"), &record));
  RoundView round;
  round.round = record.round();
  round.outcome = record.outcome();
  round.bits = record.bits();
  round.consistency = record.consistency();
  round.coverage = record.coverage();
  round.error = record.error();
  round.hypotheses.assign(record.hypotheses().begin(), record.hypotheses().end());
  round.repairs.assign(record.repairs().begin(), record.repairs().end());
  std::string report = Join(dir, "report.json");
  if (FileExists(report)) TS_RETURN_IF_ERROR(ReadValidatorReport(report, &round));
  return round;
}

// Counts the redacted field values in one object graph.
void CountRedacted(const google::protobuf::RepeatedPtrField<v1::ObjectState>& graph,
                   std::map<std::string, int>* counts) {
  for (const v1::ObjectState& state : graph) {
    for (const v1::Field& field : state.fields()) {
      if (field.value().kind_case() != v1::Value::kRedacted) continue;
      const std::string& owner =
          field.declaring_class().empty() ? state.class_name() : field.declaring_class();
      ++(*counts)[absl::StrCat(owner, ".", field.name())];
    }
  }
}

std::string MethodOf(const v1::Observation& o) {
  return MethodId::FromRef(o.method()).Key();
}

// What one method's observations add up to, fed one observation at a time
// (a hot method may have been observed hundreds of thousands of times).
class ObservationTally {
 public:
  explicit ObservationTally(MethodView* method) : method_(method) {}

  void Add(const v1::Observation& o) {
    ++method_->observations;
    if (o.excluded()) {
      ++method_->excluded_observations;
      excluded_tests_[o.test_id()] = o.excluded_reason();
    }
    CountRedacted(o.pre(), &redacted_);
    CountRedacted(o.post(), &redacted_);
    for (int i = 0; i < o.args_size(); ++i) {
      if (o.args(i).kind_case() != v1::Value::kRedacted) continue;
      std::string param = i < o.method().param_names_size() ? o.method().param_names(i)
                                                            : absl::StrCat("arg", i);
      ++redacted_[absl::StrCat(method_->method, " parameter ", param)];
    }
    if (o.outcome().returned().kind_case() == v1::Value::kRedacted) {
      ++redacted_[method_->method + " return value"];
    }
    std::string line = prompt::RenderObservation(o).body;
    auto [it, added] = index_.emplace(line, index_.size());
    if (added) ++method_->distinct_behaviours;
    if (it->second >= static_cast<size_t>(kMaxBehaviours)) return;
    if (added) method_->behaviours.push_back({line, 0, {}, false});
    BehaviourView& b = method_->behaviours[it->second];
    ++b.count;
    b.excluded = b.excluded || o.excluded();
    if (!o.test_id().empty()) tests_[it->second].insert(o.test_id());
  }

  void Finish() {
    for (size_t i = 0; i < method_->behaviours.size(); ++i) {
      method_->behaviours[i].test_ids.assign(tests_[i].begin(), tests_[i].end());
    }
    method_->excluded_tests.assign(excluded_tests_.begin(), excluded_tests_.end());
    method_->redacted.assign(redacted_.begin(), redacted_.end());
  }

 private:
  MethodView* method_;
  std::map<std::string, size_t> index_;  // behaviour -> position in `behaviours`
  std::map<size_t, std::set<std::string>> tests_;
  std::map<std::string, std::string> excluded_tests_;
  std::map<std::string, int> redacted_;
};

// Streams observations.pb into the methods' tallies.
absl::Status AddObservations(const std::string& path, std::vector<MethodView>* methods) {
  std::map<std::string, ObservationTally> tallies;
  for (MethodView& m : *methods) tallies.emplace(m.method, ObservationTally(&m));
  TS_ASSIGN_OR_RETURN(std::string data, ReadFile(path));
  TS_RETURN_IF_ERROR(ForEachDelimited(
      data, path, [] { return std::make_unique<v1::Observation>(); },
      [&](google::protobuf::Message& message) -> absl::Status {
        const auto& o = static_cast<const v1::Observation&>(message);
        TS_RETURN_IF_ERROR(CheckFormatVersion(o.format_version(), "observation"));
        auto it = tallies.find(MethodOf(o));
        if (it != tallies.end()) it->second.Add(o);
        return absl::OkStatus();
      }));
  for (auto& [name, tally] : tallies) tally.Finish();
  return absl::OkStatus();
}

absl::StatusOr<MethodView> ReadMethod(const std::string& out_dir, const std::string& infer_dir,
                                      const std::string& name) {
  MethodView method;
  method.dir_name = name;
  std::string dir = Join(infer_dir, name);
  TS_RETURN_IF_ERROR(loop::ReadJsonFile(Join(dir, "result.json"), &method.result));
  method.method = method.result.resolved().empty() ? method.result.method()
                                                   : method.result.resolved();
  absl::StatusOr<MethodId> id = MethodId::Parse(method.method);
  method.display = id.ok() ? id->Display() : method.method;
  // infer's own file holds the contract shown (the last one tried); the
  // merged spec file replaces it only where run.json says the contract is
  // in it (ReadRun): a class's spec file holds its succeeded methods only.
  if (!method.result.contract_file().empty()) {
    method.contract_file = "infer/" + method.result.contract_file();
  }
  const v1::Strength& st = method.result.strength();
  if (st.measured()) {
    method.strength.push_back({"summary", st.summary()});
    int returned = st.observations() - st.thrown();
    method.strength.push_back(
        {"result pinned (determinism)",
         absl::StrCat(st.pinned() - st.thrown_pinned(), "/", returned,
                      st.thrown() > 0 ? " observations that returned" : " observations",
                      st.undecided() > 0 ? absl::StrCat(", ", st.undecided(), " undecided") : "")});
    if (st.thrown() > 0) {
      method.strength.push_back(
          {"exception pinned (determinism)",
           absl::StrCat(st.thrown_pinned(), "/", st.thrown(),
                        " observations that threw (the contract applies and admits no normal "
                        "outcome)")});
    }
    method.strength.push_back(
        {"perturbed outcomes rejected (completeness)",
         absl::StrCat(st.rejected(), "/", st.perturbed(),
                      st.perturbed() > 0 ? absl::StrCat(" (", st.rejected() * 100 / st.perturbed(), "%)")
                                         : "")});
    if (st.vacuous()) {
      method.strength.push_back({"says nothing", "the contract holds but pins the outcome on no observation and rejects no perturbed outcome but unchanged fields changed (what a frame alone rejects): it is not counted as a contract that holds"});
    } else if (st.weak()) {
      method.strength.push_back({"weak", "the result (of a void method: the post-state) is pinned on fewer than half of the observations that returned"});
    }
  }
  if (!st.note().empty()) method.strength.push_back({"note", st.note()});
  if (st.has_mutants()) {
    const v1::MutantFigures& mu = st.mutants();
    method.strength.push_back({"mutants", mu.summary()});
    if (!mu.contract_only_example().empty()) {
      method.strength.push_back({"a mutant only the contract kills", mu.contract_only_example()});
    }
  }
  for (int r = 1; IsDirectory(Join(dir, loop::RoundDirName(r))); ++r) {
    std::string round_dir = Join(dir, loop::RoundDirName(r));
    // An incomplete round (a re-run will redo it) has no round.json yet.
    if (!FileExists(Join(round_dir, "round.json"))) break;
    TS_ASSIGN_OR_RETURN(RoundView round, ReadRound(round_dir));
    method.rounds.push_back(std::move(round));
  }
  return method;
}

absl::Status ReadAudit(const std::string& path, RunView* run) {
  AuditView& audit = run->audit;
  audit.present = true;
  TS_ASSIGN_OR_RETURN(gateway::AuditVerification check, gateway::VerifyAuditLog(path));
  audit.intact = check.intact;
  audit.records = check.records;
  audit.head_hash = check.head_hash;
  audit.first_bad_line = check.first_bad_line;
  audit.problem = check.problem;
  audit.signed_records = check.signed_records;
  audit.seals = check.seals;
  audit.last_seal = check.last_seal;
  TS_ASSIGN_OR_RETURN(std::vector<v1::AuditRecord> records, gateway::ReadAuditRecords(path));
  std::set<std::string> destinations;
  for (const v1::AuditRecord& r : records) {
    if (!r.signing_key_id().empty()) audit.signing_key_id = r.signing_key_id();
    if (r.direction() == v1::OUTBOUND) {
      if (r.verdict() == v1::ALLOWED) {
        ++audit.outbound_allowed;
        audit.bytes_sent += r.payload_size();
        destinations.insert(r.destination());
      } else if (r.verdict() == v1::BLOCKED) {
        ++audit.outbound_blocked;
      } else if (r.verdict() == v1::DRY_RUN) {
        ++audit.outbound_dry_run;
      }
    }
    // Labels read "<resolved method> round N" (agent/loop/refine.cpp).
    for (MethodView& m : run->methods) {
      if (absl::StartsWith(r.label(), m.method + " round ")) m.audit.push_back(r);
    }
  }
  audit.destinations.assign(destinations.begin(), destinations.end());
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<RunView> LoadRunView(const std::string& out_dir) {
  const std::string observations_dir = Join(out_dir, "observations");
  const std::string infer_dir = Join(out_dir, "infer");
  if (!IsDirectory(observations_dir) && !IsDirectory(infer_dir)) {
    return absl::NotFoundError(absl::StrCat(
        out_dir, ": not an output directory of tracespec run (neither observations/ nor "
                 "infer/ is there)"));
  }
  RunView run;
  std::string run_json = Join(out_dir, "run.json");
  if (FileExists(run_json)) {
    v1::RunSummary summary;
    TS_RETURN_IF_ERROR(loop::ReadJsonFile(run_json, &summary));
    run.run = std::move(summary);
  }
  std::string summary = Join(observations_dir, "summary.json");
  if (FileExists(summary)) {
    v1::ObserveSummary observe;
    TS_RETURN_IF_ERROR(loop::ReadJsonFile(summary, &observe));
    run.observe = std::move(observe);
  }
  for (const std::string& name : SubdirsWith(infer_dir, "result.json")) {
    TS_ASSIGN_OR_RETURN(MethodView method, ReadMethod(out_dir, infer_dir, name));
    run.methods.push_back(std::move(method));
  }
  std::sort(run.methods.begin(), run.methods.end(),
            [](const MethodView& a, const MethodView& b) { return a.method < b.method; });
  if (run.run) {
    std::map<std::string, const v1::MethodRun*> listed;
    for (const v1::MethodRun& m : run.run->methods()) listed[m.method()] = &m;
    for (MethodView& m : run.methods) {
      auto it = listed.find(m.method);
      if (it == listed.end()) continue;
      if (!it->second->spec_file().empty()) m.contract_file = it->second->spec_file();
      listed.erase(it);
    }
    for (const auto& [name, m] : listed) {
      if (m->status() != v1::METHOD_RUN_INFERRED) run.not_inferred.push_back(*m);
    }
  }
  std::string observations = Join(observations_dir, "observations.pb");
  if (FileExists(observations)) {
    TS_RETURN_IF_ERROR(AddObservations(observations, &run.methods));
  }
  std::string audit = Join(infer_dir, "audit.jsonl");
  if (FileExists(audit)) TS_RETURN_IF_ERROR(ReadAudit(audit, &run));
  return run;
}

}  // namespace tracespec::report

// `tracespec run` and `tracespec check`; see run.h.
#include "project/run.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "agent/loop/infer.h"
#include "agent/loop/run_dir.h"
#include "agent/report/report.h"
#include "common/files.h"
#include "common/owned_paths.h"
#include "common/hash.h"
#include "common/interrupt.h"
#include "common/method_id.h"
#include "common/proto_io.h"
#include "common/status.h"
#include "common/subprocess.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "observer/junit.h"
#include "observer/observer.h"
#include "observer/summary.h"
#include "project/check_guard.h"
#include "project/invariants.h"
#include "project/reachable_classes.h"
#include "project/spec_files.h"
#include "tracespec/v1/infer.pb.h"
#include "tracespec/v1/summary.pb.h"
#include "validator/check/messages.h"
#include "validator/check/validator.h"
#include "validator/classfile/class_file.h"
#include "validator/classfile/class_path.h"

namespace tracespec::project {
namespace {

namespace fs = std::filesystem;

constexpr char kObservationsDir[] = "observations";
constexpr char kInferDir[] = "infer";
constexpr char kSpecsDir[] = "specs";
constexpr char kRunJson[] = "run.json";
// In OUT/observations: the observations key (ObservationsKey) of the
// observations there, written once they are complete.
constexpr char kObservationsKeyFile[] = "key";

double Since(absl::Time start) { return absl::ToDoubleSeconds(absl::Now() - start); }

// Serializes progress calls from the workers.
class Reporter {
 public:
  explicit Reporter(ProgressFn fn) : fn_(std::move(fn)) {}
  void operator()(ProgressEvent event) {
    if (!fn_) return;
    std::lock_guard<std::mutex> lock(mu_);
    fn_(event);
  }
  void Stage(const std::string& text, absl::Time start) {
    ProgressEvent e;
    e.text = text;
    e.elapsed = Since(start);
    (*this)(e);
  }

 private:
  ProgressFn fn_;
  std::mutex mu_;
};

// Every file under `path` (a file, or a directory walked in name order):
// "relative-path sha256" lines; without .class files when `skip_classes`.
absl::Status HashTree(const std::string& path, std::string* out, bool skip_classes = false) {
  if (path.empty() || !FileExists(path)) {
    absl::StrAppend(out, "missing ", path, "\n");
    return absl::OkStatus();
  }
  if (!IsDirectory(path)) {
    TS_ASSIGN_OR_RETURN(std::string content, ReadFile(path));
    absl::StrAppend(out, path, " ", Sha256Hex(content), "\n");
    return absl::OkStatus();
  }
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file() &&
        !(skip_classes && absl::EndsWith(it->path().string(), ".class"))) {
      files.push_back(it->path().string());
    }
  }
  if (ec) return absl::UnavailableError(absl::StrCat("cannot list ", path, ": ", ec.message()));
  std::sort(files.begin(), files.end());
  for (const std::string& file : files) {
    TS_ASSIGN_OR_RETURN(std::string content, ReadFile(file));
    absl::StrAppend(out, file.substr(path.size()), " ", Sha256Hex(content), "\n");
  }
  return absl::OkStatus();
}

// What the observations depend on: the project's class files the tests
// and the targets can reach (ReachableClassFiles) and its other files, the
// libraries, the tests and their sources, the targets, the policy and the
// time limit. A captured command (no tests) depends on every class file.
// `observe_noninterference` as observe takes it: unset is observe's default
// (on for tests; a command is run once and its summary says so).
observer::ObserveOptions::Noninterference ObserveNoninterference(const v1::ProjectConfig& c) {
  using Noninterference = observer::ObserveOptions::Noninterference;
  if (!c.has_observe_noninterference()) {
    return c.command().empty() ? Noninterference::kDefault : Noninterference::kOff;
  }
  return c.observe_noninterference() ? Noninterference::kOn : Noninterference::kOff;
}

// "entry E" and the hashes (HashTree) of each entry of the project's
// classes and test classes, the class files of its directories left out
// when `skip_classes`; those directories into `dirs`.
absl::Status HashClassEntries(const v1::ProjectConfig& c, bool skip_classes, std::string* text,
                              std::vector<std::string>* dirs) {
  for (const auto* list : {&c.classes(), &c.test_classes()}) {
    for (const std::string& entry : *list) {
      absl::StrAppend(text, "entry ", entry, "\n");
      const bool dir = IsDirectory(entry);
      if (dir) dirs->push_back(entry);
      TS_RETURN_IF_ERROR(HashTree(entry, text, /*skip_classes=*/skip_classes && dir));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ObservationsKey(const Project& project,
                                            const std::vector<std::string>& tests,
                                            const std::vector<std::string>& targets) {
  const v1::ProjectConfig& c = project.config;
  // 2: observations of failing tests are flagged (older ones are not).
  // 3: class files keyed by reachability.
  std::string text = "tracespec observations key 3\n";
  const bool by_reach = c.command().empty();
  std::vector<std::string> project_dirs;
  TS_RETURN_IF_ERROR(HashClassEntries(c, /*skip_classes=*/by_reach, &text, &project_dirs));
  if (by_reach) {
    std::vector<std::string> roots = tests;
    for (const std::string& t : targets) roots.push_back(t.substr(0, t.find('#')));
    TS_ASSIGN_OR_RETURN(std::vector<std::string> reachable,
                        ReachableClassFiles(project_dirs, roots));
    absl::StrAppend(&text, "reachable classes\n");
    for (const std::string& file : reachable) {
      TS_ASSIGN_OR_RETURN(std::string content, ReadFile(file));
      absl::StrAppend(&text, file, " ", Sha256Hex(content), "\n");
    }
  }
  for (const std::string& entry : c.classpath()) {
    absl::StrAppend(&text, "entry ", entry, "\n");
    TS_RETURN_IF_ERROR(HashTree(entry, &text));
  }
  absl::StrAppend(&text, "tests-src\n");
  if (!c.tests_src().empty()) TS_RETURN_IF_ERROR(HashTree(c.tests_src(), &text));
  absl::StrAppend(&text, "tests ", absl::StrJoin(tests, ","), "\n");
  absl::StrAppend(&text, "targets ", absl::StrJoin(targets, ","), "\n");
  absl::StrAppend(&text, "policy\n");
  if (!c.redaction_policy().empty()) TS_RETURN_IF_ERROR(HashTree(c.redaction_policy(), &text));
  absl::StrAppend(&text, "timeout ", c.observe_timeout_seconds(), "\n");
  // A command's words, and the files among them (its workload, its script).
  for (const std::string& word : c.command()) {
    absl::StrAppend(&text, "command ", word, "\n");
    std::string path = absl::StartsWith(word, "/") ? word : absl::StrCat(project.dir, "/", word);
    if (FileExists(path)) TS_RETURN_IF_ERROR(HashTree(path, &text));
  }
  absl::StrAppend(&text, "max-bytes ", c.observe_max_bytes(), "\n");
  // Only when on (the default for tests since issue 24): observations of
  // earlier runs made without it are not reused, and a key made with
  // `observe_noninterference: false` is the key of the old default.
  if (ObserveNoninterference(c) != observer::ObserveOptions::Noninterference::kOff) {
    absl::StrAppend(&text, "noninterference\n");
  }
  return Sha256Hex(text);
}

// "N class files are older than their sources: the contracts are of
// those class files, not of the sources" (RunSummary.stale_classes).
std::string StaleClassesSentence(const v1::RunSummary& s) {
  const int n = s.stale_classes_size();
  return absl::StrCat(n, n == 1 ? " class file is" : " class files are",
                      " older than ", n == 1 ? "its source" : "their sources",
                      ": the contracts are of the class files as found, not of the sources");
}

// The contents of the files of OUT/observations a reuse reads, each read
// once: what is hashed is what is parsed.
struct CachedObservationFiles {
  std::string observations;  // observations.pb
  std::string summary;       // summary.json
};

absl::StatusOr<CachedObservationFiles> ReadCachedObservationFiles(const std::string& obs_dir) {
  CachedObservationFiles files;
  TS_ASSIGN_OR_RETURN(files.observations, ReadFile(obs_dir + "/observations.pb"));
  TS_ASSIGN_OR_RETURN(files.summary, ReadFile(obs_dir + "/summary.json"));
  return files;
}

// What OUT/observations/key holds: the observations key, then the SHA-256
// of each file a reuse reads, so that cached observations changed after
// they were written (damage that still parses, an edit) are observed
// again rather than trusted.
std::string ObservationsSeal(const std::string& key, const CachedObservationFiles& files) {
  return absl::StrCat(key, "\n", "observations.pb ", Sha256Hex(files.observations), "\n",
                      "summary.json ", Sha256Hex(files.summary), "\n");
}

// In OUT/infer/<method>: the journal key (JournalKeys) of the
// observations and class files the method's journal was made from.
constexpr char kJournalKeyFile[] = "observations.key";

// Object ids renumbered in the order they first appear (ObjectState.id,
// Value.ref), counting on across `ids`: the probe numbers objects over the
// whole run, so another test's objects would shift them.
void RenumberObjects(google::protobuf::Message* m, std::map<uint64_t, uint64_t>* ids) {
  const google::protobuf::Descriptor* d = m->GetDescriptor();
  const google::protobuf::Reflection* r = m->GetReflection();
  auto renumber = [&](const google::protobuf::FieldDescriptor* f) {
    auto [it, added] = ids->emplace(r->GetUInt64(*m, f), ids->size() + 1);
    r->SetUInt64(m, f, it->second);
  };
  if (d == v1::ObjectState::descriptor()) renumber(d->FindFieldByName("id"));
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  r->ListFields(*m, &fields);
  for (const google::protobuf::FieldDescriptor* f : fields) {
    if (d == v1::Value::descriptor() && f->name() == "ref") {
      renumber(f);
    } else if (f->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) {
      if (f->is_repeated()) {
        for (int i = 0; i < r->FieldSize(*m, f); ++i) {
          RenumberObjects(r->MutableRepeatedMessage(m, f, i), ids);
        }
      } else {
        RenumberObjects(r->MutableMessage(m, f), ids);
      }
    }
  }
}

// Each target's journal key: what its inference starts from, so that a
// run observing again keeps the journal of a target for which all of it is
// unchanged (another class was added, another method's tests changed):
// the method's own observations as recorded (without their run-wide
// sequence numbers and object ids), the sources of the tests that made
// them, the project's class files its class can reach, the rest of the
// class path (non-class files of the project, the libraries), and what
// decides what may be sent (the redaction policy, the denied values the
// tests read: `observed`'s denied keys), so that no earlier round's
// conversation is continued under another policy. A
// target whose selector does not parse, or that was not observed, gets no
// key (it starts again).
absl::StatusOr<std::map<std::string, std::string>> JournalKeys(
    const Project& project, const std::vector<std::string>& targets,
    const v1::ObserveSummary& observed, const std::vector<v1::Observation>& observations) {
  const v1::ProjectConfig& c = project.config;
  std::string shared = "tracespec journal key 1\n";
  std::vector<std::string> project_dirs;
  TS_RETURN_IF_ERROR(HashClassEntries(c, /*skip_classes=*/true, &shared, &project_dirs));
  for (const std::string& entry : c.classpath()) {
    absl::StrAppend(&shared, "entry ", entry, "\n");
    TS_RETURN_IF_ERROR(HashTree(entry, &shared));
  }
  absl::StrAppend(&shared, "policy\n");
  if (!c.redaction_policy().empty()) TS_RETURN_IF_ERROR(HashTree(c.redaction_policy(), &shared));
  v1::ObserveSummary denied;
  *denied.mutable_denied_constants() = observed.denied_constants();
  *denied.mutable_denied_text_keys() = observed.denied_text_keys();
  *denied.mutable_denied_number_keys() = observed.denied_number_keys();
  absl::StrAppend(&shared, "denied ", Sha256Hex(denied.SerializeAsString()), "\n");
  std::map<std::string, std::vector<const v1::Observation*>> of;  // method key -> its calls
  for (const v1::Observation& o : observations) of[MethodId::FromRef(o.method()).Key()].push_back(&o);
  std::map<std::string, std::string> reach_of;  // class -> its reachable class files, hashed
  std::map<std::string, std::string> keys;
  for (const std::string& target : targets) {
    absl::StatusOr<MethodId> id = MethodId::Parse(target);
    if (!id.ok() || !of.count(id->Key())) continue;  // not observed: nothing to keep
    std::string text = shared;
    auto reach = reach_of.find(id->class_name());
    if (reach == reach_of.end()) {
      TS_ASSIGN_OR_RETURN(std::vector<std::string> files,
                          ReachableClassFiles(project_dirs, {id->class_name()}));
      std::string hashed = "reachable classes\n";
      for (const std::string& file : files) {
        TS_ASSIGN_OR_RETURN(std::string content, ReadFile(file));
        absl::StrAppend(&hashed, file, " ", Sha256Hex(content), "\n");
      }
      reach = reach_of.emplace(id->class_name(), std::move(hashed)).first;
    }
    absl::StrAppend(&text, reach->second);
    std::set<std::string> test_classes;
    std::map<uint64_t, uint64_t> ids;
    for (const v1::Observation* o : of[id->Key()]) {
      v1::Observation canonical = *o;
      canonical.clear_sequence();
      RenumberObjects(&canonical, &ids);
      absl::StrAppend(&text, "observation ", Sha256Hex(canonical.SerializeAsString()), "\n");
      if (!o->test_id().empty()) {
        std::string test_class = o->test_id().substr(0, o->test_id().find('#'));
        test_classes.insert(test_class.substr(0, test_class.find('$')));
      }
    }
    for (const std::string& test : test_classes) {
      std::string source = c.tests_src().empty()
                               ? ""
                               : absl::StrCat(c.tests_src(), "/",
                                              absl::StrReplaceAll(test, {{".", "/"}}), ".java");
      absl::StrAppend(&text, "test ", test, "\n");
      TS_RETURN_IF_ERROR(HashTree(source, &text));
    }
    // Paths inside the project count relative to it: a copy of the project
    // elsewhere has the same keys.
    keys[target] = Sha256Hex(absl::StrReplaceAll(text, {{project.dir + "/", ""}}));
  }
  return keys;
}

// Keeps the journal (OUT/infer/<method>) of each target whose journal key
// is the one it was made with, and starts the others again, saying so for
// each that had one; then records each target's key there. `observed_again`:
// the run observed again (a kept journal is then worth a line).
absl::Status KeepUnchangedJournals(const std::string& out_dir,
                                   const std::vector<std::string>& targets,
                                   const std::map<std::string, std::string>& keys,
                                   bool observed_again, Reporter& report, absl::Time start) {
  for (const std::string& t : targets) {
    const std::string dir = absl::StrCat(out_dir, "/", kInferDir, "/", loop::MethodDirName(t));
    const std::string key_file = absl::StrCat(dir, "/", kJournalKeyFile);
    auto key = keys.find(t);
    bool had_journal = false;  // anything besides the key: rounds, a result, rounds moved aside
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      had_journal = had_journal || it->path().filename() != kJournalKeyFile;
    }
    if (had_journal && key != keys.end() &&
        ReadFile(key_file).value_or("") == key->second + "\n") {
      if (observed_again) {
        report.Stage(absl::StrCat("infer: ", t, ": observations unchanged: its earlier rounds are reused"),
                     start);
      }
      continue;
    }
    TS_RETURN_IF_ERROR(RemoveAll(dir));
    if (had_journal) {
      report.Stage(absl::StrCat("infer: ", t, ": observations or the class files it reaches changed: inferred again"), start);
    }
    if (key == keys.end()) continue;
    TS_RETURN_IF_ERROR(MakeDirs(dir));
    TS_RETURN_IF_ERROR(WriteFileAtomic(key_file, key->second + "\n"));
  }
  return absl::OkStatus();
}

// The tests that failed while observing, as "pkg.C#m: Exception" (the
// failure's simple class name; the summary's tests are sorted by id), and
// the other failed entries with what they stand for ("pkg.C: Exception,
// failed outside its tests (...)", "JUnit: its JVM ended with ...").
std::vector<std::string> FailedTests(const v1::ObserveSummary& observed) {
  std::vector<std::string> out;
  for (const v1::TestSummary& t : observed.tests()) {
    if (t.status() != v1::TEST_STATUS_FAILED) continue;
    const std::string& c = t.failure_class();
    const std::string note = observer::FailedEntryNote(t, observed.jvm_result());
    out.push_back(absl::StrCat(t.test_id(), c.empty() && note.empty() ? "" : ": ",
                               c.empty() ? "" : c.substr(c.rfind('.') + 1),
                               !c.empty() && !note.empty() ? ", " : "", note));
  }
  return out;
}

// The round's verdict for run.json: from its typed verdict; a round of an
// older run has only the line, whose status word is taken and which is
// never taken for complete.
v1::CheckVerdict VerdictOfRound(const std::string& line, const v1::Verdict* typed) {
  v1::CheckVerdict v;
  if (line.empty()) return v;
  v.set_summary(line);
  if (typed == nullptr) {
    v.set_status(line.substr(0, line.find_first_of(" :")));
    v1::VerdictStatus word = v1::VERDICT_STATUS_UNSPECIFIED;
    if (v1::VerdictStatus_Parse(absl::StrCat("VERDICT_", v.status()), &word)) {
      v.mutable_verdict()->set_status(word);
    }
    return v;
  }
  *v.mutable_verdict() = *typed;
  absl::string_view status = v1::VerdictStatus_Name(typed->status());
  absl::ConsumePrefix(&status, "VERDICT_");
  v.set_status(std::string(status));
  v.set_complete(typed->complete());
  v.set_proved(typed->proved());
  v.set_inputs_cut(typed->inputs_cut());
  for (const std::string& c : typed->cuts()) v.add_cuts(c);
  return v;
}

absl::Status WriteRunJson(const std::string& out_dir, const v1::RunSummary& summary) {
  return loop::WriteJsonFile(absl::StrCat(out_dir, "/", kRunJson), summary);
}

// Replaces OUT/specs by the given files (written aside, then swapped in).
absl::Status WriteSpecs(const std::string& out_dir, const std::map<std::string, std::string>& files) {
  std::string target = absl::StrCat(out_dir, "/", kSpecsDir);
  std::string fresh = absl::StrCat(target, ".new");
  std::string old = absl::StrCat(target, ".old");
  TS_RETURN_IF_ERROR(RemoveAll(fresh));
  TS_RETURN_IF_ERROR(RemoveAll(old));
  TS_RETURN_IF_ERROR(MakeDirs(fresh));
  for (const auto& [relative, content] : files) {
    std::string path = absl::StrCat(fresh, "/", relative);
    TS_RETURN_IF_ERROR(MakeDirs(path.substr(0, path.rfind('/'))));
    TS_RETURN_IF_ERROR(WriteFileAtomic(path, content));
  }
  std::error_code ec;
  if (FileExists(target)) fs::rename(target, old, ec);
  if (!ec) fs::rename(fresh, target, ec);
  if (ec) return absl::UnavailableError(absl::StrCat("cannot replace ", target, ": ", ec.message()));
  return RemoveAll(old);
}

// With `gateway` (run --gateway), the model is the gateway's whatever the
// project's model says: the endpoint's model name, extra sources and
// anonymisation still apply, its URL, key variable, egress policy and
// limits are the gateway's own.
loop::InferOptions InferOptionsFor(const Project& project, const std::string& out_dir,
                                   const std::string& gateway) {
  const v1::ProjectConfig& c = project.config;
  loop::InferOptions o;
  o.classpath = MainClassPath(project);
  o.observations = absl::StrCat(out_dir, "/", kObservationsDir);
  o.tests_src = c.tests_src();
  o.test_classpath = FullClassPath(project);
  o.out_dir = absl::StrCat(out_dir, "/", kInferDir);
  if (c.rounds() > 0) o.refine.rounds = c.rounds();
  if (c.bounds().unwind() > 0) o.refine.unwind = c.bounds().unwind();
  if (c.bounds().max_array() > 0) o.refine.max_array = c.bounds().max_array();
  if (c.bounds().check_timeout_seconds() > 0) {
    o.refine.validation_timeout_seconds = c.bounds().check_timeout_seconds();
  }
  o.redaction_policy = c.redaction_policy();
  if (c.model().has_endpoint() || !gateway.empty()) {
    const v1::ProjectEndpoint& e = c.model().endpoint();
    if (gateway.empty()) {
      o.llm_url = e.url();
      o.api_key_env = e.api_key_env();
      o.egress_policy = e.egress_policy();
    } else {
      o.gateway = gateway;
    }
    o.refine.model = e.model();
    // The project's own sources, then any further ones the endpoint names.
    o.implementation_sources.assign(c.sources().begin(), c.sources().end());
    o.implementation_sources.insert(o.implementation_sources.end(), e.impl_src().begin(),
                                    e.impl_src().end());
    o.anonymize = e.anonymize();
    if (e.timeout_seconds() > 0) o.llm_timeout_seconds = e.timeout_seconds();
    if (e.attempts() > 0) o.llm_attempts = e.attempts();
  }
  return o;
}

// Fills `run` from infer's result for its method and its last completed
// round (`last`).
void FillFromInfer(const v1::InferResult& r, const std::optional<v1::InferRound>& last,
                   v1::MethodRun* run) {
  run->set_status(v1::METHOD_RUN_INFERRED);
  run->set_infer_status(r.status());
  run->set_history(r.history());
  run->set_rounds(r.rounds());
  run->set_contract(r.contract());
  if (!r.contract_file().empty()) {
    run->set_contract_file(absl::StrCat(kInferDir, "/", r.contract_file()));
  }
  run->set_reason(r.reason());
  *run->mutable_strength() = r.strength();
  // The last completed round's validation lines.
  if (r.rounds() > 0 && last.has_value()) {
    const v1::InferRound& round = *last;
    *run->mutable_consistency() = VerdictOfRound(
        round.consistency(), round.has_consistency_verdict() ? &round.consistency_verdict() : nullptr);
    *run->mutable_coverage() = VerdictOfRound(
        round.coverage(), round.has_coverage_verdict() ? &round.coverage_verdict() : nullptr);
    run->mutable_consistency()->set_seconds(round.validation_seconds());
  }
}

std::string MethodLine(const v1::MethodRun& m) {
  switch (m.status()) {
    case v1::METHOD_RUN_NOT_OBSERVED:
      return absl::StrCat("not observed (", m.reason().empty() ? "no test called it" : m.reason(),
                          ")");
    case v1::METHOD_RUN_FAILED:
      return absl::StrCat("failed: ", m.reason());
    default:
      break;
  }
  std::string last = m.history().empty() ? "" : m.history().substr(m.history().rfind(',') + 1);
  std::string out = loop::InferStatusName(m.infer_status());
  if (loop::ShowsLastBits(m.infer_status()) && !last.empty()) absl::StrAppend(&out, " ", last);
  absl::StrAppend(&out, loop::RoundsNote(m.history(), m.infer_status(), m.consistency().verdict()));
  out = loop::WithStrength(std::move(out), m.strength());
  if (m.infer_status() != v1::INFER_SUCCESS && !m.reason().empty()) {
    absl::StrAppend(&out, ": ", m.reason());
  }
  return out;
}


// The classes of `cls`'s nest (its nested classes) found on `path`: their
// code may write its private fields.
std::vector<const classfile::ClassFile*> NestOf(classfile::ClassPath& path,
                                                const classfile::ClassFile& cls) {
  std::vector<const classfile::ClassFile*> nest;
  for (const std::string& member : cls.nest_members) {
    absl::StatusOr<const classfile::ClassFile*> m = path.Load(member);
    if (m.ok()) nest.push_back(*m);
  }
  return nest;
}

// The object invariants of `classes` (binary names, sorted), inferred from
// the world's observations and proved with `validator` within the run's
// bounds (project/invariants.h). A class whose proof fails to run is left
// without invariants, with the reason.
std::vector<v1::ClassInvariants> ProveInvariants(const std::set<std::string>& classes,
                                                 loop::InferWorld& world,
                                                 check::Validator* validator,
                                                 const loop::RefineOptions& bounds) {
  std::vector<v1::ClassInvariants> out;
  InvariantProofOptions options;
  options.validator = validator;
  options.unwind = bounds.unwind;
  options.max_array = bounds.max_array;
  options.timeout_seconds = std::min(bounds.validation_timeout_seconds, kInvariantCheckSeconds);
  for (const std::string& name : classes) {
    absl::StatusOr<const classfile::ClassFile*> cls =
        world.class_path.Load(classfile::BinaryToInternal(name));
    if (!cls.ok() || (*cls)->is_interface()) continue;
    std::vector<InvariantCandidate> candidates =
        CandidateInvariants(**cls, NestOf(world.class_path, **cls), world.observations);
    if (candidates.empty()) continue;
    v1::ClassInvariants c;
    c.set_class_name(name);
    c.set_candidates(static_cast<int>(candidates.size()));
    absl::StatusOr<ClassInvariants> proved = ProveClassInvariants(**cls, std::move(candidates), options);
    if (!proved.ok()) {
      c.set_note(absl::StrCat("not proved: ", proved.status().message()));
    } else {
      for (const std::string& inv : proved->invariants) c.add_invariants(inv);
      c.set_within_bounds(proved->within_bounds);
      c.set_note(proved->note);
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::string InvariantsLine(const v1::ClassInvariants& c) {
  if (c.invariants_size() == 0) {
    return absl::StrCat("invariants: ", c.class_name(), ": none of ", c.candidates(),
                        " candidates proved (", c.note(), ")");
  }
  return absl::StrCat("invariants: ", c.class_name(), ": ", c.invariants_size(), " of ",
                      c.candidates(), " candidates proved",
                      c.within_bounds() ? " within bounds" : "", ": ",
                      absl::StrJoin(c.invariants(), "; "));
}

std::string DefaultOutDirOf(const std::string& project_dir) {
  return project_dir + "/tracespec-out";
}

// Records a problem that stopped the run in OUT/failed-run.json (when OUT
// exists). run.json, the specs and the report stay those of the last run
// that succeeded; `tracespec check` refuses to vouch for them while the
// failure is recorded.
absl::Status Stop(const std::string& out_dir, v1::RunSummary* summary, absl::Status status) {
  summary->set_error(std::string(status.message()));
  if (IsDirectory(out_dir)) {
    loop::WriteJsonFile(absl::StrCat(out_dir, "/", kFailedRunJson), *summary).IgnoreError();
  }
  return status;
}

// What a check of `spec_file`, which does not parse, leaves unchecked
// besides its contracts: the object invariants run.json records for its
// class, or any the file states.
std::string InvariantsNotChecked(const v1::RunSummary& summary, const std::string& spec_file) {
  const std::string cls = ClassOfSpecFile(spec_file);
  for (const v1::ClassInvariants& c : summary.class_invariants()) {
    if (c.class_name() != cls || c.invariants().empty()) continue;
    const int n = c.invariants_size();
    return absl::StrCat("nor ", n == 1 ? "the object invariant" : absl::StrCat("the ", n, " object invariants"),
                        " run.json records for ", cls, " (neither proved nor assumed)");
  }
  return "nor any object invariant it states";
}

// The last line's count of lost contracts (since the previous run, and
// carried from an earlier one), and what to do about them.
std::string LostCounts(int since_previous, int carried, bool accepted) {
  if (since_previous + carried == 0) return "";
  std::vector<std::string> counts;
  if (since_previous > 0) {
    counts.push_back(absl::StrCat(since_previous, since_previous == 1 ? " contract" : " contracts",
                                  " lost since the previous run"));
  }
  if (carried > 0) {
    counts.push_back(absl::StrCat(carried, carried == 1 ? " contract" : " contracts",
                                  " lost in an earlier run and not regained"));
  }
  return absl::StrCat(
      "; ", absl::StrJoin(counts, " and "),
      accepted ? " (accepted for this check: --accept-lost; the next run still lists the loss "
                 "unless it runs with --accept-lost)"
               : " (the last run is no baseline to vouch for: fix the code and run `tracespec "
                 "run` again, or accept the loss with `tracespec run --accept-lost`, or for "
                 "this check only with --accept-lost)");
}

// The lines of `methods`, lost contracts of the run of `summary`.
std::vector<v1::LostContract> LostContractsAmong(
    const v1::RunSummary& summary, const google::protobuf::RepeatedPtrField<std::string>& methods) {
  std::map<std::string, const v1::MethodRun*> now;
  for (const v1::MethodRun& m : summary.methods()) now[m.method()] = &m;
  const std::set<std::string> carried(summary.contracts_lost_carried().begin(),
                                      summary.contracts_lost_carried().end());
  std::vector<v1::LostContract> out;
  for (const std::string& method : methods) {
    auto it = now.find(method);
    v1::LostContract& lost = out.emplace_back();
    lost.set_method(method);
    lost.set_reason(it == now.end() ? "no longer a target" : MethodLine(*it->second));
    lost.set_carried(carried.count(method) > 0);
  }
  return out;
}

}  // namespace

std::string DefaultOutDir(const Project& project) { return DefaultOutDirOf(project.dir); }

void AddMethodRun(v1::MethodRun method, v1::RunSummary* summary) {
  v1::RunSummary& s = *summary;
  if (method.status() == v1::METHOD_RUN_NOT_OBSERVED) {
    s.set_not_observed(s.not_observed() + 1);
  } else if (method.infer_status() == v1::INFER_SUCCESS && method.strength().vacuous()) {
    s.set_vacuous(s.vacuous() + 1);
  } else if (method.infer_status() == v1::INFER_SUCCESS) {
    s.set_succeeded(s.succeeded() + 1);
  } else {
    s.set_not_succeeded(s.not_succeeded() + 1);
  }
  *s.add_methods() = std::move(method);
}

std::string RunSummaryText(const std::string& out_dir, const v1::RunSummary& s) {
  std::string text;
  for (const v1::MethodRun& m : s.methods()) {
    absl::StrAppend(&text, m.method(), ": ", MethodLine(m), "\n");
  }
  absl::StrAppend(&text, s.methods_size(), " methods: ", s.succeeded(), " with a contract that holds, ",
                  s.vacuous() > 0
                      ? absl::StrCat(s.vacuous(), " whose contract holds but says nothing about the ",
                                     "outcome, ")
                      : "",
                  s.not_succeeded(), " without one, ", s.not_observed(), " not observed\n");
  for (const std::string& f : s.spec_files()) absl::StrAppend(&text, "spec: ", out_dir, "/", f, "\n");
  absl::StrAppend(&text, "summary: ", out_dir, "/", kRunJson, "\n");
  absl::StrAppend(&text, "report: ", out_dir, "/report.html (and report.md)\n");
  // Last, so that they are seen: what makes these results untrustworthy
  // or smaller than the previous run's.
  if (!s.stale_classes().empty()) {
    absl::StrAppend(&text, "WARNING: ", StaleClassesSentence(s), ":\n  ",
                    absl::StrJoin(s.stale_classes(), "\n  "),
                    "\nbuild the project and run again (or set `build` in ", kConfigFileName,
                    "); `tracespec check` refuses class files older than their sources\n");
  }
  if (!s.failed_tests().empty()) {
    absl::StrAppend(&text, "WARNING: ", s.failed_tests_size(),
                    s.failed_tests_size() == 1 ? " test failed" : " tests failed", ":\n  ",
                    absl::StrJoin(s.failed_tests(), "\n  "),
                    "\nthe contracts above were inferred from code the project's own tests "
                    "reject; `tracespec check` refuses them until the tests pass\n");
  }
  std::vector<v1::LostContract> lost = LostContractsOf(s);
  auto warn_of = [&](bool carried, const std::string& head, const std::string& note) {
    std::string lines;
    int n = 0;
    for (const v1::LostContract& l : lost) {
      if (l.carried() != carried) continue;
      absl::StrAppend(&lines, "  ", l.method(), ": ", l.reason(), "\n");
      ++n;
    }
    if (n == 0) return;
    absl::StrAppend(&text, "WARNING: ", n, n == 1 ? " method " : " methods ",
                    absl::StrReplaceAll(head, {{"{has}", n == 1 ? "has" : "have"},
                                               {"{its}", n == 1 ? "its" : "their"}}),
                    " (gone from ", out_dir, "/", kSpecsDir, note, "):\n", lines);
  };
  warn_of(/*carried=*/false, "had a contract in the previous run and {has} none now", "");
  warn_of(/*carried=*/true, "lost {its} contract in an earlier run and still {has} none",
          "; a loss is carried from run to run until the method has a contract again or a run "
          "accepts it");
  if (!lost.empty()) {
    absl::StrAppend(&text,
                    "`tracespec check` exits 3 on this run: fix the code and run `tracespec run` "
                    "again, or accept the loss with `tracespec run --accept-lost` (`tracespec "
                    "check --accept-lost` accepts it for one check only)\n");
  }
  if (!s.contracts_lost_accepted().empty()) {
    const int n = s.contracts_lost_accepted_size();
    absl::StrAppend(&text, "accepted (--accept-lost): ", n, n == 1 ? " method" : " methods",
                    " without the contract an earlier run had (gone from ", out_dir, "/",
                    kSpecsDir, "), no longer carried to the next run:\n");
    for (const v1::LostContract& l : LostContractsAmong(s, s.contracts_lost_accepted())) {
      absl::StrAppend(&text, "  ", l.method(), ": ", l.reason(), "\n");
    }
  }
  return text;
}

std::vector<v1::LostContract> LostContractsOf(const v1::RunSummary& summary) {
  return LostContractsAmong(summary, summary.contracts_lost());
}

absl::StatusOr<double> RunBuild(const Project& project, const std::string& log_path) {
  const std::string& command = project.config.build();
  if (command.empty()) return 0.0;
  SubprocessOptions options;
  options.cwd = project.dir;
  options.stdout_path = log_path;
  options.stderr_path = log_path;
  options.user_umask = true;  // the build's outputs are the project's
  // The build runs in a process group of its own, which a Ctrl-C at the
  // terminal does not reach: SIGINT or SIGTERM to tracespec kills the
  // group at once, and the run or check stops there.
  options.stop_on_interrupt = true;
  absl::StatusOr<std::string> junit = observer::FindJunitJar();
  if (junit.ok()) options.env.push_back({"TRACESPEC_JUNIT_JAR", *junit});
  TS_ASSIGN_OR_RETURN(SubprocessResult result,
                      RunSubprocess({"/bin/sh", "-c", command}, options));
  if (result.interrupted_by != 0) {
    return absl::CancelledError(absl::StrCat(
        InterruptReason(result.interrupted_by), " during the build command (", command,
        "), which was stopped after ", absl::StrFormat("%.1f", result.seconds),
        "s; nothing after it ran (its output: ", log_path, ")"));
  }
  if (!result.Succeeded()) {
    std::string log = ReadFile(log_path).value_or("");
    std::vector<std::string> lines = absl::StrSplit(log, '\n', absl::SkipWhitespace());
    if (lines.size() > 10) lines.erase(lines.begin(), lines.end() - 10);
    return absl::FailedPreconditionError(absl::StrCat(
        "the build command of ", project.description, " failed (", result.Describe(), "): ",
        command, "\n", absl::StrJoin(lines, "\n"), lines.empty() ? "" : "\n",
        "(whole output: ", log_path, ")"));
  }
  return result.seconds;
}

// The run's output directory: --out made absolute, else the project's
// tracespec-out.
std::string RunOutDir(const RunOptions& options, const std::string& project_dir) {
  std::string out_dir = options.out_dir.empty() ? DefaultOutDirOf(project_dir) : options.out_dir;
  if (out_dir[0] != '/') {
    std::error_code ec;
    out_dir = fs::absolute(out_dir, ec).lexically_normal().string();
    while (out_dir.size() > 1 && out_dir.back() == '/') out_dir.pop_back();
  }
  return out_dir;
}

// A project whose configuration cannot be read (a syntax error, a missing
// entry) stops the run before anything else: when an earlier run left its
// results in the output directory, the failure is recorded there like any
// other, so `check` does not vouch for those results while the run that
// should replace them has not happened.
absl::Status StopBeforeLoading(const RunOptions& options, absl::Status status) {
  std::error_code ec;
  fs::path dir = fs::weakly_canonical(options.project_dir, ec);
  if (ec || !IsDirectory(dir.string())) return status;
  const std::string out_dir = RunOutDir(options, dir.string());
  if (!IsDirectory(out_dir) || !PrepareOutputDir(out_dir).ok()) return status;
  v1::RunSummary s;
  s.set_format_version(v1::FORMAT_VERSION_1);
  s.set_project(dir.string());
  return Stop(out_dir, &s, std::move(status));
}

absl::StatusOr<RunResult> RunProject(const RunOptions& options) {
  absl::Time start = absl::Now();
  Reporter report(options.progress);
  absl::StatusOr<Project> loaded = LoadProject(options.project_dir);
  if (!loaded.ok()) return StopBeforeLoading(options, loaded.status());
  Project project = *std::move(loaded);
  if (options.no_noninterference) project.config.set_observe_noninterference(false);
  RunResult result;
  std::string out_dir = RunOutDir(options, project.dir);
  result.out_dir = out_dir;
  TS_RETURN_IF_ERROR(PrepareOutputDir(out_dir));
  const int jobs = std::max(1, options.jobs);

  v1::RunSummary& s = result.summary;
  s.set_format_version(v1::FORMAT_VERSION_1);
  s.set_project(project.dir);
  s.set_config_source(project.source);
  s.set_config(project.description);
  s.set_build(project.config.build());
  s.set_observations_dir(kObservationsDir);
  s.set_infer_dir(kInferDir);
  s.set_specs_dir(kSpecsDir);
  s.set_model(project.config.model().has_endpoint() ? project.config.model().endpoint().url()
                                                    : "builtin");
  s.set_jobs(jobs);
  s.set_classpath(MainClassPath(project));
  TS_RETURN_IF_ERROR(RecordRunStarted(out_dir, s));

  if (!project.config.build().empty()) {
    report.Stage(absl::StrCat("build: ", project.config.build()), start);
    absl::StatusOr<double> seconds = RunBuild(project, absl::StrCat(out_dir, "/build.log"));
    if (!seconds.ok()) return Stop(out_dir, &s, seconds.status());
    s.set_build_seconds(*seconds);
  }
  // Without a build command, class files older than their sources are what
  // the run infers contracts of: said now and in its last lines.
  if (project.config.build().empty()) {
    for (const std::string& stale : StaleSources(project, nullptr)) s.add_stale_classes(stale);
    if (s.stale_classes_size() > 0) {
      report.Stage(absl::StrCat("build: none configured, and ", StaleClassesSentence(s)), start);
    }
  }
  absl::StatusOr<std::vector<std::string>> tests = ResolveTests(project);
  if (!tests.ok()) return Stop(out_dir, &s, tests.status());
  absl::StatusOr<std::vector<std::string>> targets = ResolveTargets(project);
  if (!targets.ok()) return Stop(out_dir, &s, targets.status());
  for (const std::string& t : *tests) s.add_test_classes(t);

  // Observations: reused when their key is unchanged.
  absl::StatusOr<std::string> key = ObservationsKey(project, *tests, *targets);
  if (!key.ok()) return Stop(out_dir, &s, key.status());
  s.set_observations_key(*key);
  std::string obs_dir = absl::StrCat(out_dir, "/", kObservationsDir);
  // The key is kept with the observations, written once they are complete:
  // a run that stopped while observing leaves none, so half-replaced
  // observations are never reused.
  std::string key_path = absl::StrCat(obs_dir, "/", kObservationsKeyFile);
  v1::ObserveSummary observed;
  const std::string stored_seal = ReadFile(key_path).value_or("");
  std::optional<CachedObservationFiles> cached_files;
  if (absl::StartsWith(stored_seal, *key + "\n")) {
    absl::StatusOr<CachedObservationFiles> read = ReadCachedObservationFiles(obs_dir);
    if (read.ok()) cached_files = *std::move(read);
  }
  bool reuse = cached_files.has_value() && FromJson(cached_files->summary, &observed).ok();
  // The observations, read once for every method (see loop::InferWorld).
  std::optional<std::vector<v1::Observation>> observations;
  if (reuse) {
    absl::StatusOr<std::vector<v1::Observation>> cached =
        ParseObservations(cached_files->observations, obs_dir + "/observations.pb");
    if (!cached.ok()) {
      report.Stage(absl::StrCat("observe: the cached observations are damaged (",
                                cached.status().message(), "): observing again"),
                   start);
      reuse = false;
    } else if (ObservationsSeal(*key, *cached_files) != stored_seal) {
      report.Stage(absl::StrCat("observe: the cached observations changed after they were "
                                "written (they no longer match the hashes in ",
                                key_path, "): observing again"),
                   start);
      reuse = false;
    } else {
      observations = *std::move(cached);
    }
  }
  if (reuse) {
    std::vector<std::string> failed = FailedTests(observed);
    report.Stage(absl::StrCat("observe: reusing ", obs_dir,
                              " (class files, tests and targets unchanged)",
                              failed.empty()
                                  ? ""
                                  : absl::StrCat("; failed: ", absl::StrJoin(failed, ", "),
                                                 " (their calls are kept out of inference)")),
                 start);
    s.set_observations_reused(true);
    absl::StatusOr<std::map<std::string, std::string>> keys =
        JournalKeys(project, *targets, observed, *observations);
    if (!keys.ok()) return Stop(out_dir, &s, keys.status());
    TS_RETURN_IF_ERROR(KeepUnchangedJournals(out_dir, *targets, *keys,
                                             /*observed_again=*/false, report, start));
  } else {
    const auto& command = project.config.command();
    report.Stage(command.empty()
                     ? absl::StrCat("observe: running ", tests->size(),
                                    " test classes under the probe for ", targets->size(),
                                    " target methods")
                     : absl::StrCat("observe: running ", absl::StrJoin(command, " "),
                                    " under the probe for ", targets->size(),
                                    " target methods (no tests: captured behaviour)"),
                 start);
    TS_RETURN_IF_ERROR(RemoveAll(key_path));
    observer::ObserveOptions o;
    o.classpath = FullClassPath(project);
    o.test_classes = *tests;
    o.command.assign(command.begin(), command.end());
    if (!command.empty()) o.cwd = project.dir;
    o.max_bytes = project.config.observe_max_bytes();
    o.methods = *targets;
    o.policy_path = project.config.redaction_policy();
    o.tests_src = project.config.tests_src();
    o.out_dir = obs_dir;
    o.timeout_seconds = project.config.observe_timeout_seconds();
    o.noninterference = ObserveNoninterference(project.config);
    absl::StatusOr<observer::ObserveResult> obs = observer::Observe(o);
    // Before its error: a JVM stopped by the signal is no failure of the
    // JVM (Observe then wrote nothing; the previous observations stay).
    if (StopSignal() != 0) {
      return Stop(out_dir, &s,
                  absl::CancelledError(absl::StrCat(StopReason(), " while ",
                                                    command.empty() ? "the tests" : "the command",
                                                    " ran; nothing was inferred")));
    }
    if (!obs.ok()) return Stop(out_dir, &s, obs.status());
    if (!obs->summary.complete()) {
      return Stop(out_dir, &s,
                  absl::UnavailableError(absl::StrCat(command.empty()
                                                          ? "the test JVM did not finish: "
                                                          : "the capture is incomplete: ",
                                                      obs->summary.incomplete_reason(), " (see ",
                                                      obs_dir, "/jvm.log)")));
    }
    observed = obs->summary;
    std::vector<std::string> failed = FailedTests(observed);
    report.Stage(command.empty()
                     ? absl::StrCat("observe: ", observed.tests_run(), " tests run, ",
                                    observed.tests_failed(), " failed",
                                    failed.empty()
                                        ? ""
                                        : absl::StrCat(" (", absl::StrJoin(failed, ", "),
                                                       "; their calls are kept out of inference)"),
                                    ", ", observed.observations(), " observations")
                     : absl::StrCat("observe: ", observed.observations(),
                                    " observations captured (", observed.jvm_result(), ")"),
                 start);
    report.Stage(absl::StrCat("observe: ", observer::NoninterferenceLine(observed)), start);
    TS_ASSIGN_OR_RETURN(CachedObservationFiles written, ReadCachedObservationFiles(obs_dir));
    absl::StatusOr<std::vector<v1::Observation>> parsed =
        ParseObservations(written.observations, obs_dir + "/observations.pb");
    if (!parsed.ok()) return Stop(out_dir, &s, parsed.status());
    observations = *std::move(parsed);
    // The journals of the targets whose observations and class files are
    // unchanged are kept, the others start again: before the seal, so that
    // observations a re-run reuses never sit beside journals of others.
    absl::StatusOr<std::map<std::string, std::string>> keys =
        JournalKeys(project, *targets, observed, *observations);
    if (!keys.ok()) return Stop(out_dir, &s, keys.status());
    TS_RETURN_IF_ERROR(KeepUnchangedJournals(out_dir, *targets, *keys,
                                             /*observed_again=*/true, report, start));
    TS_RETURN_IF_ERROR(WriteFileAtomic(key_path, ObservationsSeal(*key, written)));
  }
  for (const std::string& f : FailedTests(observed)) s.add_failed_tests(f);
  std::map<std::string, int64_t> counts;
  for (const v1::MethodSummary& m : observed.methods()) counts[m.method()] = m.observations();

  // One entry per target; the inferable ones go to the workers.
  std::vector<v1::MethodRun> runs(targets->size());
  std::vector<size_t> queue;
  for (size_t i = 0; i < targets->size(); ++i) {
    v1::MethodRun& m = runs[i];
    m.set_method((*targets)[i]);
    absl::StatusOr<MethodId> id = MethodId::Parse(m.method());
    if (id.ok()) {
      m.set_class_name(id->class_name());
      *m.mutable_id() = id->ToProto();
    } else {
      m.set_class_name(m.method().substr(0, m.method().find('#')));
    }
    m.set_infer_dir(absl::StrCat(kInferDir, "/", loop::MethodDirName(m.method())));
    m.set_observations(counts[m.method()]);
    if (m.observations() == 0) {
      m.set_status(v1::METHOD_RUN_NOT_OBSERVED);
      m.set_reason("no test called it");
    } else {
      queue.push_back(i);
    }
  }

  loop::InferOptions base = InferOptionsFor(project, out_dir, options.gateway);
  s.mutable_bounds()->set_unwind(base.refine.unwind);
  s.mutable_bounds()->set_max_array(base.refine.max_array);
  s.mutable_bounds()->set_check_timeout_seconds(base.refine.validation_timeout_seconds);
  base.make_validator = options.make_validator;
  base.make_gateway_client = options.make_gateway_client;
  // One world for every method: the class path opened and the observations
  // read once, shared by the workers (each has its own validator).
  std::unique_ptr<loop::InferWorld> world;
  if (!queue.empty()) {
    absl::StatusOr<std::unique_ptr<loop::InferWorld>> opened =
        loop::InferWorld::Open(base, std::move(observations));
    if (!opened.ok()) return Stop(out_dir, &s, opened.status());
    world = *std::move(opened);
    base.world = world.get();
    // A method only failing tests called has nothing to infer from (their
    // calls are kept out of inference): say so rather than start on it.
    std::set<std::string> passing;                         // method keys
    std::map<std::string, std::set<std::string>> failing;  // method key -> failed tests
    for (const v1::Observation& o : world->observations) {
      std::string key = MethodId::FromRef(o.method()).Key();
      if (o.test_failed()) {
        failing[key].insert(o.test_id());
      } else {
        passing.insert(key);
      }
    }
    std::vector<size_t> inferable;
    for (size_t i : queue) {
      v1::MethodRun& m = runs[i];
      absl::StatusOr<MethodId> id = MethodId::Parse(m.method());
      if (!id.ok() || passing.count(id->Key()) || !failing.count(id->Key())) {
        inferable.push_back(i);
        continue;
      }
      m.set_status(v1::METHOD_RUN_NOT_OBSERVED);
      const std::set<std::string>& tests = failing[id->Key()];
      m.set_reason(absl::StrCat("only failing tests called it (",
                                absl::StrJoin(tests.begin(), tests.end(), ", "),
                                "); their calls are kept out of inference"));
    }
    queue = std::move(inferable);
  }
  // Object invariants of the classes whose methods are inferred, proved
  // before any contract relies on them.
  std::map<std::string, std::vector<std::string>> invariants_of;
  if (!queue.empty()) {
    std::set<std::string> classes;
    for (size_t i : queue) {
      if (runs[i].class_name().find('$') == std::string::npos) classes.insert(runs[i].class_name());
    }
    absl::StatusOr<std::unique_ptr<check::Validator>> validator =
        check::MakeValidator(base.make_validator, base.classpath);
    if (validator.ok()) {
      for (v1::ClassInvariants& c : ProveInvariants(classes, *world, validator->get(), base.refine)) {
        report.Stage(InvariantsLine(c), start);
        if (c.invariants_size() > 0) {
          invariants_of[c.class_name()].assign(c.invariants().begin(), c.invariants().end());
        }
        *s.add_class_invariants() = std::move(c);
      }
    }
  }
  // Each method's result as infer returned it, for infer's summary.
  std::vector<std::optional<v1::InferResult>> results(targets->size());
  std::atomic<size_t> next{0};
  std::atomic<int> done{0};
  const int total = static_cast<int>(queue.size());
  std::mutex summary_mu;
  absl::Status first_error;
  auto work = [&] {
    // This worker's validator, for all its methods (a method whose
    // validator cannot be made reports why: RunInfer tries again).
    std::unique_ptr<check::Validator> validator;
    for (size_t k = next++; k < queue.size() && StopSignal() == 0; k = next++) {
      if (validator == nullptr) {
        absl::StatusOr<std::unique_ptr<check::Validator>> made =
            check::MakeValidator(base.make_validator, base.classpath);
        if (made.ok()) validator = *std::move(made);
      }
      v1::MethodRun& m = runs[queue[k]];
      absl::Time method_start = absl::Now();
      ProgressEvent event;
      event.kind = ProgressEvent::Kind::kMethodStart;
      event.method = m.method();
      event.done = done.load();
      event.total = total;
      report(event);
      loop::InferOptions o = base;
      o.methods = {m.method()};
      o.validator = validator.get();
      if (auto inv = invariants_of.find(m.class_name()); inv != invariants_of.end()) {
        o.refine.class_invariants = inv->second;
      }
      o.write_summary = false;  // written once below, from the results the workers return
      std::string method_dir = absl::StrCat(out_dir, "/", m.infer_dir());
      m.set_reused(FileExists(method_dir + "/result.json"));
      std::string prefix = m.method() + ": ";
      o.refine.progress = [&report, &m, method_start, &done, total, prefix](absl::string_view line) {
        ProgressEvent e;
        e.kind = ProgressEvent::Kind::kMethodUpdate;
        e.method = m.method();
        e.text = std::string(absl::StartsWith(line, prefix) ? line.substr(prefix.size()) : line);
        e.elapsed = Since(method_start);
        e.done = done.load();
        e.total = total;
        report(e);
      };
      absl::StatusOr<loop::InferRun> inferred = loop::RunInfer(o);
      if (!inferred.ok()) {
        m.set_status(v1::METHOD_RUN_FAILED);
        m.set_reason(std::string(inferred.status().message()));
      } else if (inferred->summary.results().empty()) {
        m.set_status(v1::METHOD_RUN_FAILED);
        m.set_reason(inferred->summary.error());
      } else {
        FillFromInfer(inferred->summary.results(0),
                      inferred->last_rounds.empty() ? std::nullopt : inferred->last_rounds[0], &m);
        results[queue[k]] = inferred->summary.results(0);  // as written to its result.json
      }
      m.set_seconds(Since(method_start));
      if (!inferred.ok() && inferred.status().code() == absl::StatusCode::kCancelled) continue;
      ProgressEvent finished;
      finished.kind = ProgressEvent::Kind::kMethodDone;
      finished.method = m.method();
      finished.text = MethodLine(m);
      finished.elapsed = m.seconds();
      finished.done = ++done;
      finished.total = total;
      report(finished);
      if (!inferred.ok()) {
        std::lock_guard<std::mutex> lock(summary_mu);
        if (first_error.ok() && inferred.status().code() != absl::StatusCode::kInvalidArgument &&
            inferred.status().code() != absl::StatusCode::kNotFound) {
          first_error = inferred.status();
        }
      }
    }
  };
  if (!queue.empty()) {
    TS_RETURN_IF_ERROR(MakeDirs(base.out_dir));
    std::vector<std::thread> workers;
    int threads = std::min<int>(jobs, static_cast<int>(queue.size()));
    for (int t = 1; t < threads; ++t) workers.emplace_back(work);
    work();
    for (std::thread& t : workers) t.join();
  }
  if (StopSignal() != 0) {
    int finished = 0;
    for (size_t i : queue) finished += runs[i].status() == v1::METHOD_RUN_INFERRED ? 1 : 0;
    return Stop(out_dir, &s,
                absl::CancelledError(absl::StrCat(
                    StopReason(), ": ", finished, " of ", total, " methods finished; they are kept in ",
                    out_dir, "/", kInferDir, " and `tracespec run` continues from them")));
  }
  if (!first_error.ok()) return Stop(out_dir, &s, first_error);

  // infer's summary over every target, written here only (the workers do not).
  v1::InferSummary infer_summary;
  infer_summary.set_format_version(v1::FORMAT_VERSION_1);
  for (const std::optional<v1::InferResult>& r : results) {
    if (r.has_value()) *infer_summary.add_results() = *r;
  }
  TS_RETURN_IF_ERROR(loop::WriteJsonFile(base.out_dir + "/summary.json", infer_summary));
  TS_RETURN_IF_ERROR(WriteFileAtomic(base.out_dir + "/summary.txt",
                                     loop::FormatSummaryText(infer_summary, base.out_dir)));

  // The merged specification files.
  std::vector<MethodContract> contracts;
  for (const v1::MethodRun& m : runs) {
    if (m.status() != v1::METHOD_RUN_INFERRED || m.infer_status() != v1::INFER_SUCCESS) continue;
    contracts.push_back({m.method(), m.contract(),
                         absl::StrCat(m.method(), ": ", MethodLine(m))});
  }
  std::vector<std::string> project_classes;
  {
    absl::StatusOr<classfile::ClassPath> path =
        classfile::ClassPath::Create(absl::StrJoin(project.config.classes(), ":"));
    if (!path.ok()) return Stop(out_dir, &s, path.status());
    for (const std::string& c : path->ListClasses()) {
      project_classes.push_back(classfile::InternalToBinary(c));
    }
  }
  std::map<std::string, InvariantSpec> invariant_specs;
  for (const v1::ClassInvariants& c : s.class_invariants()) {
    InvariantSpec& spec = invariant_specs[c.class_name()];
    spec.invariants.assign(c.invariants().begin(), c.invariants().end());
    spec.within_bounds = c.within_bounds();
  }
  absl::StatusOr<SpecFiles> specs =
      RenderSpecFiles(contracts, MainClassPath(project), project_classes, invariant_specs);
  if (!specs.ok()) return Stop(out_dir, &s, specs.status());
  TS_RETURN_IF_ERROR(WriteSpecs(out_dir, specs->files));
  for (v1::MethodRun& m : runs) {
    auto it = specs->file_of.find(m.method());
    if (it != specs->file_of.end()) m.set_spec_file(absl::StrCat(kSpecsDir, "/", it->second));
    auto skipped = specs->skipped.find(m.method());
    if (skipped != specs->skipped.end()) m.set_reason(skipped->second);
  }
  for (const auto& [file, content] : specs->files) s.add_spec_files(absl::StrCat(kSpecsDir, "/", file));

  for (v1::MethodRun& m : runs) AddMethodRun(std::move(m), &s);
  v1::RunSummary previous;  // the run.json this run replaces
  if (loop::ReadJsonFile(absl::StrCat(out_dir, "/", kRunJson), &previous).ok()) {
    // A loss stays recorded until the method has a contract again or a
    // run accepts it: otherwise re-running would accept it silently.
    Losses losses = LostContracts(previous, s);
    for (const std::vector<std::string>* found : {&losses.since_previous, &losses.carried}) {
      for (const std::string& method : *found) {
        if (options.accept_lost) {
          s.add_contracts_lost_accepted(method);
          continue;
        }
        s.add_contracts_lost(method);
        if (found == &losses.carried) s.add_contracts_lost_carried(method);
      }
    }
  }
  s.set_seconds(Since(start));
  TS_RETURN_IF_ERROR(WriteRunJson(out_dir, s));
  TS_RETURN_IF_ERROR(RemoveAll(absl::StrCat(out_dir, "/", kFailedRunJson)));
  report.Stage("report: writing report.html and report.md", start);
  TS_RETURN_IF_ERROR(report::WriteReports(out_dir));
  // Paths for people: as the caller spelled them.
  std::string shown = options.out_dir.empty()
                          ? absl::StrCat(options.project_dir, "/tracespec-out")
                          : options.out_dir;
  while (absl::StrContains(shown, "//")) shown = absl::StrReplaceAll(shown, {{"//", "/"}});
  result.text = RunSummaryText(shown, s);
  return result;
}

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kHolds:
      return "holds";
    case Verdict::kBroken:
      return "BROKEN";
    case Verdict::kUndecided:
      return "undecided";
  }
  return "?";
}

namespace {

// The project and what an earlier `tracespec run` stored in OUT.
struct StoredRun {
  Project project;
  std::string out_dir;
  v1::RunSummary summary;
};

// The refusal when the last run failed (`why`, recorded in `record`):
// "the last `tracespec run` of P failed: WHY\n(RECORD); CONSEQUENCE: fix
// the failure and run `tracespec run` again".
absl::Status LastRunFailed(const Project& project, const std::string& why,
                           const std::string& record, const std::string& consequence) {
  return absl::FailedPreconditionError(absl::StrCat(
      "the last `tracespec run` of ", project.dir, " failed: ", why, "\n(", record, "); ",
      consequence, ": fix the failure and run `tracespec run` again"));
}

// `what` names the work in the message when there is no run.json.
absl::StatusOr<StoredRun> LoadStoredRun(const std::string& project_dir,
                                        const std::string& out_dir, const char* what) {
  StoredRun run;
  TS_ASSIGN_OR_RETURN(run.project, LoadProject(project_dir));
  run.out_dir = out_dir.empty() ? DefaultOutDir(run.project) : out_dir;
  std::string run_json = absl::StrCat(run.out_dir, "/", kRunJson);
  std::string failed_json = absl::StrCat(run.out_dir, "/", kFailedRunJson);
  if (!FileExists(run_json) && FileExists(failed_json)) {
    v1::RunSummary failed;
    TS_RETURN_IF_ERROR(loop::ReadJsonFile(failed_json, &failed));
    return LastRunFailed(run.project, failed.error(), failed_json,
                         absl::StrCat("no run of it has succeeded (no ", run_json, "): nothing to ",
                                      what));
  }
  if (!FileExists(run_json)) {
    return absl::NotFoundError(absl::StrCat("no ", run_json, ": nothing to ", what,
                                            "; run `tracespec run` first"));
  }
  TS_RETURN_IF_ERROR(loop::ReadJsonFile(run_json, &run.summary));
  return run;
}

// Whether a counterexample's explanation shows a value only as a
// reference ("int[]#256", "bank.Account#1").
bool NamesAReference(const std::string& explanation) {
  for (size_t i = explanation.find('#'); i != std::string::npos; i = explanation.find('#', i + 1)) {
    if (i + 1 < explanation.size() && absl::ascii_isdigit(explanation[i + 1])) return true;
  }
  return false;
}

// A check within lower bounds than the run's would pass on executions the
// run's proof covered and this one does not (a bug that shows only on
// longer arrays): refused, like any other state the run does not account
// for. Higher bounds check more and are fine; the time limit only turns
// verdicts into "undecided", so it may differ either way. A run.json
// without bounds (written before they were recorded) is not compared.
absl::Status CheckBoundsNotLowered(const Project& project, const std::string& out_dir,
                                   const v1::RunSummary& summary,
                                   const std::vector<StoredContract>& contracts) {
  if (!summary.has_bounds()) return absl::OkStatus();
  check::ValidateRequest now;
  check::ApplyBounds(project.config.bounds(), &now);
  const v1::ProjectBounds& run = summary.bounds();
  std::vector<std::string> lower;  // "max_array 2, below the run's 4"
  std::vector<std::string> restore;  // "max_array: 4"
  if (now.unwind < run.unwind()) {
    lower.push_back(absl::StrCat("unwind ", now.unwind, ", below the run's ", run.unwind()));
    restore.push_back(absl::StrCat("unwind: ", run.unwind()));
  }
  if (now.max_array < run.max_array()) {
    lower.push_back(absl::StrCat("max_array ", now.max_array, ", below the run's ", run.max_array()));
    restore.push_back(absl::StrCat("max_array: ", run.max_array()));
  }
  if (lower.empty()) return absl::OkStatus();
  std::vector<std::string> lines;
  for (const StoredContract& c : contracts) {
    lines.push_back(absl::StrCat(c.method, ": checked with ", absl::StrJoin(lower, " and "), " (",
                                 Where(c), ")"));
  }
  return absl::FailedPreconditionError(absl::StrCat(
      "the bounds of ", project.description, " are lower than those the last run (", out_dir, "/",
      kRunJson, ") proved its contracts within, so check would verify less than the run did:\n  ",
      absl::StrJoin(lines, "\n  "), "\nset bounds { ", absl::StrJoin(restore, " "),
      " } (or higher) again, or run `tracespec run` to prove the contracts within the lower "
      "bounds"));
}

// "consistency PASS (complete)", "consistency FAIL: ensures ... (line 3)".
std::string ConsistencyLine(const check::CheckResult& c) {
  bool pass = c.status == check::CheckStatus::kPass;
  return absl::StrCat("consistency ", check::CheckStatusName(c.status), pass ? " (" : ": ",
                      c.summary, pass ? ")" : "");
}

// Counts `mc` by its verdict and keeps it.
void AddMethodCheck(MethodCheck mc, CheckResult* result) {
  switch (mc.verdict) {
    case Verdict::kHolds: ++result->holds; break;
    case Verdict::kBroken: ++result->broken; break;
    case Verdict::kUndecided: ++result->undecided; break;
  }
  result->methods.push_back(std::move(mc));
}

// `c`'s verdict on `mc`, with what shows it: the counterexamples of a
// clause that does not hold (an array or object named only by reference,
// "a = int[]#256", followed by the state that shows what it holds), or the
// syntax and type errors of a contract that no longer type-checks.
void Judge(const check::CheckResult& c, MethodCheck* mc) {
  bool contract_error = false;
  for (const check::Diagnostic& d : c.diagnostics) {
    if (d.kind == check::Diagnostic::Kind::kSyntax || d.kind == check::Diagnostic::Kind::kType) {
      contract_error = true;
      mc->counterexamples.push_back(absl::StrCat(d.clause.empty() ? "" : d.clause + ": ", d.message));
    }
  }
  if (c.status == check::CheckStatus::kPass) {
    mc->verdict = Verdict::kHolds;
  } else if (c.status == check::CheckStatus::kFail || contract_error) {
    mc->verdict = Verdict::kBroken;
    for (size_t i = 0; i < c.explanations.size(); ++i) {
      std::string text = c.explanations[i];
      if (i < c.counterexamples.size() && NamesAReference(text)) {
        std::string state = check::FormatObservationText(c.counterexamples[i]);
        while (!state.empty() && state.back() == '\n') state.pop_back();
        absl::StrAppend(&text, "\n", state);
      }
      mc->counterexamples.push_back(std::move(text));
    }
  } else {
    mc->verdict = Verdict::kUndecided;
  }
}

// Why checking `cls`'s constructors and methods does not prove `invariant`
// ("" when it does): it reads a field of `beyond` (FieldsBeyondTheProof),
// one of a superclass (on `path`), or a field of another object through
// one of `cls` (`other.count`), which code elsewhere may write.
std::string BeyondTheProof(const std::string& invariant, const classfile::ClassFile& cls,
                           const std::map<std::string, std::string>& beyond,
                           classfile::ClassPath& path) {
  auto declares = [](const classfile::ClassFile& c, const std::string& name) {
    return std::any_of(c.fields.begin(), c.fields.end(),
                       [&](const classfile::Field& f) { return f.name == name; });
  };
  for (std::vector<std::string> chain : IdentifierChains(invariant)) {
    if (chain.size() > 1 && chain[0] == "this") chain.erase(chain.begin());
    if (!declares(cls, chain[0])) {
      for (std::string super = cls.super_name; !super.empty();) {
        absl::StatusOr<const classfile::ClassFile*> s = path.Load(super);
        if (!s.ok()) break;
        if (declares(**s, chain[0])) {
          return absl::StrCat("it reads ", chain[0], ", a field of ",
                              classfile::InternalToBinary(super),
                              ", whose code the check does not follow");
        }
        super = (*s)->super_name;
      }
      continue;
    }
    if (auto it = beyond.find(chain[0]); it != beyond.end()) {
      return absl::StrCat("it reads ", chain[0], ", ", it->second);
    }
    if (chain.size() > 1 && !(chain.size() == 2 && chain[1] == "length")) {
      return absl::StrCat("it reads ", absl::StrJoin(chain, "."),
                          ", a field of another object, which code elsewhere may write");
    }
  }
  return "";
}

// The instance invariants each class's .jml file states (what every check
// of its contracts assumes and proves at their exits), proved over the
// class's constructors and non-private instance methods without a stored
// contract: one entry each. A violated invariant is named with its file
// and line.
absl::Status CheckClassInvariants(const Project& project,
                                  const std::vector<StoredClassInvariants>& stored,
                                  const std::vector<StoredContract>& contracts,
                                  check::Validator* validator, CheckResult* result) {
  if (std::all_of(stored.begin(), stored.end(),
                  [](const StoredClassInvariants& c) { return c.invariants.empty(); })) {
    return absl::OkStatus();
  }
  TS_ASSIGN_OR_RETURN(classfile::ClassPath path, classfile::ClassPath::Create(MainClassPath(project)));
  std::set<std::string> with_contract;
  for (const StoredContract& c : contracts) with_contract.insert(c.method);
  check::ValidateRequest bounds;
  check::ApplyBounds(project.config.bounds(), &bounds);
  InvariantProofOptions options;
  options.validator = validator;
  options.unwind = bounds.unwind;
  options.max_array = bounds.max_array;
  options.timeout_seconds = std::min(bounds.timeout_seconds, kInvariantCheckSeconds);
  for (const StoredClassInvariants& ci : stored) {
    if (ci.invariants.empty()) continue;
    std::vector<std::string> invariants;
    // "class invariant P does not hold" -> "invariant P (specs/a/B.jml:7) does not hold".
    std::vector<std::pair<std::string, std::string>> named;
    for (const StoredInvariant& inv : ci.invariants) {
      invariants.push_back(inv.text);
      named.emplace_back(absl::StrCat("class invariant ", inv.text, " does not hold"),
                         absl::StrCat("invariant ", inv.text, " (", ci.spec_file, ":", inv.line,
                                      ") does not hold"));
    }
    absl::StatusOr<const classfile::ClassFile*> cls =
        path.Load(classfile::BinaryToInternal(ci.class_name));
    if (!cls.ok()) {
      MethodCheck mc;
      mc.method = ci.class_name;
      mc.spec_file = ci.spec_file;
      mc.line = ci.invariants.front().line;
      mc.verdict = Verdict::kBroken;
      mc.summary = absl::StrCat("its invariants cannot be checked: ", cls.status().message());
      AddMethodCheck(std::move(mc), result);
      continue;
    }
    // An invariant (added by hand) over a field the check does not follow
    // is not proved by it, whatever its verdicts below.
    std::map<std::string, std::string> beyond = FieldsBeyondTheProof(**cls, NestOf(path, **cls));
    for (const StoredInvariant& inv : ci.invariants) {
      std::string why = BeyondTheProof(inv.text, **cls, beyond, path);
      if (why.empty()) continue;
      MethodCheck mc;
      mc.method = ci.class_name;
      mc.invariants_only = true;
      mc.spec_file = ci.spec_file;
      mc.line = inv.line;
      mc.verdict = Verdict::kUndecided;
      mc.summary = absl::StrCat("invariant ", inv.text, " (", ci.spec_file, ":", inv.line,
                                ") is not proved over the class: ", why);
      AddMethodCheck(std::move(mc), result);
    }
    for (const classfile::Method* m : MethodsKeepingInvariants(**cls)) {
      std::string method = absl::StrCat(ci.class_name, "#", m->name, m->descriptor);
      if (with_contract.count(method)) continue;
      MethodCheck mc;
      mc.method = method;
      mc.invariants_only = true;
      mc.spec_file = ci.spec_file;
      mc.line = ci.invariants.front().line;
      absl::StatusOr<check::CheckResult> c = CheckInvariantsOf(**cls, *m, invariants, options);
      if (!c.ok()) {
        mc.verdict = Verdict::kBroken;
        mc.summary = absl::StrCat("keeps the class invariants? ", c.status().message());
      } else {
        mc.summary = absl::StrCat("keeps the class invariants: ", ConsistencyLine(*c));
        Judge(*c, &mc);
        for (const check::Diagnostic& d : c->diagnostics) {
          int i = d.given_invariant;
          if (i >= 0 && i < static_cast<int>(ci.invariants.size())) {
            mc.line = ci.invariants[i].line;  // the first violated one
            break;
          }
        }
        mc.summary = absl::StrReplaceAll(mc.summary, named);
        for (std::string& x : mc.counterexamples) x = absl::StrReplaceAll(x, named);
      }
      AddMethodCheck(std::move(mc), result);
    }
  }
  return absl::OkStatus();
}

// "edited since the run: " lines of the invariants that differ from the
// ones run.json recorded.
std::vector<std::string> EditedInvariants(const std::vector<StoredClassInvariants>& stored) {
  std::vector<std::string> out;
  for (const StoredClassInvariants& ci : stored) {
    for (const StoredInvariant& inv : ci.invariants) {
      if (!inv.edited) continue;
      out.push_back(absl::StrCat(ci.class_name, ": invariant ", inv.text, " (", ci.spec_file, ":",
                                 inv.line, "), which run.json does not record"));
    }
    for (const std::string& inv : ci.removed) {
      out.push_back(absl::StrCat(ci.class_name, ": invariant ", inv,
                                 ", which run.json records, is gone from ", ci.spec_file,
                                 " (no longer assumed or checked)"));
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<CheckResult> CheckProject(const CheckOptions& options) {
  absl::Time start = absl::Now();
  Reporter report(options.progress);
  TS_ASSIGN_OR_RETURN(StoredRun stored,
                      LoadStoredRun(options.project_dir, options.out_dir, "check"));
  const Project& project = stored.project;
  const std::string& out_dir = stored.out_dir;
  const v1::RunSummary& summary = stored.summary;
  // What the run left must be what it recorded, or a pass would vouch for
  // contracts nobody checked.
  std::string failed_json = absl::StrCat(out_dir, "/", kFailedRunJson);
  v1::RunSummary failed;
  if (FileExists(failed_json) || !summary.error().empty()) {
    if (FileExists(failed_json)) TS_RETURN_IF_ERROR(loop::ReadJsonFile(failed_json, &failed));
    const std::string& why = summary.error().empty() ? failed.error() : summary.error();
    return LastRunFailed(
        project, why, FileExists(failed_json) ? failed_json : absl::StrCat(out_dir, "/", kRunJson),
        absl::StrCat("the contracts under ", out_dir,
                     "/specs are from an earlier run, so check does not vouch for them"));
  }
  TS_RETURN_IF_ERROR(RefuseFailedTests(out_dir, summary));
  TS_ASSIGN_OR_RETURN(StoredSpecs stored_specs, ReadStoredSpecs(out_dir, summary));
  const std::vector<StoredContract>& stored_contracts = stored_specs.contracts;
  std::vector<std::string> edited;  // "a.B#m()V (specs/a/B.jml:12)"
  for (const StoredContract& c : stored_contracts) {
    if (c.edited) edited.push_back(absl::StrCat(c.method, " (", Where(c), ")"));
  }
  const size_t edited_contracts = edited.size();
  for (std::string& e : EditedInvariants(stored_specs.invariants)) edited.push_back(std::move(e));
  if (options.frozen && !edited.empty()) {
    const size_t edited_invariants = edited.size() - edited_contracts;
    std::vector<std::string> what;
    if (edited_contracts > 0) {
      what.push_back(absl::StrCat(edited_contracts, edited_contracts == 1 ? " contract" : " contracts"));
    }
    if (edited_invariants > 0) {
      what.push_back(
          absl::StrCat(edited_invariants, edited_invariants == 1 ? " invariant" : " invariants"));
    }
    return absl::FailedPreconditionError(absl::StrCat(
        "--frozen: ", absl::StrJoin(what, " and "), " under ", out_dir,
        "/specs edited since the run ", out_dir, "/", kRunJson, " recorded:\n  ",
        absl::StrJoin(edited, "\n  "), "\nrestore them, or run `tracespec run` again"));
  }
  TS_RETURN_IF_ERROR(CheckBoundsNotLowered(project, out_dir, summary, stored_contracts));
  std::string build_note;
  if (!project.config.build().empty()) {
    report.Stage(absl::StrCat("build: ", project.config.build()), start);
    TS_ASSIGN_OR_RETURN(std::string log, MakeTempDir("tracespec-check-"));
    absl::StatusOr<double> built = RunBuild(project, log + "/build.log");
    if (!built.ok()) return built.status();
    RemoveAll(log).IgnoreError();
    build_note = "against the current build";
  } else {
    bool roots_found = false;
    std::vector<std::string> stale = StaleSources(project, &roots_found);
    if (!stale.empty()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the class files are older than their sources (", stale[0],
          stale.size() > 1 ? absl::StrCat(", and ", stale.size() - 1, " more") : "",
          "), and ", project.description,
          " has no build command: build the project first, or set `build` in ",
          kConfigFileName, " so that check runs it"));
    }
    std::vector<std::string> roots;
    for (const std::string& s : project.config.sources()) {
      roots.push_back(std::filesystem::relative(s, project.dir).generic_string());
    }
    build_note = roots_found
                     ? absl::StrCat("against the class files as found (no build command; none "
                                    "older than its source in ", absl::StrJoin(roots, ", "), ")")
                     : "against the class files as found (no build command, and no sources "
                       "(`sources`, default src/main/java, else src) to tell whether they are "
                       "current)";
  }
  // The targets as the class files now are: one the run did not cover (a
  // method added since) or covered without a contract is listed, not
  // silently passed over.
  absl::StatusOr<std::vector<std::string>> targets = ResolveTargets(project);
  if (stored_contracts.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "nothing to check: the last `tracespec run` (", out_dir, "/", kRunJson,
        ") wrote no contract for any of its ", summary.methods_size(),
        " methods; check does not pass on nothing"));
  }
  TS_ASSIGN_OR_RETURN(std::unique_ptr<check::Validator> validator,
                      check::MakeValidator(options.make_validator, MainClassPath(project)));
  const v1::ProjectBounds& bounds = project.config.bounds();
  CheckResult result;
  for (const StoredContract& stored_contract : stored_contracts) {
    MethodCheck mc;
    mc.method = stored_contract.method;
    mc.spec_file = stored_contract.spec_file;
    mc.line = stored_contract.line;
    mc.edited = stored_contract.edited;
    if (!stored_contract.parse_error.empty()) {
      // Nothing to validate: broken, like a contract that no longer
      // type-checks; the others are still checked.
      mc.verdict = Verdict::kBroken;
      mc.parse_error = stored_contract.parse_error;
      mc.whole_file = stored_contract.whole_file;
      mc.summary = mc.whole_file ? absl::StrCat("not checked: its file ", mc.spec_file,
                                                " does not parse (above)")
                                 : absl::StrCat("the contract does not parse: ", mc.parse_error);
      AddMethodCheck(std::move(mc), &result);
      continue;
    }
    std::string path = absl::StrCat(out_dir, "/", mc.spec_file);
    absl::StatusOr<std::string> contract = ReadFile(path);
    if (!contract.ok()) return contract.status();
    check::ValidateRequest request;
    request.method = mc.method;
    request.contract = *contract;
    request.contract_file = path;
    check::ApplyBounds(bounds, &request);
    ProgressEvent e;
    e.kind = ProgressEvent::Kind::kMethodStart;
    e.method = mc.method;
    e.done = static_cast<int>(result.methods.size());
    e.total = static_cast<int>(summary.methods_size());
    report(e);
    absl::StatusOr<check::ValidationReport> validated = validator->Validate(request);
    if (!validated.ok()) {
      mc.verdict = Verdict::kBroken;
      mc.summary = std::string(validated.status().message());
    } else {
      mc.summary = ConsistencyLine(validated->consistency);
      Judge(validated->consistency, &mc);
    }
    AddMethodCheck(std::move(mc), &result);
  }
  TS_RETURN_IF_ERROR(CheckClassInvariants(project, stored_specs.invariants, stored_contracts,
                                          validator.get(), &result));
  std::set<std::string> unparsable_files;  // said once, before their first contract
  int not_parsed = 0;
  for (const MethodCheck& mc : result.methods) {
    if (!mc.parse_error.empty()) ++not_parsed;
    if (mc.whole_file && unparsable_files.insert(mc.spec_file).second) {
      int in_file = 0;
      for (const MethodCheck& other : result.methods) {
        in_file += other.whole_file && other.spec_file == mc.spec_file ? 1 : 0;
      }
      absl::StrAppend(&result.text, mc.spec_file, " does not parse, so ",
                      in_file == 1 ? "its contract is not" : absl::StrCat("none of its ", in_file,
                                                                          " contracts is"),
                      " checked (", in_file == 1 ? "it counts" : "each counts", " as broken), ",
                      InvariantsNotChecked(summary, mc.spec_file), ": ", mc.parse_error, "\n");
    }
    absl::StrAppend(&result.text, mc.method, ": ", VerdictName(mc.verdict), " — ", mc.summary, "\n");
    for (const std::string& c : mc.counterexamples) {
      absl::StrAppend(&result.text, "  ", absl::StrReplaceAll(c, {{"\n", "\n  "}}), "\n");
    }
  }
  for (const std::string& e : edited) absl::StrAppend(&result.text, "edited since the run: ", e, "\n");
  if (!targets.ok()) {
    // Not a method left uncovered: the class files did not say which
    // methods there are, so one added since the run could not be seen.
    absl::StrAppend(&result.text,
                    "targets not listed: the class files did not say which target methods there "
                    "are now (",
                    targets.status().message(),
                    "), so a method added since the run would not be seen here\n");
  }
  for (const UncoveredTarget& t : targets.ok() ? UncoveredTargets(*targets, summary)
                                               : std::vector<UncoveredTarget>{}) {
    v1::UncoveredMethod* u = result.summary.add_not_covered();
    u->set_method(t.method);
    u->set_added_since_run(t.run == nullptr);
    u->set_reason(t.run == nullptr ? "added since the run" : MethodLine(*t.run));
    if (t.run == nullptr) ++result.added_since_run;
    absl::StrAppend(&result.text, "not covered: ", t.method, ": ",
                    t.run == nullptr
                        ? absl::StrCat("added since the run (", out_dir, "/", kRunJson,
                                       " has no entry for it): run `tracespec run` to cover it")
                        : absl::StrCat("no contract: ", u->reason()),
                    "\n");
  }
  result.not_covered = result.summary.not_covered_size();
  result.summary.set_added_since_run(result.added_since_run);
  // Contracts the run lost against the one before it, or carried from an
  // earlier one: a run that lost one (a bug the tests let pass, but no
  // contract holds any more) is no baseline check can vouch for unless the
  // loss is accepted.
  int carried = 0;
  for (v1::LostContract& lost : LostContractsOf(summary)) {
    absl::StrAppend(&result.text,
                    lost.carried() ? "lost in an earlier run and not regained: "
                                   : "lost since the previous run: ",
                    lost.method(), ": ", lost.reason(), "\n");
    carried += lost.carried() ? 1 : 0;
    *result.summary.add_lost() = std::move(lost);
  }
  result.lost = result.summary.lost_size();
  result.summary.set_lost_accepted(options.accept_lost && result.lost > 0);
  for (const MethodCheck& mc : result.methods) {
    v1::CheckedContract* c = result.summary.add_contracts();
    c->set_method(mc.method);
    c->set_spec_file(mc.spec_file);
    c->set_line(mc.line);
    c->set_verdict(VerdictName(mc.verdict));
    c->set_summary(mc.summary);
    for (const std::string& x : mc.counterexamples) c->add_counterexamples(x);
    c->set_edited(mc.edited);
    c->set_parse_error(mc.parse_error);
    c->set_whole_file(mc.whole_file);
  }
  result.summary.set_not_parsed(not_parsed);
  result.summary.set_holds(result.holds);
  result.summary.set_broken(result.broken);
  result.summary.set_undecided(result.undecided);
  for (const StoredClassInvariants& ci : stored_specs.invariants) {
    auto add = [&](const std::string& text, int line, bool removed) {
      v1::EditedInvariant* e = result.summary.add_edited_invariants();
      e->set_class_name(ci.class_name);
      e->set_invariant(text);
      e->set_spec_file(ci.spec_file);
      e->set_line(line);
      e->set_removed(removed);
    };
    for (const StoredInvariant& inv : ci.invariants) {
      if (inv.edited) add(inv.text, inv.line, /*removed=*/false);
    }
    for (const std::string& inv : ci.removed) add(inv, 0, /*removed=*/true);
  }
  result.edited = static_cast<int>(edited.size());
  result.summary.set_edited(result.edited);
  result.summary.set_build(build_note);
  int invariants_only = 0;
  for (const MethodCheck& mc : result.methods) invariants_only += mc.invariants_only ? 1 : 0;
  // A contract that does not parse was not checked: it counts as broken,
  // not as checked.
  const int validated = static_cast<int>(result.methods.size()) - invariants_only - not_parsed;
  result.summary.set_checked(validated);
  std::string checked = absl::StrCat(validated, " contracts");
  if (invariants_only > 0) {
    absl::StrAppend(&checked, " and the class invariants of ", invariants_only,
                    invariants_only == 1 ? " method" : " methods", " without one");
  }
  absl::StrAppend(&checked, " checked");
  if (not_parsed > 0) absl::StrAppend(&checked, ", ", not_parsed, " not parsed,");
  absl::StrAppend(&result.text, checked, " ", build_note, " (",
                  "consistency within the bounds; coverage skipped: check records no observations): ",
                  result.holds, " hold, ", result.broken, " broken",
                  not_parsed > 0 ? absl::StrCat(" (", not_parsed, " not parsed)") : "", ", ",
                  result.undecided,
                  " undecided; ", result.edited, " edited since the run; ", result.not_covered,
                  result.not_covered == 1 ? " target method" : " target methods", " not covered",
                  result.added_since_run > 0
                      ? absl::StrCat(" (", result.added_since_run,
                                     " added since the run: run `tracespec run` to cover ",
                                     result.added_since_run == 1 ? "it)" : "them)")
                      : "",
                  LostCounts(result.lost - carried, carried, options.accept_lost), "\n");
  return result;
}

namespace {

v1::MutantFigures MutantFiguresProto(const strength::MutantResult& r) {
  v1::MutantFigures out;
  out.set_run(static_cast<int>(r.mutants.size()));
  out.set_generated(r.generated);
  out.set_killed_by_tests(r.killed_by_tests);
  out.set_killed_by_contract(r.killed_by_contract);
  out.set_killed_by_both(r.killed_by_both);
  out.set_contract_only(r.contract_only);
  out.set_tests_only(r.tests_only);
  out.set_survived(r.survived);
  out.set_contract_undecided(r.contract_undecided);
  out.set_summary(r.Summary());
  if (const strength::MutantOutcome* m = r.ContractOnlyExample()) {
    out.set_contract_only_example(
        m->contract_evidence.empty() ? m->label : absl::StrCat(m->label, ": ", m->contract_evidence));
  }
  return out;
}

// Keeps the mutant figures with the run: in OUT/run.json and each method's
// result.json (strength.mutants), then renders the report again.
absl::Status RecordMutants(const std::string& out_dir, const v1::RunSummary& summary,
                           const std::vector<std::pair<std::string, strength::MutantResult>>& mutants) {
  v1::RunSummary updated = summary;
  for (v1::MethodRun& m : *updated.mutable_methods()) {
    for (const auto& [method, result] : mutants) {
      if (method != m.method()) continue;
      v1::MutantFigures figures = MutantFiguresProto(result);
      *m.mutable_strength()->mutable_mutants() = figures;
      if (m.infer_dir().empty()) continue;
      std::string path = absl::StrCat(out_dir, "/", m.infer_dir(), "/result.json");
      v1::InferResult r;
      if (!FileExists(path)) continue;
      TS_RETURN_IF_ERROR(loop::ReadJsonFile(path, &r));
      *r.mutable_strength()->mutable_mutants() = figures;
      TS_RETURN_IF_ERROR(loop::WriteJsonFile(path, r));
    }
  }
  TS_RETURN_IF_ERROR(WriteRunJson(out_dir, updated));
  return report::WriteReports(out_dir);
}

}  // namespace

absl::StatusOr<ProjectStrength> MeasureProjectStrength(const StrengthOptions& options) {
  TS_ASSIGN_OR_RETURN(StoredRun stored,
                      LoadStoredRun(options.project_dir, options.out_dir, "measure"));
  const Project& project = stored.project;
  const std::string& out_dir = stored.out_dir;
  const v1::RunSummary& summary = stored.summary;
  std::vector<v1::Observation> observations;
  if (!summary.observations_dir().empty()) {
    TS_ASSIGN_OR_RETURN(observations,
                        ReadObservations(absl::StrCat(out_dir, "/", summary.observations_dir())));
  }
  TS_ASSIGN_OR_RETURN(std::unique_ptr<check::Validator> validator,
                      check::Validator::Create(MainClassPath(project)));
  const v1::ProjectBounds& bounds = project.config.bounds();
  ProjectStrength result;
  std::vector<const v1::MethodRun*> methods;
  for (const v1::MethodRun& m : summary.methods()) {
    if (!m.spec_file().empty()) methods.push_back(&m);
  }
  std::sort(methods.begin(), methods.end(),
            [](const v1::MethodRun* a, const v1::MethodRun* b) { return a->method() < b->method(); });
  for (const v1::MethodRun* m : methods) {
    std::string path = absl::StrCat(out_dir, "/", m->spec_file());
    TS_ASSIGN_OR_RETURN(std::string contract, ReadFile(path));
    check::ValidateRequest request;
    request.method = m->method();
    request.contract = std::move(contract);
    request.contract_file = path;
    request.has_observations = true;
    request.observations = observations;
    check::ApplyBounds(bounds, &request);
    absl::StatusOr<check::ValidationReport> measured = validator->MeasureStrength(request);
    check::StrengthResult strength;
    if (measured.ok()) {
      strength = measured->strength;
    } else {
      strength.note = absl::StrCat("strength not measured: ", measured.status().message());
    }
    result.methods.emplace_back(m->method(), std::move(strength));
  }
  result.text = check::FormatStrengthTable(result.methods);
  if (!options.mutants) {
    absl::StrAppend(&result.text, "\nmutants: skipped (--no-mutants)\n");
    return result;
  }
  TS_ASSIGN_OR_RETURN(std::vector<std::string> tests, ResolveTests(project));
  for (const v1::MethodRun* m : methods) {
    strength::MutantRunOptions run;
    run.method = m->method();
    run.classpath = MainClassPath(project);
    run.contract_file = absl::StrCat(out_dir, "/", m->spec_file());
    TS_ASSIGN_OR_RETURN(run.contract, ReadFile(run.contract_file));
    check::ValidateRequest bounded;
    check::ApplyBounds(bounds, &bounded);
    run.unwind = bounded.unwind;
    run.max_array = bounded.max_array;
    run.timeout_seconds = bounded.timeout_seconds;
    run.test_classpath = FullClassPath(project);
    run.test_classes = tests;
    run.max_mutants = options.max_mutants;
    run.progress = options.progress;
    TS_ASSIGN_OR_RETURN(strength::MutantResult mutants, strength::RunMutants(run));
    result.mutants.emplace_back(m->method(), std::move(mutants));
  }
  absl::StrAppend(&result.text, "\nmutants (tests: ",
                  tests.empty() ? "none" : absl::StrJoin(tests, ", "), ")\n",
                  strength::FormatMutantTable(result.mutants));
  TS_RETURN_IF_ERROR(RecordMutants(out_dir, summary, result.mutants));
  return result;
}

}  // namespace tracespec::project

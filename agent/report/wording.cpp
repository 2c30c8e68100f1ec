// The sentences both renderings use; see wording.h.
#include "agent/report/wording.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/loop/run_dir.h"

namespace tracespec::report {
namespace {

std::string Plural(int64_t n, const char* one, const char* many) {
  return absl::StrCat(n, " ", n == 1 ? one : many);
}

}  // namespace

std::string StatusName(const MethodView& method) {
  return loop::InferStatusName(method.result.status());
}

std::string StatusScope(const MethodView& method) {
  std::string scope =
      loop::SuccessScope(method.result.status(), method.result.consistency_verdict());
  return scope.empty() ? "" : absl::StrCat(" (", scope, ")");
}

std::string StrengthCell(const MethodView& method) {
  const v1::Strength& s = method.result.strength();
  if (s.measured() && !s.summary().empty()) return s.summary();
  if (method.result.status() != v1::INFER_SUCCESS) return "-";
  return s.note().empty() ? "not measured" : absl::StrCat("not measured: ", s.note());
}

std::string ContractFileCell(const MethodView& method) {
  return method.contract_file.empty() ? "none" : method.contract_file;
}

std::string RoundsSentence(const MethodView& method) {
  std::string who = method.remote()
                        ? absl::StrCat("answers from the model at ", method.result.client())
                        : "contracts from the built-in synthesizer";
  std::string out = absl::StrCat("after ", method.result.rounds(), " of at most ",
                                 method.result.max_rounds(), " rounds; ", who);
  if (!method.result.reason().empty()) absl::StrAppend(&out, "; ", method.result.reason());
  return out;
}

std::string GuardedRefutation(const v1::InferRepair& repair,
                              const std::function<std::string(const std::string&)>& code) {
  const int n = repair.refuted_by();
  return absl::StrCat(code(repair.clause()), " was refuted by ", n,
                      n == 1 ? " counterexample" : " counterexamples",
                      " of the validator and guarded to ", code(repair.repaired()),
                      " (the round's report is of the guarded candidate, so ",
                      n == 1 ? "it is" : "they are", " not listed)");
}

std::string OutcomeName(const RoundView& round) { return loop::RoundOutcomeName(round.outcome); }

std::string MethodsSentence(const RunView& run) {
  std::map<std::string, int> counts;
  for (const MethodView& m : run.methods) ++counts[StatusName(m)];
  std::vector<std::string> parts;
  for (const auto& [status, n] : counts) parts.push_back(absl::StrCat(n, " ", status));
  std::string out = Plural(static_cast<int64_t>(run.methods.size()), "method", "methods");
  if (!parts.empty()) absl::StrAppend(&out, ": ", absl::StrJoin(parts, ", "));
  return out;
}

std::vector<std::string> EgressParagraphs(const RunView& run) {
  std::vector<std::string> out;
  std::set<std::string> remotes;
  for (const MethodView& m : run.methods) {
    if (m.remote()) remotes.insert(m.result.client());
  }
  const AuditView& audit = run.audit;
  if (run.methods.empty() && !audit.present) {
    out.push_back("Nothing left the machine: no method was inferred, so no model was asked, and "
                  "there is no audit log.");
    return out;
  }
  if (remotes.empty() && !audit.present) {
    out.push_back(
        "Nothing left the machine: every contract of this run came from the built-in "
        "synthesizer, which runs inside tracespec. No request was made, so there is no audit "
        "log.");
    return out;
  }
  if (!remotes.empty()) {
    out.push_back(absl::StrCat("Remote model endpoints used: ", absl::StrJoin(remotes, ", "),
                               ". Every request to them passed the egress gate and was recorded "
                               "in the audit log before anything was sent."));
  }
  if (!audit.present) {
    out.push_back(
        "The audit log infer/audit.jsonl is missing: what was sent cannot be shown or "
        "verified.");
    return out;
  }
  if (audit.intact) {
    out.push_back(absl::StrCat("Audit log infer/audit.jsonl: hash chain intact, ",
                               Plural(audit.records, "record", "records"), ", head ",
                               audit.head_hash,
                               ". Kept elsewhere, this head lets tracespec audit verify --expect-head "
                               "also detect records cut off the end."));
  } else {
    out.push_back(absl::StrCat("Audit log infer/audit.jsonl: hash chain BROKEN at line ",
                               audit.first_bad_line, ": ", audit.problem, ". ",
                               Plural(audit.records, "record", "records"),
                               " before it verify; their head ", audit.head_hash, "."));
  }
  if (audit.signed_records == 0) {
    out.push_back("No record of the log is signed: the chain alone can be recomputed by whoever "
                  "can write the file.");
  } else {
    std::string signed_part = absl::StrCat(
        Plural(audit.signed_records, "signed record", "signed records"), " (",
        Plural(audit.seals, "seal", "seals"), ") by key ", audit.signing_key_id, "; ");
    if (audit.records > 0 && audit.last_seal == audit.records) {
      absl::StrAppend(&signed_part, "the last record is a seal, so every record is covered by a "
                                    "signature.");
    } else {
      absl::StrAppend(&signed_part, "records ", audit.last_seal + 1, "..", audit.records,
                      " come after the last seal: no signature covers them (a run that did not "
                      "finish, or records removed).");
    }
    absl::StrAppend(&signed_part, " The signatures are not checked here: tracespec audit verify "
                                  "--public-key checks them.");
    out.push_back(signed_part);
  }
  std::string sent = absl::StrCat(
      Plural(audit.outbound_allowed, "request", "requests"), " sent (",
      audit.bytes_sent, " bytes)");
  if (!audit.destinations.empty()) {
    absl::StrAppend(&sent, " to ", absl::StrJoin(audit.destinations, ", "));
  }
  absl::StrAppend(&sent, "; ", Plural(audit.outbound_blocked, "request", "requests"),
                  " blocked by the egress gate (nothing sent); ",
                  Plural(audit.outbound_dry_run, "request", "requests"),
                  " only written out (dry run).");
  out.push_back(sent);
  return out;
}

std::string MethodEgressSentence(const RunView& run, const MethodView& method) {
  if (!method.remote()) {
    return "Nothing left the machine for this method: the built-in synthesizer answered in "
           "process.";
  }
  if (!run.audit.present) {
    return absl::StrCat("Requests went to ", method.result.client(),
                        ", but the audit log is missing.");
  }
  if (method.audit.empty()) {
    return absl::StrCat("No audit record names this method (requests to ",
                        method.result.client(), ").");
  }
  return absl::StrCat("Audit records of this method's requests and answers (the exact request "
                      "bodies are in infer/",
                      method.dir_name, "/round-N/request.json):");
}

AuditRow AuditRowOf(const v1::AuditRecord& r) {
  AuditRow row;
  row.sequence = absl::StrCat("#", r.sequence());
  row.time = r.time();
  row.direction = r.direction() == v1::OUTBOUND  ? "out"
                  : r.direction() == v1::INBOUND ? "in"
                                                 : "?";
  row.verdict = v1::AuditVerdict_Name(r.verdict());
  row.destination = r.destination();
  row.bytes = absl::StrCat(r.payload_size(), " bytes");
  row.sha256 = r.payload_sha256();
  std::vector<std::string> notes;
  if (!r.label().empty()) notes.push_back(r.label());
  if (!r.rule().empty()) notes.push_back(absl::StrCat("rule ", r.rule()));
  if (!r.detail().empty()) notes.push_back(r.detail());
  if (r.http_status() != 0) notes.push_back(absl::StrCat("HTTP ", r.http_status()));
  row.note = absl::StrJoin(notes, "; ");
  return row;
}

std::vector<std::string> ProjectLines(const v1::RunSummary& run) {
  std::vector<std::string> out;
  // `config` names the file, or describes the layout that was discovered.
  std::string config = run.config_source() == v1::CONFIG_SOURCE_FILE
                            ? absl::StrCat("configuration file ", run.config())
                            : run.config();
  out.push_back(config.empty() ? absl::StrCat("Project ", run.project(), ".")
                               : absl::StrCat("Project ", run.project(), " (", config, ")."));
  if (!run.build().empty()) out.push_back(absl::StrCat("Build command run first: ", run.build(), "."));
  out.push_back(absl::StrCat("Model: ", run.model() == "builtin" ? "the built-in synthesizer"
                                                                  : run.model(), "."));
  if (run.observations_reused()) {
    out.push_back("The observations were reused from an earlier run: classes, tests, targets "
                  "and policy were unchanged.");
  }
  // Object invariants: what the contracts of a class assume, or why none.
  for (const v1::ClassInvariants& c : run.class_invariants()) {
    if (c.invariants().empty()) {
      out.push_back(absl::StrCat("Object invariants of ", c.class_name(), ": none of ",
                                 c.candidates(), " candidates read off the observations holds (",
                                 c.note(), "); its contracts assume none."));
    } else {
      out.push_back(absl::StrCat(
          "Object invariants of ", c.class_name(), ", proved over every constructor and method",
          c.within_bounds() ? " within the bounds" : "", " and assumed by its contracts: ",
          absl::StrJoin(c.invariants(), "; "), "."));
    }
  }
  if (!run.error().empty()) out.push_back(absl::StrCat("The run stopped: ", run.error(), "."));
  return out;
}

std::string DisplayName(const v1::MethodRun& method) {
  return method.id().display().empty() ? method.method() : method.id().display();
}

std::string NotInferredNote(const v1::MethodRun& method) {
  if (method.status() == v1::METHOD_RUN_NOT_OBSERVED) {
    return method.reason().empty() ? "not observed: no test called it"
                                   : absl::StrCat("not observed: ", method.reason());
  }
  return absl::StrCat("not started: ", method.reason());
}

std::vector<RunWarning> RunWarnings(const RunView& run) {
  std::vector<RunWarning> out;
  if (!run.run) return out;
  const v1::RunSummary& s = *run.run;
  if (!s.failed_tests().empty()) {
    RunWarning& w = out.emplace_back();
    w.sentence = absl::StrCat(
        Plural(s.failed_tests_size(), "test", "tests"), " failed while observing: their calls "
        "were kept out of inference, the contracts were inferred from code the project's own "
        "tests reject, and tracespec check refuses them until the tests pass.");
    for (const std::string& test : s.failed_tests()) w.items.emplace_back(test, "");
  }
  std::map<std::string, const v1::MethodRun*> now;
  for (const v1::MethodRun& m : s.methods()) now[m.method()] = &m;
  // A lost method as the report lists it: its name, and what became of it
  // in this run.
  auto lost_item = [&](const std::string& method, const std::string& earlier) {
    auto it = now.find(method);
    if (it == now.end()) {
      return std::pair<std::string, std::string>(method,
                                                 absl::StrCat("no longer a target", earlier));
    }
    const v1::MethodRun& m = *it->second;
    std::string note = m.status() != v1::METHOD_RUN_INFERRED
                           ? NotInferredNote(m)
                           : loop::InferStatusName(m.infer_status());
    if (m.status() == v1::METHOD_RUN_INFERRED && !m.reason().empty()) {
      absl::StrAppend(&note, ": ", m.reason());
    }
    absl::StrAppend(&note, earlier);
    return std::pair<std::string, std::string>(DisplayName(m), std::move(note));
  };
  if (!s.contracts_lost().empty()) {
    const std::set<std::string> carried(s.contracts_lost_carried().begin(),
                                        s.contracts_lost_carried().end());
    const bool one = s.contracts_lost_size() == 1;
    RunWarning& w = out.emplace_back();
    w.sentence = absl::StrCat(
        Plural(s.contracts_lost_size(), "method", "methods"),
        carried.empty()
            ? (one ? " had a contract in the previous run and has"
                   : " had a contract in the previous run and have")
            : (one ? " lost its contract in this run or an earlier one and has"
                   : " lost their contract in this run or an earlier one and have"),
        " none in this one (tracespec check exits 3 on this run unless --accept-lost",
        carried.empty() ? "" : "; a loss is listed again by every run until regained or "
                               "accepted by tracespec run --accept-lost",
        "):");
    for (const std::string& method : s.contracts_lost()) {
      w.items.push_back(
          lost_item(method, carried.count(method) ? " (lost in an earlier run)" : ""));
    }
  }
  // Accepted losses are no warning for check, but the methods still have no
  // contract: the report says so, as run.json and the run's output do.
  if (!s.contracts_lost_accepted().empty()) {
    const bool one = s.contracts_lost_accepted_size() == 1;
    RunWarning& w = out.emplace_back();
    w.sentence = absl::StrCat(
        Plural(s.contracts_lost_accepted_size(), "method", "methods"),
        one ? " lost its contract and has" : " lost their contract and have",
        " none in this run; this run accepted the loss (tracespec run --accept-lost), so "
        "tracespec check does not refuse it and later runs do not list it again:");
    for (const std::string& method : s.contracts_lost_accepted()) {
      w.items.push_back(lost_item(method, ""));
    }
  }
  return out;
}

std::vector<std::string> ObserveLines(const v1::ObserveSummary& s) {
  std::vector<std::string> out;
  if (!s.command_program().empty()) {
    // `observe -- COMMAND`: no tests; say where the evidence came from.
    out.push_back(absl::StrCat(
        "Evidence: captured behaviour, not tests — the observations were recorded while the "
        "command ", s.command_program(), " ran (probe injected with ", s.injection(),
        "; JVM: ", s.jvm_result(), ")."));
    if (!s.complete()) {
      out.push_back(absl::StrCat("Incomplete: ", s.incomplete_reason(), "."));
    }
    out.push_back(absl::StrCat(Plural(s.observations(), "observation", "observations"),
                               " recorded under the redaction policy ", s.policy(), "."));
    return out;
  }
  out.push_back(absl::StrCat(
      "Test classes: ", s.test_classes().empty() ? "none" : absl::StrJoin(s.test_classes(), ", "),
      "."));
  out.push_back(absl::StrCat(Plural(s.tests_run(), "test", "tests"), " run: ", s.tests_passed(),
                             " passed, ", s.tests_failed(), " failed, ", s.tests_skipped(),
                             " skipped", s.tests_interrupted() > 0
                                             ? absl::StrCat(", ", s.tests_interrupted(),
                                                            " interrupted")
                                             : "",
                             " (JVM: ", s.jvm_result(), ")."));
  std::vector<std::string> failed;
  for (const v1::TestSummary& t : s.tests()) {
    if (t.status() != v1::TEST_STATUS_FAILED) continue;
    // Not a test: a class whose own code failed, or a JVM exit status
    // that said failure without naming one (summary.proto).
    const char* what = t.kind() == v1::TEST_ENTRY_CONTAINER ? " outside its tests"
                       : t.kind() == v1::TEST_ENTRY_JVM
                           ? " (its JVM's exit status said a failure, and none was reported)"
                           : "";
    failed.push_back(t.failure_class().empty()
                         ? absl::StrCat(t.test_id(), what)
                         : absl::StrCat(t.test_id(), " (", t.failure_class(), ")", what));
  }
  if (!failed.empty()) {
    out.push_back(absl::StrCat("Failed: ", absl::StrJoin(failed, ", "),
                               "; their calls are kept out of inference (flagged, used for "
                               "local checks only)."));
  }
  if (!s.complete()) {
    out.push_back(absl::StrCat("Incomplete: ", s.incomplete_reason(),
                               "; the observations are the ones recorded up to that point."));
  }
  out.push_back(absl::StrCat(Plural(s.observations(), "observation", "observations"),
                             " recorded under the redaction policy ", s.policy(), "."));
  if (s.unattributed_observations() > 0) {
    out.push_back(absl::StrCat(s.unattributed_observations(),
                               " of them could not be attributed to a test."));
  }
  return out;
}

std::string ObservationsSentence(const MethodView& m) {
  std::string out = absl::StrCat(Plural(m.observations, "observation", "observations"), ", ",
                                 Plural(m.distinct_behaviours, "distinct behaviour",
                                        "distinct behaviours"));
  if (m.excluded_observations > 0) {
    absl::StrAppend(&out, "; ", m.excluded_observations,
                    " from excluded tests (used for local validation, never sent anywhere)");
  }
  if (m.distinct_behaviours > static_cast<int>(m.behaviours.size())) {
    absl::StrAppend(&out, "; the first ", m.behaviours.size(), " behaviours are listed");
  }
  return out + ".";
}

std::string DiagnosticLine(const DiagnosticView& d) {
  std::string where = d.line > 0 ? absl::StrCat(", line ", d.line, ":", d.column) : "";
  return absl::StrCat(d.check, ", ", d.kind, where, ": ", d.message);
}

std::string BehaviourNote(const BehaviourView& b) {
  std::vector<std::string> parts;
  if (b.count > 1) parts.push_back(absl::StrCat("x", b.count));
  if (!b.test_ids.empty()) {
    parts.push_back(absl::StrCat(b.test_ids.size() == 1 ? "test " : "tests ",
                                 absl::StrJoin(b.test_ids, ", ")));
  }
  if (b.excluded) parts.push_back("from an excluded test");
  return absl::StrJoin(parts, "; ");
}

}  // namespace tracespec::report

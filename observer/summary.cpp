// Observe summary; see summary.h.
#include "observer/summary.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/method_id.h"

namespace tracespec::observer {
namespace {

// Withheld by the policy: a reason marks what --noninterference withheld,
// which the summary counts on its own line.
bool ByPolicy(const v1::Value& value) {
  return value.has_redacted() && value.redacted().reason().empty();
}

void CountRedacted(const google::protobuf::RepeatedPtrField<v1::ObjectState>& states,
                   std::map<std::string, int64_t>* counts) {
  for (const v1::ObjectState& state : states) {
    for (const v1::Field& field : state.fields()) {
      if (!ByPolicy(field.value())) continue;
      const std::string& owner =
          field.declaring_class().empty() ? state.class_name() : field.declaring_class();
      ++(*counts)[owner + "." + field.name()];
    }
  }
}

}  // namespace

const char* StatusName(v1::TestStatus status) {
  switch (status) {
    case v1::TEST_STATUS_PASSED: return "passed";
    case v1::TEST_STATUS_FAILED: return "FAILED";
    case v1::TEST_STATUS_SKIPPED: return "skipped";
    case v1::TEST_STATUS_INTERRUPTED: return "INTERRUPTED";
    default: return "not run";
  }
}

std::string MethodLabel(const v1::MethodRef& method) {
  return MethodId::FromRef(method).Key();
}

ObservationCounter::ObservationCounter(const std::vector<std::string>& withheld) {
  for (const std::string& field : withheld) redacted_[field] += 0;
}

void ObservationCounter::Add(const v1::Observation& o) {
  std::string label = MethodLabel(o.method());
  v1::MethodSummary& m = methods_[label];
  m.set_method(label);
  m.set_observations(m.observations() + 1);
  if (o.outcome().has_thrown()) {
    m.set_thrown(m.thrown() + 1);
  } else {
    m.set_returned(m.returned() + 1);
  }
  ++observations_;
  if (o.test_id().empty()) ++unattributed_;
  CountRedacted(o.pre(), &redacted_);
  CountRedacted(o.post(), &redacted_);
  for (int i = 0; i < o.args_size(); ++i) {
    if (!ByPolicy(o.args(i))) continue;
    std::string param = i < o.method().param_names_size() ? o.method().param_names(i)
                                                           : absl::StrCat("arg", i);
    ++redacted_[absl::StrCat(label, " parameter ", param)];
  }
  if (ByPolicy(o.outcome().returned())) ++redacted_[label + " return value"];
}

void ObservationCounter::Fill(v1::ObserveSummary* summary) const {
  summary->set_observations(observations_);
  summary->set_unattributed_observations(unattributed_);
  summary->clear_methods();
  for (const auto& [label, m] : methods_) *summary->add_methods() = m;
  summary->clear_redactions();
  for (const auto& [what, count] : redacted_) {
    v1::RedactionCount* r = summary->add_redactions();
    r->set_what(what);
    r->set_count(count);
  }
}

std::string NoninterferenceLine(const v1::ObserveSummary& s) {
  if (!s.noninterference()) {
    if (!s.noninterference_not_compared().empty()) {
      return absl::StrCat("noninterference not run: ", s.noninterference_not_compared());
    }
    return "noninterference off: values computed from denied fields (an encoding, a hash) are "
           "recorded as they are and may leave with the observations (--noninterference or "
           "observe_noninterference: true withholds them, for tests)";
  }
  std::string out =
      absl::StrCat("noninterference (seed ", s.noninterference_seed(), ", ",
                   s.noninterference_runs(), " runs, ", s.noninterference_substitutions(),
                   " denied values substituted",
                   s.noninterference_constants() == 0
                       ? ""
                       : absl::StrCat(", among them ", s.noninterference_constants(),
                                      s.noninterference_constants() == 1 ? " constant" : " constants",
                                      " equal to a denied value, where loaded"),
                   "): ");
  if (!s.noninterference_not_compared().empty()) {
    absl::StrAppend(&out, "nothing withheld: ", s.noninterference_not_compared());
  } else {
    absl::StrAppend(&out, s.withheld_dependent(),
                    " recorded values withheld as depending on a denied value, ",
                    s.withheld_nondeterministic(), " as nondeterministic (dependence not decided)");
  }
  return out;
}

std::string FailedEntryNote(const v1::TestSummary& test, const std::string& jvm_result) {
  switch (test.kind()) {
    case v1::TEST_ENTRY_CONTAINER:
      return "failed outside its tests (@BeforeAll, @AfterAll, a static initializer, an "
             "extension)";
    case v1::TEST_ENTRY_JVM:
      return absl::StrCat("its JVM ended with ", jvm_result,
                          " but reported no failing test or container");
    default:
      return "";
  }
}

std::string FormatSummary(const v1::ObserveSummary& s, const std::string& out_dir) {
  std::string out;
  const bool command_run = !s.command_program().empty();
  if (command_run) {
    absl::StrAppend(&out, "command: ", s.command_program(), " (probe injected with ",
                    s.injection(), "): ", s.jvm_result(), ", ",
                    absl::StrFormat("%.1f", s.jvm_seconds()), "s\n");
  } else {
    absl::StrAppend(&out, "tests: ", s.tests_run(), " run, ", s.tests_passed(), " passed, ",
                    s.tests_failed(), " failed, ", s.tests_skipped(), " skipped");
    if (s.tests_interrupted() > 0) {
      absl::StrAppend(&out, ", ", s.tests_interrupted(), " interrupted");
    }
    absl::StrAppend(&out, "  (JVM: ", s.jvm_result(), ", ",
                    absl::StrFormat("%.1f", s.jvm_seconds()), "s)\n");
  }
  for (const v1::TestSummary& t : s.tests()) {
    if (t.status() != v1::TEST_STATUS_FAILED && t.status() != v1::TEST_STATUS_INTERRUPTED) {
      continue;
    }
    absl::StrAppend(&out, "  ", StatusName(t.status()), " ", t.test_id());
    if (!t.failure_class().empty()) absl::StrAppend(&out, " (", t.failure_class(), ")");
    const std::string note = FailedEntryNote(t, s.jvm_result());
    if (!note.empty()) absl::StrAppend(&out, ", ", note);
    // Said where the failure is listed: the test's calls shape no contract.
    if (t.status() == v1::TEST_STATUS_FAILED && t.observations() > 0) {
      absl::StrAppend(&out, ": its ", t.observations(), t.observations() == 1 ? " call is" : " calls are",
                      " kept out of inference (flagged, used for local checks only)");
    }
    absl::StrAppend(&out, "\n");
  }
  absl::StrAppend(&out, "observations: ", s.observations());
  if (!command_run && s.unattributed_observations() > 0) {
    absl::StrAppend(&out, " (", s.unattributed_observations(), " not attributed to a test)");
  }
  absl::StrAppend(&out, "\n");
  size_t width = 0;
  for (const v1::MethodSummary& m : s.methods()) width = std::max(width, m.method().size());
  for (const v1::MethodSummary& m : s.methods()) {
    absl::StrAppend(&out, "  ", m.method(), std::string(width - m.method().size() + 2, ' '),
                    m.observations());
    if (m.observations() > 0) {
      absl::StrAppend(&out, " (", m.returned(), " returned, ", m.thrown(), " threw)");
    }
    if (m.dropped() > 0) {
      absl::StrAppend(&out, "; kept ", m.kept(), ": ", m.behaviours(),
                      " distinct behaviours and a sample (cap ", s.max_observations_per_method(),
                      "), dropped ", m.dropped());
    }
    if (!m.warning().empty()) absl::StrAppend(&out, "  WARNING: ", m.warning());
    absl::StrAppend(&out, "\n");
  }
  if (s.entry_points_size() > 0) absl::StrAppend(&out, "by thread and entry point:\n");
  for (const v1::EntryPointSummary& e : s.entry_points()) {
    absl::StrAppend(&out, "  ", e.thread(), " from ",
                    e.entry_point().empty() ? "(no frame outside the JDK)" : e.entry_point(), ": ",
                    e.observations(), "\n");
  }
  if (s.redactions_size() > 0) {
    absl::StrAppend(&out, "withheld by the policy (", s.policy(), "):\n");
    for (const v1::RedactionCount& r : s.redactions()) {
      if (r.count() == 0) {
        absl::StrAppend(&out, "  ", r.what(), ": omitted\n");
      } else {
        absl::StrAppend(&out, "  ", r.what(), ": ", r.count(), " value",
                        r.count() == 1 ? "" : "s", " redacted\n");
      }
    }
  }
  if (s.tainted_values() > 0) {
    absl::StrAppend(&out, "holding a value of a denied location (taint): ", s.tainted_values(),
                    " recorded value", s.tainted_values() == 1 ? "" : "s", " redacted\n");
  }
  absl::StrAppend(&out, NoninterferenceLine(s), "\n");
  for (const std::string& t : s.tests_withheld()) {
    absl::StrAppend(&out, "  ", t, ": its calls differed between the runs; all values withheld\n");
  }
  if (!command_run) {
    absl::StrAppend(&out, "excluded tests (never sent anywhere): ", s.tests_excluded(), "\n");
  }
  for (const v1::TestSummary& t : s.tests()) {
    if (t.excluded()) absl::StrAppend(&out, "  ", t.test_id(), ": ", t.excluded_reason(), "\n");
  }
  if (s.isolation_run()) {
    absl::StrAppend(&out, "isolation run (the other tests' observations come from a JVM in which "
                          "no excluded test ran): ",
                    s.isolation_tests(), " test", s.isolation_tests() == 1 ? "" : "s", ", ",
                    s.isolation_runs(), " run", s.isolation_runs() == 1 ? "" : "s", ", ",
                    absl::StrFormat("%.1f", s.isolation_jvm_seconds()), "s JVM\n");
  }
  for (const std::string& changed : s.isolation_outcome_changed()) {
    absl::StrAppend(&out, "  outcome changed without the excluded tests: ", changed, "\n");
  }
  for (const v1::TargetProblem& p : s.target_problems()) {
    absl::StrAppend(&out, "problem: ", p.target(), ": ", p.message(), "\n");
  }
  if (!s.complete()) absl::StrAppend(&out, "PARTIAL: ", s.incomplete_reason(), "\n");
  absl::StrAppend(&out, "written: ", out_dir, "/{observations.pb,observations.jsonl,",
                  "summary.json,jvm.log}\n");
  return out;
}

}  // namespace tracespec::observer

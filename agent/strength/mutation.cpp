// Mutation analysis of one contract; see mutation.h.
#include "agent/strength/mutation.h"

#include <algorithm>
#include <memory>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "common/files.h"
#include "common/interrupt.h"
#include "common/method_id.h"
#include "common/method_signature.h"
#include "common/status.h"
#include "common/table.h"
#include "observer/junit.h"
#include "validator/classfile/class_path.h"
#include "validator/classfile/mutants.h"

namespace tracespec::strength {
namespace {

// The first line of `text`.
std::string FirstLine(const std::string& text) {
  return std::string(text.substr(0, std::min(text.find('\n'), text.size())));
}

// The consistency check of the contract against the classes on `classpath`.
absl::StatusOr<check::ValidationReport> CheckContract(const MutantRunOptions& options,
                                                      const std::string& classpath) {
  TS_ASSIGN_OR_RETURN(std::unique_ptr<check::Validator> validator,
                      check::Validator::Create(classpath));
  check::ValidateRequest request;
  request.method = options.method;
  request.contract = options.contract;
  request.contract_file = options.contract_file;
  request.has_observations = false;
  request.unwind = options.unwind;
  request.max_array = options.max_array;
  request.timeout_seconds = options.timeout_seconds;
  return validator->Validate(request);
}

// What a consistency report on a mutant shows: a kill needs a violation
// with a counterexample.
void JudgeContract(const check::ValidationReport& report, MutantOutcome* out) {
  out->contract = report.consistency.status;
  out->killed_by_contract = report.consistency.status == check::CheckStatus::kFail &&
                            !report.consistency.counterexamples.empty();
  if (out->killed_by_contract && !report.consistency.explanations.empty()) {
    out->contract_evidence = FirstLine(report.consistency.explanations.front());
  } else {
    out->contract_evidence = FirstLine(report.consistency.summary);
  }
}

std::string Verb(bool killed, const char* who) {
  return absl::StrCat(who, killed ? " kill" : " miss");
}

}  // namespace

std::string MutantResult::Summary() const {
  std::string out = absl::StrCat(mutants.size(), " mutants");
  if (static_cast<int>(mutants.size()) < generated) {
    absl::StrAppend(&out, " (of ", generated, ")");
  }
  absl::StrAppend(&out, ": ");
  if (tests_run) {
    absl::StrAppend(&out, "tests kill ", killed_by_tests);
  } else {
    absl::StrAppend(&out, "tests not run");
  }
  if (contract_checked) {
    absl::StrAppend(&out, ", contract kills ", killed_by_contract);
    if (tests_run) {
      absl::StrAppend(&out, " (both ", killed_by_both, ", contract only ", contract_only, ")");
    }
  } else {
    absl::StrAppend(&out, ", contract not checked");
  }
  absl::StrAppend(&out, ", ", survived, " survived");
  if (contract_undecided > 0) {
    absl::StrAppend(&out, " (", contract_undecided, " undecided by the contract)");
  }
  return out;
}

const MutantOutcome* MutantResult::ContractOnlyExample() const {
  if (!tests_run) return nullptr;
  for (const MutantOutcome& m : mutants) {
    if (m.killed_by_contract && !m.killed_by_tests) return &m;
  }
  return nullptr;
}

absl::StatusOr<MutantResult> RunMutants(const MutantRunOptions& options) {
  TS_ASSIGN_OR_RETURN(MethodSignature signature, MethodSignature::Parse(options.method));
  TS_ASSIGN_OR_RETURN(classfile::ClassPath path, classfile::ClassPath::Create(options.classpath));
  TS_ASSIGN_OR_RETURN(classfile::ClassPath::ClassBytes original,
                      path.ReadBytes(signature.class_name));
  classfile::MutantOptions mutant_options;
  mutant_options.max_mutants = options.max_mutants;
  TS_ASSIGN_OR_RETURN(classfile::MethodMutantsResult generated,
                      classfile::MethodMutants(original.bytes, original.where,
                                               signature.method_name, signature.descriptor,
                                               mutant_options));
  // Each progress line names the method, as people read it.
  std::string display =
      MethodId(signature.class_name, signature.method_name, generated.descriptor).Display();
  auto progress = [&options, &display](const std::string& line) {
    if (options.progress) options.progress(absl::StrCat(display, ": ", line));
  };
  MutantResult result;
  result.method = options.method;
  result.generated = generated.generated;

  TS_ASSIGN_OR_RETURN(std::string work, MakeTempDir("tracespec-mutants-"));
  struct Cleanup {
    std::string dir;
    ~Cleanup() { (void)RemoveAll(dir); }
  } cleanup{work};

  // The original first: which tests already fail, whether the contract holds.
  std::set<std::string> failing_before;
  double test_timeout = options.test_timeout_seconds;
  if (options.test_classes.empty()) {
    result.tests_note = "no tests given";
  } else {
    progress(absl::StrCat("original: running ", options.test_classes.size(), " test class",
                          options.test_classes.size() == 1 ? "" : "es"));
    observer::TestRunOptions run;
    run.classpath = options.test_classpath;
    run.test_classes = options.test_classes;
    run.work_dir = work + "/original";
    TS_ASSIGN_OR_RETURN(observer::TestRun before, observer::RunTests(run));
    failing_before.insert(before.failed.begin(), before.failed.end());
    result.tests_run = true;
    if (!failing_before.empty()) {
      result.tests_note = absl::StrCat(failing_before.size(),
                                       " test(s) fail on the original and are not counted: ",
                                       *failing_before.begin(),
                                       failing_before.size() > 1 ? ", ..." : "");
    }
    if (test_timeout <= 0) test_timeout = std::max(60.0, 5 * before.seconds);
  }
  progress("original: checking the contract");
  TS_ASSIGN_OR_RETURN(check::ValidationReport base, CheckContract(options, options.classpath));
  if (base.consistency.status == check::CheckStatus::kPass) {
    result.contract_checked = true;
  } else {
    result.contract_note = absl::StrCat(
        "the contract does not pass consistency on the original (",
        check::CheckStatusName(base.consistency.status), ": ",
        FirstLine(base.consistency.summary), "): contract kills not counted");
  }

  std::string class_file = absl::StrCat(absl::StrReplaceAll(signature.class_name, {{".", "/"}}),
                                        ".class");
  int index = 0;
  for (classfile::Mutant& mutant : generated.mutants) {
    if (StopSignal() != 0) {
      return absl::CancelledError(absl::StrCat(StopReason(), " after ", index, " of ",
                                               generated.mutants.size(), " mutants"));
    }
    ++index;
    MutantOutcome out;
    out.id = mutant.id;
    out.kind = mutant.kind;
    out.label = mutant.Label();
    std::string dir = absl::StrCat(work, "/", mutant.id);
    std::string target = absl::StrCat(dir, "/classes/", class_file);
    TS_RETURN_IF_ERROR(MakeDirs(target.substr(0, target.rfind('/'))));
    TS_RETURN_IF_ERROR(WriteFileAtomic(target, mutant.bytes));
    if (result.tests_run) {
      observer::TestRunOptions run;
      run.classpath = absl::StrCat(dir, "/classes:", options.test_classpath);
      run.test_classes = options.test_classes;
      run.timeout_seconds = test_timeout;
      run.work_dir = dir + "/junit";
      absl::StatusOr<observer::TestRun> tests = observer::RunTests(run);
      if (!tests.ok() && tests.status().code() == absl::StatusCode::kCancelled) {
        return tests.status();  // a stop asked for: no mutant counts as killed by it
      }
      if (!tests.ok()) {
        out.killed_by_tests = true;
        out.tests_evidence = absl::StrCat("JUnit did not run: ", tests.status().message());
      } else if (tests->timed_out) {
        out.killed_by_tests = true;
        out.tests_evidence = absl::StrFormat("timed out after %.0fs", test_timeout);
      } else {
        for (const std::string& id : tests->failed) {
          if (failing_before.count(id) == 0) {
            out.killed_by_tests = true;
            out.tests_evidence = id;
            break;
          }
        }
      }
    }
    if (result.contract_checked) {
      absl::StatusOr<check::ValidationReport> report =
          CheckContract(options, absl::StrCat(dir, "/classes:", options.classpath));
      if (report.ok()) {
        JudgeContract(*report, &out);
      } else {
        out.contract = check::CheckStatus::kError;
        out.contract_evidence = std::string(report.status().message());
      }
      if (!out.killed_by_contract) {
        bool undecided = out.contract != check::CheckStatus::kPass;
        if (undecided) ++result.contract_undecided;
      }
    }
    progress(absl::StrCat(out.label, " (", index, "/", generated.mutants.size(), "): ",
                          result.tests_run ? Verb(out.killed_by_tests, "tests") : "tests not run",
                          ", ",
                          result.contract_checked
                              ? (out.killed_by_contract
                                     ? std::string("contract kills")
                                     : absl::StrCat("contract ",
                                                    check::CheckStatusName(out.contract)))
                              : "contract not checked"));
    result.killed_by_tests += out.killed_by_tests;
    result.killed_by_contract += out.killed_by_contract;
    result.killed_by_both += out.killed_by_tests && out.killed_by_contract;
    result.contract_only += out.killed_by_contract && !out.killed_by_tests;
    result.tests_only += out.killed_by_tests && !out.killed_by_contract;
    result.survived += !out.killed_by_tests && !out.killed_by_contract;
    result.mutants.push_back(std::move(out));
  }
  return result;
}

std::string FormatMutantTable(const std::vector<std::pair<std::string, MutantResult>>& rows) {
  std::vector<std::vector<std::string>> cells;
  cells.push_back({"method", "mutants", "tests", "contract", "both", "contract-only", "survived",
                   "undecided"});
  for (const auto& [method, r] : rows) {
    auto tests = [&r](int n) { return r.tests_run ? absl::StrCat(n) : std::string("-"); };
    auto contract = [&r](int n) {
      return r.contract_checked ? absl::StrCat(n) : std::string("-");
    };
    auto both = [&r](int n) {
      return r.tests_run && r.contract_checked ? absl::StrCat(n) : std::string("-");
    };
    cells.push_back({method, absl::StrCat(r.mutants.size()), tests(r.killed_by_tests),
                     contract(r.killed_by_contract), both(r.killed_by_both),
                     both(r.contract_only), absl::StrCat(r.survived),
                     contract(r.contract_undecided)});
  }
  std::string out = AlignColumns(cells);
  for (const auto& [method, r] : rows) {
    absl::StrAppend(&out, method, ": ", r.Summary(), "\n");
    if (!r.tests_note.empty()) absl::StrAppend(&out, "  tests: ", r.tests_note, "\n");
    if (!r.contract_note.empty()) absl::StrAppend(&out, "  contract: ", r.contract_note, "\n");
    if (r.tests_run) {
      for (const MutantOutcome& m : r.mutants) {
        if (!m.killed_by_contract || m.killed_by_tests) continue;
        absl::StrAppend(&out, "  contract only: ", m.label, ": ", m.contract_evidence, "\n");
      }
    }
  }
  if (!rows.empty()) {
    absl::StrAppend(&out,
                    "survived: killed by neither, equivalent mutants included (equivalence is "
                    "not checked); undecided: consistency not decided on the mutant (not a "
                    "kill)\n");
  }
  return out;
}

}  // namespace tracespec::strength

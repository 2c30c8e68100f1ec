// Mutation analysis of one contract: how many single-change mutants of the
// method's bytecode (classfile::MethodMutants) the project's JUnit tests
// kill, how many the contract kills (the validator's consistency check
// finds an execution of the mutant the contract excludes), and which only
// the contract kills.
//
//   strength::MutantRunOptions options;
//   options.method = "bank.Account#deposit(I)V";
//   options.classpath = "target/classes";                       // the code under test
//   options.contract = spec_text;                               // a .jml file's text, ...
//   options.test_classpath = "target/classes:target/test-classes";
//   options.test_classes = {"bank.AccountTest"};                // none: tests not run
//   absl::StatusOr<strength::MutantResult> r = strength::RunMutants(options);
//   r->killed_by_tests, r->killed_by_contract, r->contract_only, r->survived, ...
//
// Each mutant is written to a temporary directory put in front of both
// class paths, so it shadows the original class. Tests and the contract
// are first run on the original: tests that fail there are not counted as
// kills, and a contract that does not PASS consistency on the original
// kills nothing (the result says why). A test run that times out kills the
// mutant (a hang is a failure a test would show). A consistency check that
// is UNKNOWN does not kill and is counted as `contract_undecided`.
// Equivalent mutants are not detected: they are among `survived`.
#ifndef TRACESPEC_AGENT_STRENGTH_MUTATION_H_
#define TRACESPEC_AGENT_STRENGTH_MUTATION_H_

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "validator/check/validator.h"

namespace tracespec::strength {

struct MutantRunOptions {
  // "pkg.C#m", "pkg.C#m(I)V" (overloads need the descriptor).
  std::string method;
  // The code under test, as for check::Validator::Create.
  std::string classpath;
  // The contract, as in check::ValidateRequest.
  std::string contract;
  std::string contract_file = "<contract>";
  int unwind = 4;
  int max_array = 4;
  double timeout_seconds = 60;  // per consistency check
  // The tests: the class path they run on (code under test, tests and
  // their dependencies) and the JUnit test classes (binary names). No test
  // classes: tests are not run and kill nothing (`tests_note` says so).
  std::string test_classpath;
  std::vector<std::string> test_classes;
  // Per test run; 0: five times the original's run, at least 60 s.
  double test_timeout_seconds = 0;
  // At most this many mutants (classfile::MutantOptions; 0: all).
  int max_mutants = 40;
  // One line per step, naming the method ("k.Counter#add(int): M03 iadd ->
  // isub @pc 5 (line 30) (3/12): tests kill, contract kills"), for a
  // progress display.
  std::function<void(const std::string&)> progress;
};

struct MutantOutcome {
  std::string id;      // "M05"
  std::string kind;    // "removed field store"
  std::string label;   // classfile::Mutant::Label(): "M05 putfield checksum removed @pc 20 (line 31)"
  bool killed_by_tests = false;
  // The first failing test, "timed out after 60s", or "".
  std::string tests_evidence;
  // The consistency verdict on the mutant (SKIPPED when not checked).
  check::CheckStatus contract = check::CheckStatus::kSkipped;
  bool killed_by_contract = false;
  // The first counterexample's explanation (clause and values), or the
  // reason of an UNKNOWN.
  std::string contract_evidence;
};

struct MutantResult {
  std::string method;   // as given
  int generated = 0;    // mutants before the cap
  // Tests run on every mutant; otherwise why not.
  bool tests_run = false;
  std::string tests_note;
  // The contract checked on every mutant; otherwise why not.
  bool contract_checked = false;
  std::string contract_note;
  std::vector<MutantOutcome> mutants;  // in id order
  int killed_by_tests = 0;
  int killed_by_contract = 0;
  int killed_by_both = 0;
  int contract_only = 0;  // killed by the contract, not by the tests
  int tests_only = 0;     // killed by the tests, not by the contract
  int survived = 0;       // killed by neither (equivalent mutants included)
  int contract_undecided = 0;  // consistency UNKNOWN on the mutant

  // "12 mutants: tests kill 5, contract kills 9 (both 4, contract only 5),
  // 2 survived (1 undecided by the contract)"; "tests not run" / "contract
  // not checked" in place of a count that was not measured.
  std::string Summary() const;
  // The first mutant only the contract kills, or null.
  const MutantOutcome* ContractOnlyExample() const;
};

// Errors: an unknown class or method, a class path entry that does not
// exist, tests JUnit cannot run at all on the original (no java, a class
// it cannot load), an unwritable temporary directory. A contract that does
// not check is a result with contract_checked false.
absl::StatusOr<MutantResult> RunMutants(const MutantRunOptions& options);

// The mutant figures of several methods, one row each in the order given:
//   method  mutants  tests  contract  both  contract-only  survived  undecided
// then per method its summary, notes, and each mutant only the contract
// kills with its counterexample. No timings: the same inputs give the same
// bytes.
std::string FormatMutantTable(const std::vector<std::pair<std::string, MutantResult>>& rows);

}  // namespace tracespec::strength

#endif  // TRACESPEC_AGENT_STRENGTH_MUTATION_H_

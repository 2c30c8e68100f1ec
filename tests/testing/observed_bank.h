// A test fixture's inputs shared by the end-to-end suites that infer or
// validate on examples/bank.
#ifndef TRACESPEC_TESTS_TESTING_OBSERVED_BANK_H_
#define TRACESPEC_TESTS_TESTING_OBSERVED_BANK_H_

#include <string>
#include <vector>

#include "tests/testing/testing.h"

namespace tracespec::testing {

// Holds on bank.Account#deposit's normal and exceptional behaviour as the
// tests show it (consistency and coverage PASS).
inline constexpr char kDepositContract[] =
    "//@ public normal_behavior\n"
    "//@   requires amount > 0 && audit != null;\n"
    "//@   assignable balance, checksum, audit.entries, audit.lastEntry;\n"
    "//@   ensures balance == \\old(balance) + amount;\n"
    "//@ also\n"
    "//@ public exceptional_behavior\n"
    "//@   requires amount <= 0;\n"
    "//@   assignable \\nothing;\n"
    "//@   signals_only IllegalArgumentException;\n";

// examples/bank compiled by javac (-g; the tests against the classes and
// JUnit) and `tracespec observe` of bank.AccountTest on `methods`
// ("bank.Account#deposit", ...). A step that fails fails the current test
// (ADD_FAILURE) and leaves its path empty. The files go when it does.
class ObservedBank {
 public:
  explicit ObservedBank(const std::vector<std::string>& methods);
  const std::string& classes() const { return classes_; }
  const std::string& test_classes() const { return test_classes_; }
  // The observe output directory.
  const std::string& observations() const { return observations_; }

 private:
  TempDir main_;
  TempDir tests_;
  std::string classes_;
  std::string test_classes_;
  std::string observations_;
};

}  // namespace tracespec::testing

#endif  // TRACESPEC_TESTS_TESTING_OBSERVED_BANK_H_

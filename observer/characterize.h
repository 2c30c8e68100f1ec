// `tracespec characterize`: turns recorded calls into JUnit 5
// characterization tests that pin today's behaviour — one test class per
// target class, each test rebuilding a call's inputs and asserting its
// recorded outcome.
#ifndef TRACESPEC_OBSERVER_CHARACTERIZE_H_
#define TRACESPEC_OBSERVER_CHARACTERIZE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tracespec::observer {

struct CharacterizeOptions {
  // `tracespec observe`'s output directory, or an observations .pb/.jsonl.
  std::string observations;
  // Targets as for observe ("pkg.C#m", "pkg.C#m(I)I", "pkg.C#m(int)");
  // empty: every method the observations hold.
  std::vector<std::string> methods;
  // The classes the calls were recorded on: constructors, fields and
  // access flags are read from here.
  std::string classpath;
  // Where the .java files go (created if missing).
  std::string out_dir;
};

// A recorded call no test was written for.
struct NotRebuilt {
  std::string method;  // "pkg.C#m(I)I"
  uint64_t sequence = 0;
  std::string why;
};

struct CharacterizeResult {
  // Written files, relative to out_dir, sorted.
  std::vector<std::string> files;
  int tests = 0;
  // Recorded calls of the chosen methods.
  int calls = 0;
  // Calls whose test would repeat an earlier one.
  int duplicates = 0;
  std::vector<NotRebuilt> not_rebuilt;
};

// Writes OUT/<package>/<Class>CharacterizationTest.java per target class
// with at least one call that can be rebuilt, and OUT/not-rebuilt.txt (the
// calls without a test, with why). A call can be rebuilt when it is not a
// constructor or a private method and every input (receiver, arguments,
// and what they reach) is a primitive, a string, null, an array recorded
// in full, or an object of a nameable class with a constructor without
// parameters whose fields were all recorded (set by reflection). Each test
// asserts the recorded outcome: the return value (primitives, strings,
// null, arrays of them in full, the same object as an input; else the
// result's class and its primitive and string fields), or the exact class
// of the exception; then the primitive, string and null fields and the
// array elements of every rebuilt input as recorded after the call. A value
// the policy withheld is never written: a withheld input makes the call not
// rebuilt, a withheld result or field is not asserted. Output is
// deterministic (calls in recording order, a call whose test would repeat
// an earlier one dropped); each file is written atomically, and only after
// every test was generated. InvalidArgument/NotFound for bad specs, or no
// recorded calls of a target.
absl::StatusOr<CharacterizeResult> Characterize(const CharacterizeOptions& options);

}  // namespace tracespec::observer

#endif  // TRACESPEC_OBSERVER_CHARACTERIZE_H_

// The source-free implementation-copy check: a test method whose bytecode
// copies the body of a target method (even with renamed locals, comments,
// other formatting or fields turned into locals) is excluded, so that its
// source — the implementation in disguise — is never sent.
//
// Each method body becomes a sequence of normalised opcode tokens: local
// slots, constant values, field, method and class names are dropped; loads
// of locals and fields are one token, stores another; `this` loads, dup/pop,
// conversions and casts are left out; typed variants of an operation are
// one token. The sequence is fingerprinted by winnowing its k-grams
// (k = kCopyGram, window kCopyWindow). A test method (its lambdas count as
// its own) copies a target method when it holds at least kCopyShare of the
// target's fingerprints; targets with fewer than kCopyMinTokens tokens are
// not checked (a getter's three instructions are in every test that calls
// anything).
#ifndef TRACESPEC_OBSERVER_COPY_CHECK_H_
#define TRACESPEC_OBSERVER_COPY_CHECK_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "validator/classfile/class_file.h"
#include "validator/classfile/class_path.h"

namespace tracespec::observer {

inline constexpr int kCopyGram = 5;
inline constexpr int kCopyWindow = 4;
inline constexpr double kCopyShare = 0.7;
inline constexpr size_t kCopyMinTokens = 15;

// The normalised token sequence of a method body.
std::vector<uint8_t> NormalizedTokens(const classfile::Code& code);

// The winnowed fingerprints of a token sequence (empty when shorter than
// kCopyGram).
std::set<uint64_t> Fingerprints(const std::vector<uint8_t>& tokens);

struct CopyFinding {
  // "pkg.T#method": the test method (a lambda is reported as its method).
  std::string test_method;
  // "pkg.C#name(descriptor)": the target method copied.
  std::string target;
  double share = 0;
};

// Compares every method of `test_classes` with every method named by
// `targets` ("pkg.C" → method names; empty set = every method of the
// class), reading both from `class_path`. Sorted by test method.
absl::StatusOr<std::vector<CopyFinding>> FindBytecodeCopies(
    classfile::ClassPath* class_path, const std::vector<std::string>& test_classes,
    const std::map<std::string, std::set<std::string>>& targets);

}  // namespace tracespec::observer

#endif  // TRACESPEC_OBSERVER_COPY_CHECK_H_

// The source-free implementation-copy check: a test whose file's bytecode
// copies the body of a target method (even with renamed locals, comments,
// other formatting or fields turned into locals) is excluded, so that its
// source — the implementation in disguise — is never sent.
//
// Each method body becomes a sequence of normalised opcode tokens: local
// slots, constant values, field, method and class names are dropped; loads
// of locals and fields are one token, stores another; `this` loads, dup/pop,
// conversions and casts are left out; typed variants of an operation are
// one token. The sequence is fingerprinted by winnowing its k-grams
// (k = kCopyGram, window kCopyWindow). A method (its lambdas count as its
// own) copies a target method when it holds at least kCopyShare of the
// target's fingerprints; targets with fewer than kCopyMinTokens tokens are
// not checked (a getter's three instructions are in every test that calls
// anything).
//
// Where copies are looked for: every class compiled from a test class's
// file, not only the test class — its nested, inner, local and anonymous
// classes (a "reference model" class beside the test or inside a test
// method) and any other top-level class of the file. Those are the test
// class's nest (its NestMembers, or the host its NestHost names), the
// classes named `Top$...` on the class path, and the classes of its package
// whose NestHost or SourceFile attribute names the same host or file.
//
// Which tests a copy excludes (observer.cpp): a copy inside a test method
// (or its lambdas) excludes that test. A copy anywhere else in the file —
// a helper method, a nested or local class, a field initializer — excludes
// every test of every class of the file: whether a given test uses it is
// not safely decidable from bytecode (it may reach the copy through a
// field set in a constructor, `@BeforeEach` or a static initializer and
// called through an interface, through another helper, or by reflection),
// so every test of that file is excluded.
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
  // "pkg.T#method" or "pkg.T$Ref#apply": the method holding the copy (a
  // lambda is reported as its method; a field initializer's code as `new`
  // or `static`).
  std::string test_method;
  // "pkg.C#name(descriptor)": the target method copied.
  std::string target;
  double share = 0;
  // Every class compiled from the file `test_method`'s class came from
  // (binary names, sorted): the classes whose tests a copy outside a test
  // method excludes.
  std::vector<std::string> file_classes;
};

// The classes compiled from the file of test class `test_class` (binary
// name; a nested class stands for its file too), as described above,
// found among `listed` (internal names, ClassPath::ListClasses) and the
// nest attributes: binary names, sorted; empty when the class is not on
// `class_path`.
std::vector<std::string> TestFileClasses(classfile::ClassPath* class_path,
                                         const std::string& test_class,
                                         const std::vector<std::string>& listed);

// Compares every method of every class compiled from the files of
// `test_classes` with every method named by `targets` ("pkg.C" → method
// names; empty set = every method of the class), reading both from
// `class_path`. A target class is not compared with itself. Sorted by the
// copying method.
absl::StatusOr<std::vector<CopyFinding>> FindBytecodeCopies(
    classfile::ClassPath* class_path, const std::vector<std::string>& test_classes,
    const std::map<std::string, std::set<std::string>>& targets);

}  // namespace tracespec::observer

#endif  // TRACESPEC_OBSERVER_COPY_CHECK_H_

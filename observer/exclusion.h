// Sensitive-test exclusion: a test whose source or whose
// recorded data mentions a sensitive name is flagged, so that its
// observations serve local validation only and are never sent anywhere.
// Reasons name the sensitive word and where it was seen, never the data.
#ifndef TRACESPEC_OBSERVER_EXCLUSION_H_
#define TRACESPEC_OBSERVER_EXCLUSION_H_

#include <set>
#include <string>
#include <vector>

#include "google/protobuf/repeated_field.h"
#include "tracespec/v1/observation.pb.h"

namespace tracespec::observer {

// The text of method `method`'s declaration (signature and body) in Java
// source `source`, or "" when it is not declared there. Comments and
// string literals are respected when matching braces.
std::string FindMethodSource(const std::string& source, const std::string& method);

// The declarations of method `method` of class `class_name` (binary name,
// "pkg.FooTest" or "pkg.FooTest$Nested") in the Java source `source` of its
// file: looked up in that class's own body only — not in another class of
// the file, a nested, local or anonymous class or a call — so a "reference
// model" class beside the test never stands in for it. For an anonymous or
// local class ("$1"), or a nested one not found as declared, the innermost
// enclosing class found is searched. Overloads: with `descriptor` ("" =
// unknown; a JVM descriptor "(ILjava/lang/String;)V" or its parameters
// "(I)") the declarations with its parameter count, and of those the ones
// whose parameter types spell its types (by simple name, type arguments
// erased) when any do; without it every declaration of that name, in source
// order, joined by a newline — a test id ("pkg.T#m") names every overload,
// and JUnit runs each under it. Each declaration runs from the start of its
// line to its closing brace. "" when none is found.
std::string FindTestMethodSource(const std::string& source, const std::string& class_name,
                                 const std::string& method, const std::string& descriptor = "");

// Why test `test_id` ("pkg.Cls#method") is excluded on account of its
// source under `tests_src` ("" = clean or source not found): the first
// mention of a sensitive name that can carry data
// (common/sensitive_mention.h: in a comment or literal, a value named for
// it, a type or method named for it in a statement that spells data) in
// the text FindTestMethodSource gives for it (every overload), with file
// and line. `plain_names` (may be null): fields recorded only with types no
// secret fits in (PlainValueNames), so `assertEquals(2, bucket.tokens)`
// says nothing about an `int tokens`.
std::string SourceMention(const std::string& tests_src, const std::string& test_id,
                          const google::protobuf::RepeatedPtrField<std::string>& sensitive_names,
                          const std::set<std::string>* plain_names = nullptr);

// Why an observation's recorded strings make its test excluded ("" =
// clean): a recorded string holds a sensitive name as whole words.
std::string DataMention(const v1::Observation& observation,
                        const google::protobuf::RepeatedPtrField<std::string>& sensitive_names);

}  // namespace tracespec::observer

#endif  // TRACESPEC_OBSERVER_EXCLUSION_H_

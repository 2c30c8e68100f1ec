// What the refinement loop needs about one method before the first round:
// the method resolved in the class files (signature with parameter names,
// the class's other members for anonymisation), its observations (excluded
// ones included: they stay local, the prompt builder leaves them out), and
// the source text of the tests that called it.
#ifndef TRACESPEC_AGENT_LOOP_METHOD_INPUTS_H_
#define TRACESPEC_AGENT_LOOP_METHOD_INPUTS_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/gateway/egress_gate.h"
#include "agent/prompt/inputs.h"
#include "tracespec/v1/observation.pb.h"
#include "validator/classfile/class_path.h"

namespace tracespec::loop {

struct MethodInputs {
  // As given ("bank.Account#deposit") and resolved ("bank.Account#deposit(I)V").
  std::string selector;
  std::string resolved;
  // Whether the declaring class is public and top level (a .jml file can
  // then declare it).
  bool class_is_public = false;
  bool class_is_nested = false;
  prompt::PromptInputs prompt;
  // Tests whose observations are in `prompt.observations` but whose source
  // was not found under the tests directory.
  std::vector<std::string> tests_without_source;
  // Literals of the tests' source masked because they are a denied value
  // (MaskDeniedLiterals), and tests whose source was left out because such
  // a literal is written so that it could not be found (escapes, another
  // radix).
  int literals_masked = 0;
  std::vector<std::string> tests_source_withheld;
  // The keys of the values the tests read from denied locations
  // (ObserveSummary.denied_text_keys, denied_number_keys), for the egress
  // gate.
  gateway::DeniedValueKeys denied_keys;
};

// What a test's source becomes before it goes anywhere: every string or
// integer literal whose value run A's probe found equal to a denied value
// it read (ObserveSummary.denied_constants: ConstantKey hashes) is replaced,
// wherever that value's text occurs, by kDeniedLiteral. `unmaskable` is
// set when such a value's text does not occur as written (`\u` escapes,
// a hexadecimal literal): the caller then leaves the source out.
inline constexpr char kDeniedLiteral[] = "<denied value>";
struct MaskedSource {
  std::string text;
  int masked = 0;
  bool unmaskable = false;
};
MaskedSource MaskDeniedLiterals(std::string text, const std::set<uint64_t>& denied_constants);

// Resolves `selector` ("pkg.C#m" or "pkg.C#m(desc)") in `path`, picks
// its observations out of `all_observations` and reads the sources of the
// tests that produced them (one TestSource per test method,
// "pkg.T#method", from `tests_src`/pkg/T.java; `tests_src` may be empty).
// Errors: unknown class or method, an overloaded name without descriptor
// (NotFound / InvalidArgument); no observation of the method
// (FailedPrecondition, naming `observations_path`).
absl::StatusOr<MethodInputs> LoadMethodInputs(const std::string& selector,
                                              classfile::ClassPath& path,
                                              const std::vector<v1::Observation>& all_observations,
                                              const std::string& observations_path,
                                              const std::string& tests_src);

}  // namespace tracespec::loop

#endif  // TRACESPEC_AGENT_LOOP_METHOD_INPUTS_H_

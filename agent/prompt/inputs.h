// What a prompt is built from: the method's signature, the selected tests'
// source text (never the implementation's), the observations, and in later
// rounds the validator's feedback.
#ifndef TRACESPEC_AGENT_PROMPT_INPUTS_H_
#define TRACESPEC_AGENT_PROMPT_INPUTS_H_

#include <string>
#include <vector>

#include "agent/prompt/signature.h"
#include "tracespec/v1/observation.pb.h"

namespace tracespec::prompt {

// Source text of one selected test: a whole class or one method.
struct TestSource {
  // "pkg.SomeTest#method" for one method, "pkg.SomeTest" for a whole class.
  std::string id;
  std::string text;
};

// Names that the inputs do not show but that belong to the code under
// analysis (e.g. the methods and fields the class declares, from bytecode);
// used by anonymisation only.
struct ExtraNames {
  std::vector<std::string> classes;  // binary names
  std::vector<std::string> methods;
  std::vector<std::string> fields;
};

struct PromptInputs {
  MethodSignature signature;
  std::vector<TestSource> tests;
  // Observations of the method. Those marked `excluded` and every test they
  // come from are left out of the prompt.
  std::vector<v1::Observation> observations;
  ExtraNames extra_names;
};

// What validation said about the previous candidate.
struct ValidationFeedback {
  // One line per problem, as the validator words it (parse and type errors
  // with positions, failed checks, bound reached, ...).
  std::vector<std::string> diagnostics;
  // Concrete behaviours the candidate excludes: implementation behaviours
  // from the consistency check and recorded ones from the coverage check.
  // Excluded observations among them are withheld.
  std::vector<v1::Observation> counterexamples;
  // Coverage verdicts left out because they depend on withheld data
  // (agent/loop/withheld_verdicts.h).
  int withheld_verdicts = 0;
  // Counterexample values left out because they change when the denied
  // constants are substituted (agent/loop/feedback.h,
  // WithholdWhatDependsOnConstants).
  int withheld_values = 0;
};

}  // namespace tracespec::prompt

#endif  // TRACESPEC_AGENT_PROMPT_INPUTS_H_

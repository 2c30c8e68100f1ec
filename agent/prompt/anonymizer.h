// Identifier anonymisation: the names of the code under analysis (package,
// classes, method, fields, parameters, test classes and test methods) become
// neutral names (pkg1, C1, m1, f1, a1, T1, t1) consistently across the
// signature, the test sources, the observations and the feedback; answers are
// mapped back. The map stays in the process (it may be saved locally).
//
// Renaming works on whole identifiers ([A-Za-z0-9_] runs; `$` separates
// nested class names) everywhere in a text, including string literals,
// comments and file paths, so a name cannot slip through in an unusual
// place. Dotted package names are replaced as a whole ("com.acme.bank" ->
// "pkg1"). The words hidden names are made of (camelCase and snake_case
// parts of three letters or more, and package components, except generic
// words such as get, set, value, test) are hidden inside any other
// identifier too: with class `Ledger` -> C1, `myLedger` becomes `myC1`,
// `ledgerCents` `c1Cents`, `acme/Ledger.java` `w1/C1.java`; a word that is
// no hidden name by itself gets a neutral word `wN`.
// Java keywords, `length` and the methods of java.lang.Object are never
// renamed; members of library classes that happen to share a renamed name
// are renamed too (consistently, so the tests stay coherent).
#ifndef TRACESPEC_AGENT_PROMPT_ANONYMIZER_H_
#define TRACESPEC_AGENT_PROMPT_ANONYMIZER_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "agent/prompt/inputs.h"
#include "agent/prompt/signature.h"
#include "tracespec/v1/answer.pb.h"
#include "tracespec/v1/observation.pb.h"

namespace tracespec::prompt {

class Anonymizer {
 public:
  // Collects the names to hide from the inputs: the signature's class,
  // method, parameters and (non-library) exceptions; the classes, fields and
  // thrown exceptions of the observations; the test ids' classes and
  // methods; and `extra`. Classes of the JDK, JUnit and opentest4j keep their
  // names. Neutral names are numbered in that order and never collide with
  // an identifier already present in any input.
  static Anonymizer Create(const MethodSignature& signature, const std::vector<TestSource>& tests,
                           const std::vector<v1::Observation>& observations,
                           const ExtraNames& extra = {});

  // Rebuilds an anonymiser from a saved map (e.g. to read old answers).
  static Anonymizer FromMap(const v1::AnonymizationMap& map);

  std::string AnonymizeText(absl::string_view text) const;
  MethodSignature Anonymize(const MethodSignature& signature) const;
  TestSource Anonymize(const TestSource& test) const;
  v1::Observation Anonymize(const v1::Observation& observation) const;

  // Maps neutral names in `text` back to the originals.
  std::string Deanonymize(absl::string_view text) const;

  // The map, sorted by kind then original name; for the local run directory.
  v1::AnonymizationMap ToProto() const;

  // Original identifiers (and dotted package names) that are hidden.
  std::vector<std::string> OriginalNames() const;

 private:
  Anonymizer() = default;
  // Assigns a neutral name to `original` unless it already has one or must
  // keep its name.
  void Add(v1::NameKind kind, const std::string& original);
  void AddClass(absl::string_view binary_name, v1::NameKind kind);
  std::string Replace(absl::string_view text, const std::map<std::string, std::string>& words,
                      const std::vector<std::pair<std::string, std::string>>& dotted) const;
  std::string AnonymizeDescriptor(absl::string_view descriptor) const;
  void AnonymizeValue(v1::Value* value) const;
  // Registers the words of every hidden name (after all names are added).
  void AddSubTokens();
  // `word` with every hidden (or, backwards, neutral) sub-token replaced.
  std::string ReplaceSubTokens(absl::string_view word,
                               const std::map<std::string, std::string>& words) const;

  // identifier -> neutral, neutral -> identifier
  std::map<std::string, std::string> forward_;
  std::map<std::string, std::string> backward_;
  // Dotted packages, longest first: (original, neutral).
  std::vector<std::pair<std::string, std::string>> packages_;
  std::map<std::string, v1::NameKind> kinds_;
  std::map<v1::NameKind, int> counters_;
  // Lower-case hidden word -> lower-case neutral word, and back.
  std::map<std::string, std::string> sub_forward_;
  std::map<std::string, std::string> sub_backward_;
  // Identifiers present in the inputs: neutral names avoid them.
  std::set<std::string> taken_;
};

}  // namespace tracespec::prompt

#endif  // TRACESPEC_AGENT_PROMPT_ANONYMIZER_H_

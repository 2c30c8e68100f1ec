// Prompt construction in two stages plus feedback rounds; see
// prompt_builder.h.
#include "agent/prompt/prompt_builder.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/prompt/observations.h"

namespace tracespec::prompt {
namespace {

std::string TestClassOf(const std::string& test_id) {
  size_t hash = test_id.find('#');
  return hash == std::string::npos ? test_id : test_id.substr(0, hash);
}

constexpr absl::string_view kSystemText =
    R"(You write JML (Java Modeling Language) contracts for one Java method. You never see the method's implementation. Your evidence is its signature, the unit tests that call it, observations recorded while those tests ran, and feedback from a checker that validates your contract against the compiled code within bounds.

Rules:
1. Generalise beyond individual tests only where test assertions, repeated observations or validation feedback support it.
2. State assumptions the evidence does not support as hypotheses, in words; do not encode them as JML clauses.
3. Answer with syntactically valid, non-vacuous JML: clauses that a checker can parse and that do not hold trivially (no `requires false;`, no `ensures true;` as the only postcondition). Use only the parameters, `this` and its fields, `\result`, `\old(...)`, `\forall`, `\exists`, `\num_of` and Java operators. Keep every expression well defined: guard dereferences and array accesses (e.g. `\result != null && \result.length > 0 ==> \result[0] == x`).
4. Use Java semantics exactly: int and long arithmetic wraps around, integer division truncates toward zero, floating-point arithmetic is IEEE 754.
5. Cover exceptional behaviour the evidence shows with `signals` / `signals_only` or an `exceptional_behavior` case, and state what the method may modify with `assignable`.
6. Parameters and results are non-null unless declared nullable (JML's default). When the evidence shows a null argument or result, describe it in a case and end the contract with the method's declaration marking it, e.g. `public int len(/*@ nullable @*/ String s);`.

Answer format: a JSON object {"contract": "...", "hypotheses": ["...", ...]}. "contract" holds the JML annotation of the method, one clause per line, every line starting with //@, for example:
//@ public normal_behavior
//@   requires x >= 0;
//@   ensures \result == x + 1;
//@   assignable \nothing;
If you cannot answer in JSON, put the contract in a ```jml block and list the hypotheses under a line "Hypotheses:".)";

// The system text when the evidence is behaviour captured from a running
// program (`observe -- COMMAND`): no tests exist.
constexpr absl::string_view kCapturedSystemHead =
    R"(You write JML (Java Modeling Language) contracts for one Java method. You never see the method's implementation. No tests exist: your evidence is its signature, observations of its behaviour captured while the program ran, and feedback from a checker that validates your contract against the compiled code within bounds. Propose only contracts the observations support.

Rules:
1. Generalise beyond individual observations only where repeated observations or validation feedback support it.)";

// The fixed sentences of the prompt (TemplateTexts() lists them all).
constexpr absl::string_view kNoTests =
    "No test source is available. Infer what the signature and the observations support, and "
    "state everything else as hypotheses.";
constexpr absl::string_view kStage1Head = "Stage 1: infer an initial contract from the tests.";
constexpr absl::string_view kStage1Tail =
    "Use the tests' inputs and assertions as evidence for preconditions, postconditions, "
    "exceptional behaviour and the locations the method may modify.";
constexpr absl::string_view kNoObservations =
    "No observations are available. Keep only what the tests justify and state the rest as "
    "hypotheses.";
constexpr absl::string_view kStage2Head =
    "Stage 2: refine the contract with the observations recorded while the tests ran. Look for "
    "pre/post relations that repeat across observations and for the observed return values and "
    "exceptions. Weaken or drop clauses an observation contradicts, and add cases for outcomes "
    "the contract does not cover: the contract must admit every observation.";
constexpr absl::string_view kCapturedStage1Head =
    "Stage 1: infer an initial contract from the signature. The evidence is captured behaviour, "
    "not tests: the observations in stage 2 were recorded while the program ran.";
constexpr absl::string_view kCapturedStage2Head =
    "Stage 2: refine the contract with the observations captured while the program ran. Look "
    "for pre/post relations that repeat across observations and for the observed return values "
    "and exceptions. State only what the observations support; weaken or drop clauses an "
    "observation contradicts, and add cases for outcomes the contract does not cover: the "
    "contract must admit every observation.";
constexpr absl::string_view kInitialAsk = "Answer with the initial contract.";
constexpr absl::string_view kRefinedAsk = "Answer with the refined contract.";
constexpr absl::string_view kSingleHead =
    "Work in two stages and answer once, with the contract of stage 2.";
constexpr absl::string_view kFeedbackHead =
    "The checker validated your contract against the compiled method and it failed.";
constexpr absl::string_view kCounterexamplesHead =
    "Counterexamples: behaviours of the implementation or of the tests that the contract "
    "excludes; the revised contract must admit them.";
constexpr absl::string_view kWithheldTail =
    " counterexample(s) from tests that may not be shown were withheld.)";
constexpr absl::string_view kRevise =
    "Revise the contract: keep the clauses the feedback does not contradict, and answer in the "
    "same format.";

std::string RenderTests(const std::vector<TestSource>& tests) {
  if (tests.empty()) {
    return std::string(kNoTests);
  }
  std::vector<std::string> parts;
  for (const TestSource& test : tests) {
    parts.push_back(absl::StrCat("Test ", test.id, ":\n```java\n", test.text,
                                 test.text.empty() || test.text.back() == '\n' ? "" : "\n", "```"));
  }
  return absl::StrJoin(parts, "\n\n");
}

constexpr absl::string_view kNotation =
    "Notation: `oN [tests]: values before the call -> outcome; after: recorded values that "
    "changed`. Paths are JML expressions (this.f, a[0], a.length, \\result.f). `<C>` is a "
    "non-null object of class C whose fields were not recorded; `x==y` means x refers to the "
    "same object as y; `xN` after a test name counts repeated identical calls.";

}  // namespace

absl::StatusOr<PromptBuilder> PromptBuilder::Create(PromptInputs inputs, PromptOptions options) {
  if (inputs.signature.class_name.empty() || inputs.signature.method_name.empty()) {
    return absl::InvalidArgumentError("prompt: the method signature needs a class and a name");
  }
  PromptBuilder b;
  b.options_ = options;

  std::set<std::string> excluded_tests;
  for (const v1::Observation& o : inputs.observations) {
    if (o.excluded() && !o.test_id().empty()) excluded_tests.insert(o.test_id());
  }
  std::set<std::string> excluded_classes;
  for (const std::string& id : excluded_tests) excluded_classes.insert(TestClassOf(id));
  b.excluded_tests_.assign(excluded_tests.begin(), excluded_tests.end());
  // Captured behaviour: observations of a command run carry an entry point
  // and no test; then no test source exists either.
  b.captured_ = inputs.tests.empty() && !inputs.observations.empty();
  for (const v1::Observation& o : inputs.observations) {
    b.captured_ = b.captured_ && o.test_id().empty() && !o.entry_point().empty();
  }

  std::vector<v1::Observation> observations;
  for (v1::Observation& o : inputs.observations) {
    if (o.excluded() || excluded_tests.count(o.test_id()) > 0) continue;
    observations.push_back(std::move(o));
  }
  std::vector<TestSource> tests;
  for (TestSource& t : inputs.tests) {
    bool whole_class = t.id.find('#') == std::string::npos;
    if (excluded_tests.count(t.id) > 0 || (whole_class && excluded_classes.count(t.id) > 0)) {
      continue;
    }
    tests.push_back(std::move(t));
  }
  b.stats_.tests_given = static_cast<int>(inputs.tests.size());
  b.stats_.tests_left_out = static_cast<int>(inputs.tests.size() - tests.size());
  b.stats_.observations_given = static_cast<int>(inputs.observations.size());
  b.stats_.observations_left_out =
      static_cast<int>(inputs.observations.size() - observations.size());

  if (options.anonymize) {
    auto anonymizer = std::make_shared<Anonymizer>(
        Anonymizer::Create(inputs.signature, tests, observations, inputs.extra_names));
    b.signature_ = anonymizer->Anonymize(inputs.signature);
    for (const TestSource& t : tests) b.tests_.push_back(anonymizer->Anonymize(t));
    for (const v1::Observation& o : observations) {
      b.observations_.push_back(anonymizer->Anonymize(o));
    }
    b.anonymizer_ = std::move(anonymizer);
  } else {
    b.signature_ = std::move(inputs.signature);
    b.tests_ = std::move(tests);
    b.observations_ = std::move(observations);
  }

  std::vector<std::string> test_texts;
  for (const TestSource& t : b.tests_) test_texts.push_back(t.text);
  b.disclosure_ = std::make_shared<StringDisclosure>(options.string_disclosure, test_texts);

  std::vector<std::string> param_names;
  for (const Parameter& p : b.signature_.params) param_names.push_back(p.name);
  ObservationSummary summary = SummarizeObservations(
      b.observations_, "o", options.observation_token_budget, param_names, b.disclosure_.get());
  b.observations_text_ = summary.text;
  b.stats_.observations_distinct = summary.distinct;
  b.stats_.observations_shown = summary.shown;
  return b;
}

std::string PromptBuilder::SystemText() const {
  if (!captured_) return std::string(kSystemText);
  // The tests' rule 1 replaced; the other rules and the answer format kept.
  absl::string_view rest = kSystemText.substr(kSystemText.find("\n2. "));
  return absl::StrCat(kCapturedSystemHead, rest);
}

std::vector<std::string> PromptBuilder::TemplateTexts() {
  std::vector<std::string> out;
  for (absl::string_view text :
       {kSystemText, kNotation, kNoTests, kStage1Head, kStage1Tail, kNoObservations, kStage2Head,
        kCapturedSystemHead, kCapturedStage1Head, kCapturedStage2Head, kInitialAsk, kRefinedAsk, kSingleHead, kFeedbackHead, kCounterexamplesHead, kWithheldTail,
        kRevise}) {
    out.emplace_back(text);
  }
  return out;
}

std::string PromptBuilder::Stage1Text() const {
  std::string method = absl::StrCat(
      "Method under test (class ", JavaTypeFromBinaryName(signature_.class_name),
      ", JVM descriptor ", signature_.jvm_descriptor, "):\n    ", RenderDeclaration(signature_));
  if (captured_) return absl::StrCat(kCapturedStage1Head, "\n\n", method);
  return absl::StrCat(kStage1Head, "\n\n", method, "\n\n", RenderTests(tests_), "\n\n",
                      kStage1Tail);
}

std::string PromptBuilder::Stage2Text() const {
  std::string evidence;
  if (observations_.empty()) {
    evidence = std::string(kNoObservations);
  } else {
    evidence = absl::StrCat(kNotation, "\n\nObservations (",
                            stats_.observations_given - stats_.observations_left_out, " calls, ",
                            stats_.observations_distinct, " distinct behaviours",
                            stats_.observations_shown < stats_.observations_distinct
                                ? absl::StrCat(", ", stats_.observations_shown, " shown")
                                : "",
                            "):\n", observations_text_);
  }
  return absl::StrCat(captured_ ? kCapturedStage2Head : kStage2Head, "\n\n", evidence);
}

std::vector<ChatMessage> PromptBuilder::Stage1Messages() const {
  return {{Role::kSystem, SystemText()},
          {Role::kUser, absl::StrCat(Stage1Text(), "\n\n", kInitialAsk)}};
}

ChatMessage PromptBuilder::Stage2Message() const {
  return {Role::kUser, absl::StrCat(Stage2Text(), "\n\n", kRefinedAsk)};
}

std::vector<ChatMessage> PromptBuilder::SingleRequestMessages() const {
  return {{Role::kSystem, SystemText()},
          {Role::kUser, absl::StrCat(kSingleHead, "\n\n", Stage1Text(), "\n\n",
                                     Stage2Text())}};
}

bool PromptBuilder::LeftOut(const v1::Observation& o) const {
  return o.excluded() ||
         std::find(excluded_tests_.begin(), excluded_tests_.end(), o.test_id()) !=
             excluded_tests_.end();
}

bool PromptBuilder::HidesText(const std::string& text, bool by_shape) const {
  return disclosure_->Hides(anonymizer_ ? anonymizer_->AnonymizeText(text) : text, by_shape);
}

ChatMessage PromptBuilder::FeedbackMessage(const ValidationFeedback& feedback) const {
  std::vector<v1::Observation> counterexamples;
  int withheld = 0;
  for (const v1::Observation& o : feedback.counterexamples) {
    if (LeftOut(o)) {
      ++withheld;
      continue;
    }
    counterexamples.push_back(anonymizer_ ? anonymizer_->Anonymize(o) : o);
  }
  std::string text(kFeedbackHead);
  // Counterexamples first: the diagnostics may quote their strings, which
  // are then masked with the same aliases.
  ObservationSummary summary;
  if (!counterexamples.empty()) {
    std::vector<std::string> param_names;
    for (const Parameter& p : signature_.params) param_names.push_back(p.name);
    summary = SummarizeObservations(counterexamples, "c", options_.counterexample_token_budget,
                                    param_names, disclosure_.get());
  }
  if (!feedback.diagnostics.empty()) {
    absl::StrAppend(&text, "\n\nDiagnostics:");
    for (const std::string& d : feedback.diagnostics) {
      absl::StrAppend(&text, "\n- ",
                      disclosure_->MaskText(anonymizer_ ? anonymizer_->AnonymizeText(d) : d));
    }
  }
  if (!counterexamples.empty()) {
    absl::StrAppend(&text,
                    "\n\n", kCounterexamplesHead, " ", kNotation, "\n", summary.text);
  }
  if (withheld > 0) {
    absl::StrAppend(&text, "\n\n(", withheld, kWithheldTail);
  }
  absl::StrAppend(&text, "\n\n", kRevise);
  return {Role::kUser, text};
}

ChatMessage PromptBuilder::AssistantMessage(std::string answer_text) {
  return {Role::kAssistant, std::move(answer_text)};
}

absl::StatusOr<ContractAnswer> PromptBuilder::ReadAnswer(absl::string_view answer_text) const {
  auto answer = ParseAnswer(answer_text);
  if (!answer.ok() || anonymizer_ == nullptr) return answer;
  answer->jml = anonymizer_->Deanonymize(answer->jml);
  for (std::string& h : answer->hypotheses) h = anonymizer_->Deanonymize(h);
  return answer;
}

}  // namespace tracespec::prompt

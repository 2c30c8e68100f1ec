// What the model is told about a report: diagnostics and counterexamples,
// never values of excluded observations or of redacted fields.
#include "agent/loop/feedback.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/agent/observation_builders.h"
#include "tests/testing/testing.h"

namespace tracespec::loop {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::tracespec::testing::CompileJava;
using ::tracespec::testing::TempDir;

TEST(FeedbackTest, ExcludedObservationsStayLocal) {
  check::ValidationReport report;
  report.consistency.status = check::CheckStatus::kPass;
  report.coverage.status = check::CheckStatus::kFail;
  report.coverage.summary = "1 of 3 observations admitted";
  v1::Observation shown = testing::Deposit("bank.T#ok", 5, 10, 15);
  v1::Observation hidden = testing::Deposit("bank.T#secret", 77, 10, 87);
  hidden.set_excluded(true);
  report.coverage.counterexamples = {shown, hidden};
  report.coverage.explanations = {"amount = 5 rejected", "amount = 77 rejected"};
  check::Diagnostic d1;
  d1.kind = check::Diagnostic::Kind::kViolated;
  d1.message = "observation of bank.T#ok rejected";
  d1.counterexamples = {0};
  check::Diagnostic d2 = d1;
  d2.message = "observation of bank.T#secret with amount 77 rejected";
  d2.counterexamples = {1};
  report.coverage.diagnostics = {d1, d2};

  prompt::ValidationFeedback feedback = FeedbackFromReport(report);
  std::string all;
  for (const std::string& line : feedback.diagnostics) all += line + "\n";
  EXPECT_THAT(all, HasSubstr("coverage: 1 of 3 observations admitted"));
  EXPECT_THAT(all, HasSubstr("bank.T#ok rejected"));
  EXPECT_THAT(all, HasSubstr("amount = 5 rejected"));
  EXPECT_THAT(all, HasSubstr("fails on an observation that may not be shown"));
  EXPECT_THAT(all, Not(HasSubstr("77")));
  EXPECT_THAT(all, Not(HasSubstr("secret")));
  // The counterexample itself goes on: the prompt builder withholds it.
  EXPECT_EQ(feedback.counterexamples.size(), 2u);
  EXPECT_FALSE(NotCheckable(report));
}

TEST(FeedbackTest, SolverCounterexamplesWithholdFieldsTheRecordingRedacted) {
  std::vector<v1::Observation> recorded = {testing::Deposit("bank.T#ok", 5, 10, 15)};
  v1::Observation made_up = testing::Deposit("", 1, 0, 1);
  made_up.set_source(v1::COUNTEREXAMPLE);
  *made_up.mutable_pre(0)->mutable_fields(2)->mutable_value() = testing::StringValue("1234");
  prompt::ValidationFeedback feedback;
  feedback.counterexamples = {made_up};
  feedback.diagnostics = {"coverage: assignable: field 'pin' may have changed; pins ok"};
  WithholdLikeRecorded(recorded, &feedback);
  const v1::Field& pin = feedback.counterexamples[0].pre(0).fields(2);
  EXPECT_EQ(pin.name(), "pin");
  EXPECT_TRUE(pin.value().has_redacted());
  EXPECT_EQ(feedback.counterexamples[0].pre(0).fields(0).value().int_value(), 0);  // balance
  EXPECT_EQ(feedback.diagnostics[0],
            "coverage: assignable: field '<withheld>' may have changed; pins ok");
}

TEST(FeedbackTest, InlinedConstantsOfDeniedFinalFieldsAreMasked) {
  TempDir dir;
  std::string classes = CompileJava(dir, {{"p/Lock.java", R"(package p;
public class Lock {
  private final int pin = 73915;
  private static final String MASTER_KEY = "mk-4471";
  private final int tries = 3;
  private final long serial = 99887766L;
  public boolean unlock(int code) { return code == pin || String.valueOf(code).equals(MASTER_KEY); }
}
)"}});
  auto class_path = classfile::ClassPath::Create(classes);
  ASSERT_TRUE(class_path.ok()) << class_path.status();
  v1::RedactionPolicy policy;
  policy.add_deny("pin");
  policy.add_deny("*key*");
  policy.add_deny("tries");  // Denied, but 3 is not distinctive.
  std::vector<v1::Value> constants = DeniedConstants(&*class_path, "p.Lock", policy);
  ASSERT_EQ(constants.size(), 2u);
  EXPECT_EQ(constants[0].int_value(), 73915);
  EXPECT_EQ(constants[1].string_value(), "mk-4471");

  prompt::ValidationFeedback feedback;
  v1::Observation cx;
  cx.add_args()->set_int_value(73915);
  cx.add_args()->set_long_value(73915);
  cx.add_args()->set_int_value(739150);
  cx.add_args()->set_string_value("x-mk-4471");
  cx.mutable_outcome()->mutable_returned()->set_int_value(3);
  feedback.counterexamples = {cx};
  feedback.diagnostics = {"consistency counterexample 1: code = 73915, -73915, 739150, 73915.5, s = \"mk-4471\""};
  EXPECT_EQ(MaskConstants(constants, &feedback), 3 + 3);
  const v1::Observation& masked = feedback.counterexamples[0];
  EXPECT_TRUE(masked.args(0).has_redacted());
  EXPECT_TRUE(masked.args(1).has_redacted());
  EXPECT_EQ(masked.args(2).int_value(), 739150);
  EXPECT_TRUE(masked.args(3).has_redacted());
  EXPECT_EQ(masked.outcome().returned().int_value(), 3);
  EXPECT_EQ(feedback.diagnostics[0],
            "consistency counterexample 1: code = <withheld>, <withheld>, 739150, 73915.5, s = "
            "\"<withheld>\"");
  EXPECT_EQ(MaskConstants({}, &feedback), 0);
}

TEST(FeedbackTest, DeniedConstantsOfImplementedInterfacesAreMaskedToo) {
  // javac inlines an interface's constant into its implementors' code as
  // well; before, only the class and its superclasses were read, and the
  // unlock code went out as a counterexample value.
  TempDir dir;
  std::string classes = CompileJava(dir, {{"p/Codes.java", R"(package p;
public interface Codes extends Secrets {
  int RETRIES = 5;
}
)"},
                                          {"p/Secrets.java", R"(package p;
public interface Secrets {
  int UNLOCK_PIN = 60417;
}
)"},
                                          {"p/Base.java", R"(package p;
public abstract class Base implements Comparable<Base> {
  public int compareTo(Base o) { return 0; }
}
)"},
                                          {"p/Door.java", R"(package p;
public class Door extends Base implements Codes {
  public boolean open(int code) { return code == UNLOCK_PIN; }
}
)"}});
  auto class_path = classfile::ClassPath::Create(classes);
  ASSERT_TRUE(class_path.ok()) << class_path.status();
  v1::RedactionPolicy policy;
  policy.add_deny("*pin*");
  std::vector<v1::Value> constants = DeniedConstants(&*class_path, "p.Door", policy);
  ASSERT_EQ(constants.size(), 1u);
  EXPECT_EQ(constants[0].int_value(), 60417);
  prompt::ValidationFeedback feedback;
  v1::Observation cx;
  cx.add_args()->set_int_value(60417);
  feedback.counterexamples = {cx};
  EXPECT_EQ(MaskConstants(constants, &feedback), 1);
  EXPECT_TRUE(feedback.counterexamples[0].args(0).has_redacted());
}

TEST(FeedbackTest, ConstantsJavacFoldedFromDeniedOnesAreFoundByCompilingAgain) {
  // `code == PIN + 1` compiles to the literal 71605: masking by the denied
  // value alone let the counterexample `code = 71605` go back to the model
  // (bench/privacy, pin_plus_one). An interface's constant folded into the
  // code, and a string built from a denied one, are found the same way.
  TempDir dir;
  const std::map<std::string, std::string> sources = {
      {"p/Dial.java", R"(package p;
public class Dial implements Codes {
  private static final int PIN = 71604;
  private static final String MASTER_KEY = "mk-4471";
  public int turns;
  public boolean open(int code) { turns++; return code == PIN + 1 || code == RECOVERY_PIN * 2; }
  public String label() { return "key:" + MASTER_KEY; }
  public long limit() { return 5000000000L; }
}
)"},
      {"p/Codes.java", R"(package p;
public interface Codes {
  int RECOVERY_PIN = 55001;
}
)"}};
  std::string classes = CompileJava(dir, sources);
  ASSERT_FALSE(classes.empty());
  std::string src = dir.path() + "/src";
  for (const auto& [path, text] : sources) {
    ASSERT_TRUE(MakeDirs(src + "/p").ok());
    ASSERT_TRUE(WriteFileAtomic(src + "/" + path, text).ok());
  }
  auto class_path = classfile::ClassPath::Create(classes);
  ASSERT_TRUE(class_path.ok()) << class_path.status();
  v1::RedactionPolicy policy;
  policy.add_deny("*pin*");
  policy.add_deny("*key*");
  absl::StatusOr<std::vector<v1::Value>> derived =
      DerivedConstants(&*class_path, classes, "p.Dial", policy, {src});
  ASSERT_TRUE(derived.ok()) << derived.status();
  std::vector<std::string> found;
  for (const v1::Value& v : *derived) {
    found.push_back(v.has_string_value() ? v.string_value() : absl::StrCat(v.int_value()));
  }
  std::sort(found.begin(), found.end());
  // PIN + 1, RECOVERY_PIN * 2 and the folded label, and PIN's and
  // MASTER_KEY's own values (their ConstantValue changes too); not the
  // unrelated long.
  EXPECT_THAT(found, ::testing::UnorderedElementsAre("110002", "71604", "71605", "key:mk-4471",
                                                     "mk-4471"));
  // The counterexample of pin_plus_one is masked with them.
  prompt::ValidationFeedback feedback;
  v1::Observation cx;
  cx.add_args()->set_int_value(71605);
  feedback.counterexamples = {cx};
  EXPECT_EQ(MaskConstants(*derived, &feedback), 1);
  // Without the sources: an error the caller reports, not a silent pass.
  EXPECT_FALSE(DerivedConstants(&*class_path, classes, "p.Dial", policy, {dir.path() + "/none"}).ok());
  // Nothing denied: nothing to compile.
  v1::RedactionPolicy none;
  auto nothing = DerivedConstants(&*class_path, classes, "p.Dial", none, {src});
  ASSERT_TRUE(nothing.ok());
  EXPECT_TRUE(nothing->empty());
}

TEST(FeedbackTest, SmallDerivedNumbersInTheCodeAreFoundToo) {
  // An int up to 32767 is compiled into a `sipush`, not the constant pool:
  // `code == LOCK + 1` with LOCK = 4821 holds 4822 only in the code, and
  // went back to the model unmasked. 3000, which does not come from the
  // denied constant, stays.
  TempDir dir;
  const std::map<std::string, std::string> sources = {{"p/Latch.java", R"(package p;
public class Latch {
  private static final int LOCK_PIN = 4821;
  public boolean open(int code) { return code == LOCK_PIN + 1; }
  public int budget(int turns) { return turns * 3000; }
}
)"}};
  std::string classes = CompileJava(dir, sources);
  ASSERT_FALSE(classes.empty());
  std::string src = dir.path() + "/src";
  ASSERT_TRUE(MakeDirs(src + "/p").ok());
  ASSERT_TRUE(WriteFileAtomic(src + "/p/Latch.java", sources.at("p/Latch.java")).ok());
  auto class_path = classfile::ClassPath::Create(classes);
  ASSERT_TRUE(class_path.ok()) << class_path.status();
  v1::RedactionPolicy policy;
  policy.add_deny("*pin*");
  absl::StatusOr<std::vector<v1::Value>> derived =
      DerivedConstants(&*class_path, classes, "p.Latch", policy, {src});
  ASSERT_TRUE(derived.ok()) << derived.status();
  std::vector<int32_t> found;
  for (const v1::Value& v : *derived) found.push_back(v.int_value());
  EXPECT_THAT(found, ::testing::UnorderedElementsAre(4821, 4822));
  prompt::ValidationFeedback feedback;
  v1::Observation cx;
  cx.add_args()->set_int_value(4822);
  v1::Observation other;
  other.add_args()->set_int_value(3000);
  feedback.counterexamples = {cx, other};
  EXPECT_EQ(MaskConstants(*derived, &feedback), 1);
  EXPECT_TRUE(feedback.counterexamples[0].args(0).has_redacted());
  EXPECT_EQ(feedback.counterexamples[1].args(0).int_value(), 3000);
}

TEST(FeedbackTest, ValuesComputedFromADeniedConstantAtRunTimeAreWithheld) {
  // `code - 17 == PIN` is arithmetic at run time: no constant of the class
  // holds PIN + 17, so neither DeniedConstants nor DerivedConstants masks
  // the counterexample `code = 73932` of a contract that says the dial
  // never opens, and the PIN is one subtraction away. Solved again with
  // PIN substituted, the counterexample's code changes: it is withheld.
  // A method that does not read them keeps its counterexample as it was.
  TempDir dir;
  std::string classes = CompileJava(dir, {{"p/Dial.java", R"(package p;
public class Dial {
  private static final int PIN = 73915;
  private static final long ACCOUNT_KEY = 5000000017L;
  public boolean open(int code) { return code - 17 == PIN; }
  public boolean owns(long number) { return number + 1000 == ACCOUNT_KEY; }
  public int twice(int x) { return 2 * x; }
}
)"}});
  ASSERT_FALSE(classes.empty());
  auto class_path = classfile::ClassPath::Create(classes);
  ASSERT_TRUE(class_path.ok()) << class_path.status();
  v1::RedactionPolicy policy;
  policy.add_deny("*pin*");
  policy.add_deny("*key*");
  std::vector<v1::Value> constants = DeniedConstants(&*class_path, "p.Dial", policy);
  ASSERT_EQ(constants.size(), 2u);
  auto validator = check::Validator::Create(classes);
  ASSERT_TRUE(validator.ok()) << validator.status();

  auto feedback_of = [&](const std::string& method, const std::string& contract,
                         check::ValidateRequest* request, check::ValidationReport* report) {
    request->method = method;
    request->contract = contract;
    absl::StatusOr<check::ValidationReport> r = (*validator)->Validate(*request);
    EXPECT_TRUE(r.ok()) << r.status();
    *report = *r;
    prompt::ValidationFeedback feedback = FeedbackFromReport(*report);
    MaskConstants(constants, &feedback);
    return feedback;
  };

  check::ValidateRequest open;
  check::ValidationReport opened;
  prompt::ValidationFeedback feedback =
      feedback_of("p.Dial#open", "//@ ensures \\result == false;", &open, &opened);
  ASSERT_EQ(opened.consistency.status, check::CheckStatus::kFail);
  ASSERT_FALSE(feedback.counterexamples.empty());
  // Before: the code that opens the dial goes back as it is.
  ASSERT_EQ(feedback.counterexamples[0].args(0).int_value(), 73932);
  EXPECT_THAT(absl::StrJoin(feedback.diagnostics, "\n"), HasSubstr("arg0 = 73932"));
  EXPECT_GE(WithholdWhatDependsOnConstants(validator->get(), open, opened.consistency, constants,
                                           &feedback),
            1);
  EXPECT_TRUE(feedback.counterexamples[0].args(0).has_redacted());
  for (const std::string& line : feedback.diagnostics) EXPECT_THAT(line, Not(HasSubstr("73932")));

  // A long the same way.
  check::ValidateRequest owns;
  check::ValidationReport owned;
  feedback = feedback_of("p.Dial#owns", "//@ ensures \\result == false;", &owns, &owned);
  ASSERT_EQ(owned.consistency.status, check::CheckStatus::kFail);
  ASSERT_FALSE(feedback.counterexamples.empty());
  ASSERT_EQ(feedback.counterexamples[0].args(0).long_value(), 4999999017L);
  EXPECT_GE(WithholdWhatDependsOnConstants(validator->get(), owns, owned.consistency, constants,
                                           &feedback),
            1);
  EXPECT_TRUE(feedback.counterexamples[0].args(0).has_redacted());
  for (const std::string& line : feedback.diagnostics) {
    EXPECT_THAT(line, Not(HasSubstr("4999999017")));
  }

  // A method that does not read them: nothing withheld.
  check::ValidateRequest twice;
  check::ValidationReport doubled;
  feedback = feedback_of("p.Dial#twice", "//@ ensures \\result == 0;", &twice, &doubled);
  ASSERT_EQ(doubled.consistency.status, check::CheckStatus::kFail);
  prompt::ValidationFeedback unchanged = feedback;
  EXPECT_EQ(WithholdWhatDependsOnConstants(validator->get(), twice, doubled.consistency,
                                           constants, &feedback),
            0);
  ASSERT_EQ(feedback.counterexamples.size(), unchanged.counterexamples.size());
  EXPECT_EQ(feedback.counterexamples[0].DebugString(), unchanged.counterexamples[0].DebugString());
  // No constant: nothing is solved again.
  EXPECT_EQ(WithholdWhatDependsOnConstants(validator->get(), open, opened.consistency, {},
                                           &feedback),
            0);
}

TEST(FeedbackTest, AClauseTheSolverCouldNotDecideIsNamedToTheSynthesizer) {
  // Before, a timeout was only prose in the summary: the oracle named no
  // clause, so the synthesizer could not drop it and kept the whole
  // contract UNKNOWN for all its rounds (bench task lcm: 475 s, no contract).
  TempDir dir;
  std::string classes = CompileJava(dir, {{"p/Multiples.java", R"(package p;
public class Multiples {
  public long lcm(int a, int b) {
    if (a <= 0 || b <= 0) throw new IllegalArgumentException();
    int x = a, y = b;
    while (y != 0) { int r = x % y; x = y; y = r; }
    return (long) a / x * b;
  }
}
)"}},
                                    {"-g"});
  ASSERT_FALSE(classes.empty());
  auto validator = check::Validator::Create(classes);
  ASSERT_TRUE(validator.ok()) << validator.status();
  check::ValidateRequest base;
  base.method = "p.Multiples#lcm";
  base.timeout_seconds = 2;
  base.deepen = false;
  ValidatorOracle oracle(validator->get(), base);
  synth::OracleVerdict v = oracle.Check(
      "//@ public normal_behavior\n"
      "//@   requires a > 0 && b > 0;\n"
      "//@   ensures \\result >= a;\n");
  ASSERT_EQ(v.kind, synth::OracleVerdict::Kind::kUnknown) << v.message;
  EXPECT_THAT(v.message, HasSubstr("timeout"));
  ASSERT_EQ(v.failing_clauses.size(), 1u) << v.message;
  EXPECT_EQ(v.failing_clauses[0].line, 3);
}

TEST(FeedbackTest, SyntaxAndTypeErrorsMakeACandidateUncheckable) {
  check::ValidationReport report;
  report.consistency.status = check::CheckStatus::kError;
  report.coverage.status = check::CheckStatus::kError;
  check::Diagnostic d;
  d.kind = check::Diagnostic::Kind::kType;
  d.message = "no field 'balanse' in bank.Account";
  report.consistency.diagnostics = {d};
  EXPECT_TRUE(NotCheckable(report));
  report.consistency.diagnostics[0].kind = check::Diagnostic::Kind::kWellDefinedness;
  EXPECT_FALSE(NotCheckable(report));
}

TEST(FeedbackTest, AnUnsupportedConstructInTheContractMakesACandidateUncheckable) {
  check::ValidationReport report;
  report.consistency.status = check::CheckStatus::kUnknown;
  check::Diagnostic d;
  d.kind = check::Diagnostic::Kind::kUnsupported;
  d.message = "unsupported: \\reach";
  report.consistency.diagnostics = {d};
  // Unsupported bytecode reached by the execution (no clause): checkable.
  EXPECT_FALSE(NotCheckable(report));
  report.consistency.diagnostics[0].span.line = 3;
  report.consistency.diagnostics[0].span.column = 13;
  EXPECT_TRUE(NotCheckable(report));
}

}  // namespace
}  // namespace tracespec::loop

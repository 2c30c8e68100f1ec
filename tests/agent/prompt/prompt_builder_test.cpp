// Tests for agent/prompt/prompt_builder.h: what goes into the messages and
// what stays out.
#include "agent/prompt/prompt_builder.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "agent/prompt/observations.h"
#include "gtest/gtest.h"
#include "tests/agent/observation_builders.h"

namespace tracespec::prompt {
namespace {

using testing::Deposit;

constexpr char kDepositTest[] = R"(@Test
void depositAddsAmount() {
  Account account = new Account("ann", 10);
  assertEquals(15, account.deposit(5));
})";

constexpr char kSensitiveTest[] = R"(@Test
void depositWithPinCheck() {
  Account account = new Account("bob", 31337);
  account.deposit(7777);
})";

PromptInputs Inputs() {
  PromptInputs in;
  in.signature = *SignatureFromDescriptor("bank.Account", "deposit", "(I)I", false, {"amount"});
  in.signature.exceptions = {"java.lang.IllegalArgumentException"};
  in.tests = {{"bank.AccountTest#depositAddsAmount", kDepositTest},
              {"bank.AccountTest#depositWithPinCheck", kSensitiveTest}};
  in.observations = {
      Deposit("bank.AccountTest#depositAddsAmount", 5, 10, 15),
      Deposit("bank.AccountTest#depositAddsAmount", 5, 10, 15),
      Deposit("bank.AccountTest#negative", -1, 10, 10, "java.lang.IllegalArgumentException")};
  v1::Observation sensitive = Deposit("bank.AccountTest#depositWithPinCheck", 7777, 31337, 39114);
  sensitive.set_excluded(true);
  sensitive.set_excluded_reason("mentions pin");
  in.observations.push_back(sensitive);
  // Another call from the same test, not marked itself: it goes too.
  in.observations.push_back(Deposit("bank.AccountTest#depositWithPinCheck", 1, 0, 4242));
  return in;
}

std::string AllText(const std::vector<ChatMessage>& messages) {
  std::string out;
  for (const ChatMessage& m : messages) absl::StrAppend(&out, m.content, "\n");
  return out;
}

TEST(PromptBuilderTest, StageOneHasSignatureRulesAndTests) {
  auto b = PromptBuilder::Create(Inputs());
  ASSERT_TRUE(b.ok()) << b.status();
  std::vector<ChatMessage> m = b->Stage1Messages();
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].role, Role::kSystem);
  EXPECT_EQ(m[1].role, Role::kUser);
  EXPECT_TRUE(absl::StrContains(m[0].content, "Generalise beyond individual tests only where"));
  EXPECT_TRUE(absl::StrContains(m[0].content, "as hypotheses"));
  EXPECT_TRUE(absl::StrContains(m[0].content, "non-vacuous"));
  EXPECT_TRUE(absl::StrContains(m[1].content,
                                "public int deposit(int amount) throws IllegalArgumentException"));
  EXPECT_TRUE(absl::StrContains(m[1].content, "JVM descriptor (I)I"));
  EXPECT_TRUE(absl::StrContains(m[1].content, kDepositTest));
  // Stage 1 holds no observations.
  EXPECT_FALSE(absl::StrContains(m[1].content, "o1 ["));
}

TEST(PromptBuilderTest, ExcludedTestsAndTheirObservationsStayOut) {
  auto b = PromptBuilder::Create(Inputs());
  ASSERT_TRUE(b.ok());
  std::vector<ChatMessage> all = b->Stage1Messages();
  all.push_back(b->Stage2Message());
  all.push_back(b->FeedbackMessage({}));
  std::string text = AllText(all) + AllText(b->SingleRequestMessages());
  for (const char* leak : {"depositWithPinCheck", "7777", "31337", "39114", "4242", "bob", "pin"}) {
    EXPECT_FALSE(absl::StrContains(text, leak)) << leak;
  }
  EXPECT_EQ(b->stats().tests_given, 2);
  EXPECT_EQ(b->stats().tests_left_out, 1);
  EXPECT_EQ(b->stats().observations_given, 5);
  EXPECT_EQ(b->stats().observations_left_out, 2);
  EXPECT_EQ(b->stats().observations_distinct, 2);
}

TEST(PromptBuilderTest, StageTwoShowsObservations) {
  auto b = PromptBuilder::Create(Inputs());
  ASSERT_TRUE(b.ok());
  std::string text = b->Stage2Message().content;
  EXPECT_TRUE(absl::StrContains(text, "Observations (3 calls, 2 distinct behaviours):"));
  EXPECT_TRUE(absl::StrContains(
      text, "o1 [bank.AccountTest#depositAddsAmount x2]: amount=5, this.balance=10"));
  EXPECT_TRUE(absl::StrContains(text, "throws java.lang.IllegalArgumentException"));
  EXPECT_TRUE(absl::StrContains(text, "must admit every observation"));
}

TEST(PromptBuilderTest, CapturedBehaviourIsNamedAsTheEvidence) {
  // Observations of `observe -- COMMAND`: an entry point, no test.
  PromptInputs in;
  in.signature = *SignatureFromDescriptor("bank.Account", "deposit", "(I)I", false, {"amount"});
  for (int amount : {5, 6}) {
    v1::Observation o = Deposit("", amount, 10, 10 + amount);
    o.set_entry_point("legacy.Main#main");
    in.observations.push_back(o);
  }
  auto b = PromptBuilder::Create(in);
  ASSERT_TRUE(b.ok()) << b.status();
  std::string text = AllText(b->SingleRequestMessages());
  EXPECT_TRUE(absl::StrContains(text, "No tests exist: your evidence is its signature, "
                                      "observations of its behaviour captured while the program "
                                      "ran"));
  EXPECT_TRUE(absl::StrContains(text, "Propose only contracts the observations support."));
  EXPECT_TRUE(absl::StrContains(text, "The evidence is captured behaviour, not tests"));
  EXPECT_TRUE(absl::StrContains(text, "State only what the observations support"));
  EXPECT_FALSE(absl::StrContains(text, "unit tests that call it"));
  EXPECT_FALSE(absl::StrContains(text, "No test source is available"));
  // The other rules and the answer format stay.
  EXPECT_TRUE(absl::StrContains(text, "2. State assumptions the evidence does not support"));
  EXPECT_TRUE(absl::StrContains(text, "Answer format: a JSON object"));

  // Observations from tests keep the tests' wording.
  std::string tests = AllText(PromptBuilder::Create(Inputs())->SingleRequestMessages());
  EXPECT_FALSE(absl::StrContains(tests, "captured"));
}

TEST(PromptBuilderTest, FeedbackCarriesDiagnosticsAndCounterexamples) {
  auto b = PromptBuilder::Create(Inputs());
  ASSERT_TRUE(b.ok());
  ValidationFeedback fb;
  fb.diagnostics = {"consistency: ensures clause 2 fails for amount=2147483647"};
  v1::Observation cex = Deposit("", 2147483647, 1, -2147483648);
  cex.set_source(v1::COUNTEREXAMPLE);
  fb.counterexamples = {cex};
  v1::Observation hidden = Deposit("bank.AccountTest#depositWithPinCheck", 9, 31337, 31346);
  fb.counterexamples.push_back(hidden);
  std::string text = b->FeedbackMessage(fb).content;
  EXPECT_TRUE(absl::StrContains(text, "- consistency: ensures clause 2 fails"));
  EXPECT_TRUE(absl::StrContains(text, "c1 [unattributed]: amount=2147483647, this.balance=1"));
  EXPECT_TRUE(absl::StrContains(text, "1 counterexample(s) from tests that may not be shown"));
  EXPECT_FALSE(absl::StrContains(text, "31337"));
}

TEST(PromptBuilderTest, AnonymisedPromptsHideNamesAndAnswersComeBack) {
  PromptOptions options;
  options.anonymize = true;
  auto b = PromptBuilder::Create(Inputs(), options);
  ASSERT_TRUE(b.ok());
  ASSERT_NE(b->anonymizer(), nullptr);
  std::vector<ChatMessage> all = b->Stage1Messages();
  all.push_back(b->Stage2Message());
  std::string text = AllText(all);
  for (const char* name : {"Account", "deposit", "amount", "balance", "owner", "bank."}) {
    EXPECT_FALSE(absl::StrContains(text, name)) << name;
  }
  auto answer = b->ReadAnswer(R"({"contract": "//@ ensures this.f1 == \\old(this.f1) + a1;",
                                  "hypotheses": ["m1 is only called with a1 > 0"]})");
  ASSERT_TRUE(answer.ok()) << answer.status();
  EXPECT_EQ(answer->jml, "//@ ensures this.balance == \\old(this.balance) + amount;");
  EXPECT_EQ(answer->hypotheses[0], "deposit is only called with amount > 0");
}

TEST(PromptBuilderTest, ManyObservationsAreSummarisedToTheBudget) {
  PromptInputs in = Inputs();
  for (int i = 0; i < 500; ++i) {
    in.observations.push_back(Deposit("bank.AccountTest#bulk", i + 10, i, 2 * i + 10));
  }
  PromptOptions options;
  options.observation_token_budget = 600;
  auto b = PromptBuilder::Create(in, options);
  ASSERT_TRUE(b.ok());
  std::string text = b->Stage2Message().content;
  EXPECT_LT(EstimateTokens(text), 600 + 300);  // the budget plus the fixed instructions
  EXPECT_TRUE(absl::StrContains(text, "throws java.lang.IllegalArgumentException"));
  EXPECT_TRUE(absl::StrContains(text, "more distinct behaviours omitted"));
  EXPECT_LT(b->stats().observations_shown, b->stats().observations_distinct);
}

TEST(PromptBuilderTest, EmptyInputsAreSaidPlainly) {
  PromptInputs in;
  in.signature = *SignatureFromDescriptor("a.B", "f", "()V", true, {});
  auto b = PromptBuilder::Create(in);
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE(absl::StrContains(b->Stage1Messages()[1].content, "No test source is available"));
  EXPECT_TRUE(absl::StrContains(b->Stage2Message().content, "No observations are available"));
  PromptInputs nameless;
  EXPECT_FALSE(PromptBuilder::Create(nameless).ok());
}

}  // namespace
}  // namespace tracespec::prompt

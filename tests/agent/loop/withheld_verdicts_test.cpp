// Substituted copies and withheld coverage verdicts (agent/loop/
// withheld_verdicts.h); the whole loop against a hostile endpoint is
// tests/e2e/oracle_test.cpp.
#include "agent/loop/withheld_verdicts.h"

#include <cctype>
#include <map>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "agent/prompt/text_holders.h"
#include "tests/agent/observation_builders.h"

namespace tracespec::loop {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The prompt hides every text but "ann".
bool HidesAllButAnn(const std::string& text, bool /*by_shape*/) { return text != "ann"; }

TEST(WithheldVerdictsTest, CopiesReplaceHiddenTextsAlikeAndKeepTheRest) {
  v1::Observation o = testing::Deposit("bank.T#ok", 5, 10, 15, "java.lang.IllegalStateException",
                                       "closed for alice@example.com", "alice@example.com");
  v1::ObjectState* chars = o.add_pre();
  chars->set_id(9);
  chars->set_class_name("[C");
  chars->mutable_array()->set_element_descriptor("C");
  chars->mutable_array()->set_length(3);
  for (char c : std::string("K9!")) chars->mutable_array()->add_elements()->set_char_value(c);

  std::set<std::string> owners;
  for (int variant = 1; variant <= kSubstituteVariants; ++variant) {
    std::optional<v1::Observation> copy = SubstitutedCopy(o, HidesAllButAnn, variant);
    ASSERT_TRUE(copy.has_value());
    EXPECT_EQ(SubstitutedCopy(o, HidesAllButAnn, variant)->SerializeAsString(),
              copy->SerializeAsString());
    const std::string& before = copy->pre(0).fields(1).value().string_value();
    const std::string& after = copy->post(0).fields(1).value().string_value();
    EXPECT_EQ(before, after);  // equal texts, equal substitutes
    EXPECT_EQ(before.size(), 17u);
    EXPECT_NE(before, "alice@example.com");
    owners.insert(before);
    EXPECT_EQ(copy->outcome().thrown().message().size(), 28u);
    EXPECT_THAT(copy->outcome().thrown().message(), Not(HasSubstr("alice")));
    EXPECT_NE(copy->pre(1).array().elements(0).char_value(), 'K');
    EXPECT_EQ(copy->args(0).int_value(), 5);                  // numbers stay
    EXPECT_TRUE(copy->pre(0).fields(2).value().has_redacted());  // withheld stays withheld
  }
  EXPECT_EQ(owners.size(), static_cast<size_t>(kSubstituteVariants));
  // Nothing hidden: no copy.
  EXPECT_FALSE(SubstitutedCopy(testing::Deposit("bank.T#ok", 5, 10, 15), HidesAllButAnn, 1)
                   .has_value());
}

// The text the holder `id` of `graph` holds.
std::string TextOf(const google::protobuf::RepeatedPtrField<v1::ObjectState>& graph, uint64_t id) {
  std::map<uint64_t, const v1::ObjectState*> by_id;
  for (const v1::ObjectState& s : graph) by_id[s.id()] = &s;
  return prompt::TextHeldBy(*by_id.at(id), [&by_id](uint64_t ref) -> const v1::ObjectState* {
           auto it = by_id.find(ref);
           return it == by_id.end() ? nullptr : it->second;
         })->text;
}

TEST(WithheldVerdictsTest, CopiesReplaceTheTextOfEveryHiddenHolderInItsOwnLayout) {
  v1::Observation o = testing::Deposit("bank.T#ok", 5, 10, 15);
  for (auto* graph : {o.mutable_pre(), o.mutable_post()}) {
    testing::AddBuilder(20, "jane@x.org", graph);
    testing::AddBuilder(21, "ann", graph);  // shown: kept
    testing::AddUuid(22, 0x1234567890abcdefLL, 0x0fedcba987654321LL, graph);
    testing::AddBigInteger(23, -1, {229956, 821493369}, graph);
    testing::AddBytes(24, "secret-bytes", graph);
  }
  std::set<std::string> mails;
  std::set<std::string> sessions;
  for (int variant = 1; variant <= kSubstituteVariants; ++variant) {
    std::optional<v1::Observation> copy = SubstitutedCopy(o, HidesAllButAnn, variant);
    ASSERT_TRUE(copy.has_value());
    for (uint64_t id : {20, 21, 22, 23, 24}) {
      EXPECT_EQ(TextOf(copy->pre(), id), TextOf(copy->post(), id));  // equal texts alike
    }
    std::string mail = TextOf(copy->pre(), 20);
    EXPECT_EQ(mail.size(), 10u);
    EXPECT_FALSE(std::isalnum(static_cast<unsigned char>(mail[4])));  // '@' stays punctuation
    mails.insert(mail);
    EXPECT_EQ(TextOf(copy->pre(), 21), "ann");
    sessions.insert(TextOf(copy->pre(), 22));
    std::string account = TextOf(copy->pre(), 23);
    EXPECT_EQ(account[0], '-');
    EXPECT_NE(account, "-987654321012345");
    EXPECT_NE(TextOf(copy->pre(), 24), "secret-bytes");
    EXPECT_EQ(TextOf(copy->pre(), 24).size(), 12u);
  }
  EXPECT_EQ(mails.size(), static_cast<size_t>(kSubstituteVariants));
  EXPECT_EQ(sessions.size(), static_cast<size_t>(kSubstituteVariants));
  EXPECT_EQ(sessions.count("12345678-90ab-cdef-0fed-cba987654321"), 0u);
}

TEST(WithheldVerdictsTest, CopiesReplaceByteBufferWindowsAndAddressesInTheirLayout) {
  v1::Observation o = testing::Deposit("bank.T#ok", 5, 10, 15);
  std::string header("\0\0\0\x0A", 4);
  for (auto* graph : {o.mutable_pre(), o.mutable_post()}) {
    testing::AddByteBuffer(20, "jane@x.org" + std::string(6, '\0'), 0, 16, graph);
    testing::AddByteBuffer(21, header + "jane@x.org", 4, 10, graph);  // a slice
    testing::AddInet4(22, 0x0A141E28u, "relay.internal", graph);
    testing::AddInet6(23, std::string("\x20\x01\x0d\xb8", 4) + std::string(11, '\0') + "\x01", 0,
                      graph);
  }
  std::set<std::string> v4;
  std::set<std::string> v6;
  ASSERT_EQ(o.pre(2).id(), 120u);  // the buffer's array, the slice's, the address's holder
  ASSERT_EQ(o.pre(4).id(), 121u);
  ASSERT_EQ(o.pre(6).id(), 122u);
  for (int variant = 1; variant <= kSubstituteVariants; ++variant) {
    std::optional<v1::Observation> copy = SubstitutedCopy(o, HidesAllButAnn, variant);
    ASSERT_TRUE(copy.has_value());
    for (uint64_t id : {20, 21, 22, 23}) {
      EXPECT_EQ(TextOf(copy->pre(), id), TextOf(copy->post(), id));
    }
    std::string body = TextOf(copy->pre(), 20);
    EXPECT_EQ(body.size(), 10u);
    EXPECT_NE(body, "jane@x.org");
    EXPECT_EQ(TextOf(copy->pre(), 21), body);  // equal texts alike
    // The zeros after the text and the slice's header are no text: kept.
    EXPECT_EQ(copy->pre(2).array().elements(15).byte_value(), 0);
    EXPECT_EQ(copy->pre(4).array().elements(3).byte_value(), 0x0A);
    v4.insert(TextOf(copy->pre(), 22));
    v6.insert(TextOf(copy->pre(), 23));
    // The host name, hidden too, is substituted as a String.
    EXPECT_NE(copy->pre(6).fields(2).value().string_value(), "relay.internal");
  }
  // Digits only: each position takes each of the 9 other digits.
  EXPECT_GE(v4.size(), 9u);
  EXPECT_EQ(v4.count("10.20.30.40"), 0u);
  EXPECT_EQ(v6.size(), static_cast<size_t>(kSubstituteVariants));
  EXPECT_EQ(v6.count("2001:db8:0:0:0:0:0:1"), 0u);
}

TEST(WithheldVerdictsTest, MaskedVerdictsLeaveNoTraceButAStatement) {
  check::CheckResult coverage;
  coverage.status = check::CheckStatus::kFail;
  coverage.summary = "1 of 4 observations admitted";
  coverage.verdicts = {"rejected: ensures A", "admitted", "rejected: ensures B",
                       "undefined: ensures C"};
  for (int amount : {1, 3, 4}) {
    coverage.counterexamples.push_back(testing::Deposit("bank.T#ok", amount, 10, 10 + amount));
    coverage.explanations.push_back(absl::StrCat("observation ", amount, ": why"));
    check::Diagnostic d;
    d.kind = check::Diagnostic::Kind::kViolated;
    d.message = absl::StrCat("observation ", amount, " is rejected");
    d.counterexamples = {static_cast<int>(coverage.counterexamples.size()) - 1};
    coverage.diagnostics.push_back(d);
  }
  check::CheckResult unchanged = coverage;
  WithholdVerdicts({}, &unchanged);
  EXPECT_EQ(unchanged.summary, coverage.summary);

  WithholdVerdicts({0, 1}, &coverage);  // 1 was admitted: masked all the same
  EXPECT_EQ(coverage.status, check::CheckStatus::kFail);
  EXPECT_THAT(coverage.summary, HasSubstr("2 other recorded calls rejected"));
  EXPECT_THAT(coverage.summary, HasSubstr("depends on withheld data"));
  ASSERT_EQ(coverage.counterexamples.size(), 2u);
  EXPECT_EQ(coverage.counterexamples[0].args(0).int_value(), 3);
  EXPECT_EQ(coverage.explanations, (std::vector<std::string>{"observation 3: why",
                                                             "observation 4: why"}));
  ASSERT_EQ(coverage.diagnostics.size(), 2u);
  EXPECT_EQ(coverage.diagnostics[0].counterexamples, std::vector<int>{0});
  EXPECT_EQ(coverage.diagnostics[1].counterexamples, std::vector<int>{1});

  // All masked, whatever they were: the same words.
  check::CheckResult rejected = coverage;
  rejected.verdicts = {"rejected: ensures A"};
  rejected.counterexamples.resize(1);
  rejected.explanations.resize(1);
  rejected.diagnostics.resize(1);
  rejected.diagnostics[0].counterexamples = {0};
  check::CheckResult admitted;
  admitted.status = check::CheckStatus::kPass;
  admitted.verdicts = {"admitted"};
  WithholdVerdicts({0}, &rejected);
  WithholdVerdicts({0}, &admitted);
  EXPECT_EQ(rejected.summary, admitted.summary);
  EXPECT_EQ(rejected.status, admitted.status);
  EXPECT_TRUE(rejected.diagnostics.empty());
  EXPECT_TRUE(rejected.counterexamples.empty());
}

// A validator that answers every coverage-only request by a rule on the
// owner's first character, and counts the requests.
class FakeValidator : public check::Validator {
 public:
  absl::StatusOr<check::ValidationReport> Validate(const check::ValidateRequest& r) override {
    ++calls;
    EXPECT_TRUE(r.coverage_only);
    check::ValidationReport report;
    report.coverage.status = check::CheckStatus::kPass;
    for (const v1::Observation& o : r.observations) {
      char first = o.pre(0).fields(1).value().string_value()[0];
      report.coverage.verdicts.push_back(first == 'a' ? "rejected: ensures owner starts with a"
                                                      : "admitted");
    }
    return report;
  }
  absl::StatusOr<check::ValidationReport> MeasureStrength(
      const check::ValidateRequest& r) override {
    return Validate(r);
  }
  int calls = 0;
};

TEST(WithheldVerdictsTest, OnlyObservationsWithHiddenTextWhoseVerdictChangesAreMasked) {
  prompt::PromptInputs in;
  in.signature = *prompt::SignatureFromDescriptor("bank.Account", "deposit", "(I)I",
                                                  /*is_static=*/false, {"amount"});
  in.tests = {{"bank.T#ok", "@Test void ok() { new Account(\"ann\").deposit(5); }"}};
  prompt::PromptOptions options;
  options.string_disclosure = v1::LITERALS_ONLY;
  v1::Observation excluded = testing::Deposit("bank.T#no", 5, 10, 15, "", "", "alice");
  excluded.set_excluded(true);
  check::ValidateRequest request;
  request.observations = {testing::Deposit("bank.T#ok", 5, 10, 15, "", "", "ann"),
                          testing::Deposit("bank.T#ok", 5, 10, 15, "", "", "alice"),
                          testing::Deposit("bank.T#ok", 5, 10, 15, "", "", "zed"), excluded};
  in.observations = request.observations;
  auto builder = prompt::PromptBuilder::Create(in, options);
  ASSERT_TRUE(builder.ok()) << builder.status();
  check::CheckResult coverage;
  coverage.status = check::CheckStatus::kFail;
  coverage.verdicts = {"admitted", "rejected: ensures owner starts with a", "admitted",
                       "rejected: ensures owner starts with a"};
  FakeValidator validator;
  // "ann" is a literal of the test: shown, never substituted. "alice" and
  // "zed" go by shape, and some copy of each starts with another letter
  // than the real one. The excluded call is left out of the prompt.
  EXPECT_EQ(VerdictsThatDependOnWithheldData(&validator, request, coverage, *builder),
            (std::set<int>{1, 2}));
  EXPECT_EQ(validator.calls, 1);
  // Coverage reached no verdict: nothing to withhold, nothing checked.
  coverage.status = check::CheckStatus::kError;
  coverage.verdicts.clear();
  EXPECT_TRUE(VerdictsThatDependOnWithheldData(&validator, request, coverage, *builder).empty());
  EXPECT_EQ(validator.calls, 1);
}

}  // namespace
}  // namespace tracespec::loop

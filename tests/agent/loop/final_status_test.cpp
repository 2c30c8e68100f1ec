// How a method's refinement ends when no candidate passed, with the real
// validator on real javac'd classes: a final contract the validator could
// not decide (a call it does not model) is Unknown with the undecided check
// as the reason, never Fail; one a check refuted stays Fail.
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "agent/gateway/llm_client.h"
#include "agent/loop/infer.h"
#include "agent/loop/method_inputs.h"
#include "agent/loop/refine.h"
#include "tests/testing/call_builder.h"
#include "tests/testing/testing.h"

namespace tracespec::loop {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::Call;
using testing::I;

// Answers every request with the same contract, in the process.
class SameAnswerClient : public gateway::LlmClient {
 public:
  explicit SameAnswerClient(std::string jml) : jml_(std::move(jml)) {}
  absl::StatusOr<gateway::LlmResponse> Complete(const gateway::LlmRequest&) override {
    gateway::LlmResponse response;
    response.text = absl::StrCat("{\"contract\": \"", jml_, "\", \"hypotheses\": []}");
    response.model = "same-answer";
    return response;
  }
  std::string Destination() const override { return ""; }
  absl::StatusOr<std::string> EncodeRequest(const gateway::LlmRequest&) const override {
    return "";
  }

 private:
  std::string jml_;  // JSON-escaped
};

// countPositive creates a java.util.ArrayList, which the validator does not
// model: consistency is UNKNOWN whatever the contract.
v1::InferResult Refine(const testing::TempDir& dir, const std::string& jml) {
  std::string classes = testing::CompileJava(dir, {{"p/Bag.java", R"(package p;
import java.util.ArrayList;
import java.util.List;
public class Bag {
  public static int countPositive(int a, int b) {
    List<Integer> xs = new ArrayList<>();
    if (a > 0) xs.add(a);
    if (b > 0) xs.add(b);
    return xs.size();
  }
})"}},
                                             {"-g"});
  EXPECT_FALSE(classes.empty());
  std::vector<v1::Observation> obs;
  for (auto [a, b, result] : {std::tuple{1, 5, 2}, {-1, 0, 0}, {3, -2, 1}}) {
    obs.push_back(Call("p.Bag", "countPositive", "(II)I", {"a", "b"}, true)
                      .Arg(I(a))
                      .Arg(I(b))
                      .Returns(I(result))
                      .Build());
  }
  auto path = classfile::ClassPath::Create(classes);
  EXPECT_TRUE(path.ok()) << path.status();
  if (!path.ok()) return {};
  auto inputs = LoadMethodInputs("p.Bag#countPositive", *path, obs, "observations", "");
  EXPECT_TRUE(inputs.ok()) << inputs.status();
  auto validator = check::Validator::Create(classes);
  EXPECT_TRUE(validator.ok()) << validator.status();
  if (!inputs.ok() || !validator.ok()) return {};
  SameAnswerClient client(jml);
  RefineOptions options;
  options.rounds = 2;
  auto outcome = RefineMethod(*inputs, &client, validator->get(), dir.path() + "/m", dir.path(),
                              options);
  EXPECT_TRUE(outcome.ok()) << outcome.status();
  return outcome.ok() ? outcome->result : v1::InferResult();
}

TEST(FinalStatusTest, AContractUndecidedByAnUnmodelledCallIsUnknownNotFail) {
  testing::TempDir dir;
  v1::InferResult result = Refine(dir, "//@ ensures \\\\result >= 0 && \\\\result <= 2;");
  EXPECT_EQ(result.history(), "01,01");
  EXPECT_EQ(result.status(), v1::INFER_UNKNOWN) << result.ShortDebugString();
  EXPECT_THAT(result.reason(),
              HasSubstr("consistency UNKNOWN (constructor java.util.ArrayList() is not modelled "
                        "by the validator"));
  EXPECT_THAT(result.reason(), Not(HasSubstr("class path")));
  v1::InferSummary summary;
  *summary.add_results() = result;
  std::string text = FormatSummaryText(summary, "out");
  EXPECT_THAT(text, HasSubstr("p.Bag#countPositive: Unknown (rounds: 01,01)\n"));
  EXPECT_THAT(text, Not(HasSubstr("Fail")));
}

TEST(FinalStatusTest, AContractTheObservationsRefuteStaysFail) {
  testing::TempDir dir;
  // countPositive(-1, 0) returned 0: coverage FAILS, consistency is UNKNOWN.
  v1::InferResult result = Refine(dir, "//@ ensures \\\\result == a;");
  EXPECT_EQ(result.history(), "00,00");
  EXPECT_EQ(result.status(), v1::INFER_FAIL) << result.ShortDebugString();
  EXPECT_EQ(result.reason(), "");
  v1::InferSummary summary;
  *summary.add_results() = result;
  EXPECT_THAT(FormatSummaryText(summary, "out"),
              HasSubstr("p.Bag#countPositive: Fail 00 (rounds: 00,00)\n"));
}

}  // namespace
}  // namespace tracespec::loop

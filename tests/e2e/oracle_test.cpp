// The coverage feedback is not an oracle on values the prompt withholds: a
// hostile endpoint answers with clauses that probe one character of a
// string the tests do not disclose (it goes out by shape), one per round,
// and reads what the next request says about them. Real pipeline: javac,
// `tracespec observe` (JVM, JUnit 5, the probe), `tracespec infer --llm`
// (validator on Z3, the egress gate, the audit log) against the fake model
// server on loopback, whose received bytes are what is checked.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/agent/fake_llm_server.h"
#include "tests/testing/testing.h"
#include "tracespec/v1/audit.pb.h"
#include "tracespec/v1/infer.pb.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::RunTracespec;

constexpr char kMailer[] = R"(package t;
public class Mailer {
  public int send(String recipient) { return recipient.length(); }
}
)";
// The addresses are built at run time: no literal of the test spells them,
// so the prompt shows them only by shape.
constexpr char kMailerTest[] = R"(package t;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class MailerTest {
  static String reversed(String s) { return new StringBuilder(s).reverse().toString(); }
  @Test void send() {
    assertEquals(17, new Mailer().send(reversed("moc.elpmaxe@ecila")));
    assertEquals(12, new Mailer().send(reversed("gro.tsoh@bob")));
  }
}
)";
constexpr char kPolicy[] = R"(format_version: FORMAT_VERSION_1
record { class_pattern: "t.*" }
redaction: MARK
string_disclosure: LITERALS_ONLY
)";

std::string Answer(const std::string& clause) {
  return absl::StrCat(R"({"contract": "//@ public normal_behavior\n//@   ensures )", clause,
                      R"(;\n", "hypotheses": []})");
}

// The last message of a request body: the feedback on the previous answer.
std::string LastMessage(const std::string& body) {
  google::protobuf::Struct request;
  if (!google::protobuf::util::JsonStringToMessage(body, &request).ok()) {
    ADD_FAILURE() << "not JSON: " << body;
    return "";
  }
  const auto& messages = request.fields().at("messages").list_value().values();
  if (messages.empty()) return "";
  return messages.rbegin()->struct_value().fields().at("content").string_value();
}

// The diagnostics about coverage, as the model reads them.
std::vector<std::string> CoverageLines(const std::string& feedback) {
  std::vector<std::string> out;
  for (absl::string_view line : absl::StrSplit(feedback, '\n')) {
    if (absl::StartsWith(line, "- coverage")) out.emplace_back(line);
  }
  return out;
}

TEST(FeedbackOracleTest, ProbesOfAStringSentByShapeGetTheSameFeedbackTrueOrFalse) {
  testing::TempDir dir;
  std::string main = testing::CompileJava(dir, {{"t/Mailer.java", kMailer}}, {"-g"});
  testing::TempDir tests;
  std::string test_classes = testing::CompileJava(tests, {{"t/MailerTest.java", kMailerTest}},
                                                  {"-g"}, main + ":" + testing::JunitJar());
  ASSERT_FALSE(main.empty());
  ASSERT_FALSE(test_classes.empty());
  std::string observations = dir.path() + "/observed";
  SubprocessResult observed = RunTracespec(
      {"observe", "--classpath", main + ":" + test_classes, "--tests", "t.MailerTest", "--method",
       "t.Mailer#send", "--policy", dir.Write("policy.textproto", kPolicy), "--tests-src",
       tests.path() + "/src", "--out", observations});
  ASSERT_EQ(observed.exit_code, 0) << observed.stdout_data << observed.stderr_data;

  // Round 1 probes a character that "alice@..." has and "bob@..." has not
  // (false on one observation); round 2 one that neither has (true on
  // both); round 3 is an ordinary wrong clause about the returned number;
  // round 4 is right.
  const std::vector<std::string> answers = {
      Answer("recipient.charAt(0) != 'a'"), Answer("recipient.charAt(0) != 'x'"),
      Answer("\\\\result == 99"), Answer("\\\\result == recipient.length()")};
  std::string script = "{\"responses\":[";
  for (size_t i = 0; i < answers.size(); ++i) {
    absl::StrAppend(&script, i ? "," : "", testing::ContentEntry(answers[i]));
  }
  absl::StrAppend(&script, "],\"then\":\"fail\"}");
  testing::FakeLlmServer server(script);
  std::string out = dir.path() + "/infer";
  SubprocessResult run = RunTracespec(
      {"infer", "--classpath", main, "--method", "t.Mailer#send", "--observations", observations,
       "--tests-src", tests.path() + "/src", "--out", out, "--rounds", "4", "--llm",
       server.base_url(), "--model", "fake-model", "--egress-policy",
       testing::SourceDir() + "/policies/egress.textproto"});
  ASSERT_EQ(run.exit_code, 0) << run.stdout_data << run.stderr_data;
  EXPECT_THAT(run.stdout_data, HasSubstr("t.Mailer#send: Success 11"));

  std::vector<testing::ReceivedRequest> received = server.Received();
  ASSERT_EQ(received.size(), 4u) << run.stdout_data << run.stderr_data;
  // The addresses themselves never left; their shape did.
  std::string everything = server.RecordText();
  EXPECT_THAT(everything, Not(HasSubstr("alice@example.com")));
  EXPECT_THAT(everything, Not(HasSubstr("bob@host.org")));
  EXPECT_THAT(LastMessage(received[0].body), HasSubstr("17 chars>"));

  const std::string after_false_probe = LastMessage(received[1].body);
  const std::string after_true_probe = LastMessage(received[2].body);
  const std::string after_ordinary = LastMessage(received[3].body);
  // Whether the probe held is not in the feedback: the same coverage
  // lines, saying that the verdict depends on withheld data, no observation
  // named, no recorded call shown as a counterexample.
  std::vector<std::string> false_lines = CoverageLines(after_false_probe);
  EXPECT_EQ(false_lines, CoverageLines(after_true_probe))
      << after_false_probe << "\n----\n" << after_true_probe;
  // Nothing else tells them apart either: the messages differ only where
  // they quote the model's own clause.
  EXPECT_EQ(absl::StrReplaceAll(after_false_probe, {{"'a'", "'?'"}}),
            absl::StrReplaceAll(after_true_probe, {{"'x'", "'?'"}}));
  ASSERT_FALSE(false_lines.empty()) << after_false_probe;
  EXPECT_THAT(false_lines.back(), HasSubstr("depends on withheld data"));
  for (const std::string* feedback : {&after_false_probe, &after_true_probe}) {
    EXPECT_THAT(*feedback, Not(HasSubstr("MailerTest#send"))) << *feedback;
    EXPECT_THAT(*feedback, Not(HasSubstr("observation 1"))) << *feedback;
    EXPECT_THAT(*feedback, Not(HasSubstr("observation 2"))) << *feedback;
    EXPECT_THAT(*feedback, Not(HasSubstr("is rejected"))) << *feedback;
  }
  // A clause about the returned number gets its ordinary feedback: which
  // recorded calls it rejects, shown.
  EXPECT_THAT(after_ordinary, HasSubstr("is rejected"));
  EXPECT_THAT(after_ordinary, HasSubstr("MailerTest#send"));
  EXPECT_THAT(after_ordinary, Not(HasSubstr("depends on withheld data")));

  // Counted: two observations masked in each probe round, in the method's
  // result and in the audit records of the requests that carried them.
  v1::InferResult result;
  auto result_text = ReadFile(out + "/t.Mailer#send/result.json");
  ASSERT_TRUE(result_text.ok()) << result_text.status();
  ASSERT_TRUE(FromJson(*result_text, &result).ok());
  EXPECT_EQ(result.withheld_verdicts(), 4);
  EXPECT_THAT(ReadFile(out + "/summary.txt").value_or(""),
              HasSubstr("4 coverage verdict(s) not fed back"));
  auto audit_text = ReadFile(out + "/audit.jsonl");
  ASSERT_TRUE(audit_text.ok()) << audit_text.status();
  std::vector<int> outbound;
  for (absl::string_view line : absl::StrSplit(*audit_text, '\n', absl::SkipEmpty())) {
    v1::AuditRecord record;
    ASSERT_TRUE(FromJson(std::string(line), &record).ok()) << line;
    if (record.direction() == v1::OUTBOUND) outbound.push_back(record.withheld_verdicts());
  }
  EXPECT_EQ(outbound, (std::vector<int>{0, 2, 2, 0}));
  SubprocessResult show = RunTracespec({"audit", "show", out + "/audit.jsonl"});
  EXPECT_EQ(show.exit_code, 0) << show.stderr_data;
  // One line on each of the two requests that carried withheld verdicts.
  std::vector<std::string> parts =
      absl::StrSplit(show.stdout_data, "    2 coverage verdict(s) withheld: they depend on "
                                       "withheld data\n");
  EXPECT_EQ(parts.size(), 3u) << show.stdout_data;
}

}  // namespace
}  // namespace tracespec

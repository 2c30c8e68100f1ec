// The report of a run directory built by hand: what it shows, that text
// from the run directory cannot add markup or URLs, that the same
// directory gives the same bytes, and how bad input is refused.
#include "agent/report/report.h"

#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "agent/gateway/audit_log.h"
#include "agent/loop/run_dir.h"
#include "agent/report/escape.h"
#include "common/files.h"
#include "common/method_id.h"
#include "common/proto_io.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/agent/observation_builders.h"
#include "tests/testing/testing.h"

namespace tracespec::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// What a hostile test could make the program record.
constexpr char kHostileOwner[] =
    "</code><script>alert(\"x\")</script><img src=\"https://evil.example/x.png\">` | **bold**";
constexpr char kMethod[] = "bank.Account#deposit(I)I";
constexpr char kContract[] =
    "//@ public normal_behavior\n"
    "//@   requires amount > 0 && amount <= 1000;\n"
    "//@   ensures \\result == \\old(balance) + amount;\n";

std::string Read(const std::string& path) {
  auto text = ReadFile(path);
  EXPECT_TRUE(text.ok()) << text.status();
  return text.ok() ? *text : "";
}

class ReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    out_ = tmp_.path() + "/out";
    method_dir_ = out_ + "/infer/" + loop::MethodDirName(kMethod);
    ASSERT_TRUE(MakeDirs(out_ + "/observations").ok());
    ASSERT_TRUE(MakeDirs(method_dir_ + "/round-1").ok());
    ASSERT_TRUE(MakeDirs(method_dir_ + "/round-2").ok());

    v1::ObserveSummary summary;
    summary.set_format_version(v1::FORMAT_VERSION_1);
    summary.set_complete(true);
    summary.set_jvm_result("exit code 0");
    summary.set_policy("built-in default");
    summary.add_test_classes("bank.AccountTest");
    summary.set_tests_run(3);
    summary.set_tests_passed(3);
    summary.set_observations(3);
    v1::TestSummary* excluded = summary.add_tests();
    excluded->set_test_id("bank.AccountTest#usesTheSecret");
    excluded->set_excluded(true);
    excluded->set_excluded_reason("test source mentions \"secret\" <b>here</b>");
    v1::RedactionCount* redaction = summary.add_redactions();
    redaction->set_what("bank.Account.pin");
    redaction->set_count(6);
    ASSERT_TRUE(loop::WriteJsonFile(out_ + "/observations/summary.json", summary).ok());

    std::vector<v1::Observation> observations = {
        testing::Deposit("bank.AccountTest#deposits", 5, 10, 15, "", "", kHostileOwner),
        testing::Deposit("bank.AccountTest#deposits", 5, 10, 15, "", "", kHostileOwner),
        testing::Deposit("bank.AccountTest#usesTheSecret", 7, 0, 7)};
    observations[2].set_excluded(true);
    observations[2].set_excluded_reason("test source mentions \"secret\"");
    ASSERT_TRUE(WriteObservations(out_ + "/observations/observations.pb", observations).ok());

    v1::InferResult result;
    result.set_format_version(v1::FORMAT_VERSION_1);
    result.set_method("bank.Account#deposit");
    result.set_resolved(kMethod);
    result.set_status(v1::INFER_SUCCESS);
    result.set_history("10,11");
    result.set_rounds(2);
    result.set_max_rounds(3);
    result.set_contract(kContract);
    result.set_contract_file(loop::MethodDirName(kMethod) + "/Account.jml");
    result.set_client("builtin");
    result.add_weakened("weakened: ensures \\result > 0; kept as amount != 0 ==> ...");
    result.add_dropped("dropped: ensures owner == \"<b>\";");
    ASSERT_TRUE(loop::WriteJsonFile(method_dir_ + "/result.json", result).ok());

    v1::InferRound first;
    first.set_format_version(v1::FORMAT_VERSION_1);
    first.set_method(kMethod);
    first.set_round(1);
    first.set_outcome(v1::ROUND_VALIDATED);
    first.set_bits("10");
    first.set_consistency("PASS (complete)");
    first.set_coverage("FAIL (2 of 3 observations admitted)");
    first.add_hypotheses("<i>owner</i> never changes");
    ASSERT_TRUE(loop::WriteJsonFile(method_dir_ + "/round-1/round.json", first).ok());
    v1::Observation refuted = testing::Deposit("bank.AccountTest#deposits", -3, 10, 10,
                                               "java.lang.IllegalArgumentException", "",
                                               kHostileOwner);
    std::string report = absl::StrCat(
        R"({"method":"bank.Account#deposit(I)I","result":"10",)",
        R"("consistency":{"status":"PASS","summary":"complete","complete":true,"cuts":[],)",
        R"("diagnostics":[],"counterexamples":[],"explanations":[],"seconds":0.1},)",
        R"("coverage":{"status":"FAIL","summary":"2 of 3","complete":true,"cuts":[],)",
        R"("diagnostics":[{"kind":"violated","line":2,"column":5,"clause":"requires amount > 0;",)",
        R"("message":"no spec case admits it","counterexamples":[0]}],"counterexamples":[)",
        ToJsonLine(refuted), R"(],"explanations":["requires amount > 0; (line 2): owner = )",
        absl::StrReplaceAll(kHostileOwner, {{"\"", "\\\""}}),
        R"("],"seconds":0.0,"admitted":2,"total":3},"notes":[]})");
    ASSERT_TRUE(WriteFileAtomic(method_dir_ + "/round-1/report.json", report).ok());

    v1::InferRound second = first;
    second.set_round(2);
    second.set_bits("11");
    second.set_coverage("PASS (3 of 3 observations admitted)");
    second.clear_hypotheses();
    ASSERT_TRUE(loop::WriteJsonFile(method_dir_ + "/round-2/round.json", second).ok());
  }

  std::string Html() { return Read(out_ + "/report.html"); }
  std::string Markdown() { return Read(out_ + "/report.md"); }

  testing::TempDir tmp_;
  std::string out_;
  std::string method_dir_;
};

TEST_F(ReportTest, ShowsContractHistoryRoundsObservationsAndExclusions) {
  ASSERT_TRUE(WriteReports(out_).ok());
  std::string html = Html();
  EXPECT_THAT(html, HasSubstr("requires amount &gt; 0 &amp;&amp; amount &lt;= 1000;"));
  EXPECT_THAT(html, HasSubstr("id=\"history-1\">10,11</span>"));
  EXPECT_THAT(html, HasSubstr("Success"));
  EXPECT_THAT(html, HasSubstr("FAIL (2 of 3 observations admitted)"));
  EXPECT_THAT(html, HasSubstr("<li>weakened: ensures \\result &gt; 0; kept as amount != 0 ==&gt; "
                              "...</li>"));
  EXPECT_THAT(html, HasSubstr("<li>dropped: ensures owner == &quot;&lt;b&gt;&quot;;</li>"));
  // The counterexample as readable values, the observations merged.
  EXPECT_THAT(html, HasSubstr("amount=-3, this.balance=10"));
  EXPECT_THAT(html, HasSubstr("throws java.lang.IllegalArgumentException"));
  EXPECT_THAT(html, HasSubstr("3 observations, 2 distinct behaviours; 1 from excluded tests"));
  EXPECT_THAT(html, HasSubstr("x2; test bank.AccountTest#deposits"));
  EXPECT_THAT(html, HasSubstr("<code>bank.AccountTest#usesTheSecret</code>"));
  EXPECT_THAT(html, HasSubstr("<code>bank.Account.pin</code>: 6 values withheld"));
  EXPECT_THAT(html, HasSubstr("<code>bank.Account.pin</code>: 6 values redacted"));
  EXPECT_THAT(html, HasSubstr("Nothing left the machine"));
  EXPECT_THAT(html, Not(HasSubstr("audit-head")));
  // No strength figures recorded: no section.
  EXPECT_THAT(html, Not(HasSubstr("Strength")));

  std::string md = Markdown();
  EXPECT_THAT(md, HasSubstr(absl::StrCat("```java\n", kContract, "```\n")));
  EXPECT_THAT(md, HasSubstr("history ` 10,11 `"));
  EXPECT_THAT(md, HasSubstr("Nothing left the machine"));
  EXPECT_THAT(md, HasSubstr("` amount=-3, this.balance=10"));
}

TEST_F(ReportTest, RecordedTextCannotAddMarkupOrUrls) {
  ASSERT_TRUE(WriteReports(out_).ok());
  std::string html = Html();
  EXPECT_THAT(html, HasSubstr("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"));
  EXPECT_THAT(html, HasSubstr("&lt;i&gt;owner&lt;/i&gt; never changes"));
  // Only the tags and attributes the report writes itself; links only to
  // fragments of the page; nothing in the style sheet that could load.
  const std::set<std::string> kTags = {"!DOCTYPE", "html", "head", "meta", "title", "style",
                                       "body",     "h1",   "h2",   "h3",   "p",     "section",
                                       "table",    "tr",   "th",   "td",   "a",     "code",
                                       "pre",      "ul",   "li",   "span", "br"};
  const std::set<std::string> kAttributes = {"html", "lang", "charset", "class", "id", "href"};
  std::regex tag("<(/?)([A-Za-z0-9!]+)([^>]*)>");
  std::regex attribute("([A-Za-z-]+)=\"([^\"]*)\"");
  int tags = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), tag);
       it != std::sregex_iterator(); ++it, ++tags) {
    EXPECT_EQ(kTags.count((*it)[2].str()), 1u) << (*it)[0];
    std::string attributes = (*it)[3].str();
    for (auto a = std::sregex_iterator(attributes.begin(), attributes.end(), attribute);
         a != std::sregex_iterator(); ++a) {
      EXPECT_EQ(kAttributes.count((*a)[1].str()), 1u) << (*it)[0];
      if ((*a)[1].str() == "href") {
        EXPECT_EQ((*a)[2].str().substr(0, 1), "#") << (*it)[0];
      }
    }
  }
  EXPECT_GT(tags, 50);
  std::string style = html.substr(html.find("<style>"), html.find("</style>") - html.find("<style>"));
  EXPECT_THAT(style, Not(HasSubstr("url(")));
  EXPECT_THAT(style, Not(HasSubstr("@import")));
  // Markdown: the recorded string only inside code spans, whose fence
  // outlasts the backtick it holds.
  std::string md = Markdown();
  for (absl::string_view line : absl::StrSplit(md, '\n')) {
    if (!absl::StrContains(line, "<script>")) continue;
    EXPECT_TRUE(absl::StrContains(line, "`` ")) << line;
  }
}

TEST_F(ReportTest, SameDirectorySameBytesWhereverItIs) {
  ASSERT_TRUE(WriteReports(out_).ok());
  std::string html = Html(), md = Markdown();
  ASSERT_TRUE(WriteReports(out_).ok());
  EXPECT_EQ(Html(), html);
  EXPECT_EQ(Markdown(), md);
  // A copy elsewhere renders the same.
  std::string copy = tmp_.path() + "/elsewhere/out";
  ASSERT_TRUE(MakeDirs(copy).ok());
  std::filesystem::copy(out_ + "/observations", copy + "/observations",
                        std::filesystem::copy_options::recursive);
  std::filesystem::copy(out_ + "/infer", copy + "/infer", std::filesystem::copy_options::recursive);
  ASSERT_TRUE(WriteReports(copy).ok());
  EXPECT_EQ(Read(copy + "/report.html"), html);
  EXPECT_EQ(Read(copy + "/report.md"), md);
}

TEST_F(ReportTest, AuditHeadOfARemoteRunAndABrokenChain) {
  v1::InferResult result;
  ASSERT_TRUE(loop::ReadJsonFile(method_dir_ + "/result.json", &result).ok());
  result.set_client("http://127.0.0.1:9/v1/chat/completions");
  ASSERT_TRUE(loop::WriteJsonFile(method_dir_ + "/result.json", result).ok());
  std::string log_path = out_ + "/infer/audit.jsonl";
  {
    auto log = gateway::AuditLog::Open(log_path);
    ASSERT_TRUE(log.ok()) << log.status();
    for (int i = 0; i < 2; ++i) {
      v1::AuditRecord r;
      r.set_time("2026-12-03T09:00:0" + std::to_string(i) + "Z");
      r.set_destination("http://127.0.0.1:9/v1/chat/completions");
      r.set_direction(i == 0 ? v1::OUTBOUND : v1::INBOUND);
      r.set_verdict(i == 0 ? v1::ALLOWED : v1::RECEIVED);
      r.set_payload_size(123);
      r.set_payload_sha256(std::string(64, 'a'));
      r.set_label(absl::StrCat(kMethod, " round 1"));
      ASSERT_TRUE((*log)->Append(r).ok());
    }
  }
  auto check = gateway::VerifyAuditLog(log_path);
  ASSERT_TRUE(check.ok() && check->intact);
  ASSERT_TRUE(WriteReports(out_).ok());
  std::string html = Html();
  EXPECT_THAT(html, HasSubstr(absl::StrCat("<code id=\"audit-head\">", check->head_hash)));
  EXPECT_THAT(html, HasSubstr("hash chain intact, 2 records"));
  EXPECT_THAT(html, HasSubstr("1 request sent (123 bytes) to http://127.0.0.1:9/v1/chat/completions"));
  EXPECT_THAT(html, HasSubstr("<td>ALLOWED</td>"));
  EXPECT_THAT(html, HasSubstr("No record of the log is signed"));
  EXPECT_THAT(html, Not(HasSubstr("Nothing left the machine")));
  EXPECT_THAT(Markdown(), HasSubstr(check->head_hash));

  // Signed and sealed (the key outside the run directory).
  const std::string unsigned_log = Read(log_path);
  ASSERT_TRUE(RemoveAll(log_path).ok());
  testing::TempDir keys;
  auto signer = gateway::AuditSigner::LoadOrCreate(keys.path() + "/audit-key.pem");
  ASSERT_TRUE(signer.ok()) << signer.status();
  {
    auto log = gateway::AuditLog::Open(log_path, *signer);
    ASSERT_TRUE(log.ok()) << log.status();
    v1::AuditRecord r;
    r.set_destination("http://127.0.0.1:9/v1/chat/completions");
    r.set_direction(v1::OUTBOUND);
    r.set_verdict(v1::ALLOWED);
    r.set_label(absl::StrCat(kMethod, " round 1"));
    ASSERT_TRUE((*log)->Append(r).ok());
    ASSERT_TRUE((*log)->Seal().ok());
  }
  ASSERT_TRUE(WriteReports(out_).ok());
  EXPECT_THAT(Html(), HasSubstr("1 signed record (1 seal) by key "));
  EXPECT_THAT(Html(), HasSubstr("the last record is a seal, so every record is covered"));
  // The seal cut off: the report says what no signature covers.
  std::string sealed = Read(log_path);
  ASSERT_TRUE(WriteFileAtomic(log_path, sealed.substr(0, sealed.find('\n') + 1)).ok());
  ASSERT_TRUE(WriteReports(out_).ok());
  EXPECT_THAT(Html(), HasSubstr("No record of the log is signed"));

  // An edited record: the report says the chain is broken.
  ASSERT_TRUE(WriteFileAtomic(log_path, absl::StrReplaceAll(unsigned_log, {{"\"payload_size\":\"123\"",
                                                                    "\"payload_size\":\"12\""}}))
                  .ok());
  ASSERT_TRUE(WriteReports(out_).ok());
  EXPECT_THAT(Html(), HasSubstr("hash chain BROKEN at line 1"));
}

TEST_F(ReportTest, BadInputNamesTheFileAndLeavesTheReportsAlone) {
  ASSERT_TRUE(WriteReports(out_).ok());
  std::string html = Html();
  ASSERT_TRUE(WriteFileAtomic(method_dir_ + "/round-2/round.json", "{\"round\": [").ok());
  absl::Status status = WriteReports(out_);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(std::string(status.message()), HasSubstr("round-2/round.json"));
  EXPECT_EQ(Html(), html);

  testing::TempDir empty;
  status = WriteReports(empty.path());
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(status.message()), HasSubstr("neither observations/ nor infer/"));
  EXPECT_FALSE(FileExists(empty.path() + "/report.html"));
}

TEST_F(ReportTest, RunJsonAddsTheProjectTheMergedSpecAndTargetsWithoutContract) {
  v1::RunSummary run;
  run.set_format_version(v1::FORMAT_VERSION_1);
  run.set_project("/home/dev/bank");
  run.set_config_source(v1::CONFIG_SOURCE_MAVEN);
  run.set_config("maven layout: target/classes, target/test-classes, src/test/java");
  run.set_model("builtin");
  v1::MethodRun* inferred = run.add_methods();
  inferred->set_method(kMethod);
  inferred->set_status(v1::METHOD_RUN_INFERRED);
  inferred->set_spec_file("specs/bank/Account.jml");
  v1::MethodRun* idle = run.add_methods();
  idle->set_method("bank.Account#close()V");
  idle->set_status(v1::METHOD_RUN_NOT_OBSERVED);
  ASSERT_TRUE(loop::WriteJsonFile(out_ + "/run.json", run).ok());
  ASSERT_TRUE(WriteReports(out_).ok());
  std::string html = Html();
  EXPECT_THAT(html, HasSubstr("Project /home/dev/bank (maven layout: target/classes"));
  EXPECT_THAT(html, HasSubstr("Model: the built-in synthesizer."));
  EXPECT_THAT(html, HasSubstr("<code>specs/bank/Account.jml</code>"));
  EXPECT_THAT(html, HasSubstr("<li><code>bank.Account#close()V</code>: not observed: no test "
                              "called it</li>"));
  std::string md = Markdown();
  EXPECT_THAT(md, HasSubstr("- ` bank.Account#close()V `: not observed: no test called it\n"));
  // The project's paragraphs are prose (with markup characters escaped),
  // not code spans: "Project /home/dev/bank (maven layout: ...".
  EXPECT_THAT(md, HasSubstr("## Project\n\nProject /home/dev/bank (maven layout: target/classes"));
  EXPECT_THAT(md, Not(HasSubstr("` Project ")));
  EXPECT_THAT(md, HasSubstr("\n\nModel: the built-in synthesizer."));
}

TEST(MarkdownTextTest, ProseWhoseMarkupCharactersAreShownAsTheyAre) {
  EXPECT_EQ(MarkdownText("Project /a/b (maven layout: target/classes)."),
            "Project /a/b (maven layout: target/classes).");
  EXPECT_EQ(MarkdownText("a <b>*c*</b> [l](http://x) `d` | e_f ~g~ &amp; !h \\"),
            "a \\<b\\>\\*c\\*\\</b\\> \\[l\\](http://x) \\`d\\` \\| e\\_f \\~g\\~ \\&amp; \\!h \\\\");
  EXPECT_EQ(MarkdownText("# heading"), "\\# heading");
  EXPECT_EQ(MarkdownText("  - item\nnext"), "\\- item next");
  EXPECT_EQ(MarkdownText("12. ordered"), "12\\. ordered");
  EXPECT_EQ(MarkdownText("12."), "12\\.");
  EXPECT_EQ(MarkdownText("1.5 seconds"), "1.5 seconds");
}

TEST_F(ReportTest, MethodsAreNamedInJavaWithTheJvmKeyBeside) {
  v1::RunSummary run;
  run.set_format_version(v1::FORMAT_VERSION_1);
  v1::MethodRun* idle = run.add_methods();
  idle->set_method("bank.Account#transfer(Lbank/Account;[JLjava/lang/String;)Z");
  *idle->mutable_id() =
      MethodId::Parse(idle->method()).value_or(MethodId()).ToProto();
  idle->set_status(v1::METHOD_RUN_NOT_OBSERVED);
  ASSERT_TRUE(loop::WriteJsonFile(out_ + "/run.json", run).ok());
  ASSERT_TRUE(WriteReports(out_).ok());
  std::string html = Html();
  // The overview and the heading in Java, the JVM key under the heading.
  EXPECT_THAT(html, HasSubstr(">bank.Account#deposit(int)</a></td>"));
  EXPECT_THAT(html, HasSubstr("<h2>bank.Account#deposit(int)</h2>\n<p>JVM: <code>"
                              "bank.Account#deposit(I)I</code></p>"));
  EXPECT_THAT(html, HasSubstr("<li><code>bank.Account#transfer(Account, long[], String)</code>: "
                              "not observed"));
  std::string md = Markdown();
  EXPECT_THAT(md, HasSubstr("### ` bank.Account#deposit(int) `\n\nJVM: ` bank.Account#deposit(I)I `"));
  EXPECT_THAT(md, HasSubstr("- ` bank.Account#deposit(int) `: **"));
  EXPECT_THAT(md, HasSubstr("- ` bank.Account#transfer(Account, long[], String) `: not observed"));
}

// A method that failed points to infer's file of the last contract tried,
// not to its class's merged spec file (which holds only the methods that
// succeeded), and to none when no contract was tried.
TEST_F(ReportTest, AFailedMethodPointsToTheFileOfItsLastContract) {
  v1::InferResult result;
  ASSERT_TRUE(loop::ReadJsonFile(method_dir_ + "/result.json", &result).ok());
  result.set_status(v1::INFER_FAIL);
  ASSERT_TRUE(loop::WriteJsonFile(method_dir_ + "/result.json", result).ok());
  ASSERT_TRUE(MakeDirs(out_ + "/specs/bank").ok());
  ASSERT_TRUE(WriteFileAtomic(out_ + "/specs/bank/Account.jml",
                              "package bank;\npublic class Account {\n  //@ ensures \\result == 1;\n"
                              "  public int one();\n}\n").ok());
  v1::RunSummary run;
  run.set_format_version(v1::FORMAT_VERSION_1);
  v1::MethodRun* failed = run.add_methods();
  failed->set_method(kMethod);
  failed->set_status(v1::METHOD_RUN_INFERRED);
  failed->set_infer_status(v1::INFER_FAIL);
  ASSERT_TRUE(loop::WriteJsonFile(out_ + "/run.json", run).ok());
  ASSERT_TRUE(WriteReports(out_).ok());
  std::string file = "infer/" + loop::MethodDirName(kMethod) + "/Account.jml";
  EXPECT_THAT(Markdown(), HasSubstr(absl::StrCat("2 rounds, contract ` ", file, " `\n")));
  EXPECT_THAT(Markdown(), HasSubstr(absl::StrCat("File: ` ", file, " `")));
  EXPECT_THAT(Html(), HasSubstr(absl::StrCat("<td>2</td><td><code>", file, "</code></td>")));
  EXPECT_THAT(Markdown(), Not(HasSubstr("specs/bank/Account.jml")));

  result.clear_contract();
  result.clear_contract_file();
  ASSERT_TRUE(loop::WriteJsonFile(method_dir_ + "/result.json", result).ok());
  ASSERT_TRUE(WriteReports(out_).ok());
  EXPECT_THAT(Markdown(), HasSubstr("2 rounds, contract ` none `\n"));
  EXPECT_THAT(Markdown(), Not(HasSubstr("File: ")));
  EXPECT_THAT(Html(), HasSubstr("<td>2</td><td><code>none</code></td>"));
}

TEST(ReportRenderTest, NoMethodNoModelAsked) {
  RunView run;
  EXPECT_THAT(RenderHtml(run), HasSubstr("<p>Nothing left the machine: no method was inferred, "
                                         "so no model was asked"));
  EXPECT_THAT(RenderHtml(run), HasSubstr("<p>0 methods</p>"));
}

TEST(ReportRenderTest, StrengthFiguresAreShownWhenPresent) {
  RunView run;
  MethodView m;
  m.method = "p.C#f(I)I";
  m.result.set_status(v1::INFER_SUCCESS);
  m.result.set_client("builtin");
  m.strength.push_back({"result pinned", "17/17 observations"});
  run.methods.push_back(m);
  EXPECT_THAT(RenderHtml(run), HasSubstr("<h3>Strength</h3>\n<ul>\n<li>result pinned: 17/17 "
                                         "observations</li>"));
  EXPECT_THAT(RenderMarkdown(run), HasSubstr("#### Strength\n\n- ` result pinned `"));
}

// The overview's strength column: a weak contract is marked weak there,
// not shown as one more green Success.
TEST(ReportRenderTest, TheOverviewShowsStrengthAndMarksWeakContracts) {
  RunView run;
  MethodView strong, weak, failed;
  strong.method = "p.C#f(I)I";
  strong.result.set_status(v1::INFER_SUCCESS);
  strong.result.mutable_strength()->set_measured(true);
  strong.result.mutable_strength()->set_summary("pins \\result on 5/5 observations");
  weak = strong;
  weak.method = "p.C#g(I)V";
  weak.result.mutable_strength()->set_weak(true);
  weak.result.mutable_strength()->set_summary("pins the post-state on 1/4 observations, weak");
  failed.method = "p.C#h()V";
  failed.result.set_status(v1::INFER_FAIL);
  run.methods = {strong, weak, failed};
  std::string html = RenderHtml(run);
  EXPECT_THAT(html, HasSubstr("<th>strength</th>"));
  EXPECT_THAT(html, HasSubstr("<td>pins \\result on 5/5 observations</td>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"weak\">pins the post-state on 1/4 observations, weak</td>"));
  EXPECT_THAT(html, HasSubstr("Fail</td><td>-</td>"));
  std::string md = RenderMarkdown(run);
  EXPECT_THAT(md, HasSubstr("**Success** (**weak**), strength "));
  EXPECT_THAT(md, HasSubstr("**Success**, strength "));
}

// A Success whose consistency PASS cut loops or input lengths says so
// where its status is shown (table, list, method section), as run's lines
// and the .jml comments do; a complete one and one proved by induction
// each say theirs. Until this stop the report said only "Success".
TEST(ReportRenderTest, ASuccessSaysHowFarItsCheckReached) {
  RunView run;
  MethodView bounded, complete, proved, failed;
  bounded.method = "p.C#sum([I)I";
  bounded.result.set_status(v1::INFER_SUCCESS);
  bounded.result.mutable_consistency_verdict()->set_status(v1::VERDICT_PASS);
  bounded.result.mutable_consistency_verdict()->set_inputs_cut(true);
  complete = bounded;
  complete.method = "p.C#twice(I)I";
  complete.result.mutable_consistency_verdict()->set_complete(true);
  complete.result.mutable_consistency_verdict()->set_inputs_cut(false);
  proved = bounded;
  proved.method = "p.C#loop(I)I";
  proved.result.mutable_consistency_verdict()->set_proved(true);
  proved.result.mutable_consistency_verdict()->set_inputs_cut(false);
  failed = bounded;
  failed.method = "p.C#h()V";
  failed.result.set_status(v1::INFER_FAIL);
  run.methods = {bounded, complete, proved, failed};
  std::string html = RenderHtml(run);
  EXPECT_THAT(html, HasSubstr(">Success (within bounds)</td>"));
  EXPECT_THAT(html, HasSubstr(">Success</td>"));
  EXPECT_THAT(html, HasSubstr(">Success (proved by induction)</td>"));
  EXPECT_THAT(html, HasSubstr(">Fail</td>"));
  EXPECT_THAT(html, HasSubstr("Success</span> (within bounds), history"));
  std::string md = RenderMarkdown(run);
  EXPECT_THAT(md, HasSubstr("**Success** (within bounds), strength "));
  EXPECT_THAT(md, HasSubstr("**Success** (proved by induction), strength "));
  EXPECT_THAT(md, HasSubstr("**Success**, strength "));
  EXPECT_THAT(md, HasSubstr("**Fail**, strength "));
  EXPECT_THAT(md, HasSubstr("**Success** (within bounds), history "));
}

// A clause the validator refuted and the round guarded is listed under
// Counterexamples, with how many refuted it, not "None: no candidate was
// refuted" below the round's "repaired" line that says it was. A repair
// made before checking is no refutation.
TEST(ReportRenderTest, AClauseGuardedAfterARefutationIsListedAsRefuted) {
  RunView run;
  MethodView m;
  m.method = "p.C#find([II)I";
  m.result.set_status(v1::INFER_SUCCESS);
  RoundView round;
  round.round = 1;
  round.outcome = v1::ROUND_VALIDATED;
  round.bits = "11";
  v1::InferRepair before;
  before.set_clause("ensures \\result == a[0];");
  before.set_repaired("ensures a.length > 0 ==> \\result == a[0];");
  before.set_reason("a[0] may be undefined");
  round.repairs.push_back(before);
  m.rounds.push_back(round);
  run.methods.push_back(m);
  EXPECT_THAT(RenderMarkdown(run), HasSubstr("None: no candidate was refuted."));
  EXPECT_THAT(RenderHtml(run), HasSubstr("<p>None: no candidate was refuted.</p>"));

  v1::InferRepair guarded;
  guarded.set_clause("ensures \\result < a.length;");
  guarded.set_repaired("ensures (a.length < 9) ==> \\result < a.length;");
  guarded.set_reason("refuted by the validator's counterexamples: guarded");
  guarded.set_refuted_by(2);
  run.methods[0].rounds[0].repairs.push_back(guarded);
  std::string md = RenderMarkdown(run);
  EXPECT_THAT(md, Not(HasSubstr("no candidate was refuted")));
  EXPECT_THAT(md, HasSubstr("#### Counterexamples\n\n- round 1, consistency: "
                            "` ensures \\result < a.length; ` was refuted by 2 counterexamples of "
                            "the validator and guarded to ` ensures (a.length < 9) ==> \\result < "
                            "a.length; ` (the round's report is of the guarded candidate, so they "
                            "are not listed)\n"));
  std::string html = RenderHtml(run);
  EXPECT_THAT(html, Not(HasSubstr("no candidate was refuted")));
  EXPECT_THAT(html, HasSubstr("<h3>Counterexamples</h3>\n<ul>\n<li>round 1, consistency: "
                              "<code>ensures \\result &lt; a.length;</code> was refuted by 2 "
                              "counterexamples of the validator and guarded to <code>ensures "
                              "(a.length &lt; 9) ==&gt; \\result &lt; a.length;</code>"));
}

// The run's failing tests and the contracts it lost against the previous
// run are shown before the methods, in both renderings, escaped; a run
// with neither has no warnings section.
TEST(ReportRenderTest, FailingTestsAndLostContractsAreWarnedOf) {
  RunView run;
  run.run.emplace();
  EXPECT_THAT(RenderHtml(run), Not(HasSubstr("Warnings")));
  EXPECT_THAT(RenderMarkdown(run), Not(HasSubstr("Warnings")));
  v1::RunSummary& s = *run.run;
  s.add_failed_tests("shop.PriceTest#thirdOfNine: AssertionFailedError");
  s.add_failed_tests(absl::StrCat("shop.PriceTest#hostile: ", kHostileOwner));
  v1::MethodRun* failed = s.add_methods();
  failed->set_method("shop.Price#third(I)I");
  failed->set_status(v1::METHOD_RUN_INFERRED);
  failed->set_infer_status(v1::INFER_FAIL);
  failed->set_reason("consistency FAIL: ensures \\result == x / 3; <b>(line 2)</b>");
  v1::MethodRun* idle = s.add_methods();
  idle->set_method("shop.Price#half(I)I");
  *idle->mutable_id() = MethodId::Parse(idle->method()).value_or(MethodId()).ToProto();
  idle->set_status(v1::METHOD_RUN_NOT_OBSERVED);
  idle->set_reason("only failing tests called it (shop.PriceTest#halfHalves)");
  s.add_contracts_lost("shop.Price#third(I)I");
  s.add_contracts_lost("shop.Price#half(I)I");
  s.add_contracts_lost("shop.Price#gone()V");

  std::string html = RenderHtml(run);
  EXPECT_THAT(html, HasSubstr(
      "<section id=\"warnings\">\n<h2>Warnings</h2>\n<p class=\"warning\">2 tests failed while "
      "observing: their calls were kept out of inference, the contracts were inferred from code "
      "the project&#39;s own tests reject, and tracespec check refuses them until the tests "
      "pass.</p>\n<ul>\n<li><code>shop.PriceTest#thirdOfNine: AssertionFailedError</code></li>\n"));
  EXPECT_THAT(html, HasSubstr(
      "<p class=\"warning\">3 methods had a contract in the previous run and have none in this "
      "one (tracespec check exits 3 on this run unless --accept-lost):</p>\n<ul>\n"
      "<li><code>shop.Price#third(I)I</code>: Fail: consistency FAIL: ensures \\result == x / "
      "3; &lt;b&gt;(line 2)&lt;/b&gt;</li>\n"
      "<li><code>shop.Price#half(int)</code>: not observed: only failing tests called it "
      "(shop.PriceTest#halfHalves)</li>\n"
      "<li><code>shop.Price#gone()V</code>: no longer a target</li>\n</ul>\n</section>\n"));
  // Before the methods' table, and nothing recorded becomes markup.
  EXPECT_LT(html.find("id=\"warnings\""), html.find("id=\"methods\""));
  EXPECT_THAT(html, Not(HasSubstr("<script>")));
  EXPECT_THAT(html, Not(HasSubstr("<b>(line 2)")));

  std::string md = RenderMarkdown(run);
  EXPECT_THAT(md, HasSubstr(
      "## Warnings\n\n**2 tests failed while observing: their calls were kept out of inference, "
      "the contracts were inferred from code the project's own tests reject, and tracespec "
      "check refuses them until the tests pass.**\n\n"
      "- ` shop.PriceTest#thirdOfNine: AssertionFailedError `\n"));
  EXPECT_THAT(md, HasSubstr("- ` shop.Price#half(int) `: not observed: only failing tests called "
                            "it (shop.PriceTest#halfHalves)\n"));
  EXPECT_THAT(md, HasSubstr("- ` shop.Price#gone()V `: no longer a target\n"));
  EXPECT_THAT(md, HasSubstr("\\<b\\>(line 2)\\</b\\>"));
  EXPECT_LT(md.find("## Warnings"), md.find("## Methods"));
  // Deterministic.
  EXPECT_EQ(RenderHtml(run), html);
  EXPECT_EQ(RenderMarkdown(run), md);
}

// A loss carried from an earlier run (not regained, not accepted) is warned
// of as such: the sentence says a loss stays until regained or accepted, and
// the method's note says it was lost earlier.
TEST(ReportRenderTest, ALossCarriedFromAnEarlierRunIsSaidToBe) {
  RunView run;
  run.run.emplace();
  v1::RunSummary& s = *run.run;
  s.add_contracts_lost("shop.Price#gone()V");
  s.add_contracts_lost_carried("shop.Price#gone()V");
  std::string md = RenderMarkdown(run);
  EXPECT_THAT(md, HasSubstr(
      "**1 method lost its contract in this run or an earlier one and has none in this one "
      "(tracespec check exits 3 on this run unless --accept-lost; a loss is listed again by "
      "every run until regained or accepted by tracespec run --accept-lost):**\n\n"
      "- ` shop.Price#gone()V `: no longer a target (lost in an earlier run)\n"));
}

// A loss the run accepted is listed too: check no longer refuses it, but the
// method has no contract, and the report should not look as if it had one.
TEST(ReportRenderTest, ALossTheRunAcceptedIsListed) {
  RunView run;
  run.run.emplace();
  v1::RunSummary& s = *run.run;
  v1::MethodRun* m = s.add_methods();
  m->set_method("shop.Price#total(I)I");
  m->mutable_id()->set_display("shop.Price.total(int)");
  m->set_status(v1::METHOD_RUN_INFERRED);
  m->set_infer_status(v1::INFER_UNKNOWN);
  m->set_reason("the validator could not decide");
  s.add_contracts_lost_accepted("shop.Price#total(I)I");
  s.add_contracts_lost_accepted("shop.Price#gone()V");
  std::string md = RenderMarkdown(run);
  EXPECT_THAT(md, HasSubstr(
      "**2 methods lost their contract and have none in this run; this run accepted the loss "
      "(tracespec run --accept-lost), so tracespec check does not refuse it and later runs do "
      "not list it again:**\n\n"));
  EXPECT_THAT(md, HasSubstr("- ` shop.Price.total(int) `: "));
  EXPECT_THAT(md, HasSubstr(": the validator could not decide\n"));
  EXPECT_THAT(md, HasSubstr("- ` shop.Price#gone()V `: no longer a target\n"));
  EXPECT_THAT(RenderHtml(run), HasSubstr("this run accepted the loss"));
}

}  // namespace
}  // namespace tracespec::report

// End-to-end: the report of a real run, read by a real browser. A run
// directory in the layout of `tracespec run` is built with the real
// `tracespec observe` (JVM, JUnit, probe) and `tracespec infer` (validator
// on Z3) on examples/bank — once with the built-in synthesizer, once with
// the gateway against the fake model server on loopback, which leaves an
// audit log — then `tracespec report` writes report.html; and `tracespec
// run` writes it for a copy of examples/bank. Headless Chromium renders
// each. The rendered DOM must show the contract, the history
// bits and the audit head (or that nothing left the machine), and
// Chromium's net log must hold no request made by the page.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "common/subprocess.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rapidjson/document.h"
#include "tests/agent/fake_llm_server.h"
#include "tests/testing/testing.h"
#include "tracespec/v1/infer.pb.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::RunTracespec;

constexpr char kChromium[] = "/usr/bin/chromium";

std::string Bank(const std::string& part) {
  return absl::StrCat(TRACESPEC_EXAMPLES_DIR, "/bank/", part);
}

std::string Read(const std::string& path) {
  auto text = ReadFile(path);
  EXPECT_TRUE(text.ok()) << text.status();
  return text.ok() ? *text : "";
}

// The text of the element with `id` in a DOM dump, character references
// decoded ("" when there is none).
std::string ElementText(const std::string& dom, const std::string& id) {
  size_t at = dom.find(absl::StrCat("id=\"", id, "\""));
  if (at == std::string::npos) return "";
  size_t start = dom.find('>', at);
  size_t end = dom.find('<', start);
  if (start == std::string::npos || end == std::string::npos) return "";
  return absl::StrReplaceAll(dom.substr(start + 1, end - start - 1),
                             {{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"},
                              {"&amp;", "&"}});
}

struct Rendered {
  bool ok = false;
  std::string dom;
  // URLs the page asked for (requests whose network isolation key is the
  // page's file:// origin); Chromium's own background requests are not
  // counted.
  std::vector<std::string> page_requests;
};

// Renders `html_path` in headless Chromium with a fresh profile, names
// resolving nowhere, and a net log.
Rendered Render(const std::string& html_path) {
  Rendered out;
  testing::TempDir profile;
  std::string net_log = profile.path() + "/net-log.json";
  SubprocessOptions options;
  options.timeout_seconds = 120;
  auto run = RunSubprocess(
      {kChromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
       "--no-first-run", "--disable-background-networking", "--disable-component-update",
       "--disable-sync", "--user-data-dir=" + profile.path() + "/profile",
       "--host-resolver-rules=MAP * ~NOTFOUND", "--log-net-log=" + net_log, "--dump-dom",
       "file://" + html_path},
      options);
  EXPECT_TRUE(run.ok()) << run.status();
  if (!run.ok()) return out;
  EXPECT_TRUE(run->Succeeded()) << run->Describe() << run->stderr_data;
  out.dom = run->stdout_data;
  std::string log = Read(net_log);
  rapidjson::Document doc;
  doc.Parse(log.c_str(), log.size());
  EXPECT_FALSE(doc.HasParseError()) << "net log " << net_log;
  if (doc.HasParseError() || !doc.HasMember("constants") || !doc.HasMember("events")) return out;
  int start_job = -1;
  const auto& types = doc["constants"]["logEventTypes"];
  if (types.HasMember("URL_REQUEST_START_JOB")) start_job = types["URL_REQUEST_START_JOB"].GetInt();
  EXPECT_GE(start_job, 0) << "net log without URL_REQUEST_START_JOB";
  for (const auto& event : doc["events"].GetArray()) {
    if (!event.HasMember("type") || event["type"].GetInt() != start_job) continue;
    if (!event.HasMember("params")) continue;
    const auto& params = event["params"];
    if (!params.HasMember("url") || !params.HasMember("network_isolation_key")) continue;
    if (absl::StartsWith(params["network_isolation_key"].GetString(), "file://")) {
      out.page_requests.push_back(params["url"].GetString());
    }
  }
  out.ok = true;
  return out;
}

class ReportE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!FileExists(kChromium)) {
      GTEST_SKIP() << kChromium << " is not installed (Debian package chromium; "
                   << "scripts/install-deps.sh installs it): cannot render report.html";
    }
  }

  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    // observe once; both runs share its output.
    SubprocessResult run = RunTracespec(
        {"observe", "--classpath", Bank("classes") + ":" + Bank("test-classes"), "--tests",
         "bank.AccountTest", "--method", "bank.Account#deposit", "--method",
         "bank.Account#withdraw", "--tests-src", testing::SourceDir() + "/examples/bank/test",
         "--out", dir_->path() + "/observations"});
    ASSERT_EQ(run.exit_code, 0) << run.stdout_data << run.stderr_data;
  }
  static void TearDownTestSuite() { delete dir_; }

  // A run directory OUT with observe's output and `infer` run with `flags`.
  std::string MakeRun(const std::string& name, const std::vector<std::string>& flags) {
    std::string out = dir_->path() + "/" + name;
    EXPECT_TRUE(MakeDirs(out).ok());
    std::filesystem::copy(dir_->path() + "/observations", out + "/observations",
                          std::filesystem::copy_options::recursive);
    std::vector<std::string> args = {"infer", "--classpath", Bank("classes"), "--method",
                                     "bank.Account#deposit", "--observations",
                                     out + "/observations", "--tests-src",
                                     testing::SourceDir() + "/examples/bank/test", "--out",
                                     out + "/infer"};
    args.insert(args.end(), flags.begin(), flags.end());
    SubprocessResult infer = RunTracespec(args);
    EXPECT_EQ(infer.exit_code, 0) << infer.stdout_data << infer.stderr_data;
    SubprocessResult report = RunTracespec({"report", out});
    EXPECT_EQ(report.exit_code, 0) << report.stdout_data << report.stderr_data;
    EXPECT_THAT(report.stdout_data, HasSubstr(out + "/report.html"));
    return out;
  }

  v1::InferResult Result(const std::string& out) {
    v1::InferResult result;
    EXPECT_TRUE(FromJson(Read(out + "/infer/bank.Account#deposit/result.json"), &result).ok());
    return result;
  }

  static testing::TempDir* dir_;
};

testing::TempDir* ReportE2eTest::dir_ = nullptr;

TEST_F(ReportE2eTest, BuiltinRunShowsContractBitsAndThatNothingLeft) {
  std::string out = MakeRun("builtin", {"--builtin"});
  v1::InferResult result = Result(out);
  ASSERT_EQ(result.history(), "11");
  ASSERT_FALSE(result.contract().empty());

  Rendered page = Render(out + "/report.html");
  ASSERT_TRUE(page.ok);
  EXPECT_EQ(ElementText(page.dom, "contract-1"), result.contract());
  EXPECT_EQ(ElementText(page.dom, "history-1"), "11");
  EXPECT_THAT(page.dom, HasSubstr("Nothing left the machine: every contract of this run came "
                                  "from the built-in synthesizer"));
  EXPECT_THAT(page.dom, Not(HasSubstr("audit-head")));
  // Readable observations, and the test the policy excluded.
  EXPECT_THAT(page.dom, HasSubstr("amount=0, "));
  EXPECT_THAT(page.dom, HasSubstr("bank.AccountTest#auditEntriesAreSignedWithTheSecretKey"));
  EXPECT_THAT(page.dom, HasSubstr("bank.Account.auditKey"));
  EXPECT_THAT(page.page_requests, ::testing::IsEmpty());

  // Written again from the same directory: the same bytes.
  std::string html = Read(out + "/report.html"), md = Read(out + "/report.md");
  ASSERT_EQ(RunTracespec({"report", out}).exit_code, 0);
  EXPECT_EQ(Read(out + "/report.html"), html);
  EXPECT_EQ(Read(out + "/report.md"), md);
}

// Too strong (the exceptional case deposit(0) is missing), then right.
constexpr char kWrongAnswer[] =
    R"({"contract": "//@ public normal_behavior\n//@   requires amount > 0;\n//@   assignable balance, checksum, audit.entries, audit.lastEntry;\n//@   ensures balance == \\old(balance) + amount;\n", "hypotheses": []})";
constexpr char kRightAnswer[] =
    R"({"contract": "//@ public normal_behavior\n//@   requires amount > 0;\n//@   assignable balance, checksum, audit.entries, audit.lastEntry;\n//@   ensures balance == \\old(balance) + amount;\n//@ also\n//@ public exceptional_behavior\n//@   requires amount <= 0;\n//@   assignable \\nothing;\n//@   signals_only IllegalArgumentException;\n", "hypotheses": []})";

TEST_F(ReportE2eTest, RemoteRunShowsTheAuditHeadAndTheCounterexample) {
  testing::FakeLlmServer server(absl::StrCat(
      "{\"responses\":[", testing::ContentEntry(kWrongAnswer), ",",
      testing::ContentEntry(kRightAnswer), "],\"then\":\"fail\"}"));
  ASSERT_TRUE(server.running());
  std::string out = MakeRun(
      "remote", {"--llm", server.base_url(), "--model", "fake-model", "--egress-policy",
                 testing::SourceDir() + "/policies/egress.textproto", "--impl-src",
                 testing::SourceDir() + "/examples/bank/src"});
  v1::InferResult result = Result(out);
  ASSERT_EQ(result.history(), "10,11");
  SubprocessResult verify = RunTracespec({"audit", "verify", out + "/infer/audit.jsonl"});
  ASSERT_EQ(verify.exit_code, 0) << verify.stdout_data << verify.stderr_data;
  size_t head_at = verify.stdout_data.find("head ");
  ASSERT_NE(head_at, std::string::npos) << verify.stdout_data;
  std::string head = verify.stdout_data.substr(head_at + 5, 64);

  Rendered page = Render(out + "/report.html");
  ASSERT_TRUE(page.ok);
  EXPECT_EQ(ElementText(page.dom, "contract-1"), result.contract());
  EXPECT_EQ(ElementText(page.dom, "history-1"), "10,11");
  EXPECT_EQ(ElementText(page.dom, "audit-head"), head);
  // Two requests, two answers, and the seal infer wrote when it closed the
  // log (signed by the key outside the run directory).
  EXPECT_THAT(page.dom, HasSubstr("hash chain intact, 5 records"));
  EXPECT_THAT(page.dom, HasSubstr("the last record is a seal, so every record is covered by a "
                                  "signature"));
  EXPECT_THAT(page.dom, HasSubstr(server.base_url()));
  EXPECT_THAT(page.dom, Not(HasSubstr("Nothing left the machine")));
  // Round 1's coverage counterexample, deposit(0), with readable values.
  EXPECT_THAT(page.dom, HasSubstr("round 1, coverage: "));
  EXPECT_THAT(page.dom, HasSubstr("amount=0, "));
  EXPECT_THAT(page.page_requests, ::testing::IsEmpty());
  EXPECT_THAT(Read(out + "/report.md"), HasSubstr(head));
}

// `tracespec run` on a copy of examples/bank (built by its own
// tracespec.textproto) writes the report and names it; the page shows each
// target's contract and bits and the merged spec file they are in.
TEST_F(ReportE2eTest, RunWritesTheReportOfTheBankProject) {
  std::string project = dir_->path() + "/bank-project";
  std::filesystem::copy(testing::SourceDir() + "/examples/bank", project,
                        std::filesystem::copy_options::recursive);
  std::filesystem::remove_all(project + "/target");
  std::filesystem::remove_all(project + "/tracespec-out");
  SubprocessResult run = RunTracespec({"run", project});
  ASSERT_EQ(run.exit_code, 0) << run.stdout_data << run.stderr_data;
  std::string out = project + "/tracespec-out";
  EXPECT_THAT(run.stdout_data, HasSubstr("report: " + out + "/report.html"));

  Rendered page = Render(out + "/report.html");
  ASSERT_TRUE(page.ok);
  int index = 0;
  for (const char* method : {"bank.Account#deposit(I)V", "bank.Account#getBalance()I",
                             "bank.Account#withdraw(I)V"}) {
    ++index;
    v1::InferResult result;
    ASSERT_TRUE(FromJson(Read(absl::StrCat(out, "/infer/", method, "/result.json")), &result).ok())
        << method;
    EXPECT_EQ(ElementText(page.dom, absl::StrCat("contract-", index)), result.contract())
        << method;
    EXPECT_EQ(ElementText(page.dom, absl::StrCat("history-", index)), result.history()) << method;
  }
  EXPECT_THAT(page.dom, HasSubstr("<code>specs/bank/Account.jml</code>"));
  EXPECT_THAT(page.dom, HasSubstr("Model: the built-in synthesizer."));
  EXPECT_THAT(page.dom, HasSubstr("Nothing left the machine"));
  EXPECT_THAT(page.page_requests, ::testing::IsEmpty());
}

// The net-log check can fail: a page that loads an image and a style sheet
// is caught, although no name resolves.
TEST_F(ReportE2eTest, ThePageRequestCheckSeesRequests) {
  testing::TempDir tmp;
  std::string page = tmp.Write(
      "loads.html",
      "<!DOCTYPE html><html><head><link rel=\"stylesheet\" href=\"https://styles.invalid/a.css\">"
      "</head><body><img src=\"http://images.invalid/x.png\"><p>hi</p></body></html>");
  Rendered rendered = Render(page);
  ASSERT_TRUE(rendered.ok);
  EXPECT_THAT(rendered.page_requests,
              ::testing::UnorderedElementsAre("https://styles.invalid/a.css",
                                              "http://images.invalid/x.png"));
}

}  // namespace
}  // namespace tracespec

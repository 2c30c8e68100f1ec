// End-to-end: `tracespec infer` on examples/bank after a real `tracespec
// observe` (javac, JVM, JUnit 5, probe), with the real validator (Z3), the
// built-in synthesizer, and the real gateway stack talking to the fake model
// server on loopback (tests/agent/fake_llm_server.py), which records every
// byte it receives.
#include <algorithm>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/agent/fake_llm_server.h"
#include "tests/testing/observed_bank.h"
#include "tests/testing/testing.h"
#include "tracespec/v1/infer.pb.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::RunTracespec;

constexpr char kMethod[] = "bank.Account#deposit";
constexpr char kMethodDir[] = "bank.Account#deposit";

// Too strong: it leaves out the exceptional case the tests show (deposit(0)
// throws), so coverage rejects that observation: "10".
constexpr char kWrongAnswer[] =
    R"({"contract": "//@ public normal_behavior\n//@   requires amount > 0 && audit != null;\n//@   assignable balance, checksum, audit.entries, audit.lastEntry;\n//@   ensures balance == \\old(balance) + amount;\n", "hypotheses": ["the audit service is always present"]})";

// Right, and given as a fenced block (an endpoint that ignores the schema).
const std::string kRightAnswer =
    absl::StrCat("The revised contract:\n```jml\n", testing::kDepositContract, "```\n");

// A file's content; "" (and a failure) when it cannot be read.
std::string Read(const std::string& path) {
  auto text = ReadFile(path);
  EXPECT_TRUE(text.ok()) << text.status();
  return text.ok() ? *text : "";
}

std::string Script(const std::vector<std::string>& entries) {
  std::string out = "{\"responses\":[";
  for (size_t i = 0; i < entries.size(); ++i) absl::StrAppend(&out, i ? "," : "", entries[i]);
  return out + "],\"then\":\"fail\"}";
}

class InferE2eTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    bank_ = new testing::ObservedBank({"bank.Account#deposit", "bank.Account#withdraw"});
    ASSERT_FALSE(bank_->observations().empty());
    classes_ = new std::string(bank_->classes());
    observations_ = new std::string(bank_->observations());
  }
  static void TearDownTestSuite() {
    delete classes_;
    delete observations_;
    delete bank_;
  }

  // `tracespec infer` on deposit into `out` with `extra` flags.
  SubprocessResult Infer(const std::string& out, const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"infer",          "--classpath", *classes_, "--method",
                                     kMethod,          "--observations", *observations_,
                                     "--tests-src",    testing::SourceDir() + "/examples/bank/test",
                                     "--out",          out};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunTracespec(args);
  }
  std::vector<std::string> Remote(const testing::FakeLlmServer& server) {
    return {"--llm",      server.base_url(), "--model", "fake-model", "--egress-policy",
            Policy(),     "--impl-src",      testing::SourceDir() + "/examples/bank/src"};
  }
  static std::string Policy() { return testing::SourceDir() + "/policies/egress.textproto"; }

  v1::InferResult Result(const std::string& out) {
    v1::InferResult result;
    auto text = ReadFile(out + "/" + kMethodDir + "/result.json");
    EXPECT_TRUE(text.ok()) << text.status();
    if (text.ok()) {
      EXPECT_TRUE(FromJson(*text, &result).ok());
    }
    return result;
  }
  v1::InferRound Round(const std::string& out, const std::string& round) {
    v1::InferRound r;
    auto text = ReadFile(out + "/" + kMethodDir + "/" + round + "/round.json");
    EXPECT_TRUE(text.ok()) << text.status();
    if (text.ok()) {
      EXPECT_TRUE(FromJson(*text, &r).ok());
    }
    return r;
  }

  testing::TempDir tmp_;
  static std::string* classes_;
  static std::string* observations_;
  static testing::ObservedBank* bank_;
};

std::string* InferE2eTest::classes_ = nullptr;
std::string* InferE2eTest::observations_ = nullptr;
testing::ObservedBank* InferE2eTest::bank_ = nullptr;

TEST_F(InferE2eTest, RefinesAWrongFirstAnswerWithTheCounterexampleItWasSent) {
  testing::FakeLlmServer server(Script({testing::ContentEntry(kWrongAnswer),
                                        testing::ContentEntry(kRightAnswer)}));
  ASSERT_TRUE(server.running());
  std::string out = tmp_.path() + "/run";
  SubprocessResult r = Infer(out, Remote(server));
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("bank.Account#deposit: Success 11 (rounds: 10,11; within bounds)"));
  EXPECT_THAT(r.stdout_data, HasSubstr(out + "/bank.Account#deposit/Account.jml"));
  EXPECT_THAT(r.stderr_data, HasSubstr("bank.Account#deposit: round 1: 10"));

  std::vector<testing::ReceivedRequest> received = server.Received();
  ASSERT_EQ(received.size(), 2u);
  // Round 2 carries the counterexample: the recorded deposit(0) that the
  // first contract rejects, with its exception.
  const std::string& second = received[1].body;
  EXPECT_THAT(second, HasSubstr("The checker validated your contract"));
  EXPECT_THAT(second, HasSubstr("Counterexamples:"));
  std::string feedback = second.substr(second.find("The checker validated your contract"));
  EXPECT_THAT(feedback, HasSubstr("amount=0"));
  EXPECT_THAT(feedback, HasSubstr("IllegalArgumentException"));
  EXPECT_THAT(feedback, HasSubstr("requires amount > 0 && audit != null"));
  // What was sent is what the run directory keeps.
  EXPECT_EQ(Read(out + "/bank.Account#deposit/round-2/request.json"), second);

  // Nothing of the implementation, nothing redacted.
  std::string all = server.RecordText();
  for (const std::string& r2 : {std::string(received[0].body), second}) all += r2;
  for (const char* secret :
       {"AK-7f3e9c1d-CONFIDENTIAL", "auditKey", "checksum = 31 * checksum + amount",
        "Integer.toHexString(signature)", "audit.record(sign(", "deposit must be positive"}) {
    EXPECT_FALSE(absl::StrContains(all, secret)) << secret;
  }
  // A test is excluded for what it does with sensitive data, not for its
  // name: `auditEntriesAreSignedWithTheSecretKey` deposits 25 and reads the
  // entry count (the key is set up elsewhere, its value withheld), so it goes.
  EXPECT_TRUE(absl::StrContains(all, "auditEntriesAreSignedWithTheSecretKey"));

  v1::InferResult result = Result(out);
  EXPECT_EQ(result.status(), v1::INFER_SUCCESS);
  EXPECT_EQ(result.history(), "10,11");
  EXPECT_EQ(result.client(), server.base_url() + "/chat/completions");
  std::string jml = Read(out + "/bank.Account#deposit/Account.jml");
  EXPECT_THAT(jml, HasSubstr("package bank;"));
  EXPECT_THAT(jml, HasSubstr("public class Account {"));
  EXPECT_THAT(jml, HasSubstr("  //@   signals_only IllegalArgumentException;"));
  EXPECT_THAT(jml, HasSubstr("  public void deposit(int amount);"));
  EXPECT_EQ(Round(out, "round-1").hypotheses(0), "the audit service is always present");
  for (const char* file : {"request.json", "answer.txt", "candidate.jml", "repairs.txt",
                           "report.json", "report.txt", "round.json"}) {
    EXPECT_TRUE(FileExists(out + "/bank.Account#deposit/round-2/" + file)) << file;
  }
  EXPECT_THAT(Read(out + "/summary.txt"),
              HasSubstr("bank.Account#deposit: Success 11 (rounds: 10,11; within bounds)"));

  // The audit log verifies; a one-byte edit is found at its record.
  std::string log = out + "/audit.jsonl";
  SubprocessResult verify = RunTracespec({"audit", "verify", log});
  EXPECT_EQ(verify.exit_code, 0) << verify.stdout_data;
  EXPECT_THAT(verify.stdout_data, HasSubstr("intact, 5 record(s)"));
  // Sealed by the key kept outside the run directory (tests/CMakeLists.txt
  // points XDG_CONFIG_HOME into the build tree).
  const char* config_home = std::getenv("XDG_CONFIG_HOME");
  ASSERT_NE(config_home, nullptr);
  SubprocessResult sealed = RunTracespec(
      {"audit", "verify", "--public-key",
       std::string(config_home) + "/tracespec/audit-key.pem.pub", log});
  EXPECT_EQ(sealed.exit_code, 0) << sealed.stdout_data << sealed.stderr_data;
  EXPECT_THAT(sealed.stdout_data, HasSubstr("intact and sealed, 5 record(s)"));

  // A re-run finds the method done and sends nothing.
  SubprocessResult again = Infer(out, Remote(server));
  EXPECT_EQ(again.exit_code, 0) << again.stderr_data;
  EXPECT_THAT(again.stdout_data, HasSubstr("Success 11 (rounds: 10,11; within bounds)"));
  EXPECT_EQ(server.Received().size(), 2u);

  std::vector<std::string> lines = absl::StrSplit(Read(log), '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 5u);
  size_t at = lines[1].find("\"http_status\":200");
  ASSERT_NE(at, std::string::npos) << lines[1];
  lines[1][at + 15] = '1';  // the first answer's record: 200 -> 210
  std::string edited;
  for (const std::string& l : lines) edited += l + "\n";
  ASSERT_TRUE(WriteFileAtomic(log, edited).ok());
  SubprocessResult broken = RunTracespec({"audit", "verify", log});
  EXPECT_EQ(broken.exit_code, 10);
  EXPECT_THAT(broken.stdout_data, HasSubstr("BROKEN at record 2"));
}

// A model that answers the same candidate again gets the earlier round's
// report, without spending another validation on it.
TEST_F(InferE2eTest, TheSameCandidateAgainKeepsItsReportWithoutCheckingAgain) {
  testing::FakeLlmServer server(Script({testing::ContentEntry(kWrongAnswer),
                                        testing::ContentEntry(kWrongAnswer)}));
  ASSERT_TRUE(server.running());
  std::string out = tmp_.path() + "/run";
  std::vector<std::string> extra = Remote(server);
  extra.insert(extra.end(), {"--rounds", "2"});
  SubprocessResult r = Infer(out, extra);
  EXPECT_EQ(server.Received().size(), 2u);
  EXPECT_THAT(r.stderr_data,
              HasSubstr("bank.Account#deposit: round 2: the same candidate as round 1, whose "
                        "report stands (not checked again)"));
  v1::InferRound first = Round(out, "round-1"), second = Round(out, "round-2");
  EXPECT_EQ(second.bits(), "10");
  EXPECT_EQ(second.consistency(), first.consistency());
  EXPECT_EQ(second.coverage(), first.coverage());
  EXPECT_EQ(second.validation_seconds(), 0);
  EXPECT_GT(first.validation_seconds(), 0);
  EXPECT_EQ(second.feedback().diagnostics_size(), first.feedback().diagnostics_size());
  for (const char* file : {"candidate.jml", "report.txt", "report.json"}) {
    EXPECT_EQ(Read(out + "/bank.Account#deposit/round-2/" + file),
              Read(out + "/bank.Account#deposit/round-1/" + file))
        << file;
  }
  EXPECT_EQ(Result(out).history(), "10,10");
}

TEST_F(InferE2eTest, AnonymisedRequestsCarryNoNameOfTheCodeAndAnswersAreMappedBack) {
  // The right contract in the neutral names the prompt used (a1 = amount,
  // f1 = audit, f3 = balance, f4 = checksum, f5/f6 = the audit service's fields).
  testing::FakeLlmServer server(Script({testing::ContentEntry(
      "```jml\n"
      "//@ public normal_behavior\n"
      "//@   requires a1 > 0 && f1 != null;\n"
      "//@   assignable f3, f4, f1.f5, f1.f6;\n"
      "//@   ensures f3 == \\old(f3) + a1;\n"
      "//@ also\n"
      "//@ public exceptional_behavior\n"
      "//@   requires a1 <= 0;\n"
      "//@   assignable \\nothing;\n"
      "//@   signals_only IllegalArgumentException;\n"
      "```\n")}));
  std::string out = tmp_.path() + "/anonymous";
  std::vector<std::string> flags = Remote(server);
  flags.push_back("--anonymize");
  SubprocessResult r = Infer(out, flags);
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("bank.Account#deposit: Success 11 (rounds: 11; within bounds)"));
  ASSERT_EQ(server.Received().size(), 1u);
  const std::string& body = server.Received()[0].body;
  EXPECT_THAT(body, HasSubstr("public void m1(int a1)"));
  for (const char* name : {"bank", "Account", "account", "deposit", "amount", "balance",
                           "checksum", "AccountTest", "entries", "lastEntry"}) {
    EXPECT_FALSE(absl::StrContains(body, name)) << name;
  }
  std::string jml = Read(out + "/bank.Account#deposit/Account.jml");
  EXPECT_THAT(jml, HasSubstr("ensures balance == \\old(balance) + amount;"));
  EXPECT_THAT(jml, HasSubstr("assignable balance, checksum, audit.entries, audit.lastEntry;"));
}

TEST_F(InferE2eTest, DryRunSendsNothingAndWritesTheRequest) {
  testing::FakeLlmServer server(Script({testing::ContentEntry(kRightAnswer)}));
  std::string out = tmp_.path() + "/dry";
  std::vector<std::string> flags = Remote(server);
  flags.push_back("--dry-run");
  SubprocessResult r = Infer(out, flags);
  EXPECT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_TRUE(server.Received().empty());
  std::string written = Read(out + "/bank.Account#deposit/dry-run/request-000001.json");
  EXPECT_EQ(written, Read(out + "/bank.Account#deposit/round-1/request.json"));
  EXPECT_THAT(written, HasSubstr("\"model\":\"fake-model\""));
  EXPECT_EQ(Round(out, "round-1").outcome(), v1::ROUND_DRY_RUN);
  EXPECT_EQ(Result(out).status(), v1::INFER_STOPPED);
}

TEST_F(InferE2eTest, ABlockedPayloadNeverReachesTheServer) {
  testing::FakeLlmServer server(Script({testing::ContentEntry(kRightAnswer)}));
  std::string policy = tmp_.Write(
      "egress.textproto",
      Read(Policy()) + "\nblocked_terms: \"depositIncreasesBalance\"\n");
  std::string out = tmp_.path() + "/blocked";
  std::vector<std::string> flags = Remote(server);
  flags[5] = policy;
  SubprocessResult r = Infer(out, flags);
  EXPECT_EQ(r.exit_code, 4) << r.stdout_data << r.stderr_data;
  EXPECT_TRUE(server.Received().empty());
  EXPECT_THAT(r.stdout_data, HasSubstr("bank.Account#deposit: Stopped (rounds: none)"));
  EXPECT_THAT(r.stderr_data, HasSubstr("blocked by rule"));
  EXPECT_EQ(Round(out, "round-1").outcome(), v1::ROUND_BLOCKED);
  SubprocessResult show = RunTracespec({"audit", "show", out + "/audit.jsonl"});
  EXPECT_THAT(show.stdout_data, HasSubstr("out  BLOCKED"));
  EXPECT_FALSE(absl::StrContains(Read(out + "/audit.jsonl"), "depositIncreasesBalance"));
  // The blocked body is kept with the offending span masked, and the term is
  // in no file of the run directory; files are 0600, directories 0700.
  std::string request = Read(out + "/bank.Account#deposit/round-1/request.json");
  EXPECT_THAT(request, HasSubstr(std::string(std::strlen("depositIncreasesBalance"), '*')));
  EXPECT_THAT(request, HasSubstr("\"messages\""));
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(out)) {
    struct stat st;
    ASSERT_EQ(::stat(entry.path().c_str(), &st), 0);
    if (entry.is_directory()) {
      EXPECT_EQ(st.st_mode & 0777, 0700u) << entry.path();
      continue;
    }
    ++files;
    EXPECT_EQ(st.st_mode & 0777, 0600u) << entry.path();
    EXPECT_FALSE(absl::StrContains(Read(entry.path().string()), "depositIncreasesBalance"))
        << entry.path();
  }
  EXPECT_GE(files, 4);
  struct stat top;
  ASSERT_EQ(::stat(out.c_str(), &top), 0);
  EXPECT_EQ(top.st_mode & 0777, 0700u);
}

TEST_F(InferE2eTest, AnUnreachableEndpointStopsTheRunAndARerunContinues) {
  std::string out = tmp_.path() + "/unreachable";
  std::vector<std::string> flags = {
      "--llm",   absl::StrCat("http://127.0.0.1:", testing::UnusedLoopbackPort(), "/v1"),
      "--model", "fake-model", "--egress-policy", Policy(), "--llm-attempts", "1"};
  SubprocessResult r = Infer(out, flags);
  EXPECT_EQ(r.exit_code, 4) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr("exchange failed"));
  EXPECT_EQ(Round(out, "round-1").outcome(), v1::ROUND_EXCHANGE_FAILED);
  EXPECT_EQ(Result(out).status(), v1::INFER_STOPPED);

  testing::FakeLlmServer server(Script({testing::ContentEntry(kRightAnswer)}));
  SubprocessResult again = Infer(out, Remote(server));
  EXPECT_EQ(again.exit_code, 0) << again.stdout_data << again.stderr_data;
  EXPECT_THAT(again.stderr_data, HasSubstr("moved to round-1.attempt-1 and is redone"));
  EXPECT_THAT(again.stdout_data, HasSubstr("Success 11 (rounds: 11; within bounds)"));
  EXPECT_TRUE(FileExists(out + "/bank.Account#deposit/round-1.attempt-1/round.json"));
}

// A round record cut short (a full disk, a crash of the file system) is
// redone with a note on the next run, not an error that fails every later
// run of the method until the file is removed by hand.
TEST_F(InferE2eTest, ARoundRecordCutShortIsRedone) {
  std::string out = tmp_.path() + "/cut";
  SubprocessResult first = Infer(out, {});
  ASSERT_EQ(first.exit_code, 0) << first.stdout_data << first.stderr_data;
  std::string record = out + "/bank.Account#deposit/round-1/round.json";
  std::string text = Read(record);
  ASSERT_GT(text.size(), 20u);
  ASSERT_TRUE(WriteFileAtomic(record, text.substr(0, text.size() / 2)).ok());
  SubprocessResult again = Infer(out, {});
  EXPECT_EQ(again.exit_code, 0) << again.stdout_data << again.stderr_data;
  EXPECT_THAT(again.stderr_data, HasSubstr("a round of an earlier run could not be read ("));
  EXPECT_THAT(again.stderr_data, HasSubstr("round-1/round.json"));
  EXPECT_THAT(again.stderr_data, HasSubstr("it was moved to round-1.attempt-1 and is redone"));
  EXPECT_EQ(Result(out).status(), v1::INFER_SUCCESS);
  EXPECT_EQ(Round(out, "round-1").round(), 1);
}

// A round record edited into a false contract that still parses is not
// believed: a run that continues from an earlier Success validates that
// contract again, and when it does not hold, the earlier rounds are moved
// aside and the method starts again; the false contract is written nowhere.
TEST_F(InferE2eTest, AnEarlierSuccessIsValidatedAgainBeforeARunContinuesFromIt) {
  std::string out = tmp_.path() + "/edited";
  SubprocessResult first = Infer(out, {});
  ASSERT_EQ(first.exit_code, 0) << first.stdout_data << first.stderr_data;
  SubprocessResult unchanged = Infer(out, {});
  ASSERT_EQ(unchanged.exit_code, 0) << unchanged.stdout_data << unchanged.stderr_data;
  EXPECT_THAT(unchanged.stderr_data,
              HasSubstr("the contract of round 1 of an earlier run was validated again and holds"));
  EXPECT_FALSE(FileExists(out + "/bank.Account#deposit/round-1.attempt-1"));

  std::string record = out + "/bank.Account#deposit/round-1/round.json";
  std::string text = Read(record);
  std::string edited = absl::StrReplaceAll(text, {{"+ amount;", "+ amount + 1;"}});
  ASSERT_NE(edited, text);
  ASSERT_TRUE(WriteFileAtomic(record, edited).ok());
  ASSERT_THAT(Round(out, "round-1").candidate(), HasSubstr("+ amount + 1;"));
  SubprocessResult again = Infer(out, {});
  EXPECT_EQ(again.exit_code, 0) << again.stdout_data << again.stderr_data;
  EXPECT_THAT(again.stderr_data,
              HasSubstr("the contract of round 1 of an earlier run, recorded as Success, does not "
                        "validate now (consistency FAIL"));
  EXPECT_THAT(again.stderr_data,
              HasSubstr("its rounds were moved to round-1.attempt-1 and the method starts again"));
  EXPECT_EQ(Result(out).status(), v1::INFER_SUCCESS);
  EXPECT_THAT(Result(out).contract(), Not(HasSubstr("+ amount + 1;")));
  EXPECT_THAT(Round(out, "round-1").candidate(), Not(HasSubstr("+ amount + 1;")));
  EXPECT_THAT(Read(out + "/bank.Account#deposit/Account.jml"), Not(HasSubstr("+ amount + 1;")));
  EXPECT_TRUE(FileExists(out + "/bank.Account#deposit/round-1.attempt-1/round.json"));
}

// An earlier Success that cannot be decided again (here: a check time far
// too short, as on a machine too busy) is neither believed nor thrown away:
// the result is Unknown with the reason, no round is redone or moved aside,
// and a later run with time enough states the Success again.
TEST_F(InferE2eTest, AnEarlierSuccessUndecidedNowIsUnknownAndNothingIsRedone) {
  std::string out = tmp_.path() + "/undecided";
  SubprocessResult first = Infer(out, {});
  ASSERT_EQ(first.exit_code, 0) << first.stdout_data << first.stderr_data;
  ASSERT_EQ(Result(out).status(), v1::INFER_SUCCESS);
  const std::string contract = Result(out).contract();
  const std::string round = Read(out + "/bank.Account#deposit/round-1/round.json");

  SubprocessResult busy = Infer(out, {"--check-timeout", "0.001"});
  EXPECT_NE(busy.exit_code, 0) << busy.stdout_data << busy.stderr_data;
  EXPECT_THAT(busy.stderr_data,
              HasSubstr("the contract of round 1 of an earlier run, recorded as Success, could "
                        "not be decided now (consistency UNKNOWN"));
  EXPECT_THAT(busy.stderr_data, HasSubstr("the method's result is Unknown"));
  EXPECT_THAT(busy.stderr_data, Not(HasSubstr("round 2")));
  EXPECT_EQ(Result(out).status(), v1::INFER_UNKNOWN);
  EXPECT_THAT(Result(out).reason(), HasSubstr("consistency UNKNOWN"));
  EXPECT_EQ(Result(out).contract(), contract);
  EXPECT_EQ(Result(out).rounds(), 1);
  EXPECT_FALSE(FileExists(out + "/bank.Account#deposit/round-1.attempt-1"));
  EXPECT_FALSE(FileExists(out + "/bank.Account#deposit/round-2"));
  EXPECT_EQ(Read(out + "/bank.Account#deposit/round-1/round.json"), round);

  SubprocessResult idle = Infer(out, {});
  EXPECT_EQ(idle.exit_code, 0) << idle.stdout_data << idle.stderr_data;
  EXPECT_THAT(idle.stderr_data,
              HasSubstr("the contract of round 1 of an earlier run was validated again and holds"));
  EXPECT_EQ(Result(out).status(), v1::INFER_SUCCESS);
  EXPECT_EQ(Result(out).contract(), contract);
}

TEST_F(InferE2eTest, ASlowAnswerTimesOutAndIsRecorded) {
  testing::FakeLlmServer server(
      Script({testing::ContentEntry(kRightAnswer, "\"delay\":3")}));
  std::string out = tmp_.path() + "/slow";
  std::vector<std::string> flags = Remote(server);
  for (const char* f : {"--llm-timeout", "1", "--llm-attempts", "1"}) flags.push_back(f);
  SubprocessResult r = Infer(out, flags);
  EXPECT_EQ(r.exit_code, 4) << r.stdout_data << r.stderr_data;
  v1::InferRound round = Round(out, "round-1");
  EXPECT_EQ(round.outcome(), v1::ROUND_EXCHANGE_FAILED);
  EXPECT_THAT(round.error(), HasSubstr("timed out"));
}

TEST_F(InferE2eTest, AnAnswerThatIsNotJsonIsRecordedAndARerunContinues) {
  std::string out = tmp_.path() + "/nonjson";
  {
    testing::FakeLlmServer server(Script({"{\"status\":200,\"raw\":\"<html>oops</html>\"}"}));
    std::vector<std::string> flags = Remote(server);
    for (const char* f : {"--llm-attempts", "1"}) flags.push_back(f);
    SubprocessResult r = Infer(out, flags);
    EXPECT_EQ(r.exit_code, 4) << r.stdout_data << r.stderr_data;
    EXPECT_EQ(Round(out, "round-1").outcome(), v1::ROUND_EXCHANGE_FAILED);
    EXPECT_THAT(r.stdout_data, HasSubstr("Stopped"));
  }
  testing::FakeLlmServer server(Script({testing::ContentEntry(kRightAnswer)}));
  SubprocessResult again = Infer(out, Remote(server));
  EXPECT_EQ(again.exit_code, 0) << again.stdout_data << again.stderr_data;
  EXPECT_THAT(again.stdout_data, HasSubstr("Success 11 (rounds: 11; within bounds)"));
}

TEST_F(InferE2eTest, AnAnswerWithoutJmlCostsARoundAndIsFedBack) {
  testing::FakeLlmServer server(Script({testing::ContentEntry("I am not sure what you mean."),
                                        testing::ContentEntry(kRightAnswer)}));
  std::string out = tmp_.path() + "/nojml";
  SubprocessResult r = Infer(out, Remote(server));
  EXPECT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("Success 11 (rounds: 00,11; within bounds)"));
  EXPECT_EQ(Round(out, "round-1").outcome(), v1::ROUND_NO_CONTRACT);
  ASSERT_EQ(server.Received().size(), 2u);
  EXPECT_THAT(server.Received()[1].body, HasSubstr("the answer holds no JML contract"));
}

TEST_F(InferE2eTest, ASyntaxErrorNeverCheckableEndsInError) {
  std::string broken = testing::ContentEntry("```jml\n//@ ensures balance == ;\n```");
  testing::FakeLlmServer server(Script({broken, broken}));
  std::string out = tmp_.path() + "/syntax";
  std::vector<std::string> flags = Remote(server);
  for (const char* f : {"--rounds", "2"}) flags.push_back(f);
  SubprocessResult r = Infer(out, flags);
  EXPECT_EQ(r.exit_code, 10) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("bank.Account#deposit: Error 00 (rounds: 00,00)"));
  ASSERT_EQ(server.Received().size(), 2u);
  EXPECT_THAT(server.Received()[1].body, HasSubstr("syntax error: candidate.jml:1:"));
}

TEST_F(InferE2eTest, EmptyObservationsAreBadInputAndARerunContinues) {
  std::string empty = tmp_.path() + "/empty";
  ASSERT_TRUE(MakeDirs(empty).ok());
  ASSERT_TRUE(WriteFileAtomic(empty + "/observations.pb", "").ok());
  std::string out = tmp_.path() + "/empty-run";
  std::vector<std::string> args = {"infer",          "--classpath",    *classes_,
                                   "--method",       kMethod,          "--observations",
                                   empty,            "--out",          out};
  SubprocessResult r = RunTracespec(args);
  EXPECT_EQ(r.exit_code, 3) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr("no observation of bank.Account#deposit(I)V in " + empty));
  // Bad input is found before anything is written.
  EXPECT_FALSE(FileExists(out));

  args[6] = *observations_;
  SubprocessResult again = RunTracespec(args);
  EXPECT_EQ(again.exit_code, 0) << again.stdout_data << again.stderr_data;
  EXPECT_THAT(again.stdout_data, HasSubstr("bank.Account#deposit: Success 11"));
}

TEST_F(InferE2eTest, ABrokenEgressPolicyIsBadInputAndNothingIsWritten) {
  testing::FakeLlmServer server(Script({testing::ContentEntry(kRightAnswer)}));
  std::string policy = tmp_.Write("broken.textproto", "format_version: FORMAT_VERSION_1\nallow {\n");
  std::string out = tmp_.path() + "/broken";
  std::vector<std::string> flags = Remote(server);
  flags[5] = policy;
  SubprocessResult r = Infer(out, flags);
  EXPECT_EQ(r.exit_code, 3) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr(policy + ":"));
  EXPECT_TRUE(server.Received().empty());
  EXPECT_FALSE(FileExists(out));
  // An earlier run's results stay as they were (its summary is not
  // replaced by the error).
  std::string earlier = tmp_.path() + "/earlier";
  SubprocessResult good = Infer(earlier, Remote(server));
  ASSERT_EQ(good.exit_code, 0) << good.stdout_data << good.stderr_data;
  std::string summary = Read(earlier + "/summary.json");
  SubprocessResult bad = Infer(earlier, flags);
  EXPECT_EQ(bad.exit_code, 3) << bad.stdout_data << bad.stderr_data;
  EXPECT_EQ(Read(earlier + "/summary.json"), summary);
}

TEST_F(InferE2eTest, AnUnreadableAuditKeyIsBadInputAndNothingIsSent) {
  testing::FakeLlmServer server(Script({testing::ContentEntry(kRightAnswer)}));
  std::string key = tmp_.Write("keys/garbage.pem", "not a key\n");
  ASSERT_EQ(::chmod(key.c_str(), 0600), 0);
  std::string out = tmp_.path() + "/badkey";
  std::vector<std::string> flags = Remote(server);
  flags.push_back("--audit-key");
  flags.push_back(key);
  SubprocessResult r = Infer(out, flags);
  EXPECT_EQ(r.exit_code, 3) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr(key + ": not an Ed25519 private key"));
  EXPECT_TRUE(server.Received().empty());
  EXPECT_FALSE(FileExists(out + "/audit.jsonl"));
}

// withdraw is named by a pattern, as `observe --method` takes it: it
// stands for the observed methods it selects, by their full names.
TEST_F(InferE2eTest, TheBuiltinSynthesizerReachesSuccessOnTheBank) {
  std::string out = tmp_.path() + "/builtin";
  std::vector<std::string> args = {"infer", "--classpath", *classes_, "--method", kMethod,
                                   "--method", "bank.Acc*#w?thdr*", "--observations",
                                   *observations_, "--out", out};
  SubprocessResult r = RunTracespec(args);
  EXPECT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("bank.Account#deposit: Success 11 (rounds: 11; within bounds)"));
  EXPECT_THAT(r.stdout_data,
              HasSubstr("bank.Account#withdraw(I)V: Success 11 (rounds: 11; within bounds)"));
  EXPECT_THAT(r.stdout_data, Not(HasSubstr("bank.Account#deposit(I)V")));
  std::string deposit = Read(out + "/bank.Account#deposit/Account.jml");
  EXPECT_THAT(deposit, HasSubstr("ensures balance == \\old(balance) + amount;"));
  EXPECT_THAT(deposit, HasSubstr("ensures checksum == 31 * \\old(checksum) + amount;"));
  EXPECT_THAT(deposit, HasSubstr("signals_only IllegalArgumentException;"));
  std::string withdraw = Read(out + "/bank.Account#withdraw(I)V/Account.jml");
  EXPECT_THAT(withdraw, HasSubstr("ensures balance == \\old(balance) - amount;"));
  EXPECT_THAT(withdraw, HasSubstr("InsufficientFundsException"));
  EXPECT_FALSE(FileExists(out + "/audit.jsonl"));  // nothing left the process
}

TEST_F(InferE2eTest, APatternThatSelectsNoObservedMethodIsBadInput) {
  std::string out = tmp_.path() + "/nothing";
  SubprocessResult none = RunTracespec({"infer", "--classpath", *classes_, "--method",
                                        "bank.Account#get*", "--observations", *observations_,
                                        "--out", out});
  EXPECT_EQ(none.exit_code, 3) << none.stdout_data << none.stderr_data;
  EXPECT_THAT(none.stderr_data, HasSubstr("--method 'bank.Account#get*': the pattern matches no "
                                          "observed method in " + *observations_));
  EXPECT_FALSE(FileExists(out));
  // The pattern's own syntax errors are observe's.
  SubprocessResult typed = RunTracespec({"infer", "--classpath", *classes_, "--method",
                                         "bank.Account#dep*(I)", "--observations", *observations_,
                                         "--out", out});
  EXPECT_EQ(typed.exit_code, 3) << typed.stdout_data << typed.stderr_data;
  EXPECT_THAT(typed.stderr_data, HasSubstr("a pattern selects methods by name only"));
}

}  // namespace
}  // namespace tracespec

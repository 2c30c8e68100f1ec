// The adversarial suite of the observation side of the privacy rules: our
// own classes, one case per class of leak, each run through the real
// pipeline — javac, `tracespec observe` (JVM, JUnit 5, the probe),
// `tracespec infer --llm` (validator on Z3, the egress gate) against the
// fake model server on loopback, which records every byte it receives.
// Each case scans those bytes for the planted value, and shows that the
// same input still produced a request with the values the tests disclose
// (no blanket blocking).
#include <map>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "gmock/gmock.h"
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

// Leak 1 and 8: a denied token copied into a plain field, an Object[]
// element and an ArrayList element, and into an exception message.
constexpr char kLedger[] = R"(package t;
import java.util.*;
public class Ledger {
  private final String secretToken;
  public String label = "none";
  public Object[] slots = new Object[2];
  public List<String> notes = new ArrayList<>();
  public int entries;
  public Ledger(String secretToken) { this.secretToken = secretToken; }
  public void publish(int count) {
    if (count < 0) throw new IllegalArgumentException("bad count for " + secretToken);
    label = "lbl:" + secretToken; slots[0] = secretToken; notes.add(secretToken); entries += count;
  }
}
)";
// Leak 2: a confidential field no deny pattern names.
constexpr char kDiary[] = R"(package t;
public class Diary {
  private String passphrase;
  private int opens;
  public Diary(String passphrase) { this.passphrase = passphrase; }
  public boolean open(String attempt) { opens++; return attempt.equals(passphrase); }
}
)";
// Leak 3: compiled with -g:none, so `password` is only `arg0`.
constexpr char kGate[] = R"(package t;
public class Gate {
  public boolean login(String password) { return password.length() > 5; }
}
)";
// Leak 4: javac inlines the denied constant into unlock's code.
constexpr char kLock[] = R"(package t;
public class Lock {
  private final int pin = 73915;
  public boolean unlock(int code) { return code == pin; }
  public boolean open(int code) { int shifted = code - 1; return shifted == pin; }
}
)";
// Leak 7: names the anonymiser must hide inside other identifiers, string
// literals and paths, and a method named like a word of the prompt.
constexpr char kAcmeLedger[] = R"(package t;
public class AcmeLedger {
  private int ledgerCents;
  public int credit(int cents) { ledgerCents += cents; return ledgerCents; }
  public int add(int more) { return credit(more); }
}
)";
// Leak 6: a secret split into two literals in a test.
constexpr char kVault[] = R"(package t;
public class Vault {
  public int count(String text) { return text.length(); }
}
)";
// Leak 7: a secret that javac computes from pieces no rule matches in the
// source: a unicode escape, a char operand.
constexpr char kEscaper[] = R"(package t;
public class Escaper {
  public int size(String text) { return text.length(); }
}
)";
constexpr char kLeakTest[] = R"(package t;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class LeakTest {
  static String tok() { return "TK-" + "zq81" + "-PLUM"; }
  static String phrase() { return "open-" + "sesame-77"; }
  static String pw() { return "hunter-" + "2271"; }
  @Test void ledger() {
    Ledger l = new Ledger(tok());
    l.publish(2);
    assertEquals(2, l.entries);
    assertThrows(IllegalArgumentException.class, () -> l.publish(-1));
  }
  // Leak 5: a test that calls publish and copies its body, disguised.
  @Test void modelOfPublish() {
    new Ledger(tok()).publish(1);
    String secretStandIn = "k"; String lbl = "none"; Object[] box = new Object[2];
    java.util.List<String> memo = new java.util.ArrayList<>(); int tally = 0; int count = 3;
    /**/ if (count < 0) throw new IllegalArgumentException("bad count for " + secretStandIn);
    lbl = "lbl:" + secretStandIn; /* c */ box[0] = secretStandIn;
    memo.add(secretStandIn); tally += count;
    assertEquals(3, tally);
  }
  @Test void diary() {
    Diary d = new Diary(phrase());
    assertTrue(d.open(phrase()));
    assertFalse(d.open("wrong"));
  }
  @Test void gate() {
    assertTrue(new Gate().login(pw()));
    assertFalse(new Gate().login("abc"));
  }
  @Test void lock() {
    assertFalse(new Lock().unlock(1));
    assertFalse(new Lock().unlock(42));
    assertFalse(new Lock().open(42));
  }
  @Test void acme() {
    AcmeLedger myLedger = new AcmeLedger();
    assertEquals(5, myLedger.credit(5), "acmeLedger.credit failed, see t/AcmeLedger.java");
    assertEquals(8, myLedger.add(3));
  }
  @Test void escaped() {
    String id = "\u0041KIA" + 'Q' + "WERTYUIOPASDFGZ";
    assertEquals(20, new Escaper().size(id));
  }
  @Test void vault() {
    String key = "AKIA" +
        "QWERTYUIOPASDFGH";
    assertEquals(20, new Vault().count(key));
  }
}
)";

constexpr char kPolicy[] = R"(format_version: FORMAT_VERSION_1
record { class_pattern: "*" }
deny: "*secret*"
deny: "*password*"
deny: "pin"
redaction: MARK
keep_exception_messages: true
string_disclosure: LITERALS_ONLY
)";

// Always the same harmless answer: the cases are about what is sent.
constexpr char kAnswer[] =
    R"({"contract": "//@ public normal_behavior\n//@   ensures \\result == false;\n", "hypotheses": []})";
constexpr char kVoidAnswer[] =
    R"({"contract": "//@ public normal_behavior\n//@   requires count >= 0;\n//@   ensures entries == \\old(entries) + count;\n", "hypotheses": []})";

std::string Script(const std::string& answer, int times) {
  std::string out = "{\"responses\":[";
  for (int i = 0; i < times; ++i) {
    absl::StrAppend(&out, i ? "," : "", testing::ContentEntry(answer));
  }
  return out + "],\"then\":\"fail\"}";
}

class LeakTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    std::string main = testing::CompileJava(
        *dir_,
        {{"t/Ledger.java", kLedger},
         {"t/Diary.java", kDiary},
         {"t/Lock.java", kLock},
         {"t/AcmeLedger.java", kAcmeLedger},
         {"t/Vault.java", kVault},
         {"t/Escaper.java", kEscaper}},
        {"-g"});
    testing::TempDir* unnamed = new testing::TempDir();
    std::string gate = testing::CompileJava(*unnamed, {{"t/Gate.java", kGate}}, {"-g:none"});
    testing::TempDir* tests = new testing::TempDir();
    std::string test_classes =
        testing::CompileJava(*tests, {{"t/LeakTest.java", kLeakTest}}, {"-g"},
                             main + ":" + gate + ":" + testing::JunitJar());
    ASSERT_FALSE(main.empty());
    ASSERT_FALSE(gate.empty());
    ASSERT_FALSE(test_classes.empty());
    classpath_ = new std::string(main + ":" + gate);
    test_classes_ = new std::string(test_classes);
    tests_src_ = new std::string(tests->path() + "/src");
    observations_ = new std::string(dir_->path() + "/observed");
    std::string policy = dir_->Write("policy.textproto", kPolicy);
    observe_ = new SubprocessResult(RunTracespec(
        {"observe", "--classpath", *classpath_ + ":" + test_classes, "--tests", "t.LeakTest",
         "--method", "t.Ledger#publish", "--method", "t.Diary#open", "--method", "t.Gate#login",
         "--method", "t.Lock#unlock", "--method", "t.Lock#open", "--method",
         "t.AcmeLedger#credit", "--method",
         "t.AcmeLedger#add", "--method", "t.Vault#count", "--method", "t.Escaper#size", "--policy", policy, "--tests-src", *tests_src_, "--out",
         *observations_}));
    ASSERT_EQ(observe_->exit_code, 0) << observe_->stdout_data << observe_->stderr_data;
    keep_ = {unnamed, tests};
  }
  static void TearDownTestSuite() {
    for (testing::TempDir* d : keep_) delete d;
    delete classpath_;
    delete test_classes_;
    delete tests_src_;
    delete observations_;
    delete observe_;
    delete dir_;
  }

  // Runs `infer --llm` on `method` against a fresh fake server answering
  // `answer`; returns every byte the server received.
  std::string Infer(const std::string& method, const std::string& answer, int* requests,
                    SubprocessResult* run, const std::vector<std::string>& extra = {}) {
    testing::FakeLlmServer server(Script(answer, 3));
    std::vector<std::string> args = {
        "infer", "--classpath", *classpath_, "--method", method, "--observations",
        *observations_, "--tests-src", *tests_src_, "--out", tmp_.path() + "/infer", "--llm",
        server.base_url(), "--model", "fake-model", "--egress-policy",
        testing::SourceDir() + "/policies/egress.textproto"};
    args.insert(args.end(), extra.begin(), extra.end());
    *run = RunTracespec(args);
    *requests = static_cast<int>(server.Received().size());
    return server.RecordText();
  }

  testing::TempDir tmp_;
  static testing::TempDir* dir_;
  static std::string* classpath_;
  static std::string* test_classes_;
  static std::string* tests_src_;
  static std::string* observations_;
  static SubprocessResult* observe_;
  static std::vector<testing::TempDir*> keep_;
};

testing::TempDir* LeakTest::dir_ = nullptr;
std::string* LeakTest::classpath_ = nullptr;
std::string* LeakTest::test_classes_ = nullptr;
std::string* LeakTest::tests_src_ = nullptr;
std::string* LeakTest::observations_ = nullptr;
SubprocessResult* LeakTest::observe_ = nullptr;
std::vector<testing::TempDir*> LeakTest::keep_;

TEST_F(LeakTest, DeniedValueCopiedIntoFieldArrayListAndMessageNeverLeaves) {
  int requests = 0;
  SubprocessResult run;
  std::string sent = Infer("t.Ledger#publish", kVoidAnswer, &requests, &run);
  ASSERT_GE(requests, 1) << run.stdout_data << run.stderr_data;
  EXPECT_THAT(sent, Not(HasSubstr("zq81")));
  // Still useful: the counts the test disclosed went out.
  EXPECT_THAT(sent, HasSubstr("this.entries=2"));
  EXPECT_THAT(sent, HasSubstr("IllegalArgumentException"));
  // Nor did the token reach any file of the observation run.
  EXPECT_THAT(testing::ReadTree(*observations_), Not(HasSubstr("zq81")));
  // The test that copies publish's body was excluded by its bytecode alone
  // (the ledger test's source still went out).
  EXPECT_THAT(observe_->stdout_data,
              HasSubstr("t.LeakTest#modelOfPublish: its bytecode copies the body of "
                        "t.Ledger#publish(I)V"));
  EXPECT_THAT(sent, Not(HasSubstr("secretStandIn")));
  EXPECT_THAT(sent, HasSubstr("new Ledger(tok())"));
}

TEST_F(LeakTest, ConfidentialFieldNoPatternNamesIsSentOnlyByShape) {
  int requests = 0;
  SubprocessResult run;
  std::string sent = Infer("t.Diary#open", kAnswer, &requests, &run);
  ASSERT_GE(requests, 1) << run.stdout_data << run.stderr_data;
  EXPECT_THAT(sent, Not(HasSubstr("open-sesame-77")));
  EXPECT_THAT(sent, HasSubstr("String, 14 chars>"));
  // A literal of the test text is shown as it is.
  EXPECT_THAT(sent, HasSubstr("attempt=\\\\\\\"wrong"));
}

TEST_F(LeakTest, ArgumentOfAClassWithoutParameterNamesIsSentOnlyByShape) {
  EXPECT_THAT(observe_->stderr_data,
              HasSubstr("compiled without -g: name rules cannot apply to arguments of t.Gate"));
  int requests = 0;
  SubprocessResult run;
  std::string sent = Infer("t.Gate#login", kAnswer, &requests, &run);
  ASSERT_GE(requests, 1) << run.stdout_data << run.stderr_data;
  EXPECT_THAT(sent, Not(HasSubstr("hunter-2271")));
  EXPECT_THAT(sent, Not(HasSubstr("arg0=\\\"abc\\\"")));
  EXPECT_THAT(sent, HasSubstr("String, 11 chars>"));
  EXPECT_THAT(sent, HasSubstr("returns true"));
}

TEST_F(LeakTest, InlinedDeniedConstantIsMaskedInTheCounterexamples) {
  int requests = 0;
  SubprocessResult run;
  // `\result == false` is wrong for code == 73915: the solver finds it.
  std::string sent = Infer("t.Lock#unlock", kAnswer, &requests, &run);
  ASSERT_GE(requests, 2) << run.stdout_data << run.stderr_data;
  EXPECT_THAT(sent, Not(HasSubstr("73915")));
  EXPECT_THAT(sent, HasSubstr("Counterexamples"));
  EXPECT_THAT(sent, HasSubstr("code=42"));
}

// `code - 1 == pin` at run time: no constant holds pin + 1, so masking
// by constants let the counterexample `code = 73916` go back in round 2.
// The check is solved again with the constant substituted; what changes is
// withheld, and counted in the method's result, the summary and the audit
// record of the request that carried it.
TEST_F(LeakTest, AValueTheCodeComputesFromADeniedConstantIsWithheldAndCounted) {
  int requests = 0;
  SubprocessResult run;
  std::string sent = Infer("t.Lock#open", kAnswer, &requests, &run);
  ASSERT_GE(requests, 2) << run.stdout_data << run.stderr_data;
  EXPECT_THAT(sent, Not(HasSubstr("73916")));
  EXPECT_THAT(sent, Not(HasSubstr("73915")));
  EXPECT_THAT(sent, HasSubstr("Counterexamples"));
  EXPECT_THAT(sent, HasSubstr("code = <withheld>"));
  EXPECT_THAT(run.stderr_data,
              HasSubstr("counterexample value(s) change when the denied constants are "
                        "substituted and are not fed back"));
  const std::string out = tmp_.path() + "/infer";
  v1::InferResult result;
  ASSERT_TRUE(FromJson(ReadFile(out + "/t.Lock#open/result.json").value_or(""), &result).ok());
  EXPECT_GE(result.withheld_values(), 1);
  EXPECT_THAT(ReadFile(out + "/summary.txt").value_or(""),
              HasSubstr("counterexample value(s) not fed back: they change when the denied "
                        "constants are substituted"));
  int carried = 0;
  for (absl::string_view line :
       absl::StrSplit(ReadFile(out + "/audit.jsonl").value_or(""), '\n', absl::SkipEmpty())) {
    v1::AuditRecord record;
    ASSERT_TRUE(FromJson(std::string(line), &record).ok()) << line;
    if (record.direction() == v1::OUTBOUND) carried += record.withheld_values();
  }
  // Every round's feedback but the last goes out with the next request.
  EXPECT_GE(carried, 1);
  EXPECT_LE(carried, result.withheld_values());
  SubprocessResult show = RunTracespec({"audit", "show", out + "/audit.jsonl"});
  EXPECT_EQ(show.exit_code, 0) << show.stderr_data;
  EXPECT_THAT(show.stdout_data, HasSubstr("counterexample value(s) withheld: they change when "
                                          "the denied constants are substituted"));
}

TEST_F(LeakTest, SplitSecretLiteralInATestIsBlockedAndOtherMethodsStillGo) {
  int requests = 0;
  SubprocessResult run;
  std::string sent = Infer("t.Vault#count", kAnswer, &requests, &run);
  EXPECT_EQ(run.exit_code, 4) << run.stdout_data << run.stderr_data;
  EXPECT_EQ(requests, 0);
  EXPECT_THAT(run.stderr_data, HasSubstr("secret.aws-access-key-id"));
  EXPECT_THAT(sent, Not(HasSubstr("QWERTYUIOPASDFGH")));
  // Only the request that carries the secret is stopped: the credit test,
  // from the same observation run and test class, still goes out.
  std::string other = Infer("t.AcmeLedger#credit", kAnswer, &requests, &run);
  EXPECT_GE(requests, 1) << run.stdout_data << run.stderr_data;
  EXPECT_THAT(other, Not(HasSubstr("QWERTYUIOPASDFGH")));
}

// The gate reads what javac computed: the test's source spells the key
// with a unicode escape and a char operand, which no rule matches in the
// text; the compiled test class holds it folded, and that is scanned.
TEST_F(LeakTest, ASecretJavacFoldsFromEscapesAndCharsIsBlocked) {
  int requests = 0;
  SubprocessResult run;
  std::string sent = Infer("t.Escaper#size", kAnswer, &requests, &run,
                           {"--test-classpath", *test_classes_});
  EXPECT_EQ(run.exit_code, 4) << run.stdout_data << run.stderr_data;
  EXPECT_EQ(requests, 0);
  EXPECT_THAT(run.stderr_data, HasSubstr("secret.aws-access-key-id"));
  EXPECT_THAT(run.stderr_data, HasSubstr("a string constant of the compiled LeakTest"));
  EXPECT_THAT(sent, Not(HasSubstr("WERTYUIOPASDFGZ")));
  std::string audit = ReadFile(tmp_.path() + "/infer/audit.jsonl").value_or("");
  EXPECT_THAT(audit, HasSubstr("\"rule\":\"secret.aws-access-key-id\""));
  // Only what the sent test methods load counts: the credit test, in the
  // same compiled class as two secrets, still goes out.
  std::string other = Infer("t.AcmeLedger#credit", kAnswer, &requests, &run,
                            {"--test-classpath", *test_classes_});
  EXPECT_GE(requests, 1) << run.stdout_data << run.stderr_data;
  EXPECT_THAT(other, Not(HasSubstr("WERTYUIOPASDFGZ")));
}

TEST_F(LeakTest, AnonymisedRequestsCarryNoPartOfAHiddenName) {
  for (const char* method : {"t.AcmeLedger#credit", "t.AcmeLedger#add"}) {
    int requests = 0;
    SubprocessResult run;
    std::string sent = Infer(method, kAnswer, &requests, &run, {"--anonymize"});
    // Not blocked by its own prompt template (a method named `add`) ...
    ASSERT_GE(requests, 1) << method << "\n" << run.stdout_data << run.stderr_data;
    // ... and no word of a hidden name is in it: not in `myLedger`,
    // `ledgerCents`, the message literal or the file path.
    std::string lower = absl::AsciiStrToLower(sent);
    EXPECT_THAT(lower, Not(HasSubstr("ledger"))) << method;
    EXPECT_THAT(lower, Not(HasSubstr("acme"))) << method;
    EXPECT_THAT(lower, Not(HasSubstr("credit"))) << method;
    // What the tests disclose still goes out.
    EXPECT_THAT(sent, HasSubstr("returns ")) << method;
  }
}

}  // namespace
}  // namespace tracespec

// `tracespec observe --noninterference` (the default for tests) end to end:
// real javac, real JVM, real JUnit 5, real probe. A denied field re-encoded
// in places no deny pattern names (code points, base64, a hash, control
// flow) leaks with `--no-noninterference` — the test shows the gap — and
// never reaches the output directory by default; innocent values are
// unchanged; nondeterministic ones are told apart; the output is
// deterministic. `tracespec run` with default settings sends the fake model
// server none of a re-encoded secret.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "observer/noninterference.h"
#include "tests/agent/fake_llm_server.h"
#include "tests/e2e/observed.h"
#include "tests/testing/testing.h"
#include "tracespec/v1/summary.pb.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kSecret[] = "Zq7Kx9Lm2Vb5Nw8P";

constexpr char kKeyring[] = R"(package ni;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
public class Keyring {
  private final String apiKey;
  public String blob = "";
  public Keyring(String apiKey) { this.apiKey = apiKey; }
  public int[] codes() { return apiKey.codePoints().toArray(); }
  public void seal() {
    blob = Base64.getEncoder().encodeToString(apiKey.getBytes(StandardCharsets.UTF_8));
  }
  public int fingerprint() { return apiKey.hashCode(); }
  public int route() { return apiKey.startsWith("Zq") ? twice(21) : 0; }
  public long stamp() { return System.nanoTime(); }
  public static int twice(int x) { return 2 * x; }
  public static int add(int a, int b) { return a + b; }
}
)";

constexpr char kKeyringTest[] = R"(package ni;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class KeyringTest {
  static final String KEY = "Zq7Kx9Lm2Vb5Nw8P";
  @Test void codes() { assertEquals(16, new Keyring(KEY).codes().length); }
  @Test void seal() { Keyring k = new Keyring(KEY); k.seal(); assertFalse(k.blob.isEmpty()); }
  @Test void fingerprint() { new Keyring(KEY).fingerprint(); }
  @Test void route() { new Keyring(KEY).route(); }
  @Test void stamp() { assertTrue(new Keyring(KEY).stamp() != 0); }
  @Test void innocent() { assertEquals(5, Keyring.add(2, 3)); assertEquals(-1, Keyring.add(4, -5)); }
}
)";

constexpr char kPolicy[] = R"(format_version: FORMAT_VERSION_1
record { class_pattern: "*" }
deny: "*key*"
redaction: MARK
)";

using testing::Observed;

class ObserveNoninterferenceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    classes_ = Compile({});
    policy_ = dir_.Write("policy.textproto", kPolicy);
  }

  // Keyring and KeyringTest with the test classes of `more`; the classes.
  std::string Compile(std::map<std::string, std::string> more) {
    more["ni/Keyring.java"] = kKeyring;
    more["ni/KeyringTest.java"] = kKeyringTest;
    return testing::CompileJava(dir_, more, {"-g"}, testing::JunitJar());
  }

  // Options that give tracespec a TMPDIR of its own, empty, at *temp.
  SubprocessOptions OwnTemp(std::string* temp) {
    *temp = dir_.path() + "/tmp";
    EXPECT_TRUE(MakeDirs(*temp).ok());
    SubprocessOptions options;
    options.env = {{"TMPDIR", *temp}};
    return options;
  }

  Observed Observe(const std::string& name, const std::vector<std::string>& extra) {
    return ObserveOther(name, classes_, "ni.KeyringTest", "ni.Keyring#*", policy_, extra);
  }

  // `observe` of other classes, into dir_/`name`.
  Observed ObserveOther(const std::string& name, const std::string& classes,
                        const std::string& tests, const std::string& method,
                        const std::string& policy, const std::vector<std::string>& extra,
                        const SubprocessOptions& options = {}) {
    std::string out = dir_.path() + "/" + name;
    std::vector<std::string> args = {"observe",  "--classpath", classes, "--tests", tests,
                                     "--method", method,        "--policy", policy, "--out",
                                     out};
    args.insert(args.end(), extra.begin(), extra.end());
    return testing::RunObserve(args, out, options);
  }

  // A PIN the test of `cls` writes as a literal, scrambled (below).
  std::pair<Observed, Observed> ObserveScrambledPin(const std::string& name,
                                                    const std::string& classes,
                                                    const std::string& cls, int scrambled);

  testing::TempDir dir_;
  std::string classes_;
  std::string policy_;
};

// Java's String.hashCode of ASCII `text`, as an int in the output files.
std::string JavaHashValue(const std::string& text) {
  int32_t hash = 0;
  for (char c : text) {
    hash = static_cast<int32_t>(31u * static_cast<uint32_t>(hash) + static_cast<uint32_t>(c));
  }
  return absl::StrCat("\"int_value\":", hash);
}

// The secret's encodings as they would appear in the output files.
std::vector<std::string> Encodings() {
  std::vector<std::string> codes;
  for (char c : std::string(kSecret)) {
    codes.push_back(absl::StrCat("{\"int_value\":", static_cast<int>(c), "}"));
  }
  return {kSecret, absl::Base64Escape(kSecret), absl::StrJoin(codes, ","),
          JavaHashValue(kSecret)};
}

// The JSON lines of `jsonl` that record calls of `method`.
std::vector<std::string> LinesOf(const std::string& jsonl, const std::string& method) {
  std::vector<std::string> out;
  for (absl::string_view line : absl::StrSplit(jsonl, '\n')) {
    if (absl::StrContains(line, absl::StrCat("\"name\":\"", method, "\""))) {
      out.emplace_back(line);
    }
  }
  return out;
}

const v1::Observation* OfTest(const Observed& r, const std::string& test, const std::string& method) {
  for (const v1::Observation& o : r.observations) {
    if (o.test_id() == test && o.method().name() == method) return &o;
  }
  return nullptr;
}

TEST_F(ObserveNoninterferenceTest, DerivedValuesLeakWhenTurnedOffAndNeverByDefault) {
  ASSERT_FALSE(classes_.empty());
  Observed plain = Observe("plain", {"--no-noninterference"});
  ASSERT_EQ(plain.result.exit_code, 0) << plain.Output();
  // The gap: the field itself is redacted, what is computed from it is not.
  EXPECT_THAT(plain.jsonl, Not(HasSubstr(kSecret)));
  for (size_t i = 1; i < Encodings().size(); ++i) {
    EXPECT_THAT(plain.jsonl, HasSubstr(Encodings()[i])) << "encoding " << i;
  }
  EXPECT_FALSE(plain.summary.noninterference());
  EXPECT_THAT(plain.result.stdout_data,
              HasSubstr("noninterference off: values computed from denied fields"));

  Observed ni = Observe("ni", {});
  ASSERT_EQ(ni.result.exit_code, 0) << ni.Output();
  std::string everything = testing::ReadTree(ni.out);
  for (const std::string& encoding : Encodings()) {
    EXPECT_THAT(everything, Not(HasSubstr(encoding))) << encoding;
  }
  // Only A's files: the substituted runs' traces and logs stay in a
  // temporary directory.
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(ni.out)) {
    files.push_back(entry.path().filename().string());
  }
  EXPECT_THAT(files, ::testing::UnorderedElementsAre("observations.pb", "observations.jsonl",
                                                     "summary.json", "jvm.log"));

  // The innocent method: byte for byte what the plain run recorded.
  std::vector<std::string> innocent = LinesOf(plain.jsonl, "add");
  ASSERT_EQ(innocent.size(), 2u);
  EXPECT_EQ(LinesOf(ni.jsonl, "add"), innocent);

  const char* dependent = observer::kDependsOnDenied;
  const v1::Observation* codes = OfTest(ni, "ni.KeyringTest#codes", "codes");
  ASSERT_NE(codes, nullptr);
  ASSERT_EQ(codes->post_size(), 2);  // The receiver and the returned array.
  const v1::ObjectState& array = codes->post(1);
  ASSERT_EQ(array.array().elements_size(), 16);
  for (const v1::Value& v : array.array().elements()) {
    EXPECT_EQ(v.redacted().reason(), dependent);
  }
  const v1::Observation* fingerprint = OfTest(ni, "ni.KeyringTest#fingerprint", "fingerprint");
  ASSERT_NE(fingerprint, nullptr);
  EXPECT_EQ(fingerprint->outcome().returned().redacted().reason(), dependent);
  const v1::Observation* seal = OfTest(ni, "ni.KeyringTest#seal", "seal");
  ASSERT_NE(seal, nullptr);
  for (const v1::Field& f : seal->post(0).fields()) {
    if (f.name() == "blob") EXPECT_EQ(f.value().redacted().reason(), dependent);
  }
  // Control flow: route() calls twice() only for the real key.
  EXPECT_THAT(std::vector<std::string>(ni.summary.tests_withheld().begin(),
                                       ni.summary.tests_withheld().end()),
              ::testing::ElementsAre("ni.KeyringTest#route"));
  const v1::Observation* twice = OfTest(ni, "ni.KeyringTest#route", "twice");
  ASSERT_NE(twice, nullptr);
  EXPECT_EQ(twice->args(0).redacted().reason(), dependent);
  EXPECT_EQ(twice->outcome().returned().redacted().reason(), dependent);
  // Time is not a secret's doing: nondeterministic, not dependent.
  const v1::Observation* stamp = OfTest(ni, "ni.KeyringTest#stamp", "stamp");
  ASSERT_NE(stamp, nullptr);
  EXPECT_EQ(stamp->outcome().returned().redacted().reason(), observer::kNondeterministic);

  EXPECT_TRUE(ni.summary.noninterference());
  EXPECT_EQ(ni.summary.noninterference_seed(), observer::kDefaultNoninterferenceSeed);
  EXPECT_EQ(ni.summary.noninterference_runs(), 3);
  EXPECT_GT(ni.summary.noninterference_substitutions(), 0);
  EXPECT_GE(ni.summary.withheld_dependent(), 16 + 1 + 1 + 4);
  EXPECT_EQ(ni.summary.withheld_nondeterministic(), 1);
  EXPECT_THAT(ni.result.stdout_data,
              HasSubstr(absl::StrCat("noninterference (seed 1, 3 runs, ")));
  EXPECT_THAT(ni.result.stdout_data,
              HasSubstr(absl::StrCat(ni.summary.withheld_dependent(),
                                     " recorded values withheld as depending on a denied value, "
                                     "1 as nondeterministic (dependence not decided)")));

  // What the comparison withheld is not counted as withheld by the policy.
  EXPECT_THAT(ni.result.stdout_data, Not(HasSubstr("fingerprint()I return value")));

  // Deterministic: a second run, the option explicit, writes the same files
  // (summary.json but for the JVM's wall time; jvm.log holds JUnit's timings).
  Observed again = Observe("again", {"--noninterference"});
  ASSERT_EQ(again.result.exit_code, 0) << again.Output();
  testing::ExpectSameOutput(ni, again);
}

// Static, primitive, char[] and boolean denied fields, each read several
// times (by the code and by the probe's own snapshots). The int and the
// boolean are denied by exact names: a pattern withholds only values that
// can hold a secret.
constexpr char kVault[] = R"(package ni;
public class Vault {
  static String sharedSecret = "Ab12Cd34";
  private int pin = 4821;
  private char[] passwordChars = "hunter22".toCharArray();
  private long keyBits = 123456789012L;
  private boolean secretFlag = true;
  public static int shared() { return sharedSecret.toLowerCase().hashCode(); }
  public int pinPlus() { return pin + 1; }
  public String pw() { return new String(passwordChars).toUpperCase(); }
  public long bits() { return keyBits * 3; }
  public boolean flag() { return !secretFlag; }
}
)";
constexpr char kVaultTest[] = R"(package ni;
import org.junit.jupiter.api.Test;
class VaultTest {
  @Test void all() {
    Vault v = new Vault();
    Vault.shared(); v.pinPlus(); v.pinPlus(); v.pw(); v.bits(); v.flag();
  }
}
)";

TEST_F(ObserveNoninterferenceTest, EveryKindOfDeniedFieldIsSubstitutedOnce) {
  std::string classes = testing::CompileJava(
      dir_, {{"ni/Vault.java", kVault}, {"ni/VaultTest.java", kVaultTest}}, {"-g"},
      testing::JunitJar());
  std::string policy = dir_.Write("vault.textproto", R"(format_version: FORMAT_VERSION_1
record { class_pattern: "*" }
deny: "*secret*"
deny: "pin"
deny: "secretFlag"
deny: "*password*"
deny: "*key*"
redaction: MARK
)");
  std::string out = dir_.path() + "/vault";
  SubprocessResult run = testing::RunTracespec(
      {"observe", "--classpath", classes, "--tests", "ni.VaultTest", "--method", "ni.Vault#*",
       "--policy", policy, "--out", out, "--noninterference"});
  ASSERT_EQ(run.exit_code, 0) << run.stdout_data << run.stderr_data;
  auto read = ReadObservations(out + "/observations.pb");
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 6u);
  for (const v1::Observation& o : *read) {
    EXPECT_EQ(o.outcome().returned().redacted().reason(), observer::kDependsOnDenied)
        << o.method().name();
  }
  v1::ObserveSummary summary;
  ASSERT_TRUE(FromJson(ReadFile(out + "/summary.json").value_or(""), &summary).ok());
  // One substitute per field, although `pin` is read twice by the code and
  // every field by each snapshot: a substitute is never substituted again.
  // `sharedSecret`, `passwordChars` and `pin` are initialised from
  // constants equal to what run A read from them ("Ab12Cd34", "hunter22",
  // and 4821, a sipush operand): the constants are substituted where Vault
  // loads, and the fields, holding their substitutes, are not again.
  EXPECT_EQ(summary.noninterference_substitutions(), 5);
  EXPECT_EQ(summary.noninterference_constants(), 3);
  EXPECT_THAT(testing::ReadTree(out), Not(HasSubstr("HUNTER22")));
}

// Reads of denied fields from wherever Java code can make them: a
// protected field declared by a superclass, read through the subclass and
// from another class; a static one read through the subclass; a private
// one read by a nested class (a nestmate's own getfield under release 17,
// an accessor of the outer class under release 8) and by a lambda. The
// substituted run routes each read instruction (ClassFile::
// RedirectFieldReads), so every returned value, each computed from one of
// them, is withheld as dependent. The targets are static methods of
// another class, so the probe never snapshots (and substitutes) a Derived
// itself: each substitute comes from a routed read.
constexpr char kBase[] = R"(package ni;
public class Base {
  protected String secretBase = "Kx93Vb27";
  public static String secretStatic = "Pw55Qr18";
}
)";
constexpr char kDerived[] = R"(package ni;
import java.util.function.IntSupplier;
public class Derived extends Base {
  private String secretOwn = "Mn47Tz62";
  public int viaSubclass() { return this.secretBase.hashCode(); }
  public int staticViaSubclass() { return Derived.secretStatic.hashCode(); }
  public int viaNested() { return new Inner().get(); }
  public int viaLambda() { IntSupplier s = () -> secretOwn.charAt(1); return s.getAsInt(); }
  class Inner { int get() { return secretOwn.charAt(0); } }
}
)";
constexpr char kOther[] = R"(package ni;
public class Other {
  public static int viaSubclass() { return new Derived().viaSubclass(); }
  public static int staticViaSubclass() { return new Derived().staticViaSubclass(); }
  public static int viaNested() { return new Derived().viaNested(); }
  public static int viaLambda() { return new Derived().viaLambda(); }
  public static int read() { return new Derived().secretBase.charAt(2); }
}
)";
constexpr char kDerivedTest[] = R"(package ni;
import org.junit.jupiter.api.Test;
class DerivedTest {
  @Test void all() {
    Other.viaSubclass(); Other.staticViaSubclass(); Other.viaNested(); Other.viaLambda();
    Other.read();
  }
}
)";

TEST_F(ObserveNoninterferenceTest, ReadsFromSubclassesNestedClassesLambdasAndOtherClasses) {
  std::string policy = dir_.Write("secret.textproto", R"(format_version: FORMAT_VERSION_1
record { class_pattern: "ni.*" }
deny: "*secret*"
redaction: MARK
)");
  for (const char* release : {"17", "8"}) {
    SCOPED_TRACE(release);
    testing::TempDir dir;
    std::string classes = testing::CompileJava(
        dir, {{"ni/Base.java", kBase}, {"ni/Derived.java", kDerived}, {"ni/Other.java", kOther},
              {"ni/DerivedTest.java", kDerivedTest}},
        {"-g", "--release", release}, testing::JunitJar());
    Observed r = ObserveOther(absl::StrCat("release", release), classes, "ni.DerivedTest",
                              "ni.Other#*", policy, {"--noninterference"});
    ASSERT_EQ(r.result.exit_code, 0) << r.Output();
    std::vector<std::string> methods;
    for (const v1::Observation& o : r.observations) {
      methods.push_back(o.method().name());
      EXPECT_EQ(o.outcome().returned().redacted().reason(), observer::kDependsOnDenied)
          << o.method().name();
    }
    EXPECT_THAT(methods, ::testing::UnorderedElementsAre("viaSubclass", "staticViaSubclass",
                                                         "viaNested", "viaLambda", "read"));
    EXPECT_EQ(r.summary.noninterference_runs(), 3);
    // The static field once, an instance field once per Derived.
    EXPECT_EQ(r.summary.noninterference_substitutions(), 5);
  }
}

// A secret the test passes to a constructor as a literal, which derives
// values from its parameter before (or instead of) reading the denied
// field: substituting the field's reads changes nothing of them. Run A
// finds the test's constant equal to the denied value it read, and the
// substituted runs replace that constant where it loads.
constexpr char kApiClient[] = R"(package ni;
public class ApiClient {
  private final String apiKey;
  public final String reversed;
  private final int checksum;
  public ApiClient(String key) {
    this.apiKey = key;
    this.reversed = new StringBuilder(key).reverse().toString();
    this.checksum = key.hashCode();
  }
  public String tag() { return reversed.substring(0, 6); }
  public int checksum() { return checksum; }
  public static int twice(int x) { return 2 * x; }
}
)";
constexpr char kApiClientTest[] = R"(package ni;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class ApiClientTest {
  @Test void tag() { assertEquals(6, new ApiClient("Rt5Yh8Kp3Wq6Zm1X").tag().length()); }
  @Test void checksum() { new ApiClient("Rt5Yh8Kp3Wq6Zm1X").checksum(); }
  @Test void innocent() { assertEquals(8, ApiClient.twice(4)); }
}
)";

TEST_F(ObserveNoninterferenceTest, ASecretPassedAsALiteralIsSubstitutedWhereItLoads) {
  testing::TempDir dir;
  std::string classes = testing::CompileJava(
      dir, {{"ni/ApiClient.java", kApiClient}, {"ni/ApiClientTest.java", kApiClientTest}},
      {"-g"}, testing::JunitJar());
  const std::string reversed = "X1mZ6qW3pK8hY5tR";
  const std::string checksum = JavaHashValue("Rt5Yh8Kp3Wq6Zm1X");
  // Off: what the constructor derived from its parameter is there in clear.
  Observed plain = ObserveOther("literal-plain", classes, "ni.ApiClientTest", "ni.ApiClient#*",
                                policy_, {"--no-noninterference"});
  ASSERT_EQ(plain.result.exit_code, 0) << plain.Output();
  EXPECT_THAT(plain.jsonl, HasSubstr(reversed));
  EXPECT_THAT(plain.jsonl, HasSubstr(checksum));
  EXPECT_THAT(plain.jsonl, HasSubstr(reversed.substr(0, 6)));

  Observed ni = ObserveOther("literal-ni", classes, "ni.ApiClientTest", "ni.ApiClient#*",
                             policy_, {});
  ASSERT_EQ(ni.result.exit_code, 0) << ni.Output();
  std::string everything = testing::ReadTree(ni.out);
  EXPECT_THAT(everything, Not(HasSubstr(reversed)));
  EXPECT_THAT(everything, Not(HasSubstr(reversed.substr(0, 6))));
  EXPECT_THAT(everything, Not(HasSubstr(checksum)));
  EXPECT_THAT(everything, Not(HasSubstr("Rt5Yh8Kp3Wq6Zm1X")));
  const v1::Observation* tag = OfTest(ni, "ni.ApiClientTest#tag", "tag");
  ASSERT_NE(tag, nullptr);
  EXPECT_EQ(tag->outcome().returned().redacted().reason(), observer::kDependsOnDenied);
  const v1::Observation* sum = OfTest(ni, "ni.ApiClientTest#checksum", "checksum");
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(sum->outcome().returned().redacted().reason(), observer::kDependsOnDenied);
  // The innocent call is what the plain run recorded.
  std::vector<std::string> innocent = LinesOf(plain.jsonl, "twice");
  ASSERT_EQ(innocent.size(), 1u);
  EXPECT_EQ(LinesOf(ni.jsonl, "twice"), innocent);
  EXPECT_EQ(ni.summary.noninterference_constants(), 1);
  EXPECT_THAT(ni.Output(),
              HasSubstr("noninterference: 1 constant of the loaded classes equal a denied value"));
  EXPECT_THAT(ni.result.stdout_data, HasSubstr("among them 1 constant equal to a denied value"));
  EXPECT_THAT(ni.Output(), Not(HasSubstr("Rt5Yh8Kp3Wq6Zm1X")));
  EXPECT_EQ(ni.summary.denied_constants_size(), 1);
}

// The denied constants the last observe into the same directory found
// let B and C start beside run A with them substituted: the same result,
// without starting again after A. A summary naming other keys costs the
// restart, never the result.
TEST_F(ObserveNoninterferenceTest, TheLastObservesConstantsLetTheSubstitutedRunsStartAtOnce) {
  testing::TempDir dir;
  std::string classes = testing::CompileJava(
      dir, {{"ni/ApiClient.java", kApiClient}, {"ni/ApiClientTest.java", kApiClientTest}},
      {"-g"}, testing::JunitJar());
  Observed first = ObserveOther("again", classes, "ni.ApiClientTest", "ni.ApiClient#*",
                                policy_, {});
  ASSERT_EQ(first.result.exit_code, 0) << first.Output();
  EXPECT_THAT(first.Output(), HasSubstr("the substituted runs start again with it"));
  Observed second = ObserveOther("again", classes, "ni.ApiClientTest", "ni.ApiClient#*",
                                 policy_, {});
  ASSERT_EQ(second.result.exit_code, 0) << second.Output();
  EXPECT_THAT(second.Output(), HasSubstr("the same as the last observe found: the substituted "
                                         "runs started with it substituted where loaded"));
  EXPECT_THAT(second.Output(), Not(HasSubstr("start again")));
  EXPECT_EQ(second.jsonl, first.jsonl);
  EXPECT_EQ(second.summary.noninterference_constants(), 1);
  EXPECT_EQ(second.summary.denied_constants_size(), 1);

  // A summary that names another key: B and C start again with the one run
  // A found, and the result is the same.
  std::string other = dir_.path() + "/other";
  ASSERT_TRUE(std::filesystem::create_directories(other));
  std::filesystem::permissions(other, std::filesystem::perms::owner_all);
  ASSERT_TRUE(WriteFileAtomic(other + "/summary.json", R"({"denied_constants": ["12345"]})").ok());
  Observed third = ObserveOther("other", classes, "ni.ApiClientTest", "ni.ApiClient#*",
                                policy_, {});
  ASSERT_EQ(third.result.exit_code, 0) << third.Output();
  EXPECT_THAT(third.Output(), HasSubstr("the substituted runs start again with it"));
  EXPECT_EQ(third.jsonl, first.jsonl);
}

// A PIN of 16 bits passed as a literal (sipush: in the code, not the
// constant pool) to a constructor that scrambles its parameter.
constexpr char kLock[] = R"(package ni;
public class Lock {
  private final int pin;
  public final int scrambled;
  public Lock(int code) { this.pin = code; this.scrambled = code * 7 + 3; }
  public int scrambled() { return scrambled; }
}
)";
constexpr char kLockTest[] = R"(package ni;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class LockTest {
  @Test void scrambled() { assertTrue(new Lock(4821).scrambled() > 0); }
}
)";

// Observes `cls` (its tests ni.<cls>Test; fields named `pin` denied) with
// --no-noninterference and by default, into dir_/`name`-plain and -ni:
// the test's call of `scrambled` returns `scrambled`, which the class
// computed from a PIN the test wrote as a literal. It is there in the plain
// run and withheld by default; one constant equals the denied PIN. Returns
// both runs.
std::pair<Observed, Observed> ObserveNoninterferenceTest::ObserveScrambledPin(
    const std::string& name, const std::string& classes, const std::string& cls, int scrambled) {
  std::string policy = dir_.Write(name + ".textproto", R"(format_version: FORMAT_VERSION_1
record { class_pattern: "ni.*" }
deny: "pin"
redaction: MARK
)");
  const std::string value = absl::StrCat("\"int_value\":", scrambled);
  const std::string tests = "ni." + cls + "Test";
  const std::string methods = "ni." + cls + "#*";
  Observed plain =
      ObserveOther(name + "-plain", classes, tests, methods, policy, {"--no-noninterference"});
  EXPECT_EQ(plain.result.exit_code, 0) << plain.Output();
  EXPECT_THAT(plain.jsonl, HasSubstr(value));
  Observed ni = ObserveOther(name + "-ni", classes, tests, methods, policy, {});
  EXPECT_EQ(ni.result.exit_code, 0) << ni.Output();
  EXPECT_THAT(testing::ReadTree(ni.out), Not(HasSubstr(value)));
  const v1::Observation* call = OfTest(ni, tests + "#scrambled", "scrambled");
  EXPECT_NE(call, nullptr);
  if (call != nullptr) {
    EXPECT_EQ(call->outcome().returned().redacted().reason(), observer::kDependsOnDenied);
  }
  EXPECT_EQ(ni.summary.noninterference_constants(), 1);
  return {std::move(plain), std::move(ni)};
}

TEST_F(ObserveNoninterferenceTest, APinPassedAsASixteenBitLiteralIsSubstitutedInTheCode) {
  testing::TempDir dir;
  std::string classes = testing::CompileJava(
      dir, {{"ni/Lock.java", kLock}, {"ni/LockTest.java", kLockTest}}, {"-g"},
      testing::JunitJar());
  ObserveScrambledPin("pin", classes, "Lock", 4821 * 7 + 3);
}

// A PIN written into a string concatenation (javac 9+ folds it into the
// recipe of an invokedynamic, not a constant of its own) and parsed back by
// a constructor that scrambles it.
constexpr char kSafe[] = R"(package ni;
public class Safe {
  private final int pin;
  public final int scrambled;
  public Safe(String spec) {
    int code = Integer.parseInt(spec.substring(spec.indexOf(':') + 1));
    this.pin = code;
    this.scrambled = code * 7 + 3;
  }
  public int scrambled() { return scrambled; }
  public static int twice(int x) { return 2 * x; }
}
)";
constexpr char kSafeTest[] = R"(package ni;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class SafeTest {
  static String owner() { return "ann"; }
  @Test void scrambled() { assertTrue(new Safe(owner() + ":" + 48213).scrambled() > 0); }
  @Test void innocent() { assertEquals(8, Safe.twice(4)); }
}
)";

TEST_F(ObserveNoninterferenceTest, APinFoldedIntoAConcatenationIsSubstitutedInItsRecipe) {
  testing::TempDir dir;
  std::string classes = testing::CompileJava(
      dir, {{"ni/Safe.java", kSafe}, {"ni/SafeTest.java", kSafeTest}}, {"-g"},
      testing::JunitJar());
  auto [plain, ni] = ObserveScrambledPin("recipe", classes, "Safe", 48213 * 7 + 3);
  EXPECT_THAT(testing::ReadTree(ni.out), Not(HasSubstr("48213")));
  // The innocent call is what the plain run recorded.
  std::vector<std::string> innocent = LinesOf(plain.jsonl, "twice");
  ASSERT_EQ(innocent.size(), 1u);
  EXPECT_EQ(LinesOf(ni.jsonl, "twice"), innocent);
  EXPECT_EQ(ni.summary.denied_constants_size(), 1);
}

// A secret the test keeps as a constant and also writes into a
// concatenation, where javac folds it into the recipe: the ldc passed to
// the constructor is substituted, and so must the recipe's piece be.
constexpr char kSigner[] = R"(package ni;
public class Signer {
  private final String apiKey;
  public Signer(String apiKey) { this.apiKey = apiKey; }
  public int sign(String message) { return message.hashCode(); }
}
)";
constexpr char kSignerTest[] = R"(package ni;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class SignerTest {
  static final String KEY = "Rt5Yh8Kp3Wq6Zm1X";
  static String user() { return "ann"; }
  @Test void sign() { assertTrue(new Signer(KEY).sign(KEY + user()) != 0); }
}
)";

TEST_F(ObserveNoninterferenceTest, ASecretTextFoldedIntoAConcatenationIsSubstitutedInItsRecipe) {
  testing::TempDir dir;
  std::string classes = testing::CompileJava(
      dir, {{"ni/Signer.java", kSigner}, {"ni/SignerTest.java", kSignerTest}}, {"-g"},
      testing::JunitJar());
  const std::string signature = JavaHashValue("Rt5Yh8Kp3Wq6Zm1Xann");
  Observed plain = ObserveOther("text-recipe-plain", classes, "ni.SignerTest", "ni.Signer#*",
                                policy_, {"--no-noninterference"});
  ASSERT_EQ(plain.result.exit_code, 0) << plain.Output();
  EXPECT_THAT(plain.jsonl, HasSubstr(signature));
  Observed ni = ObserveOther("text-recipe-ni", classes, "ni.SignerTest", "ni.Signer#*", policy_,
                             {});
  ASSERT_EQ(ni.result.exit_code, 0) << ni.Output();
  std::string everything = testing::ReadTree(ni.out);
  EXPECT_THAT(everything, Not(HasSubstr(signature)));
  EXPECT_THAT(everything, Not(HasSubstr("Rt5Yh8Kp3Wq6Zm1X")));
  const v1::Observation* sign = OfTest(ni, "ni.SignerTest#sign", "sign");
  ASSERT_NE(sign, nullptr);
  EXPECT_EQ(sign->outcome().returned().redacted().reason(), observer::kDependsOnDenied);
  // The literal and the recipe's piece are the same text: one key.
  EXPECT_EQ(ni.summary.noninterference_constants(), 1);
}

// A class file too old for the routing (version 48: no class constants)
// that reads a denied field: the substituted run fails and observe with
// it (fail closed), naming the class; without the option it runs.
constexpr char kOld[] = R"(package ni;
public class Old {
  private String secretOld = "Hy62Jd09";
  public int read() { return secretOld.length(); }
}
)";
constexpr char kOldTest[] = R"(package ni;
import org.junit.jupiter.api.Test;
class OldTest { @Test void read() { new Old().read(); } }
)";

TEST_F(ObserveNoninterferenceTest, AClassTooOldToRouteFailsTheSubstitutedRun) {
  std::string classes = testing::CompileJava(
      dir_, {{"ni/Old.java", kOld}, {"ni/OldTest.java", kOldTest}}, {"-g", "--release", "8"},
      testing::JunitJar());
  std::string path = classes + "/ni/Old.class";
  std::string bytes = ReadFile(path).value_or("");
  ASSERT_GT(bytes.size(), 8u);
  bytes[6] = 0;
  bytes[7] = 48;
  ASSERT_TRUE(WriteFileAtomic(path, bytes).ok());
  std::string policy = dir_.Write("secret.textproto", R"(format_version: FORMAT_VERSION_1
record { class_pattern: "ni.*" }
deny: "*secret*"
redaction: MARK
)");
  Observed plain = ObserveOther("plain", classes, "ni.OldTest", "ni.Old#*", policy,
                                {"--no-noninterference"});
  ASSERT_EQ(plain.result.exit_code, 0) << plain.Output();
  SubprocessResult ni = testing::RunTracespec(
      {"observe", "--classpath", classes, "--tests", "ni.OldTest", "--method", "ni.Old#*",
       "--policy", policy, "--out", dir_.path() + "/ni", "--noninterference"});
  EXPECT_NE(ni.exit_code, 0);
  EXPECT_THAT(ni.stderr_data,
              HasSubstr("noninterference: substituted run B: the probe failed in the substituted "
                        "run B: cannot route the denied field reads of ni.Old: class file version "
                        "48 is too old to route ni/Old.secretOld through the probe"));
  EXPECT_FALSE(FileExists(dir_.path() + "/ni/observations.pb"));
}

// Denied fields that are a UUID and IPv4/IPv6 addresses (deny `*token*`,
// `*private*`), kept elsewhere as numbers no deny pattern names: the
// UUID's two longs, the IPv4 address's int, the low half of the IPv6
// address. What the substitutes must keep — the UUID's version and
// variant, each address's family, the host name's length, the IPv6 scope —
// is not withheld.
constexpr char kSession[] = R"(package ni;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.UUID;
public class Session {
  private final UUID sessionToken;
  private final InetAddress privateHost;
  private final InetAddress privateHost6;
  public long high;
  public long low;
  public Session(UUID token, InetAddress host, InetAddress host6) {
    sessionToken = token;
    privateHost = host;
    privateHost6 = host6;
  }
  public void bind() {
    high = sessionToken.getMostSignificantBits();
    low = sessionToken.getLeastSignificantBits();
  }
  public int kind() { return sessionToken.version() * 10 + sessionToken.variant(); }
  public int route() { return ByteBuffer.wrap(privateHost.getAddress()).getInt(); }
  public long route6() { return ByteBuffer.wrap(privateHost6.getAddress()).getLong(8); }
  public boolean families() {
    return privateHost instanceof Inet4Address && privateHost6 instanceof Inet6Address;
  }
  public int hostLength() { return privateHost.getHostName().length(); }
  public String hostName() { return privateHost.getHostName(); }
  public int scope() { return ((Inet6Address) privateHost6).getScopeId(); }
}
)";
// The values are built at run time; the host name is given, so that
// getHostName() never looks it up.
constexpr char kSessionTest[] = R"(package ni;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.UUID;
import org.junit.jupiter.api.Test;
class SessionTest {
  @Test void all() throws Exception {
    byte[] v6 = new byte[16];
    v6[0] = (byte) 0xfd; v6[1] = 0x12; v6[15] = 7;
    Session s = new Session(
        UUID.fromString(String.join("-", "5f0c2a9e", "7d41", "4b3a", "9e26", "c18f03d7ab54")),
        InetAddress.getByAddress("db7." + "internal", new byte[] {10, 41, 7, (byte) 203}),
        Inet6Address.getByAddress(null, v6, 3));
    s.bind(); s.kind(); s.route(); s.route6(); s.families(); s.hostLength(); s.hostName();
    s.scope();
  }
}
)";

TEST_F(ObserveNoninterferenceTest, UuidsAndAddressesAreSubstitutedByValuesOfTheirKind) {
  std::string classes = testing::CompileJava(
      dir_, {{"ni/Session.java", kSession}, {"ni/SessionTest.java", kSessionTest}}, {"-g"},
      testing::JunitJar());
  ASSERT_FALSE(classes.empty());
  std::string policy = dir_.Write("session.textproto", R"(format_version: FORMAT_VERSION_1
record { class_pattern: "*" }
deny: "*token*"
deny: "*private*"
redaction: MARK
)");
  auto observe = [&](const std::string& name, const std::vector<std::string>& extra) {
    return ObserveOther(name, classes, "ni.SessionTest", "ni.Session#*", policy, extra);
  };
  // The UUID's longs and the IPv4 address as an int (the IPv6 address's
  // low long, 7, is too common a number to search for).
  const std::string high = "6848895993518312250";   // 0x5f0c2a9e7d414b3a
  const std::string low = "-7050735346612982956";   // 0x9e26c18f03d7ab54
  const std::string route = "170461131";             // 10.41.7.203
  Observed plain = observe("plain", {"--no-noninterference"});
  ASSERT_EQ(plain.result.exit_code, 0) << plain.Output();
  // The gap: the fields are redacted, the numbers computed from them not.
  EXPECT_THAT(plain.jsonl, HasSubstr(high));
  EXPECT_THAT(plain.jsonl, HasSubstr(low));
  EXPECT_THAT(plain.jsonl, HasSubstr(route));
  EXPECT_THAT(plain.jsonl, HasSubstr("db7.internal"));

  Observed ni = observe("ni", {"--noninterference"});
  ASSERT_EQ(ni.result.exit_code, 0) << ni.Output();
  std::string everything = testing::ReadTree(ni.out);
  for (const std::string& leak : {high, low, route, std::string("db7.internal")}) {
    EXPECT_THAT(everything, Not(HasSubstr(leak))) << leak;
  }
  const char* dependent = observer::kDependsOnDenied;
  auto returned = [&](const std::string& method) -> v1::Value {
    const v1::Observation* o = OfTest(ni, "ni.SessionTest#all", method);
    EXPECT_NE(o, nullptr) << method;
    return o == nullptr ? v1::Value() : o->outcome().returned();
  };
  const v1::Observation* bind = OfTest(ni, "ni.SessionTest#all", "bind");
  ASSERT_NE(bind, nullptr);
  int withheld_longs = 0;
  for (const v1::Field& f : bind->post(0).fields()) {
    if (f.name() == "high" || f.name() == "low") {
      EXPECT_EQ(f.value().redacted().reason(), dependent) << f.name();
      ++withheld_longs;
    }
  }
  EXPECT_EQ(withheld_longs, 2);
  EXPECT_EQ(returned("route").redacted().reason(), dependent);
  EXPECT_EQ(returned("route6").redacted().reason(), dependent);
  EXPECT_EQ(returned("hostName").redacted().reason(), dependent);
  // Same version 4 and variant 2, same families, same host name length,
  // same scope: recorded as they are.
  EXPECT_EQ(returned("kind").int_value(), 42);
  EXPECT_TRUE(returned("families").bool_value());
  EXPECT_EQ(returned("hostLength").int_value(), 12);
  EXPECT_EQ(returned("scope").int_value(), 3);
  EXPECT_TRUE(ni.summary.tests_withheld().empty());
  // One substitute per field, however often each is read.
  EXPECT_EQ(ni.summary.noninterference_substitutions(), 3);

  Observed again = observe("again", {"--noninterference"});
  ASSERT_EQ(again.result.exit_code, 0) << again.Output();
  testing::ExpectSameOutput(ni, again);
}

// A test that takes its time in one kind of run only, as $NI_SLOW says:
// "A" in the real run (route() sees the real key), "B" in the substituted
// ones. The sleep is in the test class, which records nothing.
constexpr char kSlowTest[] = R"(package ni;
import org.junit.jupiter.api.Test;
class SlowTest {
  @Test void slow() throws Exception {
    boolean real = new Keyring(KeyringTest.KEY).route() == 42;
    String slow = System.getenv("NI_SLOW");
    if (("A".equals(slow) && real) || ("B".equals(slow) && !real)) Thread.sleep(4000);
  }
}
)";

// The substituted runs run beside run A; what is written must not depend
// on which JVM ends first.
TEST_F(ObserveNoninterferenceTest, TheOrderInWhichTheRunsEndChangesNothing) {
  std::string classes = Compile({{"ni/SlowTest.java", kSlowTest}});
  ASSERT_FALSE(classes.empty());
  auto observe = [&](const std::string& slow) {
    std::string out = dir_.path() + "/slow" + slow;
    SubprocessOptions env;
    env.env = {{"NI_SLOW", slow}};
    return testing::RunObserve(
        {"observe", "--classpath", classes, "--tests", "ni.KeyringTest,ni.SlowTest", "--method",
         "ni.Keyring#*", "--policy", policy_, "--out", out, "--noninterference"},
        out, env);
  };
  Observed a_last = observe("A");  // B ends before A
  Observed b_last = observe("B");  // A ends before B (C, after both, is slow too)
  ASSERT_EQ(a_last.result.exit_code, 0) << a_last.Output();
  ASSERT_EQ(b_last.result.exit_code, 0) << b_last.Output();
  // The sleep happened where it should: in run A only for "A".
  EXPECT_GE(a_last.summary.jvm_seconds(), 4.0);
  EXPECT_LT(b_last.summary.jvm_seconds(), a_last.summary.jvm_seconds());

  EXPECT_FALSE(a_last.pb.empty());
  // Every field of the summary but run A's wall time: the runs, the
  // substitutions, what was withheld and why, the tests withheld.
  testing::ExpectSameOutput(a_last, b_last);
  const v1::ObserveSummary& first = a_last.summary;
  EXPECT_EQ(first.noninterference_runs(), 3);
  EXPECT_GE(first.withheld_dependent(), 16 + 1 + 1 + 4);
  EXPECT_EQ(first.withheld_nondeterministic(), 1);
  EXPECT_THAT(std::vector<std::string>(first.tests_withheld().begin(),
                                       first.tests_withheld().end()),
              ::testing::ElementsAre("ni.KeyringTest#route", "ni.SlowTest#slow"));
  // Progress: whole lines of tracespec's own, however the runs interleave.
  for (const Observed* r : {&a_last, &b_last}) {
    for (absl::string_view line : absl::StrSplit(r->result.stderr_data, '\n', absl::SkipEmpty())) {
      EXPECT_TRUE(absl::StartsWith(line, "tracespec: ")) << line;
    }
    EXPECT_THAT(r->result.stderr_data,
                HasSubstr("noninterference: running the tests with every denied field "
                          "substituted (seed 1), beside them\n"));
  }
}

// A test that, in the substituted runs only (route() sees a substitute),
// puts a directory where the probe keeps its status, so that the probe
// cannot write it there.
constexpr char kBreakTest[] = R"(package ni;
import java.io.File;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;
class BreakTest {
  @Test void breakStatus() {
    if (new Keyring(KeyringTest.KEY).route() == 42) return;
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      int at = arg.indexOf("=config=");
      if (!arg.startsWith("-agentpath:") || at < 0) continue;
      File status = new File(new File(arg.substring(at + 8)).getParentFile(), "status.pb");
      status.delete();
      status.mkdir();
    }
  }
}
)";

// A substituted run that fails while run A succeeds: observe fails, the
// error names the run, and no observations and no summary are written
// (fail closed); the temporary directories are gone.
TEST_F(ObserveNoninterferenceTest, ASubstitutedRunThatFailsIsNamedAndNothingIsWritten) {
  std::string classes = Compile({{"ni/BreakTest.java", kBreakTest}});
  ASSERT_FALSE(classes.empty());
  std::vector<std::string> args = {"observe", "--classpath", classes, "--tests",
                                   "ni.KeyringTest,ni.BreakTest", "--method", "ni.Keyring#*",
                                   "--policy", policy_};
  std::string temp;
  SubprocessOptions tmp = OwnTemp(&temp);
  // Turned off, the same tests pass: only the substituted runs break.
  std::string plain = dir_.path() + "/plain";
  std::vector<std::string> plain_args = args;
  plain_args.insert(plain_args.end(), {"--out", plain, "--no-noninterference"});
  SubprocessResult ok = testing::RunTracespec(plain_args, tmp);
  ASSERT_EQ(ok.exit_code, 0) << ok.stdout_data << ok.stderr_data;

  std::string out = dir_.path() + "/broken";
  args.insert(args.end(), {"--out", out, "--noninterference"});
  SubprocessResult run = testing::RunTracespec(args, tmp);
  EXPECT_NE(run.exit_code, 0);
  EXPECT_THAT(run.stderr_data, HasSubstr("noninterference: substituted run B: "));
  EXPECT_THAT(run.stderr_data, HasSubstr("status.pb"));
  EXPECT_FALSE(FileExists(out + "/observations.pb"));
  EXPECT_FALSE(FileExists(out + "/observations.jsonl"));
  EXPECT_FALSE(FileExists(out + "/summary.json"));
  EXPECT_TRUE(std::filesystem::is_empty(temp));
}

// When run A fails, the substituted run beside it is stopped: the error
// is A's, as without the option, and nothing is left behind.
TEST_F(ObserveNoninterferenceTest, ARunAThatFailsStopsTheSubstitutedRun) {
  std::string temp;
  SubprocessOptions tmp = OwnTemp(&temp);
  std::vector<std::string> args = {"observe", "--classpath", classes_, "--tests",
                                   "ni.KeyringTest", "--method", "ni.Keyring#*",
                                   "--max-methods", "1", "--policy", policy_};
  std::vector<std::string> plain = args;
  plain.insert(plain.end(), {"--out", dir_.path() + "/plain", "--no-noninterference"});
  SubprocessResult without = testing::RunTracespec(plain, tmp);
  args.insert(args.end(), {"--out", dir_.path() + "/ni", "--noninterference"});
  SubprocessResult with = testing::RunTracespec(args, tmp);
  EXPECT_NE(without.exit_code, 0);
  EXPECT_EQ(with.exit_code, without.exit_code);
  EXPECT_THAT(with.stderr_data, HasSubstr("matched more than --max-methods 1"));
  EXPECT_THAT(with.stderr_data, Not(HasSubstr("substituted run B:")));
  EXPECT_FALSE(FileExists(dir_.path() + "/ni/summary.json"));
  EXPECT_TRUE(std::filesystem::is_empty(temp));
}

TEST_F(ObserveNoninterferenceTest, RefusedForCommands) {
  Observed r;
  r.result = testing::RunTracespec({"observe", "--method", "ni.Keyring#*", "--out",
                                    dir_.path() + "/cmd", "--noninterference", "--", "java",
                                    "-version"});
  EXPECT_NE(r.result.exit_code, 0);
  EXPECT_THAT(r.Output(), HasSubstr("--noninterference applies to test runs"));
}

TEST_F(ObserveNoninterferenceTest, BothFlagsAtOnceAreRefused) {
  SubprocessResult r = testing::RunTracespec(
      {"observe", "--classpath", classes_, "--tests", "ni.KeyringTest", "--method", "ni.Keyring#*",
       "--out", dir_.path() + "/both", "--noninterference", "--no-noninterference"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.stderr_data, HasSubstr("--noninterference excludes --no-noninterference"));
}

// A policy that denies no field leaves nothing to substitute: the tests run
// once, and the output says so.
TEST_F(ObserveNoninterferenceTest, APolicyThatDeniesNoFieldRunsTheTestsOnceAndSaysSo) {
  std::string open = dir_.Write("open.textproto", R"(format_version: FORMAT_VERSION_1
record { class_pattern: "*" }
redaction: MARK
)");
  Observed r = ObserveOther("open", classes_, "ni.KeyringTest", "ni.Keyring#*", open, {});
  ASSERT_EQ(r.result.exit_code, 0) << r.Output();
  EXPECT_FALSE(r.summary.noninterference());
  EXPECT_EQ(r.summary.noninterference_not_compared(),
            "the policy denies no field: nothing to substitute, no second run");
  EXPECT_THAT(r.result.stdout_data,
              HasSubstr("noninterference not run: the policy denies no field"));
  EXPECT_THAT(r.result.stderr_data, Not(HasSubstr("substituted (seed")));
}

// A secret in an environment variable and one in a system property, which
// the policy names (deny_env, deny_property): the value itself is never
// recorded (the taint set has it from the JVM's start), what the code
// computes from it is withheld by default (the substituted runs start with
// substitutes in their place) and leaks only with --no-noninterference;
// an environment variable the policy does not name is recorded as it is.
constexpr char kDialer[] = R"(package ev;
public class Dialer {
  public static String raw() { return System.getenv("DB_PASSWORD"); }
  public static String endpoint() {
    return "db://" + System.getenv("DB_PASSWORD").toUpperCase() + "@host";
  }
  public static int scrambled() { return Integer.parseInt(System.getProperty("app.pin")) * 7; }
  public static String region() { return System.getenv("TRACESPEC_TEST_REGION"); }
  public static int port(int p) { return p + 1; }
}
)";
constexpr char kDialerTest[] = R"(package ev;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class DialerTest {
  @Test void raw() { assertEquals(8, Dialer.raw().length()); }
  @Test void endpoint() { assertTrue(Dialer.endpoint().startsWith("db://")); }
  @Test void scrambled() { assertTrue(Dialer.scrambled() > 0); }
  @Test void region() { assertEquals("north-harbour", Dialer.region()); }
  @Test void port() { assertEquals(8081, Dialer.port(8080)); }
}
)";

TEST_F(ObserveNoninterferenceTest, ASecretInTheEnvironmentOrASystemPropertyTheyNameIsDenied) {
  std::string classes = testing::CompileJava(
      dir_, {{"ev/Dialer.java", kDialer}, {"ev/DialerTest.java", kDialerTest}}, {"-g"},
      testing::JunitJar());
  ASSERT_FALSE(classes.empty());
  std::string policy = dir_.Write("sources.textproto", absl::StrCat(kPolicy, R"(
deny_env: "db_pass*"
deny_env: "NO_SUCH_*"
deny_property: "app.pin"
)"));
  SubprocessOptions env;
  env.env = {{"DB_PASSWORD", "Rk4Tz8Qw"},
             {"TRACESPEC_TEST_REGION", "north-harbour"},
             {"JAVA_TOOL_OPTIONS", "-Dapp.pin=48213"}};
  auto observe = [&](const std::string& name, const std::vector<std::string>& extra) {
    return ObserveOther(name, classes, "ev.DialerTest", "ev.Dialer#*", policy, extra, env);
  };
  const std::string derived_text = "RK4TZ8QW";                   // endpoint(), upper-cased
  const std::string derived_number = std::to_string(48213 * 7);  // scrambled()

  // Turned off: the values themselves are still never recorded (the taint
  // set), what is computed from them is (the gap noninterference closes).
  Observed plain = observe("plain", {"--no-noninterference"});
  ASSERT_EQ(plain.result.exit_code, 0) << plain.Output();
  std::string plain_tree = testing::ReadTree(plain.out);
  EXPECT_THAT(plain_tree, Not(HasSubstr("Rk4Tz8Qw")));
  EXPECT_THAT(plain_tree, Not(HasSubstr("48213")));  // jvm.log's "Picked up ..." line too
  EXPECT_THAT(plain.jsonl, HasSubstr(derived_text));
  EXPECT_THAT(plain.jsonl, HasSubstr(derived_number));
  const v1::Observation* raw = OfTest(plain, "ev.DialerTest#raw", "raw");
  ASSERT_NE(raw, nullptr);
  EXPECT_TRUE(raw->outcome().returned().has_redacted()) << raw->DebugString();

  Observed ni = observe("ni", {});
  ASSERT_EQ(ni.result.exit_code, 0) << ni.Output();
  EXPECT_THAT(ni.result.stdout_data + ni.result.stderr_data,
              HasSubstr("values denied like a denied field's (never recorded, substituted in "
                        "the noninterference runs): environment variable DB_PASSWORD, system "
                        "property app.pin"));
  std::string tree = testing::ReadTree(ni.out);
  for (const std::string& secret : {std::string("Rk4Tz8Qw"), std::string("48213"), derived_text,
                                    derived_number}) {
    EXPECT_THAT(tree, Not(HasSubstr(secret))) << secret;
  }
  EXPECT_TRUE(ni.summary.noninterference());
  EXPECT_GE(ni.summary.noninterference_substitutions(), 2);
  for (const char* method : {"endpoint", "scrambled"}) {
    const v1::Observation* o = OfTest(ni, absl::StrCat("ev.DialerTest#", method), method);
    ASSERT_NE(o, nullptr) << method;
    EXPECT_EQ(o->outcome().returned().redacted().reason(), observer::kDependsOnDenied) << method;
  }
  // What does not depend on them is recorded as it is, an environment
  // variable the policy does not name included.
  EXPECT_THAT(ni.jsonl, HasSubstr("north-harbour"));
  EXPECT_EQ(LinesOf(ni.jsonl, "port"), LinesOf(plain.jsonl, "port"));
  ASSERT_EQ(LinesOf(ni.jsonl, "port").size(), 1u);

  // Deterministic.
  Observed again = observe("again", {});
  ASSERT_EQ(again.result.exit_code, 0) << again.Output();
  testing::ExpectSameOutput(ni, again);
}

// A policy whose deny_env names no variable that is set says so; the
// substituted run still happens (a field could be denied), substitutes
// nothing it does not read.
TEST_F(ObserveNoninterferenceTest, ADenyEnvRuleThatMatchesNothingIsSaid) {
  std::string policy = dir_.Write("nothing.textproto", absl::StrCat(kPolicy, R"(
deny_env: "TRACESPEC_NO_SUCH_VARIABLE"
)"));
  Observed r = ObserveOther("nothing", classes_, "ni.KeyringTest", "ni.Keyring#*", policy, {});
  ASSERT_EQ(r.result.exit_code, 0) << r.Output();
  EXPECT_THAT(r.result.stdout_data + r.result.stderr_data,
              HasSubstr("the policy's deny_env and deny_property name no environment variable "
                        "or system property the JVM started with"));
}

// `tracespec run` with default settings and a remote model (the fake server
// on loopback): a denied field's characters as an int[] and a 64-bit hash
// of it reach the model only when noninterference is turned off, by the
// configuration or by --no-noninterference.
constexpr char kKeeper[] = R"(package nd;
public class Keeper {
  private final String secretKey;
  public Keeper(String secretKey) { this.secretKey = secretKey; }
  public static Keeper standard() { return new Keeper("Qm4Rt8Xw" + "Zp2Lk6Vn"); }
  public int[] codes() {
    int[] out = new int[secretKey.length()];
    for (int i = 0; i < out.length; i++) out[i] = secretKey.charAt(i);
    return out;
  }
  public long digest() {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < secretKey.length(); i++) { h ^= secretKey.charAt(i); h *= 0x100000001b3L; }
    return h;
  }
}
)";
constexpr char kKeeperTest[] = R"(package nd;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class KeeperTest {
  @Test void codes() { assertEquals(16, Keeper.standard().codes().length); }
  @Test void digest() { assertNotEquals(0L, Keeper.standard().digest()); }
}
)";
constexpr char kKeeperSecret[] = "Qm4Rt8XwZp2Lk6Vn";

// Whether the integers of `text`, in order, hold `wanted` with at most 3
// others between neighbours (an array's indices may stand between its
// elements).
bool HoldsSequence(const std::string& text, const std::vector<int64_t>& wanted) {
  std::vector<int64_t> numbers;
  for (size_t i = 0; i < text.size();) {
    size_t start = i;
    if (text[i] == '-' && i + 1 < text.size() && absl::ascii_isdigit(text[i + 1])) ++i;
    if (i < text.size() && absl::ascii_isdigit(text[i])) {
      while (i < text.size() && absl::ascii_isdigit(text[i])) ++i;
      int64_t n = 0;
      if (absl::SimpleAtoi(text.substr(start, i - start), &n)) numbers.push_back(n);
    } else {
      i = start + 1;
    }
  }
  for (size_t from = 0; from < numbers.size(); ++from) {
    if (numbers[from] != wanted[0]) continue;
    size_t at = from, k = 1;
    for (; k < wanted.size(); ++k) {
      size_t next = at + 1;
      while (next < numbers.size() && next <= at + 4 && numbers[next] != wanted[k]) ++next;
      if (next >= numbers.size() || next > at + 4) break;
      at = next;
    }
    if (k == wanted.size()) return true;
  }
  return false;
}

TEST(RunNoninterferenceTest, AReEncodedDeniedFieldReachesTheModelOnlyWhenTurnedOff) {
  std::vector<int64_t> codes;
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (char c : std::string(kKeeperSecret)) {
    codes.push_back(c);
    hash = (hash ^ static_cast<uint64_t>(c)) * 0x100000001b3ULL;
  }
  const std::string digest = absl::StrCat(static_cast<int64_t>(hash));
  const std::string answer = testing::ContentEntry(
      R"({"contract": "//@ public normal_behavior\n//@   ensures true;\n", "hypotheses": []})");
  enum Case { kDefault, kConfigOff, kFlagOff };
  for (Case c : {kDefault, kConfigOff, kFlagOff}) {
    SCOPED_TRACE(c == kDefault     ? "default settings"
                 : c == kConfigOff ? "observe_noninterference: false"
                                   : "--no-noninterference");
    testing::FakeLlmServer server(absl::StrCat("{\"responses\":[", answer, "]}"));
    testing::TempDir dir;
    std::string classes = testing::CompileJava(
        dir, {{"nd/Keeper.java", kKeeper}, {"nd/KeeperTest.java", kKeeperTest}}, {"-g"},
        testing::JunitJar());
    ASSERT_FALSE(classes.empty());
    dir.Write("p/tracespec.textproto",
              absl::StrCat("classes: \"", classes, "\"\ntest_classes: \"", classes,
                           "\"\ntests: \"nd.KeeperTest\"\n",
                           "methods: \"nd.Keeper#codes\"\nmethods: \"nd.Keeper#digest\"\n",
                           c == kConfigOff ? "observe_noninterference: false\n" : "",
                           "model { endpoint { url: \"", server.base_url(),
                           "\" model: \"fake-model\" egress_policy: \"", testing::SourceDir(),
                           "/policies/egress.textproto\" } }\n"));
    std::vector<std::string> args = {"run", dir.path() + "/p"};
    if (c == kFlagOff) args.push_back("--no-noninterference");
    SubprocessResult r = testing::RunTracespec(args);
    ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
    // Both methods were asked about: nothing was blocked wholesale.
    ASSERT_GE(server.Received().size(), 2u) << r.stdout_data << r.stderr_data;
    std::string received = server.RecordText();
    std::string audit = ReadFile(dir.path() + "/p/tracespec-out/infer/audit.jsonl").value_or("");
    EXPECT_THAT(received, Not(HasSubstr(kKeeperSecret)));
    if (c == kDefault) {
      EXPECT_FALSE(HoldsSequence(received, codes)) << "the codes reached the model";
      EXPECT_THAT(received, Not(HasSubstr(digest)));
      EXPECT_FALSE(HoldsSequence(audit, codes)) << "the codes are in the audit log";
      EXPECT_THAT(audit, Not(HasSubstr(digest)));
      EXPECT_THAT(r.stderr_data, HasSubstr("observe: noninterference (seed 1, "));
    } else {
      EXPECT_TRUE(HoldsSequence(received, codes)) << received;
      EXPECT_THAT(received, HasSubstr(digest));
      EXPECT_THAT(r.stderr_data, HasSubstr("observe: noninterference off: values computed from "
                                           "denied fields"));
    }
  }
}


// A project at dir/p for `run` with a remote model at `server`: the class
// `path` ("pkg/Name") and its test (`path` + "Test", also as the source
// sent), kPolicy, the egress policy of the repository, `methods`.
bool WriteRemoteProject(testing::TempDir& dir, const std::string& path, const char* source,
                        const char* test, const std::vector<std::string>& methods,
                        const testing::FakeLlmServer& server) {
  std::string classes =
      testing::CompileJava(dir, {{path + ".java", source}, {path + "Test.java", test}}, {"-g"},
                           testing::JunitJar());
  if (classes.empty()) return false;
  std::string test_class = absl::StrReplaceAll(path, {{"/", "."}}) + "Test";
  dir.Write("p/test/" + path + "Test.java", test);
  dir.Write("p/policy.textproto", kPolicy);
  std::string config =
      absl::StrCat("classes: \"", classes, "\"\ntest_classes: \"", classes, "\"\ntests: \"",
                   test_class, "\"\ntests_src: \"test\"\nredaction_policy: \"policy.textproto\"\n");
  for (const std::string& m : methods) absl::StrAppend(&config, "methods: \"", m, "\"\n");
  absl::StrAppend(&config, "model { endpoint { url: \"", server.base_url(),
                  "\" model: \"fake-model\" egress_policy: \"", testing::SourceDir(),
                  "/policies/egress.textproto\" } }\n");
  dir.Write("p/tracespec.textproto", config);
  return true;
}


// The test's literal that the probe found equal to the denied value it read
// is masked in the test source sent to a remote model; the values the
// constructor derived from it are withheld (the observe test above).
TEST(RunNoninterferenceTest, ADeniedValueWrittenInATestIsMaskedInTheSourceSent) {
  const std::string answer = testing::ContentEntry(
      R"({"contract": "//@ public normal_behavior\n//@   ensures true;\n", "hypotheses": []})");
  testing::FakeLlmServer server(absl::StrCat("{\"responses\":[", answer, "]}"));
  testing::TempDir dir;
  ASSERT_TRUE(WriteRemoteProject(dir, "ni/ApiClient", kApiClient, kApiClientTest,
                                 {"ni.ApiClient#tag"}, server));
  SubprocessResult r = testing::RunTracespec({"run", dir.path() + "/p"});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  ASSERT_GE(server.Received().size(), 1u) << r.stdout_data << r.stderr_data;
  std::string received = server.RecordText();
  EXPECT_THAT(received, Not(HasSubstr("Rt5Yh8Kp3Wq6Zm1X")));
  EXPECT_THAT(received, Not(HasSubstr("X1mZ6q")));
  // The test's source went, with the literal masked.
  EXPECT_THAT(received, HasSubstr("<denied value>"));
  EXPECT_THAT(received, HasSubstr(").tag().length()"));
  EXPECT_THAT(r.stderr_data, HasSubstr("1 literal of the tests' sources masked as <denied value>"));
}


// A value the tests read from a denied field, written by a test inside a
// longer literal: no literal equals it (it is computed at run time), so the
// test's source is sent unmasked; the gate finds it by its key (the probe's
// taint set, through the observe summary) and refuses the request, naming
// the rule. The innocent method's request goes out.
constexpr char kBadge[] = R"(package ng;
public class Badge {
  private final String apiKey;
  public Badge(String k) { this.apiKey = k; }
  public String label() { return "badge:" + apiKey; }
  public static int twice(int x) { return 2 * x; }
}
)";
constexpr char kBadgeTest[] = R"(package ng;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class BadgeTest {
  static String word() { return new StringBuilder("nretnal-robrah-elpam").reverse().toString(); }
  @Test void label() { assertEquals("badge:maple-harbor-lantern", new Badge(word()).label()); }
  @Test void innocent() { assertEquals(8, Badge.twice(4)); }
}
)";

TEST(RunNoninterferenceTest, ARequestHoldingADeniedValueTheTestsReadIsRefused) {
  const std::string answer = testing::ContentEntry(
      R"({"contract": "//@ public normal_behavior\n//@   ensures true;\n", "hypotheses": []})");
  testing::FakeLlmServer server(absl::StrCat("{\"responses\":[", answer, ",", answer, "]}"));
  testing::TempDir dir;
  ASSERT_TRUE(WriteRemoteProject(dir, "ng/Badge", kBadge, kBadgeTest,
                                 {"ng.Badge#label", "ng.Badge#twice"}, server));
  SubprocessResult r = testing::RunTracespec({"run", dir.path() + "/p"});
  const std::string output = r.stdout_data + r.stderr_data;
  // The method is stopped, the run goes on.
  ASSERT_EQ(r.exit_code, 0) << output;
  EXPECT_THAT(r.stdout_data, HasSubstr("ng.Badge#label()Ljava/lang/String;: Stopped"));
  std::string received = server.RecordText();
  EXPECT_THAT(received, Not(HasSubstr("maple-harbor-lantern")));
  // The innocent method was asked about.
  EXPECT_THAT(received, HasSubstr("twice"));
  EXPECT_THAT(output, HasSubstr("denied-value")) << output;
  std::string audit = ReadFile(dir.path() + "/p/tracespec-out/infer/audit.jsonl").value_or("");
  EXPECT_THAT(audit, HasSubstr("denied-value"));
  EXPECT_THAT(audit, Not(HasSubstr("maple-harbor-lantern")));
  // The summary holds keys, not the value.
  std::string everything = testing::ReadTree(dir.path() + "/p/tracespec-out");
  EXPECT_THAT(everything, Not(HasSubstr("maple-harbor-lantern")));
  EXPECT_THAT(ReadFile(dir.path() + "/p/tracespec-out/observations/summary.json").value_or(""),
              HasSubstr("denied_text_keys"));
}


// A String named just `key` may be a lookup key or key material: it is
// withheld unless the tests disclose its value (common/deny_rule.h,
// DeniedUnlessDisclosed). A lookup key the test passes as a literal goes to
// the model as the test spells it — the observation's argument, the test's
// source and name unmasked, as bench/privacy's `config_lookup` asks; a key
// built at run time stays withheld, on disk and in the request.
constexpr char kSettings[] = R"(package nk;
public class Settings {
  public static String lookup(String key) {
    if (key.equals("timeout")) return "30";
    return key.length() > 12 ? "long" : "";
  }
}
)";
constexpr char kSettingsTest[] = R"(package nk;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class SettingsTest {
  static String material() { return new StringBuilder("rebme-ztrauq-rumel").reverse().toString(); }
  @Test void timeoutDefault() { assertEquals("30", Settings.lookup("timeout")); }
  @Test void longName() { assertEquals("long", Settings.lookup(material())); }
}
)";

TEST(RunNoninterferenceTest, ALookupKeyTheTestsSpellGoesAsTheySpellItOthersStayWithheld) {
  const std::string answer = testing::ContentEntry(
      R"({"contract": "//@ public normal_behavior\n//@   ensures true;\n", "hypotheses": []})");
  testing::FakeLlmServer server(absl::StrCat("{\"responses\":[", answer, "]}"));
  testing::TempDir dir;
  ASSERT_TRUE(WriteRemoteProject(dir, "nk/Settings", kSettings, kSettingsTest,
                                 {"nk.Settings#lookup"}, server));
  SubprocessResult r = testing::RunTracespec({"run", dir.path() + "/p"});
  const std::string output = r.stdout_data + r.stderr_data;
  ASSERT_EQ(r.exit_code, 0) << output;
  ASSERT_GE(server.Received().size(), 1u) << output;
  std::string received = server.RecordText();
  // The disclosed key, in the observation and in the test as written (the
  // body is JSON: a quote in the prompt is \").
  const std::string body = server.Received()[0].body;
  EXPECT_THAT(body, HasSubstr("timeoutDefault]: key=\\\"timeout\\\" -> returns"));
  EXPECT_THAT(body, HasSubstr("void timeoutDefault()"));
  EXPECT_THAT(body, HasSubstr("Settings.lookup(\\\"timeout\\\")"));
  EXPECT_THAT(received, Not(HasSubstr("<denied value>")));
  EXPECT_THAT(output, Not(HasSubstr("masked as <denied value>")));
  // The key built at run time: nowhere.
  EXPECT_THAT(received, Not(HasSubstr("lemur-quartz-ember")));
  EXPECT_THAT(testing::ReadTree(dir.path() + "/p/tracespec-out"),
              Not(HasSubstr("lemur-quartz-ember")));
  EXPECT_THAT(testing::ReadTree(dir.path() + "/p/tracespec-out/observations"),
              HasSubstr("timeout"));
}

}  // namespace
}  // namespace tracespec

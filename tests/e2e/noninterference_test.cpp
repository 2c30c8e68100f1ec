// `tracespec observe --noninterference` end to end: real javac, real JVM,
// real JUnit 5, real probe. A denied field re-encoded in places no deny
// pattern names (code points, base64, a hash, control flow) leaks without
// the option — the test shows the gap — and never reaches the output
// directory with it; innocent values are unchanged; nondeterministic ones
// are told apart; the output is deterministic.
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "observer/noninterference.h"
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
    classes_ = testing::CompileJava(
        dir_, {{"ni/Keyring.java", kKeyring}, {"ni/KeyringTest.java", kKeyringTest}}, {"-g"},
        testing::JunitJar());
    policy_ = dir_.Write("policy.textproto", kPolicy);
  }

  Observed Observe(const std::string& name, const std::vector<std::string>& extra) {
    std::string out = dir_.path() + "/" + name;
    std::vector<std::string> args = {"observe",  "--classpath", classes_, "--tests",
                                     "ni.KeyringTest", "--method", "ni.Keyring#*",
                                     "--policy", policy_, "--out", out};
    args.insert(args.end(), extra.begin(), extra.end());
    return testing::RunObserve(args, out);
  }

  testing::TempDir dir_;
  std::string classes_;
  std::string policy_;
};

// The secret's encodings as they would appear in the output files.
std::vector<std::string> Encodings() {
  std::vector<std::string> codes;
  int32_t hash = 0;
  for (char c : std::string(kSecret)) {
    codes.push_back(absl::StrCat("{\"int_value\":", static_cast<int>(c), "}"));
    hash = static_cast<int32_t>(31u * static_cast<uint32_t>(hash) + static_cast<uint32_t>(c));
  }
  return {kSecret, absl::Base64Escape(kSecret), absl::StrJoin(codes, ","),
          absl::StrCat("\"int_value\":", hash)};
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

TEST_F(ObserveNoninterferenceTest, DerivedValuesLeakWithoutTheOptionAndNeverWithIt) {
  ASSERT_FALSE(classes_.empty());
  Observed plain = Observe("plain", {});
  ASSERT_EQ(plain.result.exit_code, 0) << plain.Output();
  // The gap: the field itself is redacted, what is computed from it is not.
  EXPECT_THAT(plain.jsonl, Not(HasSubstr(kSecret)));
  for (size_t i = 1; i < Encodings().size(); ++i) {
    EXPECT_THAT(plain.jsonl, HasSubstr(Encodings()[i])) << "encoding " << i;
  }
  EXPECT_FALSE(plain.summary.noninterference());

  Observed ni = Observe("ni", {"--noninterference"});
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

  // Deterministic: a second run with the option writes the same files
  // (summary.json but for the JVM's wall time; jvm.log holds JUnit's timings).
  Observed again = Observe("again", {"--noninterference"});
  ASSERT_EQ(again.result.exit_code, 0) << again.Output();
  EXPECT_EQ(again.pb, ni.pb);
  EXPECT_EQ(again.jsonl, ni.jsonl);
  v1::ObserveSummary first = ni.summary;
  v1::ObserveSummary second = again.summary;
  first.clear_jvm_seconds();
  second.clear_jvm_seconds();
  EXPECT_EQ(first.SerializeAsString(), second.SerializeAsString());
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
  EXPECT_EQ(summary.noninterference_substitutions(), 5);
  EXPECT_THAT(testing::ReadTree(out), Not(HasSubstr("HUNTER22")));
}

TEST_F(ObserveNoninterferenceTest, RefusedForCommands) {
  Observed r;
  r.result = testing::RunTracespec({"observe", "--method", "ni.Keyring#*", "--out",
                                    dir_.path() + "/cmd", "--noninterference", "--", "java",
                                    "-version"});
  EXPECT_NE(r.result.exit_code, 0);
  EXPECT_THAT(r.Output(), HasSubstr("--noninterference applies to test runs"));
}

}  // namespace
}  // namespace tracespec

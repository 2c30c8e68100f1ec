// End-to-end: the built-in synthesizer on observations recorded by the real
// `tracespec observe` (javac, JVM, JUnit 5, probe) from small Java classes.
#include "agent/prompt/answer.h"
#include "agent/synth/builtin_client.h"
#include "agent/synth/synthesizer.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/agent/synth/synth_testing.h"
#include "tests/testing/testing.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kShop[] = R"(package shop;
public class Till {
  private int total;
  private int count;
  public int add(int price) {
    if (price <= 0) throw new IllegalArgumentException("price must be positive");
    total += price;
    count++;
    return total;
  }
  public static int maxOf(int[] a) {
    if (a.length == 0) throw new IllegalArgumentException("empty");
    int m = a[0];
    for (int v : a) if (v > m) m = v;
    return m;
  }
  public static double toKelvin(double celsius) { return celsius + 273.15; }
  public static int indexOf(int[] a, int target) {
    for (int i = 0; i < a.length; i++) if (a[i] == target) return i;
    return -1;
  }
}
)";

constexpr char kShopTest[] = R"(package shop;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class TillTest {
  @Test void addsUp() {
    Till t = new Till();
    assertEquals(5, t.add(5));
    assertEquals(12, t.add(7));
    assertEquals(42, t.add(30));
  }
  @Test void rejectsFreeItems() {
    Till t = new Till();
    t.add(3);
    assertThrows(IllegalArgumentException.class, () -> t.add(0));
    assertThrows(IllegalArgumentException.class, () -> t.add(-2));
  }
  @Test void maxima() {
    assertEquals(5, Till.maxOf(new int[] {1, 5, 3}));
    assertEquals(-2, Till.maxOf(new int[] {-2, -9}));
    assertEquals(8, Till.maxOf(new int[] {4, 4, 1, 8}));
    assertThrows(IllegalArgumentException.class, () -> Till.maxOf(new int[0]));
  }
  @Test void kelvin() {
    assertEquals(273.15, Till.toKelvin(0.0));
    assertEquals(298.15, Till.toKelvin(25.0));
    assertEquals(233.14999999999998, Till.toKelvin(-40.0));
  }
  @Test void search() {
    assertEquals(1, Till.indexOf(new int[] {1, 5, 3}, 5));
    assertEquals(0, Till.indexOf(new int[] {7, 7}, 7));
    assertEquals(-1, Till.indexOf(new int[] {4, 4, 1, 8}, 9));
    assertEquals(-1, Till.indexOf(new int[0], 1));
  }
}
)";

// One observe run (a JVM start) serves every test.
class SynthE2eTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    observations_ = new std::vector<v1::Observation>();
    std::string classes = testing::CompileJava(
        *dir_, {{"shop/Till.java", kShop}, {"shop/TillTest.java", kShopTest}}, {"-g"},
        testing::JunitJar());
    ASSERT_FALSE(classes.empty());
    std::string out = dir_->path() + "/out";
    SubprocessResult run = testing::RunTracespec(
        {"observe", "--classpath", classes, "--tests", "shop.TillTest", "--out", out, "--method",
         "shop.Till#add", "--method", "shop.Till#maxOf", "--method", "shop.Till#toKelvin",
         "--method", "shop.Till#indexOf"});
    ASSERT_EQ(run.exit_code, 0) << run.stdout_data << run.stderr_data;
    auto read = ReadObservations(out + "/observations.pb");
    ASSERT_TRUE(read.ok()) << read.status();
    *observations_ = *read;
  }
  static void TearDownTestSuite() {
    delete observations_;
    delete dir_;
  }

  std::vector<v1::Observation> Of(const std::string& method) const {
    std::vector<v1::Observation> out;
    for (const v1::Observation& o : *observations_) {
      if (o.method().name() == method) out.push_back(o);
    }
    return out;
  }

  synth::SynthesisResult Synthesize(const std::vector<v1::Observation>& obs) {
    synth::SynthesisInput in;
    in.observations = obs;
    auto r = synth::Synthesize(in);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : synth::SynthesisResult{};
  }

  static testing::TempDir* dir_;
  static std::vector<v1::Observation>* observations_;
};

testing::TempDir* SynthE2eTest::dir_ = nullptr;
std::vector<v1::Observation>* SynthE2eTest::observations_ = nullptr;

TEST_F(SynthE2eTest, ContractsFromRecordedObservations) {
  std::vector<v1::Observation> add = Of("add");
  ASSERT_EQ(add.size(), 6u);
  synth::SynthesisResult r = Synthesize(add);
  testing::ExpectAdmitsAll(r.jml, add);
  EXPECT_THAT(r.jml, HasSubstr("requires price > 0;"));
  EXPECT_THAT(r.jml, HasSubstr("assignable count, total;"));
  EXPECT_THAT(r.jml, HasSubstr("ensures total == \\old(total) + price;"));
  EXPECT_THAT(r.jml, HasSubstr("ensures count == \\old(count) + 1;"));
  EXPECT_THAT(r.jml, HasSubstr("ensures \\result == total;"));
  EXPECT_THAT(r.jml, HasSubstr("requires price <= 0;"));
  EXPECT_THAT(r.jml, HasSubstr("signals_only IllegalArgumentException;"));

  std::vector<v1::Observation> max = Of("maxOf");
  synth::SynthesisResult m = Synthesize(max);
  testing::ExpectAdmitsAll(m.jml, max);
  EXPECT_THAT(m.jml, HasSubstr("(\\forall int i; 0 <= i && i < a.length; \\result >= a[i])"));
  EXPECT_THAT(m.jml, HasSubstr("(\\exists int i; 0 <= i && i < a.length; \\result == a[i])"));
  EXPECT_THAT(m.jml, HasSubstr("requires a.length == 0;"));

  std::vector<v1::Observation> kelvin = Of("toKelvin");
  synth::SynthesisResult k = Synthesize(kelvin);
  testing::ExpectAdmitsAll(k.jml, kelvin);
  EXPECT_THAT(k.jml, HasSubstr("ensures \\result == celsius + 273.15;"));

  std::vector<v1::Observation> index = Of("indexOf");
  synth::SynthesisResult x = Synthesize(index);
  testing::ExpectAdmitsAll(x.jml, index);
  EXPECT_THAT(x.jml, HasSubstr("a[\\result] == target"));
}

TEST_F(SynthE2eTest, TheBuiltinClientAnswersFromTheRecordedObservations) {
  auto inputs = std::make_shared<prompt::PromptInputs>();
  auto sig = prompt::SignatureFromMethodRef(Of("add").at(0).method());
  ASSERT_TRUE(sig.ok()) << sig.status();
  inputs->signature = *sig;
  inputs->observations = *observations_;  // all methods: the client picks its own
  gateway::LlmRequest request;
  auto local = std::make_shared<gateway::LocalInputs>();
  local->inputs = inputs;
  request.local = local;
  synth::BuiltinSynthesizer client;
  auto response = client.Complete(request);
  ASSERT_TRUE(response.ok()) << response.status();
  auto answer = prompt::ParseAnswer(response->text);
  ASSERT_TRUE(answer.ok()) << answer.status();
  EXPECT_THAT(answer->jml, HasSubstr("total == \\old(total) + price"));
  EXPECT_THAT(answer->jml, Not(HasSubstr("a.length")));
  EXPECT_EQ(client.last_result()->stats.observations, 6);
}

constexpr char kDoubler[] = R"(package calc;
public class Doubler {
  public static int twice(int x) { return x == 7 ? 15 : 2 * x; }
}
)";

// The project's own test says twice(7) == 15 is wrong.
constexpr char kDoublerTest[] = R"(package calc;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class DoublerTest {
  @Test void doubles() {
    assertEquals(2, Doubler.twice(1));
    assertEquals(6, Doubler.twice(3));
    assertEquals(-8, Doubler.twice(-4));
    assertEquals(0, Doubler.twice(0));
  }
  @Test void doublesSeven() { assertEquals(14, Doubler.twice(7)); }
}
)";

// A failing test's calls reach the synthesizer flagged and do not shape
// the contract; the same calls without the flag would.
TEST(SynthFailingTestE2eTest, AFailingTestsCallsDoNotShapeTheContract) {
  testing::TempDir dir;
  std::string classes = testing::CompileJava(
      dir, {{"calc/Doubler.java", kDoubler}, {"calc/DoublerTest.java", kDoublerTest}}, {"-g"},
      testing::JunitJar());
  ASSERT_FALSE(classes.empty());
  std::string out = dir.path() + "/out";
  SubprocessResult run =
      testing::RunTracespec({"observe", "--classpath", classes, "--tests", "calc.DoublerTest",
                             "--out", out, "--method", "calc.Doubler#twice"});
  ASSERT_EQ(run.exit_code, 0) << run.stdout_data << run.stderr_data;
  EXPECT_THAT(run.stdout_data, HasSubstr("FAILED calc.DoublerTest#doublesSeven "
                                         "(org.opentest4j.AssertionFailedError): its 1 call is "
                                         "kept out of inference"));
  auto read = ReadObservations(out + "/observations.pb");
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 5u);
  int flagged = 0;
  for (const v1::Observation& o : *read) {
    if (!o.test_failed()) continue;
    ++flagged;
    EXPECT_EQ(o.args(0).int_value(), 7);
    EXPECT_TRUE(o.excluded());
    EXPECT_THAT(o.excluded_reason(), HasSubstr("the test failed"));
  }
  EXPECT_EQ(flagged, 1);

  synth::SynthesisInput in;
  in.observations = *read;
  auto r = synth::Synthesize(in);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(r->jml, HasSubstr("ensures \\result == 2 * x;"));
  EXPECT_EQ(r->stats.observations, 4);

  // Unflagged, the failing test's call refutes that clause.
  for (v1::Observation& o : *read) o.clear_test_failed();
  in.observations = *read;
  auto unflagged = synth::Synthesize(in);
  ASSERT_TRUE(unflagged.ok()) << unflagged.status();
  EXPECT_THAT(unflagged->jml, Not(HasSubstr("ensures \\result == 2 * x;")));
}

}  // namespace
}  // namespace tracespec

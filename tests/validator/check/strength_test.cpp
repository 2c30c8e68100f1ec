// Strength of contracts (Validator::MeasureStrength) on classes compiled by
// the real javac and hand-built observations: a deliberately weak contract
// (`assignable \nothing;`) and a strong one on the same method, a void
// method's post-state, and the table's determinism.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"
#include "validator/check/validator.h"

namespace tracespec::check {
namespace {

using ::testing::HasSubstr;

const char* kSource = R"java(
package s;

public class Ops {
  int count;
  int other;

  public static int div(int a, int b) {
    if (b == 0) {
      throw new IllegalArgumentException("zero");
    }
    return a / b;
  }

  public static double half(double x) {
    return x / 2;
  }

  public static boolean even(int n) {
    return n % 2 == 0;
  }

  public static long sum(int[] a) {
    long t = 0;
    for (int v : a) {
      t += v;
    }
    return t;
  }
  public void bump(int d) {
    count += d;
    other = 1;
  }
}
)java";

v1::Value Int(int v) {
  v1::Value out;
  out.set_int_value(v);
  return out;
}

v1::Observation Call(const std::string& name, const std::string& descriptor,
                     const std::vector<v1::Value>& args) {
  v1::Observation o;
  o.set_format_version(v1::FORMAT_VERSION_1);
  o.set_source(v1::RECORDED);
  o.set_test_id(absl::StrCat("s.OpsTest#", name));
  v1::MethodRef* m = o.mutable_method();
  m->set_class_name("s.Ops");
  m->set_name(name);
  m->set_jvm_descriptor(descriptor);
  m->set_is_static(true);
  for (size_t i = 0; i < args.size(); ++i) {
    m->add_param_names(std::string(1, static_cast<char>('a' + i)));
    *o.add_args() = args[i];
  }
  return o;
}

v1::Observation Div(int a, int b) {
  v1::Observation o = Call("div", "(II)I", {Int(a), Int(b)});
  if (b == 0) {
    o.mutable_outcome()->mutable_thrown()->set_class_name("java.lang.IllegalArgumentException");
  } else {
    *o.mutable_outcome()->mutable_returned() = Int(a / b);
  }
  return o;
}

v1::Observation Half(double x) {
  v1::Value v;
  v.set_double_value(x);
  v1::Observation o = Call("half", "(D)D", {v});
  o.mutable_method()->set_param_names(0, "x");
  o.mutable_outcome()->mutable_returned()->set_double_value(x / 2);
  return o;
}

v1::Observation Even(int n) {
  v1::Observation o = Call("even", "(I)Z", {Int(n)});
  o.mutable_method()->set_param_names(0, "n");
  o.mutable_outcome()->mutable_returned()->set_bool_value(n % 2 == 0);
  return o;
}

v1::Observation Bump(int before, int d) {
  v1::Observation o = Call("bump", "(I)V", {Int(d)});
  o.mutable_method()->set_is_static(false);
  o.mutable_method()->set_param_names(0, "d");
  o.mutable_receiver()->set_ref(1);
  for (bool post : {false, true}) {
    v1::ObjectState* s = post ? o.add_post() : o.add_pre();
    s->set_id(1);
    s->set_class_name("s.Ops");
    auto add = [&](const std::string& name, int v) {
      v1::Field* f = s->add_fields();
      f->set_name(name);
      f->set_jvm_type("I");
      f->set_declaring_class("s.Ops");
      *f->mutable_value() = Int(v);
    };
    add("count", post ? before + d : before);
    add("other", post ? 1 : 0);
  }
  o.mutable_outcome()->mutable_returned_void();
  return o;
}

// sum(a) on an array argument, recorded unchanged in the post-state.
v1::Observation Sum(const std::vector<int>& elements) {
  v1::Value ref;
  ref.set_ref(7);
  v1::Observation o = Call("sum", "([I)J", {ref});
  long long total = 0;
  for (bool post : {false, true}) {
    v1::ObjectState* s = post ? o.add_post() : o.add_pre();
    s->set_id(7);
    s->set_class_name("[I");
    s->mutable_array()->set_element_descriptor("I");
    s->mutable_array()->set_length(static_cast<int>(elements.size()));
    for (int e : elements) *s->mutable_array()->add_elements() = Int(e);
  }
  for (int e : elements) total += e;
  o.mutable_outcome()->mutable_returned()->set_long_value(total);
  return o;
}

class StrengthTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    classes_ = new std::string(testing::CompileJava(*dir_, {{"s/Ops.java", kSource}}, {"-g"}));
  }
  static void TearDownTestSuite() {
    delete classes_;
    delete dir_;
  }

  StrengthResult Measure(const std::string& method, const std::string& contract,
                         const std::vector<v1::Observation>& observations) {
    auto validator = Validator::Create(*classes_);
    EXPECT_TRUE(validator.ok()) << validator.status();
    ValidateRequest request;
    request.method = method;
    request.contract = contract;
    request.has_observations = true;
    request.observations = observations;
    auto report = (*validator)->MeasureStrength(request);
    EXPECT_TRUE(report.ok()) << report.status();
    if (!report.ok()) return {};
    EXPECT_EQ(report->consistency.status, CheckStatus::kSkipped);
    return report->strength;
  }

  static testing::TempDir* dir_;
  static std::string* classes_;
};

testing::TempDir* StrengthTest::dir_ = nullptr;
std::string* StrengthTest::classes_ = nullptr;

const char* kStrongDiv =
    "//@ public normal_behavior\n"
    "//@   requires b != 0;\n"
    "//@   assignable \\nothing;\n"
    "//@   ensures \\result == a / b;\n"
    "//@ also\n"
    "//@ public exceptional_behavior\n"
    "//@   requires b == 0;\n"
    "//@   assignable \\nothing;\n"
    "//@   signals_only IllegalArgumentException;\n";

std::vector<v1::Observation> DivObservations() {
  return {Div(7, 2), Div(-9, 3), Div(5, 0), Div(2147483647, -1)};
}

TEST_F(StrengthTest, WeakContractIsFlaggedAndStrongOneIsNot) {
  StrengthResult weak = Measure("s.Ops#div", "//@ assignable \\nothing;", DivObservations());
  ASSERT_TRUE(weak.measured) << weak.note;
  EXPECT_EQ(weak.observations, 4);
  EXPECT_EQ(weak.pinned, 0);
  EXPECT_EQ(weak.undecided, 0) << weak.note;
  EXPECT_TRUE(weak.Weak());
  EXPECT_THAT(weak.Summary(), HasSubstr("pins \\result on 0/4 observations"));
  EXPECT_THAT(weak.Summary(), HasSubstr(", weak"));
  // Nothing about the result: every perturbed result is admitted.
  EXPECT_LT(weak.RejectedPercent(), 50);

  StrengthResult strong = Measure("s.Ops#div", kStrongDiv, DivObservations());
  ASSERT_TRUE(strong.measured) << strong.note;
  EXPECT_EQ(strong.observations, 4);
  EXPECT_EQ(strong.pinned, 4) << strong.note;
  EXPECT_FALSE(strong.Weak());
  // Results ±1 and ±1000 (3 normal observations x 4), an exception instead
  // of each return, a return instead of the exception: all rejected.
  EXPECT_EQ(strong.perturbed, 3 * 5 + 1);
  EXPECT_EQ(strong.rejected, strong.perturbed);
  EXPECT_EQ(strong.Summary(),
            "pins \\result on 4/4 observations, rejects 100% of perturbed outcomes");
}

TEST_F(StrengthTest, InequalityLeavesTheResultOpen) {
  StrengthResult r = Measure("s.Ops#div",
                             "//@ requires b > 0;\n//@ ensures \\result <= a;\n",
                             {Div(7, 2), Div(9, 3)});
  ASSERT_TRUE(r.measured) << r.note;
  EXPECT_EQ(r.pinned, 0);
  EXPECT_TRUE(r.Weak());
  // +1 of 3 (at a = 7, b = 2) and +1000 are above a; -1 and -1000 are not.
  EXPECT_GT(r.rejected, 0);
  EXPECT_LT(r.rejected, r.perturbed);
}

TEST_F(StrengthTest, DoublesAreNudgedByOneUlp) {
  std::vector<v1::Observation> obs = {Half(3.0), Half(-0.5), Half(1e300)};
  StrengthResult exact = Measure("s.Ops#half", "//@ ensures \\result == x / 2;", obs);
  ASSERT_TRUE(exact.measured) << exact.note;
  EXPECT_EQ(exact.pinned, 3) << exact.note;
  EXPECT_EQ(exact.rejected, exact.perturbed - 3);  // the exception swap is admitted (lightweight)
  StrengthResult loose =
      Measure("s.Ops#half", "//@ ensures \\result > x / 2 - 1 && \\result < x / 2 + 1;", obs);
  ASSERT_TRUE(loose.measured) << loose.note;
  EXPECT_EQ(loose.pinned, 0);
}

TEST_F(StrengthTest, BooleanResultFlipped) {
  std::vector<v1::Observation> obs = {Even(2), Even(3), Even(-4)};
  StrengthResult r = Measure("s.Ops#even", "//@ ensures \\result == (n % 2 == 0);", obs);
  ASSERT_TRUE(r.measured) << r.note;
  EXPECT_EQ(r.pinned, 3);
  StrengthResult half = Measure("s.Ops#even", "//@ ensures \\result ==> n % 2 == 0;", obs);
  EXPECT_EQ(half.pinned, 1);  // only n = 3: \result must be false
  EXPECT_TRUE(half.Weak());
}

TEST_F(StrengthTest, VoidMethodPostStateAndFrame) {
  std::vector<v1::Observation> obs = {Bump(1, 2), Bump(5, -1)};
  StrengthResult strong =
      Measure("s.Ops#bump",
              "//@ assignable count, other;\n//@ ensures count == \\old(count) + d;\n"
              "//@ ensures other == 1;\n",
              obs);
  ASSERT_TRUE(strong.measured) << strong.note;
  EXPECT_EQ(strong.pinned, 2) << strong.note;
  EXPECT_THAT(strong.Summary(), HasSubstr("pins the post-state on 2/2 observations"));
  // `other` is assignable and unconstrained: the post-state is open.
  StrengthResult open = Measure(
      "s.Ops#bump", "//@ assignable count, other;\n//@ ensures count == \\old(count) + d;\n", obs);
  EXPECT_EQ(open.pinned, 0);
  EXPECT_TRUE(open.Weak());
}

TEST_F(StrengthTest, ArrayArgumentOutsideTheFrameKeepsItsElements) {
  // `assignable \nothing` keeps the array's elements: the sum pins the
  // result (the post-state's elements are not another outcome).
  std::vector<v1::Observation> obs = {Sum({1, 2, 3}), Sum({}), Sum({2147483647, 2147483647})};
  StrengthResult strong =
      Measure("s.Ops#sum",
              "//@ assignable \\nothing;\n"
              "//@ ensures \\result == (\\sum int i; 0 <= i && i < a.length; (long) a[i]);\n",
              obs);
  ASSERT_TRUE(strong.measured) << strong.note;
  EXPECT_EQ(strong.pinned, 3) << strong.note;
  // With the elements assignable, another post-state is another outcome.
  StrengthResult open =
      Measure("s.Ops#sum",
              "//@ assignable a[*];\n"
              "//@ ensures \\result == (\\sum int i; 0 <= i && i < a.length; (long) \\old(a[i]));\n",
              obs);
  ASSERT_TRUE(open.measured) << open.note;
  EXPECT_EQ(open.pinned, 1) << open.note;  // only the empty array
}

TEST_F(StrengthTest, SameInputsGiveTheSameTable) {
  std::vector<std::pair<std::string, StrengthResult>> a = {
      {"s.Ops#div(II)I", Measure("s.Ops#div", kStrongDiv, DivObservations())},
      {"s.Ops#div(II)I weak", Measure("s.Ops#div", "//@ assignable \\nothing;", DivObservations())}};
  std::vector<std::pair<std::string, StrengthResult>> b = {
      {"s.Ops#div(II)I", Measure("s.Ops#div", kStrongDiv, DivObservations())},
      {"s.Ops#div(II)I weak", Measure("s.Ops#div", "//@ assignable \\nothing;", DivObservations())}};
  std::string table = FormatStrengthTable(a);
  EXPECT_EQ(table, FormatStrengthTable(b));
  EXPECT_THAT(table, HasSubstr("method"));
  EXPECT_THAT(table, HasSubstr("16 (100%)"));
  EXPECT_THAT(table, HasSubstr("weak"));
}

TEST_F(StrengthTest, ContractThatDoesNotCheckIsNotMeasured) {
  auto validator = Validator::Create(*classes_);
  ASSERT_TRUE(validator.ok());
  ValidateRequest request;
  request.method = "s.Ops#div";
  request.contract = "//@ ensures \\result == nosuch;";
  request.has_observations = true;
  request.observations = DivObservations();
  auto report = (*validator)->MeasureStrength(request);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_FALSE(report->strength.measured);
  EXPECT_THAT(report->strength.note, HasSubstr("does not check"));
  EXPECT_THAT(report->strength.Summary(), HasSubstr("does not check"));
}

}  // namespace
}  // namespace tracespec::check

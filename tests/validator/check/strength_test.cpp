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
using ::testing::Not;

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

  public static String greet(String name) {
    return "hi ".concat(name);
  }

  public static void put(String[] a, int i, String v) {
    a[i] = v;
  }

  public static Object box(int n) {
    return new Object();
  }

  final int[] items;
  int size;

  public Ops() {
    items = new int[4];
  }

  public void push(int x) {
    items[size] = x;
    size = size + 1;
  }

  public int getCount() {
    return count;
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

// A field of s.Ops.
void AddField(v1::ObjectState* s, const std::string& name, const std::string& type,
              const v1::Value& v) {
  v1::Field* f = s->add_fields();
  f->set_name(name);
  f->set_jvm_type(type);
  f->set_declaring_class("s.Ops");
  *f->mutable_value() = v;
}

// A call of the instance method `name(int param)` on the receiver #1.
v1::Observation OnReceiver(const std::string& name, const std::string& param, int arg) {
  v1::Observation o = Call(name, "(I)V", {Int(arg)});
  o.mutable_method()->set_is_static(false);
  o.mutable_method()->set_param_names(0, param);
  o.mutable_receiver()->set_ref(1);
  return o;
}

// The receiver's state before or after the call, without fields yet.
v1::ObjectState* Receiver(v1::Observation* o, bool post) {
  v1::ObjectState* s = post ? o->add_post() : o->add_pre();
  s->set_id(1);
  s->set_class_name("s.Ops");
  return s;
}

v1::Observation Bump(int before, int d) {
  v1::Observation o = OnReceiver("bump", "d", d);
  for (bool post : {false, true}) {
    v1::ObjectState* s = Receiver(&o, post);
    AddField(s, "count", "I", Int(post ? before + d : before));
    AddField(s, "other", "I", Int(post ? 1 : 0));
  }
  o.mutable_outcome()->mutable_returned_void();
  return o;
}

// An array `id` of class `cls` ("[I") holding `elements` (of JVM type
// `element`, "I").
void SetArray(v1::ObjectState* s, uint64_t id, const std::string& cls, const std::string& element,
              const std::vector<v1::Value>& elements) {
  s->set_id(id);
  s->set_class_name(cls);
  s->mutable_array()->set_element_descriptor(element);
  s->mutable_array()->set_length(static_cast<int>(elements.size()));
  for (const v1::Value& e : elements) *s->mutable_array()->add_elements() = e;
}

// sum(a) on an array argument, recorded unchanged in the post-state.
v1::Observation Sum(const std::vector<int>& elements) {
  v1::Value ref;
  ref.set_ref(7);
  v1::Observation o = Call("sum", "([I)J", {ref});
  long long total = 0;
  std::vector<v1::Value> values;
  for (int e : elements) values.push_back(Int(e));
  SetArray(o.add_pre(), 7, "[I", "I", values);
  SetArray(o.add_post(), 7, "[I", "I", values);
  for (int e : elements) total += e;
  o.mutable_outcome()->mutable_returned()->set_long_value(total);
  return o;
}

v1::Observation Greet(const std::string& name) {
  v1::Value arg;
  arg.set_string_value(name);
  v1::Observation o = Call("greet", "(Ljava/lang/String;)Ljava/lang/String;", {arg});
  o.mutable_method()->set_param_names(0, "name");
  o.mutable_outcome()->mutable_returned()->set_string_value("hi " + name);
  return o;
}

v1::Value Str(const std::string& text) {
  v1::Value out;
  out.set_string_value(text);
  return out;
}

// put(a, i, v) on a String[] argument: element i holds v afterwards.
v1::Observation Put(const std::vector<std::string>& before, int i, const std::string& v) {
  v1::Value ref;
  ref.set_ref(7);
  v1::Observation o = Call("put", "([Ljava/lang/String;ILjava/lang/String;)V", {ref, Int(i), Str(v)});
  o.mutable_method()->set_param_names(0, "a");
  o.mutable_method()->set_param_names(1, "i");
  o.mutable_method()->set_param_names(2, "v");
  for (bool post : {false, true}) {
    std::vector<v1::Value> values;
    for (size_t k = 0; k < before.size(); ++k) {
      values.push_back(Str(post && static_cast<int>(k) == i ? v : before[k]));
    }
    SetArray(post ? o.add_post() : o.add_pre(), 7, "[Ljava.lang.String;", "Ljava/lang/String;",
             values);
  }
  o.mutable_outcome()->mutable_returned_void();
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
  EXPECT_THAT(weak.Summary(), HasSubstr("pins \\result on 0/3 observations that returned and "
                                        "the exception on 0/1 that threw"));
  // Nothing about the result: every perturbed result is admitted.
  EXPECT_EQ(weak.RejectedPercent(), 0);
  EXPECT_TRUE(weak.Vacuous());
  EXPECT_THAT(weak.Summary(), HasSubstr(", says nothing about the outcome"));

  StrengthResult strong = Measure("s.Ops#div", kStrongDiv, DivObservations());
  ASSERT_TRUE(strong.measured) << strong.note;
  EXPECT_EQ(strong.observations, 4);
  EXPECT_EQ(strong.pinned, 4) << strong.note;
  EXPECT_FALSE(strong.Weak());
  // Results ±1 and ±1000 (3 normal observations x 4), an exception instead
  // of each return, a return instead of the exception: all rejected.
  EXPECT_EQ(strong.perturbed, 3 * 5 + 1);
  EXPECT_EQ(strong.rejected, strong.perturbed);
  EXPECT_EQ(strong.thrown, 1);
  EXPECT_EQ(strong.thrown_pinned, 1);
  EXPECT_EQ(strong.Summary(),
            "pins \\result on 3/3 observations that returned and the exception on 1/1 that "
            "threw, rejects 100% of perturbed outcomes");
}

// An object result has no value to perturb: the only perturbed outcome of
// a call that returned is an exception instead, which `\result != null`
// rejects — 100%, said to be swaps alone (it read as a strong contract).
TEST_F(StrengthTest, OnlySwappedOutcomesAreSaidToBeSo) {
  std::vector<v1::Observation> obs;
  for (int n : {1, 2}) {
    v1::Observation o = Call("box", "(I)Ljava/lang/Object;", {Int(n)});
    v1::ObjectState* made = o.add_post();
    made->set_id(5);
    made->set_class_name("java.lang.Object");
    o.mutable_outcome()->mutable_returned()->set_ref(5);
    obs.push_back(o);
  }
  StrengthResult r =
      Measure("s.Ops#box", "//@ public normal_behavior\n//@   ensures \\result != null;\n", obs);
  ASSERT_TRUE(r.measured) << r.note;
  EXPECT_EQ(r.perturbed, 2);
  EXPECT_EQ(r.perturbed_values, 0);
  EXPECT_EQ(r.RejectedPercent(), 100);
  EXPECT_THAT(r.Summary(), HasSubstr("rejects 100% of perturbed outcomes (only swapped between "
                                     "returning and throwing: no returned value or field was "
                                     "perturbed)"));
  StrengthResult div = Measure("s.Ops#div", kStrongDiv, DivObservations());
  EXPECT_GT(div.perturbed_values, 0);
}

TEST_F(StrengthTest, AnObservationThatThrewNeverPinsTheResult) {
  // The exceptional case determines that div(_, 0) throws; the normal case
  // says nothing about the result: weak, though half the calls are pinned.
  const char* contract =
      "//@ public normal_behavior\n"
      "//@   requires b != 0;\n"
      "//@   assignable \\nothing;\n"
      "//@ also\n"
      "//@ public exceptional_behavior\n"
      "//@   requires b == 0;\n"
      "//@   assignable \\nothing;\n"
      "//@   signals_only IllegalArgumentException;\n";
  StrengthResult r = Measure("s.Ops#div", contract, {Div(7, 2), Div(5, 0), Div(-9, 3), Div(1, 0)});
  ASSERT_TRUE(r.measured) << r.note;
  EXPECT_EQ(r.undecided, 0) << r.note;
  EXPECT_EQ(r.observations, 4);
  EXPECT_EQ(r.thrown, 2);
  EXPECT_EQ(r.thrown_pinned, 2) << r.note;
  EXPECT_EQ(r.returned_pinned(), 0);
  EXPECT_TRUE(r.Weak());
  EXPECT_FALSE(r.Vacuous());  // it says when the call throws
  EXPECT_THAT(r.Summary(), HasSubstr("pins \\result on 0/2 observations that returned and the "
                                     "exception on 2/2 that threw"));
  EXPECT_THAT(r.Summary(), HasSubstr(", weak"));
  // Seen only to throw: the exception is what is pinned.
  StrengthResult thrown = Measure("s.Ops#div", contract, {Div(5, 0), Div(1, 0)});
  ASSERT_TRUE(thrown.measured) << thrown.note;
  EXPECT_FALSE(thrown.Weak());
  EXPECT_THAT(thrown.Summary(), HasSubstr("pins the exception on 2/2 observations (each threw)"));
}

TEST_F(StrengthTest, AContractThatSaysNothingAboutTheOutcomeIsVacuous) {
  // A tautology: every perturbed outcome is admitted, nothing is pinned.
  StrengthResult none = Measure("s.Ops#div", "//@ requires b != 0;\n//@ ensures \\result == \\result;\n",
                                {Div(7, 2), Div(9, 3)});
  ASSERT_TRUE(none.measured) << none.note;
  EXPECT_EQ(none.pinned, 0);
  EXPECT_GT(none.perturbed, 0);
  EXPECT_EQ(none.rejected, 0);
  EXPECT_TRUE(none.Vacuous());
  EXPECT_THAT(none.Summary(), HasSubstr(", says nothing about the outcome"));
  EXPECT_THAT(none.Summary(), Not(HasSubstr("weak")));
  // A bound says something (some perturbed results break it), though weak.
  StrengthResult bound = Measure("s.Ops#div", "//@ requires b > 0;\n//@ ensures \\result <= a;\n",
                                 {Div(7, 2), Div(9, 3)});
  ASSERT_TRUE(bound.measured) << bound.note;
  EXPECT_TRUE(bound.Weak());
  EXPECT_FALSE(bound.Vacuous());
  EXPECT_THAT(bound.Summary(), HasSubstr(", weak"));
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

// getCount() on a receiver whose count is `count`.
v1::Observation GetCount(int count) {
  v1::Observation o = Call("getCount", "()I", {});
  o.mutable_method()->set_is_static(false);
  o.mutable_receiver()->set_ref(1);
  for (bool post : {false, true}) {
    v1::ObjectState* s = Receiver(&o, post);
    AddField(s, "count", "I", Int(count));
    AddField(s, "other", "I", Int(7));
  }
  *o.mutable_outcome()->mutable_returned() = Int(count);
  return o;
}

TEST_F(StrengthTest, ABareFrameOnAGetterSaysNothing) {
  // `assignable \nothing` rejects the receiver's fields changed, but says
  // nothing of the result.
  std::vector<v1::Observation> obs = {GetCount(3), GetCount(5)};
  StrengthResult frame = Measure("s.Ops#getCount", "//@ assignable \\nothing;\n", obs);
  ASSERT_TRUE(frame.measured) << frame.note;
  EXPECT_EQ(frame.pinned, 0);
  EXPECT_EQ(frame.undecided, 0) << frame.note;
  EXPECT_GT(frame.rejected, 0);
  EXPECT_EQ(frame.rejected, frame.rejected_unchanged);
  EXPECT_TRUE(frame.Vacuous());
  EXPECT_THAT(frame.Summary(), HasSubstr(", says nothing about the outcome"));
  StrengthResult exact =
      Measure("s.Ops#getCount", "//@ assignable \\nothing;\n//@ ensures \\result == count;\n", obs);
  ASSERT_TRUE(exact.measured) << exact.note;
  EXPECT_EQ(exact.pinned, 2) << exact.note;
  EXPECT_FALSE(exact.Vacuous());
  EXPECT_FALSE(exact.Weak());
}

std::vector<v1::Observation> GreetObservations() {
  return {Greet("ann"), Greet(""), Greet("bob"), Greet("x")};
}

TEST_F(StrengthTest, NonNullStringResultIsWeak) {
  // Any string but null satisfies the contract: it does not determine the
  // result's characters.
  StrengthResult r = Measure("s.Ops#greet", "//@ ensures \\result != null;\n", GreetObservations());
  ASSERT_TRUE(r.measured) << r.note;
  EXPECT_EQ(r.observations, 4);
  EXPECT_EQ(r.undecided, 0) << r.note;
  EXPECT_EQ(r.pinned, 0) << r.note;
  EXPECT_TRUE(r.Weak());
  EXPECT_THAT(r.Summary(), HasSubstr("pins \\result on 0/4 observations"));
}

TEST_F(StrengthTest, StringResultDeterminedByItsCharacters) {
  StrengthResult equal =
      Measure("s.Ops#greet",
              "//@ requires name != null;\n//@ ensures \\result.equals(\"hi \".concat(name));\n",
              GreetObservations());
  ASSERT_TRUE(equal.measured) << equal.note;
  EXPECT_EQ(equal.undecided, 0) << equal.note;
  EXPECT_EQ(equal.pinned, 4) << equal.note;
  EXPECT_FALSE(equal.Weak());
  // The length alone leaves the characters open (but the empty string).
  StrengthResult length =
      Measure("s.Ops#greet",
              "//@ requires name != null;\n"
              "//@ ensures \\result != null && \\result.length() == name.length() + 3;\n",
              GreetObservations());
  ASSERT_TRUE(length.measured) << length.note;
  EXPECT_EQ(length.undecided, 0) << length.note;
  EXPECT_EQ(length.pinned, 0) << length.note;
  EXPECT_TRUE(length.Weak());
}

// push(x) on a receiver with `items` (array id 2) of which `size` are used.
v1::Observation Push(const std::vector<int>& items, int size, int x) {
  v1::Observation o = OnReceiver("push", "x", x);
  for (bool post : {false, true}) {
    v1::ObjectState* s = Receiver(&o, post);
    AddField(s, "count", "I", Int(0));
    AddField(s, "other", "I", Int(0));
    v1::Value ref;
    ref.set_ref(2);
    AddField(s, "items", "[I", ref);
    AddField(s, "size", "I", Int(post ? size + 1 : size));
    std::vector<v1::Value> values;
    for (size_t k = 0; k < items.size(); ++k) {
      values.push_back(Int(post && static_cast<int>(k) == size ? x : items[k]));
    }
    SetArray(post ? o.add_post() : o.add_pre(), 2, "[I", "I", values);
  }
  o.mutable_outcome()->mutable_returned_void();
  return o;
}

TEST_F(StrengthTest, ArrayStoreThroughAFinalFieldPinsThePostState) {
  // `items` is final: no method but a constructor can make it refer to
  // another array, so the contract need not say so.
  std::vector<v1::Observation> obs = {Push({0, 0, 0}, 0, 5), Push({5, 0, 0}, 1, 6),
                                      Push({1, 2, 0, 0}, 2, 3)};
  StrengthResult r = Measure(
      "s.Ops#push",
      "//@ requires items != null && 0 <= size && size < items.length;\n"
      "//@ ensures items[\\old(size)] == x && size == \\old(size) + 1;\n"
      "//@ ensures (\\forall int k; 0 <= k && k < items.length && k != \\old(size); "
      "items[k] == \\old(items[k]));\n"
      "//@ ensures count == \\old(count) && other == \\old(other);\n",
      obs);
  ASSERT_TRUE(r.measured) << r.note;
  EXPECT_EQ(r.undecided, 0) << r.note;
  EXPECT_EQ(r.pinned, 3) << r.note;
  EXPECT_FALSE(r.Weak());
  // Without the clause on the other elements they are free.
  StrengthResult open = Measure(
      "s.Ops#push",
      "//@ requires items != null && 0 <= size && size < items.length;\n"
      "//@ ensures items[\\old(size)] == x && size == \\old(size) + 1;\n"
      "//@ ensures count == \\old(count) && other == \\old(other);\n",
      obs);
  ASSERT_TRUE(open.measured) << open.note;
  EXPECT_EQ(open.pinned, 0) << open.note;
  EXPECT_TRUE(open.Weak());
}

TEST_F(StrengthTest, RedactedResultIsUndecided) {
  // A result the observer did not record cannot be compared with another.
  v1::Observation hidden = Greet("ann");
  hidden.mutable_outcome()->mutable_returned()->mutable_redacted();
  StrengthResult r = Measure("s.Ops#greet",
                             "//@ requires name != null;\n//@ ensures \\result.equals(\"hi \".concat(name));\n",
                             {hidden, Greet("x")});
  ASSERT_TRUE(r.measured) << r.note;
  EXPECT_EQ(r.pinned, 1) << r.note;
  EXPECT_EQ(r.undecided, 1);
  EXPECT_THAT(r.note, HasSubstr("redacted"));
}

TEST_F(StrengthTest, ArrayRecordedInPartIsUndecided) {
  // Element 1 of the post-state was not recorded: the contract leaves it
  // free, which the recorded part cannot show.
  v1::Observation capped = Put({"a", "b"}, 0, "z");
  capped.mutable_post(0)->mutable_array()->mutable_elements()->RemoveLast();
  StrengthResult r = Measure("s.Ops#put",
                             "//@ requires a != null && 0 <= i && i < a.length;\n"
                             "//@ assignable a[*];\n//@ ensures a[i] == v;\n",
                             {capped});
  ASSERT_TRUE(r.measured) << r.note;
  EXPECT_EQ(r.pinned, 0);
  EXPECT_EQ(r.undecided, 1);
  EXPECT_THAT(r.note, HasSubstr("recorded in part"));
}

std::vector<v1::Observation> PutObservations() {
  return {Put({"a", "b", "c"}, 1, "z"), Put({"q"}, 0, ""), Put({"", ""}, 1, "ab")};
}

TEST_F(StrengthTest, ArrayStoreLeavingAnotherElementFreeIsWeak) {
  // The elements of a String[] are its strings' characters: the complete
  // contract pins them, one that frees the other elements does not.
  StrengthResult complete =
      Measure("s.Ops#put",
              "//@ requires a != null && 0 <= i && i < a.length;\n"
              "//@ ensures a[i] == v && (\\forall int k; 0 <= k && k < a.length && k != i; "
              "a[k] == \\old(a[k]));\n",
              PutObservations());
  ASSERT_TRUE(complete.measured) << complete.note;
  EXPECT_EQ(complete.undecided, 0) << complete.note;
  EXPECT_EQ(complete.pinned, 3) << complete.note;
  EXPECT_FALSE(complete.Weak());
  StrengthResult free = Measure("s.Ops#put",
                                "//@ requires a != null && 0 <= i && i < a.length;\n"
                                "//@ assignable a[*];\n//@ ensures a[i] == v;\n",
                                PutObservations());
  ASSERT_TRUE(free.measured) << free.note;
  EXPECT_EQ(free.undecided, 0) << free.note;
  EXPECT_EQ(free.pinned, 1) << free.note;  // only the one-element array
  EXPECT_TRUE(free.Weak());
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

// Tests for validator/jml/observation_eval.h: every operator with Java's
// exact semantics (wrap-around, truncating division, masked shifts, IEEE
// floating point, narrowing casts), three-valued logic over values the
// observation did not record, quantifiers, calls of JDK methods, and whole
// spec cases (requires, ensures, signals, signals_only, assignable).
#include "validator/jml/observation_eval.h"

#include <cmath>
#include <limits>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/call_builder.h"
#include "validator/jml/clauses.h"
#include "validator/jml/parser.h"

namespace tracespec::jml {
namespace {

using ::testing::HasSubstr;
namespace t = ::tracespec::testing;

constexpr char kSource[] = R"java(package bank;
public class Account {
  private int balance;
  private int checksum;
  private String pin;
  private Account next;
  private int[] history;
  public int deposit(int amount) { return 0; }
  public static int f(int x, long y, double d, float g, char c, int[] a, String s, boolean b,
                      Integer boxed) { return 0; }
  public void take(int[] a) {}
  public static Tier tier(int x) { return null; }
  public static int[] copy(int[] a) { return a; }
}
enum Tier { BASIC, GOLD, PLATINUM }
)java";

class ObservationEvalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto unit = ParseJavaSource(kSource, "Account.java");
    ASSERT_TRUE(unit.ok()) << unit.status();
    unit_ = *std::move(unit);
    env_ = std::make_unique<SourceTypeEnvironment>(std::vector<const CompilationUnit*>{unit_.get()},
                                                   &JdkTypeEnvironment());
    decl_ = unit_->FindType("bank.Account");
    for (const auto& m : decl_->methods) {
      auto ctx = MakeMethodContext(*env_, *decl_, m);
      ASSERT_TRUE(ctx.ok()) << ctx.status();
      contexts_[m.name] = *ctx;
    }
  }

  // f(x, y, d, g, c, a, s, b, boxed) with the given values; `a` is the
  // array {3, 1, 2} (id 10) unless `array` says otherwise.
  v1::Observation StaticCall(int x, int64_t y, double d, float g, char16_t c, bool b = true,
                             const std::vector<int>& array = {3, 1, 2},
                             const std::string& s = "hey") {
    t::Call call("bank.Account", "f", "(IJDFC[ILjava/lang/String;ZLjava/lang/Integer;)I",
                 {"x", "y", "d", "g", "c", "a", "s", "b", "boxed"}, true);
    call.Arg(t::I(x)).Arg(t::L(y)).Arg(t::D(d)).Arg(t::F(g)).Arg(t::C(c)).IntArray(array)
        .Arg(t::S(s)).Arg(t::B(b)).Arg(t::Ref(20));
    v1::Observation o = call.Returns(t::I(x));
    t::Call::AddObject(20, "java.lang.Integer", {{"value", {"I", t::I(41)}}}, o.add_pre());
    t::Call::AddObject(20, "java.lang.Integer", {{"value", {"I", t::I(41)}}}, o.add_post());
    return o;
  }

  // this.deposit(amount): balance 100 -> 100 + amount, checksum 7 -> 7*31+amount.
  v1::Observation Deposit(int amount) {
    t::Call call("bank.Account", "deposit", "(I)I", {"amount"}, false);
    call.Arg(t::I(amount));
    call.Receiver({{"balance", {"I", t::I(100)}},
                   {"checksum", {"I", t::I(7)}},
                   {"pin", {"Ljava/lang/String;", t::Hidden()}},
                   {"next", {"Lbank/Account;", t::Null()}}},
                  {{"balance", {"I", t::I(100 + amount)}},
                   {"checksum", {"I", t::I(7 * 31 + amount)}},
                   {"pin", {"Ljava/lang/String;", t::Hidden()}},
                   {"next", {"Lbank/Account;", t::Null()}}});
    return call.Returns(t::I(100 + amount));
  }

  EvalValue Eval(const v1::Observation& o, const std::string& method, const std::string& text,
                 TypeChecker::Position position = TypeChecker::Position::kPostcondition) {
    auto e = ParseExpressionText(text);
    EXPECT_TRUE(e.ok()) << text << ": " << e.status();
    if (!e.ok()) return EvalValue::Unknown("parse");
    exprs_.push_back(*std::move(e));
    TypeChecker checker(*env_);
    auto type = checker.CheckExpression(*exprs_.back(), contexts_.at(method), position);
    EXPECT_TRUE(type.ok()) << text << ": " << type.status();
    if (!type.ok()) return EvalValue::Unknown("type");
    EvalOptions options;
    options.env = env_.get();
    ObservationEvaluator ev(o, contexts_.at(method), options);
    return ev.Evaluate(*exprs_.back(), position == TypeChecker::Position::kPrecondition
                                           ? EvalState::kPre
                                           : EvalState::kPost);
  }

  Truth Holds(const v1::Observation& o, const std::string& method, const std::string& text) {
    EvalValue v = Eval(o, method, text);
    EXPECT_TRUE(v.kind == EvalValue::Kind::kBoolean || v.kind == EvalValue::Kind::kUnknown)
        << text << " gave " << v.DebugString();
    return v.truth();
  }

  // Evaluates a whole specification text for `method`.
  SpecEval Spec(const v1::Observation& o, const std::string& method, const std::string& text,
                bool nullity = true) {
    auto parsed = ParseSpecText(text, "spec.jml");
    EXPECT_TRUE(parsed.ok()) << parsed.status();
    specs_.push_back(std::move(parsed->spec));
    auto checked = TypeChecker(*env_).CheckMethodSpec(specs_.back(), contexts_.at(method));
    EXPECT_TRUE(checked.ok()) << checked.status();
    EvalOptions options;
    options.env = env_.get();
    options.implicit_nullity = nullity;
    ObservationEvaluator ev(o, contexts_.at(method), options);
    return ev.EvaluateSpec(specs_.back());
  }

  std::unique_ptr<CompilationUnit> unit_;
  std::unique_ptr<SourceTypeEnvironment> env_;
  const TypeDecl* decl_ = nullptr;
  std::map<std::string, MethodContext> contexts_;
  std::vector<ExprPtr> exprs_;
  std::vector<MethodSpec> specs_;
};

constexpr Truth kT = Truth::kTrue;
constexpr Truth kF = Truth::kFalse;
constexpr Truth kU = Truth::kUnknown;

// An enum constant in a specification is the recorded object that is that
// constant (by its java.lang.Enum.name), else a reference no recorded object
// equals; unknown when an object of the enum has no recorded name.
TEST_F(ObservationEvalTest, EnumConstantsAreTheRecordedObjectsOfTheirName) {
  auto tier = [](const char* name) {
    t::Call call("bank.Account", "tier", "(I)Lbank/Tier;", {"x"}, true);
    call.Arg(t::I(5));
    v1::Observation o = call.Returns(t::Ref(30));
    v1::ObjectState* s = o.add_post();
    s->set_id(30);
    s->set_class_name("bank.Tier");
    if (name != nullptr) {
      v1::Field* f = s->add_fields();
      f->set_name("name");
      f->set_jvm_type("Ljava/lang/String;");
      f->set_declaring_class("java.lang.Enum");
      *f->mutable_value() = t::S(name);
    }
    return o;
  };
  v1::Observation gold = tier("GOLD");
  EXPECT_EQ(Holds(gold, "tier", "\\result == bank.Tier.GOLD"), kT);
  EXPECT_EQ(Holds(gold, "tier", "\\result == Tier.BASIC"), kF);
  EXPECT_EQ(Holds(gold, "tier", "\\result != Tier.PLATINUM"), kT);
  EXPECT_EQ(Holds(gold, "tier", "Tier.BASIC == Tier.BASIC"), kT);
  EXPECT_EQ(Holds(gold, "tier", "Tier.BASIC != Tier.PLATINUM"), kT);
  EXPECT_EQ(Holds(gold, "tier", "x > 3 ==> \\result == Tier.GOLD"), kT);
  v1::Observation unnamed = tier(nullptr);
  EXPECT_EQ(Holds(unnamed, "tier", "\\result == Tier.GOLD"), kU);
  EXPECT_THAT(Eval(unnamed, "tier", "Tier.GOLD").reason,
              HasSubstr("an object of bank.Tier whose constant is not recorded"));
}

TEST_F(ObservationEvalTest, IntegerArithmeticWrapsAndTruncates) {
  v1::Observation o = StaticCall(std::numeric_limits<int32_t>::max(), 0, 0, 0, u'a');
  EXPECT_EQ(Holds(o, "f", "x + 1 == Integer.MIN_VALUE"), kT);
  EXPECT_EQ(Holds(o, "f", "x * 2 == -2"), kT);
  EXPECT_EQ(Holds(o, "f", "-Integer.MIN_VALUE == Integer.MIN_VALUE"), kT);
  EXPECT_EQ(Holds(o, "f", "Integer.MIN_VALUE / -1 == Integer.MIN_VALUE"), kT);
  EXPECT_EQ(Holds(o, "f", "Integer.MIN_VALUE % -1 == 0"), kT);
  EXPECT_EQ(Holds(o, "f", "-7 / 2 == -3 && -7 % 2 == -1 && 7 % -2 == 1"), kT);
  EXPECT_EQ(Holds(o, "f", "Long.MAX_VALUE + 1 == Long.MIN_VALUE"), kT);
  EXPECT_EQ(Holds(o, "f", "x + 1L == 2147483648L"), kT);  // promoted to long first
  EXPECT_EQ(Holds(o, "f", "(x + 1) * 1L == -2147483648L"), kT);
  EXPECT_EQ(Holds(o, "f", "~0 == -1 && (5 & 3) == 1 && (5 | 3) == 7 && (5 ^ 3) == 6"), kT);
  EvalValue div0 = Eval(o, "f", "x / 0 == 1");
  EXPECT_EQ(div0.truth(), kU);
  EXPECT_THAT(div0.reason, HasSubstr("division by zero"));
  EXPECT_EQ(Holds(o, "f", "x % 0 == 1"), kU);
}

TEST_F(ObservationEvalTest, ShiftsMaskTheirDistance) {
  v1::Observation o = StaticCall(1, 1, 0, 0, u'a');
  EXPECT_EQ(Holds(o, "f", "1 << 33 == 2"), kT);
  EXPECT_EQ(Holds(o, "f", "-1 >>> 28 == 15"), kT);
  EXPECT_EQ(Holds(o, "f", "-8 >> 1 == -4"), kT);
  EXPECT_EQ(Holds(o, "f", "1L << 65 == 2L"), kT);
  EXPECT_EQ(Holds(o, "f", "-1L >>> 60 == 15L"), kT);
  EXPECT_EQ(Holds(o, "f", "y << 63 == Long.MIN_VALUE"), kT);
}

TEST_F(ObservationEvalTest, CastsNarrowLikeTheJvm) {
  v1::Observation o = StaticCall(200, 0, std::nan(""), 0, u'a');
  EXPECT_EQ(Holds(o, "f", "(byte) x == -56"), kT);
  EXPECT_EQ(Holds(o, "f", "(short) 70000 == 4464"), kT);
  EXPECT_EQ(Holds(o, "f", "(char) -1 == 65535"), kT);
  EXPECT_EQ(Holds(o, "f", "(int) 3.9 == 3 && (int) -3.9 == -3"), kT);
  EXPECT_EQ(Holds(o, "f", "(int) d == 0"), kT);  // NaN -> 0
  EXPECT_EQ(Holds(o, "f", "(int) 1e20 == Integer.MAX_VALUE"), kT);
  EXPECT_EQ(Holds(o, "f", "(long) Float.NEGATIVE_INFINITY == Long.MIN_VALUE"), kT);
  EXPECT_EQ(Holds(o, "f", "(byte) 300.7 == 44"), kT);  // d2i then i2b
  EXPECT_EQ(Holds(o, "f", "c + 1 == 98 && (char) (c + 1) == 'b'"), kT);
}

TEST_F(ObservationEvalTest, FloatingPointIsIeee) {
  v1::Observation o = StaticCall(0, 0, std::nan(""), -0.0f, u'a');
  EXPECT_EQ(Holds(o, "f", "0.1 + 0.2 != 0.3"), kT);
  EXPECT_EQ(Holds(o, "f", "0.1 + 0.2 == 0.30000000000000004"), kT);
  EXPECT_EQ(Holds(o, "f", "0.1f + 0.2f == 0.3f"), kT);  // float arithmetic, not double
  EXPECT_EQ(Holds(o, "f", "d != d && !(d == d) && !(d < 1.0) && !(d >= 1.0)"), kT);
  EXPECT_EQ(Holds(o, "f", "Double.isNaN(d) && Double.isNaN(d + 1)"), kT);
  EXPECT_EQ(Holds(o, "f", "g == 0.0f && -0.0 == 0.0"), kT);  // -0.0 == 0.0
  EXPECT_EQ(Holds(o, "f", "Float.compare(g, 0.0f) == -1 && Double.compare(-0.0, 0.0) == -1"), kT);
  EXPECT_EQ(Holds(o, "f", "1.0 / g == Double.NEGATIVE_INFINITY"), kT);
  EXPECT_EQ(Holds(o, "f", "1.0 / 0 == Double.POSITIVE_INFINITY"), kT);
  EXPECT_EQ(Holds(o, "f", "5.5 % 2 == 1.5 && -5.5 % 2 == -1.5"), kT);
  EXPECT_EQ(Holds(o, "f", "Math.max(-0.0, 0.0) == 0.0 && Double.isNaN(Math.min(d, 1.0))"), kT);
  EXPECT_EQ(Holds(o, "f", "(float) 0.1 != 0.1"), kT);
  v1::Observation k = StaticCall(0, 0, 25.0, 0, u'a');
  EXPECT_EQ(Holds(k, "f", "d + 273.15 == 298.15"), kT);
  EXPECT_EQ(Holds(k, "f", "d * 9 / 5 + 32 == 77.0"), kT);
}

TEST_F(ObservationEvalTest, ThreeValuedLogicOverUnrecordedValues) {
  v1::Observation o = Deposit(5);
  EXPECT_EQ(Holds(o, "deposit", "pin == null"), kU);
  EvalValue v = Eval(o, "deposit", "pin.length() == 4");
  EXPECT_EQ(v.truth(), kU);
  EXPECT_THAT(v.reason, HasSubstr("redacted"));
  EXPECT_EQ(Holds(o, "deposit", "false && pin == null"), kF);
  EXPECT_EQ(Holds(o, "deposit", "pin == null && false"), kF);
  EXPECT_EQ(Holds(o, "deposit", "true || pin == null"), kT);
  EXPECT_EQ(Holds(o, "deposit", "pin == null || true"), kT);
  EXPECT_EQ(Holds(o, "deposit", "pin == null ==> true"), kT);
  EXPECT_EQ(Holds(o, "deposit", "false ==> pin == null"), kT);
  EXPECT_EQ(Holds(o, "deposit", "pin == null && true"), kU);
  EXPECT_EQ(Holds(o, "deposit", "pin == null <==> true"), kU);
  EXPECT_EQ(Holds(o, "deposit", "!(pin == null)"), kU);
  EXPECT_EQ(Holds(o, "deposit", "(pin == null ? 1 : 1) == 1"), kT);  // both branches agree
  EXPECT_EQ(Holds(o, "deposit", "(pin == null ? 1 : 2) == 1"), kU);
  // A field the observation did not record at all, and a truncated object.
  v1::Observation missing = o;
  missing.mutable_post(0)->mutable_fields()->RemoveLast();
  EXPECT_EQ(Holds(missing, "deposit", "next == null"), kU);
  EXPECT_EQ(Holds(missing, "deposit", "\\old(next) == null"), kT);
  v1::Observation truncated = o;
  truncated.mutable_post(0)->set_truncated(true);
  EXPECT_EQ(Holds(truncated, "deposit", "balance == 105"), kU);
  EXPECT_EQ(Holds(truncated, "deposit", "\\old(balance) == 100"), kT);
  // Static fields outside the JDK constants are not observed.
  EXPECT_EQ(Holds(o, "deposit", "\\result == 105"), kT);
}

TEST_F(ObservationEvalTest, OldResultAndFields) {
  v1::Observation o = Deposit(5);
  EXPECT_EQ(Holds(o, "deposit", "balance == \\old(balance) + amount"), kT);
  EXPECT_EQ(Holds(o, "deposit", "checksum == 31 * \\old(checksum) + amount"), kT);
  EXPECT_EQ(Holds(o, "deposit", "\\result == balance && \\result == this.balance"), kT);
  EXPECT_EQ(Holds(o, "deposit", "balance == \\old(balance)"), kF);
  EXPECT_EQ(Holds(o, "deposit", "next == null && \\old(next) == null"), kT);
  // Requires position reads the pre-state.
  EXPECT_EQ(Eval(o, "deposit", "balance == 100", TypeChecker::Position::kPrecondition).truth(),
            kT);
  // A thrown outcome has no \result.
  v1::Observation thrown = o;
  thrown.mutable_outcome()->mutable_thrown()->set_class_name("java.lang.IllegalStateException");
  EXPECT_EQ(Holds(thrown, "deposit", "\\result == 105"), kU);
}

TEST_F(ObservationEvalTest, LetBindsTheInitializersValue) {
  v1::Observation o = Deposit(5);
  EXPECT_EQ(Holds(o, "deposit", "(\\let int b = \\old(balance); balance == b + amount)"), kT);
  EXPECT_EQ(Holds(o, "deposit", "(\\let int b = \\old(balance); balance == b)"), kF);
  // Converted to the declared type: a long does not wrap where an int would.
  v1::Observation big = StaticCall(std::numeric_limits<int32_t>::max(), 0, 0, 0, u'a');
  EXPECT_EQ(Holds(big, "f", "(\\let long w = x, int v = x; w + 1 > 0 && v + 1 < 0)"), kT);
  // An initializer with no value does not matter to a body that ignores it.
  EXPECT_EQ(Holds(big, "f", "(\\let int z = x / 0; x > 0)"), kT);
  EXPECT_EQ(Holds(big, "f", "(\\let int z = x / 0; z > 0)"), kU);
}

TEST_F(ObservationEvalTest, ArraysAndBounds) {
  v1::Observation o = StaticCall(1, 0, 0, 0, u'a');
  EXPECT_EQ(Holds(o, "f", "a.length == 3 && a[0] == 3 && a[x] == 1"), kT);
  EvalValue out = Eval(o, "f", "a[3] == 0");
  EXPECT_EQ(out.truth(), kU);
  EXPECT_THAT(out.reason, HasSubstr("out of bounds"));
  EXPECT_EQ(Holds(o, "f", "a[-1] == 0"), kU);
  // Elements past the recorded ones are unknown; the length is not.
  v1::Observation capped = o;
  for (auto* states : {capped.mutable_pre(), capped.mutable_post()}) {
    for (auto& s : *states) {
      if (s.has_array()) s.mutable_array()->mutable_elements()->RemoveLast();
    }
  }
  EXPECT_EQ(Holds(capped, "f", "a.length == 3"), kT);
  EXPECT_EQ(Holds(capped, "f", "a[2] == 2"), kU);
  EXPECT_EQ(Holds(capped, "f", "(\\exists int i; 0 <= i && i < a.length; a[i] == 3)"), kT);
  EXPECT_EQ(Holds(capped, "f", "(\\exists int i; 0 <= i && i < a.length; a[i] == 7)"), kU);
  EXPECT_EQ(Holds(capped, "f", "(\\forall int i; 0 <= i && i < a.length; a[i] > 2)"), kF);
  EXPECT_EQ(Holds(capped, "f", "(\\forall int i; 0 <= i && i < a.length; a[i] > 0)"), kU);
  // In-place change: \old reads the pre-state contents.
  t::Call take("bank.Account", "take", "([I)V", {"a"}, false);
  std::vector<int> after = {9, 1, 2};
  v1::Observation changed = take.IntArray({3, 1, 2}, &after).ReturnsVoid();
  EXPECT_EQ(Holds(changed, "take", "a[0] == 9 && \\old(a[0]) == 3 && \\old(a.length) == 3"), kT);
}

// Array creation in a specification is a fresh array: its length as given
// or the initializer's, its elements the type's defaults or the
// initializer's values; distinct from every other array.
TEST_F(ObservationEvalTest, ArrayCreationIsAFreshArray) {
  v1::Observation o = StaticCall(3, 0, 0, 0, u'a');  // a = {3, 1, 2}
  EXPECT_EQ(Holds(o, "f", "new int[x].length == 3 && new int[]{1, 2}.length == 2"), kT);
  EXPECT_EQ(Holds(o, "f", "new int[0].length == 0 && new int[]{}.length == 0"), kT);
  EXPECT_EQ(Holds(o, "f", "(new int[x])[2] == 0 && (new long[1])[0] == 0L"), kT);
  EXPECT_EQ(Holds(o, "f", "new int[]{7, x}[1] == 3 && new char[]{c}[0] == 'a'"), kT);
  EXPECT_EQ(Holds(o, "f", "!(new boolean[2])[1] && (new String[1])[0] == null"), kT);
  EXPECT_EQ(Holds(o, "f", "(new double[1])[0] == 0.0 && new String[]{s}[0].length() == 3"), kT);
  EXPECT_EQ(Holds(o, "f", "(new int[x])[3] == 0"), kU);  // out of bounds
  // Element-wise against a recorded array, in a quantifier.
  EXPECT_EQ(Holds(o, "f", "(\\forall int i; 0 <= i && i < a.length; a[i] == new int[]{3, 1, 2}[i])"),
            kT);
  EXPECT_EQ(Holds(o, "f", "(\\forall int i; 0 <= i && i < a.length; a[i] == (new int[x])[i])"), kF);
  // A fresh array is no other array (== and equals are identity).
  EXPECT_EQ(Holds(o, "f", "a != new int[]{3, 1, 2} && new int[0] != new int[0]"), kT);
  EXPECT_EQ(Holds(o, "f", "a.equals(new int[]{3, 1, 2})"), kF);
  EXPECT_EQ(Holds(o, "f", "a.equals(a)"), kT);
  EXPECT_EQ(Holds(o, "f", "new int[]{3, 1, 2} instanceof int[]"), kT);
  // A negative size is undefined; a huge one is not evaluated; an unknown
  // element makes the array unknown.
  EvalValue negative = Eval(o, "f", "new int[x - 4].length == 0");
  EXPECT_EQ(negative.truth(), kU);
  EXPECT_THAT(negative.reason, HasSubstr("negative array size"));
  EvalValue huge = Eval(o, "f", "new int[Integer.MAX_VALUE].length > 0");
  EXPECT_EQ(huge.truth(), kU);
  EXPECT_THAT(huge.reason, HasSubstr("not evaluated"));
  EXPECT_EQ(Holds(o, "f", "new int[]{x / 0}.length == 1"), kU);
  // The bound holds for all the arrays one evaluation creates.
  EXPECT_EQ(Holds(o, "f", "(\\forall int i; 0 <= i && i < 60; new int[1000].length == 1000)"), kT);
  EXPECT_EQ(Holds(o, "f", "(\\forall int i; 0 <= i && i < 70; new int[1000].length == 1000)"), kU);
  // Several dimensions: a fresh row for each index, or null rows.
  EXPECT_EQ(Holds(o, "f", "new int[2][x].length == 2 && (new int[2][x])[1].length == 3"), kT);
  EXPECT_EQ(Holds(o, "f", "(\\let int[][] m = new int[2][x]; m[0] != m[1] && m[1][2] == 0)"), kT);
  EXPECT_EQ(Holds(o, "f", "new int[x][].length == 3 && (new int[x][])[2] == null"), kT);
  EXPECT_EQ(Holds(o, "f", "new int[][]{{1}, {2, x}}[1][1] == 3 && new int[][]{{1}, {}}[1].length == 0"),
            kT);
  EvalValue negative_row = Eval(o, "f", "new int[2][x - 4].length == 2");
  EXPECT_EQ(negative_row.truth(), kU);
  EXPECT_THAT(negative_row.reason, HasSubstr("negative array size"));
  // A fresh array was not allocated by the method: \fresh does not decide it.
  EXPECT_EQ(Holds(o, "f", "\\fresh(new int[1])"), kU);
}

// java.util.Arrays.equals over recorded and created arrays, as the JDK
// compares them: element-wise, floating point by bits, objects by equals.
TEST_F(ObservationEvalTest, ArraysEqualsComparesElementWise) {
  v1::Observation o = StaticCall(3, 0, 0, 0, u'a');  // a = {3, 1, 2}
  EXPECT_EQ(Holds(o, "f", "java.util.Arrays.equals(a, new int[]{3, 1, 2})"), kT);
  EXPECT_EQ(Holds(o, "f", "java.util.Arrays.equals(a, new int[]{3, 1, 4})"), kF);
  EXPECT_EQ(Holds(o, "f", "java.util.Arrays.equals(a, new int[x])"), kF);
  EXPECT_EQ(Holds(o, "f", "java.util.Arrays.equals(a, new int[]{3, 1})"), kF);
  EXPECT_EQ(Holds(o, "f", "java.util.Arrays.equals(new int[2], new int[]{0, 0})"), kT);
  EXPECT_EQ(Holds(o, "f", "java.util.Arrays.equals(a, null)"), kF);
  EXPECT_EQ(Holds(o, "f", "java.util.Arrays.equals(new double[]{0.0 / 0}, new double[]{0.0 / 0})"),
            kT);  // NaN equals NaN
  EXPECT_EQ(Holds(o, "f", "java.util.Arrays.equals(new double[]{0.0}, new double[]{-0.0})"), kF);
  EXPECT_EQ(Holds(o, "f", "java.util.Arrays.equals(new String[]{s, null}, new String[]{\"hey\", null})"),
            kT);
  EXPECT_EQ(Holds(o, "f", "java.util.Arrays.equals(new String[]{s}, new String[]{\"he\"})"), kF);
  // \result, as a recorded array, against a created one.
  t::Call copy("bank.Account", "copy", "([I)[I", {"a"}, true);
  v1::Observation r = copy.IntArray({1, 2}).ReturnsIntArray({1, 2});
  EXPECT_EQ(Holds(r, "copy", "java.util.Arrays.equals(\\result, new int[]{1, 2})"), kT);
  EXPECT_EQ(Holds(r, "copy", "java.util.Arrays.equals(\\result, new int[]{2, 1})"), kF);
  EXPECT_EQ(Holds(r, "copy", "\\result.length == new int[a.length].length"), kT);
  // Elements not recorded: unknown, unless a recorded one differs.
  v1::Observation capped = r;
  for (auto& s : *capped.mutable_post()) {
    if (s.has_array()) s.mutable_array()->mutable_elements()->RemoveLast();
  }
  EXPECT_EQ(Holds(capped, "copy", "java.util.Arrays.equals(\\result, new int[]{1, 2})"), kU);
  EXPECT_EQ(Holds(capped, "copy", "java.util.Arrays.equals(\\result, new int[]{0, 2})"), kF);
}

TEST_F(ObservationEvalTest, Quantifiers) {
  v1::Observation o = StaticCall(2, 0, 0, 0, u'a', true, {4, 1, 4, 7});
  EXPECT_EQ(Holds(o, "f", "(\\forall int i; 0 <= i && i < a.length; a[i] >= 1)"), kT);
  EXPECT_EQ(Holds(o, "f", "(\\forall int i; 0 <= i && i < a.length; a[i] >= 4)"), kF);
  EXPECT_EQ(Holds(o, "f", "(\\exists int i; 0 <= i && i < a.length; a[i] == 7)"), kT);
  EXPECT_EQ(Holds(o, "f", "(\\num_of int i; 0 <= i && i < a.length; a[i] == 4) == 2"), kT);
  EXPECT_EQ(Holds(o, "f", "(\\sum int i; 0 <= i && i < a.length; a[i]) == 16"), kT);
  EXPECT_EQ(Holds(o, "f", "(\\product int i; 0 <= i && i < a.length; a[i]) == 112"), kT);
  EXPECT_EQ(Holds(o, "f", "(\\max int i; 0 <= i && i < a.length; a[i]) == 7"), kT);
  EXPECT_EQ(Holds(o, "f", "(\\min int i; 0 <= i && i < a.length; a[i]) == 1"), kT);
  // Sortedness with i + 1 in the range; two variables; no range (the bounds
  // come from the body's antecedent).
  EXPECT_EQ(Holds(o, "f", "(\\forall int i; 0 <= i && i + 1 < a.length; a[i] <= a[i + 1])"), kF);
  EXPECT_EQ(Holds(o, "f", "(\\exists int i, j; 0 <= i && i < j && j < a.length; a[i] == a[j])"),
            kT);
  EXPECT_EQ(Holds(o, "f", "(\\forall int i; 0 <= i && i < a.length ==> a[i] > 0)"), kT);
  EXPECT_EQ(Holds(o, "f", "(\\forall int i; i >= 0 && a.length > i; a[i] > 0)"), kT);
  // Arithmetic over the quantified variable; a prime test.
  EXPECT_EQ(Holds(o, "f", "(\\sum int i; 0 <= i && i < 5; i * i) == 30"), kT);
  v1::Observation p = StaticCall(29, 0, 0, 0, u'a');
  EXPECT_EQ(Holds(p, "f", "x > 1 && (\\forall int k; 2 <= k && k < x; x % k != 0)"), kT);
  // Empty ranges: \sum 0, \product 1, \forall true, \exists false, \max none.
  EXPECT_EQ(Holds(o, "f", "(\\sum int i; 0 <= i && i < 0; a[i]) == 0"), kT);
  EXPECT_EQ(Holds(o, "f", "(\\product int i; 0 <= i && i < 0; a[i]) == 1"), kT);
  EXPECT_EQ(Holds(o, "f", "(\\forall int i; 0 <= i && i < 0; false)"), kT);
  EXPECT_EQ(Holds(o, "f", "(\\exists int i; 0 <= i && i < 0; true)"), kF);
  EXPECT_EQ(Holds(o, "f", "(\\max int i; 0 <= i && i < 0; a[i]) == 0"), kU);
  // Unbounded: unknown, never a guess. Boolean variables are enumerated.
  EXPECT_EQ(Holds(o, "f", "(\\forall int i; i > 0; i > -1)"), kU);
  EXPECT_EQ(Holds(o, "f", "(\\forall boolean q; q || !q)"), kT);
  // \sum of ints wraps like int.
  v1::Observation big = StaticCall(0, 0, 0, 0, u'a', true, {2147483647, 1});
  EXPECT_EQ(Holds(big, "f", "(\\sum int i; 0 <= i && i < a.length; a[i]) == Integer.MIN_VALUE"),
            kT);
  EXPECT_EQ(Holds(big, "f",
                  "(\\sum int i; 0 <= i && i < a.length; (long) a[i]) == 2147483648L"),
            kT);
}

// Found by the differential test against the lowering
// (tests/validator/check/jml_differential_test.cpp).
TEST_F(ObservationEvalTest, DifferentialFindings) {
  v1::Observation o = StaticCall(std::numeric_limits<int32_t>::min(), -1, 0, 0, u'a');
  // floorDiv/floorMod of MIN_VALUE by -1 trapped (SIGFPE) on a raw `%`.
  EXPECT_EQ(Holds(o, "f", "Math.floorDiv(Long.MIN_VALUE, y) == Long.MIN_VALUE"), kT);
  EXPECT_EQ(Holds(o, "f", "Math.floorMod(Long.MIN_VALUE, y) == 0L"), kT);
  EXPECT_EQ(Holds(o, "f", "Math.floorDiv(x, -1) == x && Math.floorMod(x, -1) == 0"), kT);
  EXPECT_EQ(Holds(o, "f", "Math.floorDiv(-7L, 2L) == -4L && Math.floorMod(-7L, 2L) == 1L"), kT);
  // floorMod(long, int) computes in long (the dividend was cut to int).
  EXPECT_EQ(Holds(o, "f", "Math.floorMod(4294967297L, 3) == 2"), kT);
  EXPECT_EQ(Holds(o, "f", "Math.floorDiv(4294967297L, -3) == -1431655766L"), kT);
  // `i + 1` in a range wraps at Integer.MAX_VALUE, where a[i] is out of
  // bounds: undefined, as the lowering says (write i < a.length - 1).
  EXPECT_EQ(Holds(o, "f", "(\\forall int i; 0 <= i && i + 1 < a.length; a[i] <= a[i] + 0)"), kU);
  EXPECT_EQ(Holds(o, "f", "(\\forall int i; 0 <= i && i < a.length - 1; a[i] <= a[i] + 0)"), kT);
}

TEST_F(ObservationEvalTest, CallsOfJdkMethodsAndStrings) {
  v1::Observation o = StaticCall(std::numeric_limits<int32_t>::min(), -5, 2.25, 0, u'a');
  EXPECT_EQ(Holds(o, "f", "Math.abs(x) == Integer.MIN_VALUE"), kT);
  EXPECT_EQ(Holds(o, "f", "Math.abs(y) == 5L && Math.max(3, 9) == 9 && Math.min(y, 0L) == -5L"),
            kT);
  EXPECT_EQ(Holds(o, "f", "Math.sqrt(d) == 1.5"), kT);
  EXPECT_EQ(Holds(o, "f", "Math.floorMod(-7, 3) == 2 && Math.floorDiv(-7, 3) == -3"), kT);
  EXPECT_EQ(Holds(o, "f", "Integer.compare(1, 2) == -1 && Long.signum(y) == -1"), kT);
  // The *Exact methods the executor models: exact results, and an overflow
  // (ArithmeticException) makes the clause undefined, not false.
  EXPECT_EQ(Holds(o, "f",
                  "Math.addExact(3, 4) == 7 && Math.multiplyExact(y, 3L) == -15L && "
                  "Math.toIntExact(y) == -5 && Math.negateExact(5) == -5 && "
                  "Math.absExact(y) == 5L && Math.subtractExact(x + 1, 1) == x"),
            kT);
  EXPECT_EQ(Holds(o, "f", "Math.negateExact(x) == 0"), kU);
  EXPECT_EQ(Holds(o, "f", "Math.decrementExact(x) < 0"), kU);
  EXPECT_EQ(Holds(o, "f", "Math.multiplyExact(y, 2000000000000000000L) < 0"), kU);
  EXPECT_EQ(Holds(o, "f", "s.length() == 3 && s.charAt(1) == 'e' && s.equals(\"hey\")"), kT);
  EXPECT_EQ(Holds(o, "f", "s.indexOf('y') == 2 && s.startsWith(\"he\") && !s.isEmpty()"), kT);
  EXPECT_EQ(Holds(o, "f", "s.substring(1).equals(\"ey\") && (s + x).length() == 14"), kT);
  EXPECT_EQ(Holds(o, "f", "s.hashCode() == 103196"), kT);
  EXPECT_EQ(Holds(o, "f", "s.charAt(5) == 'x'"), kU);
  EXPECT_EQ(Holds(o, "f", "s == \"hey\""), kU);  // identity of strings is not recorded
  EXPECT_EQ(Holds(o, "f", "s != null"), kT);
  EXPECT_EQ(Holds(o, "f", "Character.isDigit('7') && !Character.isLetter(c + 0 == 97 ? '1' : 'x')"),
            kT);
  // Boxed values unbox.
  EXPECT_EQ(Holds(o, "f", "boxed + 1 == 42 && boxed.intValue() == 41"), kT);
}

TEST_F(ObservationEvalTest, ARecordedStringHoldingUFFFDIsNotEvaluated) {
  // The recorder writes an unpaired surrogate as U+FFFD: "a\uD800" arrives
  // as "a\uFFFD", so no clause may read its characters as recorded.
  v1::Observation o = StaticCall(1, 2, 0, 0, u'a', true, {3, 1, 2}, "a\xEF\xBF\xBD");
  EXPECT_EQ(Holds(o, "f", "s.length() == 2"), kU);
  EXPECT_EQ(Holds(o, "f", "s.charAt(0) == 'a'"), kU);
  EXPECT_EQ(Holds(o, "f", "s.equals(\"a\")"), kU);
  EXPECT_EQ(Holds(o, "f", "x == 1"), kT);  // the rest of the observation is read
}

TEST_F(ObservationEvalTest, RemainingOperatorsAndJmlConstructs) {
  v1::Observation o = StaticCall(3, 5, 0, 0, u'a');
  EXPECT_EQ(Holds(o, "f", "+x == 3 && -(-x) == 3"), kT);
  EXPECT_EQ(Holds(o, "f", "(x > 5 <== false) && (x > 5 <=!=> x > 2) && (x > 5 <==> x > 6)"), kT);
  EXPECT_EQ(Holds(o, "f", "(x > 2 ? y : 0L) == 5L && (b ? 1 : 2.5) == 1.0"), kT);
  EXPECT_EQ(Holds(o, "f", "(\\lblpos ok x == 3)"), kT);
  EXPECT_EQ(Holds(o, "f", "\\nonnullelements(a)"), kT);
  EXPECT_EQ(Holds(o, "f", "\\not_modified(a[0], a[2])"), kT);
  EXPECT_EQ(Holds(o, "f", "\\old(x, Here) == 3"), kT);
  EXPECT_EQ(Holds(o, "f", "(\\bigint) Long.MAX_VALUE + 1 > Long.MAX_VALUE"), kT);
  EXPECT_EQ(Holds(o, "f", "(\\bigint) x * 1000000000000L * 1000000000000L > 0"), kT);
  EXPECT_EQ(Holds(o, "f", "\\fresh(a)"), kF);  // a exists in the pre-state
  v1::Observation made = StaticCall(3, 5, 0, 0, u'a');
  made.mutable_outcome()->mutable_returned()->set_int_value(3);
  EXPECT_EQ(Holds(made, "f", "(\\real) x == 3"), kU);
}

TEST_F(ObservationEvalTest, TypesAndInstanceof) {
  v1::Observation o = Deposit(5);
  EXPECT_EQ(Holds(o, "deposit", "this instanceof Account && \\typeof(this) == \\type(Account)"),
            kT);
  EXPECT_EQ(Holds(o, "deposit", "\\typeof(this) <: \\type(Object)"), kT);
  EXPECT_EQ(Holds(o, "deposit", "next instanceof Account"), kF);  // null
}

TEST_F(ObservationEvalTest, SpecCasesWithExceptionsAndFrames) {
  const char* spec = R"(
    public normal_behavior
      requires amount > 0;
      assignable balance, checksum;
      ensures balance == \old(balance) + amount;
      ensures \result == balance;
    also
    public exceptional_behavior
      requires amount <= 0;
      assignable \nothing;
      signals_only IllegalArgumentException;
      signals (IllegalArgumentException e) balance == \old(balance);
  )";
  // The redacted pin may have changed: admitted is unknown, not false.
  SpecEval ok = Spec(Deposit(5), "deposit", spec);
  EXPECT_EQ(ok.admitted, kU);
  ASSERT_EQ(ok.cases.size(), 2u);
  EXPECT_EQ(ok.cases[0].pre, kT);
  EXPECT_EQ(ok.cases[0].post, kU);
  EXPECT_THAT(ok.cases[0].why, HasSubstr("pin"));
  EXPECT_EQ(ok.cases[1].pre, kF);

  // The same call under a frame that forgets checksum: refuted.
  SpecEval frame = Spec(Deposit(5), "deposit", R"(
    requires amount > 0;
    assignable balance;
    ensures \result == balance;)");
  EXPECT_EQ(frame.admitted, kF);
  EXPECT_THAT(frame.cases[0].why, HasSubstr("'checksum'"));

  // A thrown exception: the exceptional case holds (the runtime exception
  // is a subclass, found through the JDK classes); the normal case does
  // not apply; with a returned value, the exceptional case would be false.
  v1::Observation thrown = Deposit(-1);
  thrown.mutable_outcome()->mutable_thrown()->set_class_name(
      "java.lang.IllegalArgumentException");
  *thrown.mutable_post(0)->mutable_fields(0)->mutable_value() = t::I(100);
  *thrown.mutable_post(0)->mutable_fields(1)->mutable_value() = t::I(7);
  SpecEval ex = Spec(thrown, "deposit", spec);
  EXPECT_EQ(ex.cases[0].pre, kF);
  EXPECT_EQ(ex.cases[1].pre, kT);
  EXPECT_EQ(ex.cases[1].post, kU);  // \nothing, but the redacted pin is not comparable
  v1::Observation wrong = thrown;
  wrong.mutable_outcome()->mutable_thrown()->set_class_name("java.lang.IllegalStateException");
  SpecEval bad = Spec(wrong, "deposit", spec);
  EXPECT_EQ(bad.admitted, kF);
  EXPECT_THAT(bad.cases[1].why, HasSubstr("signals_only"));
  v1::Observation returned = Deposit(-1);
  SpecEval no_exception = Spec(returned, "deposit", spec);
  EXPECT_EQ(no_exception.admitted, kF);
  EXPECT_THAT(no_exception.cases[1].why, HasSubstr("returned normally"));
}

TEST_F(ObservationEvalTest, ArrayFramesAndImplicitNullity) {
  t::Call take("bank.Account", "take", "([I)V", {"a"}, false);
  std::vector<int> after = {9, 1, 2};
  take.Receiver({{"balance", {"I", t::I(1)}}}, {{"balance", {"I", t::I(1)}}});
  v1::Observation changed = take.IntArray({3, 1, 2}, &after).ReturnsVoid();
  EXPECT_EQ(Spec(changed, "take", "assignable a[*];").admitted, kT);
  EXPECT_EQ(Spec(changed, "take", "assignable a[0];").admitted, kT);
  EXPECT_EQ(Spec(changed, "take", "assignable a[1..2];").admitted, kF);
  EXPECT_EQ(Spec(changed, "take", "assignable \\nothing;").admitted, kF);
  EXPECT_EQ(Spec(changed, "take", "assignable \\everything;").admitted, kT);
  // A null argument for a non_null (default) parameter: no case applies.
  t::Call null_call("bank.Account", "take", "([I)V", {"a"}, false);
  null_call.Receiver({{"balance", {"I", t::I(1)}}}, {{"balance", {"I", t::I(1)}}});
  v1::Observation with_null = null_call.Arg(t::Null()).ReturnsVoid();
  SpecEval strict = Spec(with_null, "take", "requires true;");
  EXPECT_EQ(strict.admitted, kF);
  EXPECT_THAT(strict.cases[0].why, HasSubstr("non_null"));
  EXPECT_EQ(Spec(with_null, "take", "requires true;", /*nullity=*/false).admitted, kT);
}

TEST_F(ObservationEvalTest, ChangedLocationsAreSortedAndCertainOnlyWhenRecorded) {
  EvalOptions options;
  v1::Observation o = Deposit(5);
  ObservationEvaluator ev(o, contexts_.at("deposit"), options);
  std::vector<ChangedLocation> changes = ev.ChangedLocations();
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(changes[0].field, "balance");
  EXPECT_TRUE(changes[0].certain);
  EXPECT_EQ(changes[1].field, "checksum");
  EXPECT_EQ(changes[2].field, "pin");
  EXPECT_FALSE(changes[2].certain);
}

TEST_F(ObservationEvalTest, ValuesPrintAsParseableJml) {
  EXPECT_EQ(EvalValue::Int(-3).ToJml(), "-3");
  EXPECT_EQ(EvalValue::Int(std::numeric_limits<int32_t>::min()).ToJml(), "Integer.MIN_VALUE");
  EXPECT_EQ(EvalValue::Long(7).ToJml(), "7L");
  EXPECT_EQ(EvalValue::Double(273.15).ToJml(), "273.15");
  EXPECT_EQ(EvalValue::Double(std::nan("")).ToJml(), "Double.NaN");
  EXPECT_EQ(EvalValue::Float(0.5f).ToJml(), "0.5f");
  EXPECT_EQ(EvalValue::Int('a', Type::Kind::kChar).ToJml(), "'a'");
  EXPECT_EQ(EvalValue::String(u"a\"b").ToJml(), "\"a\\\"b\"");
  EXPECT_TRUE(EvalValue::Double(std::nan("")).Identical(EvalValue::Double(std::nan(""))));
  EXPECT_FALSE(EvalValue::Double(0.0).Identical(EvalValue::Double(-0.0)));
}

TEST_F(ObservationEvalTest, WorkIsBounded) {
  v1::Observation o = StaticCall(std::numeric_limits<int32_t>::max(), 0, 0, 0, u'a');
  auto e = ParseExpressionText("x > 1 && (\\forall int k; 2 <= k && k < x; x % k != 0)");
  ASSERT_TRUE(e.ok());
  ASSERT_TRUE(
      TypeChecker(*env_)
          .CheckExpression(**e, contexts_.at("f"), TypeChecker::Position::kPostcondition)
          .ok());
  EvalOptions options;
  options.max_steps = 10000;
  ObservationEvaluator ev(o, contexts_.at("f"), options);
  EvalValue v = ev.Evaluate(**e, EvalState::kPost);
  EXPECT_EQ(v.truth(), kU);
  EXPECT_THAT(v.reason, HasSubstr("budget"));
  EXPECT_LE(ev.steps(), 10100);
}

}  // namespace
}  // namespace tracespec::jml

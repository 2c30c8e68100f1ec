// Tests for project/invariants.h on a class compiled by javac and checked by
// the real validator: which candidates the observed states give, which of
// them the proof keeps (Houdini), and which fields it leaves alone.
#include "project/invariants.h"

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"
#include "validator/classfile/class_path.h"

namespace tracespec::project {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr char kCounter[] =
    "package p;\n"
    "public class Counter {\n"
    "  private final int[] slots;\n"
    "  private int used;\n"
    "  private final int limit;\n"
    "  private int total;\n"
    "  public Counter(int n) {\n"
    "    if (n <= 0) throw new IllegalArgumentException(\"n\");\n"
    "    slots = new int[n];\n"
    "    limit = n;\n"
    "  }\n"
    "  public void add(int x) {\n"
    "    if (used == slots.length) throw new IllegalStateException(\"full\");\n"
    "    slots[used++] = x;\n"
    "    total += x;\n"  // a negative x, or an overflow, makes total negative
    "  }\n"
    "  public void clear() { used = 0; }\n"
    "  public int used() { return used; }\n"
    "}\n";

// One call of p.Counter#add(I)V on an object in state (used, limit, total,
// slots of `length`), leaving it in the state after.
v1::Observation AddCall(int used, int limit, int total, int length, int x) {
  v1::Observation o;
  o.mutable_method()->set_class_name("p.Counter");
  o.mutable_method()->set_name("add");
  o.mutable_method()->set_jvm_descriptor("(I)V");
  o.mutable_receiver()->set_ref(1);
  o.add_args()->set_int_value(x);
  auto state = [&](google::protobuf::RepeatedPtrField<v1::ObjectState>* side, int u, int t) {
    v1::ObjectState* obj = side->Add();
    obj->set_id(1);
    obj->set_class_name("p.Counter");
    auto field = [&](const char* name, const char* type) {
      v1::Field* f = obj->add_fields();
      f->set_name(name);
      f->set_jvm_type(type);
      return f->mutable_value();
    };
    field("limit", "I")->set_int_value(limit);
    field("slots", "[I")->set_ref(2);
    field("total", "I")->set_int_value(t);
    field("used", "I")->set_int_value(u);
    v1::ObjectState* array = side->Add();
    array->set_id(2);
    array->set_class_name("[I");
    array->mutable_array()->set_element_descriptor("I");
    array->mutable_array()->set_length(length);
  };
  state(o.mutable_pre(), used, total);
  state(o.mutable_post(), used + 1, total + x);
  o.mutable_outcome()->mutable_returned_void();
  return o;
}

struct Compiled {
  testing::TempDir dir;
  std::string classes;
};

TEST(InvariantsTest, CandidatesFromTheObservedStatesAreKeptOnlyWhenTheClassKeepsThem) {
  Compiled c;
  c.classes = testing::CompileJava(c.dir, {{"p/Counter.java", kCounter}}, {"-g"});
  ASSERT_FALSE(c.classes.empty());
  auto path = classfile::ClassPath::Create(c.classes);
  ASSERT_TRUE(path.ok()) << path.status();
  auto cls = path->Load("p/Counter");
  ASSERT_TRUE(cls.ok()) << cls.status();

  // used 0 -> 1 -> 2 of 3 slots, total 5 -> 12 -> 20: every state has
  // used < slots.length except the last post-state (used == 3).
  std::vector<v1::Observation> observations = {AddCall(0, 3, 5, 3, 7), AddCall(1, 3, 12, 3, 8),
                                               AddCall(2, 3, 20, 3, 1)};
  std::vector<InvariantCandidate> candidates = CandidateInvariants(**cls, {}, observations);
  std::vector<std::string> texts;
  for (const InvariantCandidate& k : candidates) texts.push_back(k.text);
  // Declaration order (slots, used, limit, total); no `slots != null`
  // (JML's default already makes it non-null); pairs of integral fields.
  EXPECT_THAT(texts, ElementsAre("used >= 0", "used <= slots.length", "limit >= 0", "limit > 0",
                                 "limit <= slots.length", "limit == slots.length", "total >= 0",
                                 "total > 0", "used <= limit", "used <= total", "limit <= total"));

  auto validator = check::Validator::Create(c.classes);
  ASSERT_TRUE(validator.ok()) << validator.status();
  InvariantProofOptions options;
  options.validator = validator->get();
  auto proved = ProveClassInvariants(**cls, candidates, options);
  ASSERT_TRUE(proved.ok()) << proved.status();
  // total is refuted (add(-1)), and with it every order against it; a
  // proved stronger form (`limit > 0`, `limit == slots.length`) makes the
  // weaker one say nothing more; `used <= limit` holds only together with
  // `limit == slots.length`.
  EXPECT_THAT(proved->invariants, ElementsAre("used >= 0", "used <= slots.length", "limit > 0",
                                              "limit == slots.length", "used <= limit"));
  EXPECT_EQ(proved->candidates, 11);
  EXPECT_TRUE(proved->note.empty()) << proved->note;
  EXPECT_GT(proved->validations, 0);

  // The proof is what decides: a state no call could leave (used above
  // the length) is never a candidate's counterexample, but a method that
  // breaks one is.
  auto step = CheckInvariantsOf(**cls, *(*cls)->FindMethod("clear", "()V"), {"used > 0"}, options);
  ASSERT_TRUE(step.ok()) << step.status();
  EXPECT_EQ(step->status, check::CheckStatus::kFail) << step->summary;
  ASSERT_FALSE(step->diagnostics.empty());
  EXPECT_EQ(step->diagnostics[0].given_invariant, 0);
  EXPECT_THAT(step->summary, HasSubstr("class invariant used > 0 does not hold at exit"));
}

TEST(InvariantsTest, AFieldWrittenWhereTheProofDoesNotLookGetsNoCandidate) {
  Compiled c;
  std::string source = kCounter;
  // A static method and a method writing a new object's field: the proof
  // checks the receiver and parameters only, so `used` is left alone.
  source.insert(source.rfind('}'),
                "  static void reset(Counter c) { c.used = 0; }\n"
                "  Counter copy() { Counter d = new Counter(limit); d.total = total; return d; }\n");
  c.classes = testing::CompileJava(c.dir, {{"p/Counter.java", source}}, {"-g"});
  ASSERT_FALSE(c.classes.empty());
  auto path = classfile::ClassPath::Create(c.classes);
  ASSERT_TRUE(path.ok());
  auto cls = path->Load("p/Counter");
  ASSERT_TRUE(cls.ok());
  std::vector<v1::Observation> observations = {AddCall(0, 3, 5, 3, 7)};
  std::vector<std::string> texts;
  for (const InvariantCandidate& k : CandidateInvariants(**cls, {}, observations)) {
    texts.push_back(k.text);
  }
  EXPECT_THAT(texts,
              ElementsAre("limit >= 0", "limit > 0", "limit <= slots.length", "limit == slots.length"));
  // No observed state of the class: no candidate.
  EXPECT_THAT(CandidateInvariants(**cls, {}, {}), IsEmpty());

  // A lambda's body writes whenever its closure runs, not within a method
  // the proof checks.
  Compiled lambda;
  std::string deferred = kCounter;
  deferred.insert(deferred.rfind('}'), "  public Runnable resetLater() { return () -> used = -1; }\n");
  lambda.classes = testing::CompileJava(lambda.dir, {{"p/Counter.java", deferred}}, {"-g"});
  ASSERT_FALSE(lambda.classes.empty());
  auto lambda_path = classfile::ClassPath::Create(lambda.classes);
  ASSERT_TRUE(lambda_path.ok());
  auto lambda_cls = lambda_path->Load("p/Counter");
  ASSERT_TRUE(lambda_cls.ok());
  texts.clear();
  for (const InvariantCandidate& k : CandidateInvariants(**lambda_cls, {}, observations)) {
    texts.push_back(k.text);
  }
  EXPECT_THAT(texts, ElementsAre("limit >= 0", "limit > 0", "limit <= slots.length",
                                 "limit == slots.length", "total >= 0", "total > 0",
                                 "limit <= total"));
}

}  // namespace
}  // namespace tracespec::project

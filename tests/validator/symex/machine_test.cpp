// The executor's API as the JML checks use it: entry states with free
// inputs, assumptions, exits with their path conditions and heaps,
// obligations, callee substitution, and models turned into observations.
#include "validator/symex/machine.h"

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"
#include "validator/symex/length_cuts.h"
#include "validator/symex/solver.h"

namespace tracespec::symex {
namespace {

const char* kAccount = R"java(
package bank;

public class Account {
  static final int FEE = 3;
  static int opened;
  private int balance;
  private int checksum;
  private Account backup;

  public int withdraw(int amount) {
    if (amount > balance) throw new IllegalStateException("insufficient");
    balance -= amount;
    return balance;
  }

  public void deposit(int amount) {
    balance += amount;
    checksum ^= amount;
  }

  public int audited(int amount) {
    return fee(amount) + 1;
  }

  int fee(int amount) {
    return amount / 100;
  }

  static int first(int[] values) {
    return values[0];
  }

  static int nameLength(String name) {
    return name.length();
  }

  public void mirror() {
    backup.balance = balance;
  }
}
)java";

class MachineTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    std::string classes = testing::CompileJava(*dir_, {{"bank/Account.java", kAccount}}, {"-g"});
    auto cp = classfile::ClassPath::Create(classes);
    ASSERT_TRUE(cp.ok());
    auto program = Program::Load(std::move(*cp));
    ASSERT_TRUE(program.ok()) << program.status();
    program_ = program->release();
  }
  static void TearDownTestSuite() {
    delete program_;
    delete dir_;
  }

  const MethodInfo& Method(const std::string& name) {
    const ClassInfo* cls = program_->FindClass("bank/Account");
    return *program_->FindMethodsByName(cls, name).at(0);
  }
  const FieldInfo& Field(const std::string& name, const std::string& descriptor) {
    return *program_->ResolveField("bank/Account", name, descriptor);
  }
  SolveResult Solve(Machine& m, const z3::expr& query) {
    return symex::Solve(ctx_, m.axioms(), query,
                        std::chrono::steady_clock::now() + std::chrono::seconds(30), true);
  }

  static testing::TempDir* dir_;
  static Program* program_;
  z3::context ctx_;
};

testing::TempDir* MachineTest::dir_ = nullptr;
Program* MachineTest::program_ = nullptr;

TEST_F(MachineTest, ProvesAPostconditionAndRefutesAWrongOne) {
  Machine m(ctx_, *program_, ExecOptions{});
  auto entry = m.CreateEntry(Method("withdraw"));
  ASSERT_TRUE(entry.ok()) << entry.status();
  ASSERT_TRUE(entry->receiver.has_value());
  ASSERT_EQ(entry->args.size(), 1u);
  EXPECT_EQ(entry->arg_names[0], "amount");
  const JavaOps& ops = m.ops();
  z3::expr self = entry->receiver->e;
  z3::expr amount = entry->args[0].e;
  z3::expr old_balance = m.ReadField(entry->heap, self, Field("balance", "I")).e;
  // requires 0 < amount && amount <= balance
  m.Assume(*entry, ops.And(ops.Lt(ops.Int(0), amount), ops.Le(amount, old_balance)));
  auto result = m.Execute(*entry);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_TRUE(result->normal.has_value());
  const ExitState& exit = *result->normal;
  z3::expr ret = exit.value->e;
  z3::expr new_balance = m.ReadField(exit.heap, self, Field("balance", "I")).e;
  z3::expr post = ops.And(ops.Eq(ret, new_balance), ops.Eq(new_balance, ops.Sub(old_balance, amount)));
  EXPECT_EQ(Solve(m, ops.And(entry->guard, ops.And(exit.guard, ops.Not(post)))).result, z3::unsat);
  // Under the precondition the exception cannot happen.
  if (result->exceptional) {
    EXPECT_EQ(Solve(m, result->exceptional->guard).result, z3::unsat);
  }
  // A wrong postcondition: the result is positive.
  z3::expr wrong = ops.Lt(ops.Int(0), ret);
  SolveResult r = Solve(m, ops.And(exit.guard, ops.Not(wrong)));
  ASSERT_EQ(r.result, z3::sat);
  auto obs = m.BuildObservation(*r.model, *entry, exit, /*exceptional=*/false);
  ASSERT_TRUE(obs.ok()) << obs.status();
  EXPECT_EQ(obs->source(), v1::COUNTEREXAMPLE);
  EXPECT_EQ(obs->method().class_name(), "bank.Account");
  EXPECT_EQ(obs->method().jvm_descriptor(), "(I)I");
  ASSERT_EQ(obs->receiver().kind_case(), v1::Value::kRef);
  ASSERT_EQ(obs->args_size(), 1);
  int32_t a = obs->args(0).int_value();
  ASSERT_GE(obs->pre_size(), 1);
  const v1::ObjectState& pre = obs->pre(0);
  EXPECT_EQ(pre.class_name(), "bank.Account");
  int32_t before = 0, after = 0;
  for (const v1::Field& f : pre.fields()) {
    if (f.name() == "balance") before = f.value().int_value();
  }
  for (const v1::ObjectState& o : obs->post()) {
    if (o.id() != pre.id()) continue;
    for (const v1::Field& f : o.fields()) {
      if (f.name() == "balance") after = f.value().int_value();
    }
  }
  EXPECT_EQ(after, static_cast<int32_t>(static_cast<uint32_t>(before) - static_cast<uint32_t>(a)));
  EXPECT_EQ(obs->outcome().returned().int_value(), after);
  EXPECT_LE(after, 0);
}

TEST_F(MachineTest, ExceptionalExitAndObligations) {
  Machine m(ctx_, *program_, ExecOptions{});
  auto entry = m.CreateEntry(Method("withdraw"));
  ASSERT_TRUE(entry.ok());
  auto result = m.Execute(*entry);
  ASSERT_TRUE(result.ok());
  ASSERT_TRUE(result->exceptional.has_value());
  const JavaOps& ops = m.ops();
  z3::expr is_ise = m.InstanceOf(result->exceptional->value->e, "java/lang/IllegalStateException");
  SolveResult r = Solve(m, ops.And(result->exceptional->guard, is_ise));
  ASSERT_EQ(r.result, z3::sat);
  EXPECT_EQ(m.TypeNameIn(*r.model, result->exceptional->value->e),
            "java.lang.IllegalStateException");
  auto obs = m.BuildObservation(*r.model, *entry, *result->exceptional, /*exceptional=*/true);
  ASSERT_TRUE(obs.ok());
  EXPECT_EQ(obs->outcome().thrown().class_name(), "java.lang.IllegalStateException");
  bool raised = false;
  for (const Obligation& o : result->obligations) {
    if (o.kind == ObligationKind::kException && o.detail == "java.lang.IllegalStateException") {
      raised = true;
      EXPECT_EQ(m.sites()[o.site].line, 12u);  // the throw (line 1 of kAccount is empty)
    }
  }
  EXPECT_TRUE(raised);
}

TEST_F(MachineTest, FrameOfDeposit) {
  Machine m(ctx_, *program_, ExecOptions{});
  auto entry = m.CreateEntry(Method("deposit"));
  ASSERT_TRUE(entry.ok());
  auto result = m.Execute(*entry);
  ASSERT_TRUE(result.ok() && result->normal);
  const JavaOps& ops = m.ops();
  z3::expr self = entry->receiver->e;
  // assignable balance; is violated: checksum changes too (unless amount is 0).
  const FieldInfo& checksum = Field("checksum", "I");
  z3::expr unchanged = ops.Eq(m.ReadField(entry->heap, self, checksum).e,
                              m.ReadField(result->normal->heap, self, checksum).e);
  SolveResult r = Solve(m, ops.And(result->normal->guard, ops.Not(unchanged)));
  ASSERT_EQ(r.result, z3::sat);
  EXPECT_NE(m.FormatValue(*r.model, entry->args[0], "I"), "0");
  // Another Account object is untouched even if it aliases nothing.
  z3::expr other = m.Fresh("Lbank/Account;", "other").e;
  z3::expr distinct = ops.And(ops.Not(ops.Eq(other, ops.Null())), ops.Not(ops.Eq(other, self)));
  const FieldInfo& balance = Field("balance", "I");
  z3::expr same = ops.Eq(m.ReadField(entry->heap, other, balance).e,
                         m.ReadField(result->normal->heap, other, balance).e);
  EXPECT_EQ(Solve(m, ops.And(ops.And(result->normal->guard, distinct), ops.Not(same))).result,
            z3::unsat);
}

TEST_F(MachineTest, InputArraysAreBoundedAndMayBeEmpty) {
  ExecOptions options;
  options.max_array = 3;
  Machine m(ctx_, *program_, options);
  auto entry = m.CreateEntry(Method("first"));
  ASSERT_TRUE(entry.ok());
  auto result = m.Execute(*entry);
  ASSERT_TRUE(result.ok());
  const JavaOps& ops = m.ops();
  z3::expr values = entry->args[0].e;
  z3::expr length = m.ArrayLength(values);
  EXPECT_EQ(Solve(m, ops.And(ops.Not(ops.Eq(values, ops.Null())), ops.Lt(ops.Int(3), length))).result,
            z3::unsat);
  ASSERT_TRUE(result->exceptional.has_value());
  z3::expr aioobe = m.InstanceOf(result->exceptional->value->e,
                                 "java/lang/ArrayIndexOutOfBoundsException");
  SolveResult r = Solve(m, ops.And(result->exceptional->guard, aioobe));
  ASSERT_EQ(r.result, z3::sat);
  auto obs = m.BuildObservation(*r.model, *entry, *result->exceptional, true);
  ASSERT_TRUE(obs.ok());
  ASSERT_EQ(obs->pre_size(), 1);
  EXPECT_EQ(obs->pre(0).class_name(), "[I");
  EXPECT_EQ(obs->pre(0).array().length(), 0);
}

TEST_F(MachineTest, AliasedReceiverFields) {
  Machine m(ctx_, *program_, ExecOptions{});
  auto entry = m.CreateEntry(Method("mirror"));
  ASSERT_TRUE(entry.ok());
  auto result = m.Execute(*entry);
  ASSERT_TRUE(result.ok() && result->normal);
  const JavaOps& ops = m.ops();
  z3::expr self = entry->receiver->e;
  z3::expr backup = m.ReadField(entry->heap, self, Field("backup", "Lbank/Account;")).e;
  // backup may be this object: then nothing changes.
  SolveResult r = Solve(m, ops.And(result->normal->guard, ops.Eq(backup, self)));
  EXPECT_EQ(r.result, z3::sat);
  // A null backup raises NullPointerException.
  ASSERT_TRUE(result->exceptional);
  EXPECT_EQ(Solve(m, ops.And(result->exceptional->guard, ops.Eq(backup, ops.Null()))).result,
            z3::sat);
}

TEST_F(MachineTest, StaticsAfterInitialisation) {
  Machine m(ctx_, *program_, ExecOptions{});
  auto entry = m.CreateEntry(Method("withdraw"));
  ASSERT_TRUE(entry.ok());
  // The constant is set by class preparation; the mutable static is an input.
  const FieldInfo& fee = *program_->ResolveField("bank/Account", "FEE", "I");
  Value v = m.ReadStatic(entry->heap, fee);
  ASSERT_TRUE(JavaOps::BvValue(v.e).has_value());
  EXPECT_EQ(*JavaOps::BvValue(v.e), 3u);
  const FieldInfo& opened = *program_->ResolveField("bank/Account", "opened", "I");
  Value input = m.ReadStatic(entry->heap, opened);
  EXPECT_FALSE(JavaOps::BvValue(input.e).has_value());
  ASSERT_EQ(m.inputs().size(), 1u);
  EXPECT_EQ(m.inputs()[0].source, InputEvent::Source::kStatic);
  EXPECT_EQ(m.inputs()[0].name, "bank.Account.opened");
}

// Replaces calls of fee() by its contract: 0 <= \result <= amount.
class FeeContract : public CallInterceptor {
 public:
  absl::StatusOr<std::optional<CallOutcome>> Intercept(Machine& machine,
                                                       const CallSite& call) override {
    if (call.callee->name != "fee") return std::nullopt;
    ++calls;
    const JavaOps& ops = machine.ops();
    Value result = machine.Fresh("I", "fee_result");
    z3::expr contract = ops.And(ops.Le(ops.Int(0), result.e), ops.Le(result.e, call.args[0].e));
    CallOutcome outcome;
    outcome.normal = ExitState{ops.And(call.guard, contract), *call.heap, result};
    return outcome;
  }
  int calls = 0;
};

TEST_F(MachineTest, CalleesCanBeReplacedByContracts) {
  Machine m(ctx_, *program_, ExecOptions{});
  auto entry = m.CreateEntry(Method("audited"));
  ASSERT_TRUE(entry.ok());
  const JavaOps& ops = m.ops();
  z3::expr amount = entry->args[0].e;
  m.Assume(*entry, ops.And(ops.Le(ops.Int(0), amount), ops.Lt(amount, ops.Int(1000))));
  FeeContract contract;
  auto result = m.Execute(*entry, &contract);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(contract.calls, 1);
  ASSERT_TRUE(result->normal);
  z3::expr ret = result->normal->value->e;
  z3::expr post = ops.And(ops.Le(ops.Int(1), ret), ops.Le(ret, ops.Add(amount, ops.Int(1))));
  EXPECT_EQ(Solve(m, ops.And(result->normal->guard, ops.Not(post))).result, z3::unsat);
  // With the contract, ret == amount + 1 is possible (inlining would say no).
  EXPECT_EQ(Solve(m, ops.And(result->normal->guard, ops.Eq(ret, ops.Add(amount, ops.Int(1))))).result,
            z3::sat);
}


// InputLengthCuts (length_cuts.h): the bound on input lengths is a cut only
// where an admitted pre-state has a longer input whose length was read.
TEST_F(MachineTest, InputLengthsAreCutWhereALongerInputIsAdmittedAndRead) {
  auto cuts = [&](const std::string& method, bool only_null) {
    ExecOptions options;
    options.max_array = 3;
    Machine m(ctx_, *program_, options);
    auto entry = m.CreateEntry(Method(method));
    EXPECT_TRUE(entry.ok()) << entry.status();
    if (!entry.ok()) return std::vector<std::string>{"(no entry)"};
    EXPECT_TRUE(m.Execute(*entry).ok());
    const JavaOps& ops = m.ops();
    z3::expr pre = only_null ? ops.And(entry->guard, ops.Eq(entry->args.at(0).e, ops.Null()))
                             : entry->guard;
    return InputLengthCuts(m, pre, options.max_array,
                           std::chrono::steady_clock::now() + std::chrono::seconds(30));
  };
  EXPECT_EQ(cuts("first", false), std::vector<std::string>{"input arrays of at most 3 elements"});
  EXPECT_EQ(cuts("nameLength", false),
            std::vector<std::string>{"input strings of at most 3 characters"});
  // No input array, or none admitted: nothing was cut.
  EXPECT_EQ(cuts("withdraw", false), std::vector<std::string>{});
  EXPECT_EQ(cuts("first", true), std::vector<std::string>{});
}

}  // namespace
}  // namespace tracespec::symex

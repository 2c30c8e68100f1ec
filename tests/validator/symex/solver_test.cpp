// The solver's second engine (cvc5 in its own process), on queries built
// here: its unsat taken, its sat only with a model Z3 confirms, and queries
// whose meaning the two solvers may not share kept from it.
#include "validator/symex/solver.h"

#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

#include "common/subprocess.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::symex {
namespace {

class SecondEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (FindInPath("cvc5").empty()) GTEST_SKIP() << "cvc5 is not installed (scripts/install-deps.sh)";
  }
  std::chrono::steady_clock::time_point Deadline() {
    return std::chrono::steady_clock::now() + std::chrono::seconds(60);
  }
  z3::context ctx_;
};

TEST_F(SecondEngineTest, FindsAFloatingPointModelThatZ3Confirms) {
  // Floating-point addition is not associative: a model exists.
  z3::sort f = ctx_.fpa_sort<32>();
  z3::expr a = ctx_.constant("a", f), b = ctx_.constant("b", f), c = ctx_.constant("c", f);
  z3::expr lo = ctx_.fpa_val(-1000.0f), hi = ctx_.fpa_val(1000.0f);
  z3::expr range = lo < a && a < hi && lo < b && b < hi && lo < c && c < hi;
  z3::expr differ = !z3::fp_eq((a + b) + c, a + (b + c));
  SolveResult r = AskSecondEngine(ctx_, {range, differ}, Deadline(), /*want_model=*/true);
  ASSERT_EQ(r.result, z3::sat) << r.why_unknown;
  ASSERT_TRUE(r.model.has_value());
  EXPECT_TRUE(r.model->eval(range && differ, true).is_true());
}

TEST_F(SecondEngineTest, ProvesUnsat) {
  z3::expr x = ctx_.bv_const("x", 32);
  SolveResult r = AskSecondEngine(ctx_, {x * 2 == ctx_.bv_val(1, 32)}, Deadline(), false);
  EXPECT_EQ(r.result, z3::unsat) << r.why_unknown;
}

TEST_F(SecondEngineTest, QueriesWithOperationsSmtLibLeavesOpenStayWithZ3) {
  // fp.min of +0 and -0 may be either: the solvers need not agree.
  z3::sort f = ctx_.fpa_sort<64>();
  z3::expr x = ctx_.constant("x", f), y = ctx_.constant("y", f);
  z3::expr q = z3::fp_eq(z3::min(x, y), x);
  SolveResult r = AskSecondEngine(ctx_, {q}, Deadline(), false);
  EXPECT_EQ(r.result, z3::unknown);
  EXPECT_NE(r.why_unknown.find("cvc5 not asked"), std::string::npos) << r.why_unknown;
}

TEST_F(SecondEngineTest, QuotedNamesAndArraysRoundTrip) {
  // Symbols the executor makes (with '!' and '.') and an array theory term.
  z3::expr i = ctx_.bv_const("index!3", 32);
  z3::expr v = ctx_.bv_const("p.C.f!7", 32);
  z3::expr arr = ctx_.constant("contents!1", ctx_.array_sort(ctx_.bv_sort(32), ctx_.bv_sort(32)));
  z3::expr q = z3::select(z3::store(arr, i, v), i) == ctx_.bv_val(42, 32) && i == ctx_.bv_val(5, 32);
  SolveResult r = AskSecondEngine(ctx_, {q}, Deadline(), true);
  ASSERT_EQ(r.result, z3::sat) << r.why_unknown;
  EXPECT_TRUE(r.model->eval(q, true).is_true());
}

// The counterexample of a query both engines can answer is the same
// whichever answers first in wall-clock time. The query is Discount#apply's
// `\result <= cents` (tests/e2e/projects/maven-shop) refuted by an overflow,
// with the remainder of `cents` fixed: Z3 finds a model in its second turn,
// seconds after its first; cvc5 in well under a second. Solved once as it
// is, once with a cvc5 that starts eight seconds late (a script of that
// name first on PATH, as on a loaded machine): when the first answer in
// wall-clock time won, the model was cvc5's in the one and Z3's in the
// other.
TEST_F(SecondEngineTest, TheCounterexampleDoesNotDependOnWhichEngineAnswersFirst) {
  // A fresh context for each solve, as for each method.
  const char* smt2 =
      "(declare-fun cents () (_ BitVec 64))\n"
      "(declare-fun percent () (_ BitVec 32))\n"
      "(assert (and (bvsle (_ bv0 32) percent) (bvsle percent (_ bv100 32))\n"
      "  (bvsgt (bvsub cents (bvsdiv (bvmul cents ((_ sign_extend 32) percent)) (_ bv100 64))) cents)\n"
      "  (= (bvsrem cents (_ bv1000 64)) (_ bv7 64))))\n";
  auto solve = [&] {
    z3::context ctx;
    z3::expr query = z3::mk_and(ctx.parse_string(smt2));
    SolveResult r = Solve(ctx, {}, query, std::chrono::steady_clock::now() + std::chrono::seconds(90),
                          /*want_model=*/true);
    EXPECT_EQ(r.result, z3::sat) << r.why_unknown;
    if (!r.model.has_value()) return std::string("(no model)");
    EXPECT_TRUE(r.model->eval(query, true).is_true());
    return r.model->eval(ctx.bv_const("cents", 64), true).to_string() + " " +
           r.model->eval(ctx.bv_const("percent", 32), true).to_string();
  };
  std::string fast = solve();

  testing::TempDir dir;
  std::string late = dir.Write("bin/cvc5", "#!/bin/sh\nsleep 8\nexec " + FindInPath("cvc5") + " \"$@\"\n");
  ASSERT_EQ(::chmod(late.c_str(), 0700), 0);
  const char* path = std::getenv("PATH");
  std::string saved = path != nullptr ? path : "";
  ::setenv("PATH", (dir.path() + "/bin:" + saved).c_str(), 1);
  ASSERT_EQ(FindInPath("cvc5"), late);
  std::string slow = solve();
  ::setenv("PATH", saved.c_str(), 1);
  EXPECT_EQ(slow, fast);
}

// Two threads, each with its own context, time out search after search at
// once (as `tracespec run --jobs 2` does). Every search stops near its
// deadline, and an interrupt never leaks into what the context does next.
// (Z3's own timer aborted the process in this situation.)
TEST(SolverDeadlineTest, ParallelTimedOutSearchesStopAndLeaveTheContextUsable) {
  auto worker = [](int seed, std::vector<std::string>* failures) {
    z3::context ctx;
    z3::expr a = ctx.bv_const("a", 64), b = ctx.bv_const("b", 64);
    for (int i = 0; i < 120; ++i) {
      if (i % 4 == 0) {
        // Factoring a 62-bit semiprime by bit-blasting: far beyond 40 ms.
        const uint64_t n = uint64_t{2147483647} * uint64_t{2147483629};
        z3::expr hard = a * b == ctx.bv_val(n, 64) && z3::ugt(a, ctx.bv_val(1, 64)) &&
                        z3::ugt(b, ctx.bv_val(1, 64)) &&
                        z3::ult(a, ctx.bv_val(uint64_t{1} << 32, 64)) &&
                        z3::ult(b, ctx.bv_val(uint64_t{1} << 32, 64)) &&
                        (a ^ ctx.bv_val(static_cast<uint64_t>(seed * 1000 + i), 64)) !=
                            ctx.bv_val(0, 64);
        auto begin = std::chrono::steady_clock::now();
        SolveResult r = Solve(ctx, {}, hard, begin + std::chrono::milliseconds(40 + i % 3), false);
        double took =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        if (r.result != z3::unknown || took > 5) {
          failures->push_back("hard query: " + std::to_string(r.result) + " after " +
                              std::to_string(took) + " s");
        }
      }
      try {
        z3::expr folded = (a * b + ctx.bv_val(0, 64)).simplify();
        (void)folded;
        SolveResult easy = Solve(ctx, {}, a + b == ctx.bv_val(7, 64),
                                 std::chrono::steady_clock::now() + std::chrono::seconds(30), true);
        if (easy.result != z3::sat) failures->push_back("easy query: " + easy.why_unknown);
      } catch (const z3::exception& e) {
        failures->push_back(std::string("after a timed-out search: ") + e.msg());
      }
    }
  };
  std::vector<std::string> first, second;
  std::thread one(worker, 1, &first), two(worker, 2, &second);
  one.join();
  two.join();
  EXPECT_TRUE(first.empty()) << first.front();
  EXPECT_TRUE(second.empty()) << second.front();
}

}  // namespace
}  // namespace tracespec::symex

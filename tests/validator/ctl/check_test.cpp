// The loan workflow outcomes (examples/loan/models) through CheckFormulas,
// and the text / JSON / DOT renderings of a report.
#include "validator/ctl/check.h"

#include "gtest/gtest.h"
#include "tests/testing/testing.h"
#include "validator/ctl/kripke_io.h"

namespace tracespec::ctl {
namespace {

Kripke Load(const std::string& name, DeadlockPolicy policy = DeadlockPolicy::kError) {
  auto m = ReadKripkeFile(testing::SourceDir() + "/examples/loan/models/" + name, policy);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? std::move(*m) : Kripke();
}

std::vector<std::string> Names(const Kripke& m, const std::vector<uint32_t>& states) {
  std::vector<std::string> out;
  for (uint32_t s : states) out.push_back(m.StateName(s));
  return out;
}

using V = std::vector<std::string>;

CheckReport Check(const Kripke& m, const std::vector<std::string>& formulas, const CheckOptions& options = {}) {
  auto r = CheckFormulas(m, formulas, options);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? std::move(*r) : CheckReport();
}

TEST(Loan, BaseDesign) {
  Kripke m = Load("base.kripke");
  CheckReport r = Check(m, {"EF g", "AF g", "AG !bad"});
  ASSERT_EQ(r.results.size(), 3u);
  EXPECT_EQ(Names(m, r.unreachable), V({"s4"}));
  EXPECT_FALSE(r.all_hold);
  // EF g holds, witness s0 s1 s2 s3.
  EXPECT_TRUE(r.results[0].holds);
  ASSERT_EQ(r.results[0].evidence.size(), 1u);
  EXPECT_EQ(Names(m, r.results[0].evidence[0].trace.states), V({"s0", "s1", "s2", "s3"}));
  // AF g fails: lasso prefix s0 s1, cycle s1 s2 s1.
  EXPECT_FALSE(r.results[1].holds);
  EXPECT_EQ(Names(m, r.results[1].failing_initial_states), V({"s0"}));
  const Trace& lasso = r.results[1].evidence[0].trace;
  EXPECT_EQ(Names(m, lasso.states), V({"s0", "s1", "s2"}));
  EXPECT_EQ(lasso.loop_start, 1);
  // AG !bad holds.
  EXPECT_TRUE(r.results[2].holds);
  EXPECT_TRUE(r.results[2].evidence[0].trace.empty());
}

TEST(Loan, WithoutSendBackAllHold) {
  Kripke m = Load("no_send_back.kripke");
  CheckReport r = Check(m, {"EF g", "AF g", "AG !bad"});
  EXPECT_TRUE(r.all_hold);
  for (const FormulaResult& f : r.results) EXPECT_TRUE(f.holds) << f.text;
}

TEST(Loan, ShortcutBreaksSafetyAndCompletion) {
  Kripke m = Load("shortcut.kripke");
  CheckReport r = Check(m, {"EF g", "AF g", "AG !bad"});
  EXPECT_TRUE(r.results[0].holds);
  EXPECT_FALSE(r.results[1].holds);
  EXPECT_FALSE(r.results[2].holds);
  const Trace& bad = r.results[2].evidence[0].trace;
  EXPECT_EQ(Names(m, bad.states), V({"s0", "s1", "s4"}));
  EXPECT_FALSE(bad.is_lasso());
  const Trace& af = r.results[1].evidence[0].trace;
  EXPECT_TRUE(af.is_lasso());
  EXPECT_EQ(m.StateName(af.states[af.loop_start]), "s4");
}

TEST(Loan, FairnessMakesCompletionHold) {
  Kripke m = Load("base.kripke");
  CheckOptions options;
  options.fairness = {"!(s1 | s2)"};
  CheckReport r = Check(m, {"AF g", "EF g"}, options);
  EXPECT_TRUE(r.results[0].holds);
  EXPECT_TRUE(r.results[1].holds);
  EXPECT_TRUE(r.initial_without_fair_path.empty());
  // The EF witness is continued into a fair lasso ending in s3's loop.
  const Trace& t = r.results[1].evidence[0].trace;
  EXPECT_EQ(t.claim_end, 3);
  EXPECT_TRUE(t.is_lasso());
  EXPECT_EQ(m.StateName(t.states[t.loop_start]), "s3");
}

TEST(Loan, OtherStartStates) {
  Kripke m = Load("base.kripke");
  m.set_initial_states({*m.FindState("s3")});
  EXPECT_TRUE(Check(m, {"AF g"}).all_hold);
  m.set_initial_states({*m.FindState("s4")});
  CheckReport r = Check(m, {"EF g"});
  EXPECT_FALSE(r.all_hold);
  EXPECT_TRUE(r.results[0].evidence[0].trace.empty());
}

TEST(Check, SeveralInitialStatesMustAllSatisfy) {
  Kripke m = Load("base.kripke");
  m.set_initial_states({*m.FindState("s0"), *m.FindState("s4")});
  CheckReport r = Check(m, {"EF g", "AG !g -> EF bad"});
  EXPECT_FALSE(r.results[0].holds);
  EXPECT_EQ(Names(m, r.results[0].failing_initial_states), V({"s4"}));
  EXPECT_TRUE(r.unreachable.empty());
}

TEST(Check, UnknownPropositionIsAnErrorWithColumn) {
  Kripke m = Load("base.kripke");
  auto r = CheckFormulas(m, {"EF g", "AG !(bad | approved)"}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "formula \"AG !(bad | approved)\": column 12: unknown proposition 'approved' (labels: bad, g; every "
            "state name is a proposition too)");
}

TEST(Check, NestedFormulasExplainEachSegment) {
  Kripke m = Load("base.kripke");
  CheckReport r = Check(m, {"EF EG !g", "AG EF g"});
  const Explanation& e = r.results[0].evidence[0];
  EXPECT_TRUE(e.holds);
  ASSERT_EQ(e.children.size(), 1u);
  EXPECT_EQ(e.children[0].formula, "EG !g");
  EXPECT_TRUE(e.children[0].trace.is_lasso());
  EXPECT_EQ(e.children[0].state, e.trace.states[e.trace.claim_end]);
}

TEST(Check, RenderingsCarryTheEvidence) {
  Kripke m = Load("base.kripke");
  CheckReport r = Check(m, {"EF g", "AF g"});
  const std::string text = RenderText(m, r);
  EXPECT_NE(text.find("unreachable from the initial states (never part of a counterexample): s4"), std::string::npos);
  EXPECT_NE(text.find("path: s0 -[submit]-> s1 -[review]-> s2 -[approve]-> s3"), std::string::npos) << text;
  EXPECT_NE(text.find("lasso prefix: s0 -[submit]-> s1"), std::string::npos);
  EXPECT_NE(text.find("lasso cycle:  s1 -[review]-> s2 -[send back]-> s1 (repeats forever)"), std::string::npos);
  const std::string json = RenderJson(m, r);
  EXPECT_NE(json.find("\"cycle\": [\n"), std::string::npos) << json;
  EXPECT_NE(json.find("\"all_hold\": false"), std::string::npos);
  const std::string dot = RenderDot(m, r);
  EXPECT_NE(dot.find("label=\"f2.3 loop (send back)\""), std::string::npos) << dot;
  EXPECT_EQ(dot.find("\"s4\""), std::string::npos);  // not in the evidence's neighbourhood
}

}  // namespace
}  // namespace tracespec::ctl

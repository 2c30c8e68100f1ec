// Cross-checks the CTL checker against a naive fixpoint implementation
// (Emerson-Lei style, written here from the definitions) on thousands of
// random small models, with and without fairness, and checks that every
// piece of evidence is a real path of the model that demonstrates its claim.
#include "validator/ctl/checker.h"

#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "validator/ctl/evidence.h"
#include "validator/ctl/formula.h"
#include "validator/ctl/kripke.h"

namespace tracespec::ctl {
namespace {

using Set = std::vector<bool>;

// A model as plain adjacency lists, and the naive semantics over it.
struct Naive {
  int n = 0;
  std::vector<std::vector<int>> succ;
  std::vector<Set> props;  // p, q, r
  std::vector<Set> fairness;

  Set All(bool v) const { return Set(n, v); }
  Set Not(const Set& a) const {
    Set r(n);
    for (int s = 0; s < n; ++s) r[s] = !a[s];
    return r;
  }
  Set And(const Set& a, const Set& b) const {
    Set r(n);
    for (int s = 0; s < n; ++s) r[s] = a[s] && b[s];
    return r;
  }
  Set Or(const Set& a, const Set& b) const {
    Set r(n);
    for (int s = 0; s < n; ++s) r[s] = a[s] || b[s];
    return r;
  }
  Set PreE(const Set& z) const {
    Set r(n);
    for (int s = 0; s < n; ++s)
      for (int t : succ[s]) r[s] = r[s] || z[t];
    return r;
  }
  Set PreA(const Set& z) const {
    Set r(n, true);
    for (int s = 0; s < n; ++s)
      for (int t : succ[s]) r[s] = r[s] && z[t];
    return r;
  }
  // lfp Y = goal | (f & EX Y), no fairness.
  Set PlainEu(const Set& f, const Set& goal) const {
    Set y = goal;
    for (;;) {
      Set next = Or(goal, And(f, PreE(y)));
      if (next == y) return y;
      y = next;
    }
  }
  // Emerson-Lei: gfp Z = f & AND_i EX E[f U (Z & F_i)]; without fairness
  // gfp Z = f & EX Z.
  Set FairEg(const Set& f) const {
    Set z = f;
    for (;;) {
      Set next = f;
      if (fairness.empty()) {
        next = And(next, PreE(z));
      } else {
        for (const Set& fi : fairness) next = And(next, PreE(PlainEu(f, And(z, fi))));
      }
      if (next == z) return z;
      z = next;
    }
  }
  Set Fair() const { return FairEg(All(true)); }
  bool fair_mode() const { return !fairness.empty(); }

  Set Ex(const Set& f) const { return PreE(fair_mode() ? And(f, Fair()) : f); }
  Set Eu(const Set& f, const Set& g) const { return PlainEu(f, fair_mode() ? And(g, Fair()) : g); }
  Set Ax(const Set& f) const { return fair_mode() ? Not(Ex(Not(f))) : PreA(f); }
  Set Af(const Set& f) const {
    if (fair_mode()) return Not(FairEg(Not(f)));
    Set z = f;
    for (;;) {
      Set next = Or(f, PreA(z));
      if (next == z) return z;
      z = next;
    }
  }
  Set Ag(const Set& f) const {
    if (fair_mode()) return Not(Eu(All(true), Not(f)));
    Set z = f;
    for (;;) {
      Set next = And(f, PreA(z));
      if (next == z) return z;
      z = next;
    }
  }
  Set Au(const Set& f, const Set& g) const {
    if (fair_mode()) return Not(Or(Eu(Not(g), And(Not(f), Not(g))), FairEg(Not(g))));
    Set z = g;
    for (;;) {
      Set next = Or(g, And(f, PreA(z)));
      if (next == z) return z;
      z = next;
    }
  }

  std::vector<Set> Label(const Formula& formula) const {
    std::vector<Set> sat;
    for (const Formula::Node& node : formula.nodes) {
      auto a = [&] { return sat[node.lhs]; };
      auto b = [&] { return sat[node.rhs]; };
      switch (node.op) {
        case Op::kTrue: sat.push_back(All(true)); break;
        case Op::kFalse: sat.push_back(All(false)); break;
        case Op::kAtom:
          if (node.atom == "p") sat.push_back(props[0]);
          else if (node.atom == "q") sat.push_back(props[1]);
          else if (node.atom == "r") sat.push_back(props[2]);
          else {  // a state name s<k>
            Set one(n);
            one[std::stoi(node.atom.substr(1))] = true;
            sat.push_back(one);
          }
          break;
        case Op::kNot: sat.push_back(Not(a())); break;
        case Op::kAnd: sat.push_back(And(a(), b())); break;
        case Op::kOr: sat.push_back(Or(a(), b())); break;
        case Op::kImplies: sat.push_back(Or(Not(a()), b())); break;
        case Op::kIff: sat.push_back(Or(And(a(), b()), And(Not(a()), Not(b())))); break;
        case Op::kEX: sat.push_back(Ex(a())); break;
        case Op::kAX: sat.push_back(Ax(a())); break;
        case Op::kEF: sat.push_back(Eu(All(true), a())); break;
        case Op::kAF: sat.push_back(Af(a())); break;
        case Op::kEG: sat.push_back(FairEg(a())); break;
        case Op::kAG: sat.push_back(Ag(a())); break;
        case Op::kEU: sat.push_back(Eu(a(), b())); break;
        case Op::kAU: sat.push_back(Au(a(), b())); break;
      }
    }
    return sat;
  }

  bool HasEdge(int s, int t) const {
    for (int x : succ[s])
      if (x == t) return true;
    return false;
  }
};

struct RandomCase {
  Naive naive;
  Kripke model;
};

RandomCase MakeCase(std::mt19937& rng) {
  RandomCase c;
  Naive& nv = c.naive;
  nv.n = 1 + static_cast<int>(rng() % 8);
  nv.succ.resize(nv.n);
  for (int s = 0; s < nv.n; ++s) {
    const int degree = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < degree; ++k) {
      const int t = static_cast<int>(rng() % nv.n);
      if (!nv.HasEdge(s, t)) nv.succ[s].push_back(t);
    }
  }
  nv.props.assign(3, Set(nv.n));
  for (auto& p : nv.props)
    for (int s = 0; s < nv.n; ++s) p[s] = rng() % 3 == 0;
  KripkeBuilder b("random");
  for (int s = 0; s < nv.n; ++s) EXPECT_TRUE(b.AddState(absl::StrCat("s", s)).ok());
  const char* names[] = {"p", "q", "r"};
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(b.DeclareLabel(names[i]).ok());
    for (int s = 0; s < nv.n; ++s)
      if (nv.props[i][s]) {
        EXPECT_TRUE(b.AddLabel(names[i], s).ok());
      }
  }
  for (int s = 0; s < nv.n; ++s)
    for (int t : nv.succ[s]) b.AddTransition(s, t);
  b.AddInitial(0);
  auto model = std::move(b).Build(DeadlockPolicy::kError);
  EXPECT_TRUE(model.ok()) << model.status();
  c.model = std::move(*model);
  return c;
}

std::string RandomFormula(std::mt19937& rng, int depth, int num_states) {
  const char* atoms[] = {"p", "q", "r", "true", "false"};
  if (depth == 0 || rng() % 5 == 0) {
    if (rng() % 6 == 0) return absl::StrCat("s", rng() % num_states);
    return atoms[rng() % 5];
  }
  auto sub = [&] { return RandomFormula(rng, depth - 1, num_states); };
  switch (rng() % 14) {
    case 0: return absl::StrCat("!(", sub(), ")");
    case 1: return absl::StrCat("(", sub(), ") & (", sub(), ")");
    case 2: return absl::StrCat("(", sub(), ") | (", sub(), ")");
    case 3: return absl::StrCat("(", sub(), ") -> (", sub(), ")");
    case 4: return absl::StrCat("(", sub(), ") <-> (", sub(), ")");
    case 5: return absl::StrCat("EX (", sub(), ")");
    case 6: return absl::StrCat("AX (", sub(), ")");
    case 7: return absl::StrCat("EF (", sub(), ")");
    case 8: return absl::StrCat("AF (", sub(), ")");
    case 9: return absl::StrCat("EG (", sub(), ")");
    case 10: return absl::StrCat("AG (", sub(), ")");
    case 11: return absl::StrCat("E[", sub(), " U ", sub(), "]");
    default: return absl::StrCat("A[", sub(), " U ", sub(), "]");
  }
}

// Checks one explanation (and its children) against the naive labels.
void VerifyExplanation(const Naive& nv, const Formula& f, const std::vector<Set>& sat, const Explanation& e,
                       const std::string& context) {
  const Formula::Node& node = f.nodes[e.node];
  SCOPED_TRACE(absl::StrCat(context, " node ", f.ToString(e.node), " at s", e.state));
  ASSERT_EQ(e.holds, static_cast<bool>(sat[e.node][e.state]));
  const Trace& t = e.trace;
  const Op op = node.op;
  const bool needs_trace = (op == Op::kEX && e.holds) || (op == Op::kAX && !e.holds) ||
                           (op == Op::kEF && e.holds) || (op == Op::kAG && !e.holds) ||
                           (op == Op::kEU && e.holds) || (op == Op::kAU && !e.holds) ||
                           (op == Op::kEG && e.holds) || (op == Op::kAF && !e.holds);
  ASSERT_EQ(needs_trace, !t.empty());
  if (!t.empty()) {
    ASSERT_EQ(t.states[0], e.state);
    for (size_t i = 0; i + 1 < t.states.size(); ++i) ASSERT_TRUE(nv.HasEdge(t.states[i], t.states[i + 1]));
    ASSERT_GE(t.claim_end, 0);
    ASSERT_LT(t.claim_end, static_cast<int>(t.states.size()));
    if (t.is_lasso()) {
      ASSERT_LT(t.loop_start, static_cast<int>(t.states.size()));
      ASSERT_TRUE(nv.HasEdge(t.states.back(), t.states[t.loop_start]));
    }
    if (nv.fair_mode()) {
      // Every path shown under fairness is a fair lasso.
      ASSERT_TRUE(t.is_lasso());
      for (const Set& fi : nv.fairness) {
        bool visits = false;
        for (size_t i = t.loop_start; i < t.states.size(); ++i) visits = visits || fi[t.states[i]];
        ASSERT_TRUE(visits) << "cycle misses a fairness set";
      }
    } else if (op != Op::kEG && op != Op::kAF && op != Op::kAU) {
      ASSERT_FALSE(t.is_lasso());
    }
    const int end = t.claim_end;
    const Set& a = sat[node.lhs];
    auto in = [&](const Set& s, int i) { return static_cast<bool>(s[t.states[i]]); };
    switch (op) {
      case Op::kEX: ASSERT_EQ(end, 1); ASSERT_TRUE(in(a, 1)); break;
      case Op::kAX: ASSERT_EQ(end, 1); ASSERT_FALSE(in(a, 1)); break;
      case Op::kEF: ASSERT_TRUE(in(a, end)); break;
      case Op::kAG: ASSERT_FALSE(in(a, end)); break;
      case Op::kEU:
        for (int i = 0; i < end; ++i) ASSERT_TRUE(in(a, i));
        ASSERT_TRUE(in(sat[node.rhs], end));
        break;
      case Op::kAU: {
        for (int i = 0; i <= end; ++i) ASSERT_FALSE(in(sat[node.rhs], i));
        const bool finite_claim = !in(a, end);
        const bool lasso_claim = t.is_lasso() && end == static_cast<int>(t.states.size()) - 1;
        ASSERT_TRUE(finite_claim || lasso_claim);
        break;
      }
      case Op::kEG:
      case Op::kAF:
        ASSERT_TRUE(t.is_lasso());
        ASSERT_EQ(end, static_cast<int>(t.states.size()) - 1);
        for (size_t i = 0; i < t.states.size(); ++i) ASSERT_EQ(in(a, i), op == Op::kEG);
        break;
      default: FAIL() << "trace on a non-temporal node";
    }
  }
  for (const Explanation& c : e.children) VerifyExplanation(nv, f, sat, c, context);
}

class RandomCrossCheck : public ::testing::TestWithParam<int> {};

TEST_P(RandomCrossCheck, AgreesWithNaiveFixpointsAndEvidenceIsReal) {
  const int fairness_count = GetParam();
  std::mt19937 rng(12345 + fairness_count);
  int formulas_checked = 0, traces = 0;
  for (int round = 0; round < 1500; ++round) {
    RandomCase c = MakeCase(rng);
    std::vector<Formula> fairness;
    std::vector<std::string> fairness_text;
    for (int i = 0; i < fairness_count; ++i) {
      fairness_text.push_back(RandomFormula(rng, 1, c.naive.n));
      auto f = ParseFormula(fairness_text.back());
      ASSERT_TRUE(f.ok()) << f.status();
      Naive plain = c.naive;
      plain.fairness.clear();
      c.naive.fairness.push_back(plain.Label(*f).back());
      fairness.push_back(std::move(*f));
    }
    auto checker = Checker::Create(c.model, fairness);
    ASSERT_TRUE(checker.ok()) << checker.status();
    for (int k = 0; k < 3; ++k) {
      const std::string text = RandomFormula(rng, 3, c.naive.n);
      const std::string context = absl::StrCat("round ", round, ": ", text, " fairness ", fairness.size());
      auto formula = ParseFormula(text);
      ASSERT_TRUE(formula.ok()) << formula.status();
      auto sat = (*checker)->Label(*formula);
      ASSERT_TRUE(sat.ok()) << sat.status();
      const std::vector<Set> expected = c.naive.Label(*formula);
      for (size_t node = 0; node < formula->nodes.size(); ++node)
        for (int s = 0; s < c.naive.n; ++s)
          ASSERT_EQ((*sat)[node].Contains(s), static_cast<bool>(expected[node][s]))
              << context << " node " << formula->ToString(node) << " state s" << s;
      Explainer explainer(**checker, *formula, *sat);
      for (int s = 0; s < c.naive.n; ++s) {
        auto e = explainer.Explain(formula->root(), s);
        ASSERT_TRUE(e.ok()) << context << ": " << e.status();
        VerifyExplanation(c.naive, *formula, expected, *e, context);
        if (!e->trace.empty()) ++traces;
        if (HasFatalFailure()) return;
      }
      ++formulas_checked;
    }
  }
  EXPECT_EQ(formulas_checked, 4500);
  EXPECT_GT(traces, 1000);
}

INSTANTIATE_TEST_SUITE_P(Fairness, RandomCrossCheck, ::testing::Values(0, 1, 2));

TEST(Checker, FairnessFormulasMustUseKnownPropositions) {
  KripkeBuilder b("m");
  ASSERT_TRUE(b.AddState("a").ok());
  b.AddTransition(0, 0);
  b.AddInitial(0);
  auto model = std::move(b).Build(DeadlockPolicy::kError);
  ASSERT_TRUE(model.ok());
  auto fair = ParseFormula("nope");
  ASSERT_TRUE(fair.ok());
  auto checker = Checker::Create(*model, {*fair});
  ASSERT_FALSE(checker.ok());
  EXPECT_NE(checker.status().message().find("column 1: unknown proposition 'nope'"), std::string::npos)
      << checker.status();
}

TEST(Checker, DeepChainsNeedNoRecursion) {
  // A path of 200000 states closed into one cycle: Tarjan's DFS goes 200000
  // deep, which would overflow a recursive implementation's stack.
  const uint32_t n = 200000;
  KripkeBuilder b("chain");
  b.AddAnonymousStates(n);
  for (uint32_t s = 0; s < n; ++s) b.AddTransition(s, (s + 1) % n);
  b.AddInitial(0);
  auto model = std::move(b).Build(DeadlockPolicy::kError);
  ASSERT_TRUE(model.ok());
  auto checker = Checker::Create(*model, {});
  ASSERT_TRUE(checker.ok());
  StateSet all(n, true), one(n);
  one.Insert(n - 1);
  EXPECT_EQ((*checker)->Eg(all).Count(), n);
  StateSet not_last = one;
  not_last.Complement();
  EXPECT_TRUE((*checker)->Eg(not_last).Empty());
  EXPECT_EQ((*checker)->Af(one).Count(), n);
}

}  // namespace
}  // namespace tracespec::ctl

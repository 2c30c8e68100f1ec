// Candidate testing and the postcondition templates; see candidates.h.
// Every template proposes JML text; the text is parsed, type-checked and
// evaluated on each observation of the group with exact Java semantics
// (validator/jml/observation_eval.h), so a template may guess freely: only
// what every observation agrees with survives. Constants are derived from
// the observed values (exact solving for linear relations, shortest
// decimals for floating-point constants) before the text is built.
#include "agent/synth/candidates.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "agent/synth/guards.h"
#include "validator/jml/printer.h"

namespace tracespec::synth {

using jml::EvalState;
using jml::EvalValue;
using jml::Truth;
using jml::Type;
using Position = jml::TypeChecker::Position;

// ---- The pool ----

CandidatePool::CandidatePool(SynthContext* ctx, const Vocabulary* vocab, std::vector<size_t> group,
                             Position position, const std::set<std::string>* banned,
                             int max_candidates)
    : ctx_(ctx),
      vocab_(vocab),
      group_(std::move(group)),
      position_(position),
      banned_(banned),
      max_candidates_(max_candidates) {
  for (size_t i : group_) {
    has_counterexamples_ |= ctx_->observations()[i].source() == v1::COUNTEREXAMPLE;
  }
}

bool CandidatePool::Offer(const Candidate& c) {
  if (full()) return false;
  const jml::Expr* e = ctx_->Compile(c.text, position_);
  if (e == nullptr) return false;
  std::string canonical = jml::PrintExpr(*e);
  auto seen = seen_.find(canonical);
  if (seen != seen_.end()) return seen->second;
  ++offered_;
  if (banned_ != nullptr && banned_->count(canonical)) {
    banned_hits_.push_back(canonical);
    seen_[canonical] = false;
    Weaken(c, *e, canonical);
    return false;
  }
  const jml::Expr* antecedent = nullptr;
  if (e->kind == jml::ExprKind::kBinary && e->binary_op == jml::BinaryOp::kImplies)
    antecedent = e->operands[0].get();
  Verdict v;
  std::set<std::string> keys;
  for (size_t i : group_) {
    Truth t = ctx_->Truth(*e, i, EvalState::kPost);
    if (t == Truth::kFalse) {
      v.falsified = true;
      break;
    }
    if (t == Truth::kUnknown) {
      ++v.unknown;
      continue;
    }
    if (antecedent != nullptr && ctx_->Truth(*antecedent, i, EvalState::kPost) != Truth::kTrue)
      continue;
    std::string key;
    if (c.inputs.empty()) {
      key = vocab_->input_keys[i];
    } else {
      for (int t_index : c.inputs) absl::StrAppend(&key, vocab_->term_keys[t_index][i], ";");
    }
    keys.insert(std::move(key));
  }
  v.support = static_cast<int>(keys.size());
  v.accepted = !v.falsified && v.support >= c.min_support;
  seen_[canonical] = v.accepted;
  Candidate stored = c;
  stored.text = canonical;
  if (v.accepted) {
    accepted_.push_back(
        AcceptedCandidate{std::move(stored), v, static_cast<int>(accepted_.size())});
  } else if (!v.falsified && v.support > 0) {
    unsupported_.emplace_back(std::move(stored), v);
  }
  if (v.falsified) Weaken(c, *e, canonical);
  return v.accepted;
}

void CandidatePool::Weaken(const Candidate& c, const jml::Expr& e, const std::string& canonical) {
  if (!c.weakened_from.empty() || position_ != Position::kPostcondition) return;
  // The guard must keep every recorded call where P held and exclude the
  // calls that refute P: counterexamples, and recorded calls only when they
  // sit on an edge of the input domain (celsius = NaN refutes
  // `\result == celsius + 273.15`) and P defines its target; counterexamples
  // P holds on do not matter.
  std::vector<size_t> positives, negatives;
  bool recorded_negative = false;
  for (size_t i : group_) {
    bool counterexample = ctx_->observations()[i].source() == v1::COUNTEREXAMPLE;
    Truth t = ctx_->Truth(e, i, EvalState::kPost);
    if (t != Truth::kFalse) {
      if (!counterexample) positives.push_back(i);
    } else {
      negatives.push_back(i);
      recorded_negative |= !counterexample;
    }
  }
  if (negatives.empty() || positives.empty()) return;
  if (recorded_negative && !c.defining) return;
  static const std::set<std::string> kNone;
  std::optional<Guard> guard =
      FindWeakeningGuard(ctx_, *vocab_, canonical, positives, negatives, banned_ ? *banned_ : kNone,
                         /*edges_only=*/recorded_negative);
  if (!guard || guard->post.empty()) return;
  std::string text = absl::StrCat("(", guard->post, ") ==> (", canonical, ")");
  if (guard->threshold) {
    // Read off single values: a hypothesis, never a clause.
    const jml::Expr* g = ctx_->Compile(text, position_);
    threshold_weakenings_.push_back(g == nullptr ? text : jml::PrintExpr(*g));
    return;
  }
  Candidate weakened = c;
  weakened.text = text;
  weakened.weakened_from = canonical;
  weakened.weakened_by_recorded = recorded_negative;
  weakened.guard = guard->post;
  weakened.defining = false;
  Offer(weakened);
}

std::string ClauseText(const std::string& predicate, const std::string& exception) {
  if (exception.empty()) return absl::StrCat("ensures ", predicate, ";");
  return absl::StrCat("signals (", exception, " e) ", predicate, ";");
}

// ---- Templates ----

namespace {

// Family ranks (output order and preference between defining clauses).
enum Rank {
  kRankConstant = 10,
  kRankEquality = 20,
  kRankOutputEquality = 21,
  kRankNegation = 25,
  kRankLinearSimple = 30,
  kRankLinear = 35,
  kRankProduct = 36,
  kRankDivMod = 40,
  kRankFloating = 45,
  kRankConditional = 50,
  kRankMinMax = 51,
  kRankPiecewise = 52,
  kRankAggregate = 55,
  kRankBitwise = 58,
  kRankIndex = 56,
  kRankIndexFirst = 57,
  kRankBoolean = 60,
  kRankBooleanPair = 62,
  kRankMembership = 65,
  kRankArrayBound = 70,
  kRankCompare = 75,
  kRankCompareZero = 76,
  kRankImplication = 80,
  kRankArrayOut = 85,
  kRankElementwise = 86,
  kRankPermutation = 87,
  kRankReference = 90,
};

std::string Int128Text(__int128 v) {
  if (v >= INT64_MIN && v <= INT64_MAX) return absl::StrCat(static_cast<int64_t>(v));
  return "0";
}

// An integer literal of y's arithmetic type (long gets the L suffix).
std::string IntLit(__int128 v, bool is_long) {
  if (!is_long && v == INT32_MIN) return "Integer.MIN_VALUE";
  if (is_long && v == INT64_MIN) return "Long.MIN_VALUE";
  return absl::StrCat(Int128Text(v), is_long ? "L" : "");
}

__int128 WrapTo(__int128 v, bool is_long) {
  unsigned __int128 u = static_cast<unsigned __int128>(v);
  if (is_long) return static_cast<int64_t>(static_cast<uint64_t>(u));
  return static_cast<int32_t>(static_cast<uint32_t>(u));
}

std::string Paren(const std::string& s) { return absl::StrCat("(", s, ")"); }

// a*x terms joined: "31 * \old(checksum) + amount - 7".
std::string LinearText(const std::vector<std::pair<__int128, std::string>>& terms, __int128 c,
                       bool is_long) {
  std::string out;
  for (const auto& [a, x] : terms) {
    if (a == 0) continue;
    __int128 mag = a < 0 ? -a : a;
    std::string part = mag == 1 ? x : absl::StrCat(IntLit(mag, is_long), " * ", x);
    if (out.empty()) {
      out = a < 0 ? absl::StrCat("-", mag == 1 ? x : part) : part;
      if (a < 0 && mag == 1) out = absl::StrCat("-", x);
    } else {
      absl::StrAppend(&out, a < 0 ? " - " : " + ", part);
    }
  }
  if (c != 0 || out.empty()) {
    if (out.empty()) {
      out = IntLit(c, is_long);
    } else {
      absl::StrAppend(&out, c < 0 ? " - " : " + ", IntLit(c < 0 ? -c : c, is_long));
    }
  }
  return out;
}

// The shortest decimal (1..17 significant digits) whose double satisfies
// `works`, as a JML literal; nullopt when none does.
template <typename F>
std::optional<std::string> NiceConstant(F v, const std::function<bool(F)>& works) {
  if (!std::isfinite(v)) return std::nullopt;
  for (int digits = 1; digits <= 17; ++digits) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.*g", digits, static_cast<double>(v));
    F parsed = std::is_same_v<F, float> ? static_cast<F>(std::strtof(buf, nullptr))
                                        : static_cast<F>(std::strtod(buf, nullptr));
    if (!works(parsed)) continue;
    std::string text = buf;
    if (text.find_first_of(".e") == std::string::npos) text += ".0";
    if (std::is_same_v<F, float>) text += "f";
    return text;
  }
  return std::nullopt;
}

class Templates {
 public:
  Templates(CandidatePool* pool, bool allow_result)
      : pool_(pool),
        ctx_(pool->context()),
        v_(pool->vocabulary()),
        group_(pool->group()),
        allow_result_(allow_result) {
    std::map<std::string, int> by_text;
    for (size_t t = 0; t < v_.terms.size(); ++t) by_text[v_.terms[t].text] = static_cast<int>(t);
    for (size_t t = 0; t < v_.terms.size(); ++t) {
      const Term& term = v_.terms[t];
      if (term.input) {
        inputs_.push_back(static_cast<int>(t));
        continue;
      }
      bool is_result = term.text.rfind("\\result", 0) == 0;
      if (is_result && !allow_result_) continue;
      bool changes = is_result;
      auto old = by_text.find(absl::StrCat("\\old(", term.text, ")"));
      if (old == by_text.end()) {
        changes = true;
      } else {
        for (size_t i : group_) {
          const EvalValue& a = term.values[i];
          const EvalValue& b = v_.terms[old->second].values[i];
          if (a.known() && b.known() && !a.Identical(b)) changes = true;
        }
      }
      if (changes) outputs_.push_back(static_cast<int>(t));
    }
  }

  void Run() {
    for (int y : outputs_) {
      const Term& out = v_.terms[y];
      if (out.shape == TermShape::kScalar) {
        Constant(y);
        Equalities(y);
        if (IsIntegralType(out.type)) {
          Linear(y);
          Products(y);
          Quadratic(y);
          Bitwise(y);
          DivMod(y);
        }
        if (IsFloatingType(out.type)) {
          Floating(y);
          NaNPropagation(y);
        }
        if (IsIntegralType(out.type)) {
          const bool is_long = out.type.Is(Type::Kind::kLong);
          Steps(y, [&, y, is_long](size_t i) -> std::string {
            __int128 v;
            if (!AsInt(Val(y, i), &v)) return "";
            return absl::StrCat(out.text, " == ", IntLit(v, is_long));
          });
        }
        if (IsNumericType(out.type)) {
          Conditional(y);
          MinMaxAbs(y);
          MinMaxDifference(y);
          Piecewise(y);
          ArrayFacts(y);
          Membership(y);
          Comparisons(y);
          Conditional(y, /*nested=*/true);
        }
        if (out.type.IsBoolean()) {
          Booleans(y);
          Divisibility(y);
        }
      } else if (out.shape == TermShape::kString) {
        StringFacts(y);
      } else {
        ReferenceFacts(y);
        if (out.text == "\\result") EnumSteps(y);
      }
      if (pool_->full()) return;
    }
    ArrayOutputs();
  }

 private:
  // ---- helpers ----

  const EvalValue& Val(int term, size_t obs) const { return v_.terms[term].values[obs]; }

  // Group observations where every listed term is known.
  std::vector<size_t> Known(std::initializer_list<int> terms) const {
    std::vector<size_t> out;
    for (size_t i : group_) {
      bool ok = true;
      for (int t : terms) ok &= Val(t, i).known();
      if (ok) out.push_back(i);
    }
    return out;
  }

  // Whether a defining clause of y was accepted already: families that
  // fit many shapes to few points run only when nothing simpler did.
  bool Defined(int y) const {
    for (const AcceptedCandidate& a : pool_->accepted()) {
      if (a.candidate.defining && a.candidate.target == v_.terms[y].text) return true;
    }
    return false;
  }

  std::string Guarded(int y, const std::string& core) const {
    const std::string& g = v_.terms[y].guard;
    return g.empty() ? core : absl::StrCat(g, " ==> ", core);
  }

  bool Offer(int y, const std::string& core, const char* family, int rank, bool defining,
             std::vector<int> inputs, int min_support = 2, const std::string& target = "") {
    Candidate c;
    c.text = Guarded(y, core);
    c.family = family;
    c.rank = rank;
    c.target = target.empty() ? v_.terms[y].text : target;
    c.defining = defining;
    c.min_support = min_support;
    c.inputs = std::move(inputs);
    return pool_->Offer(c);
  }

  bool Compatible(const Term& a, const Term& b) const {
    if (a.type.IsBoolean() || b.type.IsBoolean()) return a.type.IsBoolean() && b.type.IsBoolean();
    return IsNumericType(a.type) && IsNumericType(b.type);
  }

  static bool AsInt(const EvalValue& v, __int128* out) { return v.AsInteger(out); }

  // Term x as the first operand of arithmetic whose value is y's: with a
  // long y and a narrower x, `(long) x`, so that Java computes in long
  // (`(long) n * n * n`, not the int product that wraps).
  std::string Wide(int y, int x) const {
    const Term& t = v_.terms[x];
    if (!v_.terms[y].type.Is(Type::Kind::kLong) || t.type.Is(Type::Kind::kLong) ||
        !(IsIntegralType(t.type) || t.type.Is(Type::Kind::kChar)))
      return t.text;
    return absl::StrCat("(long) ", t.text);
  }

  // ---- scalar families ----

  void Constant(int y) {
    const EvalValue* first = nullptr;
    for (size_t i : group_) {
      const EvalValue& v = Val(y, i);
      if (!v.known()) continue;
      if (first == nullptr) {
        first = &v;
      } else if (!first->Identical(v)) {
        return;
      }
    }
    if (first == nullptr) return;
    const std::string& y_text = v_.terms[y].text;
    if (first->kind == EvalValue::Kind::kBoolean) {
      Offer(y, first->i != 0 ? y_text : absl::StrCat("!", y_text), "constant", kRankConstant,
            true, {});
      return;
    }
    std::string lit = first->ToJml();
    if (lit.empty()) return;
    if ((first->kind == EvalValue::Kind::kDouble && std::isnan(first->d)) ||
        (first->kind == EvalValue::Kind::kFloat && std::isnan(first->f))) {
      Offer(y, absl::StrCat(y_text, " != ", y_text), "constant", kRankConstant, true, {});
      return;
    }
    Offer(y, absl::StrCat(y_text, " == ", lit), "constant", kRankConstant, true, {});
  }

  void Equalities(int y) {
    const Term& out = v_.terms[y];
    // With inputs, then with other outputs (\result == balance).
    for (int pass = 0; pass < 2; ++pass) {
      const std::vector<int>& others = pass == 0 ? inputs_ : outputs_;
      for (int x : others) {
        if (x == y) continue;
        const Term& in = v_.terms[x];
        if (in.shape != TermShape::kScalar || !Compatible(out, in)) continue;
        if (pass == 1 && x > y) continue;  // each pair once, the later one defined
        bool eq = true, neg = IsNumericType(out.type) && !out.type.Is(Type::Kind::kChar);
        int count = 0;
        for (size_t i : Known({y, x})) {
          ++count;
          const EvalValue& a = Val(y, i);
          const EvalValue& b = Val(x, i);
          if (a.kind == EvalValue::Kind::kBoolean || b.kind == EvalValue::Kind::kBoolean) {
            eq &= a.kind == b.kind && a.i == b.i;
            neg = false;
          } else {
            eq &= CompareValues(a, b) == 0;
            neg &= CompareValues(a, Negated(b)) == 0;
          }
          if (!eq && !neg) break;
        }
        if (count == 0) continue;
        std::vector<int> uses = {x};
        if (pass == 1) uses.clear();
        if (eq) {
          Offer(y, absl::StrCat(out.text, " == ", in.text), "equality",
                pass == 0 ? kRankEquality : kRankOutputEquality, true, uses);
        } else if (neg) {
          Offer(y, absl::StrCat(out.text, " == -", in.text), "negation", kRankNegation, true, uses);
        }
      }
    }
  }

  std::vector<int> IntegralInputs(int y) const {
    std::vector<int> out;
    for (int x : inputs_) {
      const Term& t = v_.terms[x];
      if (t.shape == TermShape::kScalar && IsIntegralType(t.type) && x != y) out.push_back(x);
    }
    return out;
  }

  // y == a*x + b*z + c with integer coefficients, solved exactly on a few
  // observations and confirmed on all (with y's wrap-around).
  void Linear(int y) {
    const Term& out = v_.terms[y];
    bool is_long = out.type.Is(Type::Kind::kLong);
    std::vector<int> xs = IntegralInputs(y);
    auto fits = [&](const std::vector<std::pair<int, __int128>>& coef, __int128 c,
                    const std::vector<size_t>& obs) {
      for (size_t i : obs) {
        __int128 sum = c, yi;
        AsInt(Val(y, i), &yi);
        for (const auto& [t, a] : coef) {
          __int128 xi;
          AsInt(Val(t, i), &xi);
          sum += a * xi;
        }
        if (WrapTo(sum, is_long) != yi) return false;
      }
      return true;
    };
    auto offer = [&](const std::vector<std::pair<int, __int128>>& coef, __int128 c, int rank,
                     int min_support) {
      std::vector<std::pair<__int128, std::string>> terms;
      std::vector<int> uses;
      for (const auto& [t, a] : coef) {
        terms.emplace_back(a, v_.terms[t].text);
        uses.push_back(t);
      }
      // Previous values read first: f == \old(f) + x, \result == \old(f) + x.
      std::stable_partition(terms.begin(), terms.end(), [&](const auto& term) {
        return term.second == absl::StrCat("\\old(", out.text, ")");
      });
      std::stable_partition(terms.begin(), terms.end(), [&](const auto& term) {
        return term.second.rfind("\\old(", 0) == 0;
      });
      if (terms.size() == 2 && terms[0].first < 0 && terms[1].first > 0) {
        std::swap(terms[0], terms[1]);
      }
      // A long y from narrower terms: the first one widened (a coefficient
      // other than 1 is a long literal already).
      if (!terms.empty() && (terms[0].first == 1 || terms[0].first == -1)) {
        for (const auto& [t, a] : coef) {
          if (v_.terms[t].text == terms[0].second) {
            terms[0].second = Wide(y, t);
            break;
          }
        }
      }
      Offer(y, absl::StrCat(out.text, " == ", LinearText(terms, c, is_long)),
            rank == kRankLinearSimple ? "linear" : "linear-solved", rank, true, uses, min_support);
    };
    // Distinct points per term set.
    auto points = [&](std::initializer_list<int> ts) {
      std::vector<size_t> obs = Known(ts);
      std::vector<size_t> distinct;
      std::set<std::vector<__int128>> seen;
      constexpr __int128 kSolvable = static_cast<__int128>(1) << 40;  // products stay in 128 bits
      for (size_t i : obs) {
        std::vector<__int128> key;
        bool small = true;
        for (int t : ts) {
          __int128 v;
          AsInt(Val(t, i), &v);
          key.push_back(v);
          small &= v < kSolvable && v > -kSolvable;
        }
        if (small && seen.insert(key).second) distinct.push_back(i);
      }
      return std::make_pair(obs, distinct);
    };
    bool found_one = false;
    // One input: y == x + c (simple), y == a*x + c (solved).
    for (int x : xs) {
      auto [obs, distinct] = points({y, x});
      if (obs.empty()) continue;
      __int128 y0, x0;
      AsInt(Val(y, obs[0]), &y0);
      AsInt(Val(x, obs[0]), &x0);
      __int128 c = y0 - x0;
      if (c != 0 && fits({{x, 1}}, c, obs)) {
        offer({{x, 1}}, c, kRankLinearSimple, 2);
        found_one = true;
        continue;
      }
      // Two points with different x.
      std::vector<size_t> d2;
      {
        std::set<__int128> xvals;
        for (size_t i : obs) {
          __int128 xi;
          AsInt(Val(x, i), &xi);
          if (xvals.insert(xi).second) d2.push_back(i);
        }
      }
      if (d2.size() < 3) continue;
      __int128 y1, x1;
      AsInt(Val(y, d2[1]), &y1);
      AsInt(Val(x, d2[1]), &x1);
      AsInt(Val(y, d2[0]), &y0);
      AsInt(Val(x, d2[0]), &x0);
      if (x1 == x0 || (y1 - y0) % (x1 - x0) != 0) continue;
      __int128 a = (y1 - y0) / (x1 - x0);
      if (a == 0 || a == 1 || a > 1024 || a < -1024) continue;
      __int128 c2 = y0 - a * x0;
      if (fits({{x, a}}, c2, obs)) {
        offer({{x, a}}, c2, kRankLinear, 3);
        found_one = true;
      }
    }
    if (found_one) return;
    // Two inputs: y == x ± z (simple), y == a*x + b*z [+ c] (solved).
    for (size_t p = 0; p < xs.size(); ++p) {
      for (size_t q = p + 1; q < xs.size(); ++q) {
        if (pool_->full()) return;
        int x = xs[p], z = xs[q];
        auto [obs, distinct] = points({x, z});
        if (distinct.size() < 2) continue;
        bool done = false;
        for (int sa : {1, -1}) {
          for (int sb : {1, -1}) {
            if (done || (sa == -1 && sb == -1)) continue;
            __int128 y0, x0, z0;
            AsInt(Val(y, obs[0]), &y0);
            AsInt(Val(x, obs[0]), &x0);
            AsInt(Val(z, obs[0]), &z0);
            __int128 c = y0 - sa * x0 - sb * z0;
            if (c >= -1 && c <= 1 && fits({{x, sa}, {z, sb}}, c, obs)) {
              offer(sa == -1 ? std::vector<std::pair<int, __int128>>{{z, sb}, {x, sa}}
                             : std::vector<std::pair<int, __int128>>{{x, sa}, {z, sb}},
                    c, kRankLinearSimple, 2);
              done = true;
            }
          }
        }
        if (done) continue;
        // Solve a*x + b*z (+ c) from distinct points; try a few choices.
        for (int with_c = 0; with_c < 2 && !done; ++with_c) {
          size_t need = with_c ? 3 : 2;
          if (distinct.size() < need + 1) continue;
          for (size_t s = 0; s + need <= distinct.size() && s < 4 && !done; ++s) {
            __int128 m[3][4];
            bool small = true;
            for (size_t r = 0; r < need; ++r) {
              size_t i = distinct[s + r];
              __int128 yv;
              AsInt(Val(y, i), &yv);
              small &= yv < (static_cast<__int128>(1) << 40) && yv > -(static_cast<__int128>(1) << 40);
              AsInt(Val(x, i), &m[r][0]);
              AsInt(Val(z, i), &m[r][1]);
              m[r][2] = 1;
              AsInt(Val(y, i), &m[r][3]);
            }
            if (!small) continue;
            __int128 a, b, c = 0;
            if (!with_c) {
              __int128 det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
              if (det == 0) continue;
              __int128 na = m[0][3] * m[1][1] - m[0][1] * m[1][3];
              __int128 nb = m[0][0] * m[1][3] - m[0][3] * m[1][0];
              if (na % det != 0 || nb % det != 0) continue;
              a = na / det;
              b = nb / det;
            } else {
              auto det3 = [](__int128 A[3][3]) {
                return A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
                       A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                       A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
              };
              __int128 A[3][3], D;
              for (int r = 0; r < 3; ++r)
                for (int k = 0; k < 3; ++k) A[r][k] = m[r][k];
              D = det3(A);
              if (D == 0) continue;
              __int128 sol[3];
              bool integral = true;
              for (int col = 0; col < 3; ++col) {
                __int128 B[3][3];
                for (int r = 0; r < 3; ++r)
                  for (int k = 0; k < 3; ++k) B[r][k] = k == col ? m[r][3] : m[r][k];
                __int128 n = det3(B);
                if (n % D != 0) {
                  integral = false;
                  break;
                }
                sol[col] = n / D;
              }
              if (!integral) continue;
              a = sol[0];
              b = sol[1];
              c = sol[2];
            }
            if (a == 0 || b == 0 || a > 1024 || a < -1024 || b > 1024 || b < -1024) continue;
            if (fits({{x, a}, {z, b}}, c, obs)) {
              offer({{x, a}, {z, b}}, c, kRankLinear, static_cast<int>(need) + 1);
              done = true;
            }
          }
        }
      }
    }
  }

  // Whether y == f(x, z), wrapped to y's type, on every observation of
  // `obs` (f may refuse an argument).
  bool Fits2(int y, int x, int z, const std::vector<size_t>& obs, bool is_long,
             const std::function<std::optional<__int128>(__int128, __int128)>& f) const {
    for (size_t i : obs) {
      __int128 a, b, r;
      AsInt(Val(x, i), &a);
      AsInt(Val(z, i), &b);
      AsInt(Val(y, i), &r);
      std::optional<__int128> got = f(a, b);
      if (!got || WrapTo(*got, is_long) != r) return false;
    }
    return true;
  }

  // y == x * z, y == x * x.
  void Products(int y) {
    const Term& out = v_.terms[y];
    bool is_long = out.type.Is(Type::Kind::kLong);
    std::vector<int> xs = IntegralInputs(y);
    for (size_t p = 0; p < xs.size(); ++p) {
      for (size_t q = p; q < xs.size(); ++q) {
        int x = xs[p], z = xs[q];
        std::vector<size_t> obs = Known({y, x, z});
        if (obs.size() < 2) continue;
        if (Fits2(y, x, z, obs, is_long, [](__int128 a, __int128 b) { return a * b; })) {
          Offer(y, absl::StrCat(out.text, " == ", Wide(y, x), " * ", v_.terms[z].text),
                "product", kRankProduct, true, {x, z}, 3);
          continue;
        }
        if (p != q) ScaledProduct(y, x, z, obs);
      }
    }
  }

  // y == (a*x*x + b*x + c) / d for one integral input x: a quadratic with
  // rational coefficients (d <= kQuadraticDivisor), solved exactly through
  // three observed points with distinct x and confirmed on every other —
  // at least four distinct x in all, so that a fit is evidence, not an
  // interpolation (1 + 2 + ... + n is `((long) n * n + n) / 2`). Linear
  // fits and the bare square are Linear's and Products'.
  void Quadratic(int y) {
    static constexpr __int128 kQuadraticDivisor = 12;
    static constexpr __int128 kQuadraticCoefficient = 1024;
    static constexpr __int128 kPointLimit = static_cast<__int128>(1) << 16;
    static constexpr __int128 kValueLimit = static_cast<__int128>(1) << 40;
    const Term& out = v_.terms[y];
    bool is_long = out.type.Is(Type::Kind::kLong);
    for (int x : IntegralInputs(y)) {
      if (pool_->full()) return;
      std::vector<size_t> obs = Known({y, x});
      std::vector<std::pair<__int128, __int128>> points;  // (x, y), distinct x
      std::set<__int128> seen;
      bool small = true;
      for (size_t i : obs) {
        __int128 xi, yi;
        AsInt(Val(x, i), &xi);
        AsInt(Val(y, i), &yi);
        small &= xi < kPointLimit && xi > -kPointLimit && yi < kValueLimit && yi > -kValueLimit;
        if (seen.insert(xi).second) points.emplace_back(xi, yi);
      }
      if (!small || points.size() < 4) continue;
      // Lagrange through the first three points, over the common
      // denominator (x0-x1)(x0-x2)(x1-x2).
      const auto& [x0, y0] = points[0];
      const auto& [x1, y1] = points[1];
      const auto& [x2, y2] = points[2];
      __int128 d = (x0 - x1) * (x0 - x2) * (x1 - x2);
      __int128 a = 0, b = 0, c = 0;
      for (int k = 0; k < 3; ++k) {
        __int128 xk = points[k].first, yk = points[k].second;
        __int128 xj = points[(k + 1) % 3].first, xl = points[(k + 2) % 3].first;
        __int128 scale = d / ((xk - xj) * (xk - xl));  // exact: the other factor of d
        a += yk * scale;
        b -= yk * scale * (xj + xl);
        c += yk * scale * xj * xl;
      }
      if (d < 0) {
        a = -a;
        b = -b;
        c = -c;
        d = -d;
      }
      auto gcd = [](__int128 p, __int128 q) {
        if (p < 0) p = -p;
        if (q < 0) q = -q;
        while (q != 0) {
          __int128 r = p % q;
          p = q;
          q = r;
        }
        return p;
      };
      __int128 g = gcd(gcd(a, b), gcd(c, d));
      if (g > 1) {
        a /= g;
        b /= g;
        c /= g;
        d /= g;
      }
      auto within = [](__int128 v) { return v <= kQuadraticCoefficient && v >= -kQuadraticCoefficient; };
      if (a == 0 || d > kQuadraticDivisor || !within(a) || !within(b) || !within(c)) continue;
      if ((a == 1 || a == -1) && b == 0 && c == 0 && d == 1) continue;  // Products' square
      bool fits = true;
      for (size_t i : obs) {
        __int128 xi, yi;
        AsInt(Val(x, i), &xi);
        AsInt(Val(y, i), &yi);
        __int128 num = WrapTo(a * xi * xi + b * xi + c, is_long);
        fits &= WrapTo(num / d, is_long) == yi;
      }
      if (!fits) continue;
      const std::string& xt = v_.terms[x].text;
      std::string square = absl::StrCat(a == 1 || a == -1 ? Wide(y, x) : xt, " * ", xt);
      std::string poly = LinearText({{a, square}, {b, xt}}, c, is_long);
      std::string rhs = d == 1 ? poly : absl::StrCat("(", poly, ") / ", IntLit(d, false));
      Offer(y, absl::StrCat(out.text, " == ", rhs), "polynomial", kRankProduct, true, {x}, 4);
    }
  }

  // y == x * z / k for a divisor k (percentages, per mille, rates): the
  // product in long when the int one would wrap on some call, and the
  // quotient cast back to an int y: `(int) ((long) amount * pct / 100)`.
  void ScaledProduct(int y, int x, int z, const std::vector<size_t>& obs) {
    const Term& out = v_.terms[y];
    bool is_long = out.type.Is(Type::Kind::kLong);
    static const int kScales[] = {2, 3, 4, 5, 8, 10, 12, 16, 100, 1000};
    for (int k : kScales) {
      if (!Fits2(y, x, z, obs, is_long, [k](__int128 a, __int128 b) { return a * b / k; }))
        continue;
      // Whether Java's product in the operands' type already gives it.
      bool narrow_ok = Fits2(y, x, z, obs, is_long, [&](__int128 a, __int128 b) {
        bool operands_long = v_.terms[x].type.Is(Type::Kind::kLong) ||
                             v_.terms[z].type.Is(Type::Kind::kLong);
        return WrapTo(a * b, operands_long) / k;
      });
      const std::string& xt = v_.terms[x].text;
      const std::string& zt = v_.terms[z].text;
      std::string rhs;
      if (narrow_ok) {
        rhs = absl::StrCat(xt, " * ", zt, " / ", k);
      } else if (is_long) {
        rhs = absl::StrCat("(long) ", xt, " * ", zt, " / ", k);
      } else {
        rhs = absl::StrCat("(int) ((long) ", xt, " * ", zt, " / ", k, ")");
      }
      Offer(y, absl::StrCat(out.text, " == ", rhs), "product", kRankProduct, true, {x, z}, 3);
      return;
    }
  }

  // y == (x ^ z), (x & z), (x | z) for two distinct inputs; y == x * x * x.
  void Bitwise(int y) {
    const Term& out = v_.terms[y];
    bool is_long = out.type.Is(Type::Kind::kLong);
    std::vector<int> xs;
    for (int x : IntegralInputs(y)) {
      // Lengths in bit operations are coincidences, not contracts.
      if (!absl::StrContains(v_.terms[x].text, "length")) xs.push_back(x);
    }
    struct Op {
      const char* text;
      __int128 (*f)(__int128, __int128);
    };
    static const Op kOps[] = {
        {"^", [](__int128 a, __int128 b) { return a ^ b; }},
        {"&", [](__int128 a, __int128 b) { return a & b; }},
        {"|", [](__int128 a, __int128 b) { return a | b; }},
    };
    for (size_t p = 0; p < xs.size(); ++p) {
      int x = xs[p];
      std::vector<size_t> cube_obs = Known({y, x});
      if (cube_obs.size() >= 2 &&
          Fits2(y, x, x, cube_obs, is_long, [](__int128 a, __int128) { return a * a * a; })) {
        const std::string& xt = v_.terms[x].text;
        Offer(y, absl::StrCat(out.text, " == ", Wide(y, x), " * ", xt, " * ", xt), "product",
              kRankProduct, true, {x}, 3);
      }
      for (size_t q = p + 1; q < xs.size(); ++q) {
        int z = xs[q];
        std::vector<size_t> obs = Known({y, x, z});
        if (obs.size() < 3) continue;
        for (const Op& op : kOps) {
          if (!Fits2(y, x, z, obs, is_long,
                     [&op](__int128 a, __int128 b) -> std::optional<__int128> { return op.f(a, b); }))
            continue;
          Offer(y, absl::StrCat(out.text, " == (", v_.terms[x].text, " ", op.text, " ",
                                v_.terms[z].text, ")"),
                "bitwise", kRankBitwise, true, {x, z}, 4);
        }
      }
    }
  }

  // y == x % k, x / k, (x + a) % k + b, x % z, x / z.
  void DivMod(int y) {
    const Term& out = v_.terms[y];
    bool is_long = out.type.Is(Type::Kind::kLong);
    std::vector<int> xs = IntegralInputs(y);
    static const int kDivisors[] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 100, 1000};
    for (int x : xs) {
      std::vector<size_t> obs = Known({y, x});
      if (obs.size() < 4) continue;
      auto check = [&](const std::function<std::optional<__int128>(__int128)>& f) {
        return Fits2(y, x, x, obs, is_long, [&](__int128 a, __int128) { return f(a); });
      };
      const std::string& xt = v_.terms[x].text;
      bool found = false;
      for (int k : kDivisors) {
        if (check([k](__int128 a) { return a % k; })) {
          Offer(y, absl::StrCat(out.text, " == ", xt, " % ", IntLit(k, is_long)), "mod",
                kRankDivMod, true, {x}, 4);
          found = true;
          break;
        }
      }
      for (int k : kDivisors) {
        if (found) break;
        if (check([k](__int128 a) { return a / k; })) {
          Offer(y, absl::StrCat(out.text, " == ", xt, " / ", IntLit(k, is_long)), "div",
                kRankDivMod, true, {x}, 4);
          found = true;
        }
      }
      for (int k = 2; k <= 16 && !found; ++k) {
        for (int a = -2; a <= 2 && !found; ++a) {
          for (int b = -2; b <= 2 && !found; ++b) {
            if (a == 0 && b == 0) continue;
            if (check([=](__int128 v) { return (v + a) % k + b; })) {
              std::string inner = a == 0 ? xt
                                         : absl::StrCat("(", xt, a < 0 ? " - " : " + ",
                                                        IntLit(a < 0 ? -a : a, is_long), ")");
              std::string text = absl::StrCat(inner, " % ", IntLit(k, is_long));
              if (b != 0)
                text = absl::StrCat(text, b < 0 ? " - " : " + ", IntLit(b < 0 ? -b : b, is_long));
              Offer(y, absl::StrCat(out.text, " == ", text), "mod", kRankDivMod, true, {x}, 5);
              found = true;
            }
          }
        }
      }
    }
    for (int x : xs) {
      for (int z : xs) {
        if (x == z) continue;
        std::vector<size_t> obs = Known({y, x, z});
        if (obs.size() < 3) continue;
        if (x < z) {
          if (Fits2(y, x, z, obs, is_long,
                    [&](__int128 a, __int128 b) { return WrapTo(a + b, is_long) / 2; })) {
            Offer(y,
                  absl::StrCat(out.text, " == (", v_.terms[x].text, " + ", v_.terms[z].text,
                               ") / ", IntLit(2, is_long)),
                  "div", kRankDivMod, true, {x, z}, 3);
          }
        }
        for (int op = 0; op < 2; ++op) {
          auto f = [op](__int128 a, __int128 b) -> std::optional<__int128> {
            if (b == 0 || b == -1) return std::nullopt;
            return op == 0 ? a % b : a / b;
          };
          if (!Fits2(y, x, z, obs, is_long, f)) continue;
          Offer(y, absl::StrCat(out.text, " == ", v_.terms[x].text, op == 0 ? " % " : " / ",
                                v_.terms[z].text),
                op == 0 ? "mod" : "div", kRankDivMod, true, {x, z}, 3);
        }
      }
    }
  }

  // Exact floating-point forms: y == x + k, x * k, (x - k) * p / q, ...
  void Floating(int y) {
    const Term& out = v_.terms[y];
    if (out.type.Is(Type::Kind::kFloat)) {
      FloatingForms<float>(y);
    } else {
      FloatingForms<double>(y);
    }
  }

  template <typename F>
  static bool ToF(const EvalValue& v, F* out) {
    switch (v.kind) {
      case EvalValue::Kind::kFloat:
        *out = static_cast<F>(v.f);
        return true;
      case EvalValue::Kind::kDouble:
        if (std::is_same_v<F, float>) return false;
        *out = static_cast<F>(v.d);
        return true;
      case EvalValue::Kind::kInt:
      case EvalValue::Kind::kLong:
        *out = static_cast<F>(v.i);
        return true;
      default:
        return false;
    }
  }

  template <typename F>
  void FloatingForms(int y) {
    const Term& out = v_.terms[y];
    const bool is_float = std::is_same_v<F, float>;
    std::vector<int> xs;
    for (int x : inputs_) {
      const Term& t = v_.terms[x];
      if (t.shape != TermShape::kScalar || !IsNumericType(t.type) || t.type.Is(Type::Kind::kChar))
        continue;
      if (is_float && t.type.Is(Type::Kind::kDouble)) continue;
      xs.push_back(x);
    }
    auto same = [](F a, F b) {
      return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
    };
    for (int x : xs) {
      std::vector<size_t> obs = Known({y, x});
      std::vector<std::pair<F, F>> pts;
      std::set<F> xvals;
      for (size_t i : obs) {
        F xv, yv;
        if (!ToF<F>(Val(x, i), &xv) || !ToF<F>(Val(y, i), &yv)) continue;
        pts.emplace_back(xv, yv);
        if (!std::isnan(xv)) xvals.insert(xv);  // NaN would break the set's order
      }
      if (pts.size() < 2 || xvals.size() < 2) continue;
      const std::string& xt = v_.terms[x].text;
      bool x_integral = IsIntegralType(v_.terms[x].type);
      const std::string int_suffix = x_integral ? (is_float ? ".0f" : ".0") : "";
      auto all = [&](const std::function<F(F)>& f) {
        for (const auto& [xv, yv] : pts) {
          if (!same(f(xv), yv)) return false;
        }
        return true;
      };
      bool found = false;
      auto offer = [&](const std::string& rhs) {
        Offer(y, absl::StrCat(out.text, " == ", rhs), "floating", kRankFloating, true, {x}, 2);
        found = true;
      };
      // Constants are guessed from finite points (a NaN or infinite call
      // says nothing about them; the forms are still checked on it).
      std::vector<std::pair<F, F>> finite;
      for (const auto& pt : pts) {
        if (std::isfinite(pt.first) && std::isfinite(pt.second)) finite.push_back(pt);
      }
      if (finite.size() < 2) continue;
      F x0 = finite[0].first, y0 = finite[0].second;
      // One constant.
      struct One {
        const char* shape;  // X and K placeholders
        F (*apply)(F, F);
        F (*guess)(F, F);  // k from (x, y)
      };
      static const One kOne[] = {
          {"X + K", [](F x, F k) { return x + k; }, [](F x, F y) { return y - x; }},
          {"X * K", [](F x, F k) { return x * k; }, [](F x, F y) { return y / x; }},
          {"X / K", [](F x, F k) { return x / k; }, [](F x, F y) { return x / y; }},
          {"K - X", [](F x, F k) { return k - x; }, [](F x, F y) { return y + x; }},
          {"K / X", [](F x, F k) { return k / x; }, [](F x, F y) { return y * x; }},
      };
      for (const One& form : kOne) {
        if (found) break;
        F k0 = form.guess(x0, y0);
        if (k0 == 0 || !std::isfinite(k0)) continue;
        std::optional<std::string> k = NiceConstant<F>(
            k0, [&](F k) { return all([&](F xv) { return form.apply(xv, k); }); });
        if (!k) continue;
        std::string text = form.shape;
        std::string ks = *k;
        std::string sign_x = xt;
        if (std::string(form.shape) == "X + K" && ks[0] == '-') {
          text = absl::StrCat(xt, " - ", ks.substr(1));
        } else {
          text = absl::StrReplaceAll(text, {{"X", xt}, {"K", ks}});
        }
        offer(text);
      }
      if (found) continue;
      // Two constants from two points with different x.
      F x1 = x0, y1 = y0;
      for (const auto& [xv, yv] : finite) {
        if (xv != x0) {
          x1 = xv;
          y1 = yv;
          break;
        }
      }
      F m0 = (y1 - y0) / (x1 - x0);
      F k0 = y0 - m0 * x0;
      if (!std::isfinite(m0) || m0 == 0) continue;
      // p/q approximations of the slope.
      std::vector<std::pair<int, int>> fractions;
      for (int q = 1; q <= 20; ++q) {
        double p = std::round(static_cast<double>(m0) * q);
        if (p == 0 || std::fabs(p) > 1000 || p == q) continue;
        if (std::gcd(static_cast<int>(std::fabs(p)), q) != 1) continue;  // 10/6 is 5/3
        if (std::fabs(p / q - m0) <= 1e-6 * std::max(1.0, std::fabs(static_cast<double>(m0))))
          fractions.emplace_back(static_cast<int>(p), q);
      }
      auto signed_term = [](const std::string& head, const std::string& k) {
        if (k[0] == '-') return absl::StrCat(head, " - ", k.substr(1));
        return absl::StrCat(head, " + ", k);
      };
      // Two-constant forms; the one whose constants read shortest wins
      // ((f - 32.0) * 5 / 9 rather than f * 5 / 9 - 17.77777777777778).
      std::vector<std::pair<size_t, std::string>> forms;
      auto keep = [&](const std::string& text, size_t constant_length) {
        forms.emplace_back(constant_length, text);
      };
      for (const auto& [p, q] : fractions) {
        std::string ps = absl::StrCat(p, int_suffix), qs = absl::StrCat(q);
        F pf = static_cast<F>(p), qf = static_cast<F>(q);
        std::string ratio = q == 1 ? absl::StrCat(" * ", ps) : absl::StrCat(" * ", ps, " / ", qs);
        std::optional<std::string> k = NiceConstant<F>(k0, [&](F k) {
          return all([&](F xv) { return xv * pf / qf + k; });
        });
        if (k) keep(signed_term(absl::StrCat(xt, ratio), *k), k->size() + ps.size() + qs.size());
        F c0 = k0 / (pf / qf);
        std::optional<std::string> c = NiceConstant<F>(c0, [&](F c) {
          return all([&](F xv) { return (xv + c) * pf / qf; });
        });
        if (c) keep(absl::StrCat(Paren(signed_term(xt, *c)), ratio), c->size() + ps.size() + qs.size());
      }
      // x * m + k and (x + c) / d with decimal m, d.
      for (int digits = 1; digits <= 17; ++digits) {
        char buf[64];
        std::snprintf(buf, sizeof(buf), "%.*g", digits, static_cast<double>(m0));
        F m = static_cast<F>(std::strtod(buf, nullptr));
        std::string ms = buf;
        if (ms.find_first_of(".e") == std::string::npos) ms += ".0";
        if (is_float) ms += "f";
        std::optional<std::string> k = NiceConstant<F>(y0 - m * x0, [&](F k) {
          return all([&](F xv) { return xv * m + k; });
        });
        if (k) {
          keep(signed_term(absl::StrCat(xt, " * ", ms), *k), k->size() + ms.size());
          break;
        }
        std::snprintf(buf, sizeof(buf), "%.*g", digits, 1.0 / static_cast<double>(m0));
        F d = static_cast<F>(std::strtod(buf, nullptr));
        std::string ds = buf;
        if (ds.find_first_of(".e") == std::string::npos) ds += ".0";
        if (is_float) ds += "f";
        std::optional<std::string> c = NiceConstant<F>(y0 * d - x0, [&](F c) {
          return all([&](F xv) { return (xv + c) / d; });
        });
        if (c) {
          keep(absl::StrCat(Paren(signed_term(xt, *c)), " / ", ds), c->size() + ds.size());
          break;
        }
      }
      if (!forms.empty()) {
        std::stable_sort(forms.begin(), forms.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        offer(forms[0].second);
      }
    }
    // Two floating inputs: x op z, (x + z) / 2.
    for (size_t p = 0; p < xs.size(); ++p) {
      for (size_t q = 0; q < xs.size(); ++q) {
        if (p == q) continue;
        int x = xs[p], z = xs[q];
        std::vector<size_t> obs = Known({y, x, z});
        if (obs.size() < 2) continue;
        struct Two {
          const char* op;
          F (*apply)(F, F);
          bool symmetric;
        };
        static const Two kTwo[] = {
            {" + ", [](F a, F b) { return a + b; }, true},
            {" - ", [](F a, F b) { return a - b; }, false},
            {" * ", [](F a, F b) { return a * b; }, true},
            {" / ", [](F a, F b) { return a / b; }, false},
        };
        // Whether y == f(x, z) in F on every observation.
        auto fits = [&](const std::function<F(F, F)>& f) {
          for (size_t i : obs) {
            F a, b, r;
            if (!ToF<F>(Val(x, i), &a) || !ToF<F>(Val(z, i), &b) || !ToF<F>(Val(y, i), &r))
              return false;
            if (!same(f(a, b), r)) return false;
          }
          return true;
        };
        for (const Two& form : kTwo) {
          if (form.symmetric && q < p) continue;
          if (fits(form.apply)) {
            Offer(y, absl::StrCat(out.text, " == ", v_.terms[x].text, form.op, v_.terms[z].text),
                  "floating", kRankFloating, true, {x, z}, 2);
          }
        }
        if (q > p && fits([](F a, F b) { return (a + b) / 2; })) {
          Offer(y,
                absl::StrCat(out.text, " == (", v_.terms[x].text, " + ", v_.terms[z].text,
                             ") / 2"),
                "floating", kRankFloating, true, {x, z}, 2);
        }
      }
    }
  }

  // NaN in, NaN out: `Double.isNaN(x) ==> Double.isNaN(y)` when every call
  // with a NaN x returned NaN (the other half of a form weakened by
  // `!Double.isNaN(x)`).
  void NaNPropagation(int y) {
    const Term& out = v_.terms[y];
    const char* out_box = out.type.Is(Type::Kind::kFloat) ? "Float" : "Double";
    for (int x : inputs_) {
      const Term& t = v_.terms[x];
      if (t.shape != TermShape::kScalar || !IsFloatingType(t.type)) continue;
      int nan_inputs = 0;
      bool all_nan = true;
      for (size_t i : Known({y, x})) {
        const EvalValue& xv = Val(x, i);
        bool x_nan = xv.kind == EvalValue::Kind::kDouble ? std::isnan(xv.d) : std::isnan(xv.f);
        if (!x_nan) continue;
        ++nan_inputs;
        const EvalValue& yv = Val(y, i);
        all_nan &= yv.kind == EvalValue::Kind::kDouble  ? std::isnan(yv.d)
                   : yv.kind == EvalValue::Kind::kFloat ? std::isnan(yv.f)
                                                        : false;
      }
      if (nan_inputs == 0 || !all_nan) continue;
      const char* in_box = t.type.Is(Type::Kind::kFloat) ? "Float" : "Double";
      Offer(y,
            absl::StrCat(in_box, ".isNaN(", t.text, ") ==> ", out_box, ".isNaN(", out.text, ")"),
            "floating", kRankFloating, false, {x}, 1);
    }
  }

  // y == (A ? e1 : e2) with A a pre-state atom and e1, e2 inputs, their
  // negations or constants (abs, max, min, clamps of one side).
  void Conditional(int y, bool nested = false) {
    const Term& out = v_.terms[y];
    std::vector<size_t> obs = Known({y});
    if (obs.size() < 3) return;
    struct Simple {
      std::string text;
      int term = -1;
      bool negate = false;
    };
    std::vector<Simple> simple;
    for (int x : inputs_) {
      const Term& t = v_.terms[x];
      if (t.shape != TermShape::kScalar || !IsNumericType(t.type) || !Compatible(out, t)) continue;
      simple.push_back({t.text, x, false});
      if (!t.type.Is(Type::Kind::kChar)) simple.push_back({absl::StrCat("-", t.text), x, true});
    }
    auto matches = [&](const Simple& s, size_t i) {
      const EvalValue& yv = Val(y, i);
      const EvalValue& xv = Val(s.term, i);
      __int128 a, b;
      if (AsInt(yv, &a) && AsInt(xv, &b)) return s.negate ? a == -b : a == b;
      double yd = yv.kind == EvalValue::Kind::kDouble  ? yv.d
                  : yv.kind == EvalValue::Kind::kFloat ? yv.f
                                                       : std::nan("");
      double xd = xv.kind == EvalValue::Kind::kDouble  ? xv.d
                  : xv.kind == EvalValue::Kind::kFloat ? xv.f
                  : AsInt(xv, &b)                      ? static_cast<double>(b)
                                                       : std::nan("");
      return s.negate ? yd == -xd : yd == xd;
    };
    // The first simple expression matching y on every observation of a
    // side, then (integral y) an arithmetic piece (Piece).
    auto usable = [](const Atom& a) {
      return a.splits && a.pre.find("\\forall") == std::string::npos &&
             a.pre.find("\\exists") == std::string::npos &&
             (a.pre.find('%') == std::string::npos || absl::StrContains(a.pre, "% 2 == 0"));
    };
    // Splits `obs` by `a`; false when `a` is unknown somewhere or one side
    // is empty.
    auto split = [](const Atom& a, const std::vector<size_t>& obs, std::vector<size_t>* t_side,
                    std::vector<size_t>* f_side) {
      for (size_t i : obs) {
        if (a.truth[i] == Truth::kTrue) {
          t_side->push_back(i);
        } else if (a.truth[i] == Truth::kFalse) {
          f_side->push_back(i);
        } else {
          return false;
        }
      }
      return !t_side->empty() && !f_side->empty();
    };
    // An expression for y on `side`: a simple one, a piece, a constant, or
    // (depth > 0) a conditional of two of those split by a further atom
    // (signum's `x > 0 ? 1 : (x < 0 ? -1 : 0)`, a case toggle's two
    // ranges), the first such atom in vocabulary order.
    std::function<std::optional<std::string>(const std::vector<size_t>&, int)> pick =
        [&](const std::vector<size_t>& side, int depth) -> std::optional<std::string> {
      for (const Simple& s : simple) {
        bool ok = true;
        for (size_t i : side) ok &= Val(s.term, i).known() && matches(s, i);
        if (ok) return s.text;
      }
      if (std::optional<std::string> piece = Piece(y, side)) return piece;
      const EvalValue& first = Val(y, side[0]);
      bool constant = true;
      for (size_t i : side) constant &= first.Identical(Val(y, i));
      std::string lit = constant ? first.ToJml() : "";
      if (!lit.empty()) return lit;
      if (depth == 0 || side.size() < 2) return std::nullopt;
      // A leaf of a nested conditional: two calls, or one whose value is
      // an input or -1, 0, 1 (nothing fitted to a single call).
      auto leaf = [&](const std::vector<size_t>& part) -> std::optional<std::string> {
        std::optional<std::string> e = pick(part, 0);
        if (!e || part.size() >= 2) return e;
        for (const Simple& s : simple) {
          if (*e == s.text) return e;
        }
        if (*e == "0" || *e == "1" || *e == "-1" || *e == "0L" || *e == "1L" || *e == "-1L")
          return e;
        return std::nullopt;
      };
      int inner = 0;
      for (const Atom& b : v_.atoms) {
        if (!usable(b)) continue;
        if (++inner > 40) break;
        std::vector<size_t> t_side, f_side;
        if (!split(b, side, &t_side, &f_side)) continue;
        std::optional<std::string> e1 = leaf(t_side), e2 = leaf(f_side);
        if (!e1 || !e2 || *e1 == *e2) continue;
        return absl::StrCat("(", b.post, " ? ", *e1, " : ", *e2, ")");
      }
      return std::nullopt;
    };
    // Flat conditionals; nested ones (depth 1) only when nothing else
    // defines y (called last, see Run).
    if (nested && Defined(y)) return;
    int depth = nested ? 1 : 0;
    int tried = 0;
    for (const Atom& a : v_.atoms) {
      if (!usable(a)) continue;
      if (++tried > (depth == 0 ? 80 : 20) || pool_->full()) break;
      std::vector<size_t> t_side, f_side;
      if (!split(a, obs, &t_side, &f_side)) continue;
      std::optional<std::string> e1 = pick(t_side, depth), e2 = pick(f_side, depth);
      if (!e1 || !e2 || *e1 == *e2) continue;
      Offer(y, absl::StrCat(out.text, " == (", a.post, " ? ", *e1, " : ", *e2, ")"),
            "conditional", kRankConditional, true, {}, nested ? 4 : 3);
    }
  }

  // An arithmetic expression over inputs equal to integral y on every
  // observation of `side` (at least two): x + k, x - k (k the same on all),
  // k * x (k in 2..16 or its negation), x + z, x - z, x * z; with y's
  // wrap-around. nullopt when none fits.
  // With `single`, one observation is enough, and only the forms without
  // constants (x + z, x / z, ...) are tried: one call cannot fix a constant.
  std::optional<std::string> Piece(int y, const std::vector<size_t>& side,
                                   bool single = false) const {
    const Term& out = v_.terms[y];
    auto int_or_char = [](const Term& t) {
      return t.shape == TermShape::kScalar &&
             (IsIntegralType(t.type) || t.type.Is(Type::Kind::kChar));
    };
    if (side.empty() || (side.size() < 2 && !single) || !int_or_char(out)) return std::nullopt;
    single = side.size() < 2;
    bool is_long = out.type.Is(Type::Kind::kLong);
    std::vector<int> xs;  // integral and char inputs (char arithmetic: c - 32)
    for (int x : inputs_) {
      if (x != y && int_or_char(v_.terms[x])) xs.push_back(x);
    }
    auto fits = [&](const std::function<std::optional<__int128>(size_t)>& f) {
      for (size_t i : side) {
        __int128 r;
        if (!AsInt(Val(y, i), &r)) return false;
        std::optional<__int128> got = f(i);
        if (!got || WrapTo(*got, is_long) != r) return false;
      }
      return true;
    };
    auto in = [&](int x, size_t i) -> std::optional<__int128> {
      __int128 v;
      if (!AsInt(Val(x, i), &v)) return std::nullopt;
      return v;
    };
    for (int x : single ? std::vector<int>{} : xs) {
      const std::string& xt = v_.terms[x].text;
      std::optional<__int128> x0 = in(x, side[0]);
      __int128 y0;
      if (!x0 || !AsInt(Val(y, side[0]), &y0)) continue;
      __int128 k = y0 - *x0;
      if (k != 0 && k > -1000000 && k < 1000000 &&
          fits([&](size_t i) -> std::optional<__int128> {
            std::optional<__int128> v = in(x, i);
            if (!v) return std::nullopt;
            return *v + k;
          })) {
        return absl::StrCat(xt, k < 0 ? " - " : " + ", IntLit(k < 0 ? -k : k, is_long));
      }
      for (int m = 2; m <= 16; ++m) {
        for (int sign : {1, -1}) {
          if (fits([&](size_t i) -> std::optional<__int128> {
                std::optional<__int128> v = in(x, i);
                if (!v || *v == 0) return std::nullopt;  // k * 0 says nothing about k
                return *v * m * sign;
              })) {
            return absl::StrCat(sign < 0 ? "-" : "", IntLit(m, is_long), " * ", xt);
          }
        }
      }
    }
    for (size_t p = 0; p < xs.size(); ++p) {
      for (size_t q = 0; q < xs.size(); ++q) {
        if (p == q) continue;
        int x = xs[p], z = xs[q];
        struct Op {
          const char* text;
          __int128 (*f)(__int128, __int128);
        };
        // Division and remainder truncate toward zero, as in Java (and
        // C++); a zero divisor or MIN_VALUE / -1 rules the form out.
        static const Op kOps[] = {{" + ", [](__int128 a, __int128 b) { return a + b; }},
                                  {" - ", [](__int128 a, __int128 b) { return a - b; }},
                                  {" * ", [](__int128 a, __int128 b) { return a * b; }},
                                  {" / ", [](__int128 a, __int128 b) { return a / b; }},
                                  {" % ", [](__int128 a, __int128 b) { return a % b; }}};
        for (const Op& op : kOps) {
          bool divides = op.text[1] == '/' || op.text[1] == '%';
          bool symmetric = op.text[1] == '+' || op.text[1] == '*';
          if (symmetric && q < p) continue;
          if (fits([&](size_t i) -> std::optional<__int128> {
                std::optional<__int128> a = in(x, i), b = in(z, i);
                if (!a || !b || (divides && (*b == 0 || *b == -1))) return std::nullopt;
                return op.f(*a, *b);
              })) {
            return absl::StrCat(Wide(y, x), op.text, v_.terms[z].text);
          }
        }
      }
    }
    return std::nullopt;
  }

  // Piecewise definitions: for a categorical atom A (a char input equal to
  // an observed value or in a class, parity), `A ==> y == e` with e a piece
  // (Piece) on the calls where A holds — a calculator's `op == '+' ==>
  // \result == a + b`. Only when nothing defines y on every call.
  void Piecewise(int y) {
    const Term& out = v_.terms[y];
    if (!IsIntegralType(out.type) || Defined(y)) return;
    std::vector<size_t> obs = Known({y});
    int tried = 0;
    for (const Atom& a : v_.atoms) {
      if (!a.splits || (a.pre.find('\'') == std::string::npos &&
                        !absl::StrContains(a.pre, "% 2 == 0")))
        continue;
      if (++tried > 40 || pool_->full()) break;
      std::vector<size_t> side;
      for (size_t i : obs) {
        if (a.truth[i] == Truth::kTrue) side.push_back(i);
      }
      // One call on a side is enough for a form without constants (the
      // validator confirms it); then it needs that one call's support.
      std::optional<std::string> e = Piece(y, side, /*single=*/true);
      if (!e) continue;
      Offer(y, absl::StrCat(a.post, " ==> ", out.text, " == ", *e), "piecewise", kRankPiecewise,
            false, {}, side.size() < 2 ? 1 : 2);
    }
  }

  // y == Math.max(x, Math.max(z, w)), Math.min(...) over three inputs, and
  // y == Math.abs(x - z) (Java's wrap-around: abs(MIN_VALUE) is MIN_VALUE).
  void MinMaxAbs(int y) {
    const Term& out = v_.terms[y];
    if (!IsIntegralType(out.type) || out.type.Is(Type::Kind::kChar)) return;
    bool is_long = out.type.Is(Type::Kind::kLong);
    std::vector<int> xs;
    for (int x : IntegralInputs(y)) {
      if (!absl::StrContains(v_.terms[x].text, "length") &&
          v_.terms[x].type == out.type)
        xs.push_back(x);
    }
    for (size_t p = 0; p < xs.size(); ++p) {
      for (size_t q = p + 1; q < xs.size(); ++q) {
        int x = xs[p], z = xs[q];
        const std::string& xt = v_.terms[x].text;
        const std::string& zt = v_.terms[z].text;
        std::vector<size_t> obs = Known({y, x, z});
        if (obs.size() >= 3 &&
            Fits2(y, x, z, obs, is_long, [is_long](__int128 a, __int128 b) -> std::optional<__int128> {
              __int128 d = WrapTo(a - b, is_long);
              return d < 0 ? WrapTo(-d, is_long) : d;
            })) {
          Offer(y, absl::StrCat(out.text, " == Math.abs(", xt, " - ", zt, ")"), "min-max",
                kRankMinMax, true, {x, z}, 3);
        }
        for (size_t r = q + 1; r < xs.size(); ++r) {
          int w = xs[r];
          std::vector<size_t> all = Known({y, x, z, w});
          if (all.size() < 3) continue;
          for (bool max : {true, false}) {
            bool ok = true;
            for (size_t i : all) {
              __int128 a, b, c, v;
              ok &= AsInt(Val(x, i), &a) && AsInt(Val(z, i), &b) && AsInt(Val(w, i), &c) &&
                    AsInt(Val(y, i), &v) &&
                    v == (max ? std::max({a, b, c}) : std::min({a, b, c}));
            }
            if (!ok) continue;
            const char* f = max ? "Math.max" : "Math.min";
            Offer(y,
                  absl::StrCat(out.text, " == ", f, "(", xt, ", ", f, "(", v_.terms[z].text, ", ",
                               v_.terms[w].text, "))"),
                  "min-max", kRankMinMax, true, {x, z, w}, 3);
          }
        }
      }
    }
  }

  // y == A - B, or y == (A > B ? A - B : 0): a difference clamped at 0
  // where it would be negative, with A and B an input or Math.min or
  // Math.max of two inputs of y's type — the overlap of [aStart, aEnd) and
  // [bStart, bEnd) is `Math.min(aEnd, bEnd) - Math.max(aStart, bStart)`
  // where positive, else 0. After the clamped conditional the same with
  // Math.max(0, A - B): the two differ only where A - B wraps, and the
  // validator keeps the one the code computes. The fit chosen is the one
  // with the fewest inputs, plus one for the clamp (a min or max of two
  // inputs fits only where one input does not, so every operand is
  // needed), first in operand order at a tie; evidence: four distinct
  // calls, and for the clamp one call where it applies and two where the
  // difference shows. Only when nothing else defines y; a difference of
  // two inputs alone is Linear's.
  void MinMaxDifference(int y) {
    static constexpr size_t kMaxInputs = 6;
    static constexpr int kMinCalls = 4;
    const Term& out = v_.terms[y];
    if (!IsIntegralType(out.type) || out.type.Is(Type::Kind::kChar) || Defined(y)) return;
    bool is_long = out.type.Is(Type::Kind::kLong);
    std::vector<int> xs;
    for (int x : IntegralInputs(y)) {
      if (!absl::StrContains(v_.terms[x].text, "length") && v_.terms[x].type == out.type)
        xs.push_back(x);
    }
    if (xs.size() < 2 || xs.size() > kMaxInputs) return;
    std::vector<size_t> obs = Known({y});
    std::vector<size_t> all;
    for (size_t i : obs) {
      bool known = true;
      for (int x : xs) known &= Val(x, i).known();
      if (known) all.push_back(i);
    }
    std::set<std::string> calls;
    for (size_t i : all) {
      std::string key;
      for (int x : xs) absl::StrAppend(&key, v_.terms[x].values[i].ToJml(), ";");
      calls.insert(key);
    }
    if (static_cast<int>(calls.size()) < kMinCalls) return;
    struct Operand {
      std::string text;
      std::vector<int> terms;
      std::vector<__int128> values;  // per call of `all`
    };
    std::vector<Operand> operands;
    auto value = [&](int x, size_t i) {
      __int128 v = 0;
      AsInt(Val(x, i), &v);
      return v;
    };
    for (int x : xs) {
      Operand o{v_.terms[x].text, {x}, {}};
      for (size_t i : all) o.values.push_back(value(x, i));
      operands.push_back(std::move(o));
    }
    for (bool max : {false, true}) {
      for (size_t p = 0; p < xs.size(); ++p) {
        for (size_t q = p + 1; q < xs.size(); ++q) {
          Operand o{absl::StrCat(max ? "Math.max(" : "Math.min(", v_.terms[xs[p]].text, ", ",
                                 v_.terms[xs[q]].text, ")"),
                    {xs[p], xs[q]},
                    {}};
          for (size_t i : all) {
            __int128 a = value(xs[p], i), b = value(xs[q], i);
            o.values.push_back(max ? std::max(a, b) : std::min(a, b));
          }
          operands.push_back(std::move(o));
        }
      }
    }
    struct Fit {
      int cost = 0;
      const Operand* a = nullptr;
      const Operand* b = nullptr;
      bool clamped = false;
    };
    std::optional<Fit> best;
    for (const Operand& a : operands) {
      for (const Operand& b : operands) {
        bool shared = false;
        for (int t : a.terms) shared |= std::count(b.terms.begin(), b.terms.end(), t) > 0;
        if (shared) continue;
        int inputs = static_cast<int>(a.terms.size() + b.terms.size());
        for (bool clamped : {false, true}) {
          int cost = inputs + (clamped ? 1 : 0);
          if ((best && cost >= best->cost) || (!clamped && inputs == 2)) continue;
          bool fits = true;
          int applies = 0, shows = 0;
          for (size_t k = 0; k < all.size() && fits; ++k) {
            __int128 r = 0;
            AsInt(Val(y, all[k]), &r);
            __int128 d = WrapTo(a.values[k] - b.values[k], is_long);
            bool clamp = clamped && a.values[k] <= b.values[k];
            (clamp ? applies : shows) += 1;
            fits = (clamp ? 0 : d) == r;
          }
          if (!fits || (clamped && (applies < 1 || shows < 2))) continue;
          best = Fit{cost, &a, &b, clamped};
        }
      }
    }
    if (!best) return;
    std::vector<int> inputs = best->a->terms;
    inputs.insert(inputs.end(), best->b->terms.begin(), best->b->terms.end());
    std::string diff = absl::StrCat(best->a->text, " - ", best->b->text);
    if (!best->clamped) {
      Offer(y, absl::StrCat(out.text, " == ", diff), "min-max", kRankMinMax, true, inputs,
            kMinCalls);
      return;
    }
    std::string zero = IntLit(0, is_long);
    Offer(y,
          absl::StrCat(out.text, " == (", best->a->text, " > ", best->b->text, " ? ", diff, " : ",
                       zero, ")"),
          "min-max", kRankMinMax, true, inputs, kMinCalls);
    Offer(y, absl::StrCat(out.text, " == Math.max(", zero, ", ", diff, ")"), "min-max",
          kRankMinMax, true, inputs, kMinCalls);
  }

  // y <==> F for a boolean y, F an and/or combination of at most three
  // atoms `x % k == 0` or `x % k != 0` over one integral input x: a
  // Gregorian leap year is `year % 4 == 0 && year % 100 != 0 || year % 400
  // == 0`. The moduli k are 2..12, 100, 400 and 1000 (those calendars,
  // digits and groupings use), each dividing some observed x but not all.
  // The rule: the formula of least cost that agrees with every distinct
  // observed x, cost = its atoms, plus 2 when its moduli do not form a
  // divisibility chain (4 | 100 | 400): rules that nest ("a multiple of 100
  // is not, unless it is one of 400") are what specifications say, while
  // unrelated moduli (`x % 8 == 0 || x % 3 == 0`) are what a handful of
  // points admit by chance. At a tie the first in enumeration order (fewer
  // atoms, smaller moduli, positive atoms, && before ||). Evidence: atoms
  // + 3 distinct x (one atom 4, three atoms 6), both results seen, and no
  // x seen with both. One formula is offered: the validator proves or
  // refutes it, and a refutation's counterexample is one more point for
  // the next fit. Only when nothing else defines y.
  void Divisibility(int y) {
    static constexpr int kModuli[] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 100, 400, 1000};
    static constexpr int kMaxAtoms = 3;
    static constexpr int kExtraCalls = 3;
    static constexpr int kNoChainCost = 2;
    if (Defined(y)) return;
    const std::string& yt = v_.terms[y].text;
    for (int x : IntegralInputs(y)) {
      if (pool_->full()) return;
      std::map<__int128, bool> points;  // distinct x -> y
      bool function = true;
      for (size_t i : Known({y, x})) {
        __int128 xv;
        if (!AsInt(Val(x, i), &xv)) continue;
        bool r = Val(y, i).i != 0;
        auto [it, fresh] = points.emplace(xv, r);
        function &= fresh || it->second == r;
      }
      int n = static_cast<int>(points.size());
      if (!function || n < 1 + kExtraCalls) continue;
      std::vector<bool> want;
      for (const auto& [xv, r] : points) want.push_back(r);
      if (std::count(want.begin(), want.end(), true) % n == 0) continue;  // one result only
      std::vector<int> ks;
      std::vector<std::vector<bool>> divides;
      for (int k : kModuli) {
        std::vector<bool> t;
        for (const auto& [xv, r] : points) t.push_back(xv % k == 0);
        int count = static_cast<int>(std::count(t.begin(), t.end(), true));
        if (count == 0 || count == n) continue;
        ks.push_back(k);
        divides.push_back(std::move(t));
      }
      // A formula: atoms a[0..size) with polarities; size 3 is
      // (l0 op01 l1) op2 l2, size 2 l0 op01 l1.
      struct Formula {
        int size = 0;
        int atom[kMaxAtoms] = {0, 0, 0};
        bool negated[kMaxAtoms] = {false, false, false};
        bool and01 = true, and2 = true;
      };
      auto holds = [&](const Formula& f, int p) {
        bool l[kMaxAtoms];
        for (int j = 0; j < f.size; ++j) l[j] = divides[f.atom[j]][p] != f.negated[j];
        bool v = l[0];
        if (f.size >= 2) v = f.and01 ? v && l[1] : v || l[1];
        if (f.size >= 3) v = f.and2 ? v && l[2] : v || l[2];
        return v;
      };
      auto cost = [&](const Formula& f) {
        std::vector<int> m;
        for (int j = 0; j < f.size; ++j) m.push_back(ks[f.atom[j]]);
        std::sort(m.begin(), m.end());
        bool chain = true;
        for (size_t j = 1; j < m.size(); ++j) chain &= m[j] % m[j - 1] == 0;
        return f.size + (chain ? 0 : kNoChainCost);
      };
      std::optional<Formula> best;
      int best_cost = 0;
      int atoms = static_cast<int>(ks.size());
      auto consider = [&](const Formula& f) {
        int c = cost(f);
        if (best && c >= best_cost) return;
        for (int p = 0; p < n; ++p) {
          if (holds(f, p) != want[p]) return;
        }
        best = f;
        best_cost = c;
      };
      for (int size = 1; size <= kMaxAtoms && n >= size + kExtraCalls; ++size) {
        if (best && size >= best_cost) break;
        for (int a = 0; a < atoms; ++a) {
          for (int b = size >= 2 ? a + 1 : 0; b < (size >= 2 ? atoms : 1); ++b) {
            for (int c = 0; c < (size >= 3 ? atoms : 1); ++c) {
              if (size >= 3 && (c == a || c == b)) continue;
              for (int signs = 0; signs < (1 << size); ++signs) {
                for (int ops = 0; ops < (1 << (size - 1)); ++ops) {
                  Formula f;
                  f.size = size;
                  f.atom[0] = a;
                  f.atom[1] = b;
                  f.atom[2] = c;
                  for (int j = 0; j < size; ++j) f.negated[j] = (signs >> j) & 1;
                  f.and01 = (ops & 1) == 0;
                  f.and2 = (ops & 2) == 0;
                  // Same operator twice: each set of atoms once.
                  if (size == 3 && f.and01 == f.and2 && c < b) continue;
                  consider(f);
                }
              }
            }
          }
        }
      }
      if (!best) continue;
      const std::string& xt = v_.terms[x].text;
      auto literal = [&](int j) {
        return absl::StrCat(xt, " % ", ks[best->atom[j]], best->negated[j] ? " != 0" : " == 0");
      };
      std::string text = literal(0);
      if (best->size >= 2) text = absl::StrCat(text, best->and01 ? " && " : " || ", literal(1));
      if (best->size >= 3)
        text = absl::StrCat(Paren(text), best->and2 ? " && " : " || ", literal(2));
      Offer(y, absl::StrCat(yt, " <==> ", Paren(text)), "divisibility", kRankBooleanPair, true,
            {x}, best->size + kExtraCalls);
    }
  }

  // y == x || y == z.
  void Membership(int y) {
    const Term& out = v_.terms[y];
    std::vector<int> xs;
    for (int x : inputs_) {
      const Term& t = v_.terms[x];
      if (t.shape == TermShape::kScalar && Compatible(out, t) && !t.type.IsBoolean())
        xs.push_back(x);
    }
    for (size_t p = 0; p < xs.size(); ++p) {
      for (size_t q = p + 1; q < xs.size(); ++q) {
        std::vector<size_t> obs = Known({y, xs[p], xs[q]});
        if (obs.size() < 2) continue;
        bool ok = true, only_p = true, only_q = true;
        for (size_t i : obs) {
          bool mp = CompareValues(Val(y, i), Val(xs[p], i)) == 0;
          bool mq = CompareValues(Val(y, i), Val(xs[q], i)) == 0;
          ok &= mp || mq;
          only_p &= mp;
          only_q &= mq;
        }
        if (!ok || only_p || only_q) continue;
        Offer(y,
              absl::StrCat(out.text, " == ", v_.terms[xs[p]].text, " || ", out.text, " == ",
                           v_.terms[xs[q]].text),
              "membership", kRankMembership, false, {xs[p], xs[q]}, 2);
      }
    }
  }

  static EvalValue Negated(const EvalValue& v) {
    switch (v.kind) {
      case EvalValue::Kind::kInt:
      case EvalValue::Kind::kLong:
        return EvalValue::Bigint(-static_cast<__int128>(v.i));
      case EvalValue::Kind::kFloat:
        return EvalValue::Float(-v.f);
      case EvalValue::Kind::kDouble:
        return EvalValue::Double(-v.d);
      default:
        return EvalValue::Unknown("not a number");
    }
  }

  // -1, 0, 1 for numeric values; 2 when not comparable.
  static int CompareValues(const EvalValue& a, const EvalValue& b) {
    __int128 x, y;
    if (AsInt(a, &x) && AsInt(b, &y)) return x < y ? -1 : (x > y ? 1 : 0);
    auto d = [](const EvalValue& v, double* out) {
      __int128 i;
      if (v.kind == EvalValue::Kind::kDouble) {
        *out = v.d;
      } else if (v.kind == EvalValue::Kind::kFloat) {
        *out = v.f;
      } else if (v.AsInteger(&i)) {
        *out = static_cast<double>(i);
      } else {
        return false;
      }
      return !std::isnan(*out);
    };
    double p, q;
    if (!d(a, &p) || !d(b, &q)) return 2;
    return p < q ? -1 : (p > q ? 1 : 0);
  }

  // The strongest of y > x, y >= x, y < x, y <= x that holds (also x = 0).
  void Comparisons(int y) {
    const Term& out = v_.terms[y];
    if (out.type.Is(Type::Kind::kChar)) return;
    auto compare = [&](const std::string& rhs, const std::function<EvalValue(size_t)>& value,
                       std::vector<int> uses, int rank) {
      bool gt = true, ge = true, lt = true, le = true, any = false;
      for (size_t i : group_) {
        EvalValue yv = Val(y, i), xv = value(i);
        if (!yv.known() || !xv.known()) continue;
        int c = CompareValues(yv, xv);
        if (c == 2) return;
        any = true;
        gt &= c > 0;
        ge &= c >= 0;
        lt &= c < 0;
        le &= c <= 0;
      }
      if (!any || (ge && le)) return;  // equal everywhere: an equality's business
      const char* op = gt ? ">" : ge ? ">=" : lt ? "<" : le ? "<=" : nullptr;
      if (op == nullptr) return;
      Offer(y, absl::StrCat(out.text, " ", op, " ", rhs), "comparison", rank, false,
            std::move(uses), 2);
    };
    for (int x : inputs_) {
      const Term& t = v_.terms[x];
      if (t.shape != TermShape::kScalar || !IsNumericType(t.type) || t.type.Is(Type::Kind::kChar))
        continue;
      compare(t.text, [&](size_t i) { return Val(x, i); }, {x}, kRankCompare);
    }
    std::string zero = out.type.Is(Type::Kind::kFloat)    ? "0.0f"
                       : out.type.Is(Type::Kind::kDouble) ? "0.0"
                                                          : "0";
    compare(zero, [](size_t) { return EvalValue::Int(0); }, {}, kRankCompareZero);
  }

  // A result that is a step function of one integral input (a grade, a
  // tariff band, an enum level): sorted by x, the calls fall into at most
  // kMaxSteps runs of equal results (`label(i)`: "\\result == 2", "" when
  // unknown), and each run gives `x >= lo && x <= hi ==> label` with lo and
  // hi the run's observed extremes, the first run open below and the last
  // open above (`x <= 10 ==> \\result == 0`). Nothing is claimed between two
  // runs unless their extremes are adjacent integers; whether a run's
  // interval really has one result is the validator's to decide. Only when
  // some run holds calls with two different x (else every call is its own
  // step, and a step says nothing the observations do not).
  void Steps(int y, const std::function<std::string(size_t)>& label) {
    constexpr size_t kMaxSteps = 5;
    std::vector<size_t> obs;
    for (size_t i : group_) {
      if (!label(i).empty()) obs.push_back(i);
    }
    if (obs.size() < 3) return;
    for (int x : inputs_) {
      const Term& t = v_.terms[x];
      if (t.shape != TermShape::kScalar || !IsIntegralType(t.type) || pool_->full()) continue;
      std::vector<std::pair<__int128, std::string>> points;
      for (size_t i : obs) {
        __int128 v;
        if (!AsInt(Val(x, i), &v)) break;
        points.emplace_back(v, label(i));
      }
      if (points.size() != obs.size()) continue;
      std::sort(points.begin(), points.end());
      struct Run {
        __int128 lo, hi;
        std::string label;
        size_t calls;
      };
      std::vector<Run> runs;
      bool function = true;
      for (size_t k = 0; k < points.size() && function; ++k) {
        const auto& [v, l] = points[k];
        if (k > 0 && points[k - 1].first == v && points[k - 1].second != l) function = false;
        if (!runs.empty() && runs.back().label == l) {
          runs.back().hi = v;
          ++runs.back().calls;
        } else {
          runs.push_back({v, v, l, 1});
        }
      }
      if (!function || runs.size() < 2 || runs.size() > kMaxSteps) continue;
      bool wide = false;
      for (const Run& r : runs) wide |= r.lo != r.hi;
      if (!wide) continue;
      const bool is_long = t.type.Is(Type::Kind::kLong);
      for (size_t k = 0; k < runs.size(); ++k) {
        const Run& r = runs[k];
        std::string lo = absl::StrCat(t.text, " >= ", IntLit(r.lo, is_long));
        std::string hi = absl::StrCat(t.text, " <= ", IntLit(r.hi, is_long));
        std::string range = k == 0                 ? hi
                            : k + 1 == runs.size() ? lo
                            : r.lo == r.hi         ? absl::StrCat(t.text, " == ", IntLit(r.lo, is_long))
                                                   : absl::StrCat(lo, " && ", hi);
        Offer(y, absl::StrCat(range, " ==> ", r.label), "step", kRankPiecewise, false, {x},
              r.calls < 2 ? 1 : 2);
      }
    }
  }

  // Steps of an enum result, labelled by the constant each call returned
  // (the vocabulary's `\\result == E.C` terms).
  void EnumSteps(int y) {
    std::vector<int> constants;
    for (int t : outputs_) {
      const Term& term = v_.terms[t];
      if (term.type.IsBoolean() && absl::StartsWith(term.text, "\\result == ")) constants.push_back(t);
    }
    if (constants.size() < 2) return;
    Steps(y, [&](size_t i) -> std::string {
      for (int c : constants) {
        if (Val(c, i).truth() == Truth::kTrue) return v_.terms[c].text;
      }
      return "";
    });
  }

  // Boolean outputs: y <==> A, y <==> A && B / A || B, y ==> A, A ==> y.
  void Booleans(int y) {
    const Term& out = v_.terms[y];
    std::vector<size_t> obs = Known({y});
    bool has_true = false, has_false = false;
    for (size_t i : obs) (Val(y, i).i != 0 ? has_true : has_false) = true;
    if (!has_true || !has_false) return;
    auto agree = [&](const Atom& a, bool negated) {
      for (size_t i : obs) {
        Truth t = a.truth[i];
        if (t == Truth::kUnknown) return false;
        if (((t == Truth::kTrue) != negated) != (Val(y, i).i != 0)) return false;
      }
      return true;
    };
    bool equivalence = false;
    for (const Atom& a : v_.atoms) {
      if (!a.splits || pool_->full()) continue;
      for (bool negated : {false, true}) {
        if (!agree(a, negated)) continue;
        Offer(y, absl::StrCat(out.text, " <==> ", Paren(negated ? a.neg_post : a.post)),
              "boolean", kRankBoolean, true, {}, 2);
        equivalence = true;
      }
    }
    if (equivalence) return;
    // Pairs: y <==> A && B (A, B true wherever y is), y <==> A || B.
    std::vector<const Atom*> necessary, sufficient;
    for (const Atom& a : v_.atoms) {
      if (!a.splits) continue;
      bool nec = true, suf = true, nec_strict = false, suf_strict = false;
      for (size_t i : obs) {
        bool yv = Val(y, i).i != 0;
        Truth t = a.truth[i];
        if (yv && t != Truth::kTrue) nec = false;
        if (!yv && t != Truth::kFalse) suf = false;
        if (!yv && t == Truth::kTrue) nec_strict = true;
        if (yv && t == Truth::kFalse) suf_strict = true;
      }
      if (nec && nec_strict) necessary.push_back(&a);
      if (suf && suf_strict) sufficient.push_back(&a);
    }
    // A && B from necessary atoms, A || B from sufficient ones.
    int pairs = 0;
    for (bool conjunction : {true, false}) {
      const std::vector<const Atom*>& list = conjunction ? necessary : sufficient;
      for (size_t p = 0; p < list.size() && pairs < 800; ++p) {
        for (size_t q = p + 1; q < list.size() && pairs < 800; ++q, ++pairs) {
          bool ok = true;
          for (size_t i : obs) {
            bool a = list[p]->truth[i] == Truth::kTrue, b = list[q]->truth[i] == Truth::kTrue;
            ok &= (conjunction ? a && b : a || b) == (Val(y, i).i != 0);
          }
          if (!ok) continue;
          Offer(y,
                absl::StrCat(out.text, " <==> ", Paren(list[p]->post),
                             conjunction ? " && " : " || ", Paren(list[q]->post)),
                "boolean", kRankBooleanPair, true, {}, 3);
          equivalence = true;
        }
      }
    }
    if (equivalence) return;
    // One-way facts, the two best of each direction.
    int n = 0;
    for (const Atom* a : necessary) {
      if (n++ >= 2) break;
      Offer(y, absl::StrCat(out.text, " ==> ", Paren(a->post)), "implication", kRankImplication,
            false, {}, 2);
    }
    n = 0;
    for (const Atom* a : sufficient) {
      if (n++ >= 2) break;
      Offer(y, absl::StrCat(Paren(a->post), " ==> ", out.text), "implication", kRankImplication,
            false, {}, 2);
    }
  }

  // Facts relating a scalar output to an input array: bounds (max/min),
  // membership, sum, counts, index results.
  void ArrayFacts(int y) {
    const Term& out = v_.terms[y];
    if (!out.guard.empty()) return;  // elements of tuple results
    for (const ArrayTerm& a : v_.arrays) {
      if (!a.input || !IsNumericType(a.element_type)) continue;
      if (pool_->full()) return;
      std::string el = a.changes ? a.old_element : a.element;
      std::string len = a.changes ? a.old_length : a.length;
      if (out.text == len) continue;
      std::string range = absl::StrCat("0 <= $i && $i < ", len);
      auto quant = [&](const char* q, const std::string& body) {
        return absl::StrCat("(", q, " int $i; ", range, "; ", body, ")");
      };
      std::string ei = At(el, "$i");
      bool compatible = IsNumericType(out.type) && !out.type.Is(Type::Kind::kChar);
      if (compatible) {
        // A long sum of narrower elements adds in long.
        bool widen = out.type.Is(Type::Kind::kLong) && !a.element_type.Is(Type::Kind::kLong) &&
                     (IsIntegralType(a.element_type) || a.element_type.Is(Type::Kind::kChar));
        Offer(y,
              absl::StrCat(out.text, " == ", quant("\\sum", widen ? absl::StrCat("(long) ", ei) : ei)),
              "array-sum", kRankAggregate, true, {}, 2);
        for (const char* op : {">=", "<="}) {
          Offer(y, quant("\\forall", absl::StrCat(out.text, " ", op, " ", ei)), "array-bound",
                kRankArrayBound, false, {}, 2);
        }
        Offer(y, quant("\\exists", absl::StrCat(out.text, " == ", ei)), "array-member",
              kRankArrayBound, false, {}, 2);
        // A floating y: the mean, the sum (in long for integral elements)
        // divided by the length in y's type.
        if (IsFloatingType(out.type)) {
          bool integral = IsIntegralType(a.element_type) || a.element_type.Is(Type::Kind::kChar);
          std::string sum = quant("\\sum", integral ? absl::StrCat("(long) ", ei) : ei);
          const char* cast = out.type.Is(Type::Kind::kFloat) ? "(float) " : "(double) ";
          Offer(y, absl::StrCat(out.text, " == ", cast, sum, " / ", len), "array-mean",
                kRankAggregate, true, {}, 3);
        }
      }
      if (!IsIntegralType(out.type)) continue;
      // Element predicates: == input, == 0, > 0, < 0, even.
      std::vector<std::pair<std::string, std::string>> preds;  // P(@), !P(@)
      for (int x : inputs_) {
        const Term& t = v_.terms[x];
        if (t.shape != TermShape::kScalar || !IsNumericType(t.type) || t.text == len) continue;
        preds.emplace_back(absl::StrCat("@ == ", t.text), absl::StrCat("@ != ", t.text));
      }
      preds.emplace_back("@ == 0", "@ != 0");
      preds.emplace_back("@ > 0", "@ <= 0");
      preds.emplace_back("@ < 0", "@ >= 0");
      preds.emplace_back("@ % 2 == 0", "@ % 2 != 0");
      // The first predicate that counts, and the first that the index
      // points at (then: absent when -1, and the first such index).
      for (const auto& [p, np] : preds) {
        if (Offer(y, absl::StrCat(out.text, " == ", quant("\\num_of", At(p, ei))),
                  "array-count", kRankAggregate, true, {}, 2)) {
          break;
        }
      }
      for (const auto& [p, np] : preds) {
        std::string npi = At(np, ei);
        std::string at_y = At(p, At(el, out.text));
        if (!Offer(y,
                   absl::StrCat(out.text, " == -1 || 0 <= ", out.text, " && ", out.text, " < ",
                                len, " && ", at_y),
                   "array-index", kRankIndex, false, {}, 2)) {
          continue;
        }
        Offer(y, absl::StrCat(out.text, " == -1 ==> ", quant("\\forall", npi)), "array-index",
              kRankIndex, false, {}, 1);
        Offer(y, absl::StrCat("(\\forall int $i; 0 <= $i && $i < ", out.text, "; ", npi, ")"),
              "array-index", kRankIndexFirst, false, {}, 2);
        break;
      }
    }
  }

  // Outputs that are arrays: non-null, sorted, element-wise relations with
  // input arrays and scalars, permutations.
  void ArrayOutputs() {
    for (const ArrayTerm& r : v_.arrays) {
      if (!r.output || !r.changes) continue;
      if (r.is_result && !allow_result_) continue;
      if (pool_->full()) return;
      std::string target = absl::StrCat(r.name, "[]");
      std::string range = absl::StrCat("0 <= $i && $i < ", r.length);
      auto forall = [&](const std::string& body) {
        return absl::StrCat("(\\forall int $i; ", range, "; ", body, ")");
      };
      auto offer = [&](const std::string& text, const char* family, int rank, bool defining) {
        Candidate c;
        c.text = text;
        c.family = family;
        c.rank = rank;
        c.target = target;
        c.defining = defining;
        c.min_support = 2;
        pool_->Offer(c);
      };
      if (r.is_result) {
        Candidate c;
        c.text = "\\result != null";
        c.family = "reference";
        c.rank = kRankArrayOut;
        c.target = "\\result";
        c.min_support = 2;
        pool_->Offer(c);
      }
      if (r.tuple) continue;  // its elements are terms of their own
      std::string ri = At(r.element, "$i");
      if (IsNumericType(r.element_type)) {
        for (const char* op : {"<=", "<", ">=", ">"}) {
          offer(absl::StrCat("(\\forall int $i; 0 <= $i && $i < ", r.length, " - 1; ", ri, " ", op,
                             " ", At(r.element, "$i + 1"), ")"),
                "array-sorted", kRankArrayOut, false);
        }
      }
      for (const ArrayTerm& x : v_.arrays) {
        if (!x.input) continue;
        bool same_kind = (IsNumericType(x.element_type) && IsNumericType(r.element_type)) ||
                         x.element_type == r.element_type;
        if (!same_kind) continue;
        std::string xe = x.changes || &x == &r ? x.old_element : x.element;
        std::string xl = x.changes || &x == &r ? x.old_length : x.length;
        offer(forall(absl::StrCat(ri, " == ", At(xe, "$i"))), "array-copy", kRankElementwise,
              true);
        offer(forall(absl::StrCat(ri, " == ", At(xe, absl::StrCat(xl, " - 1 - $i")))),
              "array-reverse", kRankElementwise, true);
        if (IsNumericType(r.element_type) && !r.element_type.Is(Type::Kind::kChar)) {
          offer(forall(absl::StrCat(ri, " == -", At(xe, "$i"))), "array-map", kRankElementwise,
                true);
        }
        if (IsNumericType(r.element_type) && x.element_type == r.element_type) {
          offer(forall(absl::StrCat("(\\num_of int $j; 0 <= $j && $j < ", r.length, "; ",
                                    At(r.element, "$j"), " == ", ri,
                                    ") == (\\num_of int $j; 0 <= $j && $j < ", xl, "; ", At(xe, "$j"),
                                    " == ", ri, ")")),
                "array-permutation", kRankPermutation, false);
        }
      }
      for (int x : inputs_) {
        const Term& t = v_.terms[x];
        if (t.shape != TermShape::kScalar) continue;
        bool ok = (IsNumericType(t.type) && IsNumericType(r.element_type)) ||
                  (t.type.IsBoolean() && r.element_type.IsBoolean());
        if (!ok) continue;
        offer(forall(absl::StrCat(ri, " == ", t.text)), "array-fill", kRankElementwise, true);
      }
      if (IsIntegralType(r.element_type)) {
        offer(forall(absl::StrCat(ri, " == $i")), "array-fill", kRankElementwise, true);
        offer(forall(absl::StrCat(ri, " == 0")), "array-fill", kRankElementwise, true);
      }
    }
  }

  // Offers `y == null` when every observation has it null; sets whether
  // none has.
  bool AlwaysNull(int y, const std::vector<size_t>& obs, bool* none_null) {
    bool all_null = true;
    *none_null = true;
    for (size_t i : obs) {
      bool n = Val(y, i).kind == EvalValue::Kind::kNull;
      all_null &= n;
      *none_null &= !n;
    }
    if (all_null) {
      Offer(y, absl::StrCat(v_.terms[y].text, " == null"), "reference", kRankReference, true, {});
    }
    return all_null;
  }

  void StringFacts(int y) {
    const Term& out = v_.terms[y];
    std::vector<size_t> obs = Known({y});
    bool none_null = false;
    if (obs.empty() || AlwaysNull(y, obs, &none_null)) return;
    if (!none_null) return;
    bool constant = true;
    for (size_t i : obs) constant &= Val(y, i).str == Val(y, obs[0]).str;
    if (constant) {
      Offer(y, absl::StrCat(out.text, ".equals(", Val(y, obs[0]).ToJml(), ")"), "constant",
            kRankConstant, true, {});
    }
    std::vector<int> strings;
    for (int x : inputs_) {
      if (v_.terms[x].shape != TermShape::kString) continue;
      strings.push_back(x);
      Offer(y, absl::StrCat(out.text, ".equals(", v_.terms[x].text, ")"), "equality",
            kRankEquality, true, {x});
    }
    for (int x : strings) {
      for (int z : strings) {
        if (x == z) continue;
        Offer(y,
              absl::StrCat(out.text, ".equals(", v_.terms[x].text, " + ", v_.terms[z].text, ")"),
              "concatenation", kRankLinearSimple, true, {x, z});
      }
    }
    if (out.text.rfind("\\result", 0) != 0) {
      Offer(y, absl::StrCat(out.text, " != null"), "reference", kRankReference, false, {});
    } else {
      Offer(y, "\\result != null", "reference", kRankReference, false, {});
    }
  }

  void ReferenceFacts(int y) {
    const Term& out = v_.terms[y];
    std::vector<size_t> obs = Known({y});
    bool none_null = false;
    if (obs.empty() || AlwaysNull(y, obs, &none_null)) return;
    for (int x : inputs_) {
      const Term& t = v_.terms[x];
      if (t.shape != TermShape::kReference) continue;
      Offer(y, absl::StrCat(out.text, " == ", t.text), "identity", kRankEquality, true, {x});
    }
    if (!out.type.IsArray() || out.text != "\\result") {
      if (none_null && out.text.rfind("\\result", 0) == 0) {
        Offer(y, absl::StrCat(out.text, " != null"), "reference", kRankReference, false, {});
      } else if (none_null) {
        Offer(y, absl::StrCat(out.text, " != null"), "reference", kRankReference, false, {});
      }
    }
    if (allow_result_ && out.text != "\\result" && v_.terms[y].type.IsClass()) {
      // A field set to the result (fluent setters, factories).
      for (const Term& t : v_.terms) {
        if (t.text == "\\result" && t.shape == TermShape::kReference && t.type == out.type) {
          Offer(y, absl::StrCat(out.text, " == \\result"), "identity", kRankOutputEquality, true,
                {});
        }
      }
    }
  }

  CandidatePool* pool_;
  SynthContext* ctx_;
  const Vocabulary& v_;
  const std::vector<size_t>& group_;
  bool allow_result_;
  std::vector<int> inputs_;
  std::vector<int> outputs_;
};

}  // namespace

void OfferTemplates(CandidatePool* pool, bool allow_result) {
  Templates(pool, allow_result).Run();
}

std::vector<AcceptedCandidate> SelectClauses(const std::vector<AcceptedCandidate>& accepted) {
  std::vector<const AcceptedCandidate*> order;
  for (const AcceptedCandidate& a : accepted) order.push_back(&a);
  std::stable_sort(order.begin(), order.end(),
                   [](const AcceptedCandidate* a, const AcceptedCandidate* b) {
                     if (a->candidate.rank != b->candidate.rank)
                       return a->candidate.rank < b->candidate.rank;
                     return a->sequence < b->sequence;
                   });
  std::set<std::string> defined;
  for (const AcceptedCandidate* a : order) {
    if (a->candidate.defining && !a->candidate.target.empty()) defined.insert(a->candidate.target);
  }
  // Targets with a fact better than bounds and comparisons: an index
  // property (or a definition) makes them redundant; bounds over an array
  // make plain comparisons redundant.
  std::map<std::string, int> best_rank;
  for (const AcceptedCandidate* a : order) {
    if (a->candidate.target.empty()) continue;
    auto it = best_rank.find(a->candidate.target);
    if (it == best_rank.end() || a->candidate.rank < it->second)
      best_rank[a->candidate.target] = a->candidate.rank;
  }
  std::set<std::string> kept_defining;
  std::vector<AcceptedCandidate> out;
  for (const AcceptedCandidate* a : order) {
    const Candidate& c = a->candidate;
    if (!c.target.empty() && defined.count(c.target)) {
      if (!c.defining) continue;
      if (!kept_defining.insert(c.target).second) continue;
    }
    auto best = best_rank.find(c.target);
    if (best != best_rank.end() && c.rank < kRankArrayOut) {
      if (best->second < kRankMembership && c.rank >= kRankMembership) continue;
      if (best->second < kRankCompare && c.rank >= kRankCompare) continue;
    }
    out.push_back(*a);
  }
  return out;
}

}  // namespace tracespec::synth

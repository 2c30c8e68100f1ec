// Guards of exceptional cases and observed frames; see guards.h.
#include "agent/synth/guards.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "validator/jml/printer.h"

namespace tracespec::synth {

using jml::EvalState;
using jml::EvalValue;
using jml::Truth;
using Position = jml::TypeChecker::Position;

namespace {

std::string Paren(const std::string& s) { return absl::StrCat("(", s, ")"); }

std::string Canonical(SynthContext* ctx, const std::string& text) {
  const jml::Expr* e = ctx->Compile(text, Position::kPrecondition);
  return e == nullptr ? text : jml::PrintExpr(*e);
}

bool Banned(SynthContext* ctx, const std::set<std::string>& banned, const std::string& pre) {
  return banned.count(Canonical(ctx, pre)) > 0;
}

bool AllAre(const Atom& a, const std::vector<size_t>& obs, Truth want) {
  for (size_t i : obs) {
    if (a.truth[i] != want) return false;
  }
  return true;
}

// See FindGuard: `x != 'a' && x != 'b'` for a char input x whose values on
// `negatives` are few (at most 6) and never taken on `positives`.
std::optional<Guard> OutsideObservedChars(SynthContext* ctx, const Vocabulary& vocab,
                                          const std::vector<size_t>& positives,
                                          const std::vector<size_t>& negatives,
                                          const std::set<std::string>& banned) {
  for (const Term& t : vocab.terms) {
    if (!t.input || t.pre_text.empty() || t.shape != TermShape::kScalar ||
        !t.type.Is(jml::Type::Kind::kChar))
      continue;
    std::map<__int128, std::string> values;  // sorted: deterministic text
    bool ok = true;
    for (size_t i : negatives) {
      __int128 c;
      std::string lit = t.values[i].ToJml();
      if (!t.values[i].AsInteger(&c) || lit.empty()) {
        ok = false;
        break;
      }
      values.emplace(c, lit);
    }
    if (!ok || values.empty() || values.size() > 6) continue;
    for (size_t i : positives) {
      __int128 c;
      ok &= t.values[i].AsInteger(&c) && values.count(c) == 0;
    }
    if (!ok) continue;
    std::vector<std::string> pre, neg, post;
    for (const auto& [c, lit] : values) {
      pre.push_back(absl::StrCat(t.pre_text, " != ", lit));
      neg.push_back(absl::StrCat(t.pre_text, " == ", lit));
      post.push_back(absl::StrCat(t.text, " != ", lit));
    }
    std::string pre_text = absl::StrJoin(pre, " && ");
    if (ctx->Compile(pre_text, Position::kPrecondition) == nullptr ||
        Banned(ctx, banned, pre_text))
      continue;
    return Guard{Canonical(ctx, pre_text), Canonical(ctx, absl::StrJoin(neg, " || ")), {}, false,
                 absl::StrJoin(post, " && "), /*combined=*/true};
  }
  return std::nullopt;
}

// Atoms joined by `op` ("||" or "&&"), each parenthesised.
std::string JoinAtoms(const std::vector<const Atom*>& atoms, std::string Atom::*text,
                      const char* op) {
  std::vector<std::string> parts;
  for (const Atom* a : atoms) parts.push_back(Paren(a->*text));
  return absl::StrJoin(parts, absl::StrCat(" ", op, " "));
}

// Calls `visit` on the combinations of `k` of `pool`'s atoms in
// lexicographic order of their indices until it returns true.
bool ForEachCombination(const std::vector<const Atom*>& pool, size_t k,
                        const std::function<bool(const std::vector<const Atom*>&)>& visit) {
  if (k == 0 || pool.size() < k) return false;
  std::vector<size_t> idx(k);
  for (size_t j = 0; j < k; ++j) idx[j] = j;
  std::vector<const Atom*> chosen(k);
  while (true) {
    for (size_t j = 0; j < k; ++j) chosen[j] = pool[idx[j]];
    if (visit(chosen)) return true;
    size_t j = k;
    while (j > 0 && idx[j - 1] == pool.size() - k + j - 1) --j;
    if (j == 0) return false;
    ++idx[j - 1];
    for (size_t m = j; m < k; ++m) idx[m] = idx[m - 1] + 1;
  }
}

// See FindGuard: the first disjunction of atoms that are each false on every
// negative and together true on every positive (a guard method's
// `i < 0 || i > j || j > n`), else the first conjunction of atoms that are
// each true on every positive and together false on every negative; two
// atoms before three (up to `max_combined`). The atoms are kept (Guard::atoms) so that the normal
// case can drop what another case's guard already rules out.
std::optional<Guard> CombinedGuard(SynthContext* ctx, const std::vector<const Atom*>& atoms,
                                   const std::vector<size_t>& positives,
                                   const std::vector<size_t>& negatives,
                                   const std::set<std::string>& banned, size_t max_combined) {
  // Triples are tried over the first atoms only: the search is cubic.
  constexpr size_t kMaxTripleAtoms = 64;
  std::vector<const Atom*> partial, necessary;
  for (const Atom* a : atoms) {
    if (Banned(ctx, banned, a->pre)) continue;
    if (AllAre(*a, negatives, Truth::kFalse)) {
      bool some = false;
      for (size_t i : positives) some |= a->truth[i] == Truth::kTrue;
      if (some) partial.push_back(a);
    }
    if (AllAre(*a, positives, Truth::kTrue)) necessary.push_back(a);
  }
  auto make = [&](const std::vector<const Atom*>& parts, bool conjunction) {
    const char* op = conjunction ? "&&" : "||";
    const char* neg_op = conjunction ? "||" : "&&";
    Guard g{Canonical(ctx, JoinAtoms(parts, &Atom::pre, op)),
            Canonical(ctx, JoinAtoms(parts, &Atom::neg_pre, neg_op)),
            {},
            false,
            JoinAtoms(parts, &Atom::post, op),
            /*combined=*/true};
    g.conjunction = conjunction;
    for (const Atom* a : parts) {
      g.atoms.push_back(Canonical(ctx, a->pre));
      g.neg_atoms.push_back(Canonical(ctx, a->neg_pre));
    }
    return g;
  };
  std::optional<Guard> found;
  for (size_t k = 2; k <= max_combined; ++k) {
    for (bool conjunction : {false, true}) {
      // A disjunction must hold on each positive, a conjunction fail on
      // each negative: some atom of the combination decides each call.
      const std::vector<const Atom*>& pool = conjunction ? necessary : partial;
      const std::vector<size_t>& decided = conjunction ? negatives : positives;
      Truth deciding = conjunction ? Truth::kFalse : Truth::kTrue;
      std::vector<const Atom*> first = pool;
      if (k >= 3 && first.size() > kMaxTripleAtoms) first.resize(kMaxTripleAtoms);
      ForEachCombination(first, k, [&](const std::vector<const Atom*>& parts) {
        for (size_t i : decided) {
          bool some = false;
          for (const Atom* a : parts) some |= a->truth[i] == deciding;
          if (!some) return false;
        }
        Guard g = make(parts, conjunction);
        if (Banned(ctx, banned, g.pre)) return false;
        found = std::move(g);
        return true;
      });
      if (found) return found;
    }
  }
  return std::nullopt;
}

// See FindGuard: one atom, else two or three combined.
std::optional<Guard> AtomGuard(SynthContext* ctx, const std::vector<const Atom*>& atoms,
                               const std::vector<size_t>& positives,
                               const std::vector<size_t>& negatives,
                               const std::set<std::string>& banned, size_t max_combined) {
  // One atom: the first family that separates; within it, an equality when
  // the exceptional calls all sit on one value (b == 0), else the largest
  // region (x <= 0 before x < 0).
  std::vector<const Atom*> family;
  for (const Atom* a : atoms) {
    if (!family.empty() && a->family != family[0]->family) break;
    if (!AllAre(*a, positives, Truth::kTrue) || !AllAre(*a, negatives, Truth::kFalse)) continue;
    if (Banned(ctx, banned, a->pre)) continue;
    family.push_back(a);
  }
  if (!family.empty()) {
    const Atom* chosen = family[0];
    for (const Atom* a : family) {
      if (a->pre.find(" == ") != std::string::npos && a->pre.find("\\") == std::string::npos) {
        chosen = a;
        break;
      }
    }
    Guard g{Canonical(ctx, chosen->pre), Canonical(ctx, chosen->neg_pre), {}, false,
            chosen->post};
    g.atoms = {g.pre};
    g.neg_atoms = {g.neg_pre};
    for (const Atom* a : family) {
      if (a != chosen) g.alternatives.push_back(Canonical(ctx, a->pre));
    }
    return g;
  }
  // Two, then three atoms: A || B || C (each false on every negative),
  // A && B && C (each true on every positive).
  return CombinedGuard(ctx, atoms, positives, negatives, banned, max_combined);
}

}  // namespace

std::optional<Guard> FindGuard(SynthContext* ctx, const Vocabulary& vocab,
                               const std::vector<size_t>& positives,
                               const std::vector<size_t>& negatives,
                               const std::set<std::string>& banned, size_t max_combined,
                               bool guard_atoms) {
  std::vector<const Atom*> atoms;
  for (const Atom& a : vocab.atoms) {
    if (a.splits) atoms.push_back(&a);
  }
  if (std::optional<Guard> g = AtomGuard(ctx, atoms, positives, negatives, banned, max_combined))
    return g;
  // A char input used as a selector (an operator): the calls in
  // `positives` have none of the few values the others have
  // (`op != '+' && op != '-'`, the default branch of a switch).
  if (std::optional<Guard> g = OutsideObservedChars(ctx, vocab, positives, negatives, banned))
    return g;
  // The atoms of exceptional guards only: after the others (a guard of
  // those wins), before a threshold read off single values.
  if (guard_atoms) {
    size_t before = atoms.size();
    for (const Atom& a : vocab.guard_atoms) {
      if (a.splits) atoms.push_back(&a);
    }
    if (atoms.size() > before) {
      if (std::optional<Guard> g =
              AtomGuard(ctx, atoms, positives, negatives, banned, max_combined))
        return g;
    }
  }
  // A threshold on one numeric input; a floating input's NaN among the
  // calls in `positives` adds `Double.isNaN(x) ||` (a setter that refuses
  // NaN and values outside a range: `Double.isNaN(c) || c < 5.0 || c > 30.0`).
  for (const Term& t : vocab.terms) {
    if (!t.input || t.pre_text.empty() || t.shape != TermShape::kScalar || t.type.IsBoolean())
      continue;
    const EvalValue* pos_min = nullptr;
    const EvalValue* pos_max = nullptr;
    const EvalValue* neg_min = nullptr;
    const EvalValue* neg_max = nullptr;
    bool ok = true;
    bool pos_nan = false;
    auto less = [](const EvalValue& a, const EvalValue& b) {
      __int128 x, y;
      if (a.AsInteger(&x) && b.AsInteger(&y)) return x < y;
      double p = a.kind == EvalValue::Kind::kDouble ? a.d : a.f;
      double q = b.kind == EvalValue::Kind::kDouble ? b.d : b.f;
      return p < q;
    };
    auto is_nan = [](const EvalValue& v) {
      return (v.kind == EvalValue::Kind::kDouble && std::isnan(v.d)) ||
             (v.kind == EvalValue::Kind::kFloat && std::isnan(v.f));
    };
    // `nan`: where a NaN is noted; null when a NaN rules the term out.
    auto track = [&](const std::vector<size_t>& obs, const EvalValue** lo, const EvalValue** hi,
                     bool* nan) {
      for (size_t i : obs) {
        const EvalValue& v = t.values[i];
        if (v.known() && is_nan(v) && nan != nullptr) {
          *nan = true;
          continue;
        }
        if (!v.known() || v.ToJml().empty() || is_nan(v)) {
          ok = false;
          return;
        }
        if (*lo == nullptr || less(v, **lo)) *lo = &v;
        if (*hi == nullptr || less(**hi, v)) *hi = &v;
      }
    };
    track(positives, &pos_min, &pos_max, &pos_nan);
    track(negatives, &neg_min, &neg_max, nullptr);
    if (!ok || pos_min == nullptr || neg_min == nullptr) continue;
    std::string pre, neg, post;
    if (less(*neg_max, *pos_min)) {
      pre = absl::StrCat(t.pre_text, " > ", neg_max->ToJml());
      neg = absl::StrCat(t.pre_text, " <= ", neg_max->ToJml());
      post = absl::StrCat(t.text, " > ", neg_max->ToJml());
    } else if (less(*pos_max, *neg_min)) {
      pre = absl::StrCat(t.pre_text, " < ", neg_min->ToJml());
      neg = absl::StrCat(t.pre_text, " >= ", neg_min->ToJml());
      post = absl::StrCat(t.text, " < ", neg_min->ToJml());
    } else {
      // Both sides: every positive outside the negatives' range.
      bool outside = true;
      for (size_t i : positives) {
        const EvalValue& v = t.values[i];
        outside &= is_nan(v) || less(v, *neg_min) || less(*neg_max, v);
      }
      if (!outside) continue;
      std::string lo = neg_min->ToJml(), hi = neg_max->ToJml();
      pre = absl::StrCat(t.pre_text, " < ", lo, " || ", t.pre_text, " > ", hi);
      neg = absl::StrCat(lo, " <= ", t.pre_text, " && ", t.pre_text, " <= ", hi);
      post = absl::StrCat(t.text, " < ", lo, " || ", t.text, " > ", hi);
    }
    if (pos_nan) {
      std::string box = t.type.Is(jml::Type::Kind::kFloat) ? "Float" : "Double";
      pre = absl::StrCat(box, ".isNaN(", t.pre_text, ") || ", pre);
      neg = absl::StrCat("!", box, ".isNaN(", t.pre_text, ") && ", neg);  // a conjunction
      post = absl::StrCat(box, ".isNaN(", t.text, ") || ", post);
    }
    if (ctx->Compile(pre, Position::kPrecondition) == nullptr || Banned(ctx, banned, pre))
      continue;
    return Guard{pre, neg, {}, true, post};
  }
  return std::nullopt;
}

std::optional<Guard> FindWeakeningGuard(SynthContext* ctx, const Vocabulary& vocab,
                                        const std::string& predicate,
                                        const std::vector<size_t>& positives,
                                        const std::vector<size_t>& negatives,
                                        const std::set<std::string>& banned,
                                        bool edges_only) {
  for (bool edge : {true, false}) {
    if (!edge && edges_only) return std::nullopt;
    for (const Atom& a : vocab.atoms) {
      if (a.edge != edge || !a.splits) continue;
      if (!a.edge_expr.empty() && predicate.find(a.edge_expr) == std::string::npos) continue;
      if (!AllAre(a, positives, Truth::kTrue) || !AllAre(a, negatives, Truth::kFalse)) continue;
      if (Banned(ctx, banned, a.pre)) continue;
      return Guard{Canonical(ctx, a.pre), Canonical(ctx, a.neg_pre), {}, false, a.post};
    }
  }
  // Combined guards fitted to a few counterexamples are not used; triples
  // are not even searched, so the threshold search is reached as before.
  std::optional<Guard> g =
      FindGuard(ctx, vocab, positives, negatives, banned, /*max_combined=*/2);
  if (g && g->combined) return std::nullopt;
  return g;
}

std::optional<std::vector<std::string>> ChangedLocations(SynthContext* ctx,
                                                         const std::vector<size_t>& group) {
  const jml::MethodContext& m = ctx->method();
  std::set<std::string> params(m.param_names.begin(), m.param_names.end());
  std::set<std::string> out;
  for (size_t i : group) {
    const v1::Observation& o = ctx->observations()[i];
    // Names of the pre-state objects, shortest first: this, parameters,
    // then one field hop from each.
    std::map<uint64_t, std::string> names;
    std::map<uint64_t, const v1::ObjectState*> pre;
    for (const v1::ObjectState& s : o.pre()) pre[s.id()] = &s;
    std::vector<std::pair<uint64_t, std::string>> roots;
    if (!m.method.is_static && o.receiver().kind_case() == v1::Value::kRef)
      roots.emplace_back(o.receiver().ref(), "this");
    for (int k = 0; k < o.args_size() && k < static_cast<int>(m.param_names.size()); ++k) {
      if (o.args(k).kind_case() == v1::Value::kRef) roots.emplace_back(o.args(k).ref(), m.param_names[k]);
    }
    for (const auto& [id, name] : roots) names.emplace(id, name);
    for (const auto& [id, name] : roots) {
      auto it = pre.find(id);
      if (it == pre.end()) continue;
      for (const v1::Field& f : it->second->fields()) {
        if (f.value().kind_case() != v1::Value::kRef || f.name().find('$') != std::string::npos)
          continue;
        std::string field_name =
            name == "this" ? (params.count(f.name()) ? absl::StrCat("this.", f.name()) : f.name())
                           : absl::StrCat(name, ".", f.name());
        names.emplace(f.value().ref(), field_name);
      }
    }
    for (const jml::ChangedLocation& ch : ctx->Changes(i)) {
      if (!ch.certain) continue;
      auto it = names.find(ch.object);
      if (it == names.end()) return std::nullopt;
      const std::string& base = it->second;
      if (ch.field.empty()) {
        if (base == "this") return std::nullopt;
        out.insert(absl::StrCat(base, "[*]"));
      } else if (base == "this") {
        out.insert(params.count(ch.field) ? absl::StrCat("this.", ch.field) : ch.field);
      } else {
        out.insert(absl::StrCat(base, ".", ch.field));
      }
    }
  }
  return std::vector<std::string>(out.begin(), out.end());
}

}  // namespace tracespec::synth

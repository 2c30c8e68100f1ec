// The built-in synthesizer: assembly of spec cases and Houdini pruning; see
// synthesizer.h.
#include "agent/synth/synthesizer.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/strings/ascii.h"
#include "agent/synth/candidates.h"
#include "agent/synth/context.h"
#include "agent/synth/guards.h"
#include "agent/synth/tautologies.h"
#include "agent/synth/vocabulary.h"
#include "common/interrupt.h"
#include "common/status.h"
#include "common/utf8.h"
#include "google/protobuf/util/json_util.h"
#include "tracespec/v1/answer.pb.h"
#include "validator/jml/clauses.h"
#include "validator/jml/parser.h"
#include "validator/jml/printer.h"
#include "validator/jml/type_checker.h"

namespace tracespec::synth {

const char* OracleVerdictName(OracleVerdict::Kind kind) {
  switch (kind) {
    case OracleVerdict::Kind::kPass:
      return "PASS";
    case OracleVerdict::Kind::kFail:
      return "FAIL";
    case OracleVerdict::Kind::kError:
      return "ERROR";
    case OracleVerdict::Kind::kUnknown:
      return "UNKNOWN";
  }
  return "UNKNOWN";
}

namespace {

using jml::Truth;
using Position = jml::TypeChecker::Position;

constexpr char kFrameKey[] = "assignable";
// Guards tried for one refuted clause before it is dropped.
constexpr int kMaxWeakenings = 3;

// One line of the contract before printing.
struct Line {
  std::string text;      // clause or case header, without "//@ "
  bool clause = false;   // false for headers and "also"
  std::string case_label;
  std::string family;
  int support = 0;
  // What banning this clause means: a predicate text (ensures/signals
  // facts, guards) or kFrameKey; empty when it cannot be banned.
  std::string ban_key;
  bool droppable = false;  // may be removed if the whole spec does not check
  std::string weakened_from;  // a refuted predicate kept under a guard
  int line = 0;            // 1-based line in the printed contract
};

struct Round {
  SynthesisResult result;
  std::vector<Line> clause_lines;  // in output order, with result line numbers
};

bool MethodMatches(const v1::MethodRef& m, const prompt::MethodSignature& s) {
  return m.class_name() == s.class_name && m.name() == s.method_name &&
         (s.jvm_descriptor.empty() || m.jvm_descriptor() == s.jvm_descriptor);
}

// The identity of a behaviour, for de-duplicating counterexamples.
std::string BehaviourKey(const v1::Observation& o) {
  v1::Observation c = o;
  c.clear_sequence();
  c.clear_test_id();
  c.clear_thread();
  c.clear_source();
  c.clear_recursion_depth();
  c.clear_excluded();
  c.clear_excluded_reason();
  std::string out;
  c.SerializeToString(&out);
  return out;
}

// The text of a java.lang.String object of `states` (a counterexample
// renders strings as the validator's model objects: a `value` char array),
// UTF-8 encoded as Value::string_value holds it; nullopt when it is not
// one, or not recorded in full, or holds a surrogate.
std::optional<std::string> StringObjectText(
    const google::protobuf::RepeatedPtrField<v1::ObjectState>& states, uint64_t id) {
  auto find = [&](uint64_t want) -> const v1::ObjectState* {
    for (const v1::ObjectState& s : states) {
      if (s.id() == want) return &s;
    }
    return nullptr;
  };
  const v1::ObjectState* str = find(id);
  if (str == nullptr || str->class_name() != "java.lang.String") return std::nullopt;
  const v1::ObjectState* chars = nullptr;
  for (const v1::Field& f : str->fields()) {
    if (f.name() == "value" && f.value().kind_case() == v1::Value::kRef)
      chars = find(f.value().ref());
  }
  if (chars == nullptr || chars->class_name() != "[C" ||
      chars->array().elements_size() != chars->array().length())
    return std::nullopt;
  std::string out;
  for (const v1::Value& e : chars->array().elements()) {
    if (e.kind_case() != v1::Value::kCharValue) return std::nullopt;
    uint32_t c = static_cast<uint32_t>(e.char_value());
    if (c >= 0xD800 && c <= 0xDFFF) return std::nullopt;
    AppendUtf8(c, &out);
  }
  return out;
}

// String arguments of a counterexample as recorded calls hold them (by
// value), so that the templates and guards read them alike (`s.length()`,
// `s.charAt(i)` are undecided on a model object).
void StringArgumentsByValue(v1::Observation* o) {
  for (v1::Value& arg : *o->mutable_args()) {
    if (arg.kind_case() != v1::Value::kRef) continue;
    if (std::optional<std::string> text = StringObjectText(o->pre(), arg.ref()))
      arg.set_string_value(*text);
  }
}

std::string JavaName(const std::string& binary) { return prompt::JavaTypeFromBinaryName(binary); }

// A clause to leave out, as the key the synthesizer bans by: the canonical
// predicate of "ensures P;", "requires P;", "signals (E e) P;" or of a bare
// predicate ("//@" and the keyword may be given).
std::string BanKey(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  absl::ConsumePrefix(&text, "//@");
  text = absl::StripAsciiWhitespace(text);
  for (absl::string_view keyword : {"ensures ", "requires ", "signals "}) {
    if (absl::ConsumePrefix(&text, keyword)) {
      if (keyword == "signals " && absl::StartsWith(text, "(")) {
        size_t close = text.find(')');
        if (close != absl::string_view::npos) text.remove_prefix(close + 1);
      }
      break;
    }
  }
  text = absl::StripAsciiWhitespace(text);
  absl::ConsumeSuffix(&text, ";");
  absl::StatusOr<jml::ExprPtr> e = jml::ParseExpressionText(text);
  return e.ok() ? jml::PrintExpr(**e) : std::string(text);
}

std::string Paren(const std::string& s) { return absl::StrCat("(", s, ")"); }

// The evaluation context and vocabulary of one method over observations
// (the type environment layers they need live here too).
struct Workspace {
  static absl::StatusOr<std::unique_ptr<Workspace>> Create(
      const prompt::MethodSignature& sig, const v1::MethodRef& method,
      const SynthesisOptions& options, const jml::TypeEnvironment* classpath,
      const std::vector<v1::Observation>& observations) {
    auto ws = std::unique_ptr<Workspace>(new Workspace(method, observations, classpath));
    std::vector<std::string> names;
    for (const prompt::Parameter& p : sig.params) names.push_back(p.name);
    absl::StatusOr<jml::MethodContext> mctx = jml::MakeMethodContext(
        ws->env, method.class_name(), method.name(), method.jvm_descriptor(), names, {});
    if (!mctx.ok()) {
      return Annotate(mctx.status(), absl::StrCat("built-in synthesizer: ", method.class_name(),
                                                  "#", method.name(), method.jvm_descriptor()));
    }
    ws->ctx.emplace(ws->env, *mctx, observations, options.work_budget);
    VocabularyOptions vopts;
    vopts.max_terms = options.max_terms;
    vopts.max_atoms = options.max_atoms;
    ws->vocab = BuildVocabulary(&*ws->ctx, vopts);
    return ws;
  }

  ObservedTypeEnvironment observed;
  jml::ChainedTypeEnvironment env;
  std::optional<SynthContext> ctx;
  Vocabulary vocab;

 private:
  static std::vector<const jml::TypeEnvironment*> Layers(const jml::TypeEnvironment* classpath,
                                                         const jml::TypeEnvironment* observed) {
    std::vector<const jml::TypeEnvironment*> layers;
    if (classpath != nullptr) layers.push_back(classpath);
    layers.push_back(&jml::JdkTypeEnvironment());
    layers.push_back(observed);
    return layers;
  }
  Workspace(const v1::MethodRef& method, const std::vector<v1::Observation>& observations,
            const jml::TypeEnvironment* classpath)
      : observed(method, observations), env(Layers(classpath, &observed)) {}
};

// The normal case's preconditions: the negation of every exceptional
// case's guard. A conjunction guard's negation is a disjunction whose
// disjuncts another guard may already rule out (`qty <= 0` throws one
// exception, `qty > 0 && qty > onHand` another: the normal case requires
// `qty > 0 && qty <= onHand`, not `qty > 0 && (qty <= 0 || qty <= onHand)`).
std::vector<std::string> NormalPreconditions(const std::vector<const Guard*>& guards) {
  // Atoms whose negation the normal case requires (of single-atom and
  // disjunction guards): false wherever it applies.
  std::set<std::string> ruled_out;
  for (const Guard* g : guards) {
    if (!g->conjunction) ruled_out.insert(g->atoms.begin(), g->atoms.end());
  }
  std::vector<std::string> out;
  for (const Guard* g : guards) {
    if (!g->conjunction || g->neg_atoms.empty()) {
      out.push_back(g->neg_pre);
      continue;
    }
    std::vector<std::string> kept;
    for (const std::string& d : g->neg_atoms) {
      if (!ruled_out.count(d)) kept.push_back(d);
    }
    if (kept.empty() || kept.size() == g->neg_atoms.size()) {
      out.push_back(g->neg_pre);
    } else {
      for (std::string& d : kept) d = Paren(d);
      out.push_back(absl::StrJoin(kept, " || "));
    }
  }
  return out;
}

class RoundBuilder {
 public:
  RoundBuilder(const prompt::MethodSignature& sig, const v1::MethodRef& method,
               const SynthesisOptions& options, const jml::TypeEnvironment* classpath,
               TautologyTest is_tautology)
      : sig_(sig),
        method_(method),
        options_(options),
        classpath_(classpath),
        is_tautology_(std::move(is_tautology)) {}

  // Predicates kept under a guard in the last Build (their refutation is
  // not a drop).
  const std::set<std::string>& weakened_from() const { return weakened_from_; }

  // `refuted`: postconditions of the normal case the validator refuted
  // with counterexamples (predicate, family), to be weakened.
  absl::StatusOr<Round> Build(const std::vector<v1::Observation>& observations,
                              const std::set<std::string>& banned,
                              const std::vector<std::pair<std::string, std::string>>& refuted) {
    hypotheses_.clear();
    weakened_from_.clear();
    TS_ASSIGN_OR_RETURN(std::unique_ptr<Workspace> ws,
                        Workspace::Create(sig_, method_, options_, classpath_, observations));
    SynthContext& ctx = *ws->ctx;
    Vocabulary& vocab = ws->vocab;

    Round round;
    SynthesisStats& stats = round.result.stats;
    std::vector<size_t> normal;
    std::map<std::string, std::vector<size_t>> thrown;
    for (size_t i = 0; i < ctx.size(); ++i) {
      const v1::Observation& o = ctx.observations()[i];
      if (o.source() == v1::COUNTEREXAMPLE) ++stats.counterexamples;
      switch (OutcomeOf(o)) {
        case OutcomeKind::kNormal:
          normal.push_back(i);
          ++stats.normal;
          break;
        case OutcomeKind::kThrown:
          thrown[o.outcome().thrown().class_name()].push_back(i);
          ++stats.exceptional;
          break;
        case OutcomeKind::kUnknown:
          break;
      }
    }
    stats.observations = static_cast<int>(ctx.size());
    stats.terms = static_cast<int>(vocab.terms.size());
    for (const Atom& a : vocab.atoms) stats.atoms += a.splits ? 1 : 0;

    std::string visibility = sig_.access.empty() ? "" : absl::StrCat(sig_.access, " ");
    std::vector<Line> lines;
    auto header = [&](const std::string& behavior) {
      Line also, head;
      also.text = "also";
      head.text = absl::StrCat(visibility, behavior);
      if (!lines.empty()) lines.push_back(std::move(also));
      lines.push_back(std::move(head));
    };
    auto clause = [&](const std::string& label, const std::string& text, const std::string& family,
                      int support, const std::string& ban_key, bool droppable) {
      Line l;
      l.text = absl::StrCat("  ", text);
      l.clause = true;
      l.case_label = label;
      l.family = family;
      l.support = support;
      l.ban_key = ban_key;
      l.droppable = droppable;
      lines.push_back(std::move(l));
    };
    auto canonical = [&](const std::string& text, Position pos) {
      const jml::Expr* e = ctx.Compile(text, pos);
      return e == nullptr ? text : jml::PrintExpr(*e);
    };
    auto frame = [&](const std::string& label, const std::vector<size_t>& group) {
      std::string key = absl::StrCat(kFrameKey, " ", label);
      if (banned.count(key)) return;
      std::optional<std::vector<std::string>> locs = ChangedLocations(&ctx, group);
      if (!locs) {
        Hypothesis(absl::StrCat(
            label, ": a call changed an object the contract cannot name, so the assignable "
                   "clause is left out (JML's default, \\everything)"));
        return;
      }
      clause(label,
             absl::StrCat("assignable ",
                          locs->empty() ? "\\nothing" : absl::StrJoin(*locs, ", "), ";"),
             "frame", 0, key, false);
    };
    auto facts = [&](const std::string& label, const std::vector<size_t>& group,
                     const std::string& exception, CandidatePool* pool) {
      // Clauses the validator refuted are offered again (they are banned):
      // the pool weakens them with a guard excluding the counterexamples.
      if (exception.empty()) {
        for (const auto& [predicate, family] : refuted) {
          Candidate c;
          c.text = predicate;
          c.family = family;
          c.rank = 50;
          pool->Offer(c);
        }
      }
      OfferTemplates(pool, exception.empty());
      stats.candidates_tested += pool->offered();
      std::vector<AcceptedCandidate> chosen = SelectClauses(pool->accepted());
      int count = 0;
      for (const AcceptedCandidate& a : chosen) {
        if (count >= options_.max_clauses) break;
        // A clause true whatever values its terms take says nothing (a
        // refuted `\result ==> P` kept under the guard P): left out, and so
        // is each such conjunct. Banning the shorter text bans the
        // candidate (they are equivalent).
        std::string text = a.candidate.text;
        if (is_tautology_) {
          Position pos = exception.empty() ? Position::kPostcondition : Position::kExceptional;
          if (const jml::Expr* e = ctx.Compile(text, pos)) {
            std::optional<std::string> kept = WithoutTautologies(*e, is_tautology_);
            if (!kept) continue;
            text = canonical(*kept, pos);
          }
        }
        ++count;
        clause(label, ClauseText(text, exception), a.candidate.family, a.verdict.support,
               a.candidate.text, true);
        const Candidate& c = a.candidate;
        lines.back().weakened_from = c.weakened_from;
        if (c.weakened_from.empty()) continue;
        weakened_from_.insert(c.weakened_from);
        std::string note = absl::StrCat(
            "weakened: `", ClauseText(c.weakened_from, exception), "` (", label, ") is refuted by ",
            c.weakened_by_recorded ? "recorded calls on an edge of the input domain"
                                   : "the validator's counterexamples",
            "; kept as `", ClauseText(c.text, exception), "`");
        round.result.weakened.push_back(note);
      }
      return count;
    };

    // Exceptions: a guard per class where one separates its calls.
    struct ExceptionCase {
      std::string cls;
      std::vector<size_t> group;
      std::optional<Guard> guard;
    };
    std::vector<ExceptionCase> cases;
    for (const auto& [cls, group] : thrown) {
      ExceptionCase ec{cls, group, std::nullopt};
      std::vector<size_t> others;
      for (size_t i = 0; i < ctx.size(); ++i) {
        if (OutcomeOf(ctx.observations()[i]) == OutcomeKind::kUnknown) continue;
        if (std::find(group.begin(), group.end(), i) == group.end()) others.push_back(i);
      }
      if (others.empty()) {
        ec.guard = Guard{"", "", {}, false, ""};
      } else {
        ec.guard = FindGuard(&ctx, vocab, group, others, banned, /*max_combined=*/3,
                             /*guard_atoms=*/true);
      }
      if (ec.guard && !ec.guard->alternatives.empty()) {
        std::vector<std::string> alts;
        for (const std::string& a : ec.guard->alternatives) alts.push_back(absl::StrCat("`", a, "`"));
        Hypothesis(absl::StrCat("the observations do not decide the boundary of ", JavaName(cls),
                                ": guard `", ec.guard->pre, "` was chosen, ",
                                absl::StrJoin(alts, ", "), " would separate them as well"));
      }
      if (ec.guard && ec.guard->threshold) {
        Hypothesis(absl::StrCat("guard `", ec.guard->pre, "` for ", JavaName(cls),
                                " is a threshold read off the observed values"));
      }
      cases.push_back(std::move(ec));
    }
    std::vector<std::string> unguarded;
    std::vector<const Guard*> guards;
    for (const ExceptionCase& ec : cases) {
      if (!ec.guard) {
        unguarded.push_back(ec.cls);
        Hypothesis(absl::StrCat("calls that threw ", JavaName(ec.cls),
                                " could not be told apart from the others by a simple predicate "
                                "over the inputs; the contract only permits the exception"));
      } else if (!ec.guard->neg_pre.empty()) {
        guards.push_back(&*ec.guard);
      }
    }
    std::vector<std::string> negations = NormalPreconditions(guards);

    // The normal case.
    std::unique_ptr<CandidatePool> normal_pool;
    if (!normal.empty()) {
      std::string behavior = unguarded.empty() ? "normal_behavior" : "behavior";
      std::string label = behavior;
      header(behavior);
      if (!negations.empty()) {
        std::vector<std::string> parts;
        for (const std::string& n : negations)
          parts.push_back(negations.size() > 1 ? Paren(n) : n);
        std::string pre = canonical(absl::StrJoin(parts, " && "), Position::kPrecondition);
        clause(label, absl::StrCat("requires ", pre, ";"), "precondition", 0, "", false);
      }
      // A behavior case also covers the calls that threw an unguarded
      // exception: its frame must include what they changed.
      std::vector<size_t> covered = normal;
      for (const ExceptionCase& ec : cases) {
        if (!ec.guard) covered.insert(covered.end(), ec.group.begin(), ec.group.end());
      }
      std::sort(covered.begin(), covered.end());
      frame(label, covered);
      normal_pool = std::make_unique<CandidatePool>(&ctx, &vocab, normal, Position::kPostcondition,
                                                    &banned, options_.max_candidates);
      facts(label, normal, "", normal_pool.get());
      if (!unguarded.empty()) {
        std::vector<std::string> java;
        for (const std::string& u : unguarded) java.push_back(JavaName(u));
        clause(label, absl::StrCat("signals_only ", absl::StrJoin(java, ", "), ";"), "exceptions",
               0, "", false);
      }
    }
    // Exceptional cases (when there are no normal calls, unguarded classes
    // share one case).
    std::vector<ExceptionCase> emitted;
    for (const ExceptionCase& ec : cases) {
      if (ec.guard) emitted.push_back(ec);
    }
    if (normal.empty() && !unguarded.empty()) {
      ExceptionCase merged;
      for (const ExceptionCase& ec : cases) {
        if (ec.guard) continue;
        merged.cls = merged.cls.empty() ? ec.cls : absl::StrCat(merged.cls, ",", ec.cls);
        merged.group.insert(merged.group.end(), ec.group.begin(), ec.group.end());
      }
      std::sort(merged.group.begin(), merged.group.end());
      merged.guard = Guard{"", "", {}, false, ""};
      emitted.push_back(std::move(merged));
    }
    for (const ExceptionCase& ec : emitted) {
      std::vector<std::string> classes = absl::StrSplit(ec.cls, ',');
      std::vector<std::string> java;
      for (const std::string& c : classes) java.push_back(JavaName(c));
      std::string label = absl::StrCat("exceptional_behavior ", absl::StrJoin(classes, ", "));
      header("exceptional_behavior");
      if (!ec.guard->pre.empty()) {
        std::string pre = canonical(ec.guard->pre, Position::kPrecondition);
        clause(label, absl::StrCat("requires ", pre, ";"), "guard", 0, pre, false);
      }
      frame(label, ec.group);
      clause(label, absl::StrCat("signals_only ", absl::StrJoin(java, ", "), ";"), "exceptions", 0,
             "", false);
      // When nothing more is known about the exception, no `signals (E e)
      // true;`: signals_only already says which exceptions the case throws.
      if (classes.size() == 1) {
        CandidatePool pool(&ctx, &vocab, ec.group, Position::kExceptional, &banned,
                           options_.max_candidates);
        facts(label, ec.group, java[0], &pool);
      }
    }
    if (lines.empty()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "built-in synthesizer: no observation of ", method_.class_name(), "#", method_.name(),
          " has a recorded outcome"));
    }

    // Domain notes and unsupported ideas.
    NullNotes(ctx);
    if (normal_pool) {
      for (const std::string& t : normal_pool->threshold_weakenings()) {
        Hypothesis(absl::StrCat("`ensures ", t,
                                ";` would exclude the validator's counterexamples, but its guard "
                                "is a threshold read off single values; not asserted"));
      }
      int n = 0;
      for (const auto& [c, v] : normal_pool->unsupported()) {
        bool exact = c.rank < 55 || c.rank == 60 || c.rank == 62;  // defining scalar forms
        if (!exact || n >= 3) continue;
        ++n;
        Hypothesis(absl::StrCat("`", c.text, "` held on every call but on only ", v.support,
                                " distinct input", v.support == 1 ? "" : "s", " (", c.family,
                                "); not asserted"));
      }
      n = 0;
      std::set<int> noted;
      for (const Atom& a : vocab.atoms) {
        if (n >= 2 || !a.noteworthy || noted.count(a.family)) continue;
        bool all = true;
        for (size_t i : normal) all &= a.truth[i] == Truth::kTrue;
        if (!all || normal.size() < 2) continue;
        ++n;
        noted.insert(a.family);
        Hypothesis(absl::StrCat("every normal call observed had `", canonical(a.pre, Position::kPrecondition),
                                "`; the contract does not require it"));
      }
    }
    if (ctx.exhausted()) {
      stats.budget_exhausted = true;
      Hypothesis("the synthesis work budget ran out; some templates were not tried");
    }
    stats.work = ctx.work();

    TS_RETURN_IF_ERROR(Finish(&ctx, &lines, &round));
    return round;
  }

 private:
  void Hypothesis(std::string text) {
    if (std::find(hypotheses_.begin(), hypotheses_.end(), text) == hypotheses_.end())
      hypotheses_.push_back(std::move(text));
  }

  // Parameters and a result observed null are declared nullable (JML's
  // default is non_null, under which no case could describe such a call):
  // the declaration then follows the annotations (RenderDeclaration).
  void NullNotes(SynthContext& ctx) {
    const jml::MethodContext& m = ctx.method();
    declared_ = sig_;
    for (size_t k = 0; k < m.param_names.size() && k < m.method.params.size(); ++k) {
      if (!m.method.params[k].IsReference() || k >= declared_.params.size()) continue;
      for (const v1::Observation& o : ctx.observations()) {
        if (static_cast<int>(k) < o.args_size() &&
            o.args(static_cast<int>(k)).kind_case() == v1::Value::kNullValue) {
          declared_.params[k].nullable = true;
          Hypothesis(absl::StrCat("parameter ", m.param_names[k],
                                  " was observed null: the contract declares it nullable "
                                  "(JML's default is non_null)"));
          break;
        }
      }
    }
    if (m.method.result.IsReference()) {
      for (const v1::Observation& o : ctx.observations()) {
        if (o.outcome().has_returned() &&
            o.outcome().returned().kind_case() == v1::Value::kNullValue) {
          declared_.nullable_result = true;
          Hypothesis("the result was observed null: the contract declares it nullable "
                     "(JML's default is non_null)");
          break;
        }
      }
    }
  }

  // The declaration after the annotations, when it says more than the
  // class file does (a nullable parameter or result); else empty.
  std::string Declaration() const {
    bool nullable = declared_.nullable_result;
    for (const prompt::Parameter& p : declared_.params) nullable = nullable || p.nullable;
    return nullable ? absl::StrCat(prompt::RenderDeclaration(declared_), ";\n") : "";
  }

  static std::string Text(const std::vector<Line>& lines) {
    std::string out;
    for (const Line& l : lines) absl::StrAppend(&out, "//@ ", l.text, "\n");
    return out;
  }

  // Parses and type-checks the assembled text (dropping fact clauses that
  // fail, which the per-candidate checks make unlikely), checks that it
  // admits every observation, and prints it canonically.
  absl::Status Finish(SynthContext* ctx, std::vector<Line>* lines, Round* round) {
    jml::TypeChecker checker(ctx->env());
    for (int attempt = 0; attempt < 8; ++attempt) {
      std::string text = Text(*lines);
      absl::StatusOr<jml::SpecText> parsed = jml::ParseSpecText(text, "<synthesized>");
      absl::Status status = parsed.status();
      if (parsed.ok()) status = checker.CheckMethodSpec(parsed->spec, ctx->method()).status();
      if (status.ok()) return Emit(ctx, *lines, std::move(parsed->spec), round);
      // Drop the fact clauses on the lines the errors name.
      std::set<int> bad;
      for (absl::string_view msg : absl::StrSplit(status.message(), '\n')) {
        std::vector<absl::string_view> parts = absl::StrSplit(msg, absl::MaxSplits(':', 3));
        int line;
        if (parts.size() >= 2 && absl::SimpleAtoi(parts[1], &line)) bad.insert(line);
      }
      bool dropped = false;
      std::vector<Line> kept;
      for (size_t k = 0; k < lines->size(); ++k) {
        if (bad.count(static_cast<int>(k) + 1) && (*lines)[k].droppable) {
          dropped = true;
          continue;
        }
        kept.push_back((*lines)[k]);
      }
      if (!dropped) {
        return absl::InternalError(absl::StrCat(
            "built-in synthesizer produced a contract that does not type-check: ",
            status.message()));
      }
      *lines = std::move(kept);
    }
    return absl::InternalError("built-in synthesizer: the contract did not type-check");
  }

  absl::Status Emit(SynthContext* ctx, const std::vector<Line>& lines, jml::MethodSpec spec,
                    Round* round) {
    // Every observation must be admitted (by construction; checked).
    jml::EvalOptions eval_options;
    eval_options.env = &ctx->env();
    eval_options.implicit_nullity = false;
    for (const v1::Observation& o : ctx->observations()) {
      jml::ObservationEvaluator ev(o, ctx->method(), eval_options);
      jml::SpecEval se = ev.EvaluateSpec(spec);
      if (se.admitted == Truth::kFalse) {
        std::string why;
        for (const jml::CaseEval& c : se.cases) {
          if (c.pre != Truth::kFalse && !c.why.empty()) why = absl::StrCat(c.label, ": ", c.why);
        }
        Hypothesis(absl::StrCat("the contract excludes a recorded call of ", o.test_id(), " (",
                                why, "); it needs review"));
      }
    }
    SynthesisResult& result = round->result;
    result.jml = jml::PrintAsAnnotationComments(spec);
    // Clause lines of the printed text, in order.
    std::vector<const Line*> clause_lines;
    for (const Line& l : lines) {
      if (l.clause) clause_lines.push_back(&l);
    }
    std::vector<jml::ClauseRef> refs = jml::EnumerateClauses(spec);
    absl::StatusOr<jml::SpecText> printed = jml::ParseSpecText(result.jml, "<synthesized>");
    if (printed.ok()) refs = jml::EnumerateClauses(printed->spec);
    for (size_t k = 0; k < clause_lines.size() && k < refs.size(); ++k) {
      SynthesizedClause c;
      c.case_label = clause_lines[k]->case_label;
      c.text = refs[k].text;
      c.family = clause_lines[k]->family;
      c.support = clause_lines[k]->support;
      c.line = refs[k].span.line;
      result.clauses.push_back(c);
      Line copy = *clause_lines[k];
      copy.text = c.text;
      copy.line = c.line;
      round->clause_lines.push_back(std::move(copy));
    }
    result.stats.clauses = static_cast<int>(result.clauses.size());
    result.hypotheses = hypotheses_;
    if (!result.jml.empty() && result.jml.back() != '\n') result.jml += '\n';
    result.jml += Declaration();
    return absl::OkStatus();
  }

  const prompt::MethodSignature& sig_;
  prompt::MethodSignature declared_;
  const v1::MethodRef& method_;
  const SynthesisOptions& options_;
  const jml::TypeEnvironment* classpath_;
  TautologyTest is_tautology_;
  std::vector<std::string> hypotheses_;
  std::set<std::string> weakened_from_;
};

struct Resolved {
  prompt::MethodSignature sig;
  v1::MethodRef method;
};

// The method of `input`: its signature, else the first observation's.
absl::StatusOr<Resolved> Resolve(const SynthesisInput& input) {
  Resolved out;
  prompt::MethodSignature& sig = out.sig;
  sig = input.signature;
  if (sig.class_name.empty() || sig.method_name.empty()) {
    const v1::Observation* first = nullptr;
    for (const auto* list : {&input.observations, &input.counterexamples}) {
      if (first == nullptr && !list->empty()) first = &list->front();
    }
    if (first == nullptr) {
      return absl::FailedPreconditionError(
          "built-in synthesizer: no observations and no method signature to synthesize from");
    }
    TS_ASSIGN_OR_RETURN(sig, prompt::SignatureFromMethodRef(first->method()));
  }
  if (sig.jvm_descriptor.empty()) {
    for (const v1::Observation& o : input.observations) {
      if (o.method().class_name() == sig.class_name && o.method().name() == sig.method_name) {
        sig.jvm_descriptor = o.method().jvm_descriptor();
        break;
      }
    }
  }
  v1::MethodRef& method = out.method;
  method.set_class_name(sig.class_name);
  method.set_name(sig.method_name);
  method.set_jvm_descriptor(sig.jvm_descriptor);
  method.set_is_static(sig.is_static);
  for (const prompt::Parameter& p : sig.params) method.add_param_names(p.name);
  return out;
}

// Whether a contract may be shaped by `o`: never by a call of a failing
// test (the project's tests say that behaviour is wrong), by an excluded
// one only when the contract stays local (`use_excluded`).
bool LearntFrom(const v1::Observation& o, const SynthesisOptions& options) {
  if (o.test_failed()) return false;
  return !o.excluded() || options.use_excluded;
}

}  // namespace

absl::StatusOr<SynthesisResult> Synthesize(const SynthesisInput& input,
                                           const SynthesisOptions& options,
                                           ConsistencyOracle* oracle) {
  TS_ASSIGN_OR_RETURN(Resolved resolved, Resolve(input));
  const prompt::MethodSignature& sig = resolved.sig;
  const v1::MethodRef& method = resolved.method;
  std::vector<v1::Observation> observations;
  std::set<std::string> seen;
  auto add = [&](const v1::Observation& o, bool counterexample) {
    if (o.has_method() && !MethodMatches(o.method(), sig)) return false;
    if (!LearntFrom(o, options)) return false;
    if (!seen.insert(BehaviourKey(o)).second) return false;
    observations.push_back(o);
    v1::Observation& added = observations.back();
    if (!added.has_method()) *added.mutable_method() = method;
    if (counterexample) {
      added.set_source(v1::COUNTEREXAMPLE);
      StringArgumentsByValue(&added);
    }
    return true;
  };
  for (const v1::Observation& o : input.observations) add(o, false);
  for (const v1::Observation& o : input.counterexamples) add(o, true);
  if (observations.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("built-in synthesizer: no observations of ", sig.class_name, "#",
                     sig.method_name, sig.jvm_descriptor, " to synthesize from"));
  }

  std::set<std::string> banned;
  for (const std::string& b : input.banned) banned.insert(BanKey(b));
  // Notes about what the oracle refuted, by ban key (predicate).
  std::vector<std::pair<std::string, std::string>> dropped;
  std::vector<std::pair<std::string, std::string>> refuted;  // (predicate, family)
  std::map<std::string, int> weakenings;  // refuted guards per predicate
  TautologyTest is_tautology;
  if (oracle != nullptr) {
    is_tautology = [oracle](const jml::Expr& e) { return oracle->IsTautology(e); };
  }
  RoundBuilder builder(sig, method, options, input.classpath, std::move(is_tautology));
  int rounds = 0;
  std::string verdict;
  std::vector<Line> previous;
  while (true) {
    TS_ASSIGN_OR_RETURN(Round round, builder.Build(observations, banned, refuted));
    // Clauses a counterexample made disappear since the last round.
    std::set<std::string> now;
    for (const Line& l : round.clause_lines) now.insert(l.text);
    for (const Line& l : previous) {
      if (!l.ban_key.empty() && l.family != "guard" && l.family != "frame" && !now.count(l.text)) {
        std::string note = absl::StrCat("dropped: `", l.text, "` (", l.case_label,
                                        "): a counterexample of the validator refutes it");
        std::pair<std::string, std::string> entry(l.ban_key, note);
        if (std::find(dropped.begin(), dropped.end(), entry) == dropped.end())
          dropped.push_back(entry);
      }
    }
    auto finish = [&](Round& r) {
      SynthesisResult result = std::move(r.result);
      result.stats.oracle_rounds = rounds;
      result.oracle_verdict = verdict;
      // A refuted clause kept under a guard was weakened, not dropped.
      std::set<std::string> noted;
      for (const auto& [key, note] : dropped) {
        if (builder.weakened_from().count(key) || !noted.insert(key).second) continue;
        result.dropped.push_back(note);
      }
      std::vector<std::string> hyps = result.weakened;
      for (const std::string& d : result.dropped) hyps.push_back(d);
      for (std::string& h : result.hypotheses) hyps.push_back(std::move(h));
      if (static_cast<int>(hyps.size()) > options.max_hypotheses) hyps.resize(options.max_hypotheses);
      result.hypotheses = std::move(hyps);
      return result;
    };
    if (oracle == nullptr) return finish(round);
    if (rounds >= options.max_oracle_rounds) {
      verdict = absl::StrCat("not confirmed: ", rounds, " oracle rounds used");
      return finish(round);
    }
    // A stop asked for by a signal (common/interrupt.h): the oracle's
    // queries would all be cut short, and nothing of this is recorded.
    if (StopSignal() != 0) return absl::CancelledError(StopReason());
    OracleVerdict v = oracle->Check(round.result.jml);
    ++rounds;
    verdict = OracleVerdictName(v.kind);
    if (!v.message.empty()) absl::StrAppend(&verdict, ": ", v.message);
    // A check that ran out of time on a clause (a loop with `%` the solver
    // cannot close): that ensures clause is dropped like a refuted one and
    // the rest checked again, rather than the whole contract left
    // undecided. Other UNKNOWNs end the pruning.
    bool timed_out = v.kind == OracleVerdict::Kind::kUnknown &&
                     absl::StrContains(v.message, "timeout") && !v.failing_clauses.empty();
    if (timed_out) {
      bool any = false;
      for (const jml::SourceSpan& span : v.failing_clauses) {
        for (const Line& l : round.clause_lines) {
          if (l.line != span.line || l.ban_key.empty() || banned.count(l.ban_key) ||
              !l.droppable || !absl::StartsWith(l.text, "ensures "))
            continue;
          banned.insert(l.ban_key);
          any = true;
          dropped.emplace_back(
              l.ban_key, absl::StrCat("dropped: `", l.text, "` (", l.case_label,
                                      "): the validator could not decide it in its time limit: ",
                                      v.message));
        }
      }
      if (any) {
        previous = round.clause_lines;
        continue;
      }
    }
    if (v.kind == OracleVerdict::Kind::kPass || v.kind == OracleVerdict::Kind::kUnknown) {
      return finish(round);
    }
    bool progress = false;
    for (const v1::Observation& c : v.counterexamples) progress |= add(c, true);
    for (const jml::SourceSpan& span : v.failing_clauses) {
      for (const Line& l : round.clause_lines) {
        if (l.line != span.line || l.ban_key.empty() || banned.count(l.ban_key)) continue;
        banned.insert(l.ban_key);
        progress = true;
        // A refuted guard: the predicate is weakened again with all the
        // counterexamples, a few times, then dropped.
        if (!l.weakened_from.empty() && ++weakenings[l.weakened_from] >= kMaxWeakenings) {
          refuted.erase(std::remove_if(refuted.begin(), refuted.end(),
                                       [&](const auto& r) { return r.first == l.weakened_from; }),
                        refuted.end());
        }
        if (v.kind == OracleVerdict::Kind::kFail && !v.counterexamples.empty() && l.droppable &&
            l.weakened_from.empty() &&
            absl::StartsWith(l.text, "ensures ") &&
            (l.case_label == "normal_behavior" || l.case_label == "behavior")) {
          refuted.emplace_back(l.ban_key, l.family);
        }
        dropped.emplace_back(
            l.ban_key,
            absl::StrCat("dropped: `", l.text, "` (", l.case_label, ") was refuted by the ",
                         v.kind == OracleVerdict::Kind::kError
                             ? "validator (it could not be checked)"
                             : "validator",
                         v.message.empty() ? "" : absl::StrCat(": ", v.message)));
      }
    }
    if (!progress) {
      verdict = absl::StrCat(verdict, " (no further pruning possible)");
      return finish(round);
    }
    previous = round.clause_lines;
  }
}

absl::StatusOr<std::optional<ClauseGuard>> GuardRefutedClause(const SynthesisInput& input,
                                                              const std::string& predicate,
                                                              const SynthesisOptions& options,
                                                              const TautologyTest& is_tautology) {
  TS_ASSIGN_OR_RETURN(Resolved resolved, Resolve(input));
  std::vector<v1::Observation> observations;
  std::set<std::string> seen;
  for (const auto* list : {&input.observations, &input.counterexamples}) {
    for (const v1::Observation& o : *list) {
      if (o.has_method() && !MethodMatches(o.method(), resolved.sig)) continue;
      if (!LearntFrom(o, options)) continue;
      if (OutcomeOf(o) != OutcomeKind::kNormal || !seen.insert(BehaviourKey(o)).second) continue;
      observations.push_back(o);
      if (!observations.back().has_method()) *observations.back().mutable_method() = resolved.method;
      if (list == &input.counterexamples) observations.back().set_source(v1::COUNTEREXAMPLE);
    }
  }
  if (observations.empty()) return std::nullopt;
  TS_ASSIGN_OR_RETURN(std::unique_ptr<Workspace> ws,
                      Workspace::Create(resolved.sig, resolved.method, options, input.classpath,
                                        observations));
  SynthContext& ctx = *ws->ctx;
  const jml::Expr* e = ctx.Compile(BanKey(predicate), Position::kPostcondition);
  if (e == nullptr) return std::nullopt;
  std::string canonical = jml::PrintExpr(*e);
  std::vector<size_t> positives, negatives;
  for (size_t i = 0; i < ctx.size(); ++i) {
    bool counterexample = ctx.observations()[i].source() == v1::COUNTEREXAMPLE;
    Truth t = ctx.Truth(*e, i, jml::EvalState::kPost);
    if (t != Truth::kFalse) {
      if (!counterexample) positives.push_back(i);
    } else if (counterexample) {
      negatives.push_back(i);
    } else {
      return std::nullopt;  // a recorded call refutes it
    }
  }
  if (positives.empty() || negatives.empty()) return std::nullopt;
  std::set<std::string> banned;
  for (const std::string& b : input.banned) banned.insert(BanKey(b));
  std::optional<Guard> guard =
      FindWeakeningGuard(&ctx, ws->vocab, canonical, positives, negatives, banned);
  if (!guard || guard->post.empty()) return std::nullopt;
  const jml::Expr* g = ctx.Compile(Paren(guard->post), Position::kPostcondition);
  const jml::Expr* weakened = ctx.Compile(
      absl::StrCat(Paren(guard->post), " ==> ", Paren(canonical)), Position::kPostcondition);
  if (g == nullptr || weakened == nullptr) return std::nullopt;
  // Under a guard that is P's own consequent P says nothing: P is wrong,
  // not too strong (another guard would only fit the few counterexamples).
  if (is_tautology && is_tautology(*weakened)) return std::nullopt;
  return ClauseGuard{jml::PrintExpr(*g), jml::PrintExpr(*weakened), guard->threshold};
}

std::string AnswerJson(const SynthesisResult& result) {
  v1::ModelAnswer answer;
  answer.set_contract(result.jml);
  for (const std::string& h : result.hypotheses) answer.add_hypotheses(h);
  std::string out;
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  if (!google::protobuf::util::MessageToJsonString(answer, &out, options).ok()) return "";
  return out;
}

}  // namespace tracespec::synth

// Terms and atoms of the built-in synthesizer; see vocabulary.h.
#include "agent/synth/vocabulary.h"

#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"

namespace tracespec::synth {

using jml::EvalState;
using jml::EvalValue;
using jml::Truth;
using jml::Type;
using Position = jml::TypeChecker::Position;

std::string At(const std::string& pattern, const std::string& index) {
  return absl::StrReplaceAll(pattern, {{"@", index}});
}

namespace {

class Builder {
 public:
  Builder(SynthContext* ctx, const VocabularyOptions& options) : ctx_(ctx), options_(options) {
    for (size_t i = 0; i < ctx_->size(); ++i) {
      if (OutcomeOf(ctx_->observations()[i]) == OutcomeKind::kNormal) normal_.push_back(i);
    }
  }

  Vocabulary Build() {
    const jml::MethodContext& m = ctx_->method();
    bool ctor = m.method.is_constructor;
    std::set<std::string> param_names(m.param_names.begin(), m.param_names.end());
    // Parameters.
    for (size_t i = 0; i < m.param_names.size() && i < m.method.params.size(); ++i) {
      const std::string& p = m.param_names[i];
      const Type& t = m.method.params[i];
      if (IsScalarType(t)) {
        AddTerm(TermShape::kScalar, p, p, t, true, "");
      } else if (IsStringType(t)) {
        AddTerm(TermShape::kString, p, p, t, true, "");
        AddTerm(TermShape::kScalar, absl::StrCat(p, ".length()"), absl::StrCat(p, ".length()"),
                Type::Int(), true, "");
      } else if (t.IsArray()) {
        AddTerm(TermShape::kReference, p, p, t, true, "");
        ArrayTerm a;
        a.name = p;
        a.element = absl::StrCat(p, "[@]");
        a.old_element = absl::StrCat("\\old(", p, "[@])");
        a.pre_element = a.element;
        a.length = a.old_length = a.pre_length = absl::StrCat(p, ".length");
        a.element_type = t.ElementType();
        a.input = true;
        a.output = true;
        AddArray(std::move(a));
        AddTerm(TermShape::kScalar, absl::StrCat(p, ".length"), absl::StrCat(p, ".length"),
                Type::Int(), true, "");
      } else if (t.IsClass()) {
        AddTerm(TermShape::kReference, p, p, t, true, "");
        AddObjectFields(t.class_name(), p, /*pre=*/true);
      }
    }
    // Receiver fields.
    if (!m.method.is_static) {
      const jml::ClassInfo* cls = ctx_->env().FindClass(m.class_name);
      if (cls != nullptr) {
        for (const jml::FieldInfo& f : cls->fields) {
          if (f.is_static || f.name.find('$') != std::string::npos) continue;
          std::string name = param_names.count(f.name) ? absl::StrCat("this.", f.name) : f.name;
          AddField(f, name, /*pre=*/!ctor);
        }
        if (!ctor) AddTopElements(*cls, param_names);
      }
    }
    // The result.
    const Type& r = m.method.result;
    if (!ctor && !r.IsVoid()) {
      if (IsScalarType(r)) {
        AddTerm(TermShape::kScalar, "\\result", "", r, false, "");
      } else if (IsStringType(r)) {
        AddTerm(TermShape::kString, "\\result", "", r, false, "");
        AddTerm(TermShape::kScalar, "\\result.length()", "", Type::Int(), false,
                "\\result != null");
      } else if (r.IsArray()) {
        AddTerm(TermShape::kReference, "\\result", "", r, false, "");
        ArrayTerm a;
        a.name = "\\result";
        a.element = "\\result[@]";
        a.length = a.old_length = "\\result.length";
        a.element_type = r.ElementType();
        a.output = true;
        a.changes = true;
        a.is_result = true;
        // An array of objects (an enum's values()) has no element terms.
        bool added = AddArray(std::move(a));
        AddTerm(TermShape::kScalar, "\\result.length", "", Type::Int(), false, "");
        // A result of one fixed, small length is a tuple: its elements get
        // terms of their own (\result[0] == celsius + 273.15).
        int fixed = FixedLength("\\result.length");
        if (added && fixed > 0 && fixed <= options_.max_indexed_elements) {
          vocab_.arrays.back().tuple = true;
        }
        if (IsScalarType(r.ElementType()) && fixed > 0) {
          for (int k = 0; k < fixed && k < options_.max_indexed_elements; ++k) {
            AddTerm(TermShape::kScalar, absl::StrCat("\\result[", k, "]"), "", r.ElementType(),
                    false, absl::StrCat("\\result != null && \\result.length >= ", k + 1));
          }
        }
      } else if (r.IsClass()) {
        AddTerm(TermShape::kReference, "\\result", "", r, false, "");
        AddEnumResults(r.class_name());
        AddObjectFields(r.class_name(), "\\result", /*pre=*/false);
      }
    }
    ComputeChanges();
    BuildKeys();
    BuildAtoms();
    BuildGuardAtoms();
    return std::move(vocab_);
  }

 private:
  std::vector<EvalValue> Values(const std::string& text, Position position, EvalState at) {
    std::vector<EvalValue> out;
    const jml::Expr* e = ctx_->Compile(text, position);
    if (e == nullptr) return out;
    for (size_t i = 0; i < ctx_->size(); ++i) out.push_back(ctx_->Value(*e, i, at));
    return out;
  }

  bool AddTerm(TermShape shape, const std::string& text, const std::string& pre_text,
               const Type& type, bool input, const std::string& guard) {
    if (static_cast<int>(vocab_.terms.size()) >= options_.max_terms) return false;
    if (ctx_->Compile(text, Position::kPostcondition) == nullptr) return false;
    if (input && !pre_text.empty() && ctx_->Compile(pre_text, Position::kPrecondition) == nullptr)
      return false;
    Term t;
    t.shape = shape;
    t.text = text;
    t.pre_text = pre_text;
    t.type = type;
    t.input = input;
    t.guard = guard;
    t.changes = !input && text.rfind("\\result", 0) == 0;
    t.values = Values(text, Position::kPostcondition, EvalState::kPost);
    bool any = false;
    for (const EvalValue& v : t.values) any |= v.known();
    if (!any) return false;
    vocab_.terms.push_back(std::move(t));
    return true;
  }

  // The length all normal observations agree on (0 when they do not).
  int FixedLength(const std::string& text) {
    const jml::Expr* e = ctx_->Compile(text, Position::kPostcondition);
    if (e == nullptr) return 0;
    int length = -1;
    for (size_t i : normal_) {
      EvalValue v = ctx_->Value(*e, i, EvalState::kPost);
      if (v.kind != EvalValue::Kind::kInt || (length >= 0 && v.i != length)) return 0;
      length = static_cast<int>(v.i);
    }
    return length < 0 ? 0 : length;
  }

  // False when the array gets no terms (its length does not compile, or its
  // elements are objects).
  bool AddArray(ArrayTerm a) {
    if (ctx_->Compile(a.length, Position::kPostcondition) == nullptr) return false;
    if (!IsScalarType(a.element_type) && !IsStringType(a.element_type)) return false;
    vocab_.arrays.push_back(std::move(a));
    return true;
  }

  // Scalar and string fields of objects of class `cls` reached through
  // `base` (a parameter or \result).
  // An enum result: a boolean term `\result == E.C` per constant C some
  // call returned, so that the boolean templates say when each is returned
  // (`\result == E.HIGH <==> x > 100`). Constants no call returned get no
  // term (an enum of fifty constants would use up the terms).
  void AddEnumResults(const std::string& cls) {
    const jml::ClassInfo* info = ctx_->env().FindClass(cls);
    if (info == nullptr) return;
    const std::string java_name = absl::StrReplaceAll(cls, {{"$", "."}});
    for (const jml::FieldInfo& f : info->fields) {
      if (!f.is_enum_constant) continue;
      if (!AddTerm(TermShape::kScalar, absl::StrCat("\\result == ", java_name, ".", f.name), "",
                   Type::Boolean(), false, "")) {
        continue;
      }
      bool returned = false;
      for (const EvalValue& v : vocab_.terms.back().values) returned |= v.truth() == jml::Truth::kTrue;
      if (!returned) vocab_.terms.pop_back();
    }
  }

  void AddObjectFields(const std::string& cls, const std::string& base, bool pre) {
    const jml::ClassInfo* info = ctx_->env().FindClass(cls);
    if (info == nullptr) return;
    for (const jml::FieldInfo& f : info->fields) {
      if (f.is_static || f.name.find('$') != std::string::npos) continue;
      std::string post = absl::StrCat(base, ".", f.name);
      TermShape shape;
      if (IsScalarType(f.type)) {
        shape = TermShape::kScalar;
      } else if (IsStringType(f.type)) {
        shape = TermShape::kString;
      } else {
        continue;
      }
      if (pre) AddTerm(shape, absl::StrCat("\\old(", post, ")"), post, f.type, true, "");
      AddTerm(shape, post, "", f.type, false, "");
    }
  }

  void AddField(const jml::FieldInfo& f, const std::string& name, bool pre) {
    const Type& t = f.type;
    std::string old = absl::StrCat("\\old(", name, ")");
    if (IsScalarType(t) || IsStringType(t)) {
      TermShape shape = IsStringType(t) ? TermShape::kString : TermShape::kScalar;
      if (pre) AddTerm(shape, old, name, t, true, "");
      AddTerm(shape, name, "", t, false, "");
    } else if (t.IsArray()) {
      if (pre) AddTerm(TermShape::kReference, old, name, t, true, "");
      AddTerm(TermShape::kReference, name, "", t, false, "");
      ArrayTerm a;
      a.name = name;
      a.element = absl::StrCat(name, "[@]");
      a.old_element = absl::StrCat("\\old(", name, "[@])");
      a.pre_element = pre ? a.element : "";
      a.length = absl::StrCat(name, ".length");
      a.old_length = pre ? absl::StrCat("\\old(", name, ".length)") : a.length;
      a.pre_length = pre ? a.length : "";
      a.element_type = t.ElementType();
      a.input = pre;
      a.output = true;
      std::string old_length = a.old_length, pre_length = a.pre_length;
      AddArray(std::move(a));
      if (pre) AddTerm(TermShape::kScalar, old_length, pre_length, Type::Int(), true, "");
      AddTerm(TermShape::kScalar, absl::StrCat(name, ".length"), "", Type::Int(), false, "");
    } else if (t.IsClass()) {
      if (pre) AddTerm(TermShape::kReference, old, name, t, true, "");
      AddTerm(TermShape::kReference, name, "", t, false, "");
    }
  }

  // The element of an array field just below an int field of the receiver
  // — a stack's top, the last slot a count covers: `\old(items[size - 1])`
  // (what peek and pop return) and `items[size - 1]` (what push stored).
  // Undefined where the count is 0; the validator decides whether a clause
  // over it is defined (an object invariant bounding the count makes it so).
  void AddTopElements(const jml::ClassInfo& cls, const std::set<std::string>& param_names) {
    auto name_of = [&](const jml::FieldInfo& f) {
      return param_names.count(f.name) ? absl::StrCat("this.", f.name) : f.name;
    };
    for (const jml::FieldInfo& a : cls.fields) {
      if (a.is_static || a.name.find('$') != std::string::npos || !a.type.IsArray()) continue;
      const Type element = a.type.ElementType();
      if (!IsScalarType(element)) continue;
      for (const jml::FieldInfo& n : cls.fields) {
        if (n.is_static || n.name.find('$') != std::string::npos || !n.type.Is(Type::Kind::kInt)) {
          continue;
        }
        std::string top = absl::StrCat(name_of(a), "[", name_of(n), " - 1]");
        AddTerm(TermShape::kScalar, absl::StrCat("\\old(", top, ")"), top, element, true, "");
        AddTerm(TermShape::kScalar, top, "", element, false, "");
      }
    }
  }

  // Which outputs change: a field term differs from its \old on some normal
  // observation; array contents differ between the states.
  void ComputeChanges() {
    std::map<std::string, const Term*> by_text;
    for (const Term& t : vocab_.terms) by_text[t.text] = &t;
    for (Term& t : vocab_.terms) {
      if (t.input || t.changes) continue;
      auto it = by_text.find(absl::StrCat("\\old(", t.text, ")"));
      if (it == by_text.end()) {
        t.changes = true;  // no pre-state counterpart (constructors, fields of \result)
        continue;
      }
      for (size_t i : normal_) {
        const EvalValue& a = t.values[i];
        const EvalValue& b = it->second->values[i];
        if (a.known() && b.known() && !a.Identical(b)) {
          t.changes = true;
          break;
        }
      }
    }
    for (ArrayTerm& a : vocab_.arrays) {
      if (a.is_result || !a.input) {
        a.changes = true;
        continue;
      }
      const jml::Expr* len = ctx_->Compile(a.length, Position::kPostcondition);
      for (size_t i : normal_) {
        EvalValue n = ctx_->Value(*len, i, EvalState::kPost);
        __int128 count;
        if (!n.AsInteger(&count)) continue;
        for (int k = 0; k < count && k < 64 && !a.changes; ++k) {
          const jml::Expr* now = ctx_->Compile(At(a.element, std::to_string(k)),
                                               Position::kPostcondition);
          const jml::Expr* then = ctx_->Compile(At(a.old_element, std::to_string(k)),
                                                Position::kPostcondition);
          if (now == nullptr || then == nullptr) break;
          EvalValue x = ctx_->Value(*now, i, EvalState::kPost);
          EvalValue y = ctx_->Value(*then, i, EvalState::kPost);
          if (x.known() && y.known() && !x.Identical(y)) a.changes = true;
        }
        if (a.changes) break;
      }
    }
  }

  void BuildKeys() {
    vocab_.term_keys.resize(vocab_.terms.size());
    vocab_.input_keys.assign(ctx_->size(), "");
    for (size_t t = 0; t < vocab_.terms.size(); ++t) {
      const Term& term = vocab_.terms[t];
      if (!term.input) continue;
      for (size_t i = 0; i < ctx_->size(); ++i) {
        const EvalValue& v = term.values[i];
        std::string key = v.DebugString();
        vocab_.term_keys[t].push_back(key);
        // Object identities tell calls apart only for clauses about that
        // object (this.audit == audit); for the rest, another object with
        // the same contents is the same input.
        absl::StrAppend(&vocab_.input_keys[i], v.kind == EvalValue::Kind::kRef ? "ref" : key, ";");
      }
    }
    // Array contents count as inputs too.
    for (const ArrayTerm& a : vocab_.arrays) {
      if (!a.input) continue;
      const jml::Expr* len = ctx_->Compile(a.old_length, Position::kPostcondition);
      for (size_t i = 0; i < ctx_->size(); ++i) {
        std::string key = "[";
        EvalValue n = len ? ctx_->Value(*len, i, EvalState::kPost) : EvalValue();
        __int128 count = 0;
        if (n.AsInteger(&count)) {
          for (int k = 0; k < count && k < 16; ++k) {
            const jml::Expr* el =
                ctx_->Compile(At(a.old_element, std::to_string(k)), Position::kPostcondition);
            if (el) absl::StrAppend(&key, ctx_->Value(*el, i, EvalState::kPost).DebugString(), ",");
          }
        }
        absl::StrAppend(&vocab_.input_keys[i], key, "];");
      }
    }
  }

  // A char input: its classes as ranges the validator checks ('a' <= c &&
  // c <= 'z', upper case, digits), then equality with each observed value
  // when there are few (an operator: op == '/').
  void CharAtoms(const Term& t, int family, int* order) {
    auto lit = [](uint32_t c) -> std::string {
      if (c < 0x20 || c > 0x7e || c == '\'' || c == '\\') return "";
      return absl::StrCat("'", std::string(1, static_cast<char>(c)), "'");
    };
    static const std::pair<char, char> kClasses[] = {{'a', 'z'}, {'A', 'Z'}, {'0', '9'}};
    for (auto [lo, hi] : kClasses) {
      auto in = [&](const std::string& x) {
        return absl::StrCat(x, " >= ", lit(lo), " && ", x, " <= ", lit(hi));
      };
      auto out = [&](const std::string& x) {
        return absl::StrCat(x, " < ", lit(lo), " || ", x, " > ", lit(hi));
      };
      AddAtom(in(t.pre_text), in(t.text), out(t.pre_text), out(t.text), family, (*order)++);
    }
    // Values of the recorded calls: the validator's counterexamples pick
    // arbitrary characters and must not crowd out the operators.
    std::set<uint32_t> seen;
    for (size_t i = 0; i < t.values.size(); ++i) {
      const EvalValue& v = t.values[i];
      __int128 c;
      if (ctx_->observations()[i].source() != v1::COUNTEREXAMPLE && v.known() &&
          v.AsInteger(&c))
        seen.insert(static_cast<uint32_t>(c));
    }
    if (seen.size() < 2 || seen.size() > 6) return;
    for (uint32_t c : seen) {
      std::string l = lit(c);
      if (l.empty()) continue;
      AddAtom(absl::StrCat(t.pre_text, " == ", l), absl::StrCat(t.text, " == ", l),
              absl::StrCat(t.pre_text, " != ", l), absl::StrCat(t.text, " != ", l), family,
              (*order)++);
    }
  }

  void AddAtom(const std::string& pre, const std::string& post, const std::string& neg_pre,
               const std::string& neg_post, int family, int order, bool noteworthy = false,
               bool edge = false) {
    std::vector<Atom>& sink = guard_only_ ? vocab_.guard_atoms : vocab_.atoms;
    int limit = guard_only_ ? options_.max_guard_atoms : options_.max_atoms;
    if (static_cast<int>(sink.size()) >= limit) return;
    if (!seen_atoms_.insert(pre).second) return;
    const jml::Expr* e = ctx_->Compile(pre, Position::kPrecondition);
    if (e == nullptr) return;
    Atom a;
    a.pre = pre;
    a.post = post;
    a.neg_pre = neg_pre;
    a.neg_post = neg_post;
    a.family = family;
    a.order = order;
    a.noteworthy = noteworthy;
    a.edge = edge;
    bool has_true = false, has_false = false;
    for (size_t i = 0; i < ctx_->size(); ++i) {
      Truth t = ctx_->Truth(*e, i, EvalState::kPre);
      has_true |= t == Truth::kTrue;
      has_false |= t == Truth::kFalse;
      a.truth.push_back(t);
    }
    a.splits = has_true && has_false;
    if (!has_true) return;
    sink.push_back(std::move(a));
  }

  static std::string Paren(const std::string& s) { return absl::StrCat("(", s, ")"); }

  // Edges of the input domain, in both polarities (a guard needs the one
  // true on the kept calls): NaN and infinities of floating-point inputs,
  // MIN_VALUE of int/long inputs (where negation overflows), and sums,
  // differences and products of two int inputs that leave the int range
  // (written with (long) arithmetic). Only where some observation or
  // counterexample sits on the edge, so they cost nothing otherwise.
  void BuildEdgeAtoms(const std::vector<const Term*>& inputs, int* family, int* order) {
    auto pair = [&](const std::string& on, const std::string& on_post, const std::string& off,
                    const std::string& off_post, const std::string& expr = "") {
      size_t before = vocab_.atoms.size();
      AddAtom(on, on_post, off, off_post, *family, (*order)++, false, /*edge=*/true);
      if (vocab_.atoms.size() == before) return;  // nothing sits on the edge
      AddAtom(off, off_post, on, on_post, *family, (*order)++, false, /*edge=*/true);
      for (size_t k = before; k < vocab_.atoms.size(); ++k) vocab_.atoms[k].edge_expr = expr;
    };
    for (const Term* t : inputs) {
      if (t->shape != TermShape::kScalar) continue;
      if (IsFloatingType(t->type)) {
        const char* box = t->type.Is(Type::Kind::kFloat) ? "Float" : "Double";
        ++*family;
        pair(absl::StrCat(box, ".isNaN(", t->pre_text, ")"),
             absl::StrCat(box, ".isNaN(", t->text, ")"),
             absl::StrCat("!", box, ".isNaN(", t->pre_text, ")"),
             absl::StrCat("!", box, ".isNaN(", t->text, ")"));
        ++*family;
        pair(absl::StrCat(box, ".isInfinite(", t->pre_text, ")"),
             absl::StrCat(box, ".isInfinite(", t->text, ")"),
             absl::StrCat("!", box, ".isInfinite(", t->pre_text, ")"),
             absl::StrCat("!", box, ".isInfinite(", t->text, ")"));
        ++*family;
        pair(absl::StrCat("!", box, ".isFinite(", t->pre_text, ")"),
             absl::StrCat("!", box, ".isFinite(", t->text, ")"),
             absl::StrCat(box, ".isFinite(", t->pre_text, ")"),
             absl::StrCat(box, ".isFinite(", t->text, ")"));
      } else if (t->type.Is(Type::Kind::kInt) || t->type.Is(Type::Kind::kLong)) {
        const char* min = t->type.Is(Type::Kind::kLong) ? "Long.MIN_VALUE" : "Integer.MIN_VALUE";
        ++*family;
        pair(absl::StrCat(t->pre_text, " == ", min), absl::StrCat(t->text, " == ", min),
             absl::StrCat(t->pre_text, " != ", min), absl::StrCat(t->text, " != ", min));
      }
    }
    for (size_t a = 0; a < inputs.size(); ++a) {
      for (size_t b = a + 1; b < inputs.size(); ++b) {
        const Term* x = inputs[a];
        const Term* y = inputs[b];
        if (x->shape != TermShape::kScalar || y->shape != TermShape::kScalar) continue;
        if (!x->type.Is(Type::Kind::kInt) || !y->type.Is(Type::Kind::kInt)) continue;
        // (Products are left out: non-linear guards are slow to check.)
        for (const char* op : {"+", "-"}) {
          ++*family;
          auto range = [&](const std::string& px, const std::string& py) {
            std::string e = absl::StrCat("(long) ", px, " ", op, " ", py);
            return absl::StrCat("Integer.MIN_VALUE <= ", e, " && ", e, " <= Integer.MAX_VALUE");
          };
          std::string in_pre = range(x->pre_text, y->pre_text);
          std::string in_post = range(x->text, y->text);
          pair(absl::StrCat("!(", in_pre, ")"), absl::StrCat("!(", in_post, ")"), in_pre,
               in_post, absl::StrCat(x->text, " ", op, " ", y->text));
        }
      }
    }
  }

  void BuildAtoms() {
    struct Op {
      const char* op;
      const char* neg;
    };
    // Largest region first: a guard search that finds several separating
    // atoms of one family takes the first (see guards.cpp).
    static const Op kOps[] = {{"!=", "=="}, {"<=", ">"}, {">=", "<"},
                              {"<", ">="},  {">", "<="}, {"==", "!="}};
    std::vector<const Term*> inputs;
    bool boolean_output = false;
    for (const Term& t : vocab_.terms) {
      if (t.input && !t.pre_text.empty()) inputs.push_back(&t);
      if (!t.input && t.shape == TermShape::kScalar && t.type.IsBoolean()) boolean_output = true;
    }
    int family = 0;
    int order = 0;
    // Comparisons with zero and boolean inputs.
    for (const Term* t : inputs) {
      ++family;
      if (t->shape == TermShape::kScalar && t->type.IsBoolean()) {
        AddAtom(t->pre_text, t->text, absl::StrCat("!", t->pre_text), absl::StrCat("!", t->text),
                family, order++);
        continue;
      }
      if (t->shape == TermShape::kScalar && IsNumericType(t->type) &&
          !t->type.Is(Type::Kind::kChar)) {
        std::string zero = t->type.Is(Type::Kind::kFloat)    ? "0.0f"
                           : t->type.Is(Type::Kind::kDouble) ? "0.0"
                                                             : "0";
        for (const Op& op : kOps) {
          AddAtom(absl::StrCat(t->pre_text, " ", op.op, " ", zero),
                  absl::StrCat(t->text, " ", op.op, " ", zero),
                  absl::StrCat(t->pre_text, " ", op.neg, " ", zero),
                  absl::StrCat(t->text, " ", op.neg, " ", zero), family, order++);
        }
        continue;
      }
      if (t->shape == TermShape::kScalar && t->type.Is(Type::Kind::kChar)) {
        CharAtoms(*t, family, &order);
        continue;
      }
      if (t->shape != TermShape::kScalar) {
        bool has_null = false;
        for (const EvalValue& v : t->values) has_null |= v.kind == EvalValue::Kind::kNull;
        if (has_null) {
          AddAtom(absl::StrCat(t->pre_text, " == null"), absl::StrCat(t->text, " == null"),
                  absl::StrCat(t->pre_text, " != null"), absl::StrCat(t->text, " != null"),
                  family, order++);
        }
      }
    }
    // Array predicates.
    for (const ArrayTerm& a : vocab_.arrays) {
      if (!a.input || a.pre_element.empty()) continue;
      ++family;
      std::string post_el = a.changes ? a.old_element : a.element;
      std::string post_len = a.changes ? a.old_length : a.length;
      auto forall = [](const std::string& len, const std::string& body, bool pairs) {
        // Pairs bound $i by len - 1: `$i + 1 < len` wraps at Integer.MAX_VALUE.
        return absl::StrCat("(\\forall int $i; 0 <= $i && $i < ", len, pairs ? " - 1" : "", "; ",
                            body, ")");
      };
      auto exists = [](const std::string& len, const std::string& body) {
        return absl::StrCat("(\\exists int $i; 0 <= $i && $i < ", len, "; ", body, ")");
      };
      if (IsNumericType(a.element_type)) {
        for (const char* op : {"<=", "<", ">=", ">"}) {
          std::string pre = forall(a.pre_length,
                                   absl::StrCat(At(a.pre_element, "$i"), " ", op, " ",
                                                At(a.pre_element, "$i + 1")),
                                   true);
          std::string post = forall(
              post_len, absl::StrCat(At(post_el, "$i"), " ", op, " ", At(post_el, "$i + 1")), true);
          AddAtom(pre, post, absl::StrCat("!", pre), absl::StrCat("!", post), family, order++,
                  /*noteworthy=*/true);
        }
        for (const char* op : {"> 0", ">= 0", "== 0"}) {
          std::string pre = forall(a.pre_length, absl::StrCat(At(a.pre_element, "$i"), " ", op),
                                   false);
          std::string post = forall(post_len, absl::StrCat(At(post_el, "$i"), " ", op), false);
          AddAtom(pre, post, absl::StrCat("!", pre), absl::StrCat("!", post), family, order++);
        }
        // Some element beyond a numeric input, or below it ("any reading
        // above the limit"); the negations are the bounds on every element.
        for (const Term* t : inputs) {
          if (t->shape != TermShape::kScalar || !IsNumericType(t->type) ||
              t->text == a.length || t->text == a.old_length) {
            continue;
          }
          for (const char* op : {">", ">=", "<", "<="}) {
            std::string pre = exists(
                a.pre_length, absl::StrCat(At(a.pre_element, "$i"), " ", op, " ", t->pre_text));
            std::string post =
                exists(post_len, absl::StrCat(At(post_el, "$i"), " ", op, " ", t->text));
            AddAtom(pre, post, absl::StrCat("!", pre), absl::StrCat("!", post), family, order++);
          }
        }
      }
      if (IsScalarType(a.element_type)) {
        std::string pre = forall(a.pre_length,
                                 absl::StrCat(At(a.pre_element, "$i"), " == ",
                                              At(a.pre_element, absl::StrCat(a.pre_length,
                                                                             " - 1 - $i"))),
                                 false);
        std::string post = forall(
            post_len,
            absl::StrCat(At(post_el, "$i"), " == ", At(post_el, absl::StrCat(post_len, " - 1 - $i"))),
            false);
        AddAtom(pre, post, absl::StrCat("!", pre), absl::StrCat("!", post), family, order++);
        std::string dup_pre = absl::StrCat(
            "(\\exists int $i, $j; 0 <= $i && $i < $j && $j < ", a.pre_length, "; ",
            At(a.pre_element, "$i"), " == ", At(a.pre_element, "$j"), ")");
        std::string dup_post = absl::StrCat("(\\exists int $i, $j; 0 <= $i && $i < $j && $j < ",
                                            post_len, "; ", At(post_el, "$i"), " == ",
                                            At(post_el, "$j"), ")");
        AddAtom(dup_pre, dup_post, absl::StrCat("!", dup_pre), absl::StrCat("!", dup_post),
                family, order++);
        for (const Term* t : inputs) {
          if (t->shape != TermShape::kScalar || t->text == a.length || t->text == a.old_length)
            continue;
          bool compatible = (IsNumericType(t->type) && IsNumericType(a.element_type)) ||
                            (t->type.IsBoolean() && a.element_type.IsBoolean());
          if (!compatible) continue;
          std::string pre2 =
              exists(a.pre_length, absl::StrCat(At(a.pre_element, "$i"), " == ", t->pre_text));
          std::string post2 = exists(post_len, absl::StrCat(At(post_el, "$i"), " == ", t->text));
          AddAtom(pre2, post2, absl::StrCat("!", pre2), absl::StrCat("!", post2), family,
                  order++);
        }
      }
    }
    // String predicates.
    for (const Term* t : inputs) {
      if (t->shape != TermShape::kString) continue;
      ++family;
      auto pal = [](const std::string& s) {
        return absl::StrCat("(\\forall int $i; 0 <= $i && $i < ", s, ".length(); ", s,
                            ".charAt($i) == ", s, ".charAt(", s, ".length() - 1 - $i))");
      };
      AddAtom(pal(t->pre_text), pal(t->text), absl::StrCat("!", pal(t->pre_text)),
              absl::StrCat("!", pal(t->text)), family, order++);
    }
    // Comparisons between inputs (many: room is kept for the number
    // predicates after them).
    int reserve = 0;
    for (const Term* t : inputs) {
      reserve += t->shape == TermShape::kScalar && IsIntegralType(t->type) ? 2 : 0;
    }
    for (size_t a = 0; a < inputs.size(); ++a) {
      for (size_t b = a + 1; b < inputs.size(); ++b) {
        const Term* x = inputs[a];
        const Term* y = inputs[b];
        if (x->shape != TermShape::kScalar || y->shape != TermShape::kScalar) continue;
        if (x->type.IsBoolean() && y->type.IsBoolean()) {
          // Two flags: whether they differ (exclusive or) or agree.
          ++family;
          for (const Op& op : {Op{"!=", "=="}, Op{"==", "!="}}) {
            AddAtom(absl::StrCat(x->pre_text, " ", op.op, " ", y->pre_text),
                    absl::StrCat(x->text, " ", op.op, " ", y->text),
                    absl::StrCat(x->pre_text, " ", op.neg, " ", y->pre_text),
                    absl::StrCat(x->text, " ", op.neg, " ", y->text), family, order++);
          }
          continue;
        }
        if (!IsNumericType(x->type) || !IsNumericType(y->type)) continue;
        ++family;
        for (const Op& op : kOps) {
          if (static_cast<int>(vocab_.atoms.size()) + reserve >= options_.max_atoms) break;
          AddAtom(absl::StrCat(x->pre_text, " ", op.op, " ", y->pre_text),
                  absl::StrCat(x->text, " ", op.op, " ", y->text),
                  absl::StrCat(x->pre_text, " ", op.neg, " ", y->pre_text),
                  absl::StrCat(x->text, " ", op.neg, " ", y->text), family, order++);
        }
      }
    }
    BuildEdgeAtoms(inputs, &family, &order);
    // Number predicates.
    for (const Term* t : inputs) {
      if (t->shape != TermShape::kScalar || !IsIntegralType(t->type)) continue;
      if (absl::EndsWith(t->text, ".length") || absl::EndsWith(t->text, ".length)") ||
          absl::EndsWith(t->text, ".length()"))
        continue;  // properties of lengths are coincidences, not contracts
      ++family;
      const char* var = t->type.Is(Type::Kind::kLong) ? "long" : "int";
      AddAtom(absl::StrCat(t->pre_text, " % 2 == 0"), absl::StrCat(t->text, " % 2 == 0"),
              absl::StrCat(t->pre_text, " % 2 != 0"), absl::StrCat(t->text, " % 2 != 0"), family,
              order++);
      auto prime = [&](const std::string& x) {
        return absl::StrCat(x, " > 1 && (\\forall ", var, " $d; 2 <= $d && $d < ", x, "; ", x,
                            " % $d != 0)");
      };
      // Primality costs a loop up to the value: only for boolean results
      // (isPrime) and moderate values.
      bool moderate = true;
      for (const EvalValue& v : t->values) {
        __int128 x;
        if (v.AsInteger(&x) && (x > 1000000 || x < -1000000)) moderate = false;
      }
      if (!boolean_output || !moderate) continue;
      AddAtom(prime(t->pre_text), prime(t->text), absl::StrCat("!", Paren(prime(t->pre_text))),
              absl::StrCat("!", Paren(prime(t->text))), family, order++);
    }
  }

  // See Vocabulary::guard_atoms. Only where some call threw: the guards
  // of exceptional cases are all they are for.
  void BuildGuardAtoms() {
    bool thrown = false;
    for (size_t i = 0; i < ctx_->size(); ++i)
      thrown |= OutcomeOf(ctx_->observations()[i]) == OutcomeKind::kThrown;
    if (!thrown) return;
    guard_only_ = true;
    int family = static_cast<int>(vocab_.atoms.size()) + 1;  // past every family of `atoms`
    int order = family;
    std::vector<const Term*> integral, strings;
    for (const Term& t : vocab_.terms) {
      if (!t.input || t.pre_text.empty()) continue;
      if (t.shape == TermShape::kString) strings.push_back(&t);
      if (t.shape == TermShape::kScalar &&
          (t.type.Is(Type::Kind::kInt) || t.type.Is(Type::Kind::kLong)))
        integral.push_back(&t);
    }
    // A String input with a character that is not a decimal digit (a
    // parser's NumberFormatException); its negation: digits only.
    for (const Term* t : strings) {
      ++family;
      std::string s = t->pre_text, sp = t->text;
      auto some = [](const std::string& x) {
        return absl::StrCat("(\\exists int $i; 0 <= $i && $i < ", x, ".length(); ", x,
                            ".charAt($i) < '0' || ", x, ".charAt($i) > '9')");
      };
      auto all = [](const std::string& x) {
        return absl::StrCat("(\\forall int $i; 0 <= $i && $i < ", x, ".length(); ", x,
                            ".charAt($i) >= '0' && ", x, ".charAt($i) <= '9')");
      };
      AddAtom(some(s), some(sp), all(s), all(sp), family, order++);
    }
    // x + y compared with z, for integral inputs of one type: the end of
    // a range (`off + len > n`). Largest region first, as in BuildAtoms.
    struct Op {
      const char* op;
      const char* neg;
    };
    static const Op kOps[] = {{"<=", ">"}, {">=", "<"}, {"<", ">="}, {">", "<="}};
    for (size_t a = 0; a < integral.size(); ++a) {
      for (size_t b = a + 1; b < integral.size(); ++b) {
        for (const Term* z : integral) {
          const Term* x = integral[a];
          const Term* y = integral[b];
          if (z == x || z == y || !(x->type == y->type) || !(y->type == z->type)) continue;
          ++family;
          for (const Op& op : kOps) {
            auto rel = [&](const char* o, std::string Term::*text) {
              return absl::StrCat(x->*text, " + ", y->*text, " ", o, " ", z->*text);
            };
            AddAtom(rel(op.op, &Term::pre_text), rel(op.op, &Term::text),
                    rel(op.neg, &Term::pre_text), rel(op.neg, &Term::text), family, order++);
          }
        }
      }
    }
    guard_only_ = false;
  }

  SynthContext* ctx_;
  const VocabularyOptions& options_;
  bool guard_only_ = false;  // AddAtom adds to Vocabulary::guard_atoms
  std::vector<size_t> normal_;
  Vocabulary vocab_;
  std::set<std::string> seen_atoms_;
};

}  // namespace

Vocabulary BuildVocabulary(SynthContext* ctx, const VocabularyOptions& options) {
  return Builder(ctx, options).Build();
}

}  // namespace tracespec::synth

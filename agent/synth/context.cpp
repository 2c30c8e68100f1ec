// The synthesizer's compile-and-evaluate context; see context.h.
#include "agent/synth/context.h"

#include <algorithm>
#include <iterator>
#include <set>

#include "absl/strings/str_cat.h"
#include "validator/jml/parser.h"

namespace tracespec::synth {

namespace {

bool UsableField(const std::string& name) {
  return !name.empty() && name.find('$') == std::string::npos;
}

}  // namespace

ObservedTypeEnvironment::ObservedTypeEnvironment(
    const v1::MethodRef& method, const std::vector<v1::Observation>& observations) {
  auto cls = [&](const std::string& name) -> jml::ClassInfo& {
    jml::ClassInfo& info = classes_[name];
    if (info.name.empty()) {
      info.name = name;
      info.superclass = "java.lang.Object";
    }
    return info;
  };
  for (const v1::Observation& o : observations) {
    for (const auto* states : {&o.pre(), &o.post()}) {
      for (const v1::ObjectState& s : *states) {
        if (s.class_name().empty() || s.class_name()[0] == '[' || s.has_array()) continue;
        jml::ClassInfo& info = cls(s.class_name());
        for (const v1::Field& f : s.fields()) {
          if (!UsableField(f.name()) || info.FindField(f.name()) != nullptr) continue;
          absl::StatusOr<jml::Type> type = jml::Type::FromDescriptor(f.jvm_type());
          if (!type.ok()) continue;
          jml::FieldInfo fi;
          fi.name = f.name();
          fi.type = *type;
          fi.visibility = jml::Visibility::kPublic;
          info.fields.push_back(std::move(fi));
        }
      }
    }
    if (o.outcome().has_thrown()) {
      jml::ClassInfo& info = cls(o.outcome().thrown().class_name());
      info.superclass = "java.lang.Exception";
    }
  }
  jml::ClassInfo& owner = cls(method.class_name());
  absl::StatusOr<jml::MethodDescriptor> d = jml::ParseMethodDescriptor(method.jvm_descriptor());
  if (d.ok() && owner.FindMethod(method.name(), method.jvm_descriptor()) == nullptr) {
    jml::MethodInfo mi;
    mi.name = method.name();
    mi.descriptor = method.jvm_descriptor();
    mi.params = d->params;
    mi.result = d->result;
    mi.is_static = method.is_static();
    mi.is_constructor = method.name() == "<init>";
    mi.visibility = jml::Visibility::kPublic;
    for (const std::string& n : method.param_names()) mi.param_names.push_back(n);
    owner.methods.push_back(std::move(mi));
  }
  for (auto& [name, info] : classes_) {
    std::sort(info.fields.begin(), info.fields.end(),
              [](const jml::FieldInfo& a, const jml::FieldInfo& b) { return a.name < b.name; });
  }
}

const jml::ClassInfo* ObservedTypeEnvironment::FindClass(absl::string_view binary_name) const {
  auto it = classes_.find(binary_name);
  return it == classes_.end() ? nullptr : &it->second;
}

OutcomeKind OutcomeOf(const v1::Observation& o) {
  if (o.outcome().has_returned() || o.outcome().has_returned_void()) return OutcomeKind::kNormal;
  if (o.outcome().has_thrown()) return OutcomeKind::kThrown;
  return OutcomeKind::kUnknown;
}

SynthContext::SynthContext(const jml::TypeEnvironment& env, jml::MethodContext method,
                           std::vector<v1::Observation> observations, int64_t work_budget)
    : env_(env),
      method_(std::move(method)),
      observations_(std::move(observations)),
      checker_(env),
      work_budget_(work_budget) {
  jml::EvalOptions options;
  options.env = &env_;
  // Nullity is the contract's business (hypotheses), not the evidence's.
  options.implicit_nullity = false;
  options.max_steps = 1 << 18;
  for (const v1::Observation& o : observations_) {
    evaluators_.push_back(std::make_unique<jml::ObservationEvaluator>(o, method_, options));
  }
  // Bound variables must not shadow parameters.
  std::set<std::string> taken(method_.param_names.begin(), method_.param_names.end());
  const char* const kNames[] = {"i", "j", "d", "k", "m", "n", "p", "q", "r", "u", "w", "z"};
  size_t next = 0;
  for (char placeholder : {'i', 'j', 'd'}) {
    while (next < std::size(kNames) && taken.count(kNames[next])) ++next;
    std::string name = next < std::size(kNames) ? kNames[next++] : std::string(1, placeholder) + "0";
    taken.insert(name);
    bound_names_[placeholder] = name;
  }
}

std::string SynthContext::BindNames(const std::string& text) const {
  if (text.find('$') == std::string::npos) return text;
  std::string out;
  for (size_t k = 0; k < text.size(); ++k) {
    if (text[k] == '$' && k + 1 < text.size()) {
      auto it = bound_names_.find(text[k + 1]);
      if (it != bound_names_.end()) {
        out += it->second;
        ++k;
        continue;
      }
    }
    out += text[k];
  }
  return out;
}

const jml::Expr* SynthContext::Compile(const std::string& text,
                                       jml::TypeChecker::Position position) {
  auto key = std::make_pair(static_cast<int>(position), text);
  auto it = compiled_.find(key);
  if (it != compiled_.end()) return it->second.get();
  jml::ExprPtr expr;
  absl::StatusOr<jml::ExprPtr> parsed =
      jml::ParseExpressionText(BindNames(text), "<candidate>");
  if (parsed.ok()) {
    expr = std::move(*parsed);
    if (!checker_.CheckExpression(*expr, method_, position).ok()) expr.reset();
  }
  const jml::Expr* out = expr.get();
  compiled_.emplace(std::move(key), std::move(expr));
  return out;
}

jml::EvalValue SynthContext::Value(const jml::Expr& e, size_t index, jml::EvalState at) {
  if (exhausted()) return jml::EvalValue::Unknown("synthesis work budget exhausted");
  jml::EvalValue v = evaluators_[index]->Evaluate(e, at);
  work_ += evaluators_[index]->steps();
  return v;
}

jml::Truth SynthContext::Truth(const jml::Expr& e, size_t index, jml::EvalState at) {
  return Value(e, index, at).truth();
}

}  // namespace tracespec::synth

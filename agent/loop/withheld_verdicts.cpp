// Coverage verdicts checked against substituted copies; see
// withheld_verdicts.h.
#include "agent/loop/withheld_verdicts.h"

#include <map>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "agent/prompt/observations.h"
#include "common/utf8.h"
#include "observer/probe/substitute_value.h"

namespace tracespec::loop {
namespace {

constexpr char kDependsOnWithheldData[] =
    "the verdict on recorded calls whose values the prompt shows only by shape depends on "
    "withheld data and is not reported";

std::vector<uint16_t> Substitute(const std::vector<uint16_t>& units, int variant, uint64_t seed) {
  return probe::SubstituteTextVariant(seed, units, variant);
}

class Substituter {
 public:
  Substituter(const HidesText& hides, int variant, uint64_t seed)
      : hides_(hides), variant_(variant), seed_(seed) {}

  // Replaces `value` when it is a hidden string.
  void Value(v1::Value* value, bool by_shape) {
    if (value->kind_case() != v1::Value::kStringValue) return;
    std::string text = value->string_value();
    if (text.empty() || !hides_(text, by_shape)) return;
    value->set_string_value(Text(text));
    changed_ = true;
  }

  void State(v1::ObjectState* state, bool by_shape) {
    for (v1::Field& f : *state->mutable_fields()) Value(f.mutable_value(), by_shape);
    if (!state->has_array()) return;
    v1::ArrayContents* array = state->mutable_array();
    if (array->element_descriptor() == "C" && array->elements_size() > 0) {
      std::vector<uint16_t> units;
      for (const v1::Value& e : array->elements()) {
        if (e.kind_case() != v1::Value::kCharValue) return;  // partly withheld: as it is
        units.push_back(static_cast<uint16_t>(e.char_value()));
      }
      if (!hides_(Utf16ToUtf8(units.data(), units.size()), by_shape)) return;
      std::vector<uint16_t> out = Substitute(units, variant_, seed_);
      for (int i = 0; i < array->elements_size(); ++i) {
        array->mutable_elements(i)->set_char_value(out[static_cast<size_t>(i)]);
      }
      changed_ = true;
      return;
    }
    for (v1::Value& e : *array->mutable_elements()) Value(&e, by_shape);
  }

  // The substitute of `text` (UTF-8), the same for equal texts.
  std::string Text(const std::string& text) {
    auto [it, added] = done_.emplace(text, "");
    if (added) {
      std::u16string units = Utf8ToUtf16(text);
      std::vector<uint16_t> out = Substitute({units.begin(), units.end()}, variant_, seed_);
      it->second = Utf16ToUtf8(out.data(), out.size());
    }
    return it->second;
  }

  bool changed() const { return changed_; }

 private:
  const HidesText& hides_;
  int variant_;
  uint64_t seed_;
  std::map<std::string, std::string> done_;
  bool changed_ = false;
};

bool HasCounterexample(const std::string& verdict) {
  return absl::StartsWith(verdict, "rejected: ") || absl::StartsWith(verdict, "undefined: ");
}

}  // namespace

std::optional<v1::Observation> SubstitutedCopy(const v1::Observation& observation,
                                               const HidesText& hides, int variant,
                                               uint64_t seed) {
  v1::Observation copy = observation;
  Substituter s(hides, variant, seed);
  // Strings reached from the arguments of a method without parameter names
  // go by shape whatever the literals say; reached from elsewhere they do
  // not, but a copy that substitutes more only withholds more.
  bool by_shape = prompt::ArgumentsByShape(observation);
  if (copy.has_receiver()) s.Value(copy.mutable_receiver(), /*by_shape=*/false);
  for (v1::Value& arg : *copy.mutable_args()) s.Value(&arg, by_shape);
  for (auto* states : {copy.mutable_pre(), copy.mutable_post()}) {
    for (v1::ObjectState& state : *states) s.State(&state, by_shape);
  }
  v1::Outcome* outcome = copy.mutable_outcome();
  if (outcome->has_returned()) s.Value(outcome->mutable_returned(), /*by_shape=*/false);
  if (outcome->has_thrown() && outcome->thrown().has_message()) {
    const std::string& message = outcome->thrown().message();
    if (!message.empty() && hides(message, /*by_shape=*/false)) {
      outcome->mutable_thrown()->set_message(s.Text(message));
      return copy;
    }
  }
  if (!s.changed()) return std::nullopt;
  return copy;
}

std::set<int> VerdictsThatDependOnWithheldData(check::Validator* validator,
                                               const check::ValidateRequest& request,
                                               const check::CheckResult& coverage,
                                               const prompt::PromptBuilder& builder) {
  // No verdict on any observation (the contract did not check): none to
  // withhold.
  if (coverage.status != check::CheckStatus::kPass &&
      coverage.status != check::CheckStatus::kFail) {
    return {};
  }
  HidesText hides = [&builder](const std::string& text, bool by_shape) {
    return builder.HidesText(text, by_shape);
  };
  check::ValidateRequest again = request;
  again.coverage_only = true;
  again.observations.clear();
  std::vector<int> copy_of;  // observation index of each copy
  std::set<int> hidden;
  for (size_t i = 0; i < request.observations.size(); ++i) {
    const v1::Observation& o = request.observations[i];
    if (builder.LeftOut(o)) continue;
    for (int variant = 1; variant <= kSubstituteVariants; ++variant) {
      std::optional<v1::Observation> copy = SubstitutedCopy(o, hides, variant);
      if (!copy.has_value()) break;
      hidden.insert(static_cast<int>(i));
      again.observations.push_back(*std::move(copy));
      copy_of.push_back(static_cast<int>(i));
    }
  }
  if (hidden.empty()) return {};
  if (coverage.verdicts.size() != request.observations.size()) return hidden;
  absl::StatusOr<check::ValidationReport> report = validator->Validate(again);
  if (!report.ok() || report->coverage.verdicts.size() != copy_of.size()) return hidden;
  std::set<int> masked;
  for (size_t k = 0; k < copy_of.size(); ++k) {
    int i = copy_of[k];
    if (report->coverage.verdicts[k] != coverage.verdicts[static_cast<size_t>(i)]) {
      masked.insert(i);
    }
  }
  return masked;
}

void WithholdVerdicts(const std::set<int>& masked, check::CheckResult* coverage) {
  if (masked.empty()) return;
  // Counterexample k of the check is the k-th observation whose verdict
  // has one (coverage.cpp).
  std::vector<bool> keep;
  int rejected = 0;
  for (size_t i = 0; i < coverage->verdicts.size(); ++i) {
    if (!HasCounterexample(coverage->verdicts[i])) continue;
    bool shown = masked.count(static_cast<int>(i)) == 0;
    keep.push_back(shown);
    rejected += shown ? 1 : 0;
  }
  if (keep.size() != coverage->counterexamples.size()) {
    keep.assign(coverage->counterexamples.size(), false);  // not lined up: show none
    rejected = 0;
  }
  std::vector<int> new_index(keep.size(), -1);
  std::vector<v1::Observation> counterexamples;
  std::vector<std::string> explanations;
  for (size_t k = 0; k < keep.size(); ++k) {
    if (!keep[k]) continue;
    new_index[k] = static_cast<int>(counterexamples.size());
    counterexamples.push_back(std::move(coverage->counterexamples[k]));
    if (k < coverage->explanations.size()) explanations.push_back(coverage->explanations[k]);
  }
  std::vector<check::Diagnostic> diagnostics;
  for (check::Diagnostic& d : coverage->diagnostics) {
    std::vector<int> shown;
    bool withheld = false;
    for (int k : d.counterexamples) {
      if (k >= 0 && static_cast<size_t>(k) < keep.size() && keep[k]) {
        shown.push_back(new_index[k]);
      } else {
        withheld = true;
      }
    }
    if (withheld && shown.empty()) continue;
    d.counterexamples = std::move(shown);
    diagnostics.push_back(std::move(d));
  }
  coverage->counterexamples = std::move(counterexamples);
  coverage->explanations = std::move(explanations);
  coverage->diagnostics = std::move(diagnostics);
  coverage->status = check::CheckStatus::kFail;
  coverage->summary = rejected > 0 ? absl::StrCat(rejected, " other recorded call",
                                                  rejected == 1 ? "" : "s", " rejected; ",
                                                  kDependsOnWithheldData)
                                   : std::string(kDependsOnWithheldData);
}

}  // namespace tracespec::loop

// The taint set; see taint.h.
#include "observer/probe/taint.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/utf8.h"
#include "observer/probe/substitute_value.h"

namespace tracespec::probe {
namespace {

// The integral value of a floating number, when it has one in int64 range.
bool IntegralOf(double value, int64_t* out) {
  if (!std::isfinite(value) || std::trunc(value) != value) return false;
  if (value < -9.2e18 || value > 9.2e18) return false;
  *out = static_cast<int64_t>(value);
  return true;
}

}  // namespace


void TaintSet::AddString(const std::string& value) {
  if (value.empty()) return;
  {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    if (strings_.count(value) != 0) return;
  }
  std::unique_lock<std::shared_mutex> lock(mutex_);
  if (!strings_.insert(value).second) return;
  if (value.size() >= kMinContainedLength) contained_.insert(value);
  ++generation_;
}

void TaintSet::AddIntegral(int64_t value) {
  if (!DistinctiveNumber(static_cast<double>(value))) return;
  {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    if (integrals_.count(value) != 0) return;
  }
  std::unique_lock<std::shared_mutex> lock(mutex_);
  if (!integrals_.insert(value).second) return;
  contained_.insert(std::to_string(value < 0 ? -value : value));
  ++generation_;
}

void TaintSet::AddFloating(double value) {
  int64_t integral = 0;
  if (IntegralOf(value, &integral)) {
    AddIntegral(integral);
    return;
  }
  if (!DistinctiveNumber(value)) return;
  {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    if (floatings_.count(value) != 0) return;
  }
  std::unique_lock<std::shared_mutex> lock(mutex_);
  if (floatings_.insert(value).second) ++generation_;
}

bool TaintSet::HoldsString(const std::string& value) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return strings_.count(value) != 0;
}

bool TaintSet::HoldsIntegral(int64_t value) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return integrals_.count(value) != 0;
}

uint64_t TaintSet::generation() const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return generation_;
}

bool TaintSet::empty() const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return generation_ == 0;
}

bool TaintSet::TaintedString(const std::string& s) const {
  if (strings_.count(s) != 0) return true;
  for (const std::string& needle : contained_) {
    if (needle.size() <= s.size() && s.find(needle) != std::string::npos) return true;
  }
  return false;
}

bool TaintSet::TaintedValue(const v1::Value& value) const {
  switch (value.kind_case()) {
    case v1::Value::kStringValue: return TaintedString(value.string_value());
    case v1::Value::kByteValue: return integrals_.count(value.byte_value()) != 0;
    case v1::Value::kShortValue: return integrals_.count(value.short_value()) != 0;
    case v1::Value::kCharValue: return integrals_.count(value.char_value()) != 0;
    case v1::Value::kIntValue: return integrals_.count(value.int_value()) != 0;
    case v1::Value::kLongValue: return integrals_.count(value.long_value()) != 0;
    case v1::Value::kFloatValue:
    case v1::Value::kDoubleValue: {
      double d = value.has_float_value() ? value.float_value() : value.double_value();
      int64_t integral = 0;
      if (IntegralOf(d, &integral)) return integrals_.count(integral) != 0;
      return floatings_.count(d) != 0;
    }
    default: return false;
  }
}

TaintSet::Keys TaintSet::DeniedKeys() const {
  Keys keys;
  std::shared_lock<std::shared_mutex> lock(mutex_);
  for (const std::string& s : strings_) {
    if (s.size() < kMinContainedLength) continue;
    keys.texts.push_back(
        {static_cast<uint32_t>(s.size()), ConstantKey(std::string_view(s)), RollingKey(s)});
  }
  for (int64_t n : integrals_) keys.numbers.push_back(ConstantKey(n));
  std::sort(keys.texts.begin(), keys.texts.end());
  std::sort(keys.numbers.begin(), keys.numbers.end());
  return keys;
}

int TaintSet::RedactText(std::string* text) const {
  std::vector<std::string> needles;
  {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    needles.assign(contained_.begin(), contained_.end());
  }
  // Longest first, so that a secret containing another is replaced whole;
  // ties in the set's order, so the result is deterministic.
  std::stable_sort(needles.begin(), needles.end(),
                   [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  int replaced = 0;
  for (const std::string& needle : needles) {
    std::string out;
    size_t from = 0;
    for (size_t at = text->find(needle); at != std::string::npos;
         at = text->find(needle, from)) {
      out.append(*text, from, at - from);
      out.append(kRedactedText);
      from = at + needle.size();
      ++replaced;
    }
    if (from == 0) continue;
    out.append(*text, from, std::string::npos);
    *text = std::move(out);
  }
  return replaced;
}

int TaintSet::ScrubValue(v1::Value* value) const {
  if (!TaintedValue(*value)) return 0;
  value->mutable_redacted();
  return 1;
}

int TaintSet::ScrubStates(google::protobuf::RepeatedPtrField<v1::ObjectState>* states) const {
  int count = 0;
  for (v1::ObjectState& state : *states) {
    for (v1::Field& field : *state.mutable_fields()) count += ScrubValue(field.mutable_value());
    if (!state.has_array()) continue;
    v1::ArrayContents* array = state.mutable_array();
    const std::string& element = array->element_descriptor();
    if (element == "C" || element == "B") {
      // A char[] or byte[] is text: its contents as a whole are checked.
      std::string text;
      std::vector<uint16_t> units;
      for (const v1::Value& v : array->elements()) {
        if (element == "C") {
          units.push_back(static_cast<uint16_t>(v.char_value()));
        } else {
          text.push_back(static_cast<char>(v.byte_value()));
        }
      }
      if (element == "C") text = Utf16ToUtf8(units.data(), units.size());
      if (!text.empty() && TaintedString(text)) {
        for (v1::Value& v : *array->mutable_elements()) {
          v.mutable_redacted();
          ++count;
        }
        continue;
      }
    }
    for (v1::Value& v : *array->mutable_elements()) count += ScrubValue(&v);
  }
  return count;
}

int TaintSet::Scrub(v1::Observation* observation) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  if (generation_ == 0) return 0;
  int count = 0;
  if (observation->has_receiver()) count += ScrubValue(observation->mutable_receiver());
  for (v1::Value& arg : *observation->mutable_args()) count += ScrubValue(&arg);
  count += ScrubStates(observation->mutable_pre());
  count += ScrubStates(observation->mutable_post());
  v1::Outcome* outcome = observation->mutable_outcome();
  if (outcome->has_returned()) count += ScrubValue(outcome->mutable_returned());
  if (outcome->has_thrown() && outcome->thrown().has_message() &&
      TaintedString(outcome->thrown().message())) {
    // Dropped as if the policy had not kept it.
    outcome->mutable_thrown()->clear_message();
    outcome->mutable_thrown()->set_has_message(false);
    ++count;
  }
  return count;
}

}  // namespace tracespec::probe

// The observation store; see store.h.
#include "observer/store.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "common/proto_io.h"
#include "common/status.h"
#include "observer/summary.h"

namespace tracespec::observer {
namespace {

// SplitMix64's finaliser: a fixed, well-mixed hash of a sequence number.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

template <typename T>
const char* Sign(T v) {
  return v < 0 ? "-" : v == 0 ? "0" : "+";
}

// The objects of an observation by id (pre or post).
std::map<uint64_t, const v1::ObjectState*> ById(
    const google::protobuf::RepeatedPtrField<v1::ObjectState>& states) {
  std::map<uint64_t, const v1::ObjectState*> out;
  for (const v1::ObjectState& s : states) out.emplace(s.id(), &s);
  return out;
}

// The branch a value falls in (see BehaviourKey).
std::string Branch(const v1::Value& v, const std::map<uint64_t, const v1::ObjectState*>& objects) {
  switch (v.kind_case()) {
    case v1::Value::kBoolValue: return v.bool_value() ? "t" : "f";
    case v1::Value::kByteValue: return Sign(v.byte_value());
    case v1::Value::kShortValue: return Sign(v.short_value());
    case v1::Value::kCharValue: return Sign(v.char_value());
    case v1::Value::kIntValue: return Sign(v.int_value());
    case v1::Value::kLongValue: return Sign(v.long_value());
    case v1::Value::kFloatValue:
      return std::isnan(v.float_value()) ? "nan" : Sign(v.float_value());
    case v1::Value::kDoubleValue:
      return std::isnan(v.double_value()) ? "nan" : Sign(v.double_value());
    case v1::Value::kStringValue: return v.string_value().empty() ? "\"\"" : "\"s\"";
    case v1::Value::kNullValue: return "null";
    case v1::Value::kRedacted: return "x";
    case v1::Value::kRef: {
      auto it = objects.find(v.ref());
      if (it == objects.end() || !it->second->has_array()) return "o";
      int n = it->second->array().length();
      return n == 0 ? "[0]" : n == 1 ? "[1]" : "[n]";
    }
    default: return "?";
  }
}

// Whether two recorded values are the same (references: the same object).
bool SameValue(const v1::Value& a, const v1::Value& b) {
  if (a.kind_case() != b.kind_case()) return false;
  switch (a.kind_case()) {
    case v1::Value::kBoolValue: return a.bool_value() == b.bool_value();
    case v1::Value::kByteValue: return a.byte_value() == b.byte_value();
    case v1::Value::kShortValue: return a.short_value() == b.short_value();
    case v1::Value::kCharValue: return a.char_value() == b.char_value();
    case v1::Value::kIntValue: return a.int_value() == b.int_value();
    case v1::Value::kLongValue: return a.long_value() == b.long_value();
    // Bit patterns, so that NaN equals itself.
    case v1::Value::kFloatValue: {
      float x = a.float_value(), y = b.float_value();
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    case v1::Value::kDoubleValue: {
      double x = a.double_value(), y = b.double_value();
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    case v1::Value::kStringValue: return a.string_value() == b.string_value();
    case v1::Value::kRef: return a.ref() == b.ref();
    default: return true;  // null, redacted, unset
  }
}

// The fields of the object `v` refers to in `objects`, by name.
const v1::ObjectState* Object(const v1::Value& v,
                              const std::map<uint64_t, const v1::ObjectState*>& objects) {
  if (v.kind_case() != v1::Value::kRef) return nullptr;
  auto it = objects.find(v.ref());
  return it == objects.end() ? nullptr : it->second;
}

void AppendFields(const std::string& who, const v1::Value& v,
                  const std::map<uint64_t, const v1::ObjectState*>& pre,
                  const std::map<uint64_t, const v1::ObjectState*>& post, std::string* key) {
  const v1::ObjectState* before = Object(v, pre);
  const v1::ObjectState* after = Object(v, post);
  std::map<std::string, std::pair<const v1::Value*, const v1::Value*>> fields;
  if (before != nullptr) {
    for (const v1::Field& f : before->fields()) {
      fields[absl::StrCat(f.declaring_class(), ".", f.name())].first = &f.value();
    }
  }
  if (after != nullptr) {
    for (const v1::Field& f : after->fields()) {
      fields[absl::StrCat(f.declaring_class(), ".", f.name())].second = &f.value();
    }
  }
  for (const auto& [name, values] : fields) {
    absl::StrAppend(key, " ", who, name, "=");
    if (values.first != nullptr) absl::StrAppend(key, Branch(*values.first, pre));
    absl::StrAppend(key, ">");
    if (values.second != nullptr) absl::StrAppend(key, Branch(*values.second, post));
    bool changed = values.first == nullptr || values.second == nullptr ||
                   !SameValue(*values.first, *values.second);
    if (changed) absl::StrAppend(key, "!");
  }
}

}  // namespace

std::string BehaviourKey(const v1::Observation& o) {
  std::map<uint64_t, const v1::ObjectState*> pre = ById(o.pre());
  std::map<uint64_t, const v1::ObjectState*> post = ById(o.post());
  std::string key = MethodLabel(o.method());
  switch (o.outcome().kind_case()) {
    case v1::Outcome::kReturned:
      absl::StrAppend(&key, " returns ", Branch(o.outcome().returned(), post));
      break;
    case v1::Outcome::kReturnedVoid: absl::StrAppend(&key, " returns"); break;
    case v1::Outcome::kThrown:
      absl::StrAppend(&key, " throws ", o.outcome().thrown().class_name());
      break;
    default: absl::StrAppend(&key, " ?"); break;
  }
  for (int i = 0; i < o.args_size(); ++i) {
    absl::StrAppend(&key, " a", i, "=", Branch(o.args(i), pre));
  }
  if (o.has_receiver()) AppendFields("this.", o.receiver(), pre, post, &key);
  for (int i = 0; i < o.args_size(); ++i) {
    AppendFields(absl::StrCat("a", i, "."), o.args(i), pre, post, &key);
  }
  return key;
}

ObservationStore::ObservationStore(int64_t max_per_method) : max_per_method_(max_per_method) {}

void ObservationStore::Note(const v1::Observation& o) {
  MethodState& m = methods_[MethodLabel(o.method())];
  ++m.recorded;
  uint64_t sequence = o.sequence();
  auto [it, inserted] = m.representatives.emplace(BehaviourKey(o), sequence);
  if (inserted) return;
  if (sequence < it->second) std::swap(sequence, it->second);  // the earliest represents
  m.others.emplace_back(Mix(sequence), sequence);
}

void ObservationStore::Choose() {
  if (chosen_) return;
  chosen_ = true;
  for (auto& [label, m] : methods_) {
    int64_t kept = 0;
    for (const auto& [key, sequence] : m.representatives) {
      kept_.insert(sequence);
      ++kept;
    }
    size_t room = m.others.size();
    if (max_per_method_ > 0) {
      room = static_cast<size_t>(std::max<int64_t>(0, max_per_method_ - kept));
      room = std::min(room, m.others.size());
      std::nth_element(m.others.begin(), m.others.begin() + room, m.others.end());
    }
    for (size_t i = 0; i < room; ++i) kept_.insert(m.others[i].second);
    kept_per_method_[label] = kept + static_cast<int64_t>(room);
    m.others.clear();
    m.others.shrink_to_fit();
  }
}

bool ObservationStore::Keeps(uint64_t sequence) {
  Choose();
  return kept_.count(sequence) != 0;
}

absl::Status ObservationStore::Open(const std::string& out_dir) {
  TS_ASSIGN_OR_RETURN(AtomicFileWriter pb, AtomicFileWriter::Open(out_dir + "/observations.pb"));
  TS_ASSIGN_OR_RETURN(AtomicFileWriter jsonl,
                      AtomicFileWriter::Open(out_dir + "/observations.jsonl"));
  pb_.emplace(std::move(pb));
  jsonl_.emplace(std::move(jsonl));
  return absl::OkStatus();
}

absl::Status ObservationStore::Write(const v1::Observation& o) {
  if (!Keeps(o)) return absl::OkStatus();
  AppendDelimited(o, &pb_buffer_);
  absl::StrAppend(&jsonl_buffer_, ToJsonLine(o), "\n");
  return pb_buffer_.size() + jsonl_buffer_.size() > (4 << 20) ? Flush() : absl::OkStatus();
}

absl::Status ObservationStore::Commit() {
  TS_RETURN_IF_ERROR(Flush());
  TS_RETURN_IF_ERROR(pb_->Commit());
  return jsonl_->Commit();
}

absl::Status ObservationStore::Flush() {
  TS_RETURN_IF_ERROR(pb_->Write(pb_buffer_));
  TS_RETURN_IF_ERROR(jsonl_->Write(jsonl_buffer_));
  pb_buffer_.clear();
  jsonl_buffer_.clear();
  return absl::OkStatus();
}

void ObservationStore::Fill(v1::ObserveSummary* summary) {
  Choose();
  int64_t dropped = 0;
  for (v1::MethodSummary& m : *summary->mutable_methods()) {
    auto it = methods_.find(m.method());
    if (it == methods_.end()) continue;
    m.set_behaviours(static_cast<int64_t>(it->second.representatives.size()));
    m.set_kept(kept_per_method_[m.method()]);
    m.set_dropped(it->second.recorded - m.kept());
    dropped += m.dropped();
  }
  summary->set_max_observations_per_method(std::max<int64_t>(0, max_per_method_));
  summary->set_observations_dropped(dropped);
}

}  // namespace tracespec::observer

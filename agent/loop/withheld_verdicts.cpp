// Coverage verdicts checked against substituted copies; see
// withheld_verdicts.h.
#include "agent/loop/withheld_verdicts.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "agent/prompt/observations.h"
#include "agent/prompt/text_holders.h"
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

  // Replaces the text of every holder in `graph` (prompt/text_holders.h:
  // builders, text-like byte[], UUID, BigInteger, BigDecimal) that the
  // prompt hides, in the holder's own layout; then the strings and char[]
  // of every state.
  void Graph(google::protobuf::RepeatedPtrField<v1::ObjectState>* graph, bool by_shape) {
    std::map<uint64_t, v1::ObjectState*> by_id;
    for (v1::ObjectState& state : *graph) by_id[state.id()] = &state;
    prompt::ObjectLookup lookup = [&by_id](uint64_t id) -> const v1::ObjectState* {
      auto it = by_id.find(id);
      return it == by_id.end() ? nullptr : it->second;
    };
    // Found on the graph as recorded, before any is rewritten. A builder's
    // array is rewritten with it, never on its own (an inflated BigDecimal's
    // BigInteger is a holder of its own).
    std::vector<std::pair<v1::ObjectState*, prompt::HeldText>> holders;
    std::set<uint64_t> inside;
    for (v1::ObjectState& state : *graph) {
      std::optional<prompt::HeldText> held = prompt::TextHeldBy(state, lookup);
      if (!held.has_value() || held->kind == 'c') continue;  // char[]: State
      // The arrays a holder keeps its text in: a builder's `value`, a
      // ByteBuffer's `hb`, an Inet6Address's `ipaddress`.
      if (!state.has_array() && (held->kind == 's' || held->kind == 'b')) {
        for (const v1::Field& f : state.fields()) {
          if (f.value().kind_case() == v1::Value::kRef) inside.insert(f.value().ref());
        }
      }
      if (held->kind == 'a') {
        if (v1::ObjectState* holder6 = Referent(&state, "holder6", by_id)) {
          if (v1::Value* ip = Field(holder6, "ipaddress"); ip != nullptr && ip->has_ref()) {
            inside.insert(ip->ref());
          }
        }
      }
      holders.emplace_back(&state, *std::move(held));
    }
    for (auto& [state, held] : holders) {
      if (inside.count(state->id()) != 0) continue;
      if (held.complete && (held.text.empty() || !hides_(held.text, by_shape))) continue;
      Holder(state, held, by_id);
    }
    for (v1::ObjectState& state : *graph) {
      if (inside.count(state.id()) == 0) State(&state, by_shape);
    }
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
  static v1::Value* Field(v1::ObjectState* state, const std::string& name) {
    for (v1::Field& f : *state->mutable_fields()) {
      if (f.name() == name) return f.mutable_value();
    }
    return nullptr;
  }

  static v1::ArrayContents* ArrayOf(v1::Value* value,
                                    const std::map<uint64_t, v1::ObjectState*>& by_id) {
    if (value == nullptr || value->kind_case() != v1::Value::kRef) return nullptr;
    auto it = by_id.find(value->ref());
    return it == by_id.end() || !it->second->has_array() ? nullptr
                                                          : it->second->mutable_array();
  }

  static v1::ObjectState* Referent(v1::ObjectState* state, const std::string& name,
                                   const std::map<uint64_t, v1::ObjectState*>& by_id) {
    v1::Value* value = Field(state, name);
    if (value == nullptr || value->kind_case() != v1::Value::kRef) return nullptr;
    auto it = by_id.find(value->ref());
    return it == by_id.end() ? nullptr : it->second;
  }

  // The substitute of `units`, through Text (equal texts alike).
  std::vector<uint16_t> Units(const std::vector<uint16_t>& units) {
    std::u16string out = Utf8ToUtf16(Text(Utf16ToUtf8(units.data(), units.size())));
    if (out.size() != units.size()) return Substitute(units, variant_, seed_);
    return {out.begin(), out.end()};
  }

  // The digits of `digits` substituted by digits.
  std::string Digits(const std::string& digits) { return Text(digits); }

  void Holder(v1::ObjectState* state, const prompt::HeldText& held,
              const std::map<uint64_t, v1::ObjectState*>& by_id) {
    switch (held.kind) {
      case 'b':
        if (state->has_array()) {
          Bytes(state->mutable_array(), 0, state->array().length());
        } else if (v1::ArrayContents* hb = ArrayOf(Field(state, "hb"), by_id)) {  // ByteBuffer
          v1::Value* offset = Field(state, "offset");
          v1::Value* capacity = Field(state, "capacity");
          if (offset != nullptr && capacity != nullptr) {
            Bytes(hb, offset->int_value(), capacity->int_value());
          }
        }
        return;
      case 's': Builder(state, by_id); return;
      case 'u': Uuid(state, held.text); return;
      case 'n': Number(state, held, by_id); return;
      case 'a': Address(state, held.text, by_id); return;
    }
  }

  // The `n` bytes of `array` from `from` on (a byte[], a ByteBuffer's
  // window): every recorded byte before the trailing zero bytes as a
  // Latin-1 char.
  void Bytes(v1::ArrayContents* array, int from, int n) {
    std::vector<uint16_t> units;
    for (int i = from; i >= 0 && i < from + n && i < array->elements_size(); ++i) {
      const v1::Value& e = array->elements(i);
      if (e.kind_case() != v1::Value::kByteValue) break;
      units.push_back(static_cast<uint16_t>(e.byte_value() & 0xFF));
    }
    while (!units.empty() && units.back() == 0) units.pop_back();
    if (units.empty()) return;
    std::vector<uint16_t> out = Units(units);
    for (size_t i = 0; i < out.size(); ++i) {
      array->mutable_elements(from + static_cast<int>(i))
          ->set_byte_value(static_cast<int8_t>(out[i] & 0xFF));
    }
    changed_ = true;
  }

  // A StringBuilder/StringBuffer: its first `count` chars, in its coder.
  void Builder(v1::ObjectState* state, const std::map<uint64_t, v1::ObjectState*>& by_id) {
    v1::Value* count = Field(state, "count");
    v1::Value* coder = Field(state, "coder");
    v1::ArrayContents* array = ArrayOf(Field(state, "value"), by_id);
    if (count == nullptr || array == nullptr) return;  // nothing of the text recorded
    bool chars = array->element_descriptor() == "C";
    bool utf16 = !chars && coder != nullptr && coder->byte_value() != 0;
    int width = utf16 ? 2 : 1;
    int n = std::min(count->int_value(), array->elements_size() / width);
    std::vector<uint16_t> units;
    for (int i = 0; i < n; ++i) {
      const v1::Value& a = array->elements(width * i);
      int unit = chars ? a.char_value() : a.byte_value() & 0xFF;
      if (utf16) unit |= (array->elements(2 * i + 1).byte_value() & 0xFF) << 8;
      units.push_back(static_cast<uint16_t>(unit));
    }
    std::vector<uint16_t> out = Units(units);
    for (int i = 0; i < n; ++i) {
      uint16_t u = out[static_cast<size_t>(i)];
      if (chars) {
        array->mutable_elements(i)->set_char_value(u);
      } else if (utf16) {
        array->mutable_elements(2 * i)->set_byte_value(static_cast<int8_t>(u & 0xFF));
        array->mutable_elements(2 * i + 1)->set_byte_value(static_cast<int8_t>(u >> 8));
      } else {
        array->mutable_elements(i)->set_byte_value(static_cast<int8_t>(u & 0xFF));  // Latin-1 stays
      }
    }
    changed_ = true;
  }

  // A UUID: its canonical text substituted, letters read back as hex digits.
  void Uuid(v1::ObjectState* state, const std::string& text) {
    v1::Value* most = Field(state, "mostSigBits");
    v1::Value* least = Field(state, "leastSigBits");
    if (most == nullptr || least == nullptr || text.size() != 36) return;
    std::string out = Text(text);
    uint64_t bits[2] = {0, 0};
    int digit = 0;
    for (char c : out) {
      if (c == '-') continue;
      int v = c >= '0' && c <= '9' ? c - '0' : (std::tolower(static_cast<unsigned char>(c)) - 'a') % 16;
      bits[digit / 16] = (bits[digit / 16] << 4) | static_cast<uint64_t>(v & 0xF);
      ++digit;
    }
    most->set_long_value(static_cast<int64_t>(bits[0]));
    least->set_long_value(static_cast<int64_t>(bits[1]));
    changed_ = true;
  }

  // An Inet4Address (its holder's `address`) or Inet6Address (its
  // holder6's `ipaddress`): the text substituted, each group between the
  // original's separators read back as a number (letters as hex digits
  // mod 16, as for a UUID) and taken mod its range.
  void Address(v1::ObjectState* state, const std::string& text,
               const std::map<uint64_t, v1::ObjectState*>& by_id) {
    bool v4 = state->class_name() == "java.net.Inet4Address";
    std::string out = Text(text);
    if (out.size() != text.size()) return;
    std::vector<uint32_t> groups(1, 0);
    // Up to the scope, kept (a String or an int of its own).
    for (size_t i = 0; i < text.size() && text[i] != '%'; ++i) {
      if (text[i] == '.' || text[i] == ':') {
        groups.push_back(0);
        continue;
      }
      char c = out[i];
      int v = c >= '0' && c <= '9' ? c - '0'
                                   : (std::tolower(static_cast<unsigned char>(c)) - 'a') % 16;
      groups.back() = (groups.back() * (v4 ? 10 : 16) + static_cast<uint32_t>(v & 0xF)) %
                      (v4 ? 256 : 65536);
    }
    if (v4) {
      v1::ObjectState* holder = Referent(state, "holder", by_id);
      v1::Value* address = holder != nullptr ? Field(holder, "address") : nullptr;
      if (address == nullptr || groups.size() != 4) return;
      uint32_t a = groups[0] << 24 | groups[1] << 16 | groups[2] << 8 | groups[3];
      address->set_int_value(static_cast<int32_t>(a));
    } else {
      v1::ObjectState* holder6 = Referent(state, "holder6", by_id);
      v1::ArrayContents* ip = holder6 != nullptr ? ArrayOf(Field(holder6, "ipaddress"), by_id)
                                                 : nullptr;
      if (ip == nullptr || groups.size() != 8 || ip->elements_size() != 16) return;
      for (int i = 0; i < 8; ++i) {
        ip->mutable_elements(2 * i)->set_byte_value(static_cast<int8_t>(groups[i] >> 8));
        ip->mutable_elements(2 * i + 1)->set_byte_value(static_cast<int8_t>(groups[i] & 0xFF));
      }
    }
    changed_ = true;
  }

  // A BigInteger (its `mag`) or a compact BigDecimal (its `intCompact`):
  // the digits substituted by digits, the sign and scale kept. An inflated
  // BigDecimal's digits are its `intVal` BigInteger's, a holder itself.
  void Number(v1::ObjectState* state, const prompt::HeldText& held,
              const std::map<uint64_t, v1::ObjectState*>& by_id) {
    std::string digits;
    for (char c : held.text) {
      if (c >= '0' && c <= '9') digits.push_back(c);
    }
    if (digits.empty()) return;
    std::string out = Digits(digits);
    if (v1::Value* compact = Field(state, "intCompact")) {
      if (compact->kind_case() != v1::Value::kLongValue ||
          compact->long_value() == std::numeric_limits<int64_t>::min()) {
        return;
      }
      uint64_t v = 0;
      for (char c : out) v = v * 10 + static_cast<uint64_t>(c - '0');  // wraps, still another value
      int64_t magnitude = static_cast<int64_t>(v & 0x7FFFFFFFFFFFFFFFULL);
      compact->set_long_value(compact->long_value() < 0 ? -magnitude : magnitude);
      changed_ = true;
      return;
    }
    v1::ArrayContents* mag = ArrayOf(Field(state, "mag"), by_id);
    if (mag == nullptr) return;
    std::vector<uint32_t> words;  // little-endian while building
    for (char c : out) {
      uint64_t carry = static_cast<uint64_t>(c - '0');
      for (uint32_t& w : words) {
        uint64_t x = static_cast<uint64_t>(w) * 10 + carry;
        w = static_cast<uint32_t>(x);
        carry = x >> 32;
      }
      if (carry != 0) words.push_back(static_cast<uint32_t>(carry));
    }
    mag->clear_elements();
    for (auto it = words.rbegin(); it != words.rend(); ++it) {
      mag->add_elements()->set_int_value(static_cast<int32_t>(*it));
    }
    mag->set_length(static_cast<int>(words.size()));
    if (words.empty()) {
      if (v1::Value* signum = Field(state, "signum")) signum->set_int_value(0);
    }
    // Caches of the old value (bit length, bit count, ...) would tell it.
    for (v1::Field& f : *state->mutable_fields()) {
      if (absl::EndsWith(f.name(), "PlusOne") || absl::EndsWith(f.name(), "PlusTwo")) {
        f.mutable_value()->set_int_value(0);
      }
    }
    changed_ = true;
  }

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
  for (auto* states : {copy.mutable_pre(), copy.mutable_post()}) s.Graph(states, by_shape);
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

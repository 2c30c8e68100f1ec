// Compact rendering and budgeted summaries of observations; see
// observations.h.
#include "agent/prompt/observations.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/prompt/signature.h"
#include "agent/prompt/text_holders.h"

namespace tracespec::prompt {
namespace {

// How many reference hops below a root are expanded into paths.
constexpr int kMaxDepth = 4;
// Tokens kept free for the line that describes omitted observations.
constexpr int kOmittedLineReserve = 80;
// Test ids listed per merged behaviour before "+N more".
constexpr int kMaxTestsListed = 3;

std::string ShortestFloat(double value, bool is_float) {
  const char* type = is_float ? "Float" : "Double";
  if (std::isnan(value)) return absl::StrCat(type, ".NaN");
  if (std::isinf(value)) {
    return absl::StrCat(type, value > 0 ? ".POSITIVE_INFINITY" : ".NEGATIVE_INFINITY");
  }
  char buffer[64];
  int max_precision = is_float ? 9 : 17;
  for (int precision = 1; precision <= max_precision; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    bool exact = is_float ? std::strtof(buffer, nullptr) == static_cast<float>(value)
                          : std::strtod(buffer, nullptr) == value;
    if (exact) break;
  }
  std::string out = buffer;
  if (out.find_first_of(".e") == std::string::npos) out += ".0";
  if (is_float) out += "f";
  return out;
}

void AppendEscaped(unsigned char c, char quote, std::string* out) {
  switch (c) {
    case '\n': *out += "\\n"; return;
    case '\r': *out += "\\r"; return;
    case '\t': *out += "\\t"; return;
    case '\\': *out += "\\\\"; return;
  }
  if (c == static_cast<unsigned char>(quote)) {
    *out += '\\';
    *out += static_cast<char>(c);
  } else if (c < 0x20 || c == 0x7F) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
    *out += buffer;
  } else {
    *out += static_cast<char>(c);
  }
}

std::string JavaString(absl::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) AppendEscaped(c, '"', &out);
  return out + "\"";
}

std::string JavaChar(int code_unit) {
  if (code_unit >= 0x20 && code_unit < 0x7F) {
    std::string out = "'";
    AppendEscaped(static_cast<unsigned char>(code_unit), '\'', &out);
    return out + "'";
  }
  if (code_unit == '\n') return "'\\n'";
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "'\\u%04x'", code_unit & 0xFFFF);
  return buffer;
}

bool IsInlineValue(const v1::Value& v) {
  return v.kind_case() != v1::Value::kRef && v.kind_case() != v1::Value::kRedacted;
}

struct Entry {
  std::string path;
  // "=value" or "==other.path".
  std::string rendered;
};

// Walks values reachable from named roots in one object graph and lists
// them as path/value entries, noting numbers and special values.
class Flattener {
 public:
  // `disclosure` (may be null: every string shown) decides how strings and
  // char[] contents are shown.
  Flattener(const google::protobuf::RepeatedPtrField<v1::ObjectState>& graph,
            StringDisclosure* disclosure)
      : disclosure_(disclosure) {
    for (const v1::ObjectState& state : graph) objects_[state.id()] = &state;
  }

  // With `by_shape`, every string reached from this root is shown by shape
  // unless the policy shows all strings.
  void Root(const std::string& path, const v1::Value& value, bool by_shape = false) {
    by_shape_ = by_shape;
    Visit(path, value, 0);
    by_shape_ = false;
  }

  const std::vector<Entry>& entries() const { return entries_; }
  std::vector<std::pair<std::string, double>>& numbers() { return numbers_; }
  std::vector<std::string>& specials() { return specials_; }

 private:
  void Emit(const std::string& path, std::string value) {
    entries_.push_back({path, "=" + std::move(value)});
  }

  void Number(const std::string& path, double value, double min, double max) {
    numbers_.push_back({path, value});
    if (value == 0) specials_.push_back(path + "=0");
    if (value == 1) specials_.push_back(path + "=1");
    if (value == -1) specials_.push_back(path + "=-1");
    if (value == min) specials_.push_back(path + "=MIN");
    if (value == max) specials_.push_back(path + "=MAX");
  }

  // Renders a primitive, string or null value and records its facts.
  std::string Scalar(const std::string& path, const v1::Value& v) {
    switch (v.kind_case()) {
      case v1::Value::kBoolValue: return v.bool_value() ? "true" : "false";
      case v1::Value::kByteValue:
        Number(path, v.byte_value(), -128, 127);
        return absl::StrCat(v.byte_value());
      case v1::Value::kShortValue:
        Number(path, v.short_value(), -32768, 32767);
        return absl::StrCat(v.short_value());
      case v1::Value::kCharValue:
        Number(path, v.char_value(), 0, 65535);
        return JavaChar(v.char_value());
      case v1::Value::kIntValue:
        Number(path, v.int_value(), std::numeric_limits<int32_t>::min(),
               std::numeric_limits<int32_t>::max());
        return absl::StrCat(v.int_value());
      case v1::Value::kLongValue:
        Number(path, static_cast<double>(v.long_value()),
               static_cast<double>(std::numeric_limits<int64_t>::min()),
               static_cast<double>(std::numeric_limits<int64_t>::max()));
        return absl::StrCat(v.long_value(), "L");
      case v1::Value::kFloatValue:
        if (std::isnan(v.float_value()))
          specials_.push_back(path + "=NaN");
        else
          Number(path, v.float_value(), -std::numeric_limits<float>::infinity(),
                 std::numeric_limits<float>::infinity());
        return ShortestFloat(v.float_value(), /*is_float=*/true);
      case v1::Value::kDoubleValue:
        if (std::isnan(v.double_value()))
          specials_.push_back(path + "=NaN");
        else
          Number(path, v.double_value(), -std::numeric_limits<double>::infinity(),
                 std::numeric_limits<double>::infinity());
        return ShortestFloat(v.double_value(), /*is_float=*/false);
      case v1::Value::kStringValue: {
        if (v.string_value().empty()) specials_.push_back(path + "=\"\"");
        std::string alias =
            disclosure_ != nullptr ? disclosure_->String(v.string_value(), by_shape_) : "";
        return alias.empty() ? JavaString(v.string_value()) : alias;
      }
      case v1::Value::kNullValue: specials_.push_back(path + "=null"); return "null";
      default: return "?";
    }
  }

  void Visit(const std::string& path, const v1::Value& v, int depth) {
    if (v.kind_case() == v1::Value::kRedacted || v.kind_case() == v1::Value::KIND_NOT_SET) return;
    if (v.kind_case() != v1::Value::kRef) {
      Emit(path, Scalar(path, v));
      return;
    }
    auto found = objects_.find(v.ref());
    if (found == objects_.end()) {
      Emit(path, "<object>");
      return;
    }
    auto [seen, first] = seen_.emplace(v.ref(), path);
    if (!first) {
      entries_.push_back({path, "==" + seen->second});
      return;
    }
    const v1::ObjectState& state = *found->second;
    if (Hidden(path, state)) return;
    if (state.has_array()) {
      VisitArray(path, state.array(), depth);
      return;
    }
    if (state.truncated() || state.fields().empty() || depth >= kMaxDepth) {
      Emit(path, "<" + JavaTypeFromBinaryName(state.class_name()) + ">");
      return;
    }
    for (const v1::Field& field : state.fields()) {
      Visit(path + "." + field.name(), field.value(), depth + 1);
    }
  }

  // Whether `state` holds a text (text_holders.h) that the disclosure
  // shows only by shape: then its alias is emitted and none of its fields
  // or elements (an array keeps its length among the numbers; the shape
  // says it too).
  bool Hidden(const std::string& path, const v1::ObjectState& state) {
    if (disclosure_ == nullptr) return false;
    std::optional<HeldText> held = TextHeldBy(state, [this](uint64_t id) -> const v1::ObjectState* {
      auto it = objects_.find(id);
      return it == objects_.end() ? nullptr : it->second;
    });
    if (!held.has_value()) return false;
    std::string alias = disclosure_->Held(*held, by_shape_);
    if (alias.empty()) return false;
    if (state.has_array()) {
      numbers_.push_back({path + ".length", static_cast<double>(state.array().length())});
    }
    Emit(path, alias);
    return true;
  }

  void VisitArray(const std::string& path, const v1::ArrayContents& array, int depth) {
    const std::string length_path = path + ".length";
    numbers_.push_back({length_path, static_cast<double>(array.length())});
    if (array.length() == 0) specials_.push_back(path + "=[]");
    bool inline_elements = true;
    for (const v1::Value& element : array.elements()) {
      if (!IsInlineValue(element)) inline_elements = false;
    }
    bool partial = array.elements_size() < array.length();
    if (inline_elements) {
      std::vector<std::string> parts;
      for (int i = 0; i < array.elements_size(); ++i) {
        parts.push_back(Scalar(absl::StrCat(path, "[", i, "]"), array.elements(i)));
      }
      if (partial) parts.push_back("...");
      Emit(path, "[" + absl::StrJoin(parts, ", ") + "]");
      if (partial) Emit(length_path, absl::StrCat(array.length()));
      return;
    }
    Emit(length_path, absl::StrCat(array.length()));
    if (depth >= kMaxDepth) return;
    for (int i = 0; i < array.elements_size(); ++i) {
      Visit(absl::StrCat(path, "[", i, "]"), array.elements(i), depth + 1);
    }
  }

  StringDisclosure* disclosure_;
  bool by_shape_ = false;
  std::map<uint64_t, const v1::ObjectState*> objects_;
  std::map<uint64_t, std::string> seen_;
  std::vector<Entry> entries_;
  std::vector<std::pair<std::string, double>> numbers_;
  std::vector<std::string> specials_;
};

std::string JoinEntries(const std::vector<Entry>& entries) {
  std::vector<std::string> parts;
  for (const Entry& e : entries) parts.push_back(e.path + e.rendered);
  return absl::StrJoin(parts, ", ");
}

std::string ParamName(const v1::Observation& o, const std::vector<std::string>& names, int i) {
  if (i < o.method().param_names_size() && !o.method().param_names(i).empty()) {
    return o.method().param_names(i);
  }
  if (i < static_cast<int>(names.size()) && !names[i].empty()) return names[i];
  return absl::StrCat("arg", i);
}

// The facts of one distinct behaviour and where it was seen.
struct Behaviour {
  RenderedObservation rendered;
  std::vector<std::pair<std::string, int>> tests;  // test id, times
  int count = 0;
  int tokens = 0;
  std::string line;  // without the label
};

std::string TestsLabel(const Behaviour& b) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < b.tests.size() && i < kMaxTestsListed; ++i) {
    const auto& [test, times] = b.tests[i];
    std::string name = test.empty() ? "unattributed" : test;
    parts.push_back(times > 1 ? absl::StrCat(name, " x", times) : name);
  }
  if (b.tests.size() > kMaxTestsListed) {
    parts.push_back(absl::StrCat("+", b.tests.size() - kMaxTestsListed, " more tests"));
  }
  return "[" + absl::StrJoin(parts, ", ") + "]";
}

std::string FormatNumber(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    return absl::StrCat(static_cast<int64_t>(value));
  }
  return ShortestFloat(value, /*is_float=*/false);
}

}  // namespace

bool ArgumentsByShape(const v1::Observation& o) { return o.method().param_names_unknown(); }

int EstimateTokens(absl::string_view text) { return static_cast<int>((text.size() + 3) / 4); }

RenderedObservation RenderObservation(const v1::Observation& o,
                                      const std::vector<std::string>& param_names,
                                      StringDisclosure* disclosure) {
  RenderedObservation out;
  bool constructor = o.method().name() == "<init>";
  bool has_receiver = o.has_receiver() && !o.method().is_static();
  bool unnamed = ArgumentsByShape(o);

  Flattener pre(o.pre(), disclosure);
  for (int i = 0; i < o.args_size(); ++i) {
    pre.Root(ParamName(o, param_names, i), o.args(i), unnamed);
  }
  if (has_receiver && !constructor) pre.Root("this", o.receiver());

  Flattener post(o.post(), disclosure);
  for (int i = 0; i < o.args_size(); ++i) {
    post.Root(ParamName(o, param_names, i), o.args(i), unnamed);
  }
  if (has_receiver) post.Root("this", o.receiver());

  std::string outcome;
  switch (o.outcome().kind_case()) {
    case v1::Outcome::kReturnedVoid: outcome = out.outcome_key = "returns normally"; break;
    case v1::Outcome::kThrown: {
      const v1::Thrown& thrown = o.outcome().thrown();
      out.outcome_key = "throws " + thrown.class_name();
      outcome = out.outcome_key;
      if (thrown.has_message()) {
        std::string alias = disclosure != nullptr ? disclosure->String(thrown.message()) : "";
        absl::StrAppend(&outcome, "(", alias.empty() ? JavaString(thrown.message()) : alias, ")");
      }
      break;
    }
    case v1::Outcome::kReturned: {
      const v1::Value& value = o.outcome().returned();
      if (value.kind_case() == v1::Value::kRef) {
        post.Root("\\result", value);
        outcome = "returns an object (\\result)";
        out.outcome_key = "returns an object";
      } else if (value.kind_case() == v1::Value::kRedacted ||
                 value.kind_case() == v1::Value::KIND_NOT_SET) {
        outcome = out.outcome_key = "returns a value that was not recorded";
      } else {
        Flattener result({}, disclosure);
        result.Root("\\result", value);
        std::string literal = result.entries().front().rendered.substr(1);
        outcome = "returns " + literal;
        switch (value.kind_case()) {
          case v1::Value::kBoolValue:
          case v1::Value::kNullValue: out.outcome_key = outcome; break;
          case v1::Value::kStringValue:
            out.outcome_key = value.string_value().empty() ? outcome : "returns a string";
            break;
          default: out.outcome_key = "returns a value";
        }
        for (auto& number : result.numbers()) out.numbers.push_back(number);
        for (auto& special : result.specials()) out.specials.push_back(special);
      }
      break;
    }
    default: outcome = out.outcome_key = "outcome not recorded";
  }

  std::map<std::string, std::string> before;
  for (const Entry& e : pre.entries()) before[e.path] = e.rendered;
  std::vector<Entry> changed;
  for (const Entry& e : post.entries()) {
    auto it = before.find(e.path);
    if (it == before.end() || it->second != e.rendered) changed.push_back(e);
  }

  std::string inputs = JoinEntries(pre.entries());
  out.body = absl::StrCat(inputs.empty() ? "(no inputs)" : inputs, " -> ", outcome);
  if (!changed.empty()) absl::StrAppend(&out.body, "; after: ", JoinEntries(changed));
  for (auto& number : pre.numbers()) out.numbers.push_back(number);
  for (auto& special : pre.specials()) out.specials.push_back(special);
  return out;
}

ObservationSummary SummarizeObservations(const std::vector<v1::Observation>& observations,
                                         absl::string_view label_prefix, int token_budget,
                                         const std::vector<std::string>& param_names,
                                         StringDisclosure* disclosure) {
  ObservationSummary summary;
  summary.total = static_cast<int>(observations.size());

  // Merge equal behaviours, keeping the order of first occurrence.
  std::vector<Behaviour> behaviours;
  std::map<std::string, size_t> by_body;
  for (const v1::Observation& o : observations) {
    RenderedObservation rendered = RenderObservation(o, param_names, disclosure);
    auto [it, fresh] = by_body.emplace(rendered.body, behaviours.size());
    if (fresh) {
      behaviours.emplace_back();
      behaviours.back().rendered = std::move(rendered);
    }
    Behaviour& b = behaviours[it->second];
    ++b.count;
    bool listed = false;
    for (auto& [test, times] : b.tests) {
      if (test == o.test_id()) {
        ++times;
        listed = true;
      }
    }
    if (!listed) b.tests.push_back({o.test_id(), 1});
  }
  summary.distinct = static_cast<int>(behaviours.size());

  int all_tokens = 0;
  for (Behaviour& b : behaviours) {
    b.line = absl::StrCat(TestsLabel(b), ": ", b.rendered.body);
    b.tokens = EstimateTokens(b.line) + 2;  // label and newline
    all_tokens += b.tokens;
  }

  std::vector<bool> keep(behaviours.size(), false);
  if (all_tokens <= token_budget) {
    keep.assign(behaviours.size(), true);
  } else {
    // Rank: outcome kinds, numeric extremes, special values, then the rest.
    std::vector<size_t> priority;
    std::set<std::string> outcomes_seen;
    for (size_t i = 0; i < behaviours.size(); ++i) {
      if (outcomes_seen.insert(behaviours[i].rendered.outcome_key).second) priority.push_back(i);
    }
    std::map<std::string, std::pair<size_t, size_t>> extremes;  // path -> (min index, max index)
    std::map<std::string, std::pair<double, double>> extreme_values;
    for (size_t i = 0; i < behaviours.size(); ++i) {
      for (const auto& [path, value] : behaviours[i].rendered.numbers) {
        auto [it, fresh] = extreme_values.emplace(path, std::make_pair(value, value));
        if (fresh) {
          extremes[path] = {i, i};
          continue;
        }
        if (value < it->second.first) {
          it->second.first = value;
          extremes[path].first = i;
        }
        if (value > it->second.second) {
          it->second.second = value;
          extremes[path].second = i;
        }
      }
    }
    for (const auto& [path, indices] : extremes) {
      priority.push_back(indices.first);
      priority.push_back(indices.second);
    }
    std::set<std::string> specials_seen;
    for (size_t i = 0; i < behaviours.size(); ++i) {
      for (const std::string& special : behaviours[i].rendered.specials) {
        if (specials_seen.insert(special).second) priority.push_back(i);
      }
    }
    // The rest spread evenly over the whole list (bit-reversed order: the
    // middle, the quarters, the eighths, ...) rather than the first ones.
    size_t bits = 0;
    while ((size_t{1} << bits) < behaviours.size()) ++bits;
    for (size_t k = 0; k < (size_t{1} << bits); ++k) {
      size_t reversed = 0;
      for (size_t b = 0; b < bits; ++b) {
        if (k & (size_t{1} << b)) reversed |= size_t{1} << (bits - 1 - b);
      }
      if (reversed < behaviours.size()) priority.push_back(reversed);
    }

    int remaining = token_budget - kOmittedLineReserve;
    for (size_t i : priority) {
      if (keep[i] || behaviours[i].tokens > remaining) continue;
      keep[i] = true;
      remaining -= behaviours[i].tokens;
    }
  }

  std::vector<std::string> lines;
  int label = 0;
  for (size_t i = 0; i < behaviours.size(); ++i) {
    if (!keep[i]) continue;
    ++summary.shown;
    lines.push_back(absl::StrCat(label_prefix, ++label, " ", behaviours[i].line));
  }

  if (summary.shown < summary.distinct) {
    std::map<std::string, int> omitted_outcomes;
    std::map<std::string, std::pair<double, double>> ranges;
    for (size_t i = 0; i < behaviours.size(); ++i) {
      for (const auto& [path, value] : behaviours[i].rendered.numbers) {
        auto [it, fresh] = ranges.emplace(path, std::make_pair(value, value));
        it->second.first = std::min(it->second.first, value);
        it->second.second = std::max(it->second.second, value);
      }
      if (!keep[i]) omitted_outcomes[behaviours[i].rendered.outcome_key] += behaviours[i].count;
    }
    std::vector<std::string> outcome_parts;
    for (const auto& [key, n] : omitted_outcomes)
      outcome_parts.push_back(absl::StrCat(n, " ", key));
    std::string line =
        absl::StrCat("(", summary.distinct - summary.shown,
                     " more distinct behaviours omitted: ", absl::StrJoin(outcome_parts, ", "));
    std::vector<std::string> range_parts;
    for (const auto& [path, range] : ranges) {
      range_parts.push_back(absl::StrCat(path, " in [", FormatNumber(range.first), ", ",
                                         FormatNumber(range.second), "]"));
    }
    // The ranges fill what is left of the reserve, never more.
    std::string ranges_text;
    for (const std::string& part : range_parts) {
      std::string next = ranges_text.empty() ? part : ranges_text + ", " + part;
      if (EstimateTokens(line) + EstimateTokens(next) > kOmittedLineReserve - 8) break;
      ranges_text = next;
    }
    if (!ranges_text.empty())
      absl::StrAppend(&line, "; values over all observations: ", ranges_text);
    lines.push_back(line + ")");
  }
  summary.text = absl::StrJoin(lines, "\n");
  return summary;
}

}  // namespace tracespec::prompt

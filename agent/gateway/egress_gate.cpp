// The egress gate's checks; see egress_gate.h.
#include "agent/gateway/egress_gate.h"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "agent/gateway/egress_policy.h"
#include "common/glob.h"
#include "common/sensitive_mention.h"
#include "observer/probe/concat_recipe.h"
#include "observer/probe/substitute_value.h"
#include "rapidjson/document.h"

namespace tracespec::gateway {
namespace {

// Shortest withheld value: shorter ones (ids, small words) occur everywhere.
constexpr size_t kMinWithheldValueBytes = 4;

bool IsIdentChar(unsigned char c) { return absl::ascii_isalnum(c) || c == '_' || c == '$'; }

std::string Where(const std::string& path, absl::string_view text, size_t begin, size_t end) {
  int line = 1, column = 1;
  for (size_t i = 0; i < begin && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return absl::StrCat(path, " bytes ", begin, "..", end, " (line ", line, ", column ", column, ")");
}

// Calls `visit(path, text)` for every string value and key of a JSON value.
template <typename Visit>
void WalkJson(const rapidjson::Value& value, const std::string& path, const Visit& visit) {
  if (value.IsString()) {
    visit(path, absl::string_view(value.GetString(), value.GetStringLength()));
  } else if (value.IsArray()) {
    for (rapidjson::SizeType i = 0; i < value.Size(); ++i) {
      WalkJson(value[i], absl::StrCat(path, "[", i, "]"), visit);
    }
  } else if (value.IsObject()) {
    for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it) {
      absl::string_view key(it->name.GetString(), it->name.GetStringLength());
      std::string child = path.empty() ? std::string(key) : absl::StrCat(path, ".", key);
      visit(absl::StrCat(child, " (key)"), key);
      WalkJson(it->value, child, visit);
    }
  }
}

void CollectStrings(const v1::Value& value, std::set<std::string>* out) {
  if (value.kind_case() == v1::Value::kStringValue &&
      value.string_value().size() >= kMinWithheldValueBytes) {
    out->insert(value.string_value());
  }
}

void CollectObservationStrings(const v1::Observation& o, std::set<std::string>* out) {
  for (const v1::Value& arg : o.args()) CollectStrings(arg, out);
  for (const auto* graph : {&o.pre(), &o.post()}) {
    for (const v1::ObjectState& state : *graph) {
      for (const v1::Field& field : state.fields()) CollectStrings(field.value(), out);
      for (const v1::Value& element : state.array().elements()) CollectStrings(element, out);
    }
  }
  if (o.outcome().has_returned()) CollectStrings(o.outcome().returned(), out);
  if (o.outcome().thrown().message().size() >= kMinWithheldValueBytes) {
    out->insert(o.outcome().thrown().message());
  }
}

// The first occurrence of `name` as a whole identifier in `text`.
std::optional<size_t> FindIdentifier(absl::string_view text, absl::string_view name) {
  for (size_t at = text.find(name); at != absl::string_view::npos; at = text.find(name, at + 1)) {
    bool starts = at == 0 || !IsIdentChar(static_cast<unsigned char>(text[at - 1]));
    size_t end = at + name.size();
    bool ends = end == text.size() || !IsIdentChar(static_cast<unsigned char>(text[end]));
    if (starts && ends) return at;
  }
  return std::nullopt;
}

// Every occurrence of a value of `keys` in `text`, as byte ranges, in
// order of position (texts first, then numbers); occurrences of one text
// do not overlap.
std::vector<std::pair<size_t, size_t>> DeniedValuesIn(absl::string_view text,
                                                      const DeniedValueKeys& keys) {
  std::vector<std::pair<size_t, size_t>> found;
  auto alnum_at = [&](size_t i) {
    return i < text.size() && absl::ascii_isalnum(static_cast<unsigned char>(text[i]));
  };
  const std::string_view whole(text.data(), text.size());
  for (const auto& [bytes, texts] : keys.texts) {
    if (bytes > text.size()) break;
    // Whether the window at `at` is one of the texts.
    auto denied_at = [&, bytes = bytes, &texts = texts](size_t at) {
      std::string_view window = whole.substr(at, bytes);
      // A value of letters only (a word: a setting's name, a map key) is
      // found as a word, not inside an identifier or a longer word (a test
      // named timeoutDefault); any other value wherever it is.
      auto inside_a_word = [&] {
        return ((at > 0 && alnum_at(at - 1)) || alnum_at(at + bytes)) &&
               std::all_of(window.begin(), window.end(), [](char c) {
                 return absl::ascii_isalpha(static_cast<unsigned char>(c));
               });
      };
      return texts.count(probe::ConstantKey(window)) != 0 && !inside_a_word();
    };
    auto rolling = keys.rolling.find(bytes);
    if (rolling == keys.rolling.end() || rolling->second.size() != texts.size()) {
      // Some text without a rolling key: every window hashed.
      for (size_t at = 0; at + bytes <= text.size();) {
        if (denied_at(at)) {
          found.emplace_back(at, at + bytes);
          at += bytes;
        } else {
          ++at;
        }
      }
      continue;
    }
    std::vector<bool> candidate(size_t{1} << 16, false);
    for (const auto& [key, rolling_key] : rolling->second) candidate[rolling_key & 0xffff] = true;
    // Occurrences of one text do not overlap: after one, the search goes on
    // from its end.
    size_t next = 0;
    for (probe::RollingWindows windows(whole, bytes); windows.valid(); windows.Next()) {
      const size_t at = windows.at();
      if (at < next || !candidate[windows.key()] || !denied_at(at)) continue;
      found.emplace_back(at, at + bytes);
      next = at + bytes;
    }
  }
  if (!keys.numbers.empty()) {
    auto denied = [&](int64_t value) { return keys.numbers.count(probe::ConstantKey(value)) != 0; };
    probe::ForEachDecimalRun(whole, [&](const probe::DecimalRun& run) {
      if (run.negative.has_value() && denied(*run.negative)) {
        found.emplace_back(run.begin - 1, run.end);
      } else if (run.value.has_value() && (denied(*run.value) || denied(-*run.value))) {
        // The digits alone, read as either sign (a number's text may have
        // lost its minus sign, as the probe's own text redaction assumes).
        found.emplace_back(run.begin, run.end);
      }
    });
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

void DeniedValueKeys::AddText(uint32_t bytes, uint64_t key, std::optional<uint32_t> rolling_key) {
  texts[bytes].insert(key);
  if (rolling_key.has_value()) rolling[bytes][key] = *rolling_key;
}

size_t DeniedValueKeys::size() const {
  size_t n = numbers.size();
  for (const auto& [bytes, keys] : texts) n += keys.size();
  return n;
}

void DeniedValueKeys::Add(const google::protobuf::RepeatedPtrField<v1::DeniedTextKey>& text_keys,
                          const google::protobuf::RepeatedField<uint64_t>& number_keys) {
  for (const v1::DeniedTextKey& k : text_keys) {
    // Shorter texts occur everywhere; the probe reports none.
    if (k.bytes() < kMinWithheldValueBytes) continue;
    AddText(k.bytes(), k.key(),
            k.has_rolling() ? std::optional<uint32_t>(k.rolling()) : std::nullopt);
  }
  numbers.insert(number_keys.begin(), number_keys.end());
}

ProtectedMaterial ProtectedMaterialFrom(const v1::RedactionPolicy& policy,
                                        const std::vector<v1::Observation>& observations) {
  ProtectedMaterial material;
  // Only the deny rules that are exact names ("pin", "ssn") block a name
  // wherever it appears; a pattern ("*key*") is applied by the observer to
  // the values that can hold a secret, and the names of what it withheld
  // come back below as redacted field names. (A pattern here would block
  // `int key` in a search or a method named `tokenize` for good.)
  for (const std::string& deny : policy.deny()) {
    if (!IsGlobPattern(deny)) material.denied_name_patterns.push_back(deny);
  }
  material.sensitive_names.assign(policy.sensitive_names().begin(), policy.sensitive_names().end());
  material.plain_value_names = PlainValueNames(observations);
  // A field redacted only because it held a denied value at times (taint)
  // is shown elsewhere: its name is not confidential, a denied one is never
  // shown.
  std::set<std::string> redacted, shown;
  std::set<std::string> excluded_strings, included_strings;
  for (const v1::Observation& o : observations) {
    for (const auto* graph : {&o.pre(), &o.post()}) {
      for (const v1::ObjectState& state : *graph) {
        for (const v1::Field& field : state.fields()) {
          if (field.value().kind_case() == v1::Value::kRedacted) {
            redacted.insert(field.name());
          } else {
            shown.insert(field.name());
          }
        }
      }
    }
    if (o.excluded()) {
      CollectObservationStrings(o, &excluded_strings);
      if (o.test_id().size() >= kMinWithheldValueBytes) excluded_strings.insert(o.test_id());
    } else {
      CollectObservationStrings(o, &included_strings);
    }
  }
  for (const std::string& name : redacted) {
    if (shown.count(name) == 0) material.redacted_field_names.push_back(name);
  }
  for (const std::string& value : excluded_strings) {
    if (included_strings.count(value) == 0) material.withheld_values.push_back(value);
  }
  return material;
}

std::string GateVerdict::Summary() const {
  if (findings.empty()) return "allowed";
  std::string out = absl::StrCat("blocked by rule ", findings[0].rule, " at ", findings[0].where);
  if (findings.size() > 1) {
    absl::StrAppend(&out, "; and ", findings.size() - 1,
                    findings.size() == 2 ? " more finding" : " more findings");
  }
  return out;
}

absl::StatusOr<EgressGate> EgressGate::Create(
    v1::EgressPolicy policy, ProtectedMaterial material,
    std::shared_ptr<const ImplementationFingerprints> fingerprints) {
  EgressGate gate;
  auto scanner = SecretScanner::Create(policy);
  if (!scanner.ok()) return scanner.status();
  gate.secrets_ = std::make_shared<const SecretScanner>(*std::move(scanner));
  for (const std::string& name : material.redacted_field_names) {
    if (!name.empty()) gate.lower_redacted_names_.push_back(absl::AsciiStrToLower(name));
  }
  for (const std::string& name : material.sensitive_names) {
    if (!name.empty()) gate.lower_sensitive_names_.push_back(absl::AsciiStrToLower(name));
  }
  for (const std::string& term : policy.blocked_terms()) {
    if (!term.empty()) gate.lower_blocked_terms_.push_back(absl::AsciiStrToLower(term));
  }
  // What the JVM will see: the constants javac folded, scanned once.
  for (const TestClassConstants& cls : material.test_constants) {
    for (const std::string& text : cls.strings) {
      std::vector<SecretMatch> found = gate.secrets_->Scan(text);
      if (found.empty()) continue;
      // The name its source declares: the innermost one of a nested class
      // (JUnit 5's @Nested).
      std::string simple = cls.class_name.substr(cls.class_name.find_last_of(".$") + 1);
      gate.compiled_secrets_.emplace_back(simple, found[0].rule_id);
      break;
    }
  }
  gate.policy_ = std::move(policy);
  gate.material_ = std::move(material);
  gate.fingerprints_ = std::move(fingerprints);
  return gate;
}

void EgressGate::CheckText(const std::string& path, absl::string_view text,
                           std::vector<GateFinding>* findings) const {
  auto add = [&](std::string rule, size_t begin, size_t end) {
    findings->push_back({std::move(rule), Where(path, text, begin, end), true, path, begin, end});
  };
  for (const SecretMatch& m : secrets_->Scan(text)) add("secret." + m.rule_id, m.begin, m.end);
  for (const auto& [simple, rule] : compiled_secrets_) {
    std::optional<size_t> at = FindIdentifier(text, simple);
    if (!at) continue;
    findings->push_back({"secret." + rule,
                         absl::StrCat(Where(path, text, *at, *at + simple.size()),
                                      ": a string constant of the compiled ", simple,
                                      " (as javac folded it) matches this rule; the source sent "
                                      "spells it otherwise"),
                         true, path, *at, *at + simple.size()});
  }

  if (fingerprints_ != nullptr) {
    if (std::optional<CopiedText> copied = fingerprints_->FindCopiedText(text)) {
      findings->push_back({"implementation-source",
                           absl::StrCat(Where(path, text, copied->begin, copied->end), ": ",
                                        copied->tokens, " tokens match ", copied->source),
                           true, path, copied->begin, copied->end});
    }
  }

  // Spans of fixed prompt text: the name rules do not look inside them.
  std::vector<std::pair<size_t, size_t>> fixed;
  for (const std::string& t : material_.template_texts) {
    if (t.empty()) continue;
    for (size_t at = text.find(t); at != absl::string_view::npos; at = text.find(t, at + t.size())) {
      fixed.emplace_back(at, at + t.size());
    }
  }
  // A JSON key of the body is the wire protocol's own name (`name`, `schema`,
  // `content`, ...), written by the encoder, never taken from the code or
  // the tests: the name rules do not apply to it (the others do).
  const bool structural_key = absl::EndsWith(path, " (key)");
  auto in_fixed = [&fixed, structural_key](size_t begin, size_t end) {
    if (structural_key) return true;
    for (const auto& [b, e] : fixed) {
      if (b <= begin && end <= e) return true;
    }
    return false;
  };

  std::string lower = absl::AsciiStrToLower(text);
  // Identifiers: redacted field names and denied patterns.
  bool redacted_reported = false, denied_reported = false;
  size_t i = 0;
  while (i < lower.size() && !(redacted_reported && denied_reported)) {
    if (!IsIdentChar(static_cast<unsigned char>(lower[i]))) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < lower.size() && IsIdentChar(static_cast<unsigned char>(lower[j]))) ++j;
    absl::string_view word(lower.data() + i, j - i);
    if (in_fixed(i, j)) {
      i = j;
      continue;
    }
    if (!redacted_reported) {
      for (const std::string& name : lower_redacted_names_) {
        if (word == name) {
          add("redacted-field-name", i, j);
          redacted_reported = true;
          break;
        }
      }
    }
    bool exempt = std::find(material_.exempt_class_names.begin(),
                            material_.exempt_class_names.end(),
                            text.substr(i, j - i)) != material_.exempt_class_names.end();
    if (!denied_reported && !exempt) {
      for (const std::string& pattern : material_.denied_name_patterns) {
        if (GlobMatch(pattern, std::string_view(word.data(), word.size()), /*ignore_case=*/true)) {
          add("denied-field-name", i, j);
          denied_reported = true;
          break;
        }
      }
    }
    i = j;
  }
  // Sensitive names where they can carry data (common/sensitive_mention.h:
  // in a comment or literal, or naming the thing in a statement that spells
  // data — "token" in `String accessToken = "..."`, not in `tokenize` or
  // `new TokenBucket(5)`), outside the fixed prompt text.
  if (!lower_sensitive_names_.empty() && !structural_key) {
    std::string outside = std::string(text);
    for (const auto& [b, e] : fixed) outside.replace(b, e - b, e - b, ' ');
    for (const std::string& name : lower_sensitive_names_) {
      if (std::optional<MentionSpan> at = FindSensitiveMention(outside, name, &material_.plain_value_names)) {
        add("sensitive-name", at->begin, at->end);
        break;
      }
    }
  }
  for (const std::string& value : material_.withheld_values) {
    size_t at = text.find(value);
    if (at != absl::string_view::npos) {
      add("redacted-value", at, at + value.size());
      break;
    }
  }
  // Every occurrence, so that a blocked body stored in the audit log has
  // each of them masked.
  for (const auto& [begin, end] : DeniedValuesIn(text, material_.denied_keys)) {
    add("denied-value", begin, end);
  }
  for (const std::string& term : lower_blocked_terms_) {
    size_t at = lower.find(term);
    if (at != std::string::npos) {
      add("blocked-term", at, at + term.size());
      break;
    }
  }
}

GateVerdict EgressGate::Check(absl::string_view destination, absl::string_view payload) const {
  GateVerdict verdict;
  auto url = ParseUrl(destination);
  bool allowed = false;
  if (url.ok()) {
    for (const v1::Endpoint& endpoint : policy_.allow()) {
      if (EndpointAllows(endpoint, *url)) allowed = true;
    }
  }
  if (!allowed) {
    verdict.findings.push_back(
        {"endpoint-not-allowed",
         url.ok() ? absl::StrCat("destination ", url->scheme, "://", url->host, ":", url->port,
                                 url->path, " is not in the egress policy's allow list")
                  : "destination is not a plain http(s) URL",
         false, "", 0, 0});
  }
  int64_t cap =
      policy_.max_payload_bytes() > 0 ? policy_.max_payload_bytes() : kDefaultMaxPayloadBytes;
  if (static_cast<int64_t>(payload.size()) > cap) {
    verdict.findings.push_back(
        {"max-payload-bytes",
         absl::StrCat("payload of ", payload.size(), " bytes exceeds the cap of ", cap), false, "",
         0, 0});
  }
  rapidjson::Document doc;
  doc.Parse(payload.data(), payload.size());
  if (!doc.HasParseError()) {
    WalkJson(doc, "", [&](const std::string& path, absl::string_view text) {
      CheckText(path.empty() ? "(top)" : path, text, &verdict.findings);
    });
  } else {
    CheckText("body", payload, &verdict.findings);
  }
  return verdict;
}

}  // namespace tracespec::gateway

// The holders of text and their text; see text_holders.h.
#include "agent/prompt/text_holders.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/utf8.h"

namespace tracespec::prompt {
namespace {

const v1::Value* FieldValue(const v1::ObjectState& state, const std::string& name) {
  for (const v1::Field& f : state.fields()) {
    if (f.name() == name) return &f.value();
  }
  return nullptr;
}

// The array `value` refers to, when it is one with `descriptor` elements.
const v1::ArrayContents* ArrayOf(const v1::Value* value, const std::string& descriptor,
                                 const ObjectLookup& lookup) {
  if (value == nullptr || value->kind_case() != v1::Value::kRef) return nullptr;
  const v1::ObjectState* state = lookup(value->ref());
  if (state == nullptr || !state->has_array()) return nullptr;
  if (state->array().element_descriptor() != descriptor) return nullptr;
  return &state->array();
}

int Utf16Units(const std::string& utf8) {
  int units = 0;
  for (unsigned char c : utf8) {
    if ((c & 0xC0) != 0x80) units += c >= 0xF0 ? 2 : 1;  // Supplementary: two UTF-16 units.
  }
  return units;
}

// The first `n` elements of `array` as code units read by `unit`; false
// when fewer were recorded or one was withheld.
template <typename Get>
bool Elements(const v1::ArrayContents& array, int n, v1::Value::KindCase kind, Get get,
              std::vector<int>* out) {
  if (n < 0 || array.elements_size() < n) return false;
  for (int i = 0; i < n; ++i) {
    const v1::Value& e = array.elements(i);
    if (e.kind_case() != kind) return false;
    out->push_back(get(e));
  }
  return true;
}

HeldText Text(char kind, const std::string& type, std::vector<uint16_t> units, bool complete) {
  HeldText held;
  held.kind = kind;
  held.type = type;
  held.text = Utf16ToUtf8(units.data(), units.size());
  held.complete = complete;
  held.size = static_cast<int>(units.size());
  held.unit = "char";
  return held;
}

HeldText CharArray(const v1::ArrayContents& array) {
  std::vector<uint16_t> units;
  bool complete = array.elements_size() == array.length();
  for (const v1::Value& e : array.elements()) {
    if (e.kind_case() != v1::Value::kCharValue) {
      complete = false;
      break;
    }
    units.push_back(static_cast<uint16_t>(e.char_value()));
  }
  HeldText held = Text('c', "char[]", std::move(units), complete);
  held.size = array.length();
  return held;
}

std::optional<HeldText> Builder(const v1::ObjectState& state, const std::string& type,
                                const ObjectLookup& lookup) {
  HeldText unknown;
  unknown.type = type;
  unknown.complete = false;
  unknown.unit = "char";
  const v1::Value* count = FieldValue(state, "count");
  if (count == nullptr || count->kind_case() != v1::Value::kIntValue) return unknown;
  int n = count->int_value();
  unknown.size = n;
  const v1::Value* value = FieldValue(state, "value");
  std::vector<int> got;
  if (const v1::ArrayContents* chars = ArrayOf(value, "C", lookup)) {  // Before JDK 9.
    bool complete = Elements(*chars, n, v1::Value::kCharValue,
                             [](const v1::Value& e) { return e.char_value(); }, &got);
    if (!complete) return unknown;
    return Text('s', type, {got.begin(), got.end()}, true);
  }
  const v1::ArrayContents* bytes = ArrayOf(value, "B", lookup);
  const v1::Value* coder = FieldValue(state, "coder");
  if (bytes == nullptr || coder == nullptr || coder->kind_case() != v1::Value::kByteValue) {
    return unknown;
  }
  bool utf16 = coder->byte_value() != 0;
  if (!Elements(*bytes, utf16 ? 2 * n : n, v1::Value::kByteValue,
                [](const v1::Value& e) { return e.byte_value() & 0xFF; }, &got)) {
    return unknown;
  }
  std::vector<uint16_t> units;
  for (int i = 0; i < n; ++i) {
    // StringUTF16 stores a char in the platform's order: little-endian on
    // the JVMs the probe runs on.
    units.push_back(static_cast<uint16_t>(utf16 ? got[2 * i] | (got[2 * i + 1] << 8) : got[i]));
  }
  return Text('s', type, std::move(units), true);
}

bool Printable(uint32_t cp) {
  if (cp == '\t' || cp == '\n' || cp == '\r') return true;
  return cp >= 0x20 && cp != 0x7F && (cp < 0x80 || cp >= 0xA0);
}

// `bytes` as printable UTF-8 text, else as printable Latin-1; nullopt when
// neither.
std::optional<std::string> DecodeText(const std::vector<int>& bytes) {
  std::string utf8;
  bool valid = true;
  for (size_t i = 0; i < bytes.size() && valid;) {
    int c = bytes[i];
    int extra = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : -1;
    if (extra < 0 || i + static_cast<size_t>(extra) >= bytes.size()) {
      valid = false;
      break;
    }
    uint32_t cp = extra == 0 ? c : extra == 1 ? c & 0x1F : extra == 2 ? c & 0x0F : c & 0x07;
    for (int k = 1; k <= extra; ++k) {
      int next = bytes[i + static_cast<size_t>(k)];
      if ((next & 0xC0) != 0x80) valid = false;
      cp = (cp << 6) | (next & 0x3F);
    }
    static constexpr uint32_t kMinOf[] = {0, 0x80, 0x800, 0x10000};
    if (!valid || cp < kMinOf[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ||
        !Printable(cp)) {
      valid = false;
      break;
    }
    AppendUtf8(cp, &utf8);
    i += static_cast<size_t>(extra) + 1;
  }
  if (valid) return utf8;
  std::string latin1;
  for (int c : bytes) {
    if (!Printable(static_cast<uint32_t>(c))) return std::nullopt;
    AppendUtf8(static_cast<uint32_t>(c), &latin1);
  }
  return latin1;
}

// Text framed by a binary header (a length, a type tag) of at most
// kMaxBinaryPrefix bytes: what follows the header, at least kMinByteText
// bytes, when it reads as text. A header that is the text's length in 1, 2
// or 4 bytes, big- or little-endian, is preferred (a length of 32..126 is
// a printable byte, which would otherwise be read as the text's first
// character); else the shortest header after which the rest reads as text.
std::optional<std::string> TextAfterBinaryPrefix(const std::vector<int>& bytes) {
  auto after = [&bytes](size_t header) -> std::optional<std::string> {
    if (bytes.size() < header + kMinByteText) return std::nullopt;
    return DecodeText({bytes.begin() + static_cast<std::ptrdiff_t>(header), bytes.end()});
  };
  for (size_t header : {1, 2, 4}) {
    if (bytes.size() < header + kMinByteText) break;
    uint64_t big = 0;
    uint64_t little = 0;
    for (size_t i = 0; i < header; ++i) {
      big = big << 8 | static_cast<uint64_t>(bytes[i]);
      little |= static_cast<uint64_t>(bytes[i]) << (8 * i);
    }
    uint64_t length = bytes.size() - header;
    if (big != length && little != length) continue;
    if (std::optional<std::string> text = after(header)) return text;
  }
  for (size_t header = 1; header <= static_cast<size_t>(kMaxBinaryPrefix); ++header) {
    if (std::optional<std::string> text = after(header)) return text;
  }
  return std::nullopt;
}

// The text of the `n` bytes of `array` from `from` on — a byte[] whole, a
// ByteBuffer's window — when what was recorded of them reads as text once
// trailing zero bytes (never written: allocate() and new byte[] fill with
// them) are left off, as a whole or after a binary prefix; a window whose
// recorded part is text is taken for text as a whole. Sized `n` bytes.
std::optional<HeldText> Bytes(const std::string& type, const v1::ArrayContents& array, int from,
                              int n) {
  if (n < kMinByteText || from < 0 || from > array.length() - n) return std::nullopt;
  std::vector<int> bytes;
  for (int i = from; i < from + n && i < array.elements_size(); ++i) {
    const v1::Value& e = array.elements(i);
    if (e.kind_case() != v1::Value::kByteValue) break;
    bytes.push_back(e.byte_value() & 0xFF);
  }
  bool complete = bytes.size() == static_cast<size_t>(n);
  while (!bytes.empty() && bytes.back() == 0) bytes.pop_back();
  if (bytes.empty()) return std::nullopt;
  std::optional<std::string> text = DecodeText(bytes);
  if (!text.has_value()) text = TextAfterBinaryPrefix(bytes);
  if (!text.has_value()) return std::nullopt;
  HeldText held;
  held.kind = 'b';
  held.type = type;
  held.text = *std::move(text);
  held.complete = complete;
  held.size = n;
  held.unit = "byte";
  return held;
}

// A heap ByteBuffer: the window `hb[offset, offset + capacity)`. A direct
// buffer (no `hb`) or one whose array was not recorded holds no text that
// could be shown.
std::optional<HeldText> ByteBuffer(const v1::ObjectState& state, const ObjectLookup& lookup) {
  const v1::ArrayContents* hb = ArrayOf(FieldValue(state, "hb"), "B", lookup);
  const v1::Value* offset = FieldValue(state, "offset");
  const v1::Value* capacity = FieldValue(state, "capacity");
  if (hb == nullptr || offset == nullptr || capacity == nullptr ||
      offset->kind_case() != v1::Value::kIntValue ||
      capacity->kind_case() != v1::Value::kIntValue) {
    return std::nullopt;
  }
  return Bytes("ByteBuffer", *hb, offset->int_value(), capacity->int_value());
}

// The object `field` of `state` refers to, or null.
const v1::ObjectState* Referent(const v1::ObjectState& state, const std::string& field,
                                const ObjectLookup& lookup) {
  const v1::Value* value = FieldValue(state, field);
  if (value == nullptr || value->kind_case() != v1::Value::kRef) return nullptr;
  return lookup(value->ref());
}

// The address as getHostAddress() gives it: an Inet4Address's `holder`
// `address` int dotted; an Inet6Address's `holder6` `ipaddress` as eight
// hex groups (no zero compression, as the JDK writes them) and its scope.
HeldText Address(const v1::ObjectState& state, const std::string& type,
                 const ObjectLookup& lookup) {
  HeldText held;
  held.kind = 'a';
  held.type = type;
  held.complete = false;
  if (type == "Inet4Address") {
    const v1::ObjectState* holder = Referent(state, "holder", lookup);
    const v1::Value* address = holder != nullptr ? FieldValue(*holder, "address") : nullptr;
    if (address == nullptr || address->kind_case() != v1::Value::kIntValue) return held;
    auto a = static_cast<uint32_t>(address->int_value());
    held.text = absl::StrCat(a >> 24, ".", (a >> 16) & 0xFF, ".", (a >> 8) & 0xFF, ".", a & 0xFF);
    held.complete = true;
    return held;
  }
  const v1::ObjectState* holder = Referent(state, "holder6", lookup);
  if (holder == nullptr) return held;
  const v1::ArrayContents* ip = ArrayOf(FieldValue(*holder, "ipaddress"), "B", lookup);
  std::vector<int> bytes;
  if (ip == nullptr || ip->length() != 16 ||
      !Elements(*ip, 16, v1::Value::kByteValue,
                [](const v1::Value& e) { return e.byte_value() & 0xFF; }, &bytes)) {
    return held;
  }
  std::vector<std::string> groups;
  for (int i = 0; i < 8; ++i) {
    groups.push_back(absl::StrCat(absl::Hex(bytes[2 * i] << 8 | bytes[2 * i + 1])));
  }
  held.text = absl::StrJoin(groups, ":");
  auto flag = [&holder](const std::string& name) {
    const v1::Value* v = FieldValue(*holder, name);
    return v != nullptr && v->kind_case() == v1::Value::kBoolValue && v->bool_value();
  };
  if (flag("scope_ifname_set")) {
    const v1::ObjectState* nif = Referent(*holder, "scope_ifname", lookup);
    const v1::Value* name = nif != nullptr ? FieldValue(*nif, "name") : nullptr;
    if (name == nullptr || name->kind_case() != v1::Value::kStringValue) return held;
    absl::StrAppend(&held.text, "%", name->string_value());
  } else if (flag("scope_id_set")) {
    const v1::Value* id = FieldValue(*holder, "scope_id");
    if (id == nullptr || id->kind_case() != v1::Value::kIntValue) return held;
    absl::StrAppend(&held.text, "%", id->int_value());
  }
  held.complete = true;
  return held;
}

std::optional<HeldText> Uuid(const v1::ObjectState& state) {
  HeldText held;
  held.kind = 'u';
  held.type = "UUID";
  const v1::Value* most = FieldValue(state, "mostSigBits");
  const v1::Value* least = FieldValue(state, "leastSigBits");
  if (most == nullptr || least == nullptr || most->kind_case() != v1::Value::kLongValue ||
      least->kind_case() != v1::Value::kLongValue) {
    held.complete = false;
    return held;
  }
  auto hi = static_cast<uint64_t>(most->long_value());
  auto lo = static_cast<uint64_t>(least->long_value());
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%08llx-%04llx-%04llx-%04llx-%012llx",
                static_cast<unsigned long long>(hi >> 32),
                static_cast<unsigned long long>((hi >> 16) & 0xFFFF),
                static_cast<unsigned long long>(hi & 0xFFFF),
                static_cast<unsigned long long>(lo >> 48),
                static_cast<unsigned long long>(lo & 0xFFFFFFFFFFFFULL));
  held.text = buffer;
  return held;
}

// The decimal digits of the magnitude `mag` (big-endian 32-bit words).
std::string Decimal(std::vector<uint32_t> mag) {
  std::string digits;
  while (std::any_of(mag.begin(), mag.end(), [](uint32_t w) { return w != 0; })) {
    uint64_t rest = 0;
    for (uint32_t& w : mag) {
      uint64_t current = (rest << 32) | w;
      w = static_cast<uint32_t>(current / 1000000000u);
      rest = current % 1000000000u;
    }
    for (int k = 0; k < 9; ++k) {
      digits.push_back(static_cast<char>('0' + rest % 10));
      rest /= 10;
    }
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  if (digits.empty()) digits = "0";
  std::reverse(digits.begin(), digits.end());
  return digits;
}

// A BigInteger's sign ("-" or "") and digits; nullopt when not recorded.
std::optional<std::pair<std::string, std::string>> BigIntegerDigits(const v1::ObjectState& state,
                                                                   const ObjectLookup& lookup) {
  const v1::Value* signum = FieldValue(state, "signum");
  const v1::ArrayContents* mag = ArrayOf(FieldValue(state, "mag"), "I", lookup);
  if (signum == nullptr || signum->kind_case() != v1::Value::kIntValue || mag == nullptr) {
    return std::nullopt;
  }
  std::vector<int> words;
  if (!Elements(*mag, mag->length(), v1::Value::kIntValue,
                [](const v1::Value& e) { return e.int_value(); }, &words)) {
    return std::nullopt;
  }
  std::string digits = Decimal({words.begin(), words.end()});
  return std::make_pair(std::string(signum->int_value() < 0 ? "-" : ""), digits);
}

HeldText Number(const std::string& type, const std::string& sign, const std::string& digits,
                int scale) {
  HeldText held;
  held.kind = 'n';
  held.type = type;
  held.unit = "digit";
  held.size = static_cast<int>(digits.size());
  std::string plain = digits;
  if (scale > 0) {
    if (plain.size() <= static_cast<size_t>(scale)) {
      plain.insert(0, static_cast<size_t>(scale) - plain.size() + 1, '0');
    }
    plain.insert(plain.size() - static_cast<size_t>(scale), ".");
  } else if (scale < 0 && digits != "0") {
    plain.append(static_cast<size_t>(-static_cast<int64_t>(scale)), '0');
  }
  held.text = sign + plain;
  return held;
}

std::optional<HeldText> BigDecimal(const v1::ObjectState& state, const ObjectLookup& lookup) {
  HeldText unknown;
  unknown.kind = 'n';
  unknown.type = "BigDecimal";
  unknown.unit = "digit";
  unknown.complete = false;
  const v1::Value* scale = FieldValue(state, "scale");
  const v1::Value* compact = FieldValue(state, "intCompact");
  if (scale == nullptr || scale->kind_case() != v1::Value::kIntValue || compact == nullptr ||
      compact->kind_case() != v1::Value::kLongValue) {
    return unknown;
  }
  if (compact->long_value() != std::numeric_limits<int64_t>::min()) {  // Not INFLATED.
    int64_t v = compact->long_value();
    uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    return Number("BigDecimal", v < 0 ? "-" : "", std::to_string(magnitude), scale->int_value());
  }
  const v1::Value* big = FieldValue(state, "intVal");
  const v1::ObjectState* unscaled =
      big != nullptr && big->kind_case() == v1::Value::kRef ? lookup(big->ref()) : nullptr;
  if (unscaled == nullptr) return unknown;
  auto digits = BigIntegerDigits(*unscaled, lookup);
  if (!digits.has_value()) return unknown;
  return Number("BigDecimal", digits->first, digits->second, scale->int_value());
}

}  // namespace

HeldText StringText(const std::string& value) {
  HeldText held;
  held.kind = 's';
  held.type = "String";
  held.text = value;
  held.size = Utf16Units(value);
  held.unit = "char";
  return held;
}

std::optional<HeldText> TextHeldBy(const v1::ObjectState& state, const ObjectLookup& lookup) {
  if (state.has_array()) {
    const std::string& element = state.array().element_descriptor();
    if (element == "C") return CharArray(state.array());
    if (element == "B") return Bytes("byte[]", state.array(), 0, state.array().length());
    return std::nullopt;
  }
  // Fields not recorded (depth limit): no text to show or hide.
  if (state.truncated() || state.fields().empty()) return std::nullopt;
  const std::string& name = state.class_name();
  if (name == "java.lang.StringBuilder") return Builder(state, "StringBuilder", lookup);
  if (name == "java.lang.StringBuffer") return Builder(state, "StringBuffer", lookup);
  if (name == "java.util.UUID") return Uuid(state);
  if (name == "java.nio.HeapByteBuffer" || name == "java.nio.HeapByteBufferR") {
    return ByteBuffer(state, lookup);
  }
  if (name == "java.net.Inet4Address") return Address(state, "Inet4Address", lookup);
  if (name == "java.net.Inet6Address") return Address(state, "Inet6Address", lookup);
  if (name == "java.math.BigInteger") {
    auto digits = BigIntegerDigits(state, lookup);
    if (!digits.has_value()) {
      HeldText unknown = Number("BigInteger", "", "", 0);
      unknown.complete = false;
      return unknown;
    }
    return Number("BigInteger", digits->first, digits->second, 0);
  }
  if (name == "java.math.BigDecimal") return BigDecimal(state, lookup);
  return std::nullopt;
}

}  // namespace tracespec::prompt

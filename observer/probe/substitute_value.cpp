// Same-shape substitutes; see substitute_value.h.
#include "observer/probe/substitute_value.h"

#include <cstring>

#include "common/utf8.h"

namespace tracespec::probe {
namespace {

// The characters `c` may become: [first, first + size), or the `size`
// characters of `table` when it is set. Size 0: `c` is kept.
struct CharClass {
  uint16_t first = 0;
  uint32_t size = 0;
  const char* table = nullptr;
};

// Printable ASCII characters other than letters and digits.
constexpr char kPunctuation[] = " !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

CharClass ClassOf(uint16_t c, bool punctuation) {
  if (c >= 'A' && c <= 'Z') return {'A', 26};
  if (c >= 'a' && c <= 'z') return {'a', 26};
  if (c >= '0' && c <= '9') return {'0', 10};
  if (c < 0x80) {
    if (!punctuation || c < 0x20 || c == 0x7F) return {};
    return {0, sizeof kPunctuation - 1, kPunctuation};
  }
  if (c < 0x100) return {0x80, 128};
  if (c >= 0xD800 && c <= 0xDFFF) return {};
  return {static_cast<uint16_t>(c & 0xFF00), 256};
}

// `c` moved by `offset` (1..size-1) places within its class.
uint16_t Move(uint16_t c, const CharClass& k, uint64_t offset) {
  if (k.table == nullptr) return static_cast<uint16_t>(k.first + (c - k.first + offset) % k.size);
  uint64_t at = 0;
  while (k.table[at] != static_cast<char>(c)) ++at;
  return static_cast<uint16_t>(static_cast<unsigned char>(k.table[(at + offset) % k.size]));
}

// The shared rule of SubstituteText and SubstituteTextVariant: at position i
// the offset is 1 + (variant - 1 + r_i) mod (size - 1), so that variants
// 1..size-1 give every other character of the class once.
std::vector<uint16_t> Substitute(uint64_t seed, const std::vector<uint16_t>& text,
                                 uint64_t variant, bool punctuation) {
  uint64_t h = SubstituteHash(seed, text.data(), text.size() * sizeof(uint16_t));
  std::vector<uint16_t> out(text);
  for (size_t i = 0; i < out.size(); ++i) {
    CharClass k = ClassOf(out[i], punctuation);
    if (k.size < 2) continue;
    uint64_t r = SubstituteMix(h + i);
    out[i] = Move(out[i], k, 1 + (variant - 1 + r % (k.size - 1)) % (k.size - 1));
  }
  return out;
}

}  // namespace

uint64_t SubstituteMix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t SubstituteHash(uint64_t seed, const void* data, size_t size) {
  uint64_t h = SubstituteMix(seed ^ 0x6a09e667f3bcc909ULL);
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) h = SubstituteMix(h ^ bytes[i]);
  return SubstituteMix(h ^ size);
}

std::vector<uint16_t> SubstituteText(uint64_t seed, const std::vector<uint16_t>& text) {
  return Substitute(seed, text, /*variant=*/1, /*punctuation=*/false);
}

std::vector<uint16_t> SubstituteTextVariant(uint64_t seed, const std::vector<uint16_t>& text,
                                            int variant) {
  return Substitute(seed, text, variant < 1 ? 1 : static_cast<uint64_t>(variant),
                    /*punctuation=*/true);
}

uint64_t SubstituteIntegral(uint64_t seed, uint64_t value, int bits) {
  uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  // Any nonzero offset modulo 2^bits gives another value of the same type.
  uint64_t offset = SubstituteMix(seed ^ SubstituteMix(value)) & mask;
  if (offset == 0) offset = 1;
  return (value + offset) & mask;
}

double SubstituteFloating(uint64_t seed, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  double offset = 1 + static_cast<double>(SubstituteMix(seed ^ bits) % 1000);
  double out = value + offset;
  // Too large to move by the offset: change the sign instead.
  if (out == value) out = value == 0 ? offset : -value;
  return out;
}

std::pair<uint64_t, uint64_t> SubstituteUuid(uint64_t seed, uint64_t most, uint64_t least) {
  constexpr uint64_t kVersion = 0xF000;
  constexpr uint64_t kVariant = 0xE000000000000000ULL;
  const uint64_t words[2] = {most, least};
  uint64_t h = SubstituteHash(seed, words, sizeof words);
  // A nonzero change within the bits that are neither version nor variant.
  uint64_t most_change = SubstituteMix(h) & ~kVersion;
  uint64_t least_change = SubstituteMix(h + 1) & ~kVariant;
  if (most_change == 0) most_change = 1;
  if (least_change == 0) least_change = 1;
  return {most ^ most_change, least ^ least_change};
}

std::vector<uint8_t> SubstituteAddress(uint64_t seed, const std::vector<uint8_t>& address) {
  uint64_t h = SubstituteHash(seed, address.data(), address.size());
  std::vector<uint8_t> out(address.size());
  for (size_t i = 0; i < address.size(); ++i) {
    out[i] = static_cast<uint8_t>(SubstituteIntegral(SubstituteMix(h + i), address[i], 8));
  }
  if (out.size() == 16) {
    bool mapped = out[10] == 0xFF && out[11] == 0xFF;
    for (size_t i = 0; i < 10 && mapped; ++i) mapped = out[i] == 0;
    // Any other nonzero first byte: IPv6 again, and still another address.
    if (mapped) out[0] = address[0] == 1 ? 2 : 1;
  }
  return out;
}

namespace {
// Keys are hashes under a fixed seed of their own: the same constant has
// the same key in run A and in the substituted run, whatever the seed.
constexpr uint64_t kConstantKeySeed = 0x636f6e7374616e74;  // "constant"
}  // namespace

uint64_t ConstantKey(std::string_view utf8_text) {
  // SubstituteHash(kConstantKeySeed, "S" + utf8_text) without the copy: the
  // egress gate hashes every window of a request's text.
  uint64_t h = SubstituteMix(kConstantKeySeed ^ 0x6a09e667f3bcc909ULL);
  h = SubstituteMix(h ^ static_cast<unsigned char>('S'));
  for (char c : utf8_text) h = SubstituteMix(h ^ static_cast<unsigned char>(c));
  return SubstituteMix(h ^ (utf8_text.size() + 1));
}

namespace {

// The rolling hash: sum of (byte + 1) * kRollingBase^(distance from the
// window's end), mod 2^64; the key mixes it with the seed and the length.
constexpr uint64_t kRollingBase = 0x9e3779b97f4a7c15ULL;  // odd

uint32_t RollingKeyOf(uint64_t hash, size_t length) {
  return static_cast<uint32_t>(
      SubstituteMix(hash ^ SubstituteMix(kConstantKeySeed ^ 0xbb67ae8584caa73bULL ^ length)) >>
      48);
}

}  // namespace

uint32_t RollingKey(std::string_view utf8_text) {
  uint64_t hash = 0;
  for (char c : utf8_text) hash = hash * kRollingBase + static_cast<unsigned char>(c) + 1;
  return RollingKeyOf(hash, utf8_text.size());
}

RollingWindows::RollingWindows(std::string_view text, size_t length)
    : text_(text), length_(length) {
  if (!valid()) return;
  for (size_t i = 0; i < length_; ++i) {
    hash_ = hash_ * kRollingBase + static_cast<unsigned char>(text_[i]) + 1;
    if (i > 0) first_weight_ *= kRollingBase;
  }
}

uint32_t RollingWindows::key() const { return RollingKeyOf(hash_, length_); }

void RollingWindows::Next() {
  ++at_;
  if (!valid()) return;
  hash_ -= (static_cast<unsigned char>(text_[at_ - 1]) + 1ULL) * first_weight_;
  hash_ = hash_ * kRollingBase + static_cast<unsigned char>(text_[at_ + length_ - 1]) + 1;
}

uint64_t ConstantKey(int64_t value) {
  std::string data = "N" + std::to_string(value);
  return SubstituteHash(kConstantKeySeed, data.data(), data.size());
}

std::string ModifiedUtf8ToUtf8(const std::string& text) {
  std::u16string units = Utf8ToUtf16(text);
  return Utf16ToUtf8(reinterpret_cast<const uint16_t*>(units.data()), units.size());
}

std::string SubstituteModifiedUtf8(uint64_t seed, const std::string& text) {
  std::u16string units = Utf8ToUtf16(text);
  std::vector<uint16_t> substituted =
      SubstituteText(seed, std::vector<uint16_t>(units.begin(), units.end()));
  std::string out;
  for (uint16_t unit : substituted) {
    if (unit == 0) {
      out.append("\xC0\x80");
    } else {
      AppendUtf8(unit, &out);  // a surrogate as its own three bytes
    }
  }
  return out;
}

}  // namespace tracespec::probe

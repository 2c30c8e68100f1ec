// Same-shape substitutes; see substitute_value.h.
#include "observer/probe/substitute_value.h"

#include <cstring>

namespace tracespec::probe {
namespace {

// `c` moved by 1..size-1 places within [first, first + size).
uint16_t Rotate(uint16_t c, uint16_t first, uint64_t size, uint64_t r) {
  return static_cast<uint16_t>(first + (c - first + 1 + r % (size - 1)) % size);
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
  uint64_t h = SubstituteHash(seed, text.data(), text.size() * sizeof(uint16_t));
  std::vector<uint16_t> out(text);
  for (size_t i = 0; i < out.size(); ++i) {
    uint16_t c = out[i];
    uint64_t r = SubstituteMix(h + i);
    if (c >= 'A' && c <= 'Z') {
      out[i] = Rotate(c, 'A', 26, r);
    } else if (c >= 'a' && c <= 'z') {
      out[i] = Rotate(c, 'a', 26, r);
    } else if (c >= '0' && c <= '9') {
      out[i] = Rotate(c, '0', 10, r);
    } else if (c >= 0x80 && c < 0x100) {
      out[i] = Rotate(c, 0x80, 128, r);
    } else if (c >= 0x100 && (c < 0xD800 || c > 0xDFFF)) {
      out[i] = Rotate(c, static_cast<uint16_t>(c & 0xFF00), 256, r);
    }
  }
  return out;
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

}  // namespace tracespec::probe

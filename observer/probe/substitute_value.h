// The substitutes of `observe --noninterference` (substitute.h), as plain
// C++ so that their properties are unit-tested without a JVM. Each is
// deterministic in (seed, original value) and differs from the original
// wherever the shape allows (see substitute.h for what is kept).
#ifndef TRACESPEC_OBSERVER_PROBE_SUBSTITUTE_VALUE_H_
#define TRACESPEC_OBSERVER_PROBE_SUBSTITUTE_VALUE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tracespec::probe {

// SplitMix64's finaliser.
uint64_t SubstituteMix(uint64_t x);
// Hash of (seed, bytes): a substitute depends on the whole original value.
uint64_t SubstituteHash(uint64_t seed, const void* data, size_t size);

// Substitute text (UTF-16 code units) of the same length: ASCII letters and
// digits stay in their class (upper, lower, digit) with another value,
// other ASCII characters are kept, U+0080..U+00FF move within that range,
// other characters within their block of 256, surrogates are kept.
std::vector<uint16_t> SubstituteText(uint64_t seed, const std::vector<uint16_t>& text);
// The `variant`-th (from 1) of a family of substitutes of `text`, for
// telling whether something computed from the text depends on it (the
// refinement loop's feedback, agent/loop/withheld_verdicts.h): the classes
// of SubstituteText, plus the printable ASCII characters other than letters
// and digits (U+0020..U+007E), which SubstituteText keeps, as one more
// class. At each position, variants 1..size-1 of a class of `size`
// characters give every other character of the class exactly once (in an
// order that depends on the seed, the text and the position); variant 1
// differs from SubstituteText only in the punctuation.
std::vector<uint16_t> SubstituteTextVariant(uint64_t seed, const std::vector<uint16_t>& text,
                                            int variant);
// Another value of an integral type `bits` wide, as the type's bits (two's
// complement, zero-extended into the result).
uint64_t SubstituteIntegral(uint64_t seed, uint64_t value, int bits);
// Another value (NaN stays NaN).
double SubstituteFloating(uint64_t seed, double value);

// Another UUID, as its (most, least) significant longs, of the same version
// and variant: the version nibble (bits 12..15 of `most`) and the three
// top bits of `least` (the widest variant field) are kept; both longs
// change elsewhere.
std::pair<uint64_t, uint64_t> SubstituteUuid(uint64_t seed, uint64_t most, uint64_t least);
// Another IP address of the same length (4 bytes: IPv4, 16: IPv6), every
// byte changed; an IPv6 substitute is never IPv4-mapped (::ffff:a.b.c.d),
// which the JDK would turn into an IPv4 address.
std::vector<uint8_t> SubstituteAddress(uint64_t seed, const std::vector<uint8_t>& address);

// The key of a constant a class loads (ldc) that equals a denied value:
// run A's probe reports the keys of such constants
// (ProbeStatus.denied_constants), the substituted run's probe replaces the
// constants with these keys as their classes load
// (ProbeConfig.substitute_constants). A hash, so that neither file holds
// the value. Text as UTF-8; an Integer and a Long of the same value share
// their key.
uint64_t ConstantKey(std::string_view utf8_text);
uint64_t ConstantKey(int64_t value);

// A text's rolling key: 16 bits, keyed like ConstantKey, that the egress
// gate computes for every window of a request of the text's length in one
// pass (RollingWindows), so that it hashes a window with ConstantKey only
// when its rolling key is a denied text's. Only 16 bits of a keyed hash:
// it tells less about the text than its ConstantKey does.
uint32_t RollingKey(std::string_view utf8_text);

// The rolling keys of the windows of one length of a text, in order:
// RollingKey(text.substr(at, length)) for at = 0, 1, ... without hashing
// each window anew.
class RollingWindows {
 public:
  RollingWindows(std::string_view text, size_t length);
  // The window at `at()` exists (at() + length <= text.size()).
  bool valid() const { return at_ + length_ <= text_.size(); }
  size_t at() const { return at_; }
  uint32_t key() const;
  // Moves to the next window.
  void Next();

 private:
  std::string_view text_;
  size_t length_;
  size_t at_ = 0;
  // The window's polynomial hash, and the weight of its first byte.
  uint64_t hash_ = 0;
  uint64_t first_weight_ = 1;
};

// A class file's string constant (modified UTF-8) as UTF-8, as the taint
// set holds text.
std::string ModifiedUtf8ToUtf8(const std::string& text);
// SubstituteText of a class file's string constant, in and out as
// modified UTF-8 (JVMS 4.4.7: U+0000 as two bytes, a supplementary
// character as its two surrogates).
std::string SubstituteModifiedUtf8(uint64_t seed, const std::string& text);

}  // namespace tracespec::probe

#endif  // TRACESPEC_OBSERVER_PROBE_SUBSTITUTE_VALUE_H_

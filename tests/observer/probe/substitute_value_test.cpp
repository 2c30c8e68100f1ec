// Tests for observer/probe/substitute_value.h: substitutes keep the shape,
// differ from the original and are deterministic.
#include "observer/probe/substitute_value.h"

#include <cmath>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace tracespec::probe {
namespace {

std::vector<uint16_t> Units(const std::u16string& s) { return {s.begin(), s.end()}; }

TEST(SubstituteValueTest, TextKeepsLengthAndCharacterClassesAndChangesEveryAlphanumeric) {
  std::vector<uint16_t> original = Units(u"Zq7-Kx9 Lm2_\u00e9\u0416\xd83d\xde00");
  std::vector<uint16_t> out = SubstituteText(1, original);
  ASSERT_EQ(out.size(), original.size());
  for (size_t i = 0; i < out.size(); ++i) {
    uint16_t a = original[i];
    uint16_t b = out[i];
    if (a >= 'A' && a <= 'Z') {
      EXPECT_TRUE(b >= 'A' && b <= 'Z' && b != a) << i;
    } else if (a >= 'a' && a <= 'z') {
      EXPECT_TRUE(b >= 'a' && b <= 'z' && b != a) << i;
    } else if (a >= '0' && a <= '9') {
      EXPECT_TRUE(b >= '0' && b <= '9' && b != a) << i;
    } else if (a < 0x80 || (a >= 0xD800 && a <= 0xDFFF)) {
      EXPECT_EQ(b, a) << i;  // The shape: separators and surrogates stay.
    } else {
      EXPECT_NE(b, a) << i;
      EXPECT_EQ(b & 0xFF00, a < 0x100 ? 0 : a & 0xFF00) << i;
    }
  }
  EXPECT_EQ(SubstituteText(1, original), out);
  EXPECT_NE(SubstituteText(2, original), out);
}

TEST(SubstituteValueTest, TextVariantsGiveEachPositionEveryOtherCharacterOfItsClass) {
  const std::string punctuation = " !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
  ASSERT_EQ(punctuation.size(), 33u);
  std::vector<uint16_t> original = Units(u"aZ5@ .\u00e9\n");
  std::vector<std::set<uint16_t>> seen(original.size());
  for (int variant = 1; variant <= 32; ++variant) {
    std::vector<uint16_t> out = SubstituteTextVariant(7, original, variant);
    ASSERT_EQ(out.size(), original.size());
    EXPECT_EQ(SubstituteTextVariant(7, original, variant), out);
    for (size_t i = 0; i < out.size(); ++i) seen[i].insert(out[i]);
    EXPECT_EQ(out.back(), '\n');  // control characters are kept
  }
  auto range = [](char first, char last) {
    std::set<uint16_t> out;
    for (char c = first; c <= last; ++c) out.insert(static_cast<uint16_t>(c));
    return out;
  };
  auto without = [](std::set<uint16_t> all, uint16_t c) {
    all.erase(c);
    return all;
  };
  std::set<uint16_t> punct(punctuation.begin(), punctuation.end());
  EXPECT_EQ(seen[0], without(range('a', 'z'), 'a'));
  EXPECT_EQ(seen[1], without(range('A', 'Z'), 'Z'));
  EXPECT_EQ(seen[2], without(range('0', '9'), '5'));
  EXPECT_EQ(seen[3], without(punct, '@'));
  EXPECT_EQ(seen[4], without(punct, ' '));
  EXPECT_EQ(seen[5], without(punct, '.'));
  EXPECT_EQ(seen[6].size(), 32u);
  EXPECT_EQ(seen[6].count(0xE9), 0u);
  for (uint16_t c : seen[6]) EXPECT_TRUE(c >= 0x80 && c < 0x100) << c;
  // Variant 1 is SubstituteText with the punctuation moved too.
  std::vector<uint16_t> first = SubstituteTextVariant(7, original, 1);
  std::vector<uint16_t> plain = SubstituteText(7, original);
  for (size_t i = 0; i < first.size(); ++i) {
    if (i == 3 || i == 4 || i == 5) continue;
    EXPECT_EQ(first[i], plain[i]) << i;
  }
}

TEST(SubstituteValueTest, ConstantKeysTellTextFromNumbersAndAreTheSameForIntAndLong) {
  EXPECT_EQ(ConstantKey(int64_t{98765}), ConstantKey(int64_t{98765}));
  EXPECT_NE(ConstantKey(int64_t{98765}), ConstantKey(int64_t{98766}));
  EXPECT_NE(ConstantKey(std::string_view("98765")), ConstantKey(int64_t{98765}));
  EXPECT_NE(ConstantKey(std::string_view("Rt5Y")), ConstantKey(std::string_view("Rt5Z")));
  // A text's key is the hash of "S" and the text under the constants' seed
  // (as in the summaries earlier runs wrote), computed without a copy.
  EXPECT_EQ(ConstantKey(std::string_view("Rt5Y")),
            SubstituteHash(0x636f6e7374616e74, "SRt5Y", 5));
  EXPECT_EQ(ConstantKey(std::string_view("")), SubstituteHash(0x636f6e7374616e74, "S", 1));
  // A class file's text is read as the taint set holds it: U+0000 and a
  // supplementary character as UTF-8, not in their modified forms.
  EXPECT_EQ(ModifiedUtf8ToUtf8("a\xC0\x80\xED\xA0\xBD\xED\xB8\x80"),
            std::string("a") + '\0' + "\xF0\x9F\x98\x80");
  std::string substituted = SubstituteModifiedUtf8(3, "Ab\xC0\x80\xED\xA0\xBD\xED\xB8\x80");
  EXPECT_EQ(substituted.size(), 10u);
  EXPECT_EQ(substituted.substr(2, 2), "\xC0\x80");
  EXPECT_EQ(substituted.substr(4), "\xED\xA0\xBD\xED\xB8\x80");  // surrogates are kept
  EXPECT_NE(substituted.substr(0, 2), "Ab");
  EXPECT_EQ(SubstituteModifiedUtf8(3, "Ab\xC0\x80\xED\xA0\xBD\xED\xB8\x80"), substituted);
}

// The rolling key of every window of a text, computed in one pass, is the
// window's own RollingKey: 16 bits, depending on every byte and the length.
TEST(SubstituteValueTest, RollingWindowsGiveEachWindowsRollingKey) {
  const std::string text =
      "assertEquals(\"badge:maple-harbor-lantern\", b.label()); // \xC3\xA9t\xC3\xA9 \xFF\x01";
  for (size_t length : {size_t{1}, size_t{4}, size_t{7}, size_t{20}, text.size()}) {
    size_t windows = 0;
    for (RollingWindows w(text, length); w.valid(); w.Next()) {
      ASSERT_EQ(w.at(), windows);
      EXPECT_EQ(w.key(), RollingKey(std::string_view(text).substr(w.at(), length)))
          << "length " << length << " at " << w.at();
      ++windows;
    }
    EXPECT_EQ(windows, text.size() - length + 1);
  }
  EXPECT_FALSE(RollingWindows(text, text.size() + 1).valid());
  EXPECT_LT(RollingKey("maple-harbor-lantern"), 1u << 16);
  EXPECT_NE(RollingKey("maple-harbor-lantern"), RollingKey("maple-harbor-lanterN"));
  EXPECT_NE(RollingKey("abcd"), RollingKey("bcda"));
}

TEST(SubstituteValueTest, IntegralsStayInTheirWidthAndDiffer) {
  for (int bits : {8, 16, 32, 64}) {
    uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{42}, mask, mask >> 1}) {
      uint64_t out = SubstituteIntegral(1, v & mask, bits);
      EXPECT_NE(out, v & mask) << bits << " " << v;
      EXPECT_EQ(out & ~mask, 0u) << bits << " " << v;
      EXPECT_EQ(SubstituteIntegral(1, v & mask, bits), out);
    }
  }
}

TEST(SubstituteValueTest, FloatingValuesDifferAndNaNStaysNaN) {
  for (double v : {0.0, -1.5, 1e300, 3.25}) {
    EXPECT_NE(SubstituteFloating(1, v), v) << v;
  }
  EXPECT_TRUE(std::isnan(SubstituteFloating(1, std::nan(""))));
}

TEST(SubstituteValueTest, AUuidKeepsItsVersionAndVariantAndBothLongsChange) {
  // 5f0c2a9e-7d41-4b3a-9e26-c18f03d7ab54 (version 4, variant 2), the nil
  // UUID and an all-ones one (no free bit may be left unchanged).
  const std::pair<uint64_t, uint64_t> uuids[] = {
      {0x5f0c2a9e7d414b3aULL, 0x9e26c18f03d7ab54ULL}, {0, 0}, {~uint64_t{0}, ~uint64_t{0}}};
  for (auto [most, least] : uuids) {
    auto [m, l] = SubstituteUuid(1, most, least);
    EXPECT_NE(m, most);
    EXPECT_NE(l, least);
    EXPECT_EQ(m & 0xF000, most & 0xF000);                            // version
    EXPECT_EQ(l >> 61, least >> 61);                                 // variant
    EXPECT_EQ(SubstituteUuid(1, most, least), std::make_pair(m, l));  // deterministic
    EXPECT_NE(SubstituteUuid(2, most, least), std::make_pair(m, l));  // seeded
  }
  // Each long depends on the whole UUID.
  EXPECT_NE(SubstituteUuid(1, 7, 1).first, SubstituteUuid(1, 7, 2).first);
}

TEST(SubstituteValueTest, AnAddressKeepsItsLengthAndEveryByteChanges) {
  const std::vector<uint8_t> v4 = {10, 41, 7, 203};
  std::vector<uint8_t> v6(16, 0);
  v6[0] = 0xfd;
  v6[15] = 7;
  for (const std::vector<uint8_t>& address : {v4, v6}) {
    std::vector<uint8_t> out = SubstituteAddress(1, address);
    ASSERT_EQ(out.size(), address.size());
    for (size_t i = 0; i < out.size(); ++i) EXPECT_NE(out[i], address[i]) << i;
    EXPECT_EQ(SubstituteAddress(1, address), out);
    EXPECT_NE(SubstituteAddress(2, address), out);
  }
}

}  // namespace
}  // namespace tracespec::probe

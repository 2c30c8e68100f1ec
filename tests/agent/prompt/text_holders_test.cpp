// Tests for agent/prompt/text_holders.h: which recorded objects hold text
// and what the text is, read from the layout the probe records.
#include "agent/prompt/text_holders.h"

#include <limits>
#include <map>

#include "gtest/gtest.h"
#include "tests/agent/observation_builders.h"

namespace tracespec::prompt {
namespace {

using Graph = google::protobuf::RepeatedPtrField<v1::ObjectState>;

std::optional<HeldText> Held(const Graph& graph, uint64_t id) {
  std::map<uint64_t, const v1::ObjectState*> by_id;
  for (const v1::ObjectState& s : graph) by_id[s.id()] = &s;
  return TextHeldBy(*by_id.at(id), [&by_id](uint64_t ref) -> const v1::ObjectState* {
    auto it = by_id.find(ref);
    return it == by_id.end() ? nullptr : it->second;
  });
}

TEST(TextHoldersTest, StringBuildersAreReadThroughValueCoderAndCount) {
  Graph g;
  testing::AddBuilder(1, "jane@x.org", &g);
  testing::AddBuilder(2, "jane@x.org", &g, "java.lang.StringBuffer");
  std::optional<HeldText> held = Held(g, 1);
  ASSERT_TRUE(held.has_value());
  EXPECT_EQ(held->text, "jane@x.org");  // The spare capacity is not text.
  EXPECT_EQ(held->type, "StringBuilder");
  EXPECT_EQ(held->kind, 's');
  EXPECT_EQ(held->size, 10);
  EXPECT_TRUE(held->complete);
  EXPECT_EQ(Held(g, 2)->type, "StringBuffer");
}

TEST(TextHoldersTest, Utf16BuildersAreLittleEndianPairs) {
  Graph g;
  testing::AddBuilder(1, std::string("\xE9\x00\xAC\x20", 4), &g);  // é € as UTF-16LE bytes
  g[0].mutable_fields(0)->mutable_value()->set_byte_value(1);  // coder UTF16
  g[0].mutable_fields(1)->mutable_value()->set_int_value(2);   // count
  EXPECT_EQ(Held(g, 1)->text, "\xC3\xA9\xE2\x82\xAC");
  EXPECT_EQ(Held(g, 1)->size, 2);
}

TEST(TextHoldersTest, ABuilderRecordedInPartIsIncomplete) {
  Graph g;
  testing::AddBuilder(1, "jane@x.org", &g, "java.lang.StringBuilder", /*spare=*/0);
  g[1].mutable_array()->mutable_elements()->RemoveLast();  // capped by the policy
  std::optional<HeldText> held = Held(g, 1);
  ASSERT_TRUE(held.has_value());
  EXPECT_FALSE(held->complete);
  EXPECT_EQ(held->size, 10);
  // The value withheld altogether: still a holder, of unknown text.
  Graph withheld;
  testing::AddBuilder(1, "abcd", &withheld);
  *withheld[0].mutable_fields(2)->mutable_value() = testing::RedactedValue();
  EXPECT_FALSE(Held(withheld, 1)->complete);
}

TEST(TextHoldersTest, ByteArraysThatDecodeAsPrintableTextAreText) {
  Graph g;
  testing::AddBytes(1, "secret-bytes", &g);
  testing::AddBytes(2, "caf\xC3\xA9", &g);          // UTF-8
  testing::AddBytes(3, "caf\xE9", &g);              // Latin-1
  testing::AddBytes(4, std::string("\x01\x02\x03\x04", 4), &g);  // binary
  testing::AddBytes(5, "abc", &g);                  // shorter than kMinByteText
  EXPECT_EQ(Held(g, 1)->text, "secret-bytes");
  EXPECT_EQ(Held(g, 1)->type, "byte[]");
  EXPECT_EQ(Held(g, 1)->size, 12);
  EXPECT_EQ(Held(g, 2)->text, "caf\xC3\xA9");
  EXPECT_EQ(Held(g, 3)->text, "caf\xC3\xA9");
  EXPECT_FALSE(Held(g, 4).has_value());
  EXPECT_FALSE(Held(g, 5).has_value());
}

TEST(TextHoldersTest, TrailingZeroBytesAreNotPartOfTheText) {
  Graph g;
  testing::AddBytes(1, std::string("jane@x.org\0\0\0\0\0\0", 16), &g);  // new byte[16], filled
  testing::AddBytes(2, std::string(8, '\0'), &g);
  testing::AddBytes(3, std::string("ab\0cd\0\0", 7), &g);  // a zero inside: binary
  std::optional<HeldText> held = Held(g, 1);
  ASSERT_TRUE(held.has_value());
  EXPECT_EQ(held->text, "jane@x.org");
  EXPECT_EQ(held->size, 16);
  EXPECT_TRUE(held->complete);
  EXPECT_FALSE(Held(g, 2).has_value());
  EXPECT_FALSE(Held(g, 3).has_value());
}

TEST(TextHoldersTest, AHeapByteBufferIsTheTextOfItsWindow) {
  Graph g;
  // ByteBuffer.allocate(32).put(mail): the rest of the array is zeros, so
  // the array alone was no text before trailing zeros were left off.
  testing::AddByteBuffer(1, "jane@x.org" + std::string(22, '\0'), 0, 32, &g);
  // A slice after a binary length prefix: the window is text, and so is
  // the array, after its prefix (TextAfterABinaryPrefixIsText).
  testing::AddByteBuffer(2, std::string("\0\0\0\x0A", 4) + "jane@x.org", 4, 10, &g,
                         "java.nio.HeapByteBufferR");
  testing::AddByteBuffer(3, std::string("\x01\x02\x03\x04\x05", 5), 0, 5, &g);  // binary
  std::optional<HeldText> held = Held(g, 1);
  ASSERT_TRUE(held.has_value());
  EXPECT_EQ(held->kind, 'b');
  EXPECT_EQ(held->type, "ByteBuffer");
  EXPECT_EQ(held->text, "jane@x.org");
  EXPECT_EQ(held->size, 32);  // its capacity
  EXPECT_EQ(held->unit, "byte");
  ASSERT_TRUE(Held(g, 2).has_value());
  EXPECT_EQ(Held(g, 2)->text, "jane@x.org");
  EXPECT_EQ(Held(g, 2)->size, 10);
  ASSERT_TRUE(Held(g, 102).has_value());
  EXPECT_EQ(Held(g, 102)->text, "jane@x.org");
  EXPECT_EQ(Held(g, 102)->size, 14);
  EXPECT_FALSE(Held(g, 3).has_value());
  // Capped by the policy: incomplete; a direct buffer (no array): no text.
  g[1].mutable_array()->mutable_elements()->RemoveLast();
  EXPECT_FALSE(Held(g, 1)->complete);
  *g[0].mutable_fields(3)->mutable_value() = testing::RedactedValue();
  EXPECT_FALSE(Held(g, 1).has_value());
}

TEST(TextHoldersTest, TextAfterABinaryPrefixIsText) {
  Graph g;
  const std::string mail = "tobias.lindqvist@harrowgate-clinic.example";  // 42 = '*'
  // putShort(length) then the text: the length is read as the header
  // although its second byte is a printable '*'.
  testing::AddByteBuffer(1, std::string("\0*", 2) + mail, 0, 44, &g);
  // A little-endian int length in a byte[].
  testing::AddBytes(2, std::string("*\0\0\0", 4) + mail, &g);
  // A tag and a version, no length: the shortest header before text.
  testing::AddBytes(3, std::string("\x7f\x01\0\0", 4) + "jane@x.org", &g);
  // Binary after a header: no text; a header longer than kMaxBinaryPrefix
  // neither.
  testing::AddBytes(4, std::string("\0\x06", 2) + "abcdef\x01", &g);
  testing::AddBytes(5, std::string(9, '\x01') + "jane@x.org", &g);
  std::optional<HeldText> held = Held(g, 1);
  ASSERT_TRUE(held.has_value());
  EXPECT_EQ(held->kind, 'b');
  EXPECT_EQ(held->type, "ByteBuffer");
  EXPECT_EQ(held->text, mail);
  EXPECT_EQ(held->size, 44);
  EXPECT_TRUE(held->complete);
  ASSERT_TRUE(Held(g, 2).has_value());
  EXPECT_EQ(Held(g, 2)->text, mail);
  EXPECT_EQ(Held(g, 2)->type, "byte[]");
  ASSERT_TRUE(Held(g, 3).has_value());
  EXPECT_EQ(Held(g, 3)->text, "jane@x.org");
  EXPECT_FALSE(Held(g, 4).has_value());
  EXPECT_FALSE(Held(g, 5).has_value());
}

TEST(TextHoldersTest, InetAddressesAreTheirHostAddressText) {
  Graph g;
  testing::AddInet4(1, 0x0A141E28u, "relay.internal", &g);
  testing::AddInet6(2, std::string("\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\xfe\x80\0\x01", 16), 0, &g);
  testing::AddInet6(3, std::string(15, '\0') + "\x01", 3, &g);
  std::optional<HeldText> held = Held(g, 1);
  ASSERT_TRUE(held.has_value());
  EXPECT_EQ(held->kind, 'a');
  EXPECT_EQ(held->type, "Inet4Address");
  EXPECT_EQ(held->text, "10.20.30.40");
  EXPECT_EQ(held->unit, "");
  EXPECT_TRUE(held->complete);
  EXPECT_EQ(Held(g, 2)->type, "Inet6Address");
  EXPECT_EQ(Held(g, 2)->text, "2001:db8:0:0:0:0:fe80:1");  // getHostAddress() compresses nothing
  EXPECT_EQ(Held(g, 3)->text, "0:0:0:0:0:0:0:1%3");
  // The holders themselves hold no text; an address whose int was withheld
  // is one of unknown text.
  EXPECT_FALSE(Held(g, 101).has_value());
  *g[1].mutable_fields(0)->mutable_value() = testing::RedactedValue();
  EXPECT_FALSE(Held(g, 1)->complete);
}

TEST(TextHoldersTest, UuidIsItsCanonicalText) {
  Graph g;
  testing::AddUuid(1, 0x1234567890abcdefLL, 0x0fedcba987654321LL, &g);
  testing::AddUuid(2, -1, 0, &g);
  EXPECT_EQ(Held(g, 1)->text, "12345678-90ab-cdef-0fed-cba987654321");
  EXPECT_EQ(Held(g, 1)->kind, 'u');
  EXPECT_EQ(Held(g, 1)->unit, "");
  EXPECT_EQ(Held(g, 2)->text, "ffffffff-ffff-ffff-0000-000000000000");
}

TEST(TextHoldersTest, BigIntegerIsItsDecimalText) {
  Graph g;
  testing::AddBigInteger(1, 1, {229956, 821493369}, &g);
  testing::AddBigInteger(2, -1, {-1}, &g);  // the word 0xFFFFFFFF is unsigned
  testing::AddBigInteger(3, 0, {}, &g);
  EXPECT_EQ(Held(g, 1)->text, "987654321012345");
  EXPECT_EQ(Held(g, 1)->size, 15);
  EXPECT_EQ(Held(g, 1)->unit, "digit");
  EXPECT_EQ(Held(g, 2)->text, "-4294967295");
  EXPECT_EQ(Held(g, 3)->text, "0");
}

TEST(TextHoldersTest, BigDecimalIsItsPlainText) {
  auto decimal = [](int64_t compact, int scale, Graph* g) {
    v1::ObjectState* s = g->Add();
    s->set_id(static_cast<uint64_t>(g->size()));
    s->set_class_name("java.math.BigDecimal");
    testing::AddField(s, "intCompact", "J", testing::LongValue(compact));
    testing::AddField(s, "intVal", "Ljava/math/BigInteger;", testing::RefValue(50));
    testing::AddField(s, "scale", "I", testing::IntValue(scale));
  };
  Graph g;
  decimal(1250, 2, &g);
  decimal(-5, 3, &g);
  decimal(7, -2, &g);
  decimal(std::numeric_limits<int64_t>::min(), 1, &g);  // INFLATED: intVal holds it
  testing::AddBigInteger(50, -1, {229956, 821493369}, &g);
  EXPECT_EQ(Held(g, 1)->text, "12.50");
  EXPECT_EQ(Held(g, 2)->text, "-0.005");
  EXPECT_EQ(Held(g, 3)->text, "700");
  EXPECT_EQ(Held(g, 4)->text, "-98765432101234.5");
  EXPECT_EQ(Held(g, 4)->size, 15);
}

TEST(TextHoldersTest, OtherObjectsAndUnrecordedHoldersHoldNoText) {
  Graph g;
  testing::AddBigInteger(1, 1, {5}, &g);  // its mag int[] is id 101
  v1::ObjectState* truncated = g.Add();
  truncated->set_id(2);
  truncated->set_class_name("java.lang.StringBuilder");
  truncated->set_truncated(true);
  EXPECT_FALSE(Held(g, 101).has_value());
  EXPECT_FALSE(Held(g, 2).has_value());
  EXPECT_EQ(StringText("a\xF0\x9F\x98\x80").size, 3);  // a supplementary char is two units
}

}  // namespace
}  // namespace tracespec::prompt

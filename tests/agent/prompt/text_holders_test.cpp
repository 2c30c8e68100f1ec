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

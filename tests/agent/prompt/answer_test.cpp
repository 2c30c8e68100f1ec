// Tests for agent/prompt/answer.h: structured answers, fenced blocks, bare
// JML and garbage.
#include "agent/prompt/answer.h"

#include "gtest/gtest.h"

namespace tracespec::prompt {
namespace {

TEST(AnswerTest, ReadsTheStructuredAnswer) {
  auto a = ParseAnswer(
      R"({"contract": "//@ requires amount > 0;\n//@ ensures \\result == \\old(balance) + amount;",
          "hypotheses": ["balance never overflows"], "extra": 1})");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->format, AnswerFormat::kJson);
  EXPECT_EQ(a->jml, "//@ requires amount > 0;\n//@ ensures \\result == \\old(balance) + amount;");
  EXPECT_EQ(a->hypotheses, std::vector<std::string>{"balance never overflows"});
}

TEST(AnswerTest, ReadsJsonInsideAFenceOrProse) {
  auto fenced = ParseAnswer(
      "Here you go:\n```json\n{\"contract\": \"requires x > 0;\", "
      "\"hypotheses\": []}\n```\n");
  ASSERT_TRUE(fenced.ok()) << fenced.status();
  EXPECT_EQ(fenced->format, AnswerFormat::kJson);
  EXPECT_EQ(fenced->jml, "//@ requires x > 0;");

  auto prose = ParseAnswer("Answer: {\"contract\": \"ensures \\\\result >= 0;\"} -- done");
  ASSERT_TRUE(prose.ok()) << prose.status();
  EXPECT_EQ(prose->jml, "//@ ensures \\result >= 0;");
}

TEST(AnswerTest, ReadsAFencedJmlBlockAndHypotheses) {
  auto a = ParseAnswer(
      "The contract:\n"
      "```java\nint x = 1;\n```\n"
      "```jml\n"
      "/*@ public normal_behavior\n"
      "  @   requires amount > 0;\n"
      "  @   ensures balance == \\old(balance) + amount;\n"
      "  @*/\n"
      "public int deposit(int amount);\n"
      "```\n"
      "Hypotheses:\n"
      "- amounts are small\n"
      "2. the owner never changes\n"
      "\nThat is all.");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->format, AnswerFormat::kFencedBlock);
  EXPECT_EQ(a->jml,
            "/*@ public normal_behavior\n"
            "  @   requires amount > 0;\n"
            "  @   ensures balance == \\old(balance) + amount;\n"
            "  @*/");
  EXPECT_EQ(a->hypotheses,
            (std::vector<std::string>{"amounts are small", "the owner never changes"}));
}

TEST(AnswerTest, ReadsBareClauses) {
  auto a = ParseAnswer(
      "I think the method behaves like this.\n"
      "requires a != null\n"
      "    && a.length > 0;\n"
      "ensures (\\forall int i; 0 <= i && i < a.length; \\result >= a[i]);\n"
      "That should be it.");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->format, AnswerFormat::kBareJml);
  EXPECT_EQ(a->jml,
            "//@ requires a != null\n"
            "//@ && a.length > 0;\n"
            "//@ ensures (\\forall int i; 0 <= i && i < a.length; \\result >= a[i]);");
}

TEST(AnswerTest, KeepsOnlyAnnotationsOfAMethodStub) {
  auto jml = NormalizeJml("//@ requires x >= 0;\nensures \\result == x;\npublic int id(int x);");
  ASSERT_TRUE(jml.ok()) << jml.status();
  EXPECT_EQ(*jml, "//@ requires x >= 0;\n//@ ensures \\result == x;");
}

TEST(AnswerTest, KeepsADeclarationThatSaysWhatMayBeNull) {
  // The declaration's nullable modifier is part of the contract (a case for
  // a null argument needs it); a plain stub is still dropped.
  auto jml = NormalizeJml(
      "//@ requires s == null;\n//@ ensures \\result == -1;\n"
      "public int len(/*@ nullable @*/ String s);\nint other(String t);\n"
      "int third(/*@ non_null @*/ String u);");
  ASSERT_TRUE(jml.ok()) << jml.status();
  EXPECT_EQ(*jml,
            "//@ requires s == null;\n//@ ensures \\result == -1;\n"
            "public int len(/*@ nullable @*/ String s);");
}

TEST(AnswerTest, GarbageIsAnError) {
  for (const char* text : {"", "   ", "I cannot help with that.", "{\"contract\": \"\"}",
                           "```\nint x = 1;\n```", "{not json at all"}) {
    auto a = ParseAnswer(text);
    EXPECT_FALSE(a.ok()) << text;
    EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument) << text;
  }
  auto no_clause = ParseAnswer("{\"contract\": \"this is prose\", \"hypotheses\": []}");
  ASSERT_FALSE(no_clause.ok());
  EXPECT_NE(no_clause.status().message().find("no JML clause"), std::string::npos);
}

TEST(AnswerTest, SchemaIsTheModelAnswerShape) {
  ResponseSchema schema = ContractAnswerSchema();
  EXPECT_EQ(schema.name, "jml_contract");
  EXPECT_NE(schema.schema_json.find("\"required\":[\"contract\",\"hypotheses\"]"),
            std::string::npos);
}

}  // namespace
}  // namespace tracespec::prompt

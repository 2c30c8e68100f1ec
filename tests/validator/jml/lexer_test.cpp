// Tests for validator/jml/lexer.h: annotation comments and markers, JML
// operators, every kind of Java literal, positions and error tokens.
#include "validator/jml/lexer.h"

#include <cmath>
#include <cstring>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tracespec::jml {
namespace {

using ::testing::ElementsAre;

std::vector<Token> LexText(const std::string& text, LexMode mode = LexMode::kSpecText,
                           std::vector<std::string> keys = {}) {
  LexOptions options;
  options.mode = mode;
  options.enabled_keys = std::move(keys);
  return Lex(std::make_shared<const std::string>("t.jml"), text, options);
}

// The token texts, without the final end token.
std::vector<std::string> Texts(const std::vector<Token>& tokens) {
  std::vector<std::string> out;
  for (const auto& t : tokens) {
    if (t.kind != TokenKind::kEnd) out.push_back(t.text);
  }
  return out;
}

Token Single(const std::vector<Token>& tokens) {
  EXPECT_EQ(tokens.size(), 2u) << "expected one token and the end";
  return tokens[0];
}

TEST(LexerTest, JmlOperatorsAreSingleTokensInJml) {
  EXPECT_THAT(Texts(LexText("a ==> b <== c <==> d <=!=> e <: f {| |} 1..2 x<=y")),
              ElementsAre("a", "==>", "b", "<==", "c", "<==>", "d", "<=!=>", "e", "<:", "f", "{|",
                          "|}", "1", "..", "2", "x", "<=", "y"));
}

TEST(LexerTest, JavaOperatorsLongestMatch) {
  EXPECT_THAT(Texts(LexText("a>>>=b>>>c>>d>=e...f->g::h++--")),
              ElementsAre("a", ">>>=", "b", ">>>", "c", ">>", "d", ">=", "e", "...", "f", "->", "g",
                          "::", "h", "++", "--"));
}

TEST(LexerTest, BackslashWords) {
  auto tokens = LexText("\\result \\forall \\num_of \\bigint");
  EXPECT_THAT(Texts(tokens), ElementsAre("\\result", "\\forall", "\\num_of", "\\bigint"));
  for (size_t i = 0; i + 1 < tokens.size(); ++i)
    EXPECT_EQ(tokens[i].kind, TokenKind::kBackslashWord);
}

TEST(LexerTest, LineAnnotationsInJavaSource) {
  auto tokens = LexText("int x; //@ requires x > 0;\n// plain comment\nint y;", LexMode::kJava);
  EXPECT_THAT(Texts(tokens),
              ElementsAre("int", "x", ";", "requires", "x", ">", "0", ";", "int", "y", ";"));
  EXPECT_FALSE(tokens[0].jml);
  EXPECT_TRUE(tokens[3].jml);
  EXPECT_GT(tokens[3].run, 0);
  EXPECT_EQ(tokens[8].run, 0);
  EXPECT_FALSE(tokens[8].jml);
}

TEST(LexerTest, BlockAnnotationStripsLeadingAtSigns) {
  auto tokens =
      LexText("/*@ public normal_behavior\n  @   requires a;\n  @@  ensures b;\n  @*/ void f();",
              LexMode::kJava);
  EXPECT_THAT(Texts(tokens), ElementsAre("public", "normal_behavior", "requires", "a", ";",
                                         "ensures", "b", ";", "void", "f", "(", ")", ";"));
  EXPECT_TRUE(tokens[7].jml);
  EXPECT_FALSE(tokens[8].jml);
}

TEST(LexerTest, ConsecutiveAnnotationsShareARun) {
  auto tokens = LexText("//@ requires a;\n// note\n//@ ensures b;\nvoid f();\n//@ requires c;",
                        LexMode::kJava);
  ASSERT_EQ(Texts(tokens).size(), 14u);
  EXPECT_EQ(tokens[0].run, tokens[3].run);   // requires ... ensures
  EXPECT_EQ(tokens[6].run, 0);               // void
  EXPECT_NE(tokens[0].run, tokens[11].run);  // separated by code
}

TEST(LexerTest, JavadocIsNotAnAnnotation) {
  auto tokens = LexText("/** @param x the x */ int f;", LexMode::kJava);
  EXPECT_THAT(Texts(tokens), ElementsAre("int", "f", ";"));
}

TEST(LexerTest, KeyedAnnotations) {
  const std::string text = "//+ESC@ requires a;\n//-ESC@ requires b;\n//+@ requires c;\nx";
  EXPECT_THAT(Texts(LexText(text, LexMode::kJava)),
              ElementsAre("requires", "b", ";", "requires", "c", ";", "x"));
  EXPECT_THAT(Texts(LexText(text, LexMode::kJava, {"ESC"})),
              ElementsAre("requires", "a", ";", "requires", "c", ";", "x"));
}

TEST(LexerTest, CommentInsideLineAnnotationEndsIt) {
  auto tokens = LexText("//@ requires a; // why\nint x;", LexMode::kJava);
  EXPECT_THAT(Texts(tokens), ElementsAre("requires", "a", ";", "int", "x", ";"));
  EXPECT_FALSE(tokens[3].jml);
}

TEST(LexerTest, JmlOperatorsOnlyInJml) {
  // In Java code "<==" is "<=" followed by "=".
  EXPECT_THAT(Texts(LexText("a <== b", LexMode::kJava)), ElementsAre("a", "<=", "=", "b"));
}

TEST(LexerTest, Positions) {
  auto tokens = LexText("ab\n  \\result");
  EXPECT_EQ(tokens[0].span.line, 1);
  EXPECT_EQ(tokens[0].span.column, 1);
  EXPECT_EQ(tokens[0].span.end_column, 3);
  EXPECT_EQ(tokens[1].span.line, 2);
  EXPECT_EQ(tokens[1].span.column, 3);
  EXPECT_EQ(tokens[1].span.end_column, 10);
  EXPECT_EQ(tokens[1].span.FileName(), "t.jml");
}

TEST(LexerTest, ColumnsCountCodePoints) {
  auto tokens = LexText("\"é\" x");
  EXPECT_EQ(tokens[1].span.column, 5);
}

TEST(LexerTest, IntegerLiterals) {
  struct Case {
    const char* text;
    TokenKind kind;
    uint64_t bits;
  };
  const Case cases[] = {
      {"0", TokenKind::kIntLiteral, 0},
      {"42", TokenKind::kIntLiteral, 42},
      {"1_000_000", TokenKind::kIntLiteral, 1000000},
      {"0x7fff_FFFF", TokenKind::kIntLiteral, 0x7fffffff},
      {"0xFFFFFFFF", TokenKind::kIntLiteral, static_cast<uint64_t>(-1)},
      {"017", TokenKind::kIntLiteral, 15},
      {"0_7", TokenKind::kIntLiteral, 7},
      {"0b1010", TokenKind::kIntLiteral, 10},
      {"0B1111_0000", TokenKind::kIntLiteral, 0xF0},
      {"037777777777", TokenKind::kIntLiteral, static_cast<uint64_t>(-1)},
      {"42L", TokenKind::kLongLiteral, 42},
      {"0xFFFF_FFFF_FFFF_FFFFl", TokenKind::kLongLiteral, ~0ull},
      {"9223372036854775807L", TokenKind::kLongLiteral, 9223372036854775807ull},
  };
  for (const auto& c : cases) {
    Token t = Single(LexText(c.text));
    EXPECT_EQ(t.kind, c.kind) << c.text;
    EXPECT_EQ(t.int_value, c.bits) << c.text;
    EXPECT_FALSE(t.needs_minus) << c.text;
  }
  EXPECT_TRUE(Single(LexText("2147483648")).needs_minus);
  EXPECT_TRUE(Single(LexText("9223372036854775808L")).needs_minus);
}

TEST(LexerTest, FloatingLiterals) {
  struct Case {
    const char* text;
    TokenKind kind;
    double value;
  };
  const Case cases[] = {
      {"1.5", TokenKind::kDoubleLiteral, 1.5},
      {".5", TokenKind::kDoubleLiteral, 0.5},
      {"1.", TokenKind::kDoubleLiteral, 1.0},
      {"1e3", TokenKind::kDoubleLiteral, 1000},
      {"1E-3", TokenKind::kDoubleLiteral, 1e-3},
      {"2d", TokenKind::kDoubleLiteral, 2},
      {"273.15", TokenKind::kDoubleLiteral, 273.15},
      {"1_0.2_5", TokenKind::kDoubleLiteral, 10.25},
      {"0x1.8p1", TokenKind::kDoubleLiteral, 3},
      {"0x.8p0", TokenKind::kDoubleLiteral, 0.5},
      {"1.5f", TokenKind::kFloatLiteral, 1.5},
      {"3F", TokenKind::kFloatLiteral, 3},
      {"09.5", TokenKind::kDoubleLiteral, 9.5},
      {"4.9e-324", TokenKind::kDoubleLiteral, 4.9e-324},
  };
  for (const auto& c : cases) {
    Token t = Single(LexText(c.text));
    EXPECT_EQ(t.kind, c.kind) << c.text;
    EXPECT_EQ(t.double_value, c.value) << c.text;
  }
  // A float literal is rounded once, to float.
  EXPECT_EQ(Single(LexText("0.1f")).float_value, 0.1f);
}

TEST(LexerTest, MalformedNumbersAreErrorTokens) {
  const char* bad[] = {"2147483649", "9223372036854775809L",
                       "0x1_",       "1__",
                       "_1e",        "1_",
                       "0x",         "0b102",
                       "089",        "1e",
                       "1e+",        "0x1.0",
                       "1e400",      "1e-400",
                       "1.5fx",      "0x_1",
                       "0xFFFFFFFFF"};
  for (const char* text : bad) {
    auto tokens = LexText(text);
    bool has_error = false;
    for (const auto& t : tokens) has_error |= t.kind == TokenKind::kError;
    // "_1e" is an identifier, which is fine.
    if (std::string(text) == "_1e") {
      EXPECT_FALSE(has_error);
      continue;
    }
    EXPECT_TRUE(has_error) << text;
  }
  EXPECT_EQ(LexText("2147483649")[0].text, "integer number too large");
  EXPECT_EQ(LexText("0x1.0")[0].text,
            "malformed hexadecimal floating-point literal: missing 'p' exponent");
}

TEST(LexerTest, CharLiterals) {
  struct Case {
    const char* text;
    char16_t value;
  };
  const Case cases[] = {
      {"'a'", u'a'},     {"'\\n'", u'\n'},    {"'\\t'", u'\t'},      {"'\\''", u'\''},
      {"'\\\\'", u'\\'}, {"'\"'", u'"'},      {"'\\0'", 0},          {"'\\101'", u'A'},
      {"'\\377'", 0xFF}, {"'\\u0041'", u'A'}, {"'\\uuu00e9'", 0xE9}, {"'é'", 0xE9},
      {"'\\s'", u' '},   {"'\\b'", u'\b'},    {"'\\f'", u'\f'},      {"'\\r'", u'\r'}};
  for (const auto& c : cases) {
    Token t = Single(LexText(c.text));
    ASSERT_EQ(t.kind, TokenKind::kCharLiteral) << c.text << ": " << t.text;
    EXPECT_EQ(t.int_value, static_cast<uint64_t>(c.value)) << c.text;
  }
  for (const char* bad : {"''", "'ab'", "'\\q'", "'a", "'\\u12'", "'😀'"}) {
    EXPECT_EQ(LexText(bad)[0].kind, TokenKind::kError) << bad;
  }
}

TEST(LexerTest, StringLiteralsDecodeToUtf16) {
  Token t = Single(LexText("\"a\\tb\\u00e9😀\\\"\""));
  ASSERT_EQ(t.kind, TokenKind::kStringLiteral);
  EXPECT_EQ(t.string_value, std::u16string(u"a\tb\u00e9\U0001F600\""));
  EXPECT_EQ(Utf16ToUtf8(t.string_value), "a\tbé😀\"");
  EXPECT_EQ(LexText("\"abc")[0].kind, TokenKind::kError);
}

TEST(LexerTest, TextBlocks) {
  Token t = Single(LexText("\"\"\"\n    hello\n      world  \n    \"\"\""));
  ASSERT_EQ(t.kind, TokenKind::kStringLiteral);
  EXPECT_EQ(Utf16ToUtf8(t.string_value), "hello\n  world\n");
  Token joined = Single(LexText("\"\"\"\n  a \\\n  b\"\"\""));
  EXPECT_EQ(Utf16ToUtf8(joined.string_value), "a b");
  EXPECT_EQ(LexText("\"\"\"abc\"\"\"")[0].kind, TokenKind::kError);
}

TEST(LexerTest, InformalDescription) {
  auto tokens = LexText("(* the list is sorted *) && (a*b)");
  EXPECT_EQ(tokens[0].kind, TokenKind::kInformal);
  EXPECT_EQ(tokens[0].text, "the list is sorted");
  EXPECT_THAT(Texts(tokens), ElementsAre("the list is sorted", "&&", "(", "a", "*", "b", ")"));
}

TEST(LexerTest, ErrorsDoNotStopTheLexer) {
  auto tokens = LexText("a # b");
  ASSERT_EQ(tokens.size(), 4u);
  EXPECT_EQ(tokens[1].kind, TokenKind::kError);
  EXPECT_EQ(tokens[1].text, "unexpected character '#'");
  EXPECT_EQ(tokens[2].text, "b");
}

TEST(LexerTest, UnterminatedAnnotationComment) {
  auto tokens = LexText("/*@ requires a;", LexMode::kJava);
  bool found = false;
  for (const auto& t : tokens)
    found |= t.kind == TokenKind::kError && t.text == "unterminated annotation comment";
  EXPECT_TRUE(found);
}

TEST(LexerTest, BackslashOutsideAnnotationIsAnError) {
  auto tokens = LexText("x = \\result;", LexMode::kJava);
  EXPECT_EQ(tokens[2].kind, TokenKind::kError);
}

TEST(LexerTest, NulBytesAreErrors) {
  std::string text("a\0b", 3);
  auto tokens = LexText(text);
  EXPECT_EQ(tokens[1].kind, TokenKind::kError);
}

TEST(LexerTest, DescribeToken) {
  auto tokens = LexText("x 12 \"s\"");
  EXPECT_EQ(DescribeToken(tokens[0]), "'x'");
  EXPECT_EQ(DescribeToken(tokens[1]), "number 12");
  EXPECT_EQ(DescribeToken(tokens[2]), "string literal");
  EXPECT_EQ(DescribeToken(tokens[3]), "end of input");
}

}  // namespace
}  // namespace tracespec::jml

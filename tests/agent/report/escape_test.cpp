// Escaping untrusted text for the reports.
#include "agent/report/escape.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tracespec::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(EscapeTest, HtmlEscapesEveryMarkupCharacter) {
  EXPECT_EQ(HtmlEscape("a < b && c > \"d\" 'e'"),
            "a &lt; b &amp;&amp; c &gt; &quot;d&quot; &#39;e&#39;");
  EXPECT_EQ(HtmlEscape("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(HtmlEscape("&lt;"), "&amp;lt;");
}

TEST(EscapeTest, PrintableKeepsUtf8AndShowsControlCharacters) {
  EXPECT_EQ(Printable("grüße, 日本\n\tok"), "grüße, 日本\n\tok");
  EXPECT_EQ(Printable(std::string("a\0b", 3)), "a\\u0000b");
  EXPECT_EQ(Printable("\x1b[31mred"), "\\u001b[31mred");
  EXPECT_EQ(Printable("del\x7f"), "del\\u007f");
  // U+0085 (NEL), a C1 control character.
  EXPECT_EQ(Printable("x\xC2\x85y"), "x\\u0085y");
}

TEST(EscapeTest, PrintableReplacesInvalidUtf8) {
  const std::string kReplacement = "\xEF\xBF\xBD";
  EXPECT_EQ(Printable("a\xFF" "b"), "a" + kReplacement + "b");
  // Overlong '<' (0xC0 0xBC) must not come back as '<'.
  EXPECT_EQ(Printable("\xC0\xBC"), kReplacement + kReplacement);
  EXPECT_EQ(HtmlEscape("\xC0\xBCscript\xC0\xBE"), kReplacement + kReplacement + "script" +
                                                       kReplacement + kReplacement);
  // A surrogate half (U+D800) and a cut-off sequence.
  EXPECT_EQ(Printable("\xED\xA0\x80"), kReplacement + kReplacement + kReplacement);
  EXPECT_EQ(Printable("\xE6\x97"), kReplacement + kReplacement);
}

TEST(EscapeTest, MarkdownCodeSpanOutlastsBackticksInside) {
  EXPECT_EQ(MarkdownCode("x > 0"), "` x > 0 `");
  EXPECT_EQ(MarkdownCode("a `b` c"), "`` a `b` c ``");
  EXPECT_EQ(MarkdownCode("```"), "```` ``` ````");
  EXPECT_EQ(MarkdownCode("two\nlines"), "` two lines `");
}

TEST(EscapeTest, MarkdownBlockFenceOutlastsBackticksInside) {
  EXPECT_EQ(MarkdownBlock("//@ ensures x;", "java"), "```java\n//@ ensures x;\n```\n");
  std::string block = MarkdownBlock("before\n```\n<script>\n````\nafter\n");
  EXPECT_EQ(block.substr(0, 6), "`````\n");
  EXPECT_THAT(block, HasSubstr("\n````\nafter\n`````\n"));
  EXPECT_THAT(MarkdownBlock(std::string("bell\a")), Not(HasSubstr("\a")));
}

}  // namespace
}  // namespace tracespec::report

// Tests for agent/loop/method_inputs.h MaskDeniedLiterals: a test's literal
// that the probe found equal to a denied value never reaches a prompt.
#include "agent/loop/method_inputs.h"

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "gtest/gtest.h"
#include "observer/probe/substitute_value.h"

namespace tracespec::loop {
namespace {

using probe::ConstantKey;

TEST(MaskDeniedLiteralsTest, DeniedStringsAndNumbersAreMaskedOthersKept) {
  std::string source = R"(@Test void tag() {
    ApiClient c = new ApiClient("Rt5Yh8Kp3Wq6Zm1X", 987654);
    assertEquals("Rt5Y", c.prefix());  // "Rt5Yh8Kp3Wq6Zm1X" again in a comment
    assertEquals(6, c.tag("Rt5Yh8Kp3Wq6Zm1X").length());
  })";
  std::set<uint64_t> keys = {ConstantKey(std::string_view("Rt5Yh8Kp3Wq6Zm1X")),
                             ConstantKey(int64_t{987654})};
  MaskedSource out = MaskDeniedLiterals(source, keys);
  EXPECT_FALSE(out.unmaskable);
  EXPECT_EQ(out.masked, 2);
  EXPECT_EQ(out.text.find("Rt5Yh8Kp3Wq6Zm1X"), std::string::npos) << out.text;
  EXPECT_EQ(out.text.find("987654"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("new ApiClient(\"<denied value>\", <denied value>)"), std::string::npos)
      << out.text;
  // What is no denied value stays: the prefix literal, the 6.
  EXPECT_NE(out.text.find("assertEquals(\"Rt5Y\", c.prefix())"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("assertEquals(6,"), std::string::npos) << out.text;

  // Nothing denied: the text as it was.
  MaskedSource same = MaskDeniedLiterals(source, {ConstantKey(std::string_view("other"))});
  EXPECT_EQ(same.text, source);
  EXPECT_EQ(same.masked, 0);
  EXPECT_EQ(MaskDeniedLiterals(source, {}).text, source);
}

TEST(MaskDeniedLiteralsTest, AValueWrittenOtherwiseThanItReadsCannotBeMasked) {
  // "Rt5Y" spelled with a unicode escape, 987654 in hexadecimal.
  std::set<uint64_t> keys = {ConstantKey(std::string_view("Rt5Y")), ConstantKey(int64_t{987654})};
  EXPECT_TRUE(MaskDeniedLiterals(R"(new C("R\u0074\u0035Y");)", keys).unmaskable);
  EXPECT_TRUE(MaskDeniedLiterals("new C(0xF1206);", keys).unmaskable);
  // A denied value inside a longer denied value goes with it.
  std::set<uint64_t> nested = {ConstantKey(std::string_view("Rt5Yh8Kp")),
                               ConstantKey(std::string_view("Yh8K"))};
  MaskedSource out = MaskDeniedLiterals(R"(a("Rt5Yh8Kp"); b("Yh8K");)", nested);
  EXPECT_FALSE(out.unmaskable);
  EXPECT_EQ(out.text, R"(a("<denied value>"); b("<denied value>");)");
}

}  // namespace
}  // namespace tracespec::loop

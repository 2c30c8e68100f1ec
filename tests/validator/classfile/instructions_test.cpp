// Tests of the bytecode decoder on hand-assembled code.
#include "validator/classfile/instructions.h"

#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace tracespec::classfile {
namespace {

absl::StatusOr<std::vector<Instruction>> Decode(std::vector<uint8_t> code) {
  return DecodeInstructions(code, 100, "t.class");
}

TEST(Instructions, ShortFormsAndWide) {
  auto ins = Decode({kIload0 + 2, kBipush, 0xFE, kSipush, 0x01, 0x00, kWide, kIinc, 0x01, 0x00,
                     0xFF, 0xFF, kWide, kAload, 0x01, 0x02, kReturn});
  ASSERT_TRUE(ins.ok()) << ins.status();
  ASSERT_EQ(ins->size(), 6u);
  EXPECT_EQ((*ins)[0].operand, 2);
  EXPECT_EQ((*ins)[1].operand, -2);
  EXPECT_EQ((*ins)[2].operand, 256);
  EXPECT_EQ((*ins)[3].opcode, kIinc);
  EXPECT_TRUE((*ins)[3].wide);
  EXPECT_EQ((*ins)[3].operand, 256);
  EXPECT_EQ((*ins)[3].operand2, -1);
  EXPECT_EQ((*ins)[4].operand, 258);
  EXPECT_EQ((*ins)[4].pc, 12u);
  EXPECT_EQ(Mnemonic((*ins)[4].opcode), "aload");
}

TEST(Instructions, Switches) {
  // 0: iload_0; 1: tableswitch, 2 bytes of padding, default +23, low 0,
  // high 1, offsets +23 and +24; 24: return; 25: return
  std::vector<uint8_t> code = {kIload0, kTableswitch, 0, 0, 0, 0, 0, 23, 0, 0, 0, 0, 0,
                               0,       0,            1, 0, 0, 0, 23, 0, 0, 0, 24, kReturn,
                               kReturn};
  auto ins = Decode(code);
  ASSERT_TRUE(ins.ok()) << ins.status();
  const Instruction& sw = (*ins)[1];
  EXPECT_EQ(sw.length, 23u);
  EXPECT_EQ(sw.default_target, 24u);
  ASSERT_EQ(sw.cases.size(), 2u);
  EXPECT_EQ(sw.cases[1], (std::pair<int32_t, uint32_t>{1, 25}));
  // lookupswitch: 0: lookupswitch, 3 bytes of padding, default +20, 1 pair
  // (7 -> +21); 20: return; 21: return
  std::vector<uint8_t> lookup = {kLookupswitch, 0, 0, 0, 0, 0, 0, 20, 0, 0, 0,
                                 1,             0, 0, 0, 7, 0, 0, 0, 21, kReturn, kReturn};
  auto decoded = Decode(lookup);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ((*decoded)[0].cases[0], (std::pair<int32_t, uint32_t>{7, 21}));
}

TEST(Instructions, Errors) {
  auto invalid = Decode({kNop, 0xFE});
  ASSERT_FALSE(invalid.ok());
  EXPECT_EQ(invalid.status().message(), "t.class: byte 101: invalid opcode 0xfe");
  auto truncated = Decode({kSipush, 0x01});
  ASSERT_FALSE(truncated.ok());
  EXPECT_TRUE(absl::StartsWith(truncated.status().message(), "t.class: byte 101: "));
  auto middle = Decode({kGoto, 0x00, 0x01, kReturn});
  ASSERT_FALSE(middle.ok());
  EXPECT_TRUE(absl::StrContains(middle.status().message(), "not the start of an instruction"));
  auto wide = Decode({kWide, kIadd});
  ASSERT_FALSE(wide.ok());
  EXPECT_TRUE(absl::StrContains(wide.status().message(), "wide cannot modify iadd"));
  auto huge = Decode({kTableswitch, 0, 0, 0, 0, 0, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF, 0x80, 0, 0, 0});
  ASSERT_FALSE(huge.ok());
  EXPECT_TRUE(EndsBlock(kAthrow));
  EXPECT_FALSE(EndsBlock(kIfeq));
}

}  // namespace
}  // namespace tracespec::classfile

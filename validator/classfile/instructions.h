// JVM instructions (JVM spec §6.5): opcodes, their operand formats, and the
// decoder that turns a Code attribute's bytes into a list of instructions
// with absolute branch targets.
#ifndef TRACESPEC_VALIDATOR_CLASSFILE_INSTRUCTIONS_H_
#define TRACESPEC_VALIDATOR_CLASSFILE_INSTRUCTIONS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace tracespec::classfile {

// Every opcode of the JVM spec (Java SE 17), by value.
enum Op : uint8_t {
  kNop = 0, kAconstNull = 1, kIconstM1 = 2, kIconst0 = 3, kIconst1 = 4, kIconst2 = 5,
  kIconst3 = 6, kIconst4 = 7, kIconst5 = 8, kLconst0 = 9, kLconst1 = 10, kFconst0 = 11,
  kFconst1 = 12, kFconst2 = 13, kDconst0 = 14, kDconst1 = 15, kBipush = 16, kSipush = 17,
  kLdc = 18, kLdcW = 19, kLdc2W = 20, kIload = 21, kLload = 22, kFload = 23, kDload = 24,
  kAload = 25, kIload0 = 26, kLload0 = 30, kFload0 = 34, kDload0 = 38, kAload0 = 42,
  kIaload = 46, kLaload = 47, kFaload = 48, kDaload = 49, kAaload = 50, kBaload = 51,
  kCaload = 52, kSaload = 53, kIstore = 54, kLstore = 55, kFstore = 56, kDstore = 57,
  kAstore = 58, kIstore0 = 59, kLstore0 = 63, kFstore0 = 67, kDstore0 = 71, kAstore0 = 75,
  kIastore = 79, kLastore = 80, kFastore = 81, kDastore = 82, kAastore = 83, kBastore = 84,
  kCastore = 85, kSastore = 86, kPop = 87, kPop2 = 88, kDup = 89, kDupX1 = 90, kDupX2 = 91,
  kDup2 = 92, kDup2X1 = 93, kDup2X2 = 94, kSwap = 95, kIadd = 96, kLadd = 97, kFadd = 98,
  kDadd = 99, kIsub = 100, kLsub = 101, kFsub = 102, kDsub = 103, kImul = 104, kLmul = 105,
  kFmul = 106, kDmul = 107, kIdiv = 108, kLdiv = 109, kFdiv = 110, kDdiv = 111, kIrem = 112,
  kLrem = 113, kFrem = 114, kDrem = 115, kIneg = 116, kLneg = 117, kFneg = 118, kDneg = 119,
  kIshl = 120, kLshl = 121, kIshr = 122, kLshr = 123, kIushr = 124, kLushr = 125,
  kIand = 126, kLand = 127, kIor = 128, kLor = 129, kIxor = 130, kLxor = 131, kIinc = 132,
  kI2l = 133, kI2f = 134, kI2d = 135, kL2i = 136, kL2f = 137, kL2d = 138, kF2i = 139,
  kF2l = 140, kF2d = 141, kD2i = 142, kD2l = 143, kD2f = 144, kI2b = 145, kI2c = 146,
  kI2s = 147, kLcmp = 148, kFcmpl = 149, kFcmpg = 150, kDcmpl = 151, kDcmpg = 152,
  kIfeq = 153, kIfne = 154, kIflt = 155, kIfge = 156, kIfgt = 157, kIfle = 158,
  kIfIcmpeq = 159, kIfIcmpne = 160, kIfIcmplt = 161, kIfIcmpge = 162, kIfIcmpgt = 163,
  kIfIcmple = 164, kIfAcmpeq = 165, kIfAcmpne = 166, kGoto = 167, kJsr = 168, kRet = 169,
  kTableswitch = 170, kLookupswitch = 171, kIreturn = 172, kLreturn = 173, kFreturn = 174,
  kDreturn = 175, kAreturn = 176, kReturn = 177, kGetstatic = 178, kPutstatic = 179,
  kGetfield = 180, kPutfield = 181, kInvokevirtual = 182, kInvokespecial = 183,
  kInvokestatic = 184, kInvokeinterface = 185, kInvokedynamic = 186, kNew = 187,
  kNewarray = 188, kAnewarray = 189, kArraylength = 190, kAthrow = 191, kCheckcast = 192,
  kInstanceof = 193, kMonitorenter = 194, kMonitorexit = 195, kWide = 196,
  kMultianewarray = 197, kIfnull = 198, kIfnonnull = 199, kGotoW = 200, kJsrW = 201,
};

// One decoded instruction. The short forms (iload_1, astore_3, ...) keep
// their opcode and carry the implied slot in `operand`; `wide` is folded into
// the instruction it modifies.
struct Instruction {
  uint32_t pc = 0;
  uint32_t length = 1;
  uint8_t opcode = kNop;
  bool wide = false;
  // Local slot, constant-pool index, immediate (bipush/sipush/iconst_n),
  // absolute branch target, or newarray element type, depending on opcode.
  int32_t operand = 0;
  // iinc increment, multianewarray dimensions, invokeinterface count.
  int32_t operand2 = 0;
  // tableswitch / lookupswitch: absolute default target and (key, target)
  // pairs in increasing key order.
  uint32_t default_target = 0;
  std::vector<std::pair<int32_t, uint32_t>> cases;
};

// "iadd", "invokevirtual", ... ("<invalid 0xfe>" for unknown opcodes).
std::string Mnemonic(uint8_t opcode);

// True for opcodes that never fall through to the next instruction
// (goto, returns, athrow, switches, ret).
bool EndsBlock(uint8_t opcode);

// The offsets `ins` may jump to: its branch target, or its switch's
// default and case targets (not the next instruction; nothing for
// jsr/ret, which the checker does not execute).
std::vector<uint32_t> JumpTargets(const Instruction& ins);

// Decodes `code`. `file_offset` is the offset of code[0] in the class file and
// `source` names the file; errors read "<source>: byte <offset>: <problem>".
// Checks operand bounds, switch padding and that every branch target starts an
// instruction. Constant-pool indices are checked by the class reader.
absl::StatusOr<std::vector<Instruction>> DecodeInstructions(const std::vector<uint8_t>& code,
                                                            uint64_t file_offset,
                                                            const std::string& source);

}  // namespace tracespec::classfile

#endif  // TRACESPEC_VALIDATOR_CLASSFILE_INSTRUCTIONS_H_

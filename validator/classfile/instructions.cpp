// Decoding of JVM bytecode into Instruction lists; see instructions.h.
#include "validator/classfile/instructions.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace tracespec::classfile {
namespace {

// How the bytes after an opcode are laid out.
enum class Format : uint8_t {
  kInvalid,
  kNone,          // no operands
  kLocal,         // u1 local slot (u2 under wide)
  kImplicitSlot,  // xload_n / xstore_n: slot in the opcode
  kS1,            // bipush
  kS2,            // sipush
  kCp1,           // ldc
  kCp2,           // u2 constant-pool index
  kBranch2,       // s2 relative offset
  kBranch4,       // s4 relative offset
  kIinc,          // u1 slot, s1 increment (u2, s2 under wide)
  kInvokeInterface,  // u2 index, u1 count, u1 zero
  kInvokeDynamic,    // u2 index, u2 zero
  kNewArray,         // u1 element type
  kMultiANewArray,   // u2 index, u1 dimensions
  kTableSwitch,
  kLookupSwitch,
  kWide,
};

struct OpInfo {
  const char* name;
  Format format;
};

const OpInfo* OpTable() {
  static const OpInfo* table = [] {
    static OpInfo t[256];
    for (auto& e : t) e = {nullptr, Format::kInvalid};
    auto set = [](int op, const char* name, Format f) { t[op] = {name, f}; };
    const char* simple[] = {
        "nop", "aconst_null", "iconst_m1", "iconst_0", "iconst_1", "iconst_2", "iconst_3",
        "iconst_4", "iconst_5", "lconst_0", "lconst_1", "fconst_0", "fconst_1", "fconst_2",
        "dconst_0", "dconst_1"};
    for (int i = 0; i <= 15; ++i) set(i, simple[i], Format::kNone);
    set(kBipush, "bipush", Format::kS1);
    set(kSipush, "sipush", Format::kS2);
    set(kLdc, "ldc", Format::kCp1);
    set(kLdcW, "ldc_w", Format::kCp2);
    set(kLdc2W, "ldc2_w", Format::kCp2);
    const char* kinds[] = {"i", "l", "f", "d", "a"};
    static std::string names[256];
    for (int k = 0; k < 5; ++k) {
      names[kIload + k] = absl::StrCat(kinds[k], "load");
      set(kIload + k, names[kIload + k].c_str(), Format::kLocal);
      names[kIstore + k] = absl::StrCat(kinds[k], "store");
      set(kIstore + k, names[kIstore + k].c_str(), Format::kLocal);
      for (int n = 0; n < 4; ++n) {
        int load = kIload0 + 4 * k + n, store = kIstore0 + 4 * k + n;
        names[load] = absl::StrCat(kinds[k], "load_", n);
        set(load, names[load].c_str(), Format::kImplicitSlot);
        names[store] = absl::StrCat(kinds[k], "store_", n);
        set(store, names[store].c_str(), Format::kImplicitSlot);
      }
    }
    const char* array_ops[] = {"iaload", "laload", "faload", "daload", "aaload",
                               "baload", "caload", "saload"};
    for (int i = 0; i < 8; ++i) set(kIaload + i, array_ops[i], Format::kNone);
    const char* array_stores[] = {"iastore", "lastore", "fastore", "dastore",
                                  "aastore", "bastore", "castore", "sastore"};
    for (int i = 0; i < 8; ++i) set(kIastore + i, array_stores[i], Format::kNone);
    const char* stack_and_arith[] = {
        "pop", "pop2", "dup", "dup_x1", "dup_x2", "dup2", "dup2_x1", "dup2_x2", "swap",
        "iadd", "ladd", "fadd", "dadd", "isub", "lsub", "fsub", "dsub", "imul", "lmul",
        "fmul", "dmul", "idiv", "ldiv", "fdiv", "ddiv", "irem", "lrem", "frem", "drem",
        "ineg", "lneg", "fneg", "dneg", "ishl", "lshl", "ishr", "lshr", "iushr", "lushr",
        "iand", "land", "ior", "lor", "ixor", "lxor"};
    for (int i = kPop; i <= kLxor; ++i) set(i, stack_and_arith[i - kPop], Format::kNone);
    set(kIinc, "iinc", Format::kIinc);
    const char* conversions[] = {"i2l", "i2f", "i2d", "l2i", "l2f", "l2d", "f2i", "f2l",
                                 "f2d", "d2i", "d2l", "d2f", "i2b", "i2c", "i2s", "lcmp",
                                 "fcmpl", "fcmpg", "dcmpl", "dcmpg"};
    for (int i = kI2l; i <= kDcmpg; ++i) set(i, conversions[i - kI2l], Format::kNone);
    const char* branches[] = {"ifeq", "ifne", "iflt", "ifge", "ifgt", "ifle",
                              "if_icmpeq", "if_icmpne", "if_icmplt", "if_icmpge",
                              "if_icmpgt", "if_icmple", "if_acmpeq", "if_acmpne",
                              "goto", "jsr"};
    for (int i = kIfeq; i <= kJsr; ++i) set(i, branches[i - kIfeq], Format::kBranch2);
    set(kRet, "ret", Format::kLocal);
    set(kTableswitch, "tableswitch", Format::kTableSwitch);
    set(kLookupswitch, "lookupswitch", Format::kLookupSwitch);
    const char* returns[] = {"ireturn", "lreturn", "freturn", "dreturn", "areturn", "return"};
    for (int i = kIreturn; i <= kReturn; ++i) set(i, returns[i - kIreturn], Format::kNone);
    const char* refs[] = {"getstatic", "putstatic", "getfield", "putfield",
                          "invokevirtual", "invokespecial", "invokestatic"};
    for (int i = kGetstatic; i <= kInvokestatic; ++i) set(i, refs[i - kGetstatic], Format::kCp2);
    set(kInvokeinterface, "invokeinterface", Format::kInvokeInterface);
    set(kInvokedynamic, "invokedynamic", Format::kInvokeDynamic);
    set(kNew, "new", Format::kCp2);
    set(kNewarray, "newarray", Format::kNewArray);
    set(kAnewarray, "anewarray", Format::kCp2);
    set(kArraylength, "arraylength", Format::kNone);
    set(kAthrow, "athrow", Format::kNone);
    set(kCheckcast, "checkcast", Format::kCp2);
    set(kInstanceof, "instanceof", Format::kCp2);
    set(kMonitorenter, "monitorenter", Format::kNone);
    set(kMonitorexit, "monitorexit", Format::kNone);
    set(kWide, "wide", Format::kWide);
    set(kMultianewarray, "multianewarray", Format::kMultiANewArray);
    set(kIfnull, "ifnull", Format::kBranch2);
    set(kIfnonnull, "ifnonnull", Format::kBranch2);
    set(kGotoW, "goto_w", Format::kBranch4);
    set(kJsrW, "jsr_w", Format::kBranch4);
    return t;
  }();
  return table;
}

// Reads big-endian operands from the code array, failing (not crashing) at
// its end.
class CodeCursor {
 public:
  CodeCursor(const std::vector<uint8_t>& code, uint64_t file_offset, const std::string& source)
      : code_(code), file_offset_(file_offset), source_(source) {}

  absl::Status Error(uint32_t at, absl::string_view problem) const {
    return absl::InvalidArgumentError(
        absl::StrCat(source_, ": byte ", file_offset_ + at, ": ", problem));
  }
  absl::StatusOr<uint32_t> U(uint32_t at, int bytes) const {
    if (static_cast<uint64_t>(at) + bytes > code_.size()) {
      return Error(at, absl::StrCat("instruction operand runs past the end of the code (",
                                    code_.size(), " bytes)"));
    }
    uint32_t v = 0;
    for (int i = 0; i < bytes; ++i) v = (v << 8) | code_[at + i];
    return v;
  }
  absl::StatusOr<int32_t> S(uint32_t at, int bytes) const {
    auto u = U(at, bytes);
    if (!u.ok()) return u.status();
    uint32_t v = *u;
    if (bytes < 4) {
      uint32_t sign = 1u << (8 * bytes - 1);
      v = (v ^ sign) - sign;
    }
    return static_cast<int32_t>(v);
  }

 private:
  const std::vector<uint8_t>& code_;
  uint64_t file_offset_;
  const std::string& source_;
};

bool IsWideable(uint8_t op) {
  return (op >= kIload && op <= kAload) || (op >= kIstore && op <= kAstore) || op == kRet ||
         op == kIinc;
}

}  // namespace

std::string Mnemonic(uint8_t opcode) {
  const OpInfo& info = OpTable()[opcode];
  if (info.name == nullptr) return absl::StrFormat("<invalid 0x%02x>", opcode);
  return info.name;
}

bool EndsBlock(uint8_t opcode) {
  return opcode == kGoto || opcode == kGotoW || (opcode >= kIreturn && opcode <= kReturn) ||
         opcode == kAthrow || opcode == kTableswitch || opcode == kLookupswitch ||
         opcode == kRet;
}

std::vector<uint32_t> JumpTargets(const Instruction& ins) {
  std::vector<uint32_t> out;
  if (ins.opcode == kTableswitch || ins.opcode == kLookupswitch) {
    out.push_back(ins.default_target);
    for (const auto& c : ins.cases) out.push_back(c.second);
  } else if ((ins.opcode >= kIfeq && ins.opcode <= kGoto) || ins.opcode == kIfnull ||
             ins.opcode == kIfnonnull || ins.opcode == kGotoW) {
    out.push_back(static_cast<uint32_t>(ins.operand));
  }
  return out;
}

absl::StatusOr<std::vector<Instruction>> DecodeInstructions(const std::vector<uint8_t>& code,
                                                            uint64_t file_offset,
                                                            const std::string& source) {
  CodeCursor in(code, file_offset, source);
  std::vector<Instruction> out;
  std::set<uint32_t> starts;
  // (instruction pc, target) pairs to check once every start is known.
  std::vector<std::pair<uint32_t, int64_t>> targets;
  const OpInfo* table = OpTable();
  uint32_t pc = 0;
  const uint32_t size = static_cast<uint32_t>(code.size());
  while (pc < size) {
    Instruction ins;
    ins.pc = pc;
    uint8_t op = code[pc];
    Format format = table[op].format;
    uint32_t at = pc + 1;
    if (format == Format::kWide) {
      auto modified = in.U(at, 1);
      if (!modified.ok()) return modified.status();
      op = static_cast<uint8_t>(*modified);
      if (!IsWideable(op)) {
        return in.Error(pc, absl::StrCat("wide cannot modify ", Mnemonic(op)));
      }
      ins.wide = true;
      at += 1;
      format = table[op].format;
    }
    ins.opcode = op;
    switch (format) {
      case Format::kInvalid:
      case Format::kWide:
        return in.Error(pc, absl::StrFormat("invalid opcode 0x%02x", op));
      case Format::kNone:
        if (op >= kIconstM1 && op <= kIconst5) ins.operand = op - kIconst0;
        break;
      case Format::kImplicitSlot:
        ins.operand = op < kIstore ? (op - kIload0) % 4 : (op - kIstore0) % 4;
        break;
      case Format::kLocal: {
        auto v = in.U(at, ins.wide ? 2 : 1);
        if (!v.ok()) return v.status();
        ins.operand = static_cast<int32_t>(*v);
        at += ins.wide ? 2 : 1;
        break;
      }
      case Format::kS1:
      case Format::kS2: {
        int n = format == Format::kS1 ? 1 : 2;
        auto v = in.S(at, n);
        if (!v.ok()) return v.status();
        ins.operand = *v;
        at += n;
        break;
      }
      case Format::kCp1:
      case Format::kNewArray: {
        auto v = in.U(at, 1);
        if (!v.ok()) return v.status();
        ins.operand = static_cast<int32_t>(*v);
        at += 1;
        if (format == Format::kNewArray && (ins.operand < 4 || ins.operand > 11)) {
          return in.Error(pc, absl::StrCat("newarray with invalid element type ", ins.operand));
        }
        break;
      }
      case Format::kCp2: {
        auto v = in.U(at, 2);
        if (!v.ok()) return v.status();
        ins.operand = static_cast<int32_t>(*v);
        at += 2;
        break;
      }
      case Format::kBranch2:
      case Format::kBranch4: {
        int n = format == Format::kBranch2 ? 2 : 4;
        auto v = in.S(at, n);
        if (!v.ok()) return v.status();
        int64_t target = static_cast<int64_t>(pc) + *v;
        targets.emplace_back(pc, target);
        ins.operand = static_cast<int32_t>(target);
        at += n;
        break;
      }
      case Format::kIinc: {
        int n = ins.wide ? 2 : 1;
        auto slot = in.U(at, n);
        if (!slot.ok()) return slot.status();
        auto delta = in.S(at + n, n);
        if (!delta.ok()) return delta.status();
        ins.operand = static_cast<int32_t>(*slot);
        ins.operand2 = *delta;
        at += 2 * n;
        break;
      }
      case Format::kInvokeInterface:
      case Format::kInvokeDynamic:
      case Format::kMultiANewArray: {
        auto v = in.U(at, 2);
        if (!v.ok()) return v.status();
        ins.operand = static_cast<int32_t>(*v);
        int extra = format == Format::kMultiANewArray ? 1 : 2;
        auto w = in.U(at + 2, 1);
        if (!w.ok()) return w.status();
        ins.operand2 = static_cast<int32_t>(*w);
        if (extra == 2) {
          auto z = in.U(at + 3, 1);
          if (!z.ok()) return z.status();
        }
        if (format == Format::kMultiANewArray && ins.operand2 < 1) {
          return in.Error(pc, "multianewarray with zero dimensions");
        }
        at += 2 + extra;
        break;
      }
      case Format::kTableSwitch:
      case Format::kLookupSwitch: {
        at = (pc + 4) & ~3u;  // 0-3 bytes of padding after the opcode
        auto def = in.S(at, 4);
        if (!def.ok()) return def.status();
        targets.emplace_back(pc, static_cast<int64_t>(pc) + *def);
        ins.default_target = static_cast<uint32_t>(static_cast<int64_t>(pc) + *def);
        if (format == Format::kTableSwitch) {
          auto low = in.S(at + 4, 4);
          if (!low.ok()) return low.status();
          auto high = in.S(at + 8, 4);
          if (!high.ok()) return high.status();
          if (*low > *high) return in.Error(pc, "tableswitch with low > high");
          int64_t count = static_cast<int64_t>(*high) - *low + 1;
          if (count * 4 > static_cast<int64_t>(size) - (at + 12)) {
            return in.Error(pc, absl::StrCat("tableswitch with ", count,
                                             " cases runs past the end of the code"));
          }
          at += 12;
          for (int64_t i = 0; i < count; ++i) {
            auto off = in.S(at, 4);
            if (!off.ok()) return off.status();
            int64_t target = static_cast<int64_t>(pc) + *off;
            targets.emplace_back(pc, target);
            ins.cases.emplace_back(static_cast<int32_t>(*low + i), static_cast<uint32_t>(target));
            at += 4;
          }
        } else {
          auto npairs = in.S(at + 4, 4);
          if (!npairs.ok()) return npairs.status();
          if (*npairs < 0 ||
              static_cast<int64_t>(*npairs) * 8 > static_cast<int64_t>(size) - (at + 8)) {
            return in.Error(pc, absl::StrCat("lookupswitch with ", *npairs,
                                             " pairs runs past the end of the code"));
          }
          at += 8;
          for (int32_t i = 0; i < *npairs; ++i) {
            auto key = in.S(at, 4);
            if (!key.ok()) return key.status();
            auto off = in.S(at + 4, 4);
            if (!off.ok()) return off.status();
            int64_t target = static_cast<int64_t>(pc) + *off;
            targets.emplace_back(pc, target);
            ins.cases.emplace_back(*key, static_cast<uint32_t>(target));
            at += 8;
          }
          std::sort(ins.cases.begin(), ins.cases.end());
          for (size_t i = 1; i < ins.cases.size(); ++i) {
            if (ins.cases[i].first == ins.cases[i - 1].first) {
              return in.Error(pc, absl::StrCat("lookupswitch with duplicate key ",
                                               ins.cases[i].first));
            }
          }
        }
        break;
      }
    }
    ins.length = at - pc;
    starts.insert(pc);
    out.push_back(std::move(ins));
    pc = at;
  }
  for (const auto& [from, target] : targets) {
    if (target < 0 || target >= size || starts.count(static_cast<uint32_t>(target)) == 0) {
      return in.Error(from, absl::StrCat("branch target ", target,
                                         " is not the start of an instruction"));
    }
  }
  return out;
}

}  // namespace tracespec::classfile

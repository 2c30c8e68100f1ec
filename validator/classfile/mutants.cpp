// Same-length bytecode mutants; see mutants.h.
#include "validator/classfile/mutants.h"

#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/method_signature.h"
#include "validator/classfile/class_file.h"
#include "validator/classfile/instructions.h"

namespace tracespec::classfile {
namespace {

// A replacement of the bytes of one instruction (same length).
struct Patch {
  std::string kind;
  std::string what;  // "iadd -> isub"
  std::vector<uint8_t> bytes;
};

// Arithmetic operator swaps.
const std::map<uint8_t, std::vector<uint8_t>>& ArithmeticSwaps() {
  static const auto* swaps = new std::map<uint8_t, std::vector<uint8_t>>{
      {96, {100}},       // iadd -> isub
      {100, {96}},       // isub -> iadd
      {104, {96, 108}},  // imul -> iadd, idiv
      {108, {104}},      // idiv -> imul
      {112, {108}},      // irem -> idiv
      {97, {101}},       // ladd -> lsub
      {101, {97}},       // lsub -> ladd
      {105, {97}},       // lmul -> ladd
      {98, {102}},       // fadd -> fsub
      {102, {98}},       // fsub -> fadd
      {106, {110}},      // fmul -> fdiv
      {110, {106}},      // fdiv -> fmul
      {99, {103}},       // dadd -> dsub
      {103, {99}},       // dsub -> dadd
      {107, {111}},      // dmul -> ddiv
      {111, {107}},      // ddiv -> dmul
      {126, {128}},      // iand -> ior
      {128, {126}},      // ior -> iand
      {130, {126}},      // ixor -> iand
  };
  return *swaps;
}

// The branch of the opposite condition.
const std::map<uint8_t, uint8_t>& Negations() {
  static const auto* negations = new std::map<uint8_t, uint8_t>{
      {153, 154}, {154, 153}, {155, 156}, {156, 155}, {157, 158}, {158, 157},
      {159, 160}, {160, 159}, {161, 162}, {162, 161}, {163, 164}, {164, 163},
      {165, 166}, {166, 165}, {198, 199}, {199, 198}};
  return *negations;
}

// Boundary shifts: < to <=, >= to >, > to >=, <= to <.
const std::map<uint8_t, uint8_t>& Boundaries() {
  static const auto* boundaries = new std::map<uint8_t, uint8_t>{
      {155, 158}, {156, 157}, {157, 156}, {158, 155},
      {161, 164}, {162, 163}, {163, 162}, {164, 161}};
  return *boundaries;
}

// The constant that pushes the default of a field type, and its opcode's
// stack size (1 or 2 slots).
uint8_t DefaultConstant(char type) {
  switch (type) {
    case 'J': return kLconst0;
    case 'F': return kFconst0;
    case 'D': return kDconst0;
    case 'L':
    case '[': return kAconstNull;
    default: return kIconst0;
  }
}

bool Wide(char type) { return type == 'J' || type == 'D'; }

std::vector<Patch> PatchesOf(const ClassFile& cls, const Code& code, size_t index) {
  const Instruction& ins = code.instructions[index];
  std::vector<Patch> out;
  uint8_t op = ins.opcode;
  auto one = [&](const std::string& kind, uint8_t to) {
    out.push_back({kind, absl::StrCat(Mnemonic(op), " -> ", Mnemonic(to)), {to}});
  };
  if (auto it = ArithmeticSwaps().find(op); it != ArithmeticSwaps().end()) {
    for (uint8_t to : it->second) one("arithmetic", to);
  }
  if (auto it = Negations().find(op); it != Negations().end() && ins.length == 3) {
    std::vector<uint8_t> bytes(code.bytes.begin() + ins.pc, code.bytes.begin() + ins.pc + 3);
    bytes[0] = it->second;
    out.push_back({"negated branch", absl::StrCat(Mnemonic(op), " -> ", Mnemonic(it->second)),
                   bytes});
    if (auto b = Boundaries().find(op); b != Boundaries().end()) {
      bytes[0] = b->second;
      out.push_back({"relational", absl::StrCat(Mnemonic(op), " -> ", Mnemonic(b->second)), bytes});
    }
  }
  // Constants ±1 and 0.
  if (op >= kIconstM1 && op <= kIconst5) {
    int v = op - kIconst0;
    for (int to : {v + 1, v - 1, 0}) {
      if (to == v || to < -1 || to > 5) continue;
      out.push_back({"constant", absl::StrCat(Mnemonic(op), " -> ", Mnemonic(kIconst0 + to)),
                     {static_cast<uint8_t>(kIconst0 + to)}});
    }
  }
  if ((op == kBipush || op == kSipush) && !ins.wide) {
    int v = ins.operand;
    int lo = op == kBipush ? -128 : -32768, hi = op == kBipush ? 127 : 32767;
    for (int to : {v + 1, v - 1, 0}) {
      if (to == v || to < lo || to > hi) continue;
      std::vector<uint8_t> bytes = {op};
      if (op == kBipush) {
        bytes.push_back(static_cast<uint8_t>(static_cast<int8_t>(to)));
      } else {
        bytes.push_back(static_cast<uint8_t>((to >> 8) & 0xff));
        bytes.push_back(static_cast<uint8_t>(to & 0xff));
      }
      out.push_back({"constant", absl::StrCat(Mnemonic(op), " ", v, " -> ", to), bytes});
    }
  }
  // lconst/fconst/dconst 0 <-> 1.
  for (auto [a, b] : {std::pair<uint8_t, uint8_t>{kLconst0, kLconst0 + 1},
                      std::pair<uint8_t, uint8_t>{kFconst0, kFconst0 + 1},
                      std::pair<uint8_t, uint8_t>{kDconst0, kDconst0 + 1}}) {
    if (op == a) one("constant", b);
    if (op == b) one("constant", a);
  }
  // iinc's increment ±1 (never 0: a loop counter that stops moving is a
  // hang, not a mutant worth a test run's time).
  if (op == kIinc && !ins.wide) {
    for (int to : {ins.operand2 + 1, ins.operand2 - 1}) {
      if (to == 0 || to < -128 || to > 127) continue;
      out.push_back({"constant",
                     absl::StrCat("iinc ", ins.operand, " ", ins.operand2, " -> ", to),
                     {kIinc, static_cast<uint8_t>(ins.operand),
                      static_cast<uint8_t>(static_cast<int8_t>(to))}});
    }
  }
  // A field store removed: its operands popped.
  if (op == kPutfield || op == kPutstatic) {
    MemberRef f = cls.pool.Member(static_cast<size_t>(ins.operand));
    char t = f.descriptor.empty() ? 'I' : f.descriptor[0];
    std::vector<uint8_t> bytes;
    if (op == kPutfield) {
      bytes = Wide(t) ? std::vector<uint8_t>{kPop2, kPop, kNop}
                      : std::vector<uint8_t>{kPop2, kNop, kNop};
    } else {
      bytes = Wide(t) ? std::vector<uint8_t>{kPop2, kNop, kNop}
                      : std::vector<uint8_t>{kPop, kNop, kNop};
    }
    out.push_back({"removed field store", absl::StrCat(Mnemonic(op), " ", f.name, " removed"),
                   bytes});
  }
  // The value returned replaced by the default: a local load or a field
  // read right before the return.
  if (index + 1 < code.instructions.size()) {
    uint8_t next = code.instructions[index + 1].opcode;
    bool returns = next >= kIreturn && next <= kAreturn;
    char type = next == kLreturn ? 'J' : next == kFreturn ? 'F' : next == kDreturn ? 'D'
                : next == kAreturn ? 'L' : 'I';
    bool load1 = (op >= kIload0 && op <= kAload0 + 3);
    bool load2 = (op >= kIload && op <= kAload) && !ins.wide;
    if (returns && (load1 || load2)) {
      std::vector<uint8_t> bytes = {DefaultConstant(type)};
      if (load2) bytes.push_back(kNop);
      out.push_back({"default return",
                     absl::StrCat(Mnemonic(op), "; ", Mnemonic(next), " -> returns the default"),
                     bytes});
    }
    if (returns && op == kGetfield) {
      out.push_back({"default return",
                     absl::StrCat("getfield ", cls.pool.Member(static_cast<size_t>(ins.operand)).name,
                                  "; ", Mnemonic(next), " -> returns the default"),
                     {kPop, DefaultConstant(type), kNop}});
    }
  }
  return out;
}

}  // namespace

std::string Mutant::Label() const {
  return absl::StrCat(id, " ", change, " @pc ", pc, line > 0 ? absl::StrCat(" (line ", line, ")") : "");
}

absl::StatusOr<MethodMutantsResult> MethodMutants(absl::string_view bytes,
                                                  const std::string& source,
                                                  absl::string_view name,
                                                  absl::string_view descriptor,
                                                  const MutantOptions& options) {
  absl::StatusOr<ClassFile> cls = ParseClassFile(bytes, source);
  if (!cls.ok()) return cls.status();
  MethodSignature wanted;
  wanted.method_name = std::string(name);
  wanted.descriptor = std::string(descriptor);
  const Method* method = nullptr;
  for (const Method& m : cls->methods) {
    if (m.name != name || !wanted.Matches(m.descriptor)) continue;
    if (method != nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          source, ": method ", name, " is overloaded (", method->descriptor, ", ", m.descriptor,
          "); give its descriptor"));
    }
    method = &m;
  }
  if (method == nullptr || !method->code) {
    return absl::NotFoundError(
        absl::StrCat(source, " has no method ", name, descriptor, " with bytecode"));
  }
  const Code& code = *method->code;
  std::vector<Mutant> all;
  for (size_t i = 0; i < code.instructions.size(); ++i) {
    const Instruction& ins = code.instructions[i];
    // One mutant per distinct patch: iconst_1's n-1 and 0 are one change.
    std::set<std::vector<uint8_t>> seen;
    for (Patch& p : PatchesOf(*cls, code, i)) {
      if (!seen.insert(p.bytes).second) continue;
      Mutant m;
      m.kind = p.kind;
      m.change = p.what;
      m.pc = ins.pc;
      m.line = code.LineOf(ins.pc);
      m.bytes = std::string(bytes);
      for (size_t k = 0; k < p.bytes.size(); ++k) {
        m.bytes[code.file_offset + ins.pc + k] = static_cast<char>(p.bytes[k]);
      }
      all.push_back(std::move(m));
    }
  }
  MethodMutantsResult result;
  result.generated = static_cast<int>(all.size());
  result.descriptor = method->descriptor;
  int width = all.size() >= 100 ? 3 : 2;
  for (size_t i = 0; i < all.size(); ++i) {
    all[i].id = absl::StrFormat("M%0*d", width, static_cast<int>(i + 1));
  }
  size_t n = all.size();
  size_t cap = options.max_mutants > 0 ? static_cast<size_t>(options.max_mutants) : n;
  if (n <= cap) {
    result.mutants = std::move(all);
  } else {
    for (size_t k = 0; k < cap; ++k) result.mutants.push_back(std::move(all[k * n / cap]));
  }
  return result;
}

}  // namespace tracespec::classfile

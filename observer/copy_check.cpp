// Bytecode winnowing against implementation copies; see copy_check.h.
#include "observer/copy_check.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace tracespec::observer {
namespace {

using classfile::Op;

// Token values; anything not listed keeps its own opcode (< 256 is free:
// tokens are small numbers of their own).
enum Token : uint8_t {
  kLoad = 1, kStore, kConst, kInvoke, kNew, kAdd, kSub, kMul, kDiv, kRem, kNeg, kShl, kShr,
  kUshr, kAnd, kOr, kXor, kCompare, kArrayLoad, kArrayStore, kNewArray, kReturn, kThrow,
  kGoto, kSwitch, kMonitor, kArrayLength, kInstanceof, kInvokeDynamic,
  // Conditional branches keep their condition: kBranch + (opcode - ifeq).
  kBranch = 64,
};

// Appends the tokens of one instruction. `aload_0` (`this` in an instance
// method) is left out, so that a field turned into a local looks the same.
void Tokenize(const classfile::Instruction& in, std::vector<uint8_t>* out) {
  uint8_t op = in.opcode;
  if (op == classfile::kAload0) return;
  if ((op >= classfile::kIload && op <= classfile::kAload) ||
      (op >= classfile::kIload0 && op <= classfile::kAload0 + 3) || op == classfile::kGetfield ||
      op == classfile::kGetstatic) {
    out->push_back(kLoad);
    return;
  }
  if ((op >= classfile::kIstore && op <= classfile::kAstore) ||
      (op >= classfile::kIstore0 && op <= classfile::kAstore0 + 3) ||
      op == classfile::kPutfield || op == classfile::kPutstatic) {
    out->push_back(kStore);
    return;
  }
  if (op == classfile::kIinc) {  // x += c, as a field update would be.
    out->insert(out->end(), {kLoad, kConst, kAdd, kStore});
    return;
  }
  if (op >= classfile::kAconstNull && op <= classfile::kLdc2W) {
    out->push_back(kConst);
    return;
  }
  if (op >= classfile::kIaload && op <= classfile::kSaload) {
    out->push_back(kArrayLoad);
    return;
  }
  if (op >= classfile::kIastore && op <= classfile::kSastore) {
    out->push_back(kArrayStore);
    return;
  }
  if ((op >= classfile::kPop && op <= classfile::kSwap) || op == classfile::kNop ||
      (op >= classfile::kI2l && op <= classfile::kI2s) || op == classfile::kCheckcast) {
    return;  // Stack shuffles, conversions, casts: how, not what.
  }
  if (op >= classfile::kIadd && op <= classfile::kLxor) {
    static constexpr uint8_t kArith[] = {kAdd, kSub, kMul, kDiv, kRem, kNeg};
    if (op <= classfile::kDneg) {
      out->push_back(kArith[(op - classfile::kIadd) / 4]);
    } else {
      static constexpr uint8_t kBits[] = {kShl, kShr, kUshr, kAnd, kOr, kXor};
      out->push_back(kBits[(op - classfile::kIshl) / 2]);
    }
    return;
  }
  if (op >= classfile::kLcmp && op <= classfile::kDcmpg) {
    out->push_back(kCompare);
    return;
  }
  if ((op >= classfile::kIfeq && op <= classfile::kIfAcmpne) || op == classfile::kIfnull ||
      op == classfile::kIfnonnull) {
    out->push_back(static_cast<uint8_t>(kBranch + (op - classfile::kIfeq)));
    return;
  }
  switch (op) {
    case classfile::kGoto:
    case classfile::kGotoW: out->push_back(kGoto); return;
    case classfile::kTableswitch:
    case classfile::kLookupswitch: out->push_back(kSwitch); return;
    case classfile::kIreturn:
    case classfile::kLreturn:
    case classfile::kFreturn:
    case classfile::kDreturn:
    case classfile::kAreturn:
    case classfile::kReturn: out->push_back(kReturn); return;
    case classfile::kInvokevirtual:
    case classfile::kInvokespecial:
    case classfile::kInvokestatic:
    case classfile::kInvokeinterface: out->push_back(kInvoke); return;
    case classfile::kInvokedynamic: out->push_back(kInvokeDynamic); return;
    case classfile::kNew: out->push_back(kNew); return;
    case classfile::kNewarray:
    case classfile::kAnewarray:
    case classfile::kMultianewarray: out->push_back(kNewArray); return;
    case classfile::kArraylength: out->push_back(kArrayLength); return;
    case classfile::kAthrow: out->push_back(kThrow); return;
    case classfile::kInstanceof: out->push_back(kInstanceof); return;
    case classfile::kMonitorenter:
    case classfile::kMonitorexit: out->push_back(kMonitor); return;
    default: out->push_back(static_cast<uint8_t>(200 + (op % 50))); return;
  }
}

std::string Binary(std::string internal) {
  std::replace(internal.begin(), internal.end(), '/', '.');
  return internal;
}

// The test method a method of a test class stands for (lambda$t$0 → t).
std::string OwnerMethod(const std::string& name) {
  const std::string lambda = "lambda$";
  if (name.compare(0, lambda.size(), lambda) != 0) return name;
  size_t end = name.find('$', lambda.size());
  return end == std::string::npos ? name : name.substr(lambda.size(), end - lambda.size());
}

}  // namespace

std::vector<uint8_t> NormalizedTokens(const classfile::Code& code) {
  std::vector<uint8_t> out;
  for (const classfile::Instruction& in : code.instructions) {
    Tokenize(in, &out);
  }
  return out;
}

std::set<uint64_t> Fingerprints(const std::vector<uint8_t>& tokens) {
  std::set<uint64_t> out;
  if (tokens.size() < static_cast<size_t>(kCopyGram)) return out;
  std::vector<uint64_t> grams;
  for (size_t i = 0; i + kCopyGram <= tokens.size(); ++i) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a over the k tokens.
    for (int j = 0; j < kCopyGram; ++j) h = (h ^ tokens[i + j]) * 1099511628211ull;
    grams.push_back(h);
  }
  // Winnowing: the minimum of every window (rightmost on ties).
  size_t windows = grams.size() >= static_cast<size_t>(kCopyWindow)
                       ? grams.size() - kCopyWindow + 1
                       : 1;
  for (size_t w = 0; w < windows; ++w) {
    size_t end = std::min(grams.size(), w + kCopyWindow);
    size_t best = w;
    for (size_t i = w; i < end; ++i) {
      if (grams[i] <= grams[best]) best = i;
    }
    out.insert(grams[best]);
  }
  return out;
}

std::vector<std::string> TestFileClasses(classfile::ClassPath* class_path,
                                         const std::string& test_class,
                                         const std::vector<std::string>& listed) {
  std::string name = classfile::BinaryToInternal(test_class);
  absl::StatusOr<const classfile::ClassFile*> cls = class_path->Load(name);
  if (!cls.ok()) return {};
  // The file's top-level class hosts the nest of every class javac put in it.
  std::string top = (*cls)->nest_host.empty() ? name : (*cls)->nest_host;
  absl::StatusOr<const classfile::ClassFile*> host = class_path->Load(top);
  if (!host.ok()) return {};
  std::set<std::string> out = {top};
  out.insert((*host)->nest_members.begin(), (*host)->nest_members.end());
  const std::string nested = top + "$";
  const std::string package = top.substr(0, top.rfind('/') + 1);
  for (const std::string& other : listed) {
    if (absl::StartsWith(other, nested)) {
      out.insert(other);
      continue;
    }
    // Another class of the package: of this file when its SourceFile or its
    // NestHost says so.
    if (!absl::StartsWith(other, package) || other.find('/', package.size()) != std::string::npos ||
        out.count(other) != 0) {
      continue;
    }
    absl::StatusOr<const classfile::ClassFile*> sibling = class_path->Load(other);
    if (!sibling.ok()) continue;
    if ((*sibling)->nest_host == top ||
        (!(*host)->source_file.empty() && (*sibling)->source_file == (*host)->source_file)) {
      out.insert(other);
    }
  }
  std::vector<std::string> binary;
  for (const std::string& internal : out) binary.push_back(Binary(internal));
  std::sort(binary.begin(), binary.end());
  return binary;
}

absl::StatusOr<std::vector<CopyFinding>> FindBytecodeCopies(
    classfile::ClassPath* class_path, const std::vector<std::string>& test_classes,
    const std::map<std::string, std::set<std::string>>& targets) {
  struct Body {
    std::string label;
    std::set<uint64_t> prints;
  };
  std::vector<Body> bodies;
  for (const auto& [class_name, names] : targets) {
    absl::StatusOr<const classfile::ClassFile*> cls = class_path->Load(class_name);
    if (!cls.ok()) continue;  // Reported elsewhere (never loaded, not found).
    for (const classfile::Method& m : (*cls)->methods) {
      if (!m.code || (!names.empty() && names.count(m.name) == 0)) continue;
      std::vector<uint8_t> tokens = NormalizedTokens(*m.code);
      if (tokens.size() < kCopyMinTokens) continue;
      bodies.push_back({absl::StrCat(class_name, "#", m.name, m.descriptor), Fingerprints(tokens)});
    }
  }
  if (bodies.empty()) return std::vector<CopyFinding>();
  const std::vector<std::string> listed = class_path->ListClasses();
  std::map<std::string, CopyFinding> found;
  std::set<std::vector<std::string>> files;  // each test file once
  for (const std::string& test_class : test_classes) {
    std::vector<std::string> file = TestFileClasses(class_path, test_class, listed);
    if (!files.insert(file).second) continue;
    for (const std::string& class_name : file) {
      if (targets.count(class_name) != 0) continue;  // a target is no copy of itself
      absl::StatusOr<const classfile::ClassFile*> cls = class_path->Load(class_name);
      if (!cls.ok()) continue;
      // A method and its lambdas as one body.
      std::map<std::string, std::set<uint64_t>> methods;
      for (const classfile::Method& m : (*cls)->methods) {
        if (!m.code) continue;
        std::set<uint64_t> prints = Fingerprints(NormalizedTokens(*m.code));
        methods[OwnerMethod(m.name)].insert(prints.begin(), prints.end());
      }
      for (const auto& [method, prints] : methods) {
        std::string id = absl::StrCat(class_name, "#", method);
        for (const Body& body : bodies) {
          if (body.prints.empty()) continue;
          size_t shared = 0;
          for (uint64_t p : body.prints) shared += prints.count(p);
          double share = static_cast<double>(shared) / static_cast<double>(body.prints.size());
          if (share >= kCopyShare && share > found[id].share) {
            found[id] = {id, body.label, share, file};
          }
        }
      }
    }
  }
  std::vector<CopyFinding> out;
  for (auto& [id, finding] : found) {
    if (!finding.target.empty()) out.push_back(std::move(finding));
  }
  return out;
}

}  // namespace tracespec::observer

// libFuzzer target for the class-file and jar readers: any byte string must
// give a class (or archive) or an error, never a crash, hang or leak.
#include <cstddef>
#include <cstdint>
#include <string>

#include "validator/classfile/class_file.h"
#include "validator/classfile/jar.h"

using tracespec::classfile::ClassFile;
using tracespec::classfile::JarFile;
using tracespec::classfile::ParseClassFile;

namespace {

// Walks what a parsed class offers, so that every accessor runs on fuzzed data.
void Touch(const ClassFile& cf) {
  for (const auto& m : cf.methods) {
    (void)cf.ParameterNames(m);
    if (!m.code) continue;
    for (const auto& ins : m.code->instructions) {
      (void)m.code->LineOf(ins.pc);
      (void)m.code->IndexOfPc(ins.pc);
      (void)tracespec::classfile::Mnemonic(ins.opcode);
    }
  }
  for (size_t i = 0; i < cf.pool.size(); ++i) (void)cf.pool.tag(i);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  auto cf = ParseClassFile(bytes, "fuzz.class");
  if (cf.ok()) Touch(*cf);
  auto jar = JarFile::FromBytes(bytes, "fuzz.jar");
  if (jar.ok()) {
    for (const std::string& name : jar->EntryNames()) {
      auto entry = jar->Read(name);
      if (!entry.ok()) continue;
      auto inner = ParseClassFile(*entry, name);
      if (inner.ok()) Touch(*inner);
    }
  }
  return 0;
}

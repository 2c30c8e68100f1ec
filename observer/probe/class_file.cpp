// Class-file reading, rewriting and writing for the probe; see class_file.h.
#include "observer/probe/class_file.h"

#include <algorithm>
#include <set>

#include "observer/probe/hooks_abi.h"

namespace tracespec::probe {
namespace {

// JVM opcodes emitted by the rewriter (JVMS §6.5).
enum : uint8_t {
  kNop = 0x00,
  kAconstNull = 0x01,
  kSipush = 0x11,
  kLdcW = 0x13,
  kIload = 0x15,
  kLload = 0x16,
  kFload = 0x17,
  kDload = 0x18,
  kAload = 0x19,
  kAload0 = 0x2a,
  kDup = 0x59,
  kDup2 = 0x5c,
  kIreturn = 0xac,
  kLreturn = 0xad,
  kFreturn = 0xae,
  kDreturn = 0xaf,
  kAreturn = 0xb0,
  kReturn = 0xb1,
  kGetstatic = 0xb2,
  kGetfield = 0xb4,
  kInvokespecial = 0xb7,
  kInvokestatic = 0xb8,
  kAthrow = 0xbf,
  kWide = 0xc4,
  kTableswitch = 0xaa,
  kLookupswitch = 0xab,
};

// Length of the instruction at `pc` of `code` (JVMS §6.5), or 0 when it is
// malformed or runs past the end.
size_t InstructionLength(const std::string& code, size_t pc) {
  auto byte = [&code](size_t at) -> uint32_t {
    return at < code.size() ? static_cast<uint8_t>(code[at]) : 0;
  };
  auto s4 = [&byte](size_t at) -> int64_t {
    return static_cast<int32_t>(byte(at) << 24 | byte(at + 1) << 16 | byte(at + 2) << 8 |
                                byte(at + 3));
  };
  uint8_t op = static_cast<uint8_t>(byte(pc));
  size_t length = 0;
  if (op <= 0x0f) {
    length = 1;  // nop, constants
  } else if (op == 0x10 || op == 0x12 || (op >= 0x15 && op <= 0x19) ||
             (op >= 0x36 && op <= 0x3a) || op == 0xa9 || op == 0xbc) {
    length = 2;  // bipush, ldc, loads, stores, ret, newarray
  } else if (op == 0x11 || op == 0x13 || op == 0x14 || op == 0x84 ||
             (op >= 0x99 && op <= 0xa8) || (op >= 0xb2 && op <= 0xb8) || op == 0xbb ||
             op == 0xbd || op == 0xc0 || op == 0xc1 || op == 0xc6 || op == 0xc7) {
    length = 3;
  } else if (op == 0xc5) {
    length = 4;  // multianewarray
  } else if (op == 0xb9 || op == 0xba || op == 0xc8 || op == 0xc9) {
    length = 5;  // invokeinterface, invokedynamic, goto_w, jsr_w
  } else if (op == kWide) {
    length = byte(pc + 1) == 0x84 ? 6 : 4;
  } else if (op == kTableswitch || op == kLookupswitch) {
    size_t at = (pc + 4) & ~size_t{3};  // after the padding
    if (op == kTableswitch) {
      int64_t count = s4(at + 8) - s4(at + 4) + 1;
      if (count < 0) return 0;
      length = at + 12 + 4 * static_cast<size_t>(count) - pc;
    } else {
      int64_t pairs = s4(at + 4);
      if (pairs < 0) return 0;
      length = at + 8 + 8 * static_cast<size_t>(pairs) - pc;
    }
  } else if ((op >= 0x1a && op <= 0x35) || (op >= 0x3b && op <= 0x83) ||
             (op >= 0x85 && op <= 0x98) || (op >= 0xac && op <= 0xb1) || op == 0xbe ||
             op == 0xbf || op == 0xc2 || op == 0xc3) {
    length = 1;
  }
  return pc + length <= code.size() ? length : 0;
}

// Constant-pool tags (JVMS §4.4).
enum : uint8_t {
  kTagUtf8 = 1,
  kTagInteger = 3,
  kTagFloat = 4,
  kTagLong = 5,
  kTagDouble = 6,
  kTagClass = 7,
  kTagString = 8,
  kTagFieldref = 9,
  kTagMethodref = 10,
  kTagInterfaceMethodref = 11,
  kTagNameAndType = 12,
  kTagMethodHandle = 15,
  kTagMethodType = 16,
  kTagDynamic = 17,
  kTagInvokeDynamic = 18,
  kTagModule = 19,
  kTagPackage = 20,
};

// Suffix of the private method that keeps a wrapped method's body.
constexpr char kBodySuffix[] = "$tracespec";

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool ok() const { return ok_; }
  size_t pos() const { return pos_; }
  bool at_end() const { return pos_ == size_; }
  uint8_t U1() {
    if (!Need(1)) return 0;
    return data_[pos_++];
  }
  uint16_t U2() {
    if (!Need(2)) return 0;
    uint16_t v = static_cast<uint16_t>(data_[pos_] << 8 | data_[pos_ + 1]);
    pos_ += 2;
    return v;
  }
  uint32_t U4() {
    uint32_t hi = U2();
    return hi << 16 | U2();
  }
  std::string Bytes(size_t n) {
    if (!Need(n)) return "";
    std::string out(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return out;
  }
  void Skip(size_t n) {
    if (Need(n)) pos_ += n;
  }
  std::string Slice(size_t from) const {
    return std::string(reinterpret_cast<const char*>(data_ + from), pos_ - from);
  }

 private:
  bool Need(size_t n) {
    if (!ok_ || size_ - pos_ < n) {
      ok_ = false;
      return false;
    }
    return true;
  }
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  bool ok_ = true;
};

void PutU1(std::string* out, uint8_t v) { out->push_back(static_cast<char>(v)); }
void PutU2(std::string* out, uint16_t v) {
  out->push_back(static_cast<char>(v >> 8));
  out->push_back(static_cast<char>(v & 0xff));
}
void PutU4(std::string* out, uint32_t v) {
  PutU2(out, static_cast<uint16_t>(v >> 16));
  PutU2(out, static_cast<uint16_t>(v & 0xffff));
}

std::vector<Attribute> ReadAttributes(Reader& in) {
  std::vector<Attribute> out(in.U2());
  for (Attribute& a : out) {
    a.name_index = in.U2();
    a.data = in.Bytes(in.U4());
  }
  return out;
}

void WriteAttributes(const std::vector<Attribute>& attributes, std::string* out) {
  PutU2(out, static_cast<uint16_t>(attributes.size()));
  for (const Attribute& a : attributes) {
    PutU2(out, a.name_index);
    PutU4(out, static_cast<uint32_t>(a.data.size()));
    out->append(a.data);
  }
}

int Slots(char kind) { return kind == 'J' || kind == 'D' ? 2 : 1; }

// Reads one field descriptor starting at `pos`; returns the position after
// it, or npos when malformed.
size_t FieldDescriptorEnd(std::string_view d, size_t pos) {
  size_t p = pos;
  while (p < d.size() && d[p] == '[') ++p;
  if (p >= d.size()) return std::string_view::npos;
  switch (d[p]) {
    case 'Z': case 'B': case 'C': case 'S': case 'I': case 'J': case 'F': case 'D':
      return p + 1;
    case 'L': {
      size_t semi = d.find(';', p);
      return semi == std::string_view::npos || semi == p + 1 ? std::string_view::npos : semi + 1;
    }
    default:
      return std::string_view::npos;
  }
}

// Copies one verification_type_info (JVMS §4.7.4), shifting the offset of
// Uninitialized entries.
bool CopyTypeInfo(Reader& in, uint32_t shift, std::string* out) {
  uint8_t tag = in.U1();
  PutU1(out, tag);
  if (tag == 7) {
    PutU2(out, in.U2());
  } else if (tag == 8) {
    uint32_t offset = in.U2() + shift;
    if (offset > 0xffff) return false;
    PutU2(out, static_cast<uint16_t>(offset));
  } else if (tag > 8) {
    return false;
  }
  return in.ok();
}

}  // namespace

int MethodType::ParamSlots() const {
  int slots = 0;
  for (const std::string& p : params) slots += Slots(KindOf(p));
  return slots;
}

char KindOf(std::string_view field_descriptor) {
  if (field_descriptor.empty()) return 'V';
  char c = field_descriptor[0];
  return c == '[' ? 'L' : c;
}

bool ParseMethodDescriptor(std::string_view descriptor, MethodType* out) {
  out->params.clear();
  if (descriptor.empty() || descriptor[0] != '(') return false;
  size_t pos = 1;
  while (pos < descriptor.size() && descriptor[pos] != ')') {
    size_t end = FieldDescriptorEnd(descriptor, pos);
    if (end == std::string_view::npos) return false;
    out->params.emplace_back(descriptor.substr(pos, end - pos));
    pos = end;
  }
  if (pos >= descriptor.size()) return false;
  ++pos;
  if (descriptor.substr(pos) == "V") {
    out->ret = "V";
    return true;
  }
  size_t end = FieldDescriptorEnd(descriptor, pos);
  if (end != descriptor.size()) return false;
  out->ret = std::string(descriptor.substr(pos));
  return true;
}

bool ClassFile::Parse(const uint8_t* data, size_t size, std::string* error) {
  Reader in(data, size);
  if (in.U4() != 0xCAFEBABE) {
    *error = "not a class file (bad magic number)";
    return false;
  }
  minor_ = in.U2();
  major_ = in.U2();
  pool_count_ = in.U2();
  size_t pool_start = in.pos();
  pool_tags_.assign(pool_count_, 0);
  std::map<uint16_t, uint16_t>& class_names = class_names_;
  for (uint16_t i = 1; i < pool_count_ && in.ok(); ++i) {
    uint8_t tag = in.U1();
    pool_tags_[i] = tag;
    switch (tag) {
      case kTagUtf8:
        utf8_[i] = in.Bytes(in.U2());
        break;
      case kTagInteger: case kTagFloat:
        if (tag == kTagInteger) constant_offsets_[i] = in.pos() - pool_start;
        in.Skip(4);
        break;
      case kTagLong: case kTagDouble:
        if (tag == kTagLong) constant_offsets_[i] = in.pos() - pool_start;
        in.Skip(8);
        ++i;  // Takes two entries.
        break;
      case kTagClass:
        class_names[i] = in.U2();
        break;
      case kTagString: case kTagMethodType: case kTagModule: case kTagPackage:
        if (tag == kTagString) constant_offsets_[i] = in.pos() - pool_start;
        in.Skip(2);
        break;
      case kTagFieldref: {
        uint16_t owner = in.U2();
        fieldrefs_[i] = {owner, in.U2()};
        break;
      }
      case kTagNameAndType: {
        uint16_t name = in.U2();
        name_and_types_[i] = {name, in.U2()};
        break;
      }
      case kTagMethodref: {
        uint16_t owner = in.U2();
        methodrefs_[i] = {owner, in.U2()};
        break;
      }
      case kTagInterfaceMethodref:
      case kTagDynamic: case kTagInvokeDynamic:
        in.Skip(4);
        break;
      case kTagMethodHandle:
        in.Skip(1);  // reference_kind
        method_handles_[i] = in.U2();
        break;
      default:
        *error = "unknown constant-pool tag " + std::to_string(tag) + " at entry " +
                 std::to_string(i);
        return false;
    }
  }
  pool_bytes_ = in.Slice(pool_start);
  next_index_ = pool_count_;

  size_t middle_start = in.pos();
  access_ = in.U2();
  uint16_t this_class = in.U2();
  in.Skip(2);                      // super_class
  in.Skip(2 * size_t{in.U2()});    // interfaces
  uint16_t field_count = in.U2();
  for (uint16_t i = 0; i < field_count && in.ok(); ++i) {
    in.Skip(6);
    ReadAttributes(in);
  }
  middle_ = in.Slice(middle_start);

  methods_.resize(in.U2());
  for (Method& m : methods_) {
    m.access = in.U2();
    m.name_index = in.U2();
    m.descriptor_index = in.U2();
    m.attributes = ReadAttributes(in);
  }
  attributes_ = ReadAttributes(in);
  if (!in.ok()) {
    *error = "truncated class file";
    return false;
  }
  if (!in.at_end()) {
    *error = "trailing bytes after the class file";
    return false;
  }
  auto cls = class_names.find(this_class);
  if (cls == class_names.end() || utf8_.count(cls->second) == 0) {
    *error = "this_class is not a class entry";
    return false;
  }
  name_ = utf8_[cls->second];
  for (const Method& m : methods_) {
    if (utf8_.count(m.name_index) == 0 || utf8_.count(m.descriptor_index) == 0) {
      *error = "method name or descriptor is not a Utf8 entry";
      return false;
    }
  }
  return true;
}

const std::string& ClassFile::Utf8(uint16_t index) const {
  static const std::string kEmpty;
  auto it = utf8_.find(index);
  return it == utf8_.end() ? kEmpty : it->second;
}

int ClassFile::FindAttribute(const std::vector<Attribute>& attributes,
                             std::string_view name) const {
  for (size_t i = 0; i < attributes.size(); ++i) {
    if (Utf8(attributes[i].name_index) == name) return static_cast<int>(i);
  }
  return -1;
}

MethodFacts ClassFile::Facts(int method_index) const {
  const Method& m = methods_[method_index];
  MethodFacts facts;
  facts.name = Utf8(m.name_index);
  facts.descriptor = Utf8(m.descriptor_index);
  facts.access = m.access;
  int code_index = FindAttribute(m.attributes, "Code");
  facts.has_code = code_index >= 0;
  MethodType type;
  if (!ParseMethodDescriptor(facts.descriptor, &type)) return facts;
  facts.param_names.assign(type.params.size(), "");

  int mp = FindAttribute(m.attributes, "MethodParameters");
  if (mp >= 0) {
    const std::string& data = m.attributes[mp].data;
    Reader in(reinterpret_cast<const uint8_t*>(data.data()), data.size());
    uint8_t count = in.U1();
    if (count == type.params.size()) {
      for (size_t i = 0; i < count && in.ok(); ++i) {
        facts.param_names[i] = Utf8(in.U2());
        in.U2();  // access flags
      }
      if (in.ok()) return facts;
      facts.param_names.assign(type.params.size(), "");
    }
  }
  Code code;
  if (code_index < 0 || !DecodeCode(m.attributes[code_index], &code)) return facts;
  int lvt = FindAttribute(code.attributes, "LocalVariableTable");
  if (lvt < 0) return facts;
  // Slot of each parameter.
  std::map<uint16_t, size_t> slot_to_param;
  int slot = (m.access & kAccStatic) ? 0 : 1;
  for (size_t i = 0; i < type.params.size(); ++i) {
    slot_to_param[static_cast<uint16_t>(slot)] = i;
    slot += Slots(KindOf(type.params[i]));
  }
  const std::string& data = code.attributes[lvt].data;
  Reader in(reinterpret_cast<const uint8_t*>(data.data()), data.size());
  uint16_t count = in.U2();
  for (uint16_t i = 0; i < count && in.ok(); ++i) {
    uint16_t start = in.U2();
    in.U2();  // length
    uint16_t name = in.U2();
    in.U2();  // descriptor
    uint16_t index = in.U2();
    auto it = slot_to_param.find(index);
    if (in.ok() && start == 0 && it != slot_to_param.end()) {
      facts.param_names[it->second] = Utf8(name);
    }
  }
  return facts;
}

bool ClassFile::DecodeCode(const Attribute& attribute, Code* out) const {
  Reader in(reinterpret_cast<const uint8_t*>(attribute.data.data()), attribute.data.size());
  out->max_stack = in.U2();
  out->max_locals = in.U2();
  out->code = in.Bytes(in.U4());
  out->handlers.resize(in.U2());
  for (Code::Handler& h : out->handlers) {
    h.start = in.U2();
    h.end = in.U2();
    h.handler = in.U2();
    h.catch_type = in.U2();
  }
  out->attributes = ReadAttributes(in);
  return in.ok() && in.at_end();
}

std::string ClassFile::EncodeCode(const Code& code) const {
  std::string out;
  PutU2(&out, code.max_stack);
  PutU2(&out, code.max_locals);
  PutU4(&out, static_cast<uint32_t>(code.code.size()));
  out.append(code.code);
  PutU2(&out, static_cast<uint16_t>(code.handlers.size()));
  for (const Code::Handler& h : code.handlers) {
    PutU2(&out, h.start);
    PutU2(&out, h.end);
    PutU2(&out, h.handler);
    PutU2(&out, h.catch_type);
  }
  WriteAttributes(code.attributes, &out);
  return out;
}

uint16_t ClassFile::AddEntry(const std::string& key, const std::string& bytes, int slots) {
  auto it = added_.find(key);
  if (it != added_.end()) return it->second;
  if (next_index_ + slots > 0xffff) {
    pool_full_ = true;
    return 0;
  }
  uint16_t index = next_index_;
  next_index_ = static_cast<uint16_t>(next_index_ + slots);
  added_bytes_.append(bytes);
  added_[key] = index;
  return index;
}

uint16_t ClassFile::AddUtf8(std::string_view text) {
  std::string bytes;
  PutU1(&bytes, kTagUtf8);
  PutU2(&bytes, static_cast<uint16_t>(text.size()));
  bytes.append(text);
  uint16_t index = AddEntry("U" + std::string(text), bytes);
  utf8_.emplace(index, std::string(text));
  return index;
}

uint16_t ClassFile::AddClass(std::string_view internal_name) {
  std::string bytes;
  PutU1(&bytes, kTagClass);
  PutU2(&bytes, AddUtf8(internal_name));
  return AddEntry("C" + std::string(internal_name), bytes);
}

uint16_t ClassFile::AddNameAndType(std::string_view name, std::string_view descriptor) {
  std::string bytes;
  PutU1(&bytes, kTagNameAndType);
  PutU2(&bytes, AddUtf8(name));
  PutU2(&bytes, AddUtf8(descriptor));
  return AddEntry("N" + std::string(name) + " " + std::string(descriptor), bytes);
}

uint16_t ClassFile::AddMethodref(std::string_view owner, std::string_view name,
                                 std::string_view descriptor, bool interface_owner) {
  std::string bytes;
  PutU1(&bytes, interface_owner ? kTagInterfaceMethodref : kTagMethodref);
  PutU2(&bytes, AddClass(owner));
  PutU2(&bytes, AddNameAndType(name, descriptor));
  return AddEntry(std::string(interface_owner ? "I" : "M") + std::string(owner) + "." +
                      std::string(name) + std::string(descriptor),
                  bytes);
}

uint16_t ClassFile::AddInteger(int32_t value) {
  std::string bytes;
  PutU1(&bytes, kTagInteger);
  PutU4(&bytes, static_cast<uint32_t>(value));
  return AddEntry("i" + std::to_string(value), bytes);
}

namespace {

void EmitLocal(uint8_t opcode, int slot, std::string* code) {
  if (slot <= 0xff) {
    PutU1(code, opcode);
    PutU1(code, static_cast<uint8_t>(slot));
  } else {
    PutU1(code, kWide);
    PutU1(code, opcode);
    PutU2(code, static_cast<uint16_t>(slot));
  }
}

uint8_t LoadOpcode(char kind) {
  switch (kind) {
    case 'J': return kLload;
    case 'F': return kFload;
    case 'D': return kDload;
    case 'L': return kAload;
    default: return kIload;
  }
}

uint8_t ReturnOpcode(char kind) {
  switch (kind) {
    case 'V': return kReturn;
    case 'J': return kLreturn;
    case 'F': return kFreturn;
    case 'D': return kDreturn;
    case 'L': return kAreturn;
    default: return kIreturn;
  }
}

}  // namespace

void ClassFile::EmitArgumentHooks(const MethodType& type, bool is_static, bool pass_receiver,
                                  int hook_id, const char* enter_name, std::string* code) {
  int slot = is_static ? 0 : 1;
  for (const std::string& param : type.params) {
    char kind = KindOf(param);
    EmitLocal(LoadOpcode(kind), slot, code);
    PutU1(code, kInvokestatic);
    PutU2(code, AddMethodref(kHooksClass, ArgHookName(kind), ArgHookDescriptor(kind)));
    slot += Slots(kind);
  }
  if (pass_receiver) {
    PutU1(code, kAload0);
  } else {
    PutU1(code, kAconstNull);
  }
  if (hook_id <= 0x7fff) {
    PutU1(code, kSipush);
    PutU2(code, static_cast<uint16_t>(hook_id));
  } else {
    std::string bytes;
    PutU1(&bytes, kTagInteger);
    PutU4(&bytes, static_cast<uint32_t>(hook_id));
    PutU1(code, kLdcW);
    PutU2(code, AddEntry("I" + std::to_string(hook_id), bytes));
  }
  PutU1(code, kInvokestatic);
  PutU2(code, AddMethodref(kHooksClass, enter_name, kEnterDescriptor));
}

bool ClassFile::AddWrapper(int method_index, int hook_id, std::string* error) {
  Method original = methods_[method_index];
  MethodFacts facts = Facts(method_index);
  MethodType type;
  if (!ParseMethodDescriptor(facts.descriptor, &type)) {
    *error = "malformed descriptor " + facts.descriptor;
    return false;
  }
  if (facts.name == "<init>" || facts.name == "<clinit>" || is_interface() || !facts.has_code) {
    *error = "a wrapper cannot replace " + facts.name + facts.descriptor;
    return false;
  }
  bool is_static = (original.access & kAccStatic) != 0;
  int code_index = FindAttribute(original.attributes, "Code");

  // The body: the original code under a private synthetic name. It keeps
  // only its Code; annotations, signature and parameters stay with the
  // public face. Synchronisation moves to the wrapper so that the pre-state
  // is read under the same lock.
  std::string body_name = facts.name + kBodySuffix;
  Method body;
  body.access = static_cast<uint16_t>((original.access & (kAccStatic | kAccStrict)) |
                                      kAccPrivate | kAccSynthetic);
  body.name_index = AddUtf8(body_name);
  body.descriptor_index = original.descriptor_index;
  body.attributes.push_back(original.attributes[code_index]);

  Code code;
  EmitArgumentHooks(type, is_static, /*pass_receiver=*/!is_static, hook_id, kEnter, &code.code);
  uint16_t start = static_cast<uint16_t>(code.code.size());
  int slot = 0;
  if (!is_static) {
    PutU1(&code.code, kAload0);
    slot = 1;
  }
  for (const std::string& param : type.params) {
    char kind = KindOf(param);
    EmitLocal(LoadOpcode(kind), slot, &code.code);
    slot += Slots(kind);
  }
  PutU1(&code.code, is_static ? kInvokestatic : kInvokespecial);
  PutU2(&code.code, AddMethodref(name_, body_name, facts.descriptor));
  uint16_t end = static_cast<uint16_t>(code.code.size());
  char ret = KindOf(type.ret);
  if (ret != 'V') PutU1(&code.code, Slots(ret) == 2 ? kDup2 : kDup);
  PutU1(&code.code, kInvokestatic);
  PutU2(&code.code, AddMethodref(kHooksClass, ExitHookName(ret), ExitHookDescriptor(ret)));
  PutU1(&code.code, ReturnOpcode(ret));
  uint16_t handler = static_cast<uint16_t>(code.code.size());
  PutU1(&code.code, kDup);
  PutU1(&code.code, kInvokestatic);
  PutU2(&code.code, AddMethodref(kHooksClass, kExitThrown, kExitThrownDescriptor));
  PutU1(&code.code, kAthrow);

  int ret_slots = ret == 'V' ? 0 : Slots(ret);
  code.max_stack = static_cast<uint16_t>(std::max({4, slot, 2 * ret_slots}));
  code.max_locals = static_cast<uint16_t>(slot);
  code.handlers.push_back({start, end, handler, 0});
  if (major_ >= 50) {
    // One frame, at the handler: no locals needed, the throwable on the stack.
    Attribute frames;
    frames.name_index = AddUtf8("StackMapTable");
    PutU2(&frames.data, 1);
    PutU1(&frames.data, 255);  // full_frame
    PutU2(&frames.data, handler);
    PutU2(&frames.data, 0);
    PutU2(&frames.data, 1);
    PutU1(&frames.data, 7);  // Object_variable_info
    PutU2(&frames.data, AddClass("java/lang/Throwable"));
    code.attributes.push_back(frames);
  }

  if (pool_full_) {
    *error = "the constant pool has no room for the hooks";
    return false;
  }
  Method wrapper = original;
  wrapper.attributes.erase(wrapper.attributes.begin() + code_index);
  Attribute code_attribute;
  code_attribute.name_index = original.attributes[code_index].name_index;
  code_attribute.data = EncodeCode(code);
  wrapper.attributes.push_back(code_attribute);
  methods_[method_index] = wrapper;
  methods_.push_back(body);
  return true;
}

bool ClassFile::ShiftStackMapTable(std::string* data, uint32_t shift, std::string* error) const {
  Reader in(reinterpret_cast<const uint8_t*>(data->data()), data->size());
  std::string out;
  uint16_t count = in.U2();
  PutU2(&out, count);
  for (uint16_t i = 0; i < count && in.ok(); ++i) {
    uint8_t tag = in.U1();
    // The first frame's offset is absolute; later ones are relative.
    uint32_t add = i == 0 ? shift : 0;
    auto put_delta = [&](uint32_t delta) {
      if (delta > 0xffff) return false;
      PutU2(&out, static_cast<uint16_t>(delta));
      return true;
    };
    bool ok = true;
    if (tag <= 63) {
      uint32_t delta = tag + add;
      if (delta <= 63) {
        PutU1(&out, static_cast<uint8_t>(delta));
      } else {
        PutU1(&out, 251);  // same_frame_extended
        ok = put_delta(delta);
      }
    } else if (tag <= 127) {
      uint32_t delta = tag - 64 + add;
      if (delta <= 63) {
        PutU1(&out, static_cast<uint8_t>(64 + delta));
      } else {
        PutU1(&out, 247);  // same_locals_1_stack_item_frame_extended
        ok = put_delta(delta);
      }
      ok = ok && CopyTypeInfo(in, shift, &out);
    } else if (tag == 247) {
      PutU1(&out, tag);
      ok = put_delta(in.U2() + add) && CopyTypeInfo(in, shift, &out);
    } else if (tag >= 248 && tag <= 251) {
      PutU1(&out, tag);
      ok = put_delta(in.U2() + add);
    } else if (tag >= 252 && tag <= 254) {
      PutU1(&out, tag);
      ok = put_delta(in.U2() + add);
      for (int k = 0; k < tag - 251 && ok; ++k) ok = CopyTypeInfo(in, shift, &out);
    } else if (tag == 255) {
      PutU1(&out, tag);
      ok = put_delta(in.U2() + add);
      for (int part = 0; part < 2 && ok; ++part) {
        uint16_t n = in.U2();
        PutU2(&out, n);
        for (uint16_t k = 0; k < n && ok; ++k) ok = CopyTypeInfo(in, shift, &out);
      }
    } else {
      ok = false;
    }
    if (!ok) {
      *error = "cannot shift stack map frame " + std::to_string(i);
      return false;
    }
  }
  if (!in.ok() || !in.at_end()) {
    *error = "malformed StackMapTable";
    return false;
  }
  *data = std::move(out);
  return true;
}

bool ClassFile::InsertPrologue(int method_index, int hook_id, std::string* error) {
  Method& method = methods_[method_index];
  MethodFacts facts = Facts(method_index);
  MethodType type;
  if (!ParseMethodDescriptor(facts.descriptor, &type)) {
    *error = "malformed descriptor " + facts.descriptor;
    return false;
  }
  int code_index = FindAttribute(method.attributes, "Code");
  if (code_index < 0 || facts.name == "<clinit>") {
    *error = "no code to instrument in " + facts.name + facts.descriptor;
    return false;
  }
  Code code;
  if (!DecodeCode(method.attributes[code_index], &code)) {
    *error = "malformed Code attribute in " + facts.name + facts.descriptor;
    return false;
  }
  bool is_static = (method.access & kAccStatic) != 0;
  std::string prologue;
  // In a constructor `this` is not initialised yet: it cannot be passed.
  EmitArgumentHooks(type, is_static, /*pass_receiver=*/!is_static && facts.name != "<init>",
                    hook_id, kEnterJvmti, &prologue);
  // A multiple of four keeps tableswitch/lookupswitch padding valid.
  while (prologue.size() % 4 != 0) PutU1(&prologue, kNop);
  const uint32_t shift = static_cast<uint32_t>(prologue.size());
  if (code.code.size() + shift > 65535) {
    *error = facts.name + facts.descriptor + " is too large to instrument";
    return false;
  }
  if (pool_full_) {
    *error = "the constant pool has no room for the hooks";
    return false;
  }
  code.code = prologue + code.code;
  code.max_stack = std::max<uint16_t>(code.max_stack, 2);
  for (Code::Handler& h : code.handlers) {
    h.start = static_cast<uint16_t>(h.start + shift);
    h.end = static_cast<uint16_t>(h.end + shift);
    h.handler = static_cast<uint16_t>(h.handler + shift);
  }
  std::vector<Attribute> kept;
  for (Attribute& a : code.attributes) {
    const std::string& name = Utf8(a.name_index);
    if (name == "RuntimeVisibleTypeAnnotations" || name == "RuntimeInvisibleTypeAnnotations") {
      continue;  // Offsets inside; not visible to reflection, so dropped.
    }
    if (name == "StackMapTable") {
      if (!ShiftStackMapTable(&a.data, shift, error)) return false;
    } else if (name == "LineNumberTable" || name == "LocalVariableTable" ||
               name == "LocalVariableTypeTable") {
      // Entries start with start_pc; entry sizes are 4 and 10 bytes.
      size_t entry = name == "LineNumberTable" ? 4 : 10;
      if (a.data.size() < 2 || (a.data.size() - 2) % entry != 0) {
        *error = "malformed " + name;
        return false;
      }
      for (size_t p = 2; p < a.data.size(); p += entry) {
        uint32_t pc = (static_cast<uint8_t>(a.data[p]) << 8 | static_cast<uint8_t>(a.data[p + 1])) +
                      shift;
        a.data[p] = static_cast<char>(pc >> 8);
        a.data[p + 1] = static_cast<char>(pc & 0xff);
      }
    }
    kept.push_back(std::move(a));
  }
  code.attributes = std::move(kept);
  method.attributes[code_index].data = EncodeCode(code);
  return true;
}

bool ClassFile::RedirectFieldReads(const std::function<int(const FieldRead&)>& hook_id,
                                   int* rewritten, std::string* error) {
  *rewritten = 0;
  // Per Fieldref index: the accessor's Methodref, or 0 when it stays.
  std::map<uint16_t, uint16_t> accessors;
  std::vector<Method> added;
  std::vector<std::pair<int, Code>> changed;
  for (size_t m = 0; m < methods_.size(); ++m) {
    int code_index = FindAttribute(methods_[m].attributes, "Code");
    if (code_index < 0) continue;
    Code code;
    if (!DecodeCode(methods_[m].attributes[code_index], &code)) {
      *error = "malformed Code of " + Utf8(methods_[m].name_index);
      return false;
    }
    bool touched = false;
    for (size_t pc = 0; pc < code.code.size();) {
      size_t length = InstructionLength(code.code, pc);
      if (length == 0) {
        *error = "malformed instruction at " + std::to_string(pc) + " in " +
                 Utf8(methods_[m].name_index);
        return false;
      }
      auto op = static_cast<uint8_t>(code.code[pc]);
      if (op == kGetfield || op == kGetstatic) {
        auto ref = static_cast<uint16_t>(static_cast<uint8_t>(code.code[pc + 1]) << 8 |
                                         static_cast<uint8_t>(code.code[pc + 2]));
        auto accessor = accessors.find(ref);
        if (accessor == accessors.end()) {
          uint16_t methodref = 0;
          auto field = fieldrefs_.find(ref);
          auto owner = field == fieldrefs_.end() ? class_names_.end()
                                                 : class_names_.find(field->second.first);
          auto type = field == fieldrefs_.end() ? name_and_types_.end()
                                                : name_and_types_.find(field->second.second);
          if (owner == class_names_.end() || type == name_and_types_.end()) {
            *error = "a field instruction names no Fieldref";
            return false;
          }
          FieldRead read{Utf8(owner->second), Utf8(type->second.first),
                         Utf8(type->second.second), op == kGetstatic};
          int id = hook_id(read);
          if (id >= 0) {
            if (major_ < 49 || (is_interface() && major_ < 52)) {
              *error = "class file version " + std::to_string(major_) + " is too old to route " +
                       read.owner + "." + read.name + " through the probe";
              return false;
            }
            // aload_0 | aconst_null; ldc_w owner; ldc_w id; invokestatic
            // readDenied; [aload_0;] the original instruction; return.
            std::string name = "tracespec$read$" + std::to_string(added.size());
            std::string descriptor = (read.is_static ? "()" : "(L" + read.owner + ";)") +
                                     read.descriptor;
            Code body;
            PutU1(&body.code, read.is_static ? kAconstNull : kAload0);
            PutU1(&body.code, kLdcW);
            PutU2(&body.code, field->second.first);
            PutU1(&body.code, kLdcW);
            PutU2(&body.code, AddInteger(id));
            PutU1(&body.code, kInvokestatic);
            PutU2(&body.code, AddMethodref(kHooksClass, kReadDenied, kReadDeniedDescriptor));
            if (!read.is_static) PutU1(&body.code, kAload0);
            PutU1(&body.code, op);
            PutU2(&body.code, ref);
            PutU1(&body.code, ReturnOpcode(KindOf(read.descriptor)));
            body.max_stack = 3;
            body.max_locals = read.is_static ? 0 : 1;
            Method method;
            // Private where the class file allows it; a Java 8 interface
            // has only public static methods.
            method.access = static_cast<uint16_t>(
                kAccStatic | kAccSynthetic |
                (is_interface() && major_ < 53 ? kAccPublic : kAccPrivate));
            method.name_index = AddUtf8(name);
            method.descriptor_index = AddUtf8(descriptor);
            Attribute attribute;
            attribute.name_index = AddUtf8("Code");
            attribute.data = EncodeCode(body);
            method.attributes.push_back(attribute);
            added.push_back(method);
            methodref = AddMethodref(name_, name, descriptor, is_interface());
          }
          accessor = accessors.emplace(ref, methodref).first;
        }
        if (accessor->second != 0) {
          code.code[pc] = static_cast<char>(kInvokestatic);
          code.code[pc + 1] = static_cast<char>(accessor->second >> 8);
          code.code[pc + 2] = static_cast<char>(accessor->second & 0xff);
          touched = true;
          ++*rewritten;
        }
      }
      pc += length;
    }
    if (touched) changed.emplace_back(static_cast<int>(m), std::move(code));
  }
  if (pool_full_) {
    *error = "the constant pool has no room for the field accessors";
    return false;
  }
  for (auto& [m, code] : changed) {
    Method& method = methods_[static_cast<size_t>(m)];
    method.attributes[static_cast<size_t>(FindAttribute(method.attributes, "Code"))].data =
        EncodeCode(code);
  }
  for (Method& method : added) methods_.push_back(std::move(method));
  return true;
}

namespace {

uint64_t BigEndian(const std::string& bytes, size_t offset, int width) {
  uint64_t v = 0;
  for (int k = 0; k < width; ++k) v = (v << 8) | static_cast<uint8_t>(bytes[offset + k]);
  return v;
}

}  // namespace

std::vector<PoolConstant> ClassFile::LoadableConstants() const {
  std::vector<PoolConstant> out;
  for (const auto& [index, offset] : constant_offsets_) {
    PoolConstant c;
    c.index = index;
    switch (pool_tags_[index]) {
      case kTagString: {
        c.kind = 'S';
        auto text = utf8_.find(static_cast<uint16_t>(BigEndian(pool_bytes_, offset, 2)));
        if (text == utf8_.end()) continue;  // a malformed pool: the JVM will say
        c.text = text->second;
        break;
      }
      case kTagInteger:
        c.kind = 'I';
        c.value = static_cast<int32_t>(static_cast<uint32_t>(BigEndian(pool_bytes_, offset, 4)));
        break;
      default:
        c.kind = 'J';
        c.value = static_cast<int64_t>(BigEndian(pool_bytes_, offset, 8));
        break;
    }
    out.push_back(std::move(c));
  }
  return out;
}

bool ClassFile::ReplaceConstant(const PoolConstant& replacement) {
  auto it = constant_offsets_.find(replacement.index);
  if (it == constant_offsets_.end()) return false;
  const uint8_t tag = pool_tags_[replacement.index];
  const char kind = tag == kTagString ? 'S' : tag == kTagInteger ? 'I' : 'J';
  if (kind != replacement.kind) return false;
  std::string bytes;
  if (kind == 'S') {
    if (replacement.text.size() > 0xffff) return false;
    uint16_t text = AddUtf8(replacement.text);
    if (pool_full_) return false;
    PutU2(&bytes, text);
  } else if (kind == 'I') {
    PutU4(&bytes, static_cast<uint32_t>(static_cast<int32_t>(replacement.value)));
  } else {
    PutU4(&bytes, static_cast<uint32_t>(static_cast<uint64_t>(replacement.value) >> 32));
    PutU4(&bytes, static_cast<uint32_t>(replacement.value));
  }
  pool_bytes_.replace(it->second, bytes.size(), bytes);
  return true;
}

bool ClassFile::IsConcatBootstrap(uint16_t method_handle) const {
  auto handle = method_handles_.find(method_handle);
  if (handle == method_handles_.end()) return false;
  auto method = methodrefs_.find(handle->second);
  if (method == methodrefs_.end()) return false;
  auto owner = class_names_.find(method->second.first);
  auto name_and_type = name_and_types_.find(method->second.second);
  return owner != class_names_.end() && name_and_type != name_and_types_.end() &&
         Utf8(owner->second) == "java/lang/invoke/StringConcatFactory" &&
         Utf8(name_and_type->second.first) == "makeConcatWithConstants";
}

std::vector<size_t> ClassFile::RecipeArgumentOffsets() const {
  std::vector<size_t> out;
  int attribute = FindAttribute(attributes_, "BootstrapMethods");
  if (attribute < 0) return out;
  const std::string& data = attributes_[static_cast<size_t>(attribute)].data;
  Reader in(reinterpret_cast<const uint8_t*>(data.data()), data.size());
  uint16_t count = in.U2();
  for (uint16_t i = 0; i < count && in.ok(); ++i) {
    uint16_t method = in.U2();
    uint16_t arguments = in.U2();
    if (arguments > 0 && IsConcatBootstrap(method)) {
      size_t offset = in.pos();
      uint16_t recipe = in.U2();
      if (in.ok() && recipe < pool_tags_.size() && pool_tags_[recipe] == kTagString) {
        out.push_back(offset);
      }
      in.Skip(2 * (size_t{arguments} - 1));
    } else {
      in.Skip(2 * size_t{arguments});
    }
  }
  if (!in.ok()) return {};  // a malformed attribute: the JVM will say
  return out;
}

std::vector<PoolConstant> ClassFile::ConcatRecipes() const {
  std::vector<PoolConstant> out;
  int attribute = FindAttribute(attributes_, "BootstrapMethods");
  std::set<uint16_t> seen;
  for (size_t offset : RecipeArgumentOffsets()) {
    auto index = static_cast<uint16_t>(
        BigEndian(attributes_[static_cast<size_t>(attribute)].data, offset, 2));
    if (!seen.insert(index).second) continue;
    auto text = utf8_.find(
        static_cast<uint16_t>(BigEndian(pool_bytes_, constant_offsets_.at(index), 2)));
    if (text == utf8_.end()) continue;  // a malformed pool: the JVM will say
    PoolConstant recipe;
    recipe.index = index;
    recipe.kind = 'S';
    recipe.text = text->second;
    out.push_back(std::move(recipe));
  }
  return out;
}

bool ClassFile::ReplaceConcatRecipe(const PoolConstant& replacement) {
  if (replacement.kind != 'S' || replacement.text.size() > 0xffff) return false;
  std::vector<size_t> offsets;
  int attribute = FindAttribute(attributes_, "BootstrapMethods");
  for (size_t offset : RecipeArgumentOffsets()) {
    if (BigEndian(attributes_[static_cast<size_t>(attribute)].data, offset, 2) ==
        replacement.index) {
      offsets.push_back(offset);
    }
  }
  if (offsets.empty()) return false;
  // A String entry of its own, so that an ldc of the old one (or another
  // use of its Utf8 entry) keeps the old text.
  std::string bytes;
  PutU1(&bytes, kTagString);
  PutU2(&bytes, AddUtf8(replacement.text));
  uint16_t string = pool_full_ ? 0 : AddEntry("S" + replacement.text, bytes);
  if (pool_full_) return false;
  std::string& data = attributes_[static_cast<size_t>(attribute)].data;
  for (size_t offset : offsets) {
    data[offset] = static_cast<char>(string >> 8);
    data[offset + 1] = static_cast<char>(string & 0xff);
  }
  return true;
}

std::vector<int16_t> ClassFile::ShortImmediates() const {
  std::vector<int16_t> out;
  for (const Method& method : methods_) {
    int code_index = FindAttribute(method.attributes, "Code");
    Code code;
    if (code_index < 0 || !DecodeCode(method.attributes[code_index], &code)) continue;
    for (size_t pc = 0; pc < code.code.size();) {
      size_t length = InstructionLength(code.code, pc);
      if (length == 0) break;
      if (static_cast<uint8_t>(code.code[pc]) == kSipush) {
        out.push_back(static_cast<int16_t>(BigEndian(code.code, pc + 1, 2)));
      }
      pc += length;
    }
  }
  return out;
}

int ClassFile::ReplaceShortImmediates(
    const std::function<std::optional<int16_t>(int16_t)>& replace) {
  int replaced = 0;
  std::vector<std::pair<size_t, Code>> changed;
  for (size_t m = 0; m < methods_.size(); ++m) {
    int code_index = FindAttribute(methods_[m].attributes, "Code");
    if (code_index < 0) continue;
    Code code;
    if (!DecodeCode(methods_[m].attributes[code_index], &code)) return -1;
    bool touched = false;
    for (size_t pc = 0; pc < code.code.size();) {
      size_t length = InstructionLength(code.code, pc);
      if (length == 0) return -1;
      if (static_cast<uint8_t>(code.code[pc]) == kSipush) {
        std::optional<int16_t> value =
            replace(static_cast<int16_t>(BigEndian(code.code, pc + 1, 2)));
        if (value.has_value()) {
          code.code[pc + 1] = static_cast<char>(static_cast<uint16_t>(*value) >> 8);
          code.code[pc + 2] = static_cast<char>(static_cast<uint16_t>(*value) & 0xff);
          touched = true;
          ++replaced;
        }
      }
      pc += length;
    }
    if (touched) changed.emplace_back(m, std::move(code));
  }
  for (auto& [m, code] : changed) {
    Method& method = methods_[m];
    method.attributes[static_cast<size_t>(FindAttribute(method.attributes, "Code"))].data =
        EncodeCode(code);
  }
  return replaced;
}

std::string ClassFile::Serialize() const {
  std::string out;
  PutU4(&out, 0xCAFEBABE);
  PutU2(&out, minor_);
  PutU2(&out, major_);
  PutU2(&out, next_index_);
  out.append(pool_bytes_);
  out.append(added_bytes_);
  out.append(middle_);
  PutU2(&out, static_cast<uint16_t>(methods_.size()));
  for (const Method& m : methods_) {
    PutU2(&out, m.access);
    PutU2(&out, m.name_index);
    PutU2(&out, m.descriptor_index);
    WriteAttributes(m.attributes, &out);
  }
  WriteAttributes(attributes_, &out);
  return out;
}

}  // namespace tracespec::probe

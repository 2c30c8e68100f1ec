// ParseClassFile: the class-file format of JVM spec §4, checked as it is read
// so that malformed input becomes an error naming the byte offset.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "common/status.h"
#include "common/utf8.h"
#include "validator/classfile/descriptors.h"
#include "validator/classfile/class_file.h"

namespace tracespec::classfile {
namespace {

// Big-endian reader over the whole file; every read checks the bounds.
class Cursor {
 public:
  Cursor(absl::string_view data, const std::string& source) : data_(data), source_(source) {}

  uint64_t offset() const { return pos_; }
  absl::Status Error(uint64_t at, absl::string_view problem) const {
    return absl::InvalidArgumentError(absl::StrCat(source_, ": byte ", at, ": ", problem));
  }
  absl::Status Need(uint64_t n, absl::string_view what) const {
    if (n > data_.size() - pos_) {
      return Error(pos_, absl::StrCat("truncated ", what, " (needs ", n, " bytes, ",
                                      data_.size() - pos_, " left)"));
    }
    return absl::OkStatus();
  }
  absl::StatusOr<uint32_t> U(int bytes, absl::string_view what) {
    TS_RETURN_IF_ERROR(Need(bytes, what));
    uint32_t v = 0;
    for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<uint8_t>(data_[pos_ + i]);
    pos_ += bytes;
    return v;
  }
  absl::StatusOr<absl::string_view> Bytes(uint64_t n, absl::string_view what) {
    TS_RETURN_IF_ERROR(Need(n, what));
    absl::string_view out = data_.substr(pos_, n);
    pos_ += n;
    return out;
  }
  bool AtEnd() const { return pos_ == data_.size(); }

 private:
  absl::string_view data_;
  const std::string& source_;
  uint64_t pos_ = 0;
};

// Modified UTF-8 (JVM spec §4.4.7) to standard UTF-8. Returns false on an
// invalid sequence.
bool DecodeModifiedUtf8(absl::string_view in, std::string* out) {
  std::u16string units;  // UTF-16 code units
  for (size_t i = 0; i < in.size();) {
    uint8_t a = static_cast<uint8_t>(in[i]);
    if (a == 0 || a >= 0xF0) return false;
    if (a < 0x80) {
      units.push_back(a);
      i += 1;
    } else if ((a & 0xE0) == 0xC0) {
      if (i + 1 >= in.size()) return false;
      uint8_t b = static_cast<uint8_t>(in[i + 1]);
      if ((b & 0xC0) != 0x80) return false;
      units.push_back(((a & 0x1F) << 6) | (b & 0x3F));
      i += 2;
    } else if ((a & 0xF0) == 0xE0) {
      if (i + 2 >= in.size()) return false;
      uint8_t b = static_cast<uint8_t>(in[i + 1]), c = static_cast<uint8_t>(in[i + 2]);
      if ((b & 0xC0) != 0x80 || (c & 0xC0) != 0x80) return false;
      units.push_back(((a & 0x0F) << 12) | ((b & 0x3F) << 6) | (c & 0x3F));
      i += 3;
    } else {
      return false;
    }
  }
  *out = Utf16ToUtf8KeepingSurrogates(units);
  return true;
}

class Reader {
 public:
  Reader(absl::string_view bytes, const std::string& source)
      : in_(bytes, source), source_(source) {}

  absl::StatusOr<ClassFile> Read();

 private:
  absl::Status ReadConstantPool();
  // Checks that `index` names a constant of one of `tags`; `at` is the byte
  // offset of the index in the file.
  absl::Status CheckIndex(uint64_t at, uint32_t index, std::initializer_list<CpTag> tags,
                          absl::string_view what) const;
  absl::StatusOr<std::string> ReadUtf8Index(absl::string_view what);
  absl::StatusOr<std::string> ReadClassIndex(absl::string_view what, bool allow_zero);
  absl::Status ReadField(Field* field);
  absl::Status ReadMethod(Method* method);
  absl::Status ReadCode(uint32_t length, Method* method);
  absl::Status CheckInstructions(const Code& code) const;
  absl::Status ReadClassAttributes();
  absl::Status SkipAttribute(uint32_t length);

  Cursor in_;
  const std::string& source_;
  std::vector<CpEntry> pool_;
  ClassFile cf_;
};

absl::Status Reader::CheckIndex(uint64_t at, uint32_t index, std::initializer_list<CpTag> tags,
                                absl::string_view what) const {
  if (index == 0 || index >= pool_.size()) {
    return in_.Error(at, absl::StrCat(what, ": constant-pool index ", index,
                                      " out of range (pool size ", pool_.size(), ")"));
  }
  CpTag tag = pool_[index].tag;
  if (std::find(tags.begin(), tags.end(), tag) == tags.end()) {
    return in_.Error(at, absl::StrCat(what, ": constant-pool entry ", index, " has tag ",
                                      static_cast<int>(tag), ", not the expected kind"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> Reader::ReadUtf8Index(absl::string_view what) {
  uint64_t at = in_.offset();
  TS_ASSIGN_OR_RETURN(uint32_t index, in_.U(2, what));
  TS_RETURN_IF_ERROR(CheckIndex(at, index, {CpTag::kUtf8}, what));
  return pool_[index].text;
}

absl::StatusOr<std::string> Reader::ReadClassIndex(absl::string_view what, bool allow_zero) {
  uint64_t at = in_.offset();
  TS_ASSIGN_OR_RETURN(uint32_t index, in_.U(2, what));
  if (index == 0 && allow_zero) return std::string();
  TS_RETURN_IF_ERROR(CheckIndex(at, index, {CpTag::kClass}, what));
  return pool_[pool_[index].index1].text;
}

absl::Status Reader::ReadConstantPool() {
  TS_ASSIGN_OR_RETURN(uint32_t count, in_.U(2, "constant_pool_count"));
  if (count == 0) return in_.Error(in_.offset() - 2, "constant_pool_count is 0");
  pool_.assign(count, CpEntry{});
  std::vector<uint64_t> offsets(count, 0);
  for (uint32_t i = 1; i < count; ++i) {
    offsets[i] = in_.offset();
    TS_ASSIGN_OR_RETURN(uint32_t tag, in_.U(1, "constant tag"));
    CpEntry& e = pool_[i];
    e.tag = static_cast<CpTag>(tag);
    switch (e.tag) {
      case CpTag::kUtf8: {
        TS_ASSIGN_OR_RETURN(uint32_t length, in_.U(2, "utf8 length"));
        uint64_t at = in_.offset();
        TS_ASSIGN_OR_RETURN(absl::string_view raw, in_.Bytes(length, "utf8 constant"));
        if (!DecodeModifiedUtf8(raw, &e.text)) {
          return in_.Error(at, absl::StrCat("constant ", i, ": invalid modified UTF-8"));
        }
        break;
      }
      case CpTag::kInteger:
      case CpTag::kFloat: {
        TS_ASSIGN_OR_RETURN(e.bits32, in_.U(4, "int/float constant"));
        break;
      }
      case CpTag::kLong:
      case CpTag::kDouble: {
        TS_ASSIGN_OR_RETURN(uint32_t hi, in_.U(4, "long/double constant"));
        TS_ASSIGN_OR_RETURN(uint32_t lo, in_.U(4, "long/double constant"));
        e.bits64 = (static_cast<uint64_t>(hi) << 32) | lo;
        if (i + 1 >= count) {
          return in_.Error(offsets[i], absl::StrCat("constant ", i,
                                                    ": long/double in the last pool slot"));
        }
        ++i;  // takes two slots; the second stays kUnused
        break;
      }
      case CpTag::kClass:
      case CpTag::kString:
      case CpTag::kMethodType:
      case CpTag::kModule:
      case CpTag::kPackage: {
        TS_ASSIGN_OR_RETURN(uint32_t index, in_.U(2, "constant index"));
        e.index1 = static_cast<uint16_t>(index);
        break;
      }
      case CpTag::kFieldref:
      case CpTag::kMethodref:
      case CpTag::kInterfaceMethodref:
      case CpTag::kNameAndType:
      case CpTag::kDynamic:
      case CpTag::kInvokeDynamic: {
        TS_ASSIGN_OR_RETURN(uint32_t a, in_.U(2, "constant index"));
        TS_ASSIGN_OR_RETURN(uint32_t b, in_.U(2, "constant index"));
        e.index1 = static_cast<uint16_t>(a);
        e.index2 = static_cast<uint16_t>(b);
        break;
      }
      case CpTag::kMethodHandle: {
        TS_ASSIGN_OR_RETURN(uint32_t kind, in_.U(1, "method handle kind"));
        TS_ASSIGN_OR_RETURN(uint32_t index, in_.U(2, "method handle reference"));
        if (kind < 1 || kind > 9) {
          return in_.Error(offsets[i], absl::StrCat("constant ", i,
                                                    ": invalid method handle kind ", kind));
        }
        e.kind = static_cast<uint8_t>(kind);
        e.index1 = static_cast<uint16_t>(index);
        break;
      }
      default:
        return in_.Error(offsets[i], absl::StrCat("constant ", i, ": unknown tag ", tag));
    }
  }
  // Cross-references, now that every entry is known.
  for (uint32_t i = 1; i < count; ++i) {
    const CpEntry& e = pool_[i];
    std::string what = absl::StrCat("constant ", i);
    uint64_t at = offsets[i];
    switch (e.tag) {
      case CpTag::kClass:
      case CpTag::kString:
      case CpTag::kMethodType:
      case CpTag::kModule:
      case CpTag::kPackage:
        TS_RETURN_IF_ERROR(CheckIndex(at, e.index1, {CpTag::kUtf8}, what));
        break;
      case CpTag::kFieldref:
      case CpTag::kMethodref:
      case CpTag::kInterfaceMethodref:
        TS_RETURN_IF_ERROR(CheckIndex(at, e.index1, {CpTag::kClass}, what));
        TS_RETURN_IF_ERROR(CheckIndex(at, e.index2, {CpTag::kNameAndType}, what));
        break;
      case CpTag::kNameAndType:
        TS_RETURN_IF_ERROR(CheckIndex(at, e.index1, {CpTag::kUtf8}, what));
        TS_RETURN_IF_ERROR(CheckIndex(at, e.index2, {CpTag::kUtf8}, what));
        break;
      case CpTag::kDynamic:
      case CpTag::kInvokeDynamic:
        TS_RETURN_IF_ERROR(CheckIndex(at, e.index2, {CpTag::kNameAndType}, what));
        break;
      case CpTag::kMethodHandle:
        TS_RETURN_IF_ERROR(CheckIndex(
            at, e.index1,
            {CpTag::kFieldref, CpTag::kMethodref, CpTag::kInterfaceMethodref}, what));
        break;
      default:
        break;
    }
  }
  for (uint32_t i = 1; i < count; ++i) {
    if (pool_[i].tag != CpTag::kClass) continue;
    const std::string& name = pool_[pool_[i].index1].text;
    if (name.empty() || (name[0] == '[' && !IsFieldDescriptor(name))) {
      return in_.Error(offsets[i], absl::StrCat("constant ", i, ": malformed class name \"",
                                                name, "\""));
    }
  }
  // Descriptors of member references, once the NameAndType entries are known
  // to be well-formed.
  for (uint32_t i = 1; i < count; ++i) {
    const CpEntry& e = pool_[i];
    if (e.tag != CpTag::kFieldref && e.tag != CpTag::kMethodref &&
        e.tag != CpTag::kInterfaceMethodref && e.tag != CpTag::kInvokeDynamic) {
      continue;
    }
    const std::string& descriptor = pool_[pool_[e.index2].index2].text;
    bool ok = e.tag == CpTag::kFieldref ? IsFieldDescriptor(descriptor)
                                        : ParseMethodDescriptor(descriptor).ok();
    if (!ok) {
      return in_.Error(offsets[i], absl::StrCat("constant ", i, ": malformed descriptor \"",
                                                descriptor, "\""));
    }
    if (e.tag != CpTag::kInvokeDynamic) {
      const std::string& class_name = pool_[pool_[e.index1].index1].text;
      if (class_name.empty()) {
        return in_.Error(offsets[i], absl::StrCat("constant ", i, ": empty class name"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status Reader::SkipAttribute(uint32_t length) {
  return in_.Bytes(length, "attribute").status();
}

absl::Status Reader::ReadField(Field* field) {
  TS_ASSIGN_OR_RETURN(uint32_t access, in_.U(2, "field access flags"));
  field->access = static_cast<uint16_t>(access);
  TS_ASSIGN_OR_RETURN(field->name, ReadUtf8Index("field name"));
  uint64_t descriptor_at = in_.offset();
  TS_ASSIGN_OR_RETURN(field->descriptor, ReadUtf8Index("field descriptor"));
  if (!IsFieldDescriptor(field->descriptor)) {
    return in_.Error(descriptor_at, absl::StrCat("field ", field->name,
                                                 ": malformed descriptor \"",
                                                 field->descriptor, "\""));
  }
  TS_ASSIGN_OR_RETURN(uint32_t attributes, in_.U(2, "field attribute count"));
  for (uint32_t a = 0; a < attributes; ++a) {
    TS_ASSIGN_OR_RETURN(std::string name, ReadUtf8Index("attribute name"));
    TS_ASSIGN_OR_RETURN(uint32_t length, in_.U(4, "attribute length"));
    if (name == "ConstantValue") {
      if (length != 2) return in_.Error(in_.offset() - 4, "ConstantValue length is not 2");
      uint64_t at = in_.offset();
      TS_ASSIGN_OR_RETURN(uint32_t index, in_.U(2, "ConstantValue index"));
      TS_RETURN_IF_ERROR(CheckIndex(at, index,
                                    {CpTag::kInteger, CpTag::kFloat, CpTag::kLong,
                                     CpTag::kDouble, CpTag::kString},
                                    "ConstantValue"));
      field->constant_value_index = static_cast<uint16_t>(index);
    } else {
      TS_RETURN_IF_ERROR(SkipAttribute(length));
    }
  }
  return absl::OkStatus();
}

absl::Status Reader::ReadMethod(Method* method) {
  TS_ASSIGN_OR_RETURN(uint32_t access, in_.U(2, "method access flags"));
  method->access = static_cast<uint16_t>(access);
  TS_ASSIGN_OR_RETURN(method->name, ReadUtf8Index("method name"));
  uint64_t descriptor_at = in_.offset();
  TS_ASSIGN_OR_RETURN(method->descriptor, ReadUtf8Index("method descriptor"));
  if (!ParseMethodDescriptor(method->descriptor).ok()) {
    return in_.Error(descriptor_at, absl::StrCat("method ", method->name,
                                                 ": malformed descriptor \"",
                                                 method->descriptor, "\""));
  }
  TS_ASSIGN_OR_RETURN(uint32_t attributes, in_.U(2, "method attribute count"));
  for (uint32_t a = 0; a < attributes; ++a) {
    TS_ASSIGN_OR_RETURN(std::string name, ReadUtf8Index("attribute name"));
    TS_ASSIGN_OR_RETURN(uint32_t length, in_.U(4, "attribute length"));
    uint64_t start = in_.offset();
    TS_RETURN_IF_ERROR(in_.Need(length, absl::StrCat(name, " attribute")));
    if (name == "Code") {
      if (method->code.has_value()) return in_.Error(start, "second Code attribute");
      TS_RETURN_IF_ERROR(ReadCode(length, method));
    } else if (name == "MethodParameters") {
      TS_ASSIGN_OR_RETURN(uint32_t n, in_.U(1, "MethodParameters count"));
      for (uint32_t p = 0; p < n; ++p) {
        uint64_t at = in_.offset();
        TS_ASSIGN_OR_RETURN(uint32_t index, in_.U(2, "parameter name"));
        TS_ASSIGN_OR_RETURN(uint32_t flags, in_.U(2, "parameter flags"));
        (void)flags;
        if (index == 0) {
          method->parameter_names.push_back(absl::StrCat("arg", p));
        } else {
          TS_RETURN_IF_ERROR(CheckIndex(at, index, {CpTag::kUtf8}, "parameter name"));
          method->parameter_names.push_back(pool_[index].text);
        }
      }
    } else {
      TS_RETURN_IF_ERROR(SkipAttribute(length));
    }
    if (in_.offset() != start + length) {
      return in_.Error(start, absl::StrCat(name, " attribute length ", length,
                                           " does not match its contents (",
                                           in_.offset() - start, " bytes)"));
    }
  }
  return absl::OkStatus();
}

absl::Status Reader::ReadCode(uint32_t length, Method* method) {
  Code code;
  TS_ASSIGN_OR_RETURN(uint32_t max_stack, in_.U(2, "max_stack"));
  TS_ASSIGN_OR_RETURN(uint32_t max_locals, in_.U(2, "max_locals"));
  code.max_stack = static_cast<uint16_t>(max_stack);
  code.max_locals = static_cast<uint16_t>(max_locals);
  uint64_t length_at = in_.offset();
  TS_ASSIGN_OR_RETURN(uint32_t code_length, in_.U(4, "code_length"));
  if (code_length == 0 || code_length >= 65536) {
    return in_.Error(length_at, absl::StrCat("code_length ", code_length,
                                             " outside 1..65535"));
  }
  code.file_offset = in_.offset();
  TS_ASSIGN_OR_RETURN(absl::string_view bytes, in_.Bytes(code_length, "code"));
  code.bytes.assign(bytes.begin(), bytes.end());
  TS_ASSIGN_OR_RETURN(code.instructions,
                      DecodeInstructions(code.bytes, code.file_offset, source_));
  TS_RETURN_IF_ERROR(CheckInstructions(code));
  TS_ASSIGN_OR_RETURN(uint32_t handlers, in_.U(2, "exception_table_length"));
  for (uint32_t h = 0; h < handlers; ++h) {
    uint64_t at = in_.offset();
    ExceptionHandler eh;
    TS_ASSIGN_OR_RETURN(eh.start_pc, in_.U(2, "exception table"));
    TS_ASSIGN_OR_RETURN(eh.end_pc, in_.U(2, "exception table"));
    TS_ASSIGN_OR_RETURN(eh.handler_pc, in_.U(2, "exception table"));
    TS_ASSIGN_OR_RETURN(eh.catch_type, ReadClassIndex("catch type", /*allow_zero=*/true));
    if (eh.start_pc >= eh.end_pc || eh.end_pc > code_length || code.IndexOfPc(eh.start_pc) < 0 ||
        (eh.end_pc < code_length && code.IndexOfPc(eh.end_pc) < 0) ||
        code.IndexOfPc(eh.handler_pc) < 0) {
      return in_.Error(at, absl::StrCat("exception table entry ", h, " [", eh.start_pc, ", ",
                                        eh.end_pc, ") -> ", eh.handler_pc,
                                        " does not fit the code"));
    }
    code.handlers.push_back(std::move(eh));
  }
  TS_ASSIGN_OR_RETURN(uint32_t attributes, in_.U(2, "code attribute count"));
  for (uint32_t a = 0; a < attributes; ++a) {
    TS_ASSIGN_OR_RETURN(std::string name, ReadUtf8Index("attribute name"));
    TS_ASSIGN_OR_RETURN(uint32_t alength, in_.U(4, "attribute length"));
    uint64_t start = in_.offset();
    TS_RETURN_IF_ERROR(in_.Need(alength, absl::StrCat(name, " attribute")));
    if (name == "LineNumberTable") {
      TS_ASSIGN_OR_RETURN(uint32_t n, in_.U(2, "line_number_table_length"));
      for (uint32_t i = 0; i < n; ++i) {
        LineNumber ln;
        TS_ASSIGN_OR_RETURN(ln.start_pc, in_.U(2, "line number entry"));
        TS_ASSIGN_OR_RETURN(ln.line, in_.U(2, "line number entry"));
        code.lines.push_back(ln);
      }
    } else if (name == "LocalVariableTable") {
      TS_ASSIGN_OR_RETURN(uint32_t n, in_.U(2, "local_variable_table_length"));
      for (uint32_t i = 0; i < n; ++i) {
        LocalVariable lv;
        TS_ASSIGN_OR_RETURN(lv.start_pc, in_.U(2, "local variable entry"));
        TS_ASSIGN_OR_RETURN(lv.length, in_.U(2, "local variable entry"));
        TS_ASSIGN_OR_RETURN(lv.name, ReadUtf8Index("local variable name"));
        TS_ASSIGN_OR_RETURN(lv.descriptor, ReadUtf8Index("local variable descriptor"));
        TS_ASSIGN_OR_RETURN(uint32_t slot, in_.U(2, "local variable slot"));
        lv.slot = static_cast<uint16_t>(slot);
        code.locals.push_back(std::move(lv));
      }
    } else {
      TS_RETURN_IF_ERROR(SkipAttribute(alength));
    }
    if (in_.offset() != start + alength) {
      return in_.Error(start, absl::StrCat(name, " attribute length ", alength,
                                           " does not match its contents"));
    }
  }
  std::stable_sort(code.lines.begin(), code.lines.end(),
                   [](const LineNumber& a, const LineNumber& b) { return a.start_pc < b.start_pc; });
  (void)length;
  method->code = std::move(code);
  return absl::OkStatus();
}

absl::Status Reader::CheckInstructions(const Code& code) const {
  for (const Instruction& ins : code.instructions) {
    uint64_t at = code.file_offset + ins.pc;
    std::string what = Mnemonic(ins.opcode);
    uint32_t index = static_cast<uint32_t>(ins.operand);
    switch (ins.opcode) {
      case kLdc:
      case kLdcW:
        TS_RETURN_IF_ERROR(CheckIndex(at, index,
                                      {CpTag::kInteger, CpTag::kFloat, CpTag::kString,
                                       CpTag::kClass, CpTag::kMethodType, CpTag::kMethodHandle,
                                       CpTag::kDynamic},
                                      what));
        break;
      case kLdc2W:
        TS_RETURN_IF_ERROR(CheckIndex(at, index, {CpTag::kLong, CpTag::kDouble}, what));
        break;
      case kGetstatic:
      case kPutstatic:
      case kGetfield:
      case kPutfield:
        TS_RETURN_IF_ERROR(CheckIndex(at, index, {CpTag::kFieldref}, what));
        break;
      case kInvokevirtual:
        TS_RETURN_IF_ERROR(CheckIndex(at, index, {CpTag::kMethodref}, what));
        break;
      case kInvokespecial:
      case kInvokestatic:
        TS_RETURN_IF_ERROR(
            CheckIndex(at, index, {CpTag::kMethodref, CpTag::kInterfaceMethodref}, what));
        break;
      case kInvokeinterface:
        TS_RETURN_IF_ERROR(CheckIndex(at, index, {CpTag::kInterfaceMethodref}, what));
        break;
      case kInvokedynamic:
        TS_RETURN_IF_ERROR(CheckIndex(at, index, {CpTag::kInvokeDynamic}, what));
        break;
      case kNew:
      case kAnewarray:
      case kCheckcast:
      case kInstanceof:
      case kMultianewarray:
        TS_RETURN_IF_ERROR(CheckIndex(at, index, {CpTag::kClass}, what));
        break;
      default:
        break;
    }
  }
  return absl::OkStatus();
}

absl::Status Reader::ReadClassAttributes() {
  TS_ASSIGN_OR_RETURN(uint32_t attributes, in_.U(2, "class attribute count"));
  for (uint32_t a = 0; a < attributes; ++a) {
    TS_ASSIGN_OR_RETURN(std::string name, ReadUtf8Index("attribute name"));
    TS_ASSIGN_OR_RETURN(uint32_t length, in_.U(4, "attribute length"));
    uint64_t start = in_.offset();
    TS_RETURN_IF_ERROR(in_.Need(length, absl::StrCat(name, " attribute")));
    if (name == "SourceFile") {
      TS_ASSIGN_OR_RETURN(cf_.source_file, ReadUtf8Index("SourceFile"));
    } else if (name == "NestHost") {
      TS_ASSIGN_OR_RETURN(cf_.nest_host, ReadClassIndex("NestHost", /*allow_zero=*/false));
    } else if (name == "NestMembers") {
      TS_ASSIGN_OR_RETURN(uint32_t n, in_.U(2, "nest member count"));
      for (uint32_t i = 0; i < n; ++i) {
        TS_ASSIGN_OR_RETURN(std::string member,
                            ReadClassIndex("nest member", /*allow_zero=*/false));
        cf_.nest_members.push_back(std::move(member));
      }
    } else if (name == "InnerClasses") {
      TS_ASSIGN_OR_RETURN(uint32_t n, in_.U(2, "inner class count"));
      for (uint32_t i = 0; i < n; ++i) {
        TS_ASSIGN_OR_RETURN(std::string inner, ReadClassIndex("inner class", /*allow_zero=*/false));
        TS_ASSIGN_OR_RETURN(std::string outer, ReadClassIndex("outer class", /*allow_zero=*/true));
        uint64_t name_at = in_.offset();
        TS_ASSIGN_OR_RETURN(uint32_t name_index, in_.U(2, "inner name"));
        std::string simple;
        if (name_index != 0) {
          TS_RETURN_IF_ERROR(CheckIndex(name_at, name_index, {CpTag::kUtf8}, "inner name"));
          simple = pool_[name_index].text;
        }
        TS_ASSIGN_OR_RETURN(uint32_t flags, in_.U(2, "inner class access flags"));
        if (inner == cf_.name) {
          cf_.nested = ClassFile::NestedEntry{static_cast<uint16_t>(flags), std::move(simple),
                                              std::move(outer)};
        }
      }
    } else if (name == "BootstrapMethods") {
      TS_ASSIGN_OR_RETURN(uint32_t n, in_.U(2, "bootstrap method count"));
      for (uint32_t i = 0; i < n; ++i) {
        BootstrapMethod bm;
        uint64_t at = in_.offset();
        TS_ASSIGN_OR_RETURN(uint32_t handle, in_.U(2, "bootstrap method"));
        TS_RETURN_IF_ERROR(CheckIndex(at, handle, {CpTag::kMethodHandle}, "bootstrap method"));
        bm.method_handle_index = static_cast<uint16_t>(handle);
        TS_ASSIGN_OR_RETURN(uint32_t nargs, in_.U(2, "bootstrap argument count"));
        for (uint32_t j = 0; j < nargs; ++j) {
          uint64_t arg_at = in_.offset();
          TS_ASSIGN_OR_RETURN(uint32_t arg, in_.U(2, "bootstrap argument"));
          if (arg == 0 || arg >= pool_.size() || pool_[arg].tag == CpTag::kUnused ||
              pool_[arg].tag == CpTag::kUtf8) {
            return in_.Error(arg_at, absl::StrCat("bootstrap argument ", arg,
                                                  " is not a loadable constant"));
          }
          bm.arguments.push_back(static_cast<uint16_t>(arg));
        }
        cf_.bootstrap_methods.push_back(std::move(bm));
      }
    } else {
      TS_RETURN_IF_ERROR(SkipAttribute(length));
    }
    if (in_.offset() != start + length) {
      return in_.Error(start, absl::StrCat(name, " attribute length ", length,
                                           " does not match its contents"));
    }
  }
  // invokedynamic and Dynamic constants must name an existing bootstrap method.
  for (size_t i = 1; i < pool_.size(); ++i) {
    if ((pool_[i].tag == CpTag::kInvokeDynamic || pool_[i].tag == CpTag::kDynamic) &&
        pool_[i].index1 >= cf_.bootstrap_methods.size()) {
      return in_.Error(in_.offset(), absl::StrCat("constant ", i, " names bootstrap method ",
                                                  pool_[i].index1, " of ",
                                                  cf_.bootstrap_methods.size()));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<ClassFile> Reader::Read() {
  cf_.source = source_;
  TS_ASSIGN_OR_RETURN(uint32_t magic, in_.U(4, "magic"));
  if (magic != 0xCAFEBABE) return in_.Error(0, "not a class file (bad magic number)");
  TS_ASSIGN_OR_RETURN(uint32_t minor, in_.U(2, "minor_version"));
  TS_ASSIGN_OR_RETURN(uint32_t major, in_.U(2, "major_version"));
  if (major < 45 || major > 69) {
    return in_.Error(6, absl::StrCat("unsupported class-file major version ", major));
  }
  cf_.minor_version = static_cast<uint16_t>(minor);
  cf_.major_version = static_cast<uint16_t>(major);
  TS_RETURN_IF_ERROR(ReadConstantPool());
  TS_ASSIGN_OR_RETURN(uint32_t access, in_.U(2, "access_flags"));
  cf_.access = static_cast<uint16_t>(access);
  TS_ASSIGN_OR_RETURN(cf_.name, ReadClassIndex("this_class", /*allow_zero=*/false));
  TS_ASSIGN_OR_RETURN(cf_.super_name, ReadClassIndex("super_class", /*allow_zero=*/true));
  if (cf_.super_name.empty() && cf_.name != "java/lang/Object") {
    return in_.Error(in_.offset() - 2, "class without a superclass");
  }
  TS_ASSIGN_OR_RETURN(uint32_t interfaces, in_.U(2, "interfaces_count"));
  for (uint32_t i = 0; i < interfaces; ++i) {
    TS_ASSIGN_OR_RETURN(std::string name, ReadClassIndex("interface", /*allow_zero=*/false));
    cf_.interfaces.push_back(std::move(name));
  }
  TS_ASSIGN_OR_RETURN(uint32_t fields, in_.U(2, "fields_count"));
  for (uint32_t i = 0; i < fields; ++i) {
    Field f;
    TS_RETURN_IF_ERROR(ReadField(&f));
    cf_.fields.push_back(std::move(f));
  }
  TS_ASSIGN_OR_RETURN(uint32_t methods, in_.U(2, "methods_count"));
  for (uint32_t i = 0; i < methods; ++i) {
    Method m;
    TS_RETURN_IF_ERROR(ReadMethod(&m));
    cf_.methods.push_back(std::move(m));
  }
  TS_RETURN_IF_ERROR(ReadClassAttributes());
  if (!in_.AtEnd()) return in_.Error(in_.offset(), "trailing bytes after the class file");
  cf_.pool = ConstantPool(std::move(pool_));
  return std::move(cf_);
}

}  // namespace

const CpEntry& ConstantPool::at(size_t index) const {
  static const CpEntry kUnusedEntry;
  return index < entries_.size() ? entries_[index] : kUnusedEntry;
}

MemberRef ConstantPool::Member(size_t index) const {
  const CpEntry& e = at(index);
  MemberRef ref;
  ref.class_name = ClassName(e.index1);
  auto [name, descriptor] = NameAndType(e.index2);
  ref.name = std::move(name);
  ref.descriptor = std::move(descriptor);
  ref.is_interface = e.tag == CpTag::kInterfaceMethodref;
  return ref;
}

std::pair<std::string, std::string> ConstantPool::NameAndType(size_t index) const {
  const CpEntry& e = at(index);
  return {Utf8(e.index1), Utf8(e.index2)};
}

int Code::IndexOfPc(uint32_t pc) const {
  auto it = std::lower_bound(instructions.begin(), instructions.end(), pc,
                             [](const Instruction& i, uint32_t p) { return i.pc < p; });
  if (it == instructions.end() || it->pc != pc) return -1;
  return static_cast<int>(it - instructions.begin());
}

uint32_t Code::LineOf(uint32_t pc) const {
  // `lines` is sorted by start_pc: the last entry starting at or before pc.
  auto it = std::upper_bound(lines.begin(), lines.end(), pc,
                             [](uint32_t p, const LineNumber& ln) { return p < ln.start_pc; });
  return it == lines.begin() ? 0 : std::prev(it)->line;
}

std::vector<uint32_t> Code::Successors(const Instruction& ins) const {
  std::vector<uint32_t> out = JumpTargets(ins);
  for (const ExceptionHandler& h : handlers) {
    if (h.start_pc <= ins.pc && ins.pc < h.end_pc) out.push_back(h.handler_pc);
  }
  return out;
}

std::map<uint32_t, uint32_t> Code::LoopRanges() const {
  std::map<uint32_t, uint32_t> out;
  for (const Instruction& ins : instructions) {
    for (uint32_t t : Successors(ins)) {
      if (t <= ins.pc) out[t] = std::max(out[t], ins.pc);
    }
  }
  return out;
}

const Method* ClassFile::FindMethod(absl::string_view name, absl::string_view descriptor) const {
  for (const Method& m : methods) {
    if (m.name == name && m.descriptor == descriptor) return &m;
  }
  return nullptr;
}

const Field* ClassFile::FindField(absl::string_view name, absl::string_view descriptor) const {
  for (const Field& f : fields) {
    if (f.name == name && f.descriptor == descriptor) return &f;
  }
  return nullptr;
}

std::vector<std::string> ClassFile::ParameterNames(const Method& method) const {
  auto md = ParseMethodDescriptor(method.descriptor);
  size_t n = md.ok() ? md->params.size() : 0;
  if (method.parameter_names.size() == n) return method.parameter_names;
  std::vector<std::string> out;
  uint32_t slot = method.is_static() ? 0 : 1;
  for (size_t i = 0; i < n; ++i) {
    std::string name = absl::StrCat("arg", i);
    if (method.code.has_value()) {
      for (const LocalVariable& lv : method.code->locals) {
        if (lv.slot == slot && lv.start_pc == 0) name = lv.name;
      }
    }
    out.push_back(std::move(name));
    slot += IsWide(md->params[i]) ? 2 : 1;
  }
  return out;
}

absl::StatusOr<ClassFile> ParseClassFile(absl::string_view bytes, const std::string& source) {
  Reader reader(bytes, source);
  return reader.Read();
}

std::string BinaryToInternal(absl::string_view binary_name) {
  return absl::StrReplaceAll(binary_name, {{".", "/"}});
}

std::string InternalToBinary(absl::string_view internal_name) {
  return absl::StrReplaceAll(internal_name, {{"/", "."}});
}

}  // namespace tracespec::classfile

// The memory model, entry states, the Execute entry point and the
// translation of models into observations; see machine.h and
// validator/README.md ("Memory model").
#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <functional>
#include <set>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/utf8.h"
#include "common/status.h"
#include "validator/symex/machine_impl.h"

namespace tracespec::symex {
namespace {

char DescriptorOfKind(ElemKind kind) {
  switch (kind) {
    case ElemKind::kBoolean: return 'Z';
    case ElemKind::kByte: return 'B';
    case ElemKind::kChar: return 'C';
    case ElemKind::kShort: return 'S';
    case ElemKind::kInt: return 'I';
    case ElemKind::kLong: return 'J';
    case ElemKind::kFloat: return 'F';
    case ElemKind::kDouble: return 'D';
    case ElemKind::kRef: return 'L';
  }
  return 'I';
}

// The enum class of an object of class `cls` (itself, or the enum whose
// constant's body it is), else nullptr.
const ClassInfo* EnumClassOf(const Program& program, const ClassInfo* cls) {
  if (cls == nullptr) return nullptr;
  for (const ClassInfo* c : program.SuperChain(cls)) {
    if (IsEnumClass(c)) return c;
  }
  return nullptr;
}

// The enums of the class path whose constants an input of `method` may
// hold (or its contract may compare its result with): those among the
// declared types of its parameters, result and receiver and,
// transitively, of the fields of the class-path types these reach (their
// subtypes included; a type of the platform is not followed, so an Object
// holding a constant is not counted). Sorted by name.
std::vector<const ClassInfo*> EnumsOfInputs(const Program& program, const MethodInfo& method) {
  std::set<std::string> seen;
  std::deque<std::string> work;
  auto reach = [&](absl::string_view descriptor) {
    size_t dims = descriptor.find_first_not_of('[');
    if (dims == absl::string_view::npos || descriptor[dims] != 'L') return;
    std::string name = classfile::DescriptorToClassName(descriptor.substr(dims));
    if (Program::IsJdkClass(name) || !seen.insert(name).second) return;
    work.push_back(name);
  };
  if (!method.is_static()) work.push_back(method.owner->name), seen.insert(method.owner->name);
  for (const std::string& d : method.signature.params) reach(d);
  reach(method.signature.ret);  // `\result == Color.RED` in its contract
  std::map<std::string, const ClassInfo*> enums;
  while (!work.empty()) {
    std::string name = work.front();
    work.pop_front();
    std::vector<const ClassInfo*> classes;
    if (const ClassInfo* cls = program.FindClass(name)) classes.push_back(cls);
    for (int id : program.ConcreteSubtypes(name)) {
      if (program.Type(id).cls != nullptr) classes.push_back(program.Type(id).cls);
    }
    for (const ClassInfo* cls : classes) {
      if (cls->origin != ClassInfo::Origin::kClassPath) continue;
      if (!seen.count(cls->name)) seen.insert(cls->name), work.push_back(cls->name);
      if (const ClassInfo* e = EnumClassOf(program, cls)) enums.emplace(e->name, e);
      for (const FieldInfo* f : program.InstanceFields(cls)) reach(f->descriptor);
      for (const FieldInfo* f : program.StaticFields(cls)) reach(f->descriptor);
    }
  }
  std::vector<const ClassInfo*> out;
  for (const auto& [name, e] : enums) out.push_back(e);
  return out;
}

}  // namespace

std::string Site::Describe() const {
  if (method == nullptr) return "<unknown site>";
  std::string where = line > 0 ? absl::StrCat(method->SourceFile(), ":", line)
                               : method->SourceFile();
  return absl::StrCat(method->DisplayName(), " (", where, ", bytecode ", pc, ": ", instruction,
                      ")");
}

const char* ObligationKindName(ObligationKind kind) {
  switch (kind) {
    case ObligationKind::kException: return "exception";
    case ObligationKind::kUnwinding: return "unwinding";
    case ObligationKind::kRecursion: return "recursion";
    case ObligationKind::kBound: return "bound";
    case ObligationKind::kUnsupported: return "unsupported";
    case ObligationKind::kInvariant: return "invariant";
  }
  return "?";
}

Machine::Impl::Impl(Machine& machine)
    : m(machine),
      ctx(machine.ctx_),
      program(machine.program_),
      ops(machine.ops_),
      options(machine.options_),
      types_init_(ctx.constant("types0", ctx.array_sort(ops.RefSort(), ops.TypeSort()))),
      lengths_init_(ctx.constant("lengths0", ctx.array_sort(ops.RefSort(), ops.IntSort()))),
      origin_init_(ctx.constant("origin0", ctx.array_sort(ops.RefSort(), ops.IntSort()))),
      hash_(ctx.function("identityHashCode", ops.RefSort(), ops.IntSort())) {}

Machine::Machine(z3::context& ctx, const Program& program, ExecOptions options)
    : ctx_(ctx), program_(program), options_(options), ops_(ctx) {
  if (options_.recursion < 0) options_.recursion = options_.unwind;
  impl_ = std::make_unique<Impl>(*this);
  sites_.push_back(Site{});  // site 0: unknown
}

Machine::~Machine() = default;

z3::expr Machine::Impl::FreshConst(const std::string& name, const z3::sort& sort) {
  return ctx.constant(absl::StrCat(name, "!", fresh_counter++).c_str(), sort);
}

ElemKind Machine::Impl::ElemOfArray(absl::string_view array_descriptor) {
  return ElemKindOf(array_descriptor.size() > 1 ? array_descriptor.substr(1) : "L");
}

z3::expr Machine::Impl::InitialField(int field_id) {
  auto it = field_init_.find(field_id);
  if (it != field_init_.end()) return it->second;
  const FieldInfo& f = program.Field(field_id);
  z3::expr array = ctx.constant(
      absl::StrCat("field0!", f.owner, ".", f.name, "!", field_id).c_str(),
      ctx.array_sort(ops.RefSort(), ops.StoredSort(f.descriptor[0])));
  field_init_.emplace(field_id, array);
  init_defaults_.emplace(Z3_get_ast_id(ctx, array),
                         ops.StoreAs(f.descriptor[0], ops.Default(KindOfDescriptor(f.descriptor[0]))));
  return array;
}

z3::expr Machine::Impl::InitialContent(ElemKind kind) {
  int key = static_cast<int>(kind);
  auto it = content_init_.find(key);
  if (it != content_init_.end()) return it->second;
  char d = DescriptorOfKind(kind);
  z3::expr array = ctx.constant(
      absl::StrCat("content0!", std::string(1, d)).c_str(),
      ctx.array_sort(ops.RefSort(), ctx.array_sort(ops.IntSort(), ops.StoredSort(d))));
  content_init_.emplace(key, array);
  init_defaults_.emplace(Z3_get_ast_id(ctx, array),
                         z3::const_array(ops.IntSort(), ops.StoreAs(d, ops.Default(KindOfDescriptor(d)))));
  return array;
}

z3::expr Machine::Impl::HavocField(int field_id) {
  return Havoc(InitialField(field_id), havoc_fields_[field_id], "havoc_field");
}

z3::expr Machine::Impl::HavocContent(ElemKind kind) {
  return Havoc(InitialContent(kind), havoc_contents_[static_cast<int>(kind)], "havoc_content");
}

z3::expr Machine::Impl::Havoc(const z3::expr& init, std::vector<z3::expr>& havocked,
                              const std::string& name) {
  z3::expr array = FreshConst(name, init.get_sort());
  havocked.push_back(array);
  havoc_defaults_.emplace(Z3_get_ast_id(ctx, array),
                          HavocDefault{init_defaults_.at(Z3_get_ast_id(ctx, init)), next_ref_});
  return array;
}

z3::expr Machine::Impl::FieldArray(const Heap& heap, int field_id) {
  auto it = heap.fields.find(field_id);
  return it != heap.fields.end() ? it->second : InitialField(field_id);
}

z3::expr Machine::Impl::ContentArray(const Heap& heap, ElemKind kind) {
  auto it = heap.contents.find(static_cast<int>(kind));
  return it != heap.contents.end() ? it->second : InitialContent(kind);
}

z3::expr Machine::Impl::Select(const z3::expr& array, const z3::expr& index) {
  std::unordered_map<unsigned, z3::expr> memo;
  int budget = 20000;
  return SelectRec(array, index, memo, budget);
}

// Read-over-write: a select is pushed through stores (a symbolic index
// becomes an if-then-else on index equality), if-then-else terms of merged
// heaps and constant arrays, so that most reads become plain values and the
// solver rarely sees array terms. Memoised per read; the budget bounds the
// work on very long histories (a plain select is kept beyond it).
z3::expr Machine::Impl::SelectRec(const z3::expr& array, const z3::expr& index,
                                  std::unordered_map<unsigned, z3::expr>& memo, int& budget) {
  unsigned id = Z3_get_ast_id(ctx, array);
  auto cached = memo.find(id);
  if (cached != memo.end()) return cached->second;
  z3::expr out = z3::select(array, index);
  if (--budget > 0 && array.is_app()) {
    Z3_decl_kind kind = array.decl().decl_kind();
    if (kind == Z3_OP_STORE) {
      z3::expr stored_index = array.arg(1);
      if (JavaOps::Same(stored_index, index)) {
        out = array.arg(2);
      } else {
        auto a = JavaOps::BvValue(stored_index), b = JavaOps::BvValue(index);
        z3::expr rest = SelectRec(array.arg(0), index, memo, budget);
        out = a && b ? rest : ops.Ite(ops.Eq(stored_index, index), array.arg(2), rest);
      }
    } else if (kind == Z3_OP_ITE) {
      out = ops.Ite(array.arg(0), SelectRec(array.arg(1), index, memo, budget),
                    SelectRec(array.arg(2), index, memo, budget));
    } else if (kind == Z3_OP_CONST_ARRAY) {
      out = array.arg(0);
    } else if (auto b = JavaOps::BvValue(index);
               b && *b >= kAllocBase && allocations_.count(static_cast<uint32_t>(*b))) {
      // Objects allocated during execution start with default contents.
      auto base = init_defaults_.find(id);
      auto havoc = havoc_defaults_.find(id);
      if (base != init_defaults_.end()) {
        out = base->second;
      } else if (havoc != havoc_defaults_.end() && *b >= havoc->second.from) {
        out = havoc->second.value;
      }
    }
  }
  memo.emplace(id, out);
  return out;
}

z3::expr Machine::Impl::Store(const z3::expr& array, const z3::expr& index,
                              const z3::expr& value) {
  if (array.is_app() && array.decl().decl_kind() == Z3_OP_STORE &&
      JavaOps::Same(array.arg(1), index)) {
    return z3::store(array.arg(0), index, value);
  }
  return z3::store(array, index, value);
}

z3::expr Machine::Impl::TypeIn(const z3::expr& type, const std::vector<int>& ids) const {
  if (ids.empty()) return ops.False();
  if (auto v = JavaOps::BvValue(type)) {
    return ctx.bool_val(std::find(ids.begin(), ids.end(), static_cast<int>(*v)) != ids.end());
  }
  std::vector<int> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  if (sorted.front() == 1 && sorted.back() == program.type_count() &&
      static_cast<int>(sorted.size()) == program.type_count()) {
    return ops.True();
  }
  z3::expr out = ops.False();
  size_t i = 0;
  while (i < sorted.size()) {
    size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) ++j;
    z3::expr part = i == j ? ops.Eq(type, ops.TypeId(sorted[i]))
                           : (z3::uge(type, ops.TypeId(sorted[i])) &&
                              z3::ule(type, ops.TypeId(sorted[j])));
    out = ops.Or(out, part);
    i = j + 1;
  }
  return out;
}

z3::expr Machine::Impl::IsInputRef(const z3::expr& ref) const {
  return ops.And(ops.Ult(ops.Null(), ref), ops.Ult(ref, ops.Ref(kAllocBase)));
}

void Machine::Impl::AddInputTyping(const z3::expr& ref, absl::string_view descriptor) {
  if (JavaOps::BvValue(ref)) return;  // null, preexisting or allocated: typed already
  std::string type = classfile::DescriptorToClassName(descriptor);
  std::vector<int> ids = program.ConcreteSubtypes(type);
  z3::expr t = z3::select(types_init_, ref);
  z3::expr ok = ops.And(ops.And(IsInputRef(ref), TypeIn(t, ids)), EnumConstantsOnly(ref, t, ids));
  std::vector<int> arrays;
  for (int id : ids) {
    if (program.Type(id).is_array) arrays.push_back(id);
  }
  if (!arrays.empty()) {
    z3::expr len = z3::select(lengths_init_, ref);
    ok = ops.And(ok, ops.Implies(TypeIn(t, arrays), ops.Le(ops.Int(0), len)));
    AddLengthBound(ref, /*string_chars=*/false,
                   ops.And(ops.Not(ops.Eq(ref, ops.Null())), TypeIn(t, arrays)));
  }
  m.axioms_.push_back(ops.Or(ops.Eq(ref, ops.Null()), ok));
  AddStringTyping(ref, t);
}

z3::expr Machine::Impl::StringChars(const z3::expr& ref) const {
  if (auto r = JavaOps::BvValue(ref)) return ops.Ref(static_cast<uint32_t>(*r) | kStringCharsBit);
  return ref | ops.Ref(kStringCharsBit);
}

void Machine::Impl::AddStringTyping(const z3::expr& ref, const z3::expr& type) {
  int string_type = program.TypeIdOf("java/lang/String");
  const FieldInfo* value = program.ResolveField("java/lang/String", "value", "[C");
  if (string_type == 0 || value == nullptr) return;
  z3::expr is_string = ops.Eq(type, ops.TypeId(string_type));
  if (JavaOps::IsFalse(is_string)) return;
  z3::expr chars = StringChars(ref);
  z3::expr len = z3::select(lengths_init_, chars);
  z3::expr typed = ops.And(
      ops.And(z3::select(InitialField(value->id), ref) == chars,
              z3::select(types_init_, chars) == ops.TypeId(program.TypeIdOf("[C"))),
      ops.Le(ops.Int(0), len));
  z3::expr a_string = ops.And(ops.Not(ops.Eq(ref, ops.Null())), is_string);
  m.axioms_.push_back(ops.Implies(a_string, typed));
  AddLengthBound(chars, /*string_chars=*/true, a_string);
}

void Machine::Impl::AddLengthBound(const z3::expr& array, bool string_chars,
                                   const z3::expr& condition) {
  z3::expr len = z3::select(lengths_init_, array);
  z3::expr limit = ops.Int(options.max_array);
  m.length_bound_axioms_.insert(m.axioms_.size());
  m.axioms_.push_back(ops.Implies(condition, ops.Le(len, limit)));
  bounded_lengths.insert_or_assign(
      array.id(), BoundedLength{string_chars, ops.And(condition, ops.Lt(limit, len))});
}

namespace {

// The values a 32-bit term made of numerals, if-then-else and additions can
// take (at most 64 of them), as Java ints.
std::optional<std::set<int32_t>> IntValues(const z3::expr& e, int depth = 0) {
  if (auto v = JavaOps::BvValue(e)) return std::set<int32_t>{static_cast<int32_t>(*v)};
  if (depth > 32 || !e.is_app()) return std::nullopt;
  Z3_decl_kind kind = e.decl().decl_kind();
  if (kind == Z3_OP_ITE || (kind == Z3_OP_BADD && e.num_args() == 2)) {
    auto a = IntValues(e.arg(kind == Z3_OP_ITE ? 1 : 0), depth + 1);
    auto b = IntValues(e.arg(kind == Z3_OP_ITE ? 2 : 1), depth + 1);
    if (!a || !b) return std::nullopt;
    std::set<int32_t> out;
    for (int32_t x : *a) {
      for (int32_t y : *b) {
        out.insert(kind == Z3_OP_ITE ? x
                                     : static_cast<int32_t>(static_cast<uint32_t>(x) +
                                                            static_cast<uint32_t>(y)));
      }
    }
    if (kind == Z3_OP_ITE) out.insert(b->begin(), b->end());
    if (out.size() > 64) return std::nullopt;
    return out;
  }
  return std::nullopt;
}

}  // namespace

z3::expr Machine::Impl::ResolveStringChars(const z3::expr& chars) {
  if (chars.is_app() && chars.decl().decl_kind() == Z3_OP_ITE) {
    return ops.Ite(chars.arg(0), ResolveStringChars(chars.arg(1)),
                   ResolveStringChars(chars.arg(2)));
  }
  const FieldInfo* value = program.ResolveField("java/lang/String", "value", "[C");
  if (value != nullptr && chars.is_app() && chars.decl().decl_kind() == Z3_OP_SELECT &&
      JavaOps::Same(chars.arg(0), InitialField(value->id))) {
    // An unwritten slot: of a preexisting string (an allocated one's are
    // written or folded to their default by Select).
    return StringChars(chars.arg(1));
  }
  return chars;
}

z3::expr Machine::Impl::CharsNull(const z3::expr& chars) const {
  if (chars.is_app() && chars.decl().decl_kind() == Z3_OP_ITE) {
    return ops.Ite(chars.arg(0), CharsNull(chars.arg(1)), CharsNull(chars.arg(2)));
  }
  if (chars.is_app() && chars.decl().decl_kind() == Z3_OP_BOR && chars.num_args() == 2 &&
      JavaOps::Same(chars.arg(1), ops.Ref(kStringCharsBit))) {
    return ops.False();
  }
  return ops.Eq(chars, ops.Null());
}

std::optional<int> Machine::Impl::MaxLength(const z3::expr& ref) {
  if (ref.is_app() && ref.decl().decl_kind() == Z3_OP_ITE) {
    std::optional<int> a = MaxLength(ref.arg(1)), b = MaxLength(ref.arg(2));
    if (!a || !b) return std::nullopt;
    return std::max(*a, *b);
  }
  if (auto values = IntValues(m.ArrayLength(ref))) return *values->rbegin();
  auto r = JavaOps::BvValue(ref);
  if (!r) {
    if (ref.is_app() && ref.decl().decl_kind() == Z3_OP_BOR && ref.num_args() == 2 &&
        JavaOps::Same(ref.arg(1), ops.Ref(kStringCharsBit))) {
      return options.max_array;
    }
    return std::nullopt;
  }
  if (*r == 0) return 0;  // null: no characters (a read of them throws)
  auto it = max_lengths.find(static_cast<uint32_t>(*r));
  if (it != max_lengths.end()) return it->second;
  if (*r >= kStringCharsBit) return options.max_array;  // an input string's
  return std::nullopt;
}

void Machine::Impl::AddElementTyping(const z3::expr& array_ref, const z3::expr& value) {
  if (JavaOps::BvValue(value)) return;
  z3::expr array_type = m.TypeOf(array_ref);
  z3::expr all = ops.True();
  z3::expr bounded = ops.False();  // the value is an array the bound L applies to
  for (int id = 1; id <= program.type_count(); ++id) {
    const TypeInfo& t = program.Type(id);
    if (!t.is_array || t.elem != ElemKind::kRef) continue;
    std::vector<int> ids = program.ConcreteSubtypes(classfile::DescriptorToClassName(t.component));
    z3::expr et = z3::select(types_init_, value);
    z3::expr ok = ops.And(ops.And(IsInputRef(value), TypeIn(et, ids)),
                          EnumConstantsOnly(value, et, ids));
    std::vector<int> arrays;
    for (int sub : ids) {
      if (program.Type(sub).is_array) arrays.push_back(sub);
    }
    if (!arrays.empty()) {
      z3::expr len = z3::select(lengths_init_, value);
      ok = ops.And(ok, ops.Implies(TypeIn(et, arrays), ops.Le(ops.Int(0), len)));
      bounded = ops.Or(bounded, ops.And(ops.And(ops.Eq(array_type, ops.TypeId(id)),
                                                ops.Not(ops.Eq(value, ops.Null()))),
                                        TypeIn(et, arrays)));
    }
    all = ops.And(all, ops.Implies(ops.Eq(array_type, ops.TypeId(id)),
                                   ops.Or(ops.Eq(value, ops.Null()), ok)));
  }
  m.axioms_.push_back(all);
  if (!JavaOps::IsFalse(bounded)) AddLengthBound(value, /*string_chars=*/false, bounded);
  AddStringTyping(value, z3::select(types_init_, value));
}

z3::expr Machine::Impl::Allocate(int type_id, std::optional<z3::expr> length, int origin_site) {
  const TypeInfo& t = program.Type(type_id);
  if (enum_constants_preexist && !t.is_array && EnumClassOf(program, t.cls) != nullptr) {
    z3::expr r = Preexisting(type_id);  // an enum constant (see enum_constants)
    for (const FieldInfo* f : program.InstanceFields(t.cls)) {
      char d = f->descriptor[0];
      m.axioms_.push_back(z3::select(InitialField(f->id), r) ==
                          ops.StoreAs(d, ops.Default(KindOfDescriptor(d))));
    }
    return r;
  }
  uint32_t ref = next_ref_++;
  z3::expr r = ops.Ref(ref);
  Allocation a;
  a.type_id = type_id;
  a.length = length;
  allocations_.emplace(ref, a);
  m.axioms_.push_back(z3::select(types_init_, r) == ops.TypeId(type_id));
  if (t.is_array) {
    m.axioms_.push_back(z3::select(lengths_init_, r) == *length);
    char d = t.component[0] == '[' ? 'L' : t.component[0];
    ElemKind kind = ElemKindOf(t.component);
    z3::expr row = z3::const_array(ops.IntSort(), ops.StoreAs(d, ops.Default(KindOfDescriptor(d))));
    m.axioms_.push_back(z3::select(InitialContent(kind), r) == row);
    for (const z3::expr& havocked : havoc_contents_[static_cast<int>(kind)]) {
      m.axioms_.push_back(z3::select(havocked, r) == row);
    }
  } else if (t.cls != nullptr) {
    for (const FieldInfo* f : program.InstanceFields(t.cls)) {
      char d = f->descriptor[0];
      z3::expr def = ops.StoreAs(d, ops.Default(KindOfDescriptor(d)));
      m.axioms_.push_back(z3::select(InitialField(f->id), r) == def);
      for (const z3::expr& havocked : havoc_fields_[f->id]) {
        m.axioms_.push_back(z3::select(havocked, r) == def);
      }
    }
    if (origin_site > 0) {
      m.axioms_.push_back(z3::select(origin_init_, r) == ops.Int(origin_site));
    }
  }
  return r;
}

z3::expr Machine::Impl::EnumConstantsOnly(const z3::expr& ref, const z3::expr& type,
                                          const std::vector<int>& ids) const {
  z3::expr out = ops.True();
  for (const auto& [name, constants] : enum_constants) {
    std::vector<int> types;
    for (int id : program.ConcreteSubtypes(name)) {
      if (std::find(ids.begin(), ids.end(), id) != ids.end()) types.push_back(id);
    }
    if (types.empty()) continue;
    z3::expr any = ops.False();
    for (const EnumConstant& c : constants) any = ops.Or(any, ops.Eq(ref, ops.Ref(c.ref)));
    out = ops.And(out, ops.Implies(TypeIn(type, types), any));
  }
  return out;
}

std::string Machine::Impl::EnumConstantName(uint32_t ref) const {
  for (const auto& [name, constants] : enum_constants) {
    for (const EnumConstant& c : constants) {
      if (c.ref == ref) return absl::StrCat(classfile::InternalToBinary(name), ".", c.name);
    }
  }
  return "";
}

z3::expr Machine::Impl::Preexisting(int type_id) {
  uint32_t ref = next_preexisting_--;
  preexisting_[ref] = type_id;
  z3::expr r = ops.Ref(ref);
  m.axioms_.push_back(z3::select(types_init_, r) == ops.TypeId(type_id));
  return r;
}

z3::expr Machine::Impl::StringLiteral(const std::string& text) {
  auto it = string_literals_.find(text);
  if (it != string_literals_.end()) return it->second;
  z3::expr r = Preexisting(program.TypeIdOf("java/lang/String"));
  string_literals_.emplace(text, r);
  // Its characters: a preexisting char[] with the literal's UTF-16 units.
  std::u16string units = Utf8ToUtf16(text);
  z3::expr chars = StringChars(r);
  const FieldInfo* value = program.ResolveField("java/lang/String", "value", "[C");
  m.axioms_.push_back(z3::select(InitialField(value->id), r) == chars);
  m.axioms_.push_back(z3::select(types_init_, chars) == ops.TypeId(program.TypeIdOf("[C")));
  m.axioms_.push_back(z3::select(lengths_init_, chars) == ops.Int(static_cast<int>(units.size())));
  z3::expr row = z3::select(InitialContent(ElemKind::kChar), chars);
  for (size_t i = 0; i < units.size(); ++i) {
    m.axioms_.push_back(z3::select(row, ops.Int(static_cast<int>(i))) ==
                        ops.StoreAs('C', ops.Int(units[i])));
  }
  max_lengths[static_cast<uint32_t>(*JavaOps::BvValue(chars))] = static_cast<int>(units.size());
  return r;
}

z3::expr Machine::Impl::ClassLiteral(const std::string& name) {
  auto it = class_literals_.find(name);
  if (it != class_literals_.end()) return it->second;
  z3::expr r = Preexisting(program.TypeIdOf("java/lang/Class"));
  class_literals_.emplace(name, r);
  return r;
}

z3::expr Machine::Impl::Origin(const z3::expr& ref) const {
  if (ref.is_app() && ref.decl().decl_kind() == Z3_OP_ITE) {
    return ops.Ite(ref.arg(0), Origin(ref.arg(1)), Origin(ref.arg(2)));
  }
  return z3::select(origin_init_, ref);
}

z3::expr Machine::Impl::HashCode(const z3::expr& ref) const { return hash_(ref); }

z3::expr Machine::Impl::ByteArrayIsBoolean(const z3::expr& ref) const {
  int z = program.TypeIdOf("[Z");
  if (z == 0) return ops.False();
  if (program.TypeIdOf("[B") == 0) return ops.True();
  return ops.Eq(m.TypeOf(ref), ops.TypeId(z));
}

z3::expr Machine::Impl::LoadElement(const Heap& heap, const z3::expr& ref, const z3::expr& index,
                                    ElemKind kind) {
  auto load = [&](ElemKind k) {
    z3::expr row = Select(ContentArray(heap, k), ref);
    return Select(row, index);
  };
  if (kind == ElemKind::kByte || kind == ElemKind::kBoolean) {
    z3::expr is_boolean = ByteArrayIsBoolean(ref);
    z3::expr as_bool = ops.IsFalse(is_boolean) ? ops.Int(0) : ops.LoadAs('Z', load(ElemKind::kBoolean));
    z3::expr as_byte = ops.IsTrue(is_boolean) ? ops.Int(0) : ops.LoadAs('B', load(ElemKind::kByte));
    return ops.Ite(is_boolean, as_bool, as_byte);
  }
  z3::expr value = load(kind);
  if (kind == ElemKind::kRef) {
    auto r = JavaOps::BvValue(ref);
    if (!(r && allocations_.count(static_cast<uint32_t>(*r)))) {
      AddElementTyping(ref, z3::select(z3::select(InitialContent(kind), ref), index));
    }
    return value;
  }
  return ops.LoadAs(DescriptorOfKind(kind), value);
}

void Machine::Impl::StoreElement(Heap& heap, const z3::expr& ref, const z3::expr& index,
                                 ElemKind kind, const z3::expr& value) {
  auto store = [&](ElemKind k, const z3::expr& stored) {
    z3::expr contents = ContentArray(heap, k);
    z3::expr row = Select(contents, ref);
    heap.contents.insert_or_assign(static_cast<int>(k),
                                   Store(contents, ref, Store(row, index, stored)));
  };
  if (kind == ElemKind::kByte || kind == ElemKind::kBoolean) {
    z3::expr is_boolean = ByteArrayIsBoolean(ref);
    if (!ops.IsFalse(is_boolean)) {
      z3::expr contents = ContentArray(heap, ElemKind::kBoolean);
      z3::expr row = Select(contents, ref);
      z3::expr old = Select(row, index);
      store(ElemKind::kBoolean, ops.Ite(is_boolean, ops.StoreAs('Z', value), old));
    }
    if (!ops.IsTrue(is_boolean)) {
      z3::expr contents = ContentArray(heap, ElemKind::kByte);
      z3::expr row = Select(contents, ref);
      z3::expr old = Select(row, index);
      store(ElemKind::kByte, ops.Ite(is_boolean, old, ops.StoreAs('B', value)));
    }
    return;
  }
  store(kind, ops.StoreAs(DescriptorOfKind(kind), value));
}

// ---- Machine: heap access ----

Value Machine::ReadField(const Heap& heap, const z3::expr& ref, const FieldInfo& field) {
  char d = field.descriptor[0];
  z3::expr stored = impl_->Select(impl_->FieldArray(heap, field.id), ref);
  Kind kind = KindOfDescriptor(d);
  // A string's characters are typed with the string (AddStringTyping).
  bool string_chars = field.owner == "java/lang/String" && field.name == "value";
  if (kind == Kind::kRef && !string_chars) {
    auto r = JavaOps::BvValue(ref);
    if (!(r && impl_->allocations().count(static_cast<uint32_t>(*r)))) {
      impl_->AddInputTyping(z3::select(impl_->InitialField(field.id), ref), field.descriptor);
    }
  }
  return Value{kind, ops_.LoadAs(d, stored)};
}

Value Machine::ReadStatic(const Heap& heap, const FieldInfo& field) const {
  char d = field.descriptor[0];
  Kind kind = KindOfDescriptor(d);
  auto it = heap.statics.find(field.id);
  if (it == heap.statics.end()) return Value{kind, ops_.Default(kind)};
  return Value{kind, ops_.LoadAs(d, it->second)};
}

bool Machine::MayBeUninitialized(const Heap& heap, const ClassInfo& cls) const {
  if (cls.origin != ClassInfo::Origin::kClassPath || impl_->IsInitializedInitially(cls)) {
    return false;
  }
  auto it = heap.initialized.find(cls.name);
  return it == heap.initialized.end() || !JavaOps::IsTrue(it->second);
}

std::optional<z3::expr> Machine::EnumConstant(absl::string_view cls, absl::string_view name) const {
  const ClassInfo* e = EnumClassOf(program_, program_.FindClass(classfile::BinaryToInternal(cls)));
  if (e == nullptr) return std::nullopt;
  auto it = impl_->enum_constants.find(e->name);
  if (it == impl_->enum_constants.end()) return std::nullopt;
  for (const Impl::EnumConstant& c : it->second) {
    if (c.name == name) return ops_.Ref(c.ref);
  }
  return std::nullopt;
}

void Machine::WriteField(Heap& heap, const z3::expr& ref, const FieldInfo& field,
                         const Value& value) {
  z3::expr array = impl_->FieldArray(heap, field.id);
  heap.fields.insert_or_assign(
      field.id, impl_->Store(array, ref, ops_.StoreAs(field.descriptor[0], value.e)));
}

void Machine::WriteStatic(Heap& heap, const FieldInfo& field, const Value& value) {
  heap.statics.insert_or_assign(field.id, ops_.StoreAs(field.descriptor[0], value.e));
}

z3::expr Machine::ArrayLength(const z3::expr& ref) {
  if (ref.is_app() && ref.decl().decl_kind() == Z3_OP_ITE) {
    return ops_.Ite(ref.arg(0), ArrayLength(ref.arg(1)), ArrayLength(ref.arg(2)));
  }
  if (auto r = JavaOps::BvValue(ref)) {
    auto it = impl_->allocations().find(static_cast<uint32_t>(*r));
    if (it != impl_->allocations().end() && it->second.length) return *it->second.length;
  } else if (ref.is_app() && ref.decl().decl_kind() == Z3_OP_BOR && ref.num_args() == 2 &&
             JavaOps::Same(ref.arg(1), ops_.Ref(Impl::kStringCharsBit))) {
    impl_->string_length_read = true;  // an input string's characters (StringChars)
  } else {
    impl_->array_length_read = true;  // perhaps an input array
  }
  return z3::select(impl_->lengths_init_, ref);
}

Machine::LengthBounds Machine::LengthsBeyondBound() const {
  LengthBounds out{ops_.False(), ops_.False()};
  // In the order of the AST ids, so that the queries are the same each run.
  for (const auto& [id, bounded] : impl_->bounded_lengths) {
    bool read = bounded.string_chars ? impl_->string_length_read : impl_->array_length_read;
    if (!read) continue;
    z3::expr& into = bounded.string_chars ? out.strings : out.arrays;
    into = ops_.Or(into, bounded.beyond);
  }
  return out;
}

std::vector<z3::expr> Machine::AxiomsWithoutLengthBounds() const {
  std::vector<z3::expr> out;
  for (size_t i = 0; i < axioms_.size(); ++i) {
    if (!length_bound_axioms_.count(i)) out.push_back(axioms_[i]);
  }
  return out;
}

Value Machine::ReadElement(const Heap& heap, const z3::expr& ref, const z3::expr& index,
                           absl::string_view array_descriptor) {
  ElemKind kind = Impl::ElemOfArray(array_descriptor);
  Kind k = kind == ElemKind::kRef     ? Kind::kRef
           : kind == ElemKind::kLong  ? Kind::kLong
           : kind == ElemKind::kFloat ? Kind::kFloat
           : kind == ElemKind::kDouble ? Kind::kDouble
                                       : Kind::kInt;
  return Value{k, impl_->LoadElement(heap, ref, index, kind)};
}

void Machine::WriteElement(Heap& heap, const z3::expr& ref, const z3::expr& index,
                           absl::string_view array_descriptor, const Value& value) {
  impl_->StoreElement(heap, ref, index, Impl::ElemOfArray(array_descriptor), value.e);
}

void Machine::WriteDefaultElements(Heap& heap, const z3::expr& ref,
                                   absl::string_view array_descriptor) {
  ElemKind kind = Impl::ElemOfArray(array_descriptor);
  char d = DescriptorOfKind(kind);
  z3::expr row = z3::const_array(ops_.IntSort(), ops_.StoreAs(d, ops_.Default(KindOfDescriptor(d))));
  heap.contents.insert_or_assign(static_cast<int>(kind),
                                 impl_->Store(impl_->ContentArray(heap, kind), ref, row));
}

z3::expr Machine::TypeOf(const z3::expr& ref) const {
  if (ref.is_app() && ref.decl().decl_kind() == Z3_OP_ITE) {
    return ops_.Ite(ref.arg(0), TypeOf(ref.arg(1)), TypeOf(ref.arg(2)));
  }
  if (auto r = JavaOps::BvValue(ref)) {
    auto it = impl_->allocations().find(static_cast<uint32_t>(*r));
    if (it != impl_->allocations().end()) return ops_.TypeId(it->second.type_id);
    auto pre = impl_->preexisting_.find(static_cast<uint32_t>(*r));
    if (pre != impl_->preexisting_.end()) return ops_.TypeId(pre->second);
  }
  return z3::select(impl_->types_init_, ref);
}

z3::expr Machine::InstanceOf(const z3::expr& ref, absl::string_view type,
                             z3::expr* unknown) const {
  z3::expr t = TypeOf(ref);
  z3::expr non_null = ops_.Not(ops_.Eq(ref, ops_.Null()));
  if (unknown != nullptr) {
    *unknown = ops_.False();
    if (type != "java/lang/Object") {
      std::vector<int> opaque;
      for (int id : program_.OpaqueTypes()) {
        if (program_.Type(id).name != type) opaque.push_back(id);
      }
      // Known classes below a missing superclass are just as uncertain.
      for (int id = 1; id <= program_.type_count(); ++id) {
        const TypeInfo& info = program_.Type(id);
        if (!info.opaque && !program_.HierarchyKnown(info.name) &&
            !program_.IsAssignable(info.name, type)) {
          opaque.push_back(id);
        }
      }
      if (!opaque.empty()) *unknown = ops_.And(non_null, impl_->TypeIn(t, opaque));
    }
  }
  return ops_.And(non_null, impl_->TypeIn(t, program_.ConcreteSubtypes(type)));
}

z3::expr Machine::OriginSite(const z3::expr& ref) const { return impl_->Origin(ref); }

z3::expr AnyObligation(const JavaOps& ops, const std::vector<Obligation>& obligations,
                       std::initializer_list<ObligationKind> kinds) {
  z3::expr out = ops.False();
  for (const Obligation& o : obligations) {
    if (std::find(kinds.begin(), kinds.end(), o.kind) != kinds.end()) {
      out = ops.Or(out, o.condition);
    }
  }
  return out;
}

const Obligation* WitnessObligation(const z3::model& model,
                                    const std::vector<Obligation>& obligations,
                                    std::initializer_list<ObligationKind> kinds) {
  for (const Obligation& o : obligations) {
    if (std::find(kinds.begin(), kinds.end(), o.kind) == kinds.end()) continue;
    if (model.eval(o.condition, true).is_true()) return &o;
  }
  return nullptr;
}

z3::expr Machine::FieldStore(const Heap& heap, int field_id) {
  return impl_->FieldArray(heap, field_id);
}

z3::expr Machine::ContentStore(const Heap& heap, ElemKind kind) {
  return impl_->ContentArray(heap, kind);
}

z3::expr Machine::ExistedAtEntry(const z3::expr& ref) const { return impl_->IsInputRef(ref); }

z3::expr Machine::IsPreexistingStringChars(const z3::expr& ref) const {
  return ops_.Not(ops_.Eq(ref & ops_.Ref(Impl::kStringCharsBit), ops_.Ref(0)));
}

z3::expr Machine::StringLiteral(const std::string& text) { return impl_->StringLiteral(text); }

z3::expr Machine::WithoutNewObjects(const z3::expr& store) const {
  std::unordered_map<unsigned, z3::expr> memo;
  std::function<z3::expr(const z3::expr&)> rec = [&](const z3::expr& a) -> z3::expr {
    if (!a.is_app()) return a;
    Z3_decl_kind kind = a.decl().decl_kind();
    if (kind != Z3_OP_STORE && kind != Z3_OP_ITE) return a;
    unsigned id = Z3_get_ast_id(a.ctx(), a);
    auto cached = memo.find(id);
    if (cached != memo.end()) return cached->second;
    z3::expr out = a;
    if (kind == Z3_OP_STORE) {
      z3::expr rest = rec(a.arg(0));
      auto at = JavaOps::BvValue(a.arg(1));
      if (at && *at >= Impl::kAllocBase) {
        out = rest;  // IsInputRef excludes every reference from kAllocBase up
      } else if (!JavaOps::Same(rest, a.arg(0))) {
        out = z3::store(rest, a.arg(1), a.arg(2));
      }
    } else {
      out = ops_.Ite(a.arg(0), rec(a.arg(1)), rec(a.arg(2)));
    }
    memo.emplace(id, out);
    return out;
  };
  return rec(store);
}

Value Machine::Fresh(const std::string& descriptor, const std::string& name) {
  char d = descriptor.empty() ? 'I' : descriptor[0];
  Kind kind = KindOfDescriptor(d);
  z3::expr raw = impl_->FreshConst(name, ops_.StoredSort(d == '[' ? 'L' : d));
  z3::expr value = ops_.LoadAs(d, raw);
  if (kind == Kind::kRef) impl_->AddInputTyping(value, descriptor);
  return Value{kind, value};
}

z3::expr Machine::NewObject(const ClassInfo& cls) {
  return impl_->Allocate(cls.type_id, std::nullopt, 0);
}

std::optional<z3::expr> Machine::NewArray(const std::string& descriptor, const z3::expr& length) {
  int type_id = impl_->program.TypeIdOf(descriptor);
  if (type_id == 0 || !impl_->program.Type(type_id).is_array) return std::nullopt;
  return impl_->Allocate(type_id, length, 0);
}

// ---- entry states ----

void Machine::Assume(EntryState& entry, const z3::expr& condition) const {
  entry.guard = ops_.And(entry.guard, condition);
}

absl::Status Machine::EnsureInitialized(EntryState& entry, const ClassInfo& cls) {
  State s{entry.guard, entry.heap, {}, {}};
  impl_->obligations = &entry.obligations;
  auto initialized = impl_->Initialize(std::move(s), cls, 0);
  impl_->obligations = nullptr;
  TS_ASSIGN_OR_RETURN(std::optional<State> after, std::move(initialized));
  if (!after.has_value()) {
    entry.guard = ops_.False();
    return absl::OkStatus();
  }
  entry.guard = after->guard;
  entry.heap = after->heap;
  return absl::OkStatus();
}

absl::StatusOr<EntryState> Machine::CreateEntry(const MethodInfo& method) {
  if (!method.has_code()) {
    return absl::InvalidArgumentError(
        absl::StrCat("method ", method.DisplayName(), " has no bytecode (abstract or native)"));
  }
  EntryState entry{nullptr, ops_.True(), {}, std::nullopt, {}, {}, {}};
  entry.method = &method;
  entry.guard = ops_.True();
  // The enums an input may hold a constant of were initialised before the
  // call (a JVM initialises an enum before any of its constants exists):
  // their constants exist at entry, and inputs of their types are them.
  // An initialisation that is not plain (it may throw, or does something
  // the validator does not model) is undone: that enum is initialised where
  // the method first uses it, as before, and comparing an input with its
  // constants stays unsupported (executor.cpp, UnsupportedComparison).
  for (const ClassInfo* e : EnumsOfInputs(program_, method)) {
    EntryState before = entry;
    impl_->enum_constants_preexist = true;
    absl::Status initialized = EnsureInitialized(entry, *e);
    impl_->enum_constants_preexist = false;
    std::vector<Impl::EnumConstant> constants;
    if (initialized.ok() && entry.obligations.size() == before.obligations.size() &&
        JavaOps::Same(entry.guard, before.guard)) {
      for (const FieldInfo* c : EnumConstants(program_, *e)) {
        std::optional<uint64_t> ref = JavaOps::BvValue(ReadStatic(entry.heap, *c).e);
        if (!ref || *ref == 0 || *ref >= Impl::kAllocBase) {
          constants.clear();  // not a fixed preexisting object
          break;
        }
        constants.push_back({static_cast<uint32_t>(*ref), c->name});
      }
    }
    if (constants.empty()) {
      entry = std::move(before);
      continue;
    }
    impl_->enum_constants[e->name] = std::move(constants);
  }
  TS_RETURN_IF_ERROR(EnsureInitialized(entry, *method.owner));
  const classfile::ClassFile& file = *method.owner->file;
  entry.arg_names = file.ParameterNames(*method.method);
  if (method.name == "<init>") {
    // A constructor runs on a new object whose fields hold their defaults.
    if (method.owner->type_id == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(method.DisplayName(), ": the class cannot be instantiated"));
    }
    entry.receiver = Value{Kind::kRef, impl_->Allocate(method.owner->type_id, std::nullopt, 0)};
  } else if (!method.is_static()) {
    z3::expr self = impl_->FreshConst("this", ops_.RefSort());
    const ClassInfo& cls = *method.owner;
    std::vector<int> ids;
    if (options_.exact_receiver_type && cls.type_id != 0 && !cls.is_missing()) {
      ids.push_back(cls.type_id);
    } else {
      ids = program_.ConcreteSubtypes(cls.name);
    }
    z3::expr type = z3::select(impl_->types_init_, self);
    axioms_.push_back(ops_.And(ops_.And(impl_->IsInputRef(self), impl_->TypeIn(type, ids)),
                               impl_->EnumConstantsOnly(self, type, ids)));
    entry.receiver = Value{Kind::kRef, self};
  }
  for (size_t i = 0; i < method.signature.params.size(); ++i) {
    const std::string& d = method.signature.params[i];
    std::string name = i < entry.arg_names.size() ? entry.arg_names[i] : absl::StrCat("arg", i);
    entry.args.push_back(Fresh(d, name));
  }
  return entry;
}

absl::StatusOr<EntryState> Machine::CreateHarnessEntry(const MethodInfo& main) {
  if (!main.has_code()) {
    return absl::InvalidArgumentError(absl::StrCat(main.DisplayName(), " has no bytecode"));
  }
  EntryState entry{nullptr, ops_.True(), {}, std::nullopt, {}, {}, {}};
  entry.method = &main;
  entry.guard = ops_.True();
  TS_RETURN_IF_ERROR(EnsureInitialized(entry, *main.owner));
  const classfile::ClassFile& file = *main.owner->file;
  entry.arg_names = file.ParameterNames(*main.method);
  for (const std::string& d : main.signature.params) {
    if (d == "[Ljava/lang/String;") {
      int id = program_.TypeIdOf(d);
      if (id == 0) return absl::InternalError("type String[] missing from the universe");
      entry.args.push_back(Value{Kind::kRef, impl_->Allocate(id, ops_.Int(0), 0)});
    } else {
      entry.args.push_back(Value{KindOfDescriptor(d[0]), ops_.Default(KindOfDescriptor(d[0]))});
    }
  }
  return entry;
}

absl::StatusOr<ExecutionResult> Machine::Execute(const EntryState& entry,
                                                 CallInterceptor* interceptor,
                                                 LoopHeadObserver* loop_observer,
                                                 PointObserver* point_observer) {
  ExecutionResult result;
  result.obligations = entry.obligations;
  // Execute may run inside an execution (a specification's pure call seen
  // by a PointObserver): the outer run's hooks come back afterwards.
  struct Hooks {
    Impl& impl;
    CallInterceptor* interceptor;
    LoopHeadObserver* loop_observer;
    PointObserver* point_observer;
    std::vector<Obligation>* obligations;
    std::vector<const MethodInfo*> call_stack;
    ~Hooks() {
      impl.interceptor = interceptor;
      impl.loop_observer = loop_observer;
      impl.point_observer = point_observer;
      impl.obligations = obligations;
      impl.call_stack = std::move(call_stack);
    }
  } saved{*impl_, impl_->interceptor, impl_->loop_observer, impl_->point_observer,
          impl_->obligations, std::move(impl_->call_stack)};
  impl_->call_stack.clear();
  impl_->interceptor = interceptor;
  impl_->loop_observer = loop_observer;
  impl_->point_observer = point_observer;
  impl_->obligations = &result.obligations;
  const MethodInfo& method = *entry.method;
  State s{entry.guard, entry.heap, {}, {}};
  s.locals.assign(method.code().max_locals, Value{Kind::kNone, ops_.Int(0)});
  size_t slot = 0;
  auto put = [&](const Value& v) {
    if (slot < s.locals.size()) s.locals[slot] = v;
    slot += v.wide() ? 2 : 1;
  };
  if (entry.receiver) put(*entry.receiver);
  for (const Value& v : entry.args) put(v);
  if (slot > s.locals.size()) {
    return absl::InvalidArgumentError(absl::StrCat(method.DisplayName(),
                                                   ": max_locals smaller than the parameters"));
  }
  auto run = impl_->RunMethod(method, std::move(s));
  if (!run.ok()) return run.status();
  result.normal = std::move(run->normal);
  result.exceptional = std::move(run->exceptional);
  return result;
}

// ---- models to observations ----

namespace {

std::optional<uint64_t> EvalBits(const z3::model& model, const z3::expr& e) {
  z3::expr v = model.eval(e, /*model_completion=*/true);
  return JavaOps::BvValue(v);
}

// The IEEE bits of a floating-point term in a model (NaN canonical).
uint64_t EvalFpBits(const z3::model& model, const z3::expr& e) {
  z3::context& ctx = e.ctx();
  bool is_float = e.get_sort().fpa_ebits() == 8;
  z3::expr nan(ctx, Z3_mk_fpa_is_nan(ctx, e));
  if (model.eval(nan, true).is_true()) return is_float ? 0x7fc00000u : 0x7ff8000000000000ull;
  z3::expr bits(ctx, Z3_mk_fpa_to_ieee_bv(ctx, e));
  return EvalBits(model, bits).value_or(0);
}

std::string FloatText(float f) {
  if (std::isnan(f)) return "Float.NaN";
  if (std::isinf(f)) return f > 0 ? "Float.POSITIVE_INFINITY" : "Float.NEGATIVE_INFINITY";
  std::string s = absl::StrFormat("%.9g", f);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s + "f";
}

std::string DoubleText(double d) {
  if (std::isnan(d)) return "Double.NaN";
  if (std::isinf(d)) return d > 0 ? "Double.POSITIVE_INFINITY" : "Double.NEGATIVE_INFINITY";
  std::string s = absl::StrFormat("%.17g", d);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

}  // namespace

std::string Machine::TypeNameIn(const z3::model& model, const z3::expr& ref) const {
  auto id = EvalBits(model, TypeOf(ref));
  if (!id || *id == 0 || static_cast<int>(*id) > program_.type_count()) return "?";
  return program_.Type(static_cast<int>(*id)).DisplayName();
}

std::string Machine::FormatValue(const z3::model& model, const Value& value,
                                 absl::string_view descriptor) const {
  char d = descriptor.empty() ? 'I' : descriptor[0];
  switch (d) {
    case 'Z': return EvalBits(model, value.e).value_or(0) != 0 ? "true" : "false";
    case 'C': {
      uint64_t c = EvalBits(model, value.e).value_or(0) & 0xFFFF;
      if (c >= 32 && c < 127 && c != '\'' && c != '\\') return absl::StrFormat("'%c'", static_cast<char>(c));
      return absl::StrFormat("'\\u%04x'", c);
    }
    case 'B': case 'S': case 'I':
      return absl::StrCat(static_cast<int32_t>(EvalBits(model, value.e).value_or(0)));
    case 'J':
      return absl::StrCat(static_cast<int64_t>(EvalBits(model, value.e).value_or(0)), "L");
    case 'F': {
      uint32_t bits = static_cast<uint32_t>(EvalFpBits(model, value.e));
      float f;
      std::memcpy(&f, &bits, 4);
      return FloatText(f);
    }
    case 'D': {
      uint64_t bits = EvalFpBits(model, value.e);
      double f;
      std::memcpy(&f, &bits, 8);
      return DoubleText(f);
    }
    default: {
      auto r = EvalBits(model, value.e);
      if (!r || *r == 0) return "null";
      std::string constant = impl_->EnumConstantName(static_cast<uint32_t>(*r));
      if (!constant.empty()) return constant;
      return absl::StrCat(TypeNameIn(model, value.e), "#", *r);
    }
  }
}

namespace {

// Builds ObjectStates from a model, numbering objects as they are met.
class GraphBuilder {
 public:
  GraphBuilder(Machine& machine, Machine::Impl& impl, const z3::model& model)
      : m_(machine), impl_(impl), model_(model), program_(machine.program()) {}

  // Converts one value; references are queued for `Walk`.
  tracespec::v1::Value Convert(const Value& v, absl::string_view descriptor) {
    tracespec::v1::Value out;
    char d = descriptor.empty() ? 'I' : descriptor[0];
    switch (d) {
      case 'Z': out.set_bool_value(Bits(v.e) != 0); break;
      case 'B': out.set_byte_value(static_cast<int32_t>(Bits(v.e))); break;
      case 'S': out.set_short_value(static_cast<int32_t>(Bits(v.e))); break;
      case 'C': out.set_char_value(static_cast<int32_t>(Bits(v.e) & 0xFFFF)); break;
      case 'I': out.set_int_value(static_cast<int32_t>(Bits(v.e))); break;
      case 'J': out.set_long_value(static_cast<int64_t>(Bits(v.e))); break;
      case 'F': {
        uint32_t bits = static_cast<uint32_t>(EvalFpBits(model_, v.e));
        float f;
        std::memcpy(&f, &bits, 4);
        out.set_float_value(f);
        break;
      }
      case 'D': {
        uint64_t bits = EvalFpBits(model_, v.e);
        double f;
        std::memcpy(&f, &bits, 8);
        out.set_double_value(f);
        break;
      }
      default: {
        uint32_t r = static_cast<uint32_t>(Bits(v.e));
        int type = r == 0 ? 0 : TypeIdOf(r);
        if (r == 0 || type == 0 ||
            !program_.IsAssignable(program_.Type(type).name,
                                   classfile::DescriptorToClassName(descriptor))) {
          out.mutable_null_value();
        } else {
          out.set_ref(IdOf(r));
        }
        break;
      }
    }
    return out;
  }

  uint64_t Bits(const z3::expr& e) { return EvalBits(model_, e).value_or(0); }

  int TypeIdOf(uint32_t ref) {
    uint64_t id = Bits(m_.TypeOf(impl_.ops.Ref(ref)));
    return id >= 1 && static_cast<int>(id) <= program_.type_count() ? static_cast<int>(id) : 0;
  }

  uint64_t IdOf(uint32_t ref) {
    auto it = ids_.find(ref);
    if (it != ids_.end()) return it->second;
    uint64_t id = ids_.size() + 1;
    ids_[ref] = id;
    queue_.push_back(ref);
    return id;
  }

  // Describes every queued object (and what they reach) in `heap`. Objects
  // that did not exist in this heap (allocated later) are skipped.
  void Walk(const Heap& heap, bool is_pre, google::protobuf::RepeatedPtrField<v1::ObjectState>* out) {
    std::set<uint32_t> done;
    std::deque<uint32_t> work(order_.begin(), order_.end());
    for (uint32_t r : queue_) work.push_back(r);
    queue_.clear();
    while (!work.empty()) {
      uint32_t r = work.front();
      work.pop_front();
      if (!done.insert(r).second) continue;
      bool string_chars = r >= Machine::Impl::kStringCharsBit;  // preexisting
      if (is_pre && r >= Machine::Impl::kAllocBase && !string_chars) continue;
      if (std::find(order_.begin(), order_.end(), r) == order_.end()) order_.push_back(r);
      int type = TypeIdOf(r);
      if (type == 0) continue;
      const TypeInfo& t = program_.Type(type);
      v1::ObjectState* obj = out->Add();
      obj->set_id(ids_.at(r));
      obj->set_class_name(t.is_array ? t.name : t.DisplayName());
      std::string constant = impl_.EnumConstantName(r);
      if (!constant.empty()) obj->set_enum_constant(constant.substr(constant.rfind('.') + 1));
      z3::expr ref = impl_.ops.Ref(r);
      if (t.is_array) {
        int64_t length = static_cast<int32_t>(Bits(m_.ArrayLength(ref)));
        // (a literal's characters may be more than L)
        int64_t limit = string_chars ? 65535 : impl_.options.max_array;
        if ((r < Machine::Impl::kAllocBase || string_chars) && (length < 0 || length > limit)) {
          length = 0;  // never read: any length is as good
        }
        auto* contents = obj->mutable_array();
        contents->set_element_descriptor(t.component);
        contents->set_length(static_cast<int32_t>(length));
        for (int64_t i = 0; i < length && i < 4096; ++i) {
          Value e = m_.ReadElement(heap, ref, impl_.ops.Int(static_cast<int32_t>(i)), t.name);
          *contents->add_elements() = Convert(e, t.component);
        }
      } else if (t.cls != nullptr) {
        for (const FieldInfo* f : program_.InstanceFields(t.cls)) {
          // A constant's name and ordinal are its enum's: the name says them.
          if (!constant.empty() && f->owner == "java/lang/Enum") continue;
          z3::expr stored = impl_.Select(impl_.FieldArray(heap, f->id), ref);
          Value v{KindOfDescriptor(f->descriptor[0]), impl_.ops.LoadAs(f->descriptor[0], stored)};
          v1::Field* field = obj->add_fields();
          field->set_name(f->name);
          field->set_jvm_type(f->descriptor);
          if (f->owner != t.name) field->set_declaring_class(classfile::InternalToBinary(f->owner));
          *field->mutable_value() = Convert(v, f->descriptor);
        }
      }
      for (uint32_t q : queue_) work.push_back(q);
      queue_.clear();
    }
  }

 private:
  Machine& m_;
  Machine::Impl& impl_;
  const z3::model& model_;
  const Program& program_;
  std::map<uint32_t, uint64_t> ids_;
  std::vector<uint32_t> queue_;
  std::vector<uint32_t> order_;
};

}  // namespace

absl::StatusOr<v1::Observation> Machine::BuildObservation(const z3::model& model,
                                                          const EntryState& entry,
                                                          const ExitState& exit,
                                                          bool exceptional) {
  return BuildObservation(model, entry, exit, exceptional, {}, nullptr);
}

absl::StatusOr<v1::Observation> Machine::BuildObservation(
    const z3::model& model, const EntryState& entry, const ExitState& exit, bool exceptional,
    const std::vector<std::pair<Value, std::string>>& extra_roots,
    std::vector<uint64_t>* root_ids) {
  const MethodInfo& method = *entry.method;
  v1::Observation obs;
  obs.set_format_version(v1::FORMAT_VERSION_1);
  obs.set_source(v1::COUNTEREXAMPLE);
  v1::MethodRef* ref = obs.mutable_method();
  ref->set_class_name(method.owner->binary_name());
  ref->set_name(method.name);
  ref->set_jvm_descriptor(method.descriptor);
  ref->set_is_static(method.is_static());
  for (const std::string& n : entry.arg_names) ref->add_param_names(n);
  // Reading the model may add typing axioms; they are facts, so later
  // queries may keep them.
  GraphBuilder graph(*this, *impl_, model);
  if (entry.receiver) *obs.mutable_receiver() = graph.Convert(*entry.receiver, "Ljava/lang/Object;");
  for (size_t i = 0; i < entry.args.size(); ++i) {
    *obs.add_args() = graph.Convert(entry.args[i], method.signature.params[i]);
  }
  for (const auto& [value, descriptor] : extra_roots) {
    v1::Value v = graph.Convert(value, descriptor);
    if (root_ids != nullptr) root_ids->push_back(v.kind_case() == v1::Value::kRef ? v.ref() : 0);
  }
  graph.Walk(entry.heap, /*is_pre=*/true, obs.mutable_pre());
  v1::Outcome* outcome = obs.mutable_outcome();
  if (exceptional) {
    v1::Thrown* thrown = outcome->mutable_thrown();
    thrown->set_class_name(exit.value ? TypeNameIn(model, exit.value->e) : "?");
  } else if (method.signature.ret == "V") {
    outcome->mutable_returned_void();
  } else if (exit.value) {
    *outcome->mutable_returned() = graph.Convert(*exit.value, method.signature.ret);
  }
  graph.Walk(exit.heap, /*is_pre=*/false, obs.mutable_post());
  return obs;
}

}  // namespace tracespec::symex

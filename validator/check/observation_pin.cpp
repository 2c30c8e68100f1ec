// Pinning symbolic inputs and heaps to one observation; see observation_pin.h.
#include "validator/check/observation_pin.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "common/utf8.h"
#include "validator/classfile/descriptors.h"

namespace tracespec::check {

z3::expr ObservationPin::Value(const symex::Heap& heap, const z3::expr& term,
                               const v1::Value& v, const std::string& descriptor,
                               PinnedIds* ids) {
  switch (v.kind_case()) {
    case v1::Value::kBoolValue: return term == ops_.Int(v.bool_value() ? 1 : 0);
    case v1::Value::kByteValue: return term == ops_.Int(v.byte_value());
    case v1::Value::kShortValue: return term == ops_.Int(v.short_value());
    case v1::Value::kCharValue: return term == ops_.Int(v.char_value());
    case v1::Value::kIntValue:
      return descriptor == "J" ? term == ops_.Long(v.int_value()) : term == ops_.Int(v.int_value());
    case v1::Value::kLongValue: return term == ops_.Long(v.long_value());
    case v1::Value::kFloatValue: {
      float f = v.float_value();
      uint32_t bits;
      std::memcpy(&bits, &f, sizeof bits);
      return term == ops_.FloatBits(bits);
    }
    case v1::Value::kDoubleValue: {
      double d = v.double_value();
      uint64_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      return term == ops_.DoubleBits(bits);
    }
    case v1::Value::kNullValue: return term == ops_.Null();
    case v1::Value::kStringValue: {
      if (!classfile::IsReference(descriptor)) return ops_.True();
      return Text(heap, term, v.string_value());
    }
    case v1::Value::kRef: {
      if (!classfile::IsReference(descriptor)) return ops_.True();
      auto it = ids->find(v.ref());
      if (it != ids->end()) return term == it->second;
      ids->emplace(v.ref(), term);
      return ops_.Not(term == ops_.Null());
    }
    default: return ops_.True();
  }
}

z3::expr ObservationPin::Text(const symex::Heap& heap, const z3::expr& ref,
                              const std::string& text) {
  const symex::FieldInfo* value =
      machine_.program().ResolveField("java/lang/String", "value", "[C");
  z3::expr out = ops_.Not(ref == ops_.Null());
  if (value == nullptr) return out;
  out = ops_.And(out, machine_.InstanceOf(ref, "java/lang/String"));
  z3::expr chars = machine_.ReadField(heap, ref, *value).e;
  std::u16string units = Utf8ToUtf16(text);
  out = ops_.And(out, ops_.Not(chars == ops_.Null()));
  out = ops_.And(out, machine_.ArrayLength(chars) == ops_.Int(static_cast<int>(units.size())));
  for (size_t i = 0; i < units.size(); ++i) {
    symex::Value c = machine_.ReadElement(heap, chars, ops_.Int(static_cast<int>(i)), "[C");
    out = ops_.And(out, c.e == ops_.Int(units[i]));
  }
  return out;
}

z3::expr ObservationPin::Object(
    const symex::Heap& heap, const z3::expr& ref, const v1::ObjectState& state, PinnedIds* ids,
    std::vector<std::pair<z3::expr, const symex::FieldInfo*>>* locations,
    std::vector<PinnedElement>* elements) {
  z3::expr out = ops_.True();
  if (state.has_array()) {
    const v1::ArrayContents& a = state.array();
    std::string descriptor = absl::StrCat("[", a.element_descriptor());
    out = ops_.And(out, machine_.ArrayLength(ref) == ops_.Int(a.length()));
    for (int i = 0; i < a.elements_size() && i < a.length(); ++i) {
      symex::Value e = machine_.ReadElement(heap, ref, ops_.Int(i), descriptor);
      out = ops_.And(out, Value(heap, e.e, a.elements(i), a.element_descriptor(), ids));
      if (locations != nullptr && elements != nullptr) {
        elements->push_back(PinnedElement{ref, i, descriptor});
      }
    }
    return out;
  }
  if (!state.enum_constant().empty()) {  // a counterexample's: that constant
    std::optional<z3::expr> constant = machine_.EnumConstant(state.class_name(), state.enum_constant());
    if (constant) out = ops_.And(out, ref == *constant);
  }
  for (const v1::Field& f : state.fields()) {
    const symex::FieldInfo* info = machine_.program().ResolveField(
        classfile::BinaryToInternal(f.declaring_class().empty() ? state.class_name()
                                                                : f.declaring_class()),
        f.name(), f.jvm_type());
    if (info == nullptr || info->is_static) continue;
    if (f.value().kind_case() == v1::Value::kRedacted ||
        f.value().kind_case() == v1::Value::KIND_NOT_SET) {
      continue;
    }
    symex::Value v = machine_.ReadField(heap, ref, *info);
    // A post-state's fields are all subject to the frame.
    if (locations != nullptr) locations->emplace_back(ref, info);
    out = ops_.And(out, Value(heap, v.e, f.value(), f.jvm_type(), ids));
  }
  return out;
}

z3::expr ObservationPin::Entry(const symex::EntryState& entry, const symex::MethodInfo& method,
                               const v1::Observation& o, PinnedIds* ids) {
  z3::expr pin = entry.guard;
  if (entry.receiver && o.receiver().kind_case() == v1::Value::kRef) {
    ids->emplace(o.receiver().ref(), entry.receiver->e);
  }
  for (size_t i = 0; i < entry.args.size() && i < static_cast<size_t>(o.args_size()); ++i) {
    pin = ops_.And(pin, Value(entry.heap, entry.args[i].e, o.args(static_cast<int>(i)),
                              method.signature.params[i], ids));
  }
  std::map<uint64_t, const v1::ObjectState*> pre_objects;
  for (const v1::ObjectState& s : o.pre()) pre_objects[s.id()] = &s;
  std::vector<uint64_t> queue;
  for (const auto& [id, ref] : *ids) queue.push_back(id);
  for (size_t q = 0; q < queue.size(); ++q) {
    auto it = pre_objects.find(queue[q]);
    if (it == pre_objects.end()) continue;
    z3::expr ref = ids->at(queue[q]);
    size_t before = ids->size();
    pin = ops_.And(pin, Object(entry.heap, ref, *it->second, ids));
    if (ids->size() != before) {
      for (const auto& [id, r] : *ids) {
        if (std::find(queue.begin(), queue.end(), id) == queue.end()) queue.push_back(id);
      }
    }
  }
  return pin;
}

z3::expr ObservationPin::Distinct(const PinnedIds& ids) const {
  z3::expr out = ops_.True();
  for (auto a = ids.begin(); a != ids.end(); ++a) {
    for (auto b = std::next(a); b != ids.end(); ++b) {
      out = ops_.And(out, ops_.Not(a->second == b->second));
    }
  }
  return out;
}

symex::Heap ObservationPin::FreshHeap(const symex::Heap& entry, const std::string& prefix) const {
  symex::Heap heap = entry;
  z3::context& ctx = machine_.ctx();
  const symex::Program& program = machine_.program();
  for (int id = 0; id < program.field_count(); ++id) {
    if (program.Field(id).is_static) continue;
    z3::expr store = machine_.FieldStore(entry, id);
    heap.fields.insert_or_assign(
        id, ctx.constant(absl::StrCat(prefix, ".field", id).c_str(), store.get_sort()));
  }
  for (int k = 0; k <= static_cast<int>(symex::ElemKind::kRef); ++k) {
    z3::expr store = machine_.ContentStore(entry, static_cast<symex::ElemKind>(k));
    heap.contents.insert_or_assign(
        k, ctx.constant(absl::StrCat(prefix, ".content", k).c_str(), store.get_sort()));
  }
  return heap;
}

}  // namespace tracespec::check

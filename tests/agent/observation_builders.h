// Small builders for observations in the agent tests: values, and calls of
// bank.Account#deposit(int amount) on an account with a balance, an owner and
// a redacted pin.
#ifndef TRACESPEC_TESTS_AGENT_OBSERVATION_BUILDERS_H_
#define TRACESPEC_TESTS_AGENT_OBSERVATION_BUILDERS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tests/testing/call_builder.h"
#include "tracespec/v1/observation.pb.h"

namespace tracespec::testing {

inline v1::Value IntValue(int v) { return I(v); }
inline v1::Value StringValue(const std::string& v) { return S(v); }
inline v1::Value RefValue(uint64_t id) { return Ref(id); }
inline v1::Value RedactedValue() { return Hidden(); }

inline void AddField(v1::ObjectState* state, const std::string& name, const std::string& type,
                     const v1::Value& value) {
  v1::Field* field = state->add_fields();
  field->set_name(name);
  field->set_jvm_type(type);
  *field->mutable_value() = value;
}

inline v1::ObjectState Account(uint64_t id, int balance, const std::string& owner) {
  v1::ObjectState state;
  state.set_id(id);
  state.set_class_name("bank.Account");
  AddField(&state, "balance", "I", IntValue(balance));
  AddField(&state, "owner", "Ljava/lang/String;", StringValue(owner));
  AddField(&state, "pin", "Ljava/lang/String;", RedactedValue());
  return state;
}

// this.deposit(amount) on an account holding `before`; it ends holding
// `after` and returns it, or throws `thrown` (with `message`) when set.
inline v1::Observation Deposit(const std::string& test, int amount, int before, int after,
                               const std::string& thrown = "", const std::string& message = "",
                               const std::string& owner = "ann") {
  v1::Observation o;
  o.set_format_version(v1::FORMAT_VERSION_1);
  o.mutable_method()->set_class_name("bank.Account");
  o.mutable_method()->set_name("deposit");
  o.mutable_method()->set_jvm_descriptor("(I)I");
  o.mutable_method()->add_param_names("amount");
  o.set_source(v1::RECORDED);
  o.set_test_id(test);
  *o.mutable_receiver() = RefValue(1);
  *o.add_args() = IntValue(amount);
  *o.add_pre() = Account(1, before, owner);
  *o.add_post() = Account(1, after, owner);
  if (thrown.empty()) {
    *o.mutable_outcome()->mutable_returned() = IntValue(after);
  } else {
    o.mutable_outcome()->mutable_thrown()->set_class_name(thrown);
    if (!message.empty()) {
      o.mutable_outcome()->mutable_thrown()->set_message(message);
      o.mutable_outcome()->mutable_thrown()->set_has_message(true);
    }
  }
  return o;
}

// The JDK's holders of text as the probe records them (text_holders.h),
// added to `graph`: the holder gets `id`, its array `id + 100`.

inline v1::ObjectState* AddArrayState(uint64_t id, const std::string& element,
                                      const std::vector<v1::Value>& elements, int length,
                                      google::protobuf::RepeatedPtrField<v1::ObjectState>* graph) {
  v1::ObjectState* s = graph->Add();
  s->set_id(id);
  s->set_class_name("[" + element);
  s->mutable_array()->set_element_descriptor(element);
  s->mutable_array()->set_length(length);
  for (const v1::Value& e : elements) *s->mutable_array()->add_elements() = e;
  return s;
}

inline v1::Value ByteValue(int b) {
  v1::Value v;
  v.set_byte_value(static_cast<int8_t>(b));
  return v;
}

inline v1::Value LongValue(int64_t l) {
  v1::Value v;
  v.set_long_value(l);
  return v;
}

// A StringBuilder (or `cls`) holding ASCII `text`, Latin-1 coded, with
// `spare` unused bytes after it.
inline void AddBuilder(uint64_t id, const std::string& text,
                       google::protobuf::RepeatedPtrField<v1::ObjectState>* graph,
                       const std::string& cls = "java.lang.StringBuilder", int spare = 4) {
  v1::ObjectState* s = graph->Add();
  s->set_id(id);
  s->set_class_name(cls);
  AddField(s, "coder", "B", ByteValue(0));
  AddField(s, "count", "I", IntValue(static_cast<int>(text.size())));
  AddField(s, "value", "[B", RefValue(id + 100));
  std::vector<v1::Value> bytes;
  for (unsigned char c : text) bytes.push_back(ByteValue(c));
  for (int i = 0; i < spare; ++i) bytes.push_back(ByteValue(0));
  AddArrayState(id + 100, "B", bytes, static_cast<int>(bytes.size()), graph);
}

inline void AddUuid(uint64_t id, int64_t most, int64_t least,
                    google::protobuf::RepeatedPtrField<v1::ObjectState>* graph) {
  v1::ObjectState* s = graph->Add();
  s->set_id(id);
  s->set_class_name("java.util.UUID");
  AddField(s, "leastSigBits", "J", LongValue(least));
  AddField(s, "mostSigBits", "J", LongValue(most));
}

// A BigInteger of sign `signum` and magnitude `mag` (big-endian words).
inline void AddBigInteger(uint64_t id, int signum, const std::vector<int>& mag,
                          google::protobuf::RepeatedPtrField<v1::ObjectState>* graph) {
  v1::ObjectState* s = graph->Add();
  s->set_id(id);
  s->set_class_name("java.math.BigInteger");
  AddField(s, "bitLengthPlusOne", "I", IntValue(0));
  AddField(s, "mag", "[I", RefValue(id + 100));
  AddField(s, "signum", "I", IntValue(signum));
  std::vector<v1::Value> words;
  for (int w : mag) words.push_back(IntValue(w));
  AddArrayState(id + 100, "I", words, static_cast<int>(words.size()), graph);
}

inline void AddBytes(uint64_t id, const std::string& bytes,
                     google::protobuf::RepeatedPtrField<v1::ObjectState>* graph) {
  std::vector<v1::Value> elements;
  for (unsigned char c : bytes) elements.push_back(ByteValue(c));
  AddArrayState(id, "B", elements, static_cast<int>(elements.size()), graph);
}

// A heap ByteBuffer over `hb` (array id + 100) with the window
// [offset, offset + capacity); position 0, limit the capacity.
inline void AddByteBuffer(uint64_t id, const std::string& hb, int offset, int capacity,
                          google::protobuf::RepeatedPtrField<v1::ObjectState>* graph,
                          const std::string& cls = "java.nio.HeapByteBuffer") {
  v1::ObjectState* s = graph->Add();
  s->set_id(id);
  s->set_class_name(cls);
  AddField(s, "capacity", "I", IntValue(capacity));
  AddField(s, "limit", "I", IntValue(capacity));
  AddField(s, "position", "I", IntValue(0));
  AddField(s, "hb", "[B", RefValue(id + 100));
  AddField(s, "offset", "I", IntValue(offset));
  AddBytes(id + 100, hb, graph);
}

// An Inet4Address of `address` (its InetAddressHolder is id + 100).
inline void AddInet4(uint64_t id, uint32_t address, const std::string& host_name,
                     google::protobuf::RepeatedPtrField<v1::ObjectState>* graph) {
  v1::ObjectState* s = graph->Add();
  s->set_id(id);
  s->set_class_name("java.net.Inet4Address");
  AddField(s, "holder", "Ljava/net/InetAddress$InetAddressHolder;", RefValue(id + 100));
  v1::ObjectState* holder = graph->Add();
  holder->set_id(id + 100);
  holder->set_class_name("java.net.InetAddress$InetAddressHolder");
  AddField(holder, "address", "I", IntValue(static_cast<int>(address)));
  AddField(holder, "family", "I", IntValue(1));
  AddField(holder, "hostName", "Ljava/lang/String;", StringValue(host_name));
}

// An Inet6Address of the 16 bytes `address` (its Inet6AddressHolder is
// id + 100, the byte[] id + 200), with scope id `scope` when it is not 0.
inline void AddInet6(uint64_t id, const std::string& address, int scope,
                     google::protobuf::RepeatedPtrField<v1::ObjectState>* graph) {
  v1::ObjectState* s = graph->Add();
  s->set_id(id);
  s->set_class_name("java.net.Inet6Address");
  AddField(s, "holder6", "Ljava/net/Inet6Address$Inet6AddressHolder;", RefValue(id + 100));
  v1::ObjectState* holder = graph->Add();
  holder->set_id(id + 100);
  holder->set_class_name("java.net.Inet6Address$Inet6AddressHolder");
  AddField(holder, "ipaddress", "[B", RefValue(id + 200));
  AddField(holder, "scope_id", "I", IntValue(scope));
  v1::Value set;
  set.set_bool_value(scope != 0);
  AddField(holder, "scope_id_set", "Z", set);
  AddBytes(id + 200, address, graph);
}

}  // namespace tracespec::testing

#endif  // TRACESPEC_TESTS_AGENT_OBSERVATION_BUILDERS_H_

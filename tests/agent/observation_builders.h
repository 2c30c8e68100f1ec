// Small builders for observations in the agent tests: values, and calls of
// bank.Account#deposit(int amount) on an account with a balance, an owner and
// a redacted pin.
#ifndef TRACESPEC_TESTS_AGENT_OBSERVATION_BUILDERS_H_
#define TRACESPEC_TESTS_AGENT_OBSERVATION_BUILDERS_H_

#include <string>

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

}  // namespace tracespec::testing

#endif  // TRACESPEC_TESTS_AGENT_OBSERVATION_BUILDERS_H_

// Observations of a loan class built directly as protos (no JVM): a small
// fixture shared by the protocol unit tests and the end-to-end test.
#ifndef TRACESPEC_TESTS_VALIDATOR_PROTOCOL_LOAN_OBSERVATIONS_H_
#define TRACESPEC_TESTS_VALIDATOR_PROTOCOL_LOAN_OBSERVATIONS_H_

#include <string>
#include <vector>

#include "tracespec/v1/observation.pb.h"

namespace tracespec::testing {

// One abstract loan: the enum field `state` and the boolean `approved`.
struct LoanState {
  std::string state;
  bool approved;
};

// Adds the receiver (id) with its two fields, and the enum constant it refers
// to, to an object graph.
inline void AddLoan(google::protobuf::RepeatedPtrField<v1::ObjectState>* graph, uint64_t id,
                    const LoanState& loan) {
  v1::ObjectState* object = graph->Add();
  object->set_id(id);
  object->set_class_name("bank.Loan");
  v1::Field* approved = object->add_fields();
  approved->set_name("approved");
  approved->set_jvm_type("Z");
  approved->mutable_value()->set_bool_value(loan.approved);
  v1::Field* state = object->add_fields();
  state->set_name("state");
  state->set_jvm_type("Lbank/Loan$State;");
  const uint64_t enum_id = 1000 + id * 10 + loan.state.size();
  state->mutable_value()->set_ref(enum_id);
  v1::ObjectState* constant = graph->Add();
  constant->set_id(enum_id);
  constant->set_class_name("bank.Loan$State");
  v1::Field* name = constant->add_fields();
  name->set_name("name");
  name->set_jvm_type("Ljava/lang/String;");
  name->set_declaring_class("java.lang.Enum");
  name->mutable_value()->set_string_value(loan.state);
}

// A call of `method` on loan `id` in `test`; constructors ("<init>") have no
// pre-state. `thrown` names an exception class when the call threw.
inline v1::Observation LoanCall(const std::string& test, uint64_t sequence, const std::string& method,
                                uint64_t id, const LoanState* pre, const LoanState& post,
                                const std::string& thrown = "") {
  v1::Observation o;
  o.set_format_version(v1::FORMAT_VERSION_1);
  o.set_source(v1::RECORDED);
  o.mutable_method()->set_class_name("bank.Loan");
  o.mutable_method()->set_name(method);
  o.mutable_method()->set_jvm_descriptor("()V");
  o.set_test_id(test);
  o.set_sequence(sequence);
  o.mutable_receiver()->set_ref(id);
  if (pre) AddLoan(o.mutable_pre(), id, *pre);
  AddLoan(o.mutable_post(), id, post);
  if (thrown.empty()) {
    o.mutable_outcome()->mutable_returned_void();
  } else {
    o.mutable_outcome()->mutable_thrown()->set_class_name(thrown);
  }
  return o;
}

// Two tests: a loan submitted, reviewed, sent back, reviewed and approved;
// another whose premature approval throws.
inline std::vector<v1::Observation> LoanObservations() {
  const LoanState fresh{"NEW", false}, submitted{"SUBMITTED", false}, review{"REVIEW", false},
      approved{"APPROVED", true};
  return {
      LoanCall("bank.LoanTest#approves", 1, "<init>", 7, nullptr, fresh),
      LoanCall("bank.LoanTest#approves", 2, "submit", 7, &fresh, submitted),
      LoanCall("bank.LoanTest#approves", 3, "review", 7, &submitted, review),
      LoanCall("bank.LoanTest#approves", 4, "sendBack", 7, &review, submitted),
      LoanCall("bank.LoanTest#approves", 5, "review", 7, &submitted, review),
      LoanCall("bank.LoanTest#approves", 6, "approve", 7, &review, approved),
      LoanCall("bank.LoanTest#early", 1, "<init>", 7, nullptr, fresh),
      LoanCall("bank.LoanTest#early", 2, "submit", 7, &fresh, submitted),
      LoanCall("bank.LoanTest#early", 3, "approve", 7, &submitted, submitted,
               "java.lang.IllegalStateException"),
  };
}

}  // namespace tracespec::testing

#endif  // TRACESPEC_TESTS_VALIDATOR_PROTOCOL_LOAN_OBSERVATIONS_H_

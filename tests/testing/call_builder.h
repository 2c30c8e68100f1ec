// Hand-built observations for the evaluator and synthesizer tests: one
// call of a method with its arguments, receiver state before and after,
// arrays, and the outcome.
#ifndef TRACESPEC_TESTS_TESTING_CALL_BUILDER_H_
#define TRACESPEC_TESTS_TESTING_CALL_BUILDER_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tracespec/v1/observation.pb.h"

namespace tracespec::testing {

inline v1::Value I(int v) {
  v1::Value x;
  x.set_int_value(v);
  return x;
}
inline v1::Value L(int64_t v) {
  v1::Value x;
  x.set_long_value(v);
  return x;
}
inline v1::Value D(double v) {
  v1::Value x;
  x.set_double_value(v);
  return x;
}
inline v1::Value F(float v) {
  v1::Value x;
  x.set_float_value(v);
  return x;
}
inline v1::Value B(bool v) {
  v1::Value x;
  x.set_bool_value(v);
  return x;
}
inline v1::Value C(char16_t v) {
  v1::Value x;
  x.set_char_value(v);
  return x;
}
inline v1::Value S(const std::string& v) {
  v1::Value x;
  x.set_string_value(v);
  return x;
}
inline v1::Value Null() {
  v1::Value x;
  x.mutable_null_value();
  return x;
}
inline v1::Value Ref(uint64_t id) {
  v1::Value x;
  x.set_ref(id);
  return x;
}
inline v1::Value Hidden() {
  v1::Value x;
  x.mutable_redacted();
  return x;
}

// One call. Object ids: the receiver is 1, arrays and objects get 10, 11, ...
class Call {
 public:
  // `descriptor` is the JVM descriptor; `params` the parameter names.
  Call(const std::string& cls, const std::string& name, const std::string& descriptor,
       std::vector<std::string> params, bool is_static) {
    o_.set_format_version(v1::FORMAT_VERSION_1);
    o_.mutable_method()->set_class_name(cls);
    o_.mutable_method()->set_name(name);
    o_.mutable_method()->set_jvm_descriptor(descriptor);
    o_.mutable_method()->set_is_static(is_static);
    for (const auto& p : params) o_.mutable_method()->add_param_names(p);
    o_.set_source(v1::RECORDED);
    o_.set_test_id(cls + "Test#t");
  }

  Call& Arg(const v1::Value& v) {
    *o_.add_args() = v;
    return *this;
  }
  // An int[] argument; `after` (when given) is its post-state content.
  Call& IntArray(const std::vector<int>& before, const std::vector<int>* after = nullptr) {
    uint64_t id = next_id_++;
    AddArray(id, "I", before, o_.add_pre());
    AddArray(id, "I", after ? *after : before, o_.add_post());
    return Arg(Ref(id));
  }
  Call& DoubleArray(const std::vector<double>& values) {
    uint64_t id = next_id_++;
    for (auto* s : {o_.add_pre(), o_.add_post()}) {
      s->set_id(id);
      s->set_class_name("[D");
      s->mutable_array()->set_element_descriptor("D");
      s->mutable_array()->set_length(static_cast<int>(values.size()));
      for (double v : values) *s->mutable_array()->add_elements() = D(v);
    }
    return Arg(Ref(id));
  }
  // The receiver (id 1) of class `cls` with fields (name -> (descriptor, value)).
  using Fields = std::vector<std::pair<std::string, std::pair<std::string, v1::Value>>>;
  Call& Receiver(const Fields& before, const Fields& after) {
    *o_.mutable_receiver() = Ref(1);
    AddObject(1, o_.method().class_name(), before, o_.add_pre());
    AddObject(1, o_.method().class_name(), after, o_.add_post());
    return *this;
  }
  // An object argument of class `cls`.
  Call& Object(const std::string& cls, const Fields& before, const Fields& after) {
    uint64_t id = next_id_++;
    AddObject(id, cls, before, o_.add_pre());
    AddObject(id, cls, after, o_.add_post());
    return Arg(Ref(id));
  }
  Call& Returns(const v1::Value& v) {
    *o_.mutable_outcome()->mutable_returned() = v;
    return *this;
  }
  Call& ReturnsVoid() {
    o_.mutable_outcome()->mutable_returned_void();
    return *this;
  }
  Call& ReturnsIntArray(const std::vector<int>& values) {
    uint64_t id = next_id_++;
    AddArray(id, "I", values, o_.add_post());
    return Returns(Ref(id));
  }
  Call& ReturnsDoubleArray(const std::vector<double>& values) {
    uint64_t id = next_id_++;
    v1::ObjectState* s = o_.add_post();
    s->set_id(id);
    s->set_class_name("[D");
    s->mutable_array()->set_element_descriptor("D");
    s->mutable_array()->set_length(static_cast<int>(values.size()));
    for (double v : values) *s->mutable_array()->add_elements() = D(v);
    return Returns(Ref(id));
  }
  Call& Throws(const std::string& cls) {
    o_.mutable_outcome()->mutable_thrown()->set_class_name(cls);
    return *this;
  }
  Call& Test(const std::string& id) {
    o_.set_test_id(id);
    return *this;
  }
  v1::Observation Build() const { return o_; }
  operator v1::Observation() const { return o_; }

  static void AddArray(uint64_t id, const std::string& elem, const std::vector<int>& values,
                       v1::ObjectState* s) {
    s->set_id(id);
    s->set_class_name("[" + elem);
    s->mutable_array()->set_element_descriptor(elem);
    s->mutable_array()->set_length(static_cast<int>(values.size()));
    for (int v : values) *s->mutable_array()->add_elements() = I(v);
  }
  static void AddObject(uint64_t id, const std::string& cls, const Fields& fields,
                        v1::ObjectState* s) {
    s->set_id(id);
    s->set_class_name(cls);
    for (const auto& [name, typed] : fields) {
      v1::Field* f = s->add_fields();
      f->set_name(name);
      f->set_jvm_type(typed.first);
      *f->mutable_value() = typed.second;
    }
  }

 private:
  v1::Observation o_;
  uint64_t next_id_ = 10;
};

}  // namespace tracespec::testing

#endif  // TRACESPEC_TESTS_TESTING_CALL_BUILDER_H_

// Withholding what differs between the runs; see noninterference.h.
#include "observer/noninterference.h"

#include <algorithm>
#include <map>

#include "observer/summary.h"

namespace tracespec::observer {
namespace {

using States = google::protobuf::RepeatedPtrField<v1::ObjectState>;

// Equality of recorded parts: the same message serializes to the same
// bytes (no maps in these messages).
template <typename M>
bool Same(const M& x, const M& y) {
  return x.SerializeAsString() == y.SerializeAsString();
}

// Compares one aligned observation of A with B's (and C's, when run).
class Comparer {
 public:
  // `has_c`: run C happened; `c` is null where C could not be aligned.
  Comparer(bool has_c, Withheld* counts) : has_c_(has_c), counts_(counts) {}

  void Observation(v1::Observation* a, const v1::Observation& b, const v1::Observation* c) {
    Values(a->mutable_args(), b.args(), c != nullptr ? &c->args() : nullptr);
    if (a->has_receiver() && b.has_receiver()) {
      Value(a->mutable_receiver(), b.receiver(), c != nullptr ? &c->receiver() : nullptr);
    }
    StateList(a->mutable_pre(), b.pre(), c != nullptr ? &c->pre() : nullptr);
    StateList(a->mutable_post(), b.post(), c != nullptr ? &c->post() : nullptr);
    Outcome(a->mutable_outcome(), b.outcome(), c != nullptr ? &c->outcome() : nullptr);
  }

  // Withholds every value of `a` (its test's calls differed).
  void All(v1::Observation* a, const char* reason) {
    for (v1::Value& v : *a->mutable_args()) Withhold(&v, reason);
    if (a->has_receiver()) Withhold(a->mutable_receiver(), reason);
    for (v1::ObjectState& s : *a->mutable_pre()) WithholdState(&s, reason);
    for (v1::ObjectState& s : *a->mutable_post()) WithholdState(&s, reason);
    WithholdOutcome(a->mutable_outcome(), reason);
  }

  // The reason for a difference between A and B, given B's and C's parts.
  template <typename M>
  const char* Reason(const M& b, const M* c) const {
    if (!has_c_) return kDependsOnDenied;
    return c == nullptr || !Same(b, *c) ? kNondeterministic : kDependsOnDenied;
  }

 private:
  void Count(const char* reason) {
    if (reason == kDependsOnDenied) {
      ++counts_->dependent;
    } else {
      ++counts_->nondeterministic;
    }
  }

  void Withhold(v1::Value* v, const char* reason) {
    if (v->has_redacted()) return;  // Withheld already (by the policy).
    v->mutable_redacted()->set_reason(reason);
    Count(reason);
  }

  void WithholdState(v1::ObjectState* s, const char* reason) {
    for (v1::Field& f : *s->mutable_fields()) Withhold(f.mutable_value(), reason);
    if (s->has_array()) {
      for (v1::Value& v : *s->mutable_array()->mutable_elements()) Withhold(&v, reason);
    }
  }

  // The outcome's kind or exception class depends on the secret: what is
  // left says only that a value was withheld.
  void WithholdOutcome(v1::Outcome* o, const char* reason) {
    if (o->has_returned_void()) return;
    if (o->has_returned() && o->returned().has_redacted()) return;
    o->mutable_returned()->mutable_redacted()->set_reason(reason);
    Count(reason);
  }

  void Value(v1::Value* a, const v1::Value& b, const v1::Value* c) {
    if (!Same(*a, b)) Withhold(a, Reason(b, c));
  }

  void Values(google::protobuf::RepeatedPtrField<v1::Value>* a,
              const google::protobuf::RepeatedPtrField<v1::Value>& b,
              const google::protobuf::RepeatedPtrField<v1::Value>* c) {
    bool c_aligned = c != nullptr && c->size() == b.size();
    if (a->size() != b.size()) {
      const char* reason = has_c_ && !c_aligned ? kNondeterministic : kDependsOnDenied;
      for (v1::Value& v : *a) Withhold(&v, reason);
      return;
    }
    for (int i = 0; i < a->size(); ++i) {
      Value(a->Mutable(i), b.Get(i), c_aligned ? &c->Get(i) : nullptr);
    }
  }

  // Same class, same fields, same array length: values can be compared.
  static bool SameShape(const v1::ObjectState& x, const v1::ObjectState& y) {
    if (x.class_name() != y.class_name() || x.fields_size() != y.fields_size() ||
        x.has_array() != y.has_array() || x.truncated() != y.truncated()) {
      return false;
    }
    for (int i = 0; i < x.fields_size(); ++i) {
      if (x.fields(i).name() != y.fields(i).name() ||
          x.fields(i).declaring_class() != y.fields(i).declaring_class()) {
        return false;
      }
    }
    return !x.has_array() || (x.array().length() == y.array().length() &&
                              x.array().elements_size() == y.array().elements_size());
  }

  void State(v1::ObjectState* a, const v1::ObjectState& b, const v1::ObjectState* c) {
    if (!SameShape(*a, b)) {
      WithholdState(a, Reason(b, c));
      return;
    }
    if (c != nullptr && !SameShape(b, *c)) c = nullptr;
    for (int i = 0; i < a->fields_size(); ++i) {
      Value(a->mutable_fields(i)->mutable_value(), b.fields(i).value(),
            c != nullptr ? &c->fields(i).value() : nullptr);
    }
    if (a->has_array()) {
      Values(a->mutable_array()->mutable_elements(), b.array().elements(),
             c != nullptr ? &c->array().elements() : nullptr);
    }
  }

  // The graphs are walked breadth-first in a fixed order, so the k-th
  // object of A's graph is aligned with the k-th of B's.
  void StateList(States* a, const States& b, const States* c) {
    if (c != nullptr && c->size() != b.size()) c = nullptr;
    if (a->size() != b.size()) {
      const char* reason = has_c_ && c == nullptr ? kNondeterministic : kDependsOnDenied;
      for (v1::ObjectState& s : *a) WithholdState(&s, reason);
      return;
    }
    for (int i = 0; i < a->size(); ++i) {
      State(a->Mutable(i), b.Get(i), c != nullptr ? &c->Get(i) : nullptr);
    }
  }

  void Outcome(v1::Outcome* a, const v1::Outcome& b, const v1::Outcome* c) {
    if (a->kind_case() != b.kind_case() ||
        (a->has_thrown() && a->thrown().class_name() != b.thrown().class_name())) {
      const char* reason = Reason(b, c);
      a->clear_kind();
      a->mutable_returned()->mutable_redacted()->set_reason(reason);
      Count(reason);
      return;
    }
    if (a->has_returned()) {
      Value(a->mutable_returned(), b.returned(),
            c != nullptr && c->has_returned() ? &c->returned() : nullptr);
    } else if (a->has_thrown() && !Same(a->thrown(), b.thrown())) {
      // Same class, another message: the message is dropped.
      a->mutable_thrown()->clear_message();
      a->mutable_thrown()->set_has_message(false);
      Count(Reason(b.thrown(), c != nullptr && c->has_thrown() ? &c->thrown() : nullptr));
    }
  }

  bool has_c_;
  Withheld* counts_;
};

// One run's observations per test id, each in call order.
std::map<std::string, std::vector<const v1::Observation*>> ByTest(
    const std::vector<v1::Observation>& all) {
  std::map<std::string, std::vector<const v1::Observation*>> out;
  for (const v1::Observation& o : all) out[o.test_id()].push_back(&o);
  for (auto& [test, calls] : out) {
    std::stable_sort(calls.begin(), calls.end(),
                     [](const v1::Observation* x, const v1::Observation* y) {
                       return x->sequence() < y->sequence();
                     });
  }
  return out;
}

bool SameCalls(const std::vector<const v1::Observation*>& x,
               const std::vector<const v1::Observation*>& y) {
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    if (MethodLabel(x[i]->method()) != MethodLabel(y[i]->method()) ||
        x[i]->recursion_depth() != y[i]->recursion_depth()) {
      return false;
    }
  }
  return true;
}

}  // namespace

Withheld WithholdDifferences(std::vector<v1::Observation>* a,
                             const std::vector<v1::Observation>& b,
                             const std::vector<v1::Observation>* c) {
  Withheld counts;
  Comparer comparer(c != nullptr, &counts);
  auto a_tests = ByTest(*a);
  auto b_tests = ByTest(b);
  std::map<std::string, std::vector<const v1::Observation*>> c_tests;
  if (c != nullptr) c_tests = ByTest(*c);
  static const std::vector<const v1::Observation*> kNone;
  for (auto& [test, a_calls] : a_tests) {
    auto b_it = b_tests.find(test);
    const auto& b_calls = b_it != b_tests.end() ? b_it->second : kNone;
    auto c_it = c_tests.find(test);
    const auto& c_calls = c_it != c_tests.end() ? c_it->second : kNone;
    bool c_aligned = c != nullptr && SameCalls(b_calls, c_calls);
    if (!SameCalls(a_calls, b_calls)) {
      // Control flow depends on the secret (or on chance): the whole test.
      const char* reason = c != nullptr && !c_aligned ? kNondeterministic : kDependsOnDenied;
      for (const v1::Observation* o : a_calls) {
        // ByTest points into `a`, which the caller gave us to change.
        comparer.All(const_cast<v1::Observation*>(o), reason);
      }
      counts.tests.push_back(test);
      continue;
    }
    for (size_t i = 0; i < a_calls.size(); ++i) {
      comparer.Observation(const_cast<v1::Observation*>(a_calls[i]), *b_calls[i],
                           c_aligned ? c_calls[i] : nullptr);
    }
  }
  return counts;
}

}  // namespace tracespec::observer

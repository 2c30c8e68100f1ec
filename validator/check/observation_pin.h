// Pinning symbolic inputs and heaps to the values one recorded observation
// holds: the determinism queries of MeasureStrength, and the differential
// test of the two JML evaluators (coverage's concrete one, consistency's
// lowering). Internal to validator/check.
#ifndef TRACESPEC_VALIDATOR_CHECK_OBSERVATION_PIN_H_
#define TRACESPEC_VALIDATOR_CHECK_OBSERVATION_PIN_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tracespec/v1/observation.pb.h"
#include "validator/symex/machine.h"
#include "z3++.h"

namespace tracespec::check {

// Observation object id -> the symbolic reference standing for it.
using PinnedIds = std::map<uint64_t, z3::expr>;

// An array element of a recorded post-state (subject to the frame like a
// field).
struct PinnedElement {
  z3::expr array;
  int index;
  std::string descriptor;  // of the array: "[I"
};

class ObservationPin {
 public:
  explicit ObservationPin(symex::Machine& machine) : machine_(machine), ops_(machine.ops()) {}

  // `term` (of JVM type `descriptor`) equals the recorded `v` in `heap`. A
  // reference is mapped to the observation's object id (a new id is bound
  // to it; a known one must be the same reference). A string is a non-null
  // reference whose characters in `heap` are the recorded text (see Text).
  // Redacted values are left free.
  z3::expr Value(const symex::Heap& heap, const z3::expr& term, const v1::Value& v,
                 const std::string& descriptor, PinnedIds* ids);

  // `ref` is a string whose characters in `heap` are `text`: its length
  // and each UTF-16 unit.
  z3::expr Text(const symex::Heap& heap, const z3::expr& ref, const std::string& text);

  // The recorded fields or elements of `state` at `ref` in `heap`.
  // `locations` (when given) receives the fields of a post-state, all
  // subject to the frame; `elements` (when given, with `locations`) its
  // array elements.
  z3::expr Object(const symex::Heap& heap, const z3::expr& ref, const v1::ObjectState& state,
                  PinnedIds* ids,
                  std::vector<std::pair<z3::expr, const symex::FieldInfo*>>* locations = nullptr,
                  std::vector<PinnedElement>* elements = nullptr);

  // The entry's receiver and arguments, and the objects reachable from them
  // in the observation's pre-state (breadth first), in the entry heap.
  z3::expr Entry(const symex::EntryState& entry, const symex::MethodInfo& method,
                 const v1::Observation& o, PinnedIds* ids);

  // Different ids are different objects.
  z3::expr Distinct(const PinnedIds& ids) const;

  // A heap where every instance field and array element holds a fresh
  // value named after `prefix` (a post-state for the observation's).
  symex::Heap FreshHeap(const symex::Heap& entry, const std::string& prefix) const;

 private:
  symex::Machine& machine_;
  const symex::JavaOps& ops_;
};

}  // namespace tracespec::check

#endif  // TRACESPEC_VALIDATOR_CHECK_OBSERVATION_PIN_H_

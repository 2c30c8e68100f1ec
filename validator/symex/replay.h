// Java drivers that replay a counterexample on a real JVM: a replacement
// org.sosy_lab.sv_benchmarks.Verifier that returns the recorded inputs in
// order, or a class whose main builds the pre-state of an observation (by
// reflection, without running constructors) and calls the method.
#ifndef TRACESPEC_VALIDATOR_SYMEX_REPLAY_H_
#define TRACESPEC_VALIDATOR_SYMEX_REPLAY_H_

#include <string>
#include <vector>

#include "tracespec/v1/observation.pb.h"
#include "validator/symex/verify.h"

namespace tracespec::symex {

// A Java expression for a primitive value given its descriptor and raw bits.
std::string JavaLiteral(const std::string& descriptor, uint64_t bits);

// Source of the replacement Verifier class (package org.sosy_lab.sv_benchmarks).
std::string HarnessDriver(const std::vector<InputValue>& inputs);

// A static field to set before the call.
struct StaticSetting {
  std::string owner;  // binary class name
  std::string name;
  std::string descriptor;
  uint64_t bits = 0;     // primitives
  uint64_t object = 0;   // references: the object's id in the observation, 0 for null
};

// Source of class `driver_class` (default package) replaying `observation`.
std::string MethodDriver(const tracespec::v1::Observation& observation,
                         const std::vector<StaticSetting>& statics,
                         const std::string& driver_class);

}  // namespace tracespec::symex

#endif  // TRACESPEC_VALIDATOR_SYMEX_REPLAY_H_

// The substituted run of `observe --noninterference`: every field a deny
// pattern names is replaced, just before each read, by a substitute of the
// same shape, so that the observer can compare what the tests recorded with
// and without the secret (observer/noninterference.h). The substitution
// uses JVMTI field access watches in a JVMTI environment of its own: its
// object tags must not disturb the recorder's, which are the object ids
// written into observations and compared between the runs.
//
// Substitutes are deterministic in (seed, original value)
// (substitute_value.h):
// - text (String, char[]): same length; ASCII upper-case letters, lower-case
//   letters and digits stay in their class with another value; other ASCII
//   characters are kept (they are the text's shape); characters beyond ASCII
//   move within their block of 256 code units; surrogates are kept;
// - byte, short, char, int, long (and their arrays, element by element):
//   same type, another value;
// - float, double: another value (NaN stays NaN);
// - boolean (and boolean[]): flipped;
// - java.util.UUID: another UUID of the same version and variant;
// - java.net.InetAddress: another address of the same family (every byte
//   changed), its host name, when it has one, substituted as text, an IPv6
//   scope id kept;
// - other reference types (objects, Object[]) and null are not substituted.
#ifndef TRACESPEC_OBSERVER_PROBE_SUBSTITUTE_H_
#define TRACESPEC_OBSERVER_PROBE_SUBSTITUTE_H_

#include <jni.h>

#include <cstdint>
#include <string>

#include "tracespec/v1/probe.pb.h"

namespace tracespec::probe {

// With config.substitute_denied(): adds a JVMTI environment of `vm` that
// watches denied fields as their classes are prepared and substitutes them.
// Called from Agent_OnLoad; false with *error set when the JVM refuses.
bool InstallSubstitution(JavaVM* vm, const v1::ProbeConfig& config, std::string* error);
// Values substituted so far.
uint64_t Substitutions();

}  // namespace tracespec::probe

#endif  // TRACESPEC_OBSERVER_PROBE_SUBSTITUTE_H_

// The substituted run of `observe --noninterference`: every field a deny
// pattern names is replaced, just before each read, by a substitute of the
// same shape, so that the observer can compare what the tests recorded with
// and without the secret (observer/noninterference.h). As each class
// outside the JDK, JUnit and tracespec loads, every getfield/getstatic of
// a field some deny pattern names is routed through the hooks class
// (ClassFile::RedirectFieldReads); the first time such a read runs, the
// field it reads is resolved, and when that field is denied in a class a
// record rule covers, its value is substituted before each read. Not JVMTI
// field access watches: while any is set, HotSpot runs every thread in
// the interpreter (interp-only mode), which made the substituted run 2-3x
// slower than the plain one. Reads by native code through JNI and through
// reflection, method handles or Unsafe are not routed. The substitution
// has a JVMTI environment of its own: its object tags must not disturb the
// recorder's, which are the object ids written into observations and
// compared between the runs.
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
#include <functional>
#include <string>
#include <string_view>

#include "observer/probe/class_file.h"
#include "tracespec/v1/probe.pb.h"

namespace tracespec::probe {

// With config.substitute_denied(): adds a JVMTI environment of `vm` that
// routes the reads of denied fields as classes load; a class whose reads
// cannot be routed goes to `report_error` (the run then fails). Called
// from Agent_OnLoad; false with *error set when the JVM refuses.
bool InstallSubstitution(JavaVM* vm, const v1::ProbeConfig& config,
                         std::function<void(const std::string&)> report_error,
                         std::string* error);
// The hooks class's readDenied: before routed read `id` reads its field of
// `receiver` (null for a static field) through the class `owner` its
// instruction names, substitutes the field's value if it is denied.
void BeforeDeniedRead(JNIEnv* env, jobject receiver, jclass owner, jint id);
// Before the probe itself reads denied instance field `field` (declared
// by class `declaring`, a binary name) of `object` — the taint set takes
// its value —, substitutes it as a routed read would: the probe sees what
// the program will. A no-op outside the substituted run.
void BeforeProbeRead(JNIEnv* env, jobject object, jfieldID field, const std::string& declaring,
                     const std::string& name, const std::string& descriptor);
// Classes whose fields and constants are never substituted: the JDK, the
// test machinery and tracespec's own ("java.util.HashMap"; binary names).
bool UntouchedClass(std::string_view binary_name);
// For a class-file hook: parses class `name` (internal name, as JVMTI
// gives it) into *cls and sets *binary to its binary name, unless the
// class is untouched or does not parse (the JVM will say why).
bool ParseTouchedClass(const char* name, const unsigned char* data, jint length, ClassFile* cls,
                       std::string* binary);
// Values substituted so far (constants count once per class that loads
// them).
uint64_t Substitutions();
// Counts a value substituted outside the routed reads (a denied
// environment variable or system property, at JVM start); the first
// substitution leaves the marker file. Only after InstallSubstitution.
void CountSubstitution();

}  // namespace tracespec::probe

#endif  // TRACESPEC_OBSERVER_PROBE_SUBSTITUTE_H_

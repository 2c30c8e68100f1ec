// Denied fields replaced by same-shape substitutes; see substitute.h.
#include "observer/probe/substitute.h"

#include <jvmti.h>

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <string_view>
#include <utility>
#include <vector>

#include "observer/probe/snapshot.h"
#include "observer/probe/substitute_value.h"

namespace tracespec::probe {
namespace {

// Tag (in the substitution's own JVMTI environment) of an object the probe
// made as a substitute: it is never substituted again.
constexpr jlong kSubstituteTag = jlong{1} << 62;

// Classes whose fields are never substituted, whatever the record rules
// say: the JDK and the test machinery (a `*key*` pattern matches
// HashMap$Node.key; substituting it would break the run, not test it).
constexpr std::string_view kUntouchedPrefixes[] = {
    "java.", "javax.", "jdk.", "sun.", "com.sun.", "org.junit.", "org.opentest4j.",
    "org.apiguardian.", "tracespec."};

struct State {
  jvmtiEnv* jvmti = nullptr;
  uint64_t seed = 0;
  const PolicyView* policy = nullptr;
  std::mutex mutex;
  // Kind (descriptor letter or '[' + element letter) of each watched field.
  std::map<jfieldID, std::string> watched;
  // The substitute last written into a primitive field, per (owner tag,
  // field): a read that finds it there finds no secret.
  std::map<std::pair<jlong, jfieldID>, uint64_t> written;
  jlong next_tag = 1;
  std::atomic<uint64_t> substitutions{0};
};
State* g_state = nullptr;

// Tag of the object (or class, for static fields) owning a field.
jlong OwnerTag(jobject owner) {
  jlong tag = 0;
  g_state->jvmti->GetTag(owner, &tag);
  if (tag == 0) {
    std::lock_guard<std::mutex> lock(g_state->mutex);
    g_state->jvmti->GetTag(owner, &tag);
    if (tag == 0) {
      tag = g_state->next_tag++;
      g_state->jvmti->SetTag(owner, tag);
    }
  }
  return tag;
}

uint64_t ReadPrimitive(JNIEnv* env, jobject object, jclass klass, jfieldID field, char kind) {
  bool is_static = object == nullptr;
  switch (kind) {
    case 'Z': return is_static ? env->GetStaticBooleanField(klass, field) : env->GetBooleanField(object, field);
    case 'B': return static_cast<uint8_t>(is_static ? env->GetStaticByteField(klass, field) : env->GetByteField(object, field));
    case 'C': return is_static ? env->GetStaticCharField(klass, field) : env->GetCharField(object, field);
    case 'S': return static_cast<uint16_t>(is_static ? env->GetStaticShortField(klass, field) : env->GetShortField(object, field));
    case 'I': return static_cast<uint32_t>(is_static ? env->GetStaticIntField(klass, field) : env->GetIntField(object, field));
    case 'J': return static_cast<uint64_t>(is_static ? env->GetStaticLongField(klass, field) : env->GetLongField(object, field));
    case 'F': {
      jfloat f = is_static ? env->GetStaticFloatField(klass, field) : env->GetFloatField(object, field);
      uint32_t bits;
      std::memcpy(&bits, &f, sizeof bits);
      return bits;
    }
    case 'D': {
      jdouble d = is_static ? env->GetStaticDoubleField(klass, field) : env->GetDoubleField(object, field);
      uint64_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      return bits;
    }
    default: return 0;
  }
}

// The substitute of a primitive of kind `kind`, as bits like ReadPrimitive.
uint64_t SubstitutePrimitive(char kind, uint64_t bits) {
  uint64_t seed = g_state->seed;
  switch (kind) {
    case 'Z': return bits == 0 ? 1 : 0;
    case 'B': return SubstituteIntegral(seed, bits, 8);
    case 'C':
    case 'S': return SubstituteIntegral(seed, bits, 16);
    case 'I': return SubstituteIntegral(seed, bits, 32);
    case 'J': return SubstituteIntegral(seed, bits, 64);
    case 'F': {
      float f;
      uint32_t narrow = static_cast<uint32_t>(bits);
      std::memcpy(&f, &narrow, sizeof f);
      f = static_cast<float>(SubstituteFloating(seed, f));
      std::memcpy(&narrow, &f, sizeof f);
      return narrow;
    }
    case 'D': {
      double d;
      std::memcpy(&d, &bits, sizeof d);
      d = SubstituteFloating(seed, d);
      std::memcpy(&bits, &d, sizeof d);
      return bits;
    }
    default: return bits;
  }
}

void WritePrimitive(JNIEnv* env, jobject object, jclass klass, jfieldID field, char kind,
                    uint64_t bits) {
  bool is_static = object == nullptr;
  switch (kind) {
    case 'Z': is_static ? env->SetStaticBooleanField(klass, field, static_cast<jboolean>(bits)) : env->SetBooleanField(object, field, static_cast<jboolean>(bits)); break;
    case 'B': is_static ? env->SetStaticByteField(klass, field, static_cast<jbyte>(bits)) : env->SetByteField(object, field, static_cast<jbyte>(bits)); break;
    case 'C': is_static ? env->SetStaticCharField(klass, field, static_cast<jchar>(bits)) : env->SetCharField(object, field, static_cast<jchar>(bits)); break;
    case 'S': is_static ? env->SetStaticShortField(klass, field, static_cast<jshort>(bits)) : env->SetShortField(object, field, static_cast<jshort>(bits)); break;
    case 'I': is_static ? env->SetStaticIntField(klass, field, static_cast<jint>(bits)) : env->SetIntField(object, field, static_cast<jint>(bits)); break;
    case 'J': is_static ? env->SetStaticLongField(klass, field, static_cast<jlong>(bits)) : env->SetLongField(object, field, static_cast<jlong>(bits)); break;
    case 'F': {
      uint32_t narrow = static_cast<uint32_t>(bits);
      jfloat f;
      std::memcpy(&f, &narrow, sizeof f);
      is_static ? env->SetStaticFloatField(klass, field, f) : env->SetFloatField(object, field, f);
      break;
    }
    case 'D': {
      jdouble d;
      std::memcpy(&d, &bits, sizeof d);
      is_static ? env->SetStaticDoubleField(klass, field, d) : env->SetDoubleField(object, field, d);
      break;
    }
    default: break;
  }
}

// Element-wise substitute of a primitive array; null for other arrays.
template <typename T, typename A>
jobject SubstituteArray(JNIEnv* env, jarray array, char kind, A (JNIEnv::*make)(jsize),
                        void (JNIEnv::*get)(A, jsize, jsize, T*),
                        void (JNIEnv::*set)(A, jsize, jsize, const T*)) {
  jsize length = env->GetArrayLength(array);
  std::vector<T> elements(static_cast<size_t>(length));
  (env->*get)(static_cast<A>(array), 0, length, elements.data());
  // Each element's substitute depends on the whole array and its index.
  uint64_t element_seed = SubstituteHash(g_state->seed, elements.data(), elements.size() * sizeof(T));
  for (size_t i = 0; i < elements.size(); ++i) {
    uint64_t bits = 0;
    std::memcpy(&bits, &elements[i], sizeof(T));
    uint64_t seed = SubstituteMix(element_seed + i);
    switch (kind) {
      case 'Z': bits = bits == 0 ? 1 : 0; break;
      case 'B': bits = SubstituteIntegral(seed, bits, 8); break;
      case 'C':
      case 'S': bits = SubstituteIntegral(seed, bits, 16); break;
      case 'I': bits = SubstituteIntegral(seed, bits, 32); break;
      case 'J': bits = SubstituteIntegral(seed, bits, 64); break;
      case 'F': {
        float f;
        std::memcpy(&f, &bits, sizeof f);
        f = static_cast<float>(SubstituteFloating(seed, f));
        std::memcpy(&bits, &f, sizeof f);
        break;
      }
      case 'D': {
        double d;
        std::memcpy(&d, &bits, sizeof d);
        d = SubstituteFloating(seed, d);
        std::memcpy(&bits, &d, sizeof d);
        break;
      }
      default: break;
    }
    std::memcpy(&elements[i], &bits, sizeof(T));
  }
  A out = (env->*make)(length);
  if (out == nullptr) return nullptr;
  (env->*set)(out, 0, length, elements.data());
  return out;
}

// True, with the exception cleared, when the last JNI call threw.
bool Threw(JNIEnv* env) {
  if (!env->ExceptionCheck()) return false;
  env->ExceptionClear();
  return true;
}

// A UUID of the same version and variant (SubstituteUuid), made with the
// public constructor from the public getters' longs; null when that fails.
jobject SubstituteUuidObject(JNIEnv* env, jobject value, jclass uuid_class) {
  jmethodID most = env->GetMethodID(uuid_class, "getMostSignificantBits", "()J");
  if (Threw(env) || most == nullptr) return nullptr;
  jmethodID least = env->GetMethodID(uuid_class, "getLeastSignificantBits", "()J");
  if (Threw(env) || least == nullptr) return nullptr;
  jmethodID make = env->GetMethodID(uuid_class, "<init>", "(JJ)V");
  if (Threw(env) || make == nullptr) return nullptr;
  auto m = static_cast<uint64_t>(env->CallLongMethod(value, most));
  auto l = static_cast<uint64_t>(env->CallLongMethod(value, least));
  if (Threw(env)) return nullptr;
  auto [new_most, new_least] = SubstituteUuid(g_state->seed, m, l);
  jobject out = env->NewObject(uuid_class, make, static_cast<jlong>(new_most),
                               static_cast<jlong>(new_least));
  return Threw(env) ? nullptr : out;
}

// An address of the same family (SubstituteAddress) with the host name,
// when the original has one, substituted as text, and an IPv6 scope id
// kept; null when that fails. The host name is read from toString()
// ("host/address"), which, unlike getHostName(), never looks it up.
jobject SubstituteAddressObject(JNIEnv* env, jobject value, jclass inet_class) {
  jmethodID get_address = env->GetMethodID(inet_class, "getAddress", "()[B");
  if (Threw(env) || get_address == nullptr) return nullptr;
  jmethodID to_string = env->GetMethodID(inet_class, "toString", "()Ljava/lang/String;");
  if (Threw(env) || to_string == nullptr) return nullptr;
  auto bytes = static_cast<jbyteArray>(env->CallObjectMethod(value, get_address));
  if (Threw(env) || bytes == nullptr) return nullptr;
  auto text = static_cast<jstring>(env->CallObjectMethod(value, to_string));
  if (Threw(env) || text == nullptr) return nullptr;
  std::vector<uint8_t> address(static_cast<size_t>(env->GetArrayLength(bytes)));
  env->GetByteArrayRegion(bytes, 0, static_cast<jsize>(address.size()),
                          reinterpret_cast<jbyte*>(address.data()));
  std::vector<uint8_t> substitute = SubstituteAddress(g_state->seed, address);
  jbyteArray new_bytes = env->NewByteArray(static_cast<jsize>(substitute.size()));
  if (Threw(env) || new_bytes == nullptr) return nullptr;
  env->SetByteArrayRegion(new_bytes, 0, static_cast<jsize>(substitute.size()),
                          reinterpret_cast<const jbyte*>(substitute.data()));

  std::vector<jchar> units(static_cast<size_t>(env->GetStringLength(text)));
  env->GetStringRegion(text, 0, static_cast<jsize>(units.size()), units.data());
  size_t slash = units.size();
  while (slash > 0 && units[slash - 1] != '/') --slash;
  jstring host = nullptr;
  if (slash > 1) {  // "host/address": a host name of slash - 1 chars
    std::vector<jchar> name =
        SubstituteText(g_state->seed, {units.begin(), units.begin() + (slash - 1)});
    host = env->NewString(name.data(), static_cast<jsize>(name.size()));
    if (Threw(env)) return nullptr;
  }

  jclass inet6 = env->FindClass("java/net/Inet6Address");
  if (Threw(env) || inet6 == nullptr) return nullptr;
  jint scope = 0;
  if (env->IsInstanceOf(value, inet6)) {
    jmethodID scope_id = env->GetMethodID(inet6, "getScopeId", "()I");
    if (Threw(env) || scope_id == nullptr) return nullptr;
    scope = env->CallIntMethod(value, scope_id);
    if (Threw(env)) return nullptr;
  }
  jobject out;
  if (scope != 0) {
    jmethodID make = env->GetStaticMethodID(inet6, "getByAddress",
                                            "(Ljava/lang/String;[BI)Ljava/net/Inet6Address;");
    if (Threw(env) || make == nullptr) return nullptr;
    out = env->CallStaticObjectMethod(inet6, make, host, new_bytes, scope);
  } else {
    jmethodID make = env->GetStaticMethodID(inet_class, "getByAddress",
                                            "(Ljava/lang/String;[B)Ljava/net/InetAddress;");
    if (Threw(env) || make == nullptr) return nullptr;
    out = env->CallStaticObjectMethod(inet_class, make, host, new_bytes);
  }
  return Threw(env) ? nullptr : out;
}

// The substitute of a String, UUID, InetAddress or primitive array, or
// null when `value` has no substitute (other objects).
jobject SubstituteReference(JNIEnv* env, jobject value, jclass string_class) {
  jclass uuid_class = env->FindClass("java/util/UUID");
  if (Threw(env)) return nullptr;
  if (uuid_class != nullptr && env->IsInstanceOf(value, uuid_class)) {
    return SubstituteUuidObject(env, value, uuid_class);
  }
  jclass inet_class = env->FindClass("java/net/InetAddress");
  if (Threw(env)) return nullptr;
  if (inet_class != nullptr && env->IsInstanceOf(value, inet_class)) {
    return SubstituteAddressObject(env, value, inet_class);
  }
  if (env->IsInstanceOf(value, string_class)) {
    auto string = static_cast<jstring>(value);
    std::vector<jchar> text(static_cast<size_t>(env->GetStringLength(string)));
    env->GetStringRegion(string, 0, static_cast<jsize>(text.size()), text.data());
    std::vector<jchar> out = SubstituteText(g_state->seed, text);
    return env->NewString(out.data(), static_cast<jsize>(out.size()));
  }
  jclass cls = env->GetObjectClass(value);
  char* signature = nullptr;
  std::string sig;
  if (g_state->jvmti->GetClassSignature(cls, &signature, nullptr) == JVMTI_ERROR_NONE) {
    sig = signature;
    g_state->jvmti->Deallocate(reinterpret_cast<unsigned char*>(signature));
  }
  env->DeleteLocalRef(cls);
  if (sig.size() != 2 || sig[0] != '[') return nullptr;
  auto array = static_cast<jarray>(value);
  switch (sig[1]) {
    case 'C': {
      std::vector<jchar> text(static_cast<size_t>(env->GetArrayLength(array)));
      env->GetCharArrayRegion(static_cast<jcharArray>(array), 0,
                              static_cast<jsize>(text.size()), text.data());
      std::vector<jchar> out = SubstituteText(g_state->seed, text);
      jcharArray result = env->NewCharArray(static_cast<jsize>(out.size()));
      if (result != nullptr) {
        env->SetCharArrayRegion(result, 0, static_cast<jsize>(out.size()), out.data());
      }
      return result;
    }
    case 'Z': return SubstituteArray<jboolean>(env, array, 'Z', &JNIEnv::NewBooleanArray, &JNIEnv::GetBooleanArrayRegion, &JNIEnv::SetBooleanArrayRegion);
    case 'B': return SubstituteArray<jbyte>(env, array, 'B', &JNIEnv::NewByteArray, &JNIEnv::GetByteArrayRegion, &JNIEnv::SetByteArrayRegion);
    case 'S': return SubstituteArray<jshort>(env, array, 'S', &JNIEnv::NewShortArray, &JNIEnv::GetShortArrayRegion, &JNIEnv::SetShortArrayRegion);
    case 'I': return SubstituteArray<jint>(env, array, 'I', &JNIEnv::NewIntArray, &JNIEnv::GetIntArrayRegion, &JNIEnv::SetIntArrayRegion);
    case 'J': return SubstituteArray<jlong>(env, array, 'J', &JNIEnv::NewLongArray, &JNIEnv::GetLongArrayRegion, &JNIEnv::SetLongArrayRegion);
    case 'F': return SubstituteArray<jfloat>(env, array, 'F', &JNIEnv::NewFloatArray, &JNIEnv::GetFloatArrayRegion, &JNIEnv::SetFloatArrayRegion);
    case 'D': return SubstituteArray<jdouble>(env, array, 'D', &JNIEnv::NewDoubleArray, &JNIEnv::GetDoubleArrayRegion, &JNIEnv::SetDoubleArrayRegion);
    default: return nullptr;
  }
}

void JNICALL OnFieldAccess(jvmtiEnv*, JNIEnv* env, jthread, jmethodID, jlocation,
                           jclass field_klass, jobject object, jfieldID field) {
  // Reading the field here goes through JNI, which raises this event again.
  thread_local bool busy = false;
  if (busy) return;
  busy = true;
  std::string kind;
  {
    std::lock_guard<std::mutex> lock(g_state->mutex);
    auto it = g_state->watched.find(field);
    if (it != g_state->watched.end()) kind = it->second;
  }
  if (kind.empty()) {
    busy = false;
    return;
  }
  bool is_static = object == nullptr;
  if (kind[0] != 'L' && kind[0] != '[') {
    uint64_t bits = ReadPrimitive(env, object, field_klass, field, kind[0]);
    std::pair<jlong, jfieldID> key(OwnerTag(is_static ? field_klass : object), field);
    bool substitute;
    {
      std::lock_guard<std::mutex> lock(g_state->mutex);
      auto it = g_state->written.find(key);
      substitute = it == g_state->written.end() || it->second != bits;
    }
    if (substitute) {
      uint64_t out = SubstitutePrimitive(kind[0], bits);
      WritePrimitive(env, object, field_klass, field, kind[0], out);
      std::lock_guard<std::mutex> lock(g_state->mutex);
      g_state->written[key] = out;
      ++g_state->substitutions;
    }
    busy = false;
    return;
  }
  jobject value = is_static ? env->GetStaticObjectField(field_klass, field)
                            : env->GetObjectField(object, field);
  jlong tag = 0;
  if (value != nullptr) g_state->jvmti->GetTag(value, &tag);
  if (value != nullptr && tag != kSubstituteTag) {
    jclass string_class = env->FindClass("java/lang/String");
    // The local references the substitute's making creates are freed with
    // this frame; only the substitute leaves it.
    jobject out = nullptr;
    if (string_class != nullptr && env->PushLocalFrame(32) == JNI_OK) {
      out = env->PopLocalFrame(SubstituteReference(env, value, string_class));
    }
    if (out != nullptr) {
      g_state->jvmti->SetTag(out, kSubstituteTag);
      if (is_static) {
        env->SetStaticObjectField(field_klass, field, out);
      } else {
        env->SetObjectField(object, field, out);
      }
      ++g_state->substitutions;
      env->DeleteLocalRef(out);
    }
    if (env->ExceptionCheck()) env->ExceptionClear();  // E.g. out of memory.
    if (string_class != nullptr) env->DeleteLocalRef(string_class);
  }
  if (value != nullptr) env->DeleteLocalRef(value);
  busy = false;
}

std::string BinaryName(const char* signature) {
  std::string_view sig(signature);
  if (sig.size() < 2 || sig.front() != 'L') return std::string(sig);
  std::string name(sig.substr(1, sig.size() - 2));
  for (char& c : name) c = c == '/' ? '.' : c;
  return name;
}

void JNICALL OnClassPrepare(jvmtiEnv* jvmti, JNIEnv*, jthread, jclass klass) {
  char* signature = nullptr;
  if (jvmti->GetClassSignature(klass, &signature, nullptr) != JVMTI_ERROR_NONE) return;
  std::string name = BinaryName(signature);
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(signature));
  for (std::string_view prefix : kUntouchedPrefixes) {
    if (name.compare(0, prefix.size(), prefix) == 0) return;
  }
  if (g_state->policy->RuleFor(name) == nullptr) return;
  jint count = 0;
  jfieldID* fields = nullptr;
  if (jvmti->GetClassFields(klass, &count, &fields) != JVMTI_ERROR_NONE) return;
  for (jint i = 0; i < count; ++i) {
    char* field_name = nullptr;
    char* descriptor = nullptr;
    if (jvmti->GetFieldName(klass, fields[i], &field_name, &descriptor, nullptr) !=
        JVMTI_ERROR_NONE) {
      continue;
    }
    if (g_state->policy->Denied(field_name, descriptor, name) &&
        jvmti->SetFieldAccessWatch(klass, fields[i]) == JVMTI_ERROR_NONE) {
      std::lock_guard<std::mutex> lock(g_state->mutex);
      g_state->watched[fields[i]] = descriptor[0] == '[' ? std::string(descriptor, 2)
                                                         : std::string(1, descriptor[0]);
    }
    jvmti->Deallocate(reinterpret_cast<unsigned char*>(field_name));
    jvmti->Deallocate(reinterpret_cast<unsigned char*>(descriptor));
  }
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(fields));
}

}  // namespace

bool InstallSubstitution(JavaVM* vm, const v1::ProbeConfig& config, std::string* error) {
  g_state = new State;
  g_state->seed = config.substitution_seed();
  g_state->policy = new PolicyView(config.policy());
  if (vm->GetEnv(reinterpret_cast<void**>(&g_state->jvmti), JVMTI_VERSION_11) != JNI_OK) {
    *error = "JVMTI 11 is not available for the substituted run";
    return false;
  }
  jvmtiCapabilities caps{};
  caps.can_tag_objects = 1;
  caps.can_generate_field_access_events = 1;
  if (g_state->jvmti->AddCapabilities(&caps) != JVMTI_ERROR_NONE) {
    *error = "the JVM refused field access events, which the substituted run needs";
    return false;
  }
  jvmtiEventCallbacks callbacks{};
  callbacks.ClassPrepare = &OnClassPrepare;
  callbacks.FieldAccess = &OnFieldAccess;
  g_state->jvmti->SetEventCallbacks(&callbacks, sizeof callbacks);
  g_state->jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_CLASS_PREPARE, nullptr);
  g_state->jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_FIELD_ACCESS, nullptr);
  return true;
}

uint64_t Substitutions() { return g_state == nullptr ? 0 : g_state->substitutions.load(); }

}  // namespace tracespec::probe

// Denied fields replaced by same-shape substitutes; see substitute.h.
#include "observer/probe/substitute.h"

#include <jvmti.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "common/utf8.h"
#include "observer/probe/class_file.h"
#include "observer/probe/concat_recipe.h"
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

// A field read routed through the hooks (readDenied), by the id its
// accessor passes.
struct ReadSite {
  FieldRead read;
  // Descriptor letter, or '[' + element letter.
  std::string kind;
  bool resolved = false;
  bool denied = false;
  jfieldID field = nullptr;
  jclass declaring = nullptr;  // a global reference
};

struct State {
  jvmtiEnv* jvmti = nullptr;
  uint64_t seed = 0;
  const PolicyView* policy = nullptr;
  std::mutex mutex;
  // The routed reads (ClassFile::RedirectFieldReads), by id.
  std::vector<std::unique_ptr<ReadSite>> sites;
  std::function<void(const std::string&)> report_error;
  // ProbeConfig.substitute_constants, and the substitutes put in their
  // place (text as UTF-8; numbers): a denied field holding one holds no
  // secret, and substituting it again could give characters of the secret
  // back.
  std::set<uint64_t> constants;
  std::set<std::string> constant_texts;
  std::set<int64_t> constant_numbers;
  // ProbeConfig.substituted_marker_path, created at the first substitution.
  std::string marker_path;
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

// Whether `text` is the substitute of a constant (a String, or a char[]
// made from one): substituting it again could give characters of the
// original back.
bool IsConstantSubstitute(const std::vector<jchar>& text) {
  std::lock_guard<std::mutex> lock(g_state->mutex);
  return !g_state->constant_texts.empty() &&
         g_state->constant_texts.count(Utf16ToUtf8(text.data(), text.size())) != 0;
}

// The substitute of a String, UUID, InetAddress or primitive array, or
// null when `value` has no substitute (other objects), or one that is a
// constant's substitute already.
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
    if (IsConstantSubstitute(text)) return nullptr;
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
      if (IsConstantSubstitute(text)) return nullptr;
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

// What SubstituteField needs of a field descriptor: its letter, or '[' and
// the element's letter.
std::string SubstitutionKind(std::string_view descriptor) {
  return std::string(descriptor.substr(0, descriptor[0] == '[' ? 2 : 1));
}

// Counts a substitution; the first one leaves the marker file.
void Substituted() {
  if (g_state->substitutions++ == 0 && !g_state->marker_path.empty()) {
    std::FILE* marker = std::fopen(g_state->marker_path.c_str(), "w");
    if (marker != nullptr) std::fclose(marker);
  }
}

// Substitutes the denied field `field` of `object` (null: a static field of
// `declaring`) unless it holds a substitute already.
void SubstituteField(JNIEnv* env, jobject object, jclass declaring, jfieldID field,
                     const std::string& kind) {
  bool is_static = object == nullptr;
  if (kind[0] != 'L' && kind[0] != '[') {
    uint64_t bits = ReadPrimitive(env, object, declaring, field, kind[0]);
    std::pair<jlong, jfieldID> key(OwnerTag(is_static ? declaring : object), field);
    bool substitute;
    {
      std::lock_guard<std::mutex> lock(g_state->mutex);
      auto it = g_state->written.find(key);
      substitute = it == g_state->written.end() || it->second != bits;
      if (kind[0] == 'I' || kind[0] == 'J' || kind[0] == 'S') {
        int64_t value = kind[0] == 'I'   ? static_cast<int32_t>(static_cast<uint32_t>(bits))
                        : kind[0] == 'S' ? static_cast<int16_t>(static_cast<uint16_t>(bits))
                                         : static_cast<int64_t>(bits);
        substitute = substitute && g_state->constant_numbers.count(value) == 0;
      }
    }
    if (substitute) {
      uint64_t out = SubstitutePrimitive(kind[0], bits);
      WritePrimitive(env, object, declaring, field, kind[0], out);
      std::lock_guard<std::mutex> lock(g_state->mutex);
      g_state->written[key] = out;
      Substituted();
    }
    return;
  }
  jobject value = is_static ? env->GetStaticObjectField(declaring, field)
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
        env->SetStaticObjectField(declaring, field, out);
      } else {
        env->SetObjectField(object, field, out);
      }
      Substituted();
      env->DeleteLocalRef(out);
    }
    if (env->ExceptionCheck()) env->ExceptionClear();  // E.g. out of memory.
    if (string_class != nullptr) env->DeleteLocalRef(string_class);
  }
  if (value != nullptr) env->DeleteLocalRef(value);
}

std::string BinaryName(const char* signature) {
  std::string_view sig(signature);
  if (sig.size() < 2 || sig.front() != 'L') return std::string(sig);
  std::string name(sig.substr(1, sig.size() - 2));
  for (char& c : name) c = c == '/' ? '.' : c;
  return name;
}

// Which field a routed read reads, once its class is known: the JNI field
// id and the declaring class, and whether that field is substituted —
// denied by name in a class a record rule covers, outside the JDK, JUnit
// and tracespec (decided on the declaring class, as the field instruction
// may name a subclass). Resolves `site` on the read's first run; an
// exception (a missing field, a failing static initializer) stays pending
// and is thrown by the read, and the site stays unresolved.
bool Resolve(JNIEnv* env, jclass owner, ReadSite* site) {
  const FieldRead& read = site->read;
  jfieldID field = read.is_static
                       ? env->GetStaticFieldID(owner, read.name.c_str(), read.descriptor.c_str())
                       : env->GetFieldID(owner, read.name.c_str(), read.descriptor.c_str());
  if (field == nullptr || env->ExceptionCheck()) return false;
  jclass declaring = nullptr;
  char* signature = nullptr;
  if (g_state->jvmti->GetFieldDeclaringClass(owner, field, &declaring) != JVMTI_ERROR_NONE ||
      g_state->jvmti->GetClassSignature(declaring, &signature, nullptr) != JVMTI_ERROR_NONE) {
    // Fail closed: the run reports it and stops.
    g_state->report_error("cannot tell which class declares " + read.owner + "." + read.name);
    return false;
  }
  std::string name = BinaryName(signature);
  g_state->jvmti->Deallocate(reinterpret_cast<unsigned char*>(signature));
  bool denied = !UntouchedClass(name) && g_state->policy->RuleFor(name) != nullptr &&
                g_state->policy->Denied(read.name, read.descriptor, name);
  std::lock_guard<std::mutex> lock(g_state->mutex);
  if (!site->resolved) {
    site->resolved = true;
    site->denied = denied;
    site->field = field;
    site->declaring = static_cast<jclass>(env->NewGlobalRef(declaring));
  }
  env->DeleteLocalRef(declaring);
  return true;
}

void JNICALL OnClassFileLoad(jvmtiEnv* jvmti, JNIEnv*, jclass, jobject, const char* name,
                             jobject, jint length, const unsigned char* data,
                             jint* new_length, unsigned char** new_data) {
  ClassFile cls;
  std::string binary;
  if (!ParseTouchedClass(name, data, length, &cls, &binary)) return;
  std::string error;
  // Every read of a field some deny pattern names is routed; whether the
  // field it reads is substituted is decided when it runs (Resolve).
  auto hook_id = [](const FieldRead& read) -> int {
    std::string owner = read.owner;
    for (char& c : owner) c = c == '/' ? '.' : c;
    if (UntouchedClass(owner) || !g_state->policy->Denied(read.name, read.descriptor, owner)) {
      return -1;
    }
    std::lock_guard<std::mutex> lock(g_state->mutex);
    g_state->sites.push_back(std::make_unique<ReadSite>());
    g_state->sites.back()->read = read;
    g_state->sites.back()->kind = SubstitutionKind(read.descriptor);
    return static_cast<int>(g_state->sites.size() - 1);
  };
  int rewritten = 0;
  if (!cls.RedirectFieldReads(hook_id, &rewritten, &error)) {
    g_state->report_error("cannot route the denied field reads of " + binary + ": " + error);
    return;
  }
  if (!g_state->constants.empty()) {
    for (PoolConstant c : cls.LoadableConstants()) {
      uint64_t key = c.kind == 'S' ? ConstantKey(std::string_view(ModifiedUtf8ToUtf8(c.text)))
                                   : ConstantKey(c.value);
      if (g_state->constants.count(key) == 0) continue;
      if (c.kind == 'S') {
        c.text = SubstituteModifiedUtf8(g_state->seed, c.text);
        std::lock_guard<std::mutex> lock(g_state->mutex);
        g_state->constant_texts.insert(ModifiedUtf8ToUtf8(c.text));
      } else {
        int bits = c.kind == 'I' ? 32 : 64;
        uint64_t value = SubstituteIntegral(g_state->seed, static_cast<uint64_t>(c.value), bits);
        c.value = bits == 32 ? static_cast<int32_t>(static_cast<uint32_t>(value))
                             : static_cast<int64_t>(value);
        std::lock_guard<std::mutex> lock(g_state->mutex);
        g_state->constant_numbers.insert(c.value);
      }
      if (!cls.ReplaceConstant(c)) {
        // Fail closed: the run reports it and stops.
        g_state->report_error("cannot substitute a constant of " + binary +
                              " (its constant pool is full)");
        return;
      }
      ++rewritten;
      Substituted();
    }
    // Literals folded into string concatenations are held in their recipes.
    auto denied_text = [](std::string_view piece) {
      return g_state->constants.count(
                 ConstantKey(std::string_view(ModifiedUtf8ToUtf8(std::string(piece))))) != 0;
    };
    auto denied_number = [](int64_t value) {
      return g_state->constants.count(ConstantKey(value)) != 0;
    };
    for (PoolConstant recipe : cls.ConcatRecipes()) {
      RecipeSubstitution substitution =
          SubstituteRecipe(g_state->seed, recipe.text, denied_text, denied_number);
      if (!substitution.changed()) continue;
      {
        std::lock_guard<std::mutex> lock(g_state->mutex);
        for (const std::string& text : substitution.texts) {
          g_state->constant_texts.insert(ModifiedUtf8ToUtf8(text));
        }
        g_state->constant_numbers.insert(substitution.numbers.begin(),
                                         substitution.numbers.end());
      }
      recipe.text = std::move(substitution.recipe);
      if (!cls.ReplaceConcatRecipe(recipe)) {
        g_state->report_error("cannot substitute a literal of a string concatenation of " +
                              binary + " (its constant pool is full)");
        return;
      }
      ++rewritten;
      Substituted();
    }
    // Numbers of 16 bits are held in the code (sipush), not the pool.
    int shorts = cls.ReplaceShortImmediates([](int16_t value) -> std::optional<int16_t> {
      if (g_state->constants.count(ConstantKey(int64_t{value})) == 0) return std::nullopt;
      auto out = static_cast<int16_t>(static_cast<uint16_t>(
          SubstituteIntegral(g_state->seed, static_cast<uint16_t>(value), 16)));
      {
        std::lock_guard<std::mutex> lock(g_state->mutex);
        g_state->constant_numbers.insert(out);
      }
      Substituted();
      return out;
    });
    if (shorts < 0) {
      g_state->report_error("cannot substitute the constants in the code of " + binary);
      return;
    }
    rewritten += shorts;
  }
  if (rewritten == 0) return;
  std::string bytes = cls.Serialize();
  unsigned char* out = nullptr;
  if (jvmti->Allocate(static_cast<jlong>(bytes.size()), &out) != JVMTI_ERROR_NONE) {
    g_state->report_error("out of memory routing the denied field reads of " + binary);
    return;
  }
  std::memcpy(out, bytes.data(), bytes.size());
  *new_length = static_cast<jint>(bytes.size());
  *new_data = out;
}

}  // namespace

bool UntouchedClass(std::string_view binary_name) {
  for (std::string_view prefix : kUntouchedPrefixes) {
    if (binary_name.compare(0, prefix.size(), prefix) == 0) return true;
  }
  return false;
}

bool ParseTouchedClass(const char* name, const unsigned char* data, jint length, ClassFile* cls,
                       std::string* binary) {
  if (name == nullptr) return false;
  *binary = name;
  for (char& c : *binary) c = c == '/' ? '.' : c;
  if (UntouchedClass(*binary)) return false;
  std::string error;
  return cls->Parse(data, static_cast<size_t>(length), &error);
}

bool InstallSubstitution(JavaVM* vm, const v1::ProbeConfig& config,
                         std::function<void(const std::string&)> report_error,
                         std::string* error) {
  g_state = new State;
  g_state->seed = config.substitution_seed();
  g_state->policy = new PolicyView(config.policy());
  g_state->report_error = std::move(report_error);
  g_state->marker_path = config.substituted_marker_path();
  g_state->constants.insert(config.substitute_constants().begin(),
                            config.substitute_constants().end());
  if (vm->GetEnv(reinterpret_cast<void**>(&g_state->jvmti), JVMTI_VERSION_11) != JNI_OK) {
    *error = "JVMTI 11 is not available for the substituted run";
    return false;
  }
  jvmtiCapabilities caps{};
  caps.can_tag_objects = 1;
  if (g_state->jvmti->AddCapabilities(&caps) != JVMTI_ERROR_NONE) {
    *error = "the JVM refused object tags, which the substituted run needs";
    return false;
  }
  jvmtiEventCallbacks callbacks{};
  callbacks.ClassFileLoadHook = &OnClassFileLoad;
  g_state->jvmti->SetEventCallbacks(&callbacks, sizeof callbacks);
  g_state->jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK,
                                           nullptr);
  return true;
}

void BeforeDeniedRead(JNIEnv* env, jobject receiver, jclass owner, jint id) {
  if (g_state == nullptr || id < 0) return;
  ReadSite* site;
  {
    std::lock_guard<std::mutex> lock(g_state->mutex);
    if (static_cast<size_t>(id) >= g_state->sites.size()) return;
    site = g_state->sites[static_cast<size_t>(id)].get();
  }
  // Resolving may run a static initializer that reads denied fields: no
  // lock is held meanwhile.
  bool resolved;
  {
    std::lock_guard<std::mutex> lock(g_state->mutex);
    resolved = site->resolved;
  }
  if (!resolved && !Resolve(env, owner, site)) return;
  // A null receiver: the read itself throws the NullPointerException.
  if (!site->denied || (!site->read.is_static && receiver == nullptr)) return;
  SubstituteField(env, site->read.is_static ? nullptr : receiver, site->declaring, site->field,
                  site->kind);
}

void BeforeProbeRead(JNIEnv* env, jobject object, jfieldID field, const std::string& declaring,
                     const std::string& name, const std::string& descriptor) {
  if (g_state == nullptr || object == nullptr || UntouchedClass(declaring) ||
      g_state->policy->RuleFor(declaring) == nullptr ||
      !g_state->policy->Denied(name, descriptor, declaring)) {
    return;
  }
  SubstituteField(env, object, nullptr, field, SubstitutionKind(descriptor));
}

uint64_t Substitutions() { return g_state == nullptr ? 0 : g_state->substitutions.load(); }

void CountSubstitution() {
  if (g_state != nullptr) Substituted();
}

}  // namespace tracespec::probe

// Object graphs under the redaction policy; see snapshot.h.
#include "observer/probe/snapshot.h"

#include <algorithm>

#include "common/deny_rule.h"
#include "common/glob.h"
#include "common/utf8.h"
#include "observer/probe/class_file.h"
#include "observer/probe/substitute.h"

namespace tracespec::probe {
namespace {

// A graph stops growing here; further objects are recorded by identity.
constexpr size_t kMaxObjectsPerGraph = 10000;

// Instances of these classes (and subclasses) are recorded by identity only:
// their fields lead into the runtime itself, never into program state.
constexpr const char* kOpaqueClasses[] = {"java/lang/Class", "java/lang/ClassLoader",
                                          "java/lang/Thread", "java/lang/ThreadGroup"};

constexpr jint kStaticModifier = 0x0008;

std::string BinaryName(const char* signature) {
  std::string_view sig(signature);
  if (sig.size() >= 2 && sig.front() == 'L' && sig.back() == ';') {
    std::string name(sig.substr(1, sig.size() - 2));
    std::replace(name.begin(), name.end(), '/', '.');
    return name;
  }
  return std::string(sig);  // Array descriptor (or primitive class).
}

}  // namespace

namespace {

bool IsJdkClass(std::string_view binary_name) {
  for (std::string_view prefix : {"java.", "javax.", "jdk.", "sun.", "com.sun."}) {
    if (binary_name.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

}  // namespace

bool PolicyView::Denied(std::string_view name, std::string_view descriptor,
                        std::string_view owner) const {
  if (IsJdkClass(owner)) return false;
  for (const std::string& pattern : policy_.deny()) {
    if (DenyRuleApplies(pattern, name, descriptor)) return true;
  }
  return false;
}

bool PolicyView::DeniedUnlessDisclosed(std::string_view name, std::string_view descriptor,
                                       std::string_view owner) const {
  if (IsJdkClass(owner)) return false;
  bool denied = false;
  for (const std::string& pattern : policy_.deny()) {
    if (!DenyRuleApplies(pattern, name, descriptor)) continue;
    if (!tracespec::DeniedUnlessDisclosed(pattern, name, descriptor)) return false;
    denied = true;
  }
  return denied;
}

const v1::RecordRule* PolicyView::RuleFor(std::string_view class_name) const {
  for (const v1::RecordRule& rule : policy_.record()) {
    if (GlobMatch(rule.class_pattern(), class_name)) return &rule;
  }
  return nullptr;
}

bool PolicyView::RuleRecordsField(const v1::RecordRule& rule, std::string_view field) {
  if (rule.fields().empty()) return true;
  for (const std::string& pattern : rule.fields()) {
    if (GlobMatch(pattern, field)) return true;
  }
  return false;
}

std::string ReadString(JNIEnv* env, jstring string, int max_chars) {
  jsize length = env->GetStringLength(string);
  if (max_chars > 0 && length > max_chars) length = max_chars;
  jchar stack_buffer[256];
  std::vector<jchar> heap_buffer;
  jchar* chars = stack_buffer;
  if (length > 256) {
    heap_buffer.resize(length);
    chars = heap_buffer.data();
  }
  env->GetStringRegion(string, 0, length, chars);
  return Utf16ToUtf8(chars, static_cast<size_t>(length));
}

bool Heap::Init(JNIEnv* env) {
  jclass string_class = env->FindClass("java/lang/String");
  if (string_class == nullptr) return false;
  string_class_ = static_cast<jclass>(env->NewGlobalRef(string_class));
  for (const char* name : kOpaqueClasses) {
    jclass cls = env->FindClass(name);
    if (cls == nullptr) return false;
    opaque_classes_.push_back(static_cast<jclass>(env->NewGlobalRef(cls)));
  }
  jclass throwable = env->FindClass("java/lang/Throwable");
  if (throwable == nullptr) return false;
  detail_message_ = env->GetFieldID(throwable, "detailMessage", "Ljava/lang/String;");
  if (detail_message_ == nullptr) {
    env->ExceptionClear();
    return false;
  }
  return true;
}

uint64_t Heap::IdOf(jobject object) {
  jlong tag = 0;
  jvmti_->GetTag(object, &tag);
  if (tag != 0) return static_cast<uint64_t>(tag);
  std::lock_guard<std::mutex> lock(mutex_);
  jvmti_->GetTag(object, &tag);  // Another thread may have won.
  if (tag == 0) {
    tag = static_cast<jlong>(next_id_++);
    jvmti_->SetTag(object, tag);
  }
  return static_cast<uint64_t>(tag);
}

const ClassInfo* Heap::ClassOf(JNIEnv* env, jobject object) {
  thread_local std::unordered_map<uint64_t, const ClassInfo*> cache;
  jclass cls = env->GetObjectClass(object);
  uint64_t class_id = IdOf(cls);
  auto hit = cache.find(class_id);
  if (hit != cache.end()) {
    env->DeleteLocalRef(cls);
    return hit->second;
  }
  ClassInfo* info = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = classes_.find(class_id);
    if (it != classes_.end()) info = it->second;
  }
  if (info == nullptr) {
    ClassInfo* built = Build(env, cls);
    std::lock_guard<std::mutex> lock(mutex_);
    auto [it, inserted] = classes_.emplace(class_id, built);
    if (!inserted) delete built;
    info = it->second;
  }
  env->DeleteLocalRef(cls);
  cache.emplace(class_id, info);
  return info;
}

ClassInfo* Heap::Build(JNIEnv* env, jclass cls) {
  auto* info = new ClassInfo;
  char* signature = nullptr;
  if (jvmti_->GetClassSignature(cls, &signature, nullptr) != JVMTI_ERROR_NONE) {
    info->kind = ClassInfo::kOpaque;
    info->name = "<unknown>";
    return info;
  }
  info->name = BinaryName(signature);
  bool is_array = signature[0] == '[';
  if (is_array) {
    info->element_descriptor = signature + 1;
    info->element_kind = KindOf(info->element_descriptor);
  }
  jvmti_->Deallocate(reinterpret_cast<unsigned char*>(signature));
  if (is_array) {
    info->kind = ClassInfo::kArray;
    return info;
  }
  if (env->IsSameObject(cls, string_class_)) {
    info->kind = ClassInfo::kString;
    return info;
  }
  for (jclass opaque : opaque_classes_) {
    if (env->IsAssignableFrom(cls, opaque)) {
      info->kind = ClassInfo::kOpaque;
      return info;
    }
  }
  const v1::RecordRule* rule = policy_.RuleFor(info->name);
  if (rule == nullptr) return info;
  info->recorded = true;

  // Own fields first, then each superclass's.
  jclass current = static_cast<jclass>(env->NewLocalRef(cls));
  while (current != nullptr) {
    std::string declaring;
    if (!env->IsSameObject(current, cls)) {
      char* sig = nullptr;
      if (jvmti_->GetClassSignature(current, &sig, nullptr) == JVMTI_ERROR_NONE) {
        declaring = BinaryName(sig);
        jvmti_->Deallocate(reinterpret_cast<unsigned char*>(sig));
      }
    }
    jint count = 0;
    jfieldID* fields = nullptr;
    if (jvmti_->GetClassFields(current, &count, &fields) == JVMTI_ERROR_NONE) {
      for (jint i = 0; i < count; ++i) {
        jint modifiers = 0;
        jvmti_->GetFieldModifiers(current, fields[i], &modifiers);
        if (modifiers & kStaticModifier) continue;
        char* name = nullptr;
        char* descriptor = nullptr;
        if (jvmti_->GetFieldName(current, fields[i], &name, &descriptor, nullptr) !=
            JVMTI_ERROR_NONE) {
          continue;
        }
        FieldInfo field;
        field.id = fields[i];
        field.name = name;
        field.descriptor = descriptor;
        field.declaring_class = declaring;
        field.kind = KindOf(field.descriptor);
        jvmti_->Deallocate(reinterpret_cast<unsigned char*>(name));
        jvmti_->Deallocate(reinterpret_cast<unsigned char*>(descriptor));
        if (!PolicyView::RuleRecordsField(*rule, field.name)) continue;
        field.denied =
            policy_.Denied(field.name, field.descriptor, declaring.empty() ? info->name : declaring);
        if (field.denied) {
          std::lock_guard<std::mutex> lock(mutex_);
          withheld_.insert((declaring.empty() ? info->name : declaring) + "." + field.name);
          if (policy_.omit()) continue;
        }
        info->fields.push_back(std::move(field));
      }
      jvmti_->Deallocate(reinterpret_cast<unsigned char*>(fields));
    }
    jclass super = env->GetSuperclass(current);
    env->DeleteLocalRef(current);
    current = super;
  }
  std::stable_sort(info->fields.begin(), info->fields.end(),
                   [](const FieldInfo& a, const FieldInfo& b) {
                     if (a.declaring_class != b.declaring_class) {
                       return a.declaring_class < b.declaring_class;
                     }
                     return a.name < b.name;
                   });
  return info;
}

void Heap::TaintPrimitive(char kind, jvalue value) {
  switch (kind) {
    case 'B': taint_.AddIntegral(value.b); break;
    case 'C': taint_.AddIntegral(value.c); break;
    case 'S': taint_.AddIntegral(value.s); break;
    case 'I': taint_.AddIntegral(value.i); break;
    case 'J': taint_.AddIntegral(value.j); break;
    case 'F': taint_.AddFloating(value.f); break;
    case 'D': taint_.AddFloating(value.d); break;
    default: break;  // Booleans are never distinctive.
  }
}

void Heap::TaintReference(JNIEnv* env, jobject object) {
  if (object == nullptr) return;
  const ClassInfo* info = ClassOf(env, object);
  if (info->kind == ClassInfo::kString) {
    taint_.AddString(ReadString(env, static_cast<jstring>(object), /*max_chars=*/0));
    return;
  }
  if (info->kind != ClassInfo::kArray) return;
  auto array = static_cast<jarray>(object);
  jsize length = env->GetArrayLength(array);
  if (info->element_kind == 'C') {
    std::vector<jchar> chars(static_cast<size_t>(length));
    env->GetCharArrayRegion(static_cast<jcharArray>(array), 0, length, chars.data());
    taint_.AddString(Utf16ToUtf8(chars.data(), chars.size()));
  } else if (info->element_kind == 'B') {
    std::string bytes(static_cast<size_t>(length), '\0');
    env->GetByteArrayRegion(static_cast<jbyteArray>(array), 0, length,
                            reinterpret_cast<jbyte*>(bytes.data()));
    taint_.AddString(bytes);
  }
}

std::vector<std::string> Heap::WithheldFields() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> out(withheld_.begin(), withheld_.end());
  std::sort(out.begin(), out.end());
  return out;
}

GraphBuilder::GraphBuilder(Heap& heap, JNIEnv* env,
                           google::protobuf::RepeatedPtrField<v1::ObjectState>* out)
    : heap_(heap), env_(env), out_(out), policy_(heap.policy().policy()) {}

void GraphBuilder::Reference(jobject object, int distance, v1::Value* out) {
  if (object == nullptr) {
    out->mutable_null_value();
    return;
  }
  const ClassInfo* info = heap_.ClassOf(env_, object);
  if (info->kind == ClassInfo::kString) {
    out->set_string_value(
        ReadString(env_, static_cast<jstring>(object), policy_.max_string_length()));
    return;
  }
  uint64_t id = heap_.IdOf(object);
  out->set_ref(id);
  if (seen_.insert(id).second) queue_.push_back({object, id, distance});
}

void GraphBuilder::Run() {
  while (next_ < queue_.size()) {
    Pending p = queue_[next_++];
    Record(p.object, p.id, p.distance);
  }
}

void GraphBuilder::Record(jobject object, uint64_t id, int distance) {
  const ClassInfo* info = heap_.ClassOf(env_, object);
  v1::ObjectState* state = out_->Add();
  state->set_id(id);
  state->set_class_name(info->name);
  bool too_far = distance >= policy_.max_depth() ||
                 static_cast<size_t>(out_->size()) > kMaxObjectsPerGraph;
  if (too_far || info->kind == ClassInfo::kOpaque ||
      (info->kind == ClassInfo::kPlain && !info->recorded)) {
    state->set_truncated(true);
    return;
  }
  if (info->kind == ClassInfo::kArray) {
    RecordArray(object, *info, distance, state);
    return;
  }
  for (const FieldInfo& field : info->fields) {
    v1::Field* out = state->add_fields();
    out->set_name(field.name);
    out->set_jvm_type(field.descriptor);
    if (!field.declaring_class.empty()) out->set_declaring_class(field.declaring_class);
    v1::Value* value = out->mutable_value();
    if (field.denied) {
      value->mutable_redacted();  // The value is read only into the taint set.
      BeforeProbeRead(env_, object, field.id,
                      field.declaring_class.empty() ? info->name : field.declaring_class,
                      field.name, field.descriptor);
      TaintField(object, field);
      continue;
    }
    switch (field.kind) {
      case 'Z': value->set_bool_value(env_->GetBooleanField(object, field.id)); break;
      case 'B': value->set_byte_value(env_->GetByteField(object, field.id)); break;
      case 'C': value->set_char_value(env_->GetCharField(object, field.id)); break;
      case 'S': value->set_short_value(env_->GetShortField(object, field.id)); break;
      case 'I': value->set_int_value(env_->GetIntField(object, field.id)); break;
      case 'J': value->set_long_value(env_->GetLongField(object, field.id)); break;
      case 'F': value->set_float_value(env_->GetFloatField(object, field.id)); break;
      case 'D': value->set_double_value(env_->GetDoubleField(object, field.id)); break;
      default: Reference(env_->GetObjectField(object, field.id), distance + 1, value); break;
    }
  }
}

void GraphBuilder::TaintField(jobject object, const FieldInfo& field) {
  jvalue v{};
  switch (field.kind) {
    case 'Z': return;
    case 'B': v.b = env_->GetByteField(object, field.id); break;
    case 'C': v.c = env_->GetCharField(object, field.id); break;
    case 'S': v.s = env_->GetShortField(object, field.id); break;
    case 'I': v.i = env_->GetIntField(object, field.id); break;
    case 'J': v.j = env_->GetLongField(object, field.id); break;
    case 'F': v.f = env_->GetFloatField(object, field.id); break;
    case 'D': v.d = env_->GetDoubleField(object, field.id); break;
    default: {
      jobject ref = env_->GetObjectField(object, field.id);
      heap_.TaintReference(env_, ref);
      if (ref != nullptr) env_->DeleteLocalRef(ref);
      return;
    }
  }
  heap_.TaintPrimitive(field.kind, v);
}

namespace {

// Copies the first `count` elements of a primitive array with one JNI call.
template <typename T, typename ArrayType, typename Set>
void CopyPrimitives(JNIEnv* env, jarray array, jsize count,
                    void (JNIEnv::*get)(ArrayType, jsize, jsize, T*), Set set,
                    google::protobuf::RepeatedPtrField<v1::Value>* out) {
  T stack_buffer[64];
  std::vector<T> heap_buffer;
  T* buffer = stack_buffer;
  if (count > 64) {
    heap_buffer.resize(static_cast<size_t>(count));
    buffer = heap_buffer.data();
  }
  (env->*get)(static_cast<ArrayType>(array), 0, count, buffer);
  for (jsize i = 0; i < count; ++i) set(out->Add(), buffer[i]);
}

}  // namespace

void GraphBuilder::RecordArray(jobject object, const ClassInfo& info, int distance,
                               v1::ObjectState* state) {
  auto array = static_cast<jarray>(object);
  jsize length = env_->GetArrayLength(array);
  jsize count = std::min<jsize>(length, policy_.max_array_length());
  v1::ArrayContents* contents = state->mutable_array();
  contents->set_element_descriptor(info.element_descriptor);
  contents->set_length(length);
  auto* elements = contents->mutable_elements();
  elements->Reserve(count);
  switch (info.element_kind) {
    case 'Z':
      CopyPrimitives(env_, array, count, &JNIEnv::GetBooleanArrayRegion,
                     [](v1::Value* v, jboolean x) { v->set_bool_value(x != 0); }, elements);
      break;
    case 'B':
      CopyPrimitives(env_, array, count, &JNIEnv::GetByteArrayRegion,
                     [](v1::Value* v, jbyte x) { v->set_byte_value(x); }, elements);
      break;
    case 'C':
      CopyPrimitives(env_, array, count, &JNIEnv::GetCharArrayRegion,
                     [](v1::Value* v, jchar x) { v->set_char_value(x); }, elements);
      break;
    case 'S':
      CopyPrimitives(env_, array, count, &JNIEnv::GetShortArrayRegion,
                     [](v1::Value* v, jshort x) { v->set_short_value(x); }, elements);
      break;
    case 'I':
      CopyPrimitives(env_, array, count, &JNIEnv::GetIntArrayRegion,
                     [](v1::Value* v, jint x) { v->set_int_value(x); }, elements);
      break;
    case 'J':
      CopyPrimitives(env_, array, count, &JNIEnv::GetLongArrayRegion,
                     [](v1::Value* v, jlong x) { v->set_long_value(x); }, elements);
      break;
    case 'F':
      CopyPrimitives(env_, array, count, &JNIEnv::GetFloatArrayRegion,
                     [](v1::Value* v, jfloat x) { v->set_float_value(x); }, elements);
      break;
    case 'D':
      CopyPrimitives(env_, array, count, &JNIEnv::GetDoubleArrayRegion,
                     [](v1::Value* v, jdouble x) { v->set_double_value(x); }, elements);
      break;
    default:
      for (jsize i = 0; i < count; ++i) {
        jobject element = env_->GetObjectArrayElement(static_cast<jobjectArray>(array), i);
        Reference(element, distance + 1, elements->Add());
      }
      break;
  }
}

}  // namespace tracespec::probe

// Reading Java objects into tracespec.v1 values and object graphs, as the
// redaction policy projects them. Only JNI field/array accessors are used:
// no Java code runs, so recording cannot re-enter the program. A field
// whose name the policy denies is never written: its value is read only
// into the in-memory taint set (taint.h).
#ifndef TRACESPEC_OBSERVER_PROBE_SNAPSHOT_H_
#define TRACESPEC_OBSERVER_PROBE_SNAPSHOT_H_

#include <jni.h>
#include <jvmti.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tracespec/v1/observation.pb.h"
#include "observer/probe/taint.h"
#include "tracespec/v1/policy.pb.h"

namespace tracespec::probe {

// The policy's decisions, answered by name.
class PolicyView {
 public:
  explicit PolicyView(const v1::RedactionPolicy& policy) : policy_(policy) {}
  const v1::RedactionPolicy& policy() const { return policy_; }
  // Whether a value named `name` (a field, parameter, or method for its
  // result) of JVM type `descriptor`, declared by class `owner` (binary
  // name), is withheld: some deny rule applies to it (common/deny_rule.h:
  // an exact name withholds any type; `*key*` withholds `apiKey` and a
  // `String key` but not `monkey`, an `int key` or `keyIndex`). Fields of the
  // JDK's own classes (HashMap.Node.key, AbstractMap.keySet) are never
  // withheld by name: their names are not the user's.
  bool Denied(std::string_view name, std::string_view descriptor, std::string_view owner) const;
  // Whether every deny rule that withholds such a value does so only for
  // want of evidence (common/deny_rule.h, DeniedUnlessDisclosed: a String
  // named just `key`): the probe records a parameter's or result's value
  // when the tests disclose it (Recorder::TestLiteral) and withholds it
  // otherwise. False when the value is not denied at all.
  bool DeniedUnlessDisclosed(std::string_view name, std::string_view descriptor,
                             std::string_view owner) const;
  // The first record rule matching a binary class name, or null.
  const v1::RecordRule* RuleFor(std::string_view class_name) const;
  static bool RuleRecordsField(const v1::RecordRule& rule, std::string_view field);
  bool omit() const { return policy_.redaction() == v1::OMIT; }

 private:
  const v1::RedactionPolicy& policy_;
};

struct FieldInfo {
  jfieldID id = nullptr;
  std::string name;
  std::string descriptor;
  // Binary name of the declaring class when it is a superclass.
  std::string declaring_class;
  char kind = 'L';
  // Denied by the policy: written as Redacted, never read.
  bool denied = false;
};

struct ClassInfo {
  enum Kind { kPlain, kString, kArray, kOpaque };
  Kind kind = kPlain;
  // Binary name ("pkg.Account") or array descriptor ("[I").
  std::string name;
  std::string element_descriptor;
  char element_kind = 0;
  // A record rule matched: `fields` are written.
  bool recorded = false;
  // Sorted by (declaring_class, name).
  std::vector<FieldInfo> fields;
};

// Class metadata and object identities shared by every thread. Object ids
// are JVMTI tags, so an object keeps its id for the whole run.
class Heap {
 public:
  Heap(jvmtiEnv* jvmti, const PolicyView& policy) : jvmti_(jvmti), policy_(policy) {}
  // Caches the JDK classes the walker needs; false on failure.
  bool Init(JNIEnv* env);

  uint64_t IdOf(jobject object);
  // Metadata of the object's class (built once per class).
  const ClassInfo* ClassOf(JNIEnv* env, jobject object);
  // "class.field" of every field the policy withheld so far, sorted.
  std::vector<std::string> WithheldFields();

  const PolicyView& policy() const { return policy_; }
  jfieldID detail_message() const { return detail_message_; }

  // Values read from denied locations (memory only; see taint.h).
  TaintSet& taint() { return taint_; }
  // Adds a denied primitive of kind `kind` (JVM descriptor letter).
  void TaintPrimitive(char kind, jvalue value);
  // Adds a denied reference: a String, or the text of a char[] or byte[]
  // (other objects are not followed).
  void TaintReference(JNIEnv* env, jobject object);

 private:
  ClassInfo* Build(JNIEnv* env, jclass cls);

  jvmtiEnv* jvmti_;
  const PolicyView& policy_;
  jclass string_class_ = nullptr;
  std::vector<jclass> opaque_classes_;
  jfieldID detail_message_ = nullptr;

  std::mutex mutex_;
  uint64_t next_id_ = 1;
  std::unordered_map<uint64_t, ClassInfo*> classes_;
  std::unordered_set<std::string> withheld_;
  TaintSet taint_;
};

// Reads a java.lang.String (cut to `max_chars` UTF-16 units when > 0).
std::string ReadString(JNIEnv* env, jstring string, int max_chars);

// Builds one object graph (the pre- or the post-state of a call): values
// that refer to objects get the object's id, and each object reached is
// recorded once, breadth-first, to the policy's depth.
class GraphBuilder {
 public:
  GraphBuilder(Heap& heap, JNIEnv* env,
               google::protobuf::RepeatedPtrField<v1::ObjectState>* out);
  // Writes the Value for a reference found at `distance` hops from a root
  // (0 for receivers, arguments and return values) and schedules the object.
  void Reference(jobject object, int distance, v1::Value* out);
  // Records every scheduled object.
  void Run();

 private:
  void Record(jobject object, uint64_t id, int distance);
  // Reads a denied field into the taint set.
  void TaintField(jobject object, const FieldInfo& field);
  void RecordArray(jobject array, const ClassInfo& info, int distance, v1::ObjectState* state);

  Heap& heap_;
  JNIEnv* env_;
  google::protobuf::RepeatedPtrField<v1::ObjectState>* out_;
  const v1::RedactionPolicy& policy_;
  struct Pending {
    jobject object;
    uint64_t id;
    int distance;
  };
  std::vector<Pending> queue_;
  size_t next_ = 0;
  std::unordered_set<uint64_t> seen_;
};

}  // namespace tracespec::probe

#endif  // TRACESPEC_OBSERVER_PROBE_SNAPSHOT_H_

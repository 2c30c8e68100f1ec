// Turns hook calls and JVMTI events into Observation records: per-thread
// stacks of active calls, pre/post snapshots, outcomes, test attribution,
// and the append-only output file.
#ifndef TRACESPEC_OBSERVER_PROBE_RECORDER_H_
#define TRACESPEC_OBSERVER_PROBE_RECORDER_H_

#include <jni.h>
#include <jvmti.h>

#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "google/protobuf/arena.h"
#include "observer/probe/snapshot.h"
#include "tracespec/v1/observation.pb.h"
#include "tracespec/v1/probe.pb.h"

namespace tracespec::probe {

// One instrumented method (one per class loader that loaded its class).
struct TargetMethod {
  v1::MethodRef ref;
  std::vector<char> param_kinds;
  // Parameters whose names the policy denies: their values are never read.
  std::vector<bool> param_denied;
  // Of those, the ones denied only for want of evidence
  // (PolicyView::DeniedUnlessDisclosed): recorded when the value is a
  // literal of the test classes.
  std::vector<bool> param_unless_disclosed;
  char return_kind = 'V';
  // The method's own name is denied: its return value is withheld.
  bool return_denied = false;
  bool return_unless_disclosed = false;
  bool is_constructor = false;
  // Exits are reported by wrapper hooks (true) or seen through JVMTI.
  bool exits_by_hooks = true;
  // Calls counted (ProbeConfig.count_calls; under Recorder::mutex_).
  uint64_t calls = 0;
};

class Recorder {
 public:
  Recorder(jvmtiEnv* jvmti, const v1::ProbeConfig& config);
  ~Recorder();

  // Opens the output file and caches JDK classes; false with *error set.
  bool Start(JNIEnv* env, std::string* error);
  // Called at VMDeath: later hook calls are ignored.
  void Stop();
  // TaintSet::RedactText with the taint set the run gathered.
  int RedactText(std::string* text) { return heap_.taint().RedactText(text); }
  // The taint set the run gathered (the denied constants, at VMDeath).
  const TaintSet& taint() { return heap_.taint(); }
  // Takes a denied value that is text (UTF-8) into the taint set — as a
  // number too when it is a decimal integer, which programs parse it into:
  // a denied environment variable or system property.
  void TaintText(const std::string& utf8);

  // The test classes' string literals: the String constants of a class
  // loading now (`internal_name`, "pkg/FooTest"), taken when it is one of
  // ProbeConfig.test_classes or a class nested in one. The tests' sources
  // spell them out, so a value equal to one is disclosed by the tests.
  bool IsTestClass(const std::string& internal_name) const;
  void AddTestLiterals(const std::vector<std::string>& utf8);
  // Whether `utf8` is one of them.
  bool TestLiteral(const std::string& utf8);

  // Registers a method about to be instrumented; returns its hook id.
  int Register(TargetMethod method);

  // The hooks (see hooks_abi.h).
  void Arg(JNIEnv* env, char kind, jvalue value);
  void Enter(JNIEnv* env, jobject receiver, jint hook_id, bool exits_by_hooks);
  void ExitReturn(JNIEnv* env, char kind, jvalue value);
  void ExitThrown(JNIEnv* env, jthrowable thrown);
  void TestStarted(JNIEnv* env, jstring test_id);
  void TestFinished(JNIEnv* env);

  // JVMTI events, enabled per thread while a JVMTI-exited call is active.
  void OnMethodExit(JNIEnv* env, jthread thread, jmethodID method, bool by_exception,
                    jvalue value);
  void OnException(JNIEnv* env, jobject exception);

  uint64_t observations_written() const { return written_.load(); }
  // Recorded values replaced because they held a tainted value.
  uint64_t tainted_values() const { return tainted_.load(); }
  // An observation was dropped at ProbeConfig.max_trace_bytes.
  bool trace_limit_reached() const { return trace_limit_reached_.load(); }
  std::vector<std::string> WithheldFields() { return heap_.WithheldFields(); }
  const PolicyView& policy() const { return policy_; }
  // With ProbeConfig.count_calls: calls per instrumented method,
  // "pkg.Class#name(descriptor)" (loaders merged), sorted by method.
  std::map<std::string, uint64_t> CallCounts();

 private:
  struct Activation;
  struct ThreadState;
  static ThreadState& Current();

  const TargetMethod* Target(jint hook_id);
  // Whether a parameter's or result's value of kind `kind` is withheld:
  // when `denied`, unless `unless_disclosed` and it is a test literal.
  bool Withheld(JNIEnv* env, bool denied, bool unless_disclosed, char kind, jvalue value);
  // The bottom-most frame of a test class on this thread's stack, as
  // "Class#method", or "".
  std::string TestIdFromStack();
  // The test of a call on a thread the listener did not report a test on.
  std::string TestIdOffThread();
  const std::string& ThreadName(ThreadState& state);
  // Command runs: the thread's bottom-most frame outside the JDK when it
  // first called a target, "pkg.Class#method", or "".
  const std::string& EntryPoint(ThreadState& state);
  // Records the post-state of the innermost activation (whose outcome is
  // set), writes the observation and pops the activation.
  void Complete(JNIEnv* env, ThreadState& state, jobject receiver_after, jobject returned);
  // Frees the innermost activation's references and memory.
  void Pop(JNIEnv* env, ThreadState& state);
  // The innermost activation whose exit the wrapper hooks report, or null.
  Activation* InnermostWrapper(JNIEnv* env, ThreadState& state);
  // Drops activations whose exit was never seen (their frames are gone).
  void DropAbove(JNIEnv* env, ThreadState& state, size_t keep);
  void SetJvmtiEvents(ThreadState& state, bool enable);
  // Appends one record, scrubbed at taint generation `generation`.
  void Write(const v1::Observation& observation, uint64_t generation);
  // Scrubs the written trace again with the final taint set (at Stop).
  void Rescrub();
  void Thrown(JNIEnv* env, jobject thrown, v1::Thrown* out);

  jvmtiEnv* jvmti_;
  const v1::ProbeConfig& config_;
  PolicyView policy_;
  Heap heap_;
  std::unordered_set<std::string> test_class_signatures_;
  std::mutex literals_mutex_;
  std::unordered_set<std::string> test_literals_;
  int output_fd_ = -1;
  std::atomic<bool> stopped_{false};
  // ProbeConfig.count_calls: Enter only counts; nothing is recorded.
  bool count_only_ = false;
  std::atomic<uint64_t> sequence_{0};
  std::atomic<uint64_t> written_{0};
  std::atomic<uint64_t> tainted_{0};
  // Bytes appended to the trace, and whether max_trace_bytes stopped it
  // (both under write_mutex_; the flag is also read at VMDeath).
  uint64_t trace_bytes_ = 0;
  std::atomic<bool> trace_limit_reached_{false};
  // The taint generation the oldest written observation was scrubbed at.
  std::atomic<uint64_t> oldest_written_generation_{UINT64_MAX};
  std::mutex write_mutex_;

  std::mutex mutex_;
  std::deque<TargetMethod> targets_;
  // Test id of each stack frame's method ("" = not a test class).
  std::unordered_map<jmethodID, std::string> frame_tests_;
  // The test most recently reported started and not yet finished.
  std::string running_test_;
};

}  // namespace tracespec::probe

#endif  // TRACESPEC_OBSERVER_PROBE_RECORDER_H_

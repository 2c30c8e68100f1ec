// Observation recording; see recorder.h.
#include "observer/probe/recorder.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "observer/probe/denied_sources.h"

namespace tracespec::probe {
namespace {

// Bytes each per-depth arena keeps for its observation.
constexpr size_t kArenaBlockSize = 64 * 1024;

// Frames fetched when looking for the test method on a stack.
constexpr jint kMaxStackFrames = 4096;

std::string ClassSignature(const std::string& binary_name) {
  std::string sig = "L" + binary_name + ";";
  std::replace(sig.begin(), sig.end(), '.', '/');
  return sig;
}

// The length prefix of a length-delimited record.
void AppendVarint(uint64_t v, std::string* out) {
  for (;; v >>= 7) {
    if (v < 0x80) {
      out->push_back(static_cast<char>(v));
      return;
    }
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
  }
}

// Sets a primitive value of kind `kind` (JVM descriptor letter).
void SetPrimitive(char kind, jvalue value, v1::Value* out) {
  switch (kind) {
    case 'Z': out->set_bool_value(value.z != 0); break;
    case 'B': out->set_byte_value(value.b); break;
    case 'C': out->set_char_value(value.c); break;
    case 'S': out->set_short_value(value.s); break;
    case 'I': out->set_int_value(value.i); break;
    case 'J': out->set_long_value(value.j); break;
    case 'F': out->set_float_value(value.f); break;
    case 'D': out->set_double_value(value.d); break;
    default: break;
  }
}

// Fills a normal outcome; returns the returned object when it is one
// whose state must be recorded, else null.
jobject SetReturned(JNIEnv* env, Heap& heap, bool withheld, char kind, jvalue value,
                    v1::Outcome* outcome) {
  if (kind == 'V') {
    outcome->mutable_returned_void();
  } else if (withheld) {
    outcome->mutable_returned()->mutable_redacted();  // Read only into the taint set.
    if (kind == 'L') {
      heap.TaintReference(env, value.l);
    } else {
      heap.TaintPrimitive(kind, value);
    }
  } else if (kind != 'L') {
    SetPrimitive(kind, value, outcome->mutable_returned());
  } else if (value.l == nullptr) {
    outcome->mutable_returned()->mutable_null_value();
  } else {
    outcome->mutable_returned();
    return value.l;
  }
  return nullptr;
}

}  // namespace

struct Recorder::Activation {
  const TargetMethod* target = nullptr;
  // Lives in the thread's arena for this stack depth.
  v1::Observation* observation = nullptr;
  // Global references kept until the exit, for the post-state.
  jobject receiver = nullptr;
  std::vector<jobject> args;
  // For calls whose exit JVMTI reports: the method and its frame depth.
  jmethodID method = nullptr;
  jint frame_depth = 0;
};

struct Recorder::ThreadState {
  struct PendingArg {
    char kind;
    jvalue value;  // For 'L', a global reference (or null).
  };
  std::vector<PendingArg> pending;
  std::vector<Activation> stack;
  // The test the JUnit listener reported running on this thread.
  std::string test_id;
  std::string thread_name;
  std::string entry_point;
  bool entry_point_known = false;
  // Active calls whose exit JVMTI reports, and the last exception thrown
  // on this thread while there were any.
  int jvmti_active = 0;
  jobject last_exception = nullptr;
  std::string buffer;
  // One arena per stack depth, reset after each observation is written. Each
  // starts in a block it keeps across resets, so that steady-state recording
  // does not touch the heap.
  struct ArenaSlot {
    ArenaSlot() : block(kArenaBlockSize), arena(Options(block)) {}
    static google::protobuf::ArenaOptions Options(std::vector<char>& block) {
      google::protobuf::ArenaOptions options;
      options.initial_block = block.data();
      options.initial_block_size = block.size();
      return options;
    }
    std::vector<char> block;
    google::protobuf::Arena arena;
  };
  std::vector<std::unique_ptr<ArenaSlot>> arenas;
};

Recorder::Recorder(jvmtiEnv* jvmti, const v1::ProbeConfig& config)
    : jvmti_(jvmti),
      config_(config),
      policy_(config.policy()),
      heap_(jvmti, policy_),
      count_only_(config.count_calls()) {
  for (const std::string& name : config.test_classes()) {
    test_class_signatures_.insert(ClassSignature(name));
  }
}

Recorder::~Recorder() {
  if (output_fd_ >= 0) ::close(output_fd_);
}

bool Recorder::IsTestClass(const std::string& internal_name) const {
  if (test_class_signatures_.empty()) return false;
  if (test_class_signatures_.count("L" + internal_name + ";") != 0) return true;
  size_t nested = internal_name.find('$');
  return nested != std::string::npos &&
         test_class_signatures_.count("L" + internal_name.substr(0, nested) + ";") != 0;
}

void Recorder::AddTestLiterals(const std::vector<std::string>& utf8) {
  std::lock_guard<std::mutex> lock(literals_mutex_);
  test_literals_.insert(utf8.begin(), utf8.end());
}

bool Recorder::TestLiteral(const std::string& utf8) {
  std::lock_guard<std::mutex> lock(literals_mutex_);
  return test_literals_.count(utf8) != 0;
}

bool Recorder::Withheld(JNIEnv* env, bool denied, bool unless_disclosed, char kind,
                        jvalue value) {
  if (!denied) return false;
  if (!unless_disclosed || kind != 'L' || value.l == nullptr) return true;
  // DeniedUnlessDisclosed holds only for a String.
  return !TestLiteral(ReadString(env, static_cast<jstring>(value.l), /*max_chars=*/0));
}

void Recorder::TaintText(const std::string& utf8) {
  heap_.taint().AddString(utf8);
  int64_t number = 0;
  if (ParseDecimal(utf8, &number)) heap_.taint().AddIntegral(number);
}

bool Recorder::Start(JNIEnv* env, std::string* error) {
  if (!heap_.Init(env)) {
    *error = "cannot look up java.lang.String, java.lang.Throwable or java.lang.Class";
    return false;
  }
  output_fd_ = ::open(config_.output_path().c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
                      0644);
  if (output_fd_ < 0) {
    *error = "cannot open " + config_.output_path() + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

void Recorder::Stop() {
  stopped_ = true;
  std::lock_guard<std::mutex> lock(write_mutex_);
  if (output_fd_ >= 0) ::close(output_fd_);
  output_fd_ = -1;
  if (oldest_written_generation_.load() < heap_.taint().generation()) Rescrub();
}

void Recorder::Rescrub() {
  // Some observation was written before a value it may hold was tainted:
  // scrub the whole trace again with the final set (temp file + rename).
  std::string data;
  {
    int fd = ::open(config_.output_path().c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    char chunk[65536];
    for (;;) {
      ssize_t n = ::read(fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      data.append(chunk, static_cast<size_t>(n));
    }
    ::close(fd);
  }
  std::string out;
  out.reserve(data.size());
  size_t pos = 0;
  v1::Observation observation;
  while (pos < data.size()) {
    uint64_t size = 0;
    int shift = 0;
    size_t start = pos;
    while (pos < data.size() && shift < 64) {
      auto byte = static_cast<uint8_t>(data[pos++]);
      size |= static_cast<uint64_t>(byte & 0x7f) << shift;
      shift += 7;
      if ((byte & 0x80) == 0) break;
    }
    if (pos + size > data.size() || !observation.ParseFromArray(data.data() + pos, size)) {
      out.append(data, start, std::string::npos);  // Left for the observer to report.
      break;
    }
    pos += size;
    int replaced = heap_.taint().Scrub(&observation);
    tainted_ += static_cast<uint64_t>(replaced);
    if (replaced == 0) {
      out.append(data, start, pos - start);
      continue;
    }
    std::string bytes = observation.SerializeAsString();
    AppendVarint(bytes.size(), &out);
    out += bytes;
  }
  std::string temp = config_.output_path() + ".rescrub";
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::write(fd, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  if (done == out.size()) {
    ::rename(temp.c_str(), config_.output_path().c_str());
  } else {
    ::unlink(temp.c_str());
  }
}

int Recorder::Register(TargetMethod method) {
  std::lock_guard<std::mutex> lock(mutex_);
  targets_.push_back(std::move(method));
  return static_cast<int>(targets_.size() - 1);
}

const TargetMethod* Recorder::Target(jint hook_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (hook_id < 0 || static_cast<size_t>(hook_id) >= targets_.size()) return nullptr;
  return &targets_[static_cast<size_t>(hook_id)];
}

Recorder::ThreadState& Recorder::Current() {
  static thread_local ThreadState state;
  return state;
}

std::map<std::string, uint64_t> Recorder::CallCounts() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::map<std::string, uint64_t> counts;
  for (const TargetMethod& t : targets_) {
    counts[t.ref.class_name() + "#" + t.ref.name() + t.ref.jvm_descriptor()] += t.calls;
  }
  return counts;
}

void Recorder::Arg(JNIEnv* env, char kind, jvalue value) {
  if (stopped_ || count_only_) return;
  if (kind == 'L' && value.l != nullptr) value.l = env->NewGlobalRef(value.l);
  Current().pending.push_back({kind, value});
}

const std::string& Recorder::ThreadName(ThreadState& state) {
  if (state.thread_name.empty()) {
    jvmtiThreadInfo info{};
    if (jvmti_->GetThreadInfo(nullptr, &info) == JVMTI_ERROR_NONE) {
      state.thread_name = info.name != nullptr ? info.name : "";
      jvmti_->Deallocate(reinterpret_cast<unsigned char*>(info.name));
    }
    if (state.thread_name.empty()) state.thread_name = "?";
  }
  return state.thread_name;
}

const std::string& Recorder::EntryPoint(ThreadState& state) {
  if (state.entry_point_known) return state.entry_point;
  state.entry_point_known = true;
  thread_local std::vector<jvmtiFrameInfo> frames(kMaxStackFrames);
  jint count = 0;
  if (jvmti_->GetStackTrace(nullptr, 0, kMaxStackFrames, frames.data(), &count) !=
      JVMTI_ERROR_NONE) {
    return state.entry_point;
  }
  static const char* const kJdk[] = {"Ljava/", "Ljavax/", "Ljdk/", "Lsun/", "Lcom/sun/"};
  for (jint i = count - 1; i >= 0 && state.entry_point.empty(); --i) {
    jclass declaring = nullptr;
    char* signature = nullptr;
    if (jvmti_->GetMethodDeclaringClass(frames[i].method, &declaring) != JVMTI_ERROR_NONE ||
        jvmti_->GetClassSignature(declaring, &signature, nullptr) != JVMTI_ERROR_NONE) {
      continue;
    }
    bool jdk = signature[0] != 'L';
    for (const char* prefix : kJdk) jdk |= std::strncmp(signature, prefix, std::strlen(prefix)) == 0;
    char* name = nullptr;
    if (!jdk && jvmti_->GetMethodName(frames[i].method, &name, nullptr, nullptr) ==
                    JVMTI_ERROR_NONE) {
      std::string binary(signature + 1, std::strlen(signature) - 2);
      std::replace(binary.begin(), binary.end(), '/', '.');
      state.entry_point = binary + "#" + name;
      jvmti_->Deallocate(reinterpret_cast<unsigned char*>(name));
    }
    jvmti_->Deallocate(reinterpret_cast<unsigned char*>(signature));
  }
  return state.entry_point;
}

std::string Recorder::TestIdFromStack() {
  if (test_class_signatures_.empty()) return "";
  thread_local std::vector<jvmtiFrameInfo> frames(kMaxStackFrames);
  jint count = 0;
  if (jvmti_->GetStackTrace(nullptr, 0, kMaxStackFrames, frames.data(), &count) !=
      JVMTI_ERROR_NONE) {
    return "";
  }
  // The bottom-most frame of a test class is the test method (helpers and
  // lambdas it calls sit above it).
  for (jint i = count - 1; i >= 0; --i) {
    jmethodID method = frames[i].method;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = frame_tests_.find(method);
      if (it != frame_tests_.end()) {
        if (!it->second.empty()) return it->second;
        continue;
      }
    }
    std::string test_id;
    jclass declaring = nullptr;
    char* signature = nullptr;
    if (jvmti_->GetMethodDeclaringClass(method, &declaring) == JVMTI_ERROR_NONE &&
        jvmti_->GetClassSignature(declaring, &signature, nullptr) == JVMTI_ERROR_NONE) {
      if (test_class_signatures_.count(signature) != 0) {
        char* name = nullptr;
        if (jvmti_->GetMethodName(method, &name, nullptr, nullptr) == JVMTI_ERROR_NONE) {
          std::string binary(signature + 1, std::strlen(signature) - 2);
          std::replace(binary.begin(), binary.end(), '/', '.');
          test_id = binary + "#" + name;
          jvmti_->Deallocate(reinterpret_cast<unsigned char*>(name));
        }
      }
      jvmti_->Deallocate(reinterpret_cast<unsigned char*>(signature));
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      frame_tests_[method] = test_id;
    }
    if (!test_id.empty()) return test_id;
  }
  return "";
}

std::string Recorder::TestIdOffThread() {
  std::string running;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    running = running_test_;
  }
  std::string from_stack = TestIdFromStack();
  if (from_stack.empty()) return running;
  // A frame of the running test's class is that test's own code (a lambda
  // it started on another thread, a helper, a set-up method).
  size_t hash = from_stack.find('#');
  if (!running.empty() && running.compare(0, hash + 1, from_stack, 0, hash + 1) == 0) {
    return running;
  }
  // "lambda$testName$0" belongs to testName.
  const std::string lambda = "lambda$";
  if (from_stack.compare(hash + 1, lambda.size(), lambda) == 0) {
    size_t start = hash + 1 + lambda.size();
    size_t end = from_stack.find('$', start);
    if (end != std::string::npos && end > start) {
      return from_stack.substr(0, hash + 1) + from_stack.substr(start, end - start);
    }
  }
  return from_stack;
}

void Recorder::Enter(JNIEnv* env, jobject receiver, jint hook_id, bool exits_by_hooks) {
  if (count_only_) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!stopped_ && hook_id >= 0 && static_cast<size_t>(hook_id) < targets_.size()) {
      ++targets_[static_cast<size_t>(hook_id)].calls;
    }
    return;
  }
  ThreadState& state = Current();
  const TargetMethod* target = Target(hook_id);
  if (stopped_ || target == nullptr) {
    for (const auto& arg : state.pending) {
      if (arg.kind == 'L' && arg.value.l != nullptr) env->DeleteGlobalRef(arg.value.l);
    }
    state.pending.clear();
    return;
  }
  Activation activation;
  activation.target = target;
  size_t level = state.stack.size();
  while (state.arenas.size() <= level) {
    state.arenas.push_back(std::make_unique<ThreadState::ArenaSlot>());
  }
  activation.observation =
      google::protobuf::Arena::CreateMessage<v1::Observation>(&state.arenas[level]->arena);
  v1::Observation& obs = *activation.observation;
  obs.set_format_version(v1::FORMAT_VERSION_1);
  *obs.mutable_method() = target->ref;
  obs.set_source(v1::RECORDED);
  obs.set_sequence(++sequence_);
  obs.set_thread(ThreadName(state));
  int depth = 0;
  for (const Activation& a : state.stack) depth += a.target == target ? 1 : 0;
  obs.set_recursion_depth(depth);
  if (config_.command_run()) {
    obs.set_entry_point(EntryPoint(state));
  } else {
    obs.set_test_id(state.test_id.empty() ? TestIdOffThread() : state.test_id);
  }

  env->PushLocalFrame(32);
  GraphBuilder pre(heap_, env, obs.mutable_pre());
  if (receiver != nullptr) {
    activation.receiver = env->NewGlobalRef(receiver);
    pre.Reference(receiver, 0, obs.mutable_receiver());
  }
  for (size_t i = 0; i < state.pending.size(); ++i) {
    const ThreadState::PendingArg& arg = state.pending[i];
    v1::Value* value = obs.add_args();
    bool denied = i < target->param_denied.size() &&
                  Withheld(env, target->param_denied[i], target->param_unless_disclosed[i],
                           arg.kind, arg.value);
    if (arg.kind != 'L') {
      if (denied) {
        value->mutable_redacted();
        heap_.TaintPrimitive(arg.kind, arg.value);
      } else {
        SetPrimitive(arg.kind, arg.value, value);
      }
      continue;
    }
    if (denied) {
      value->mutable_redacted();  // Read only into the taint set.
      heap_.TaintReference(env, arg.value.l);
      if (arg.value.l != nullptr) env->DeleteGlobalRef(arg.value.l);
      continue;
    }
    pre.Reference(arg.value.l, 0, value);
    if (arg.value.l != nullptr) activation.args.push_back(arg.value.l);
  }
  pre.Run();
  env->PopLocalFrame(nullptr);
  state.pending.clear();

  if (!exits_by_hooks) {
    // This native hook is frame 0; the instrumented method is frame 1.
    jint count = 0;
    jlocation location = 0;
    jvmti_->GetFrameCount(nullptr, &count);
    jvmti_->GetFrameLocation(nullptr, 1, &activation.method, &location);
    activation.frame_depth = count - 1;
    if (state.jvmti_active++ == 0) SetJvmtiEvents(state, true);
  }
  state.stack.push_back(std::move(activation));
}

void Recorder::SetJvmtiEvents(ThreadState& state, bool enable) {
  jthread thread = nullptr;
  if (jvmti_->GetCurrentThread(&thread) != JVMTI_ERROR_NONE) return;
  jvmtiEventMode mode = enable ? JVMTI_ENABLE : JVMTI_DISABLE;
  jvmti_->SetEventNotificationMode(mode, JVMTI_EVENT_METHOD_EXIT, thread);
  jvmti_->SetEventNotificationMode(mode, JVMTI_EVENT_EXCEPTION, thread);
}

void Recorder::Pop(JNIEnv* env, ThreadState& state) {
  Activation& activation = state.stack.back();
  if (activation.receiver != nullptr) env->DeleteGlobalRef(activation.receiver);
  for (jobject arg : activation.args) env->DeleteGlobalRef(arg);
  state.stack.pop_back();
  state.arenas[state.stack.size()]->arena.Reset();
}

void Recorder::DropAbove(JNIEnv* env, ThreadState& state, size_t keep) {
  while (state.stack.size() > keep) {
    Activation& top = state.stack.back();
    if (!top.target->exits_by_hooks && --state.jvmti_active == 0) SetJvmtiEvents(state, false);
    Pop(env, state);
  }
}

void Recorder::Thrown(JNIEnv* env, jobject thrown, v1::Thrown* out) {
  if (thrown == nullptr) {
    out->set_class_name("java.lang.Throwable");
    return;
  }
  out->set_class_name(heap_.ClassOf(env, thrown)->name);
  if (!config_.policy().keep_exception_messages()) return;
  auto message = static_cast<jstring>(env->GetObjectField(thrown, heap_.detail_message()));
  if (message != nullptr) {
    out->set_message(ReadString(env, message, config_.policy().max_string_length()));
    out->set_has_message(true);
    env->DeleteLocalRef(message);
  }
}

void Recorder::Complete(JNIEnv* env, ThreadState& state, jobject receiver_after,
                        jobject returned) {
  Activation& activation = state.stack.back();
  v1::Observation& obs = *activation.observation;
  const TargetMethod& target = *activation.target;
  env->PushLocalFrame(32);
  GraphBuilder post(heap_, env, obs.mutable_post());
  v1::Value scratch;
  if (target.is_constructor) {
    if (receiver_after != nullptr) post.Reference(receiver_after, 0, obs.mutable_receiver());
  } else if (activation.receiver != nullptr) {
    post.Reference(activation.receiver, 0, &scratch);
  }
  for (jobject arg : activation.args) post.Reference(arg, 0, &scratch);
  if (returned != nullptr && obs.outcome().has_returned() &&
      !obs.outcome().returned().has_redacted()) {
    post.Reference(returned, 0, obs.mutable_outcome()->mutable_returned());
  }
  post.Run();
  env->PopLocalFrame(nullptr);
  // Every denied value this call reached is in the taint set by now.
  uint64_t generation = heap_.taint().generation();
  tainted_ += static_cast<uint64_t>(heap_.taint().Scrub(&obs));
  Write(obs, generation);
  Pop(env, state);
}

Recorder::Activation* Recorder::InnermostWrapper(JNIEnv* env, ThreadState& state) {
  // Calls above it whose JVMTI exit was missed are dropped.
  size_t keep = state.stack.size();
  while (keep > 0 && !state.stack[keep - 1].target->exits_by_hooks) --keep;
  DropAbove(env, state, keep);
  return state.stack.empty() ? nullptr : &state.stack.back();
}

void Recorder::ExitReturn(JNIEnv* env, char kind, jvalue value) {
  if (stopped_ || count_only_) return;
  ThreadState& state = Current();
  Activation* activation = InnermostWrapper(env, state);
  if (activation == nullptr) return;
  const TargetMethod& target = *activation->target;
  jobject returned = SetReturned(
      env, heap_,
      Withheld(env, target.return_denied, target.return_unless_disclosed, kind, value), kind,
      value, activation->observation->mutable_outcome());
  Complete(env, state, nullptr, returned);
}

void Recorder::ExitThrown(JNIEnv* env, jthrowable thrown) {
  if (stopped_ || count_only_) return;
  ThreadState& state = Current();
  Activation* activation = InnermostWrapper(env, state);
  if (activation == nullptr) return;
  Thrown(env, thrown, activation->observation->mutable_outcome()->mutable_thrown());
  Complete(env, state, nullptr, nullptr);
}

void Recorder::OnMethodExit(JNIEnv* env, jthread thread, jmethodID method, bool by_exception,
                            jvalue value) {
  ThreadState& state = Current();
  if (stopped_ || state.jvmti_active == 0 || state.stack.empty()) return;
  Activation& activation = state.stack.back();
  if (activation.target->exits_by_hooks || activation.method != method) return;
  jint count = 0;
  if (jvmti_->GetFrameCount(thread, &count) != JVMTI_ERROR_NONE ||
      count != activation.frame_depth) {
    return;  // Another activation of the same method (recursion).
  }
  const TargetMethod& target = *activation.target;
  v1::Outcome* outcome = activation.observation->mutable_outcome();
  jobject receiver_after = nullptr;
  jobject returned = nullptr;
  if (by_exception) {
    Thrown(env, state.last_exception, outcome->mutable_thrown());
  } else {
    // The new object of a constructor is local 0 of the exiting frame.
    if (target.is_constructor) jvmti_->GetLocalObject(thread, 0, 0, &receiver_after);
    returned = SetReturned(env, heap_,
                           Withheld(env, target.return_denied, target.return_unless_disclosed,
                                    target.return_kind, value),
                           target.return_kind, value, outcome);
  }
  Complete(env, state, receiver_after, returned);
  if (receiver_after != nullptr) env->DeleteLocalRef(receiver_after);
  if (--state.jvmti_active == 0) {
    SetJvmtiEvents(state, false);
    if (state.last_exception != nullptr) env->DeleteGlobalRef(state.last_exception);
    state.last_exception = nullptr;
  }
}

void Recorder::OnException(JNIEnv* env, jobject exception) {
  ThreadState& state = Current();
  if (state.jvmti_active == 0) return;
  if (state.last_exception != nullptr) env->DeleteGlobalRef(state.last_exception);
  state.last_exception = env->NewGlobalRef(exception);
}

void Recorder::TestStarted(JNIEnv* env, jstring test_id) {
  ThreadState& state = Current();
  state.test_id = test_id != nullptr ? ReadString(env, test_id, 0) : "";
  std::lock_guard<std::mutex> lock(mutex_);
  running_test_ = state.test_id;
}

void Recorder::TestFinished(JNIEnv* env) {
  ThreadState& state = Current();
  std::lock_guard<std::mutex> lock(mutex_);
  if (running_test_ == state.test_id) running_test_.clear();
  state.test_id.clear();
}

void Recorder::Write(const v1::Observation& observation, uint64_t generation) {
  uint64_t oldest = oldest_written_generation_.load();
  while (generation < oldest &&
         !oldest_written_generation_.compare_exchange_weak(oldest, generation)) {
  }
  std::string& buffer = Current().buffer;
  size_t size = observation.ByteSizeLong();
  buffer.clear();
  AppendVarint(size, &buffer);
  size_t header = buffer.size();
  buffer.resize(header + size);
  observation.SerializeWithCachedSizesToArray(reinterpret_cast<uint8_t*>(&buffer[header]));
  // One write per observation: a JVM that dies loses only calls in flight.
  std::lock_guard<std::mutex> lock(write_mutex_);
  if (output_fd_ < 0 || trace_limit_reached_) return;
  if (config_.max_trace_bytes() > 0 && trace_bytes_ + buffer.size() > config_.max_trace_bytes()) {
    trace_limit_reached_ = true;  // Nothing after this: the trace stays a prefix of the run.
    return;
  }
  trace_bytes_ += buffer.size();
  size_t done = 0;
  while (done < buffer.size()) {
    ssize_t n = ::write(output_fd_, buffer.data() + done, buffer.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
  ++written_;
}

}  // namespace tracespec::probe

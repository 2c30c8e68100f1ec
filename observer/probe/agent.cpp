// libtracespec_probe.so: the JVMTI agent `tracespec observe` loads with
// -agentpath:libtracespec_probe.so=config=FILE. It rewrites the target
// methods as their classes load (class_file.h), defines the hooks class the
// rewritten code calls (hooks_abi.h), and hands every hook call and JVMTI
// event to the Recorder. Status (which targets were found) goes to
// ProbeConfig.status_path, rewritten atomically whenever it changes.
#include <jni.h>
#include <jvmti.h>
#include <stdio.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/distinctive.h"
#include "common/glob.h"
#include "observer/probe/class_file.h"
#include "observer/probe/concat_recipe.h"
#include "observer/probe/denied_sources.h"
#include "observer/probe/hooks_abi.h"
#include "observer/probe/recorder.h"
#include "observer/probe/substitute.h"
#include "observer/probe/substitute_value.h"
#include "observer/probe/taint.h"
#include "tracespec/v1/probe.pb.h"

namespace tracespec::probe {
namespace {

jvmtiEnv* g_jvmti = nullptr;
v1::ProbeConfig* g_config = nullptr;
Recorder* g_recorder = nullptr;

// Targets grouped by internal class name ("pkg/Name") → indices into
// g_config->targets() and g_status.targets().
std::map<std::string, std::vector<int>>* g_targets_by_class = nullptr;
// Indices of the pattern targets (ProbeTarget.pattern).
std::vector<int>* g_pattern_targets = nullptr;
// Methods instrumented so far, against ProbeConfig.max_methods (guarded by
// g_status_mutex).
int g_methods_instrumented = 0;
std::mutex g_status_mutex;
v1::ProbeStatus* g_status = nullptr;
// Where g_status goes: status_path, or status_path.<pid> (status_per_process).
std::string* g_status_path = nullptr;
// With command_run: classes defined by non-boot loaders, per package
// (guarded by g_status_mutex).
std::map<std::string, int64_t>* g_loaded_packages = nullptr;
// With ProbeConfig.find_denied_constants: the String constants (as UTF-8)
// and the Integer/Long constants, distinctive sipush operands and
// concatenation-recipe literals of the classes loaded outside the JDK,
// JUnit and tracespec, kept in memory only (guarded by g_status_mutex).
struct RememberedConstants {
  std::set<std::string> texts;
  std::set<int64_t> numbers;
};
RememberedConstants* g_constants = nullptr;

void Complain(const std::string& message) {
  std::fprintf(stderr, "tracespec-probe: %s\n", message.c_str());
}

// Writes g_status atomically; the caller holds g_status_mutex.
void WriteStatusLocked() {
  g_status->set_observations_written(g_recorder != nullptr ? g_recorder->observations_written()
                                                           : 0);
  std::string data;
  g_status->SerializeToString(&data);
  std::string temp = *g_status_path + ".tmp";
  std::ofstream out(temp, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  out.close();
  if (!out || std::rename(temp.c_str(), g_status_path->c_str()) != 0) {
    Complain("cannot write " + *g_status_path);
  }
}

void AddError(const std::string& message) {
  std::lock_guard<std::mutex> lock(g_status_mutex);
  g_status->add_errors(message);
  WriteStatusLocked();
}

template <typename T>
void AddUnique(google::protobuf::RepeatedPtrField<std::string>* list, const T& value) {
  for (const std::string& existing : *list) {
    if (existing == value) return;
  }
  list->Add(std::string(value));
}

// --- The hooks class and its natives. ---------------------------------------

jvalue Box(jboolean v) { jvalue j; j.z = v; return j; }
jvalue Box(jbyte v) { jvalue j; j.b = v; return j; }
jvalue Box(jchar v) { jvalue j; j.c = v; return j; }
jvalue Box(jshort v) { jvalue j; j.s = v; return j; }
jvalue Box(jint v) { jvalue j; j.i = v; return j; }
jvalue Box(jlong v) { jvalue j; j.j = v; return j; }
jvalue Box(jfloat v) { jvalue j; j.f = v; return j; }
jvalue Box(jdouble v) { jvalue j; j.d = v; return j; }
jvalue Box(jobject v) { jvalue j; j.l = v; return j; }

template <char kKind, typename T>
void JNICALL ArgHook(JNIEnv* env, jclass, T value) {
  g_recorder->Arg(env, kKind, Box(value));
}

template <char kKind, typename T>
void JNICALL ExitHook(JNIEnv* env, jclass, T value) {
  g_recorder->ExitReturn(env, kKind, Box(value));
}

void JNICALL ExitVoidHook(JNIEnv* env, jclass) { g_recorder->ExitReturn(env, 'V', jvalue{}); }

void JNICALL ExitThrownHook(JNIEnv* env, jclass, jthrowable thrown) {
  g_recorder->ExitThrown(env, thrown);
}

void JNICALL EnterHook(JNIEnv* env, jclass, jobject receiver, jint id) {
  g_recorder->Enter(env, receiver, id, /*exits_by_hooks=*/true);
}

void JNICALL EnterJvmtiHook(JNIEnv* env, jclass, jobject receiver, jint id) {
  g_recorder->Enter(env, receiver, id, /*exits_by_hooks=*/false);
}

void JNICALL TestStartedHook(JNIEnv* env, jclass, jstring test_id) {
  g_recorder->TestStarted(env, test_id);
}

void JNICALL TestFinishedHook(JNIEnv* env, jclass) { g_recorder->TestFinished(env); }

void JNICALL ReadDeniedHook(JNIEnv* env, jclass, jobject receiver, jclass owner, jint id) {
  BeforeDeniedRead(env, receiver, owner, id);
}

struct Native {
  std::string name;
  std::string descriptor;
  void* function;
};

std::vector<Native> Natives() {
  std::vector<Native> natives = {
      {ArgHookName('Z'), ArgHookDescriptor('Z'), reinterpret_cast<void*>(&ArgHook<'Z', jboolean>)},
      {ArgHookName('B'), ArgHookDescriptor('B'), reinterpret_cast<void*>(&ArgHook<'B', jbyte>)},
      {ArgHookName('C'), ArgHookDescriptor('C'), reinterpret_cast<void*>(&ArgHook<'C', jchar>)},
      {ArgHookName('S'), ArgHookDescriptor('S'), reinterpret_cast<void*>(&ArgHook<'S', jshort>)},
      {ArgHookName('I'), ArgHookDescriptor('I'), reinterpret_cast<void*>(&ArgHook<'I', jint>)},
      {ArgHookName('J'), ArgHookDescriptor('J'), reinterpret_cast<void*>(&ArgHook<'J', jlong>)},
      {ArgHookName('F'), ArgHookDescriptor('F'), reinterpret_cast<void*>(&ArgHook<'F', jfloat>)},
      {ArgHookName('D'), ArgHookDescriptor('D'), reinterpret_cast<void*>(&ArgHook<'D', jdouble>)},
      {ArgHookName('L'), ArgHookDescriptor('L'), reinterpret_cast<void*>(&ArgHook<'L', jobject>)},
      {ExitHookName('Z'), ExitHookDescriptor('Z'), reinterpret_cast<void*>(&ExitHook<'Z', jboolean>)},
      {ExitHookName('B'), ExitHookDescriptor('B'), reinterpret_cast<void*>(&ExitHook<'B', jbyte>)},
      {ExitHookName('C'), ExitHookDescriptor('C'), reinterpret_cast<void*>(&ExitHook<'C', jchar>)},
      {ExitHookName('S'), ExitHookDescriptor('S'), reinterpret_cast<void*>(&ExitHook<'S', jshort>)},
      {ExitHookName('I'), ExitHookDescriptor('I'), reinterpret_cast<void*>(&ExitHook<'I', jint>)},
      {ExitHookName('J'), ExitHookDescriptor('J'), reinterpret_cast<void*>(&ExitHook<'J', jlong>)},
      {ExitHookName('F'), ExitHookDescriptor('F'), reinterpret_cast<void*>(&ExitHook<'F', jfloat>)},
      {ExitHookName('D'), ExitHookDescriptor('D'), reinterpret_cast<void*>(&ExitHook<'D', jdouble>)},
      {ExitHookName('L'), ExitHookDescriptor('L'), reinterpret_cast<void*>(&ExitHook<'L', jobject>)},
      {ExitHookName('V'), ExitHookDescriptor('V'), reinterpret_cast<void*>(&ExitVoidHook)},
      {kExitThrown, kExitThrownDescriptor, reinterpret_cast<void*>(&ExitThrownHook)},
      {kEnter, kEnterDescriptor, reinterpret_cast<void*>(&EnterHook)},
      {kEnterJvmti, kEnterDescriptor, reinterpret_cast<void*>(&EnterJvmtiHook)},
      {kTestStarted, kTestStartedDescriptor, reinterpret_cast<void*>(&TestStartedHook)},
      {kTestFinished, kTestFinishedDescriptor, reinterpret_cast<void*>(&TestFinishedHook)},
      {kReadDenied, kReadDeniedDescriptor, reinterpret_cast<void*>(&ReadDeniedHook)},
  };
  return natives;
}

void Put2(std::string* out, uint16_t v) {
  out->push_back(static_cast<char>(v >> 8));
  out->push_back(static_cast<char>(v & 0xff));
}

void PutUtf8(std::string* out, const std::string& text) {
  out->push_back(1);
  Put2(out, static_cast<uint16_t>(text.size()));
  out->append(text);
}

// A class file (version 52) declaring every native as public static.
std::string HooksClassFile(const std::vector<Native>& natives) {
  std::string pool;
  PutUtf8(&pool, kHooksClass);  // #1
  pool += "\x07";               // #2 Class #1
  Put2(&pool, 1);
  PutUtf8(&pool, "java/lang/Object");  // #3
  pool += "\x07";                      // #4 Class #3
  Put2(&pool, 3);
  uint16_t next = 5;
  std::string methods;
  for (const Native& n : natives) {
    PutUtf8(&pool, n.name);
    PutUtf8(&pool, n.descriptor);
    Put2(&methods, 0x0001 | 0x0008 | 0x0100);  // public static native
    Put2(&methods, next);
    Put2(&methods, static_cast<uint16_t>(next + 1));
    Put2(&methods, 0);  // attributes
    next = static_cast<uint16_t>(next + 2);
  }
  std::string out("\xCA\xFE\xBA\xBE\x00\x00\x00\x34", 8);
  Put2(&out, next);
  out += pool;
  Put2(&out, 0x0001 | 0x0010 | 0x0020);  // public final super
  Put2(&out, 2);
  Put2(&out, 4);
  Put2(&out, 0);  // interfaces
  Put2(&out, 0);  // fields
  Put2(&out, static_cast<uint16_t>(natives.size()));
  out += methods;
  Put2(&out, 0);  // attributes
  return out;
}

bool DefineHooks(JNIEnv* env, std::string* error) {
  std::vector<Native> natives = Natives();
  std::string bytes = HooksClassFile(natives);
  jclass hooks = env->DefineClass(kHooksClass, nullptr, reinterpret_cast<const jbyte*>(bytes.data()),
                                  static_cast<jsize>(bytes.size()));
  if (hooks == nullptr) {
    env->ExceptionClear();
    *error = "cannot define the hooks class in the boot class loader";
    return false;
  }
  std::vector<JNINativeMethod> methods;
  for (Native& n : natives) {
    methods.push_back({n.name.data(), n.descriptor.data(), n.function});
  }
  if (env->RegisterNatives(hooks, methods.data(), static_cast<jint>(methods.size())) != 0) {
    env->ExceptionClear();
    *error = "cannot bind the hook natives";
    return false;
  }
  return true;
}

// --- Class loading: instrument the targets. ---------------------------------

TargetMethod Describe(const ClassFile& cls, const MethodFacts& facts) {
  TargetMethod target;
  std::string binary = cls.name();
  for (char& c : binary) c = c == '/' ? '.' : c;
  target.ref.set_class_name(binary);
  target.ref.set_name(facts.name);
  target.ref.set_jvm_descriptor(facts.descriptor);
  target.ref.set_is_static((facts.access & kAccStatic) != 0);
  MethodType type;
  ParseMethodDescriptor(facts.descriptor, &type);
  const PolicyView& policy = g_recorder->policy();
  for (size_t i = 0; i < type.params.size(); ++i) {
    if (facts.param_names[i].empty()) target.ref.set_param_names_unknown(true);
    std::string name = facts.param_names[i].empty() ? "arg" + std::to_string(i)
                                                    : facts.param_names[i];
    target.ref.add_param_names(name);
    target.param_kinds.push_back(KindOf(type.params[i]));
    // Only a name the class file really has can be denied.
    target.param_denied.push_back(!facts.param_names[i].empty() &&
                                  policy.Denied(name, type.params[i], binary));
    target.param_unless_disclosed.push_back(
        target.param_denied.back() && policy.DeniedUnlessDisclosed(name, type.params[i], binary));
  }
  target.return_kind = KindOf(type.ret);
  target.is_constructor = facts.name == "<init>";
  target.return_denied = !target.is_constructor && policy.Denied(facts.name, type.ret, binary);
  target.return_unless_disclosed =
      target.return_denied && policy.DeniedUnlessDisclosed(facts.name, type.ret, binary);
  target.exits_by_hooks = !target.is_constructor && !cls.is_interface();
  return target;
}

// find_denied_constants: the loadable constants of class `name` (internal
// name), the literals of its concatenation recipes and the operands of its
// sipush instructions go into g_constants.
void RememberConstants(const char* name, const unsigned char* data, jint length) {
  ClassFile cls;
  std::string binary;
  if (!ParseTouchedClass(name, data, length, &cls, &binary)) return;
  std::vector<PoolConstant> constants = cls.LoadableConstants();
  std::vector<int16_t> shorts = cls.ShortImmediates();
  std::vector<PoolConstant> recipes = cls.ConcatRecipes();
  std::lock_guard<std::mutex> lock(g_status_mutex);
  for (const PoolConstant& c : constants) {
    if (c.kind == 'S') {
      g_constants->texts.insert(ModifiedUtf8ToUtf8(c.text));
    } else {
      g_constants->numbers.insert(c.value);
    }
  }
  // The literals folded into string concatenations (concat_recipe.h).
  for (const PoolConstant& recipe : recipes) {
    for (const std::string& piece : RecipePieces(recipe.text)) {
      g_constants->texts.insert(ModifiedUtf8ToUtf8(piece));
      for (int64_t value : RecipeNumbers(piece)) {
        if (DistinctiveNumber(value)) g_constants->numbers.insert(value);
      }
    }
  }
  // Only numbers the taint set can hold (common/distinctive.h).
  for (int16_t value : shorts) {
    if (DistinctiveNumber(value)) g_constants->numbers.insert(value);
  }
}

// The String constants of test class `name` (internal name) go into the
// recorder's test literals.
void RememberTestLiterals(const char* name, const unsigned char* data, jint length) {
  ClassFile cls;
  std::string binary;
  if (!ParseTouchedClass(name, data, length, &cls, &binary)) return;
  std::vector<std::string> texts;
  for (const PoolConstant& c : cls.LoadableConstants()) {
    if (c.kind == 'S') texts.push_back(ModifiedUtf8ToUtf8(c.text));
  }
  g_recorder->AddTestLiterals(texts);
}

// The keys of the remembered constants equal to a tainted value, sorted.
std::set<uint64_t> DeniedConstants() {
  std::set<uint64_t> keys;
  const TaintSet& taint = g_recorder->taint();
  for (const std::string& text : g_constants->texts) {
    if (taint.HoldsString(text)) keys.insert(ConstantKey(std::string_view(text)));
  }
  for (int64_t value : g_constants->numbers) {
    if (taint.HoldsIntegral(value)) keys.insert(ConstantKey(value));
  }
  return keys;
}

void JNICALL OnClassFileLoad(jvmtiEnv* jvmti, JNIEnv* env, jclass redefined, jobject loader,
                             const char* name, jobject protection_domain, jint length,
                             const unsigned char* data, jint* new_length,
                             unsigned char** new_data) {
  if (name == nullptr || g_recorder == nullptr) return;
  if (g_loaded_packages != nullptr && loader != nullptr && redefined == nullptr) {
    const char* slash = std::strrchr(name, '/');
    std::string package = slash == nullptr ? "" : std::string(name, slash);
    for (char& c : package) c = c == '/' ? '.' : c;
    std::lock_guard<std::mutex> lock(g_status_mutex);
    ++(*g_loaded_packages)[package];
  }
  if (g_constants != nullptr) RememberConstants(name, data, length);
  if (g_recorder->IsTestClass(name)) RememberTestLiterals(name, data, length);
  std::vector<int> indices;
  auto wanted = g_targets_by_class->find(name);
  if (wanted != g_targets_by_class->end()) indices = wanted->second;
  if (!g_pattern_targets->empty()) {
    std::string binary = name;
    for (char& c : binary) c = c == '/' ? '.' : c;
    for (int index : *g_pattern_targets) {
      if (tracespec::GlobMatch(g_config->targets(index).class_name(), binary)) {
        indices.push_back(index);
      }
    }
  }
  if (indices.empty()) return;

  ClassFile cls;
  std::string error;
  if (!cls.Parse(data, static_cast<size_t>(length), &error)) {
    AddError(std::string("cannot read class ") + name + ": " + error);
    return;
  }
  std::lock_guard<std::mutex> lock(g_status_mutex);
  bool changed = false;
  int original_count = cls.method_count();
  // Methods already rewritten for an earlier target ("A#f" and "A#f(I)V").
  std::vector<bool> instrumented(static_cast<size_t>(original_count), false);
  std::string class_label = name;
  for (char& c : class_label) c = c == '/' ? '.' : c;
  for (int index : indices) {
    const v1::ProbeTarget& spec = g_config->targets(index);
    v1::TargetStatus* status = g_status->mutable_targets(index);
    status->set_class_loaded(true);
    bool matched = false;
    for (int m = 0; m < original_count; ++m) {
      MethodFacts facts = cls.Facts(m);
      if (spec.pattern()) {
        // Public methods with code whose name matches; nothing else.
        if ((facts.access & kAccPublic) == 0 ||
            (facts.access & (kAccSynthetic | kAccBridge | kAccAbstract | kAccNative)) != 0 ||
            !facts.has_code || facts.name == "<init>" || facts.name == "<clinit>" ||
            !tracespec::GlobMatch(spec.method_name(), facts.name)) {
          continue;
        }
      } else if (facts.name != spec.method_name()) {
        continue;
      }
      // A full descriptor selects one method; a parameters-only one ("([I)",
      // from the Java spelling) every method with those parameters.
      const std::string& wanted_descriptor = spec.jvm_descriptor();
      if (!wanted_descriptor.empty() &&
          (wanted_descriptor.back() == ')'
               ? facts.descriptor.compare(0, wanted_descriptor.size(), wanted_descriptor) != 0
               : facts.descriptor != wanted_descriptor)) {
        continue;
      }
      matched = true;
      // A pattern's methods are named with their class.
      std::string label =
          (spec.pattern() ? class_label + "#" : std::string()) + facts.name + facts.descriptor;
      if (facts.name == "<clinit>") {
        AddUnique(status->mutable_problems(), label + ": static initializers cannot be observed");
        continue;
      }
      if ((facts.access & (kAccAbstract | kAccNative)) != 0 || !facts.has_code) {
        AddUnique(status->mutable_problems(), label + ": abstract or native, no code to observe");
        continue;
      }
      if (instrumented[static_cast<size_t>(m)]) {
        AddUnique(status->mutable_methods_matched(), label);
        continue;
      }
      if (g_config->max_methods() > 0 && g_methods_instrumented >= g_config->max_methods()) {
        g_status->set_method_limit_reached(true);
        g_status->set_methods_refused(g_status->methods_refused() + 1);
        continue;
      }
      TargetMethod target = Describe(cls, facts);
      if (target.ref.param_names_unknown()) {
        AddUnique(g_status->mutable_classes_without_parameter_names(), target.ref.class_name());
      }
      bool by_hooks = target.exits_by_hooks;
      int id = g_recorder->Register(std::move(target));
      bool ok = by_hooks ? cls.AddWrapper(m, id, &error) : cls.InsertPrologue(m, id, &error);
      if (!ok) {
        AddUnique(status->mutable_problems(), label + ": " + error);
        continue;
      }
      AddUnique(status->mutable_methods_matched(), label);
      ++g_methods_instrumented;
      instrumented[static_cast<size_t>(m)] = true;
      changed = true;
    }
    if (!matched && !spec.pattern() && status->methods_available_size() == 0) {
      for (int m = 0; m < original_count; ++m) {
        MethodFacts facts = cls.Facts(m);
        AddUnique(status->mutable_methods_available(), facts.name + facts.descriptor);
      }
    }
  }
  WriteStatusLocked();
  if (!changed) return;
  std::string bytes = cls.Serialize();
  unsigned char* out = nullptr;
  if (jvmti->Allocate(static_cast<jlong>(bytes.size()), &out) != JVMTI_ERROR_NONE) return;
  std::memcpy(out, bytes.data(), bytes.size());
  *new_length = static_cast<jint>(bytes.size());
  *new_data = out;
}

// --- Lifecycle and JVMTI events. --------------------------------------------

void JNICALL OnVMInit(jvmtiEnv* jvmti, JNIEnv* env, jthread thread) {
  std::string error;
  if (!g_recorder->Start(env, &error) || !DefineHooks(env, &error)) {
    AddError(error);
    Complain(error);
  }
}

// Rewrites ProbeConfig.log_path with the tainted values redacted. What
// the JVM writes after this (little: the console launcher has printed its
// results) goes to the replaced file and is lost.
void RedactLog() {
  const std::string& path = g_config->log_path();
  if (path.empty()) return;
  std::ifstream in(path, std::ios::binary);
  std::stringstream data;
  data << in.rdbuf();
  if (!in) return;
  std::string text = data.str();
  if (g_recorder->RedactText(&text) == 0) return;
  std::string temp = path + ".redacted";
  std::ofstream out(temp, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out || std::rename(temp.c_str(), path.c_str()) != 0) {
    std::remove(temp.c_str());
    AddError("cannot redact the denied values in " + path);
  }
}

void JNICALL OnVMDeath(jvmtiEnv* jvmti, JNIEnv* env) {
  g_recorder->Stop();
  RedactLog();
  std::lock_guard<std::mutex> lock(g_status_mutex);
  g_status->set_vm_death_seen(true);
  for (const std::string& field : g_recorder->WithheldFields()) g_status->add_withheld_fields(field);
  g_status->set_tainted_values(g_recorder->tainted_values());
  g_status->set_trace_limit_reached(g_recorder->trace_limit_reached());
  g_status->set_substitutions(Substitutions());
  if (g_constants != nullptr) {
    for (uint64_t key : DeniedConstants()) g_status->add_denied_constants(key);
  }
  const TaintSet::Keys keys = g_recorder->taint().DeniedKeys();
  for (const TaintSet::TextKey& text : keys.texts) {
    v1::DeniedTextKey* k = g_status->add_denied_text_keys();
    k->set_bytes(text.bytes);
    k->set_key(text.key);
    k->set_rolling(text.rolling);
  }
  for (uint64_t key : keys.numbers) g_status->add_denied_number_keys(key);
  if (g_config->count_calls()) {
    for (const auto& [method, calls] : g_recorder->CallCounts()) {
      v1::MethodCount* count = g_status->add_method_counts();
      count->set_method(method);
      count->set_calls(static_cast<int64_t>(calls));
    }
  }
  if (g_loaded_packages != nullptr) {
    for (const auto& [package, classes] : *g_loaded_packages) {
      v1::PackageCount* count = g_status->add_loaded_packages();
      count->set_package(package);
      count->set_classes(classes);
    }
  }
  WriteStatusLocked();
}

void JNICALL OnMethodExit(jvmtiEnv* jvmti, JNIEnv* env, jthread thread, jmethodID method,
                          jboolean by_exception, jvalue value) {
  g_recorder->OnMethodExit(env, thread, method, by_exception != 0, value);
}

void JNICALL OnException(jvmtiEnv* jvmti, JNIEnv* env, jthread thread, jmethodID method,
                         jlocation location, jobject exception, jmethodID catch_method,
                         jlocation catch_location) {
  g_recorder->OnException(env, exception);
}

bool ReadConfig(const char* options, std::string* error) {
  std::string opts = options != nullptr ? options : "";
  const std::string prefix = "config=";
  if (opts.compare(0, prefix.size(), prefix) != 0) {
    *error = "expected -agentpath:libtracespec_probe.so=config=FILE";
    return false;
  }
  std::string path = opts.substr(prefix.size());
  std::ifstream in(path, std::ios::binary);
  std::stringstream data;
  data << in.rdbuf();
  g_config = new v1::ProbeConfig;
  if (!in || !g_config->ParseFromString(data.str())) {
    *error = "cannot read the probe configuration " + path;
    return false;
  }
  if (g_config->format_version() != v1::FORMAT_VERSION_1) {
    *error = path + ": unsupported format_version";
    return false;
  }
  return true;
}

// RedactionPolicy.deny_env and deny_property, at JVM start (Agent_OnLoad,
// before any Java code runs): the value of each denied environment
// variable and system property that is set goes into the taint set; in a
// substituted run it is first replaced by its substitute, which is then
// what the program reads (System.getenv reads the environment when first
// called; system properties can be set only now) and what the taint set
// holds. Their names go to ProbeStatus.denied_sources.
void TakeDeniedSources() {
  const tracespec::v1::RedactionPolicy& policy = g_config->policy();
  const bool substitute = g_config->substitute_denied();
  const uint64_t seed = g_config->substitution_seed();
  std::vector<std::string> sources;
  std::vector<std::string> env_patterns(policy.deny_env().begin(), policy.deny_env().end());
  for (const auto& [name, value] : DeniedEnvironment(env_patterns, environ)) {
    std::string seen = value;
    if (substitute) {
      seen = SubstituteUtf8(seed, value);
      if (::setenv(name.c_str(), seen.c_str(), /*overwrite=*/1) != 0) {
        AddError("cannot replace the denied environment variable " + name);
        seen = value;
      } else {
        CountSubstitution();
      }
    }
    g_recorder->TaintText(seen);
    sources.push_back("environment variable " + name);
  }
  if (!policy.deny_property().empty()) {
    jint count = 0;
    char** names = nullptr;
    if (g_jvmti->GetSystemProperties(&count, &names) != JVMTI_ERROR_NONE) {
      AddError("cannot list the JVM's system properties: deny_property not applied");
      count = 0;
    }
    for (jint i = 0; i < count; ++i) {
      std::string name = names[i];
      g_jvmti->Deallocate(reinterpret_cast<unsigned char*>(names[i]));
      char* value = nullptr;
      if (!DeniesSourceName(policy.deny_property(), name) ||
          g_jvmti->GetSystemProperty(name.c_str(), &value) != JVMTI_ERROR_NONE ||
          value == nullptr) {
        continue;
      }
      std::string seen = value;  // modified UTF-8, as JVMTI gives strings
      g_jvmti->Deallocate(reinterpret_cast<unsigned char*>(value));
      if (substitute) {
        std::string replaced = SubstituteModifiedUtf8(seed, seen);
        if (g_jvmti->SetSystemProperty(name.c_str(), replaced.c_str()) != JVMTI_ERROR_NONE) {
          AddError("cannot replace the denied system property " + name);
        } else {
          seen = replaced;
          CountSubstitution();
        }
      }
      g_recorder->TaintText(ModifiedUtf8ToUtf8(seen));
      sources.push_back("system property " + name);
    }
    if (names != nullptr) g_jvmti->Deallocate(reinterpret_cast<unsigned char*>(names));
  }
  std::sort(sources.begin(), sources.end());
  for (const std::string& s : sources) g_status->add_denied_sources(s);
}

}  // namespace
}  // namespace tracespec::probe

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM* vm, char* options, void* reserved) {
  using namespace tracespec::probe;
  std::string error;
  if (!ReadConfig(options, &error)) {
    Complain(error);
    return JNI_ERR;
  }
  if (vm->GetEnv(reinterpret_cast<void**>(&g_jvmti), JVMTI_VERSION_11) != JNI_OK) {
    Complain("JVMTI 11 is not available");
    return JNI_ERR;
  }
  g_status = new tracespec::v1::ProbeStatus;
  g_status->set_format_version(tracespec::v1::FORMAT_VERSION_1);
  g_status_path = new std::string(g_config->status_path());
  if (g_config->status_per_process()) *g_status_path += "." + std::to_string(::getpid());
  if (g_config->command_run()) g_loaded_packages = new std::map<std::string, int64_t>;
  if (g_config->find_denied_constants()) g_constants = new RememberedConstants;
  g_targets_by_class = new std::map<std::string, std::vector<int>>;
  g_pattern_targets = new std::vector<int>;
  bool any_constructor = false;
  for (int i = 0; i < g_config->targets_size(); ++i) {
    const tracespec::v1::ProbeTarget& target = g_config->targets(i);
    if (target.pattern()) {
      g_pattern_targets->push_back(i);
    } else {
      std::string internal = target.class_name();
      for (char& c : internal) c = c == '.' ? '/' : c;
      (*g_targets_by_class)[internal].push_back(i);
    }
    *g_status->add_targets()->mutable_target() = target;
    any_constructor |= target.method_name() == "<init>";
  }

  jvmtiCapabilities caps{};
  caps.can_tag_objects = 1;
  // Exits of constructors and interface methods are seen through JVMTI.
  caps.can_generate_method_exit_events = 1;
  caps.can_generate_exception_events = 1;
  // Only constructors need a local variable read (the new object, at exit).
  caps.can_access_local_variables = any_constructor ? 1 : 0;
  if (g_jvmti->AddCapabilities(&caps) != JVMTI_ERROR_NONE) {
    Complain("the JVM refused the JVMTI capabilities the probe needs");
    return JNI_ERR;
  }
  g_recorder = new Recorder(g_jvmti, *g_config);
  // The substituted run of observe --noninterference: a JVMTI environment
  // of its own (its class-file hook runs after this one's).
  if (g_config->substitute_denied() &&
      !InstallSubstitution(vm, *g_config, [](const std::string& e) { AddError(e); }, &error)) {
    Complain(error);
    return JNI_ERR;
  }
  TakeDeniedSources();

  jvmtiEventCallbacks callbacks{};
  callbacks.VMInit = &OnVMInit;
  callbacks.VMDeath = &OnVMDeath;
  callbacks.ClassFileLoadHook = &OnClassFileLoad;
  callbacks.MethodExit = &OnMethodExit;
  callbacks.Exception = &OnException;
  g_jvmti->SetEventCallbacks(&callbacks, sizeof callbacks);
  g_jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, nullptr);
  g_jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, nullptr);
  g_jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, nullptr);
  std::lock_guard<std::mutex> lock(g_status_mutex);
  WriteStatusLocked();
  return JNI_OK;
}

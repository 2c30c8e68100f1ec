// The interface between rewritten Java code and the probe: one class,
// defined by the probe in the boot class loader, whose static native methods
// the rewritten methods call. Shared by the class-file rewriter (which emits
// the calls) and the agent (which defines the class and binds the natives).
#ifndef TRACESPEC_OBSERVER_PROBE_HOOKS_ABI_H_
#define TRACESPEC_OBSERVER_PROBE_HOOKS_ABI_H_

#include <string>

namespace tracespec::probe {

// Internal name of the hooks class.
inline constexpr char kHooksClass[] = "tracespec/probe/Hooks";

// Every argument is reported by one call "arg<K>" where K is the kind of its
// type: Z B C S I J F D for primitives, L for references. Then the call is
// opened by "enter" (the method is a wrapper whose exit the hooks report) or
// "enterJvmti" (its exit is seen through JVMTI MethodExit), both
// (Ljava/lang/Object;I)V: receiver or null, hook id.
// A wrapper reports its normal exit with "exit<K>" (K as above, or V for
// void) and an exception with "exitThrown".
// The JUnit listener reports the test running on its thread with
// "testStarted(String)" and "testFinished()".
inline constexpr char kEnter[] = "enter";
inline constexpr char kEnterJvmti[] = "enterJvmti";
inline constexpr char kEnterDescriptor[] = "(Ljava/lang/Object;I)V";
inline constexpr char kExitThrown[] = "exitThrown";
inline constexpr char kExitThrownDescriptor[] = "(Ljava/lang/Throwable;)V";
inline constexpr char kTestStarted[] = "testStarted";
inline constexpr char kTestStartedDescriptor[] = "(Ljava/lang/String;)V";
// The substituted run (observe --noninterference) routes reads of denied
// fields through "readDenied(receiver or null, the class the field
// instruction names, read id)" (ClassFile::RedirectFieldReads), which
// substitutes the field's value before the read happens.
inline constexpr char kReadDenied[] = "readDenied";
inline constexpr char kReadDeniedDescriptor[] = "(Ljava/lang/Object;Ljava/lang/Class;I)V";
inline constexpr char kTestFinished[] = "testFinished";
inline constexpr char kTestFinishedDescriptor[] = "()V";

// The value kinds, in the order the natives are declared.
inline constexpr char kValueKinds[] = "ZBCSIJFDL";

// Descriptor of a value of kind `kind` as a hook parameter.
inline std::string HookValueDescriptor(char kind) {
  return kind == 'L' ? "Ljava/lang/Object;" : std::string(1, kind);
}
inline std::string ArgHookName(char kind) { return std::string("arg") + kind; }
inline std::string ArgHookDescriptor(char kind) { return "(" + HookValueDescriptor(kind) + ")V"; }
inline std::string ExitHookName(char kind) { return std::string("exit") + kind; }
inline std::string ExitHookDescriptor(char kind) {
  return kind == 'V' ? "()V" : "(" + HookValueDescriptor(kind) + ")V";
}

}  // namespace tracespec::probe

#endif  // TRACESPEC_OBSERVER_PROBE_HOOKS_ABI_H_

// Running any JVM command line under the probe (`tracespec observe --
// COMMAND`): how the probe is injected into the command, and what the
// status files of the JVMs it started add up to.
#ifndef TRACESPEC_OBSERVER_COMMAND_H_
#define TRACESPEC_OBSERVER_COMMAND_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "tracespec/v1/probe.pb.h"

namespace tracespec::observer {

// The command line with the probe injected.
struct CommandLaunch {
  std::vector<std::string> argv;
  // Environment overrides for the child.
  std::vector<std::pair<std::string, std::string>> env;
  // "-agentpath" or "JAVA_TOOL_OPTIONS".
  std::string injection;
};

// True when `program` is `java` or a path ending in "/java".
bool IsJavaProgram(const std::string& program);

// The class path a java command line names, as observe can read it: the
// value of -cp, -classpath or --class-path, or the jar of -jar (its
// manifest's Class-Path is not followed), relative paths resolved against
// `cwd` (empty: the current directory). "" when the program is not java
// (a launcher: its class path cannot be known) or names none.
std::string CommandClassPath(const std::vector<std::string>& command, const std::string& cwd);

// Injects `-agentpath:PROBE=config=CONFIG`: right after argv[0] when the
// program is java, else appended to JAVA_TOOL_OPTIONS (`inherited` is its
// current value) for a launcher that starts java itself. InvalidArgument
// for an empty command, or when the option would need quoting in
// JAVA_TOOL_OPTIONS (a path with a space).
absl::StatusOr<CommandLaunch> InjectProbe(const std::vector<std::string>& command,
                                          const std::string& probe,
                                          const std::string& config_path,
                                          const std::string& inherited);

// Reads every status file the JVMs of one run wrote (`base` or
// `base.<pid>`), merged: a target counts as loaded, matched or failing when
// it did in any JVM; counters add up; vm_death_seen only when every JVM got
// there. *jvms is the number of files read (0: no JVM loaded the probe).
absl::StatusOr<v1::ProbeStatus> ReadStatuses(const std::string& base, int* jvms);

// "pricing (12 classes), legacy (3 classes)": the packages outside the JDK
// with the most classes loaded, at most `limit`, or "" when there are none.
std::string TopPackages(const v1::ProbeStatus& status, int limit);

}  // namespace tracespec::observer

#endif  // TRACESPEC_OBSERVER_COMMAND_H_

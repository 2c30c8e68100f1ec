// A stop asked for by SIGINT (Ctrl-C) or SIGTERM, for the long commands
// (`run`, `infer`) that keep their finished work: instead of dying in the
// middle of writing, they stop starting work, cut the running solver
// queries short, leave what is unfinished unrecorded (a re-run redoes it)
// and exit. One flag for the whole process, set by a signal handler, read
// anywhere.
#ifndef TRACESPEC_COMMON_INTERRUPT_H_
#define TRACESPEC_COMMON_INTERRUPT_H_

#include <string>

namespace tracespec {

// Installs handlers for SIGINT and SIGTERM that record the first signal
// (StopSignal) and let the process go on; a second signal ends the process
// at once, as without a handler. Also replaces a SIGINT ignored by the
// parent (a background job of a script), so that Ctrl-C is never lost.
void StopOnSignals();

// Whether StopOnSignals is in effect.
bool StopOnSignalsInstalled();

// The signal that asked this process to stop (SIGINT, SIGTERM), or 0.
int StopSignal();

// Records `signal` as if it had arrived (for tests and for callers that
// stop for their own reasons).
void RequestStop(int signal);

// "interrupted by SIGINT" / "interrupted by SIGTERM" for StopSignal().
std::string StopReason();

// The same words for `signal` (e.g. SubprocessResult::interrupted_by, for
// a command that stops its children without StopOnSignals).
std::string InterruptReason(int signal);

}  // namespace tracespec

#endif  // TRACESPEC_COMMON_INTERRUPT_H_

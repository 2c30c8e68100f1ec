// Output locations only their owner can touch. A run directory holds in
// clear what a prompt only shows by shape (observed strings, stored
// prompts), and the audit log is the security team's record: another local
// user must not be able to read them, or to make tracespec write into a
// place of theirs by creating (or linking) the path beforehand.
//
// The rules, checked before anything is written:
//   - the path itself is not a symbolic link;
//   - an existing directory or file there belongs to this user and is not
//     writable by group or others;
//   - every existing directory above it (links resolved) belongs to this
//     user or root and is not writable by group or others unless sticky
//     (as /tmp is).
// Files and directories tracespec makes are 0600/0700 (files.h); the
// process umask is narrowed to 077 so that the JVMs it starts write alike.
#ifndef TRACESPEC_COMMON_OWNED_PATHS_H_
#define TRACESPEC_COMMON_OWNED_PATHS_H_

#include <sys/types.h>

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tracespec {

// Makes `path` (and missing parents, 0700) an output directory, or checks
// the one that exists against the rules above; an existing one that group
// or others may read or enter becomes 0700. Refusals are
// PermissionDenied naming the path and the reason.
absl::Status PrepareOutputDir(const std::string& path);

// Opens `path` for appending (created 0600 if missing) without following a
// symbolic link, after checking it and its directories against the rules
// above (its directory is made like PrepareOutputDir would, but an
// existing one keeps its mode). An existing file others may read becomes
// 0600. Returns the descriptor (O_CLOEXEC).
absl::StatusOr<int> OpenOwnedFileForAppend(const std::string& path);

// Checks an existing `path` (file or directory) against the rules above
// without changing anything; a missing path passes when its existing
// ancestors do.
absl::Status CheckOwnedPath(const std::string& path);

// The login name of the effective user ("uid N" when it has none).
std::string CurrentUserName();

// Narrows the process umask to 077 and remembers the user's own for
// UserUmask(). Called once by main.
void RestrictUmask();

// The umask the process started with (before RestrictUmask; the current
// one if it was never called): the project's build command and a legacy
// program run with it, since what they write is the user's, not ours.
mode_t UserUmask();

}  // namespace tracespec

#endif  // TRACESPEC_COMMON_OWNED_PATHS_H_

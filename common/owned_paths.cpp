// Output locations only their owner can touch; see owned_paths.h.
#include "common/owned_paths.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/files.h"
#include "common/status.h"

namespace tracespec {
namespace {

namespace fs = std::filesystem;

// The umask before RestrictUmask; -1 until it runs.
std::atomic<int> user_umask{-1};

std::string Mode(mode_t mode) { return absl::StrFormat("%04o", mode & 07777); }

// The login name of `uid`, or empty.
std::string LoginName(uid_t uid) {
  std::vector<char> buffer(16384);
  passwd entry;
  passwd* found = nullptr;
  if (::getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) == 0 && found != nullptr) {
    return found->pw_name;
  }
  return "";
}

std::string UserName(uid_t uid) {
  std::string name = LoginName(uid);
  return name.empty() ? absl::StrCat("uid ", uid) : absl::StrCat(name, " (uid ", uid, ")");
}

absl::Status Refuse(const std::string& path, absl::string_view reason) {
  return absl::PermissionDeniedError(absl::StrCat(
      path, ": refused: ", reason,
      "; tracespec writes only where no other user can read or replace what it writes"));
}

absl::Status Errno(absl::string_view what, const std::string& path) {
  int err = errno;
  return absl::FailedPreconditionError(absl::StrCat(path, ": ", what, ": ", std::strerror(err)));
}

// The existing directories above `path`, links resolved: each must belong
// to this user or root and be writable by no one else unless sticky.
absl::Status CheckAncestors(const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec).lexically_normal();
  if (ec) return absl::FailedPreconditionError(absl::StrCat(path, ": ", ec.message()));
  fs::path parent = absolute.parent_path();
  struct stat st;
  while (parent != parent.root_path() && ::lstat(parent.c_str(), &st) != 0 && errno == ENOENT) {
    parent = parent.parent_path();
  }
  std::unique_ptr<char, decltype(&::free)> real(::realpath(parent.c_str(), nullptr), &::free);
  if (real == nullptr) return Errno("cannot resolve", parent.string());
  const uid_t me = ::geteuid();
  fs::path prefix;
  for (const fs::path& part : fs::path(real.get())) {
    prefix /= part;
    if (::stat(prefix.c_str(), &st) != 0) return Errno("cannot inspect", prefix.string());
    if (st.st_uid != me && st.st_uid != 0) {
      return Refuse(path, absl::StrCat("the directory ", prefix.string(), " above it belongs to ",
                                       UserName(st.st_uid), ", who could replace it"));
    }
    if ((st.st_mode & 022) != 0 && (st.st_mode & S_ISVTX) == 0) {
      return Refuse(path, absl::StrCat("the directory ", prefix.string(), " above it is writable by ",
                                       (st.st_mode & 002) != 0 ? "others" : "its group",
                                       " (mode ", Mode(st.st_mode), ") and not sticky"));
    }
  }
  return absl::OkStatus();
}

enum class Kind { kDirectory, kFile, kAny };

// Checks what is at `path` itself (not following a link). Sets *exists.
absl::Status CheckEntry(const std::string& path, Kind kind, struct stat* st, bool* exists) {
  *exists = false;
  if (::lstat(path.c_str(), st) != 0) {
    if (errno == ENOENT) return absl::OkStatus();
    return Errno("cannot inspect", path);
  }
  *exists = true;
  if (S_ISLNK(st->st_mode)) {
    std::error_code ec;
    fs::path target = fs::read_symlink(path, ec);
    return Refuse(path, absl::StrCat("it is a symbolic link",
                                     ec ? "" : absl::StrCat(" (to ", target.string(), ")")));
  }
  if (kind == Kind::kDirectory && !S_ISDIR(st->st_mode)) {
    return absl::FailedPreconditionError(absl::StrCat(path, ": exists and is not a directory"));
  }
  if (kind == Kind::kFile && !S_ISREG(st->st_mode)) {
    return absl::FailedPreconditionError(absl::StrCat(path, ": exists and is not a regular file"));
  }
  if (st->st_uid != ::geteuid()) {
    return Refuse(path, absl::StrCat("it belongs to ", UserName(st->st_uid), ", not to you"));
  }
  if ((st->st_mode & 022) != 0) {
    return Refuse(path, absl::StrCat("it is writable by ",
                                     (st->st_mode & 002) != 0 ? "others" : "its group", " (mode ",
                                     Mode(st->st_mode), ")"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status PrepareOutputDir(const std::string& path) {
  TS_RETURN_IF_ERROR(CheckAncestors(path));
  struct stat st;
  bool exists = false;
  TS_RETURN_IF_ERROR(CheckEntry(path, Kind::kDirectory, &st, &exists));
  if (!exists) return MakeDirs(path);
  if ((st.st_mode & 077) != 0 && ::chmod(path.c_str(), 0700) != 0) {
    return Errno("cannot make it private (chmod 0700)", path);
  }
  return absl::OkStatus();
}

absl::StatusOr<int> OpenOwnedFileForAppend(const std::string& path) {
  TS_RETURN_IF_ERROR(CheckAncestors(path));
  fs::path parent = fs::path(path).parent_path();
  if (!parent.empty() && !IsDirectory(parent.string())) TS_RETURN_IF_ERROR(MakeDirs(parent.string()));
  struct stat st;
  bool exists = false;
  TS_RETURN_IF_ERROR(CheckEntry(path, Kind::kFile, &st, &exists));
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    if (errno == ELOOP) return Refuse(path, "it is a symbolic link");
    return Errno("cannot open", path);
  }
  // What was opened is what was checked (a swap in between is refused).
  absl::Status status;
  if (::fstat(fd, &st) != 0) {
    status = Errno("cannot inspect", path);
  } else if (st.st_uid != ::geteuid() || (st.st_mode & 022) != 0 || !S_ISREG(st.st_mode)) {
    status = Refuse(path, "it changed while it was being opened");
  } else if ((st.st_mode & 077) != 0 && ::fchmod(fd, 0600) != 0) {
    status = Errno("cannot make it private (chmod 0600)", path);
  }
  if (!status.ok()) {
    ::close(fd);
    return status;
  }
  return fd;
}

absl::Status CheckOwnedPath(const std::string& path) {
  TS_RETURN_IF_ERROR(CheckAncestors(path));
  struct stat st;
  bool exists = false;
  return CheckEntry(path, Kind::kAny, &st, &exists);
}

std::string CurrentUserName() {
  std::string name = LoginName(::geteuid());
  return name.empty() ? absl::StrCat("uid ", ::geteuid()) : name;
}

void RestrictUmask() {
  mode_t previous = ::umask(077);
  int expected = -1;
  user_umask.compare_exchange_strong(expected, static_cast<int>(previous));
}

mode_t UserUmask() {
  int saved = user_umask.load();
  if (saved >= 0) return static_cast<mode_t>(saved);
  mode_t current = ::umask(022);  // reading the umask means setting it
  ::umask(current);
  return current;
}

}  // namespace tracespec

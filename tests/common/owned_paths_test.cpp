// Tests for common/owned_paths.h and the modes of common/files.h: what
// tracespec writes is its user's alone whatever the umask, and an output
// place another user made, could replace or links elsewhere is refused.
#include "common/owned_paths.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "common/files.h"
#include "common/subprocess.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;
using testing::TempDir;

// The permission bits of `path` (not following a link).
mode_t ModeOf(const std::string& path) {
  struct stat st;
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

// Sets the umask for one test.
class Umask {
 public:
  explicit Umask(mode_t mask) : previous_(::umask(mask)) {}
  ~Umask() { ::umask(previous_); }

 private:
  mode_t previous_;
};

// Another user's uid for chown, when this test may chown (runs as root).
constexpr uid_t kNobody = 65534;
bool CanChown() { return ::geteuid() == 0; }

TEST(OwnedPathsTest, FilesAndDirectoriesAreOwnerOnlyWhateverTheUmask) {
  Umask open_umask(0);
  TempDir dir;
  std::string nested = dir.path() + "/a/b/c";
  ASSERT_TRUE(MakeDirs(nested).ok());
  EXPECT_EQ(ModeOf(dir.path() + "/a"), 0700u);
  EXPECT_EQ(ModeOf(nested), 0700u);
  ASSERT_TRUE(WriteFileAtomic(nested + "/x.txt", "x").ok());
  EXPECT_EQ(ModeOf(nested + "/x.txt"), 0600u);
  ASSERT_TRUE(WriteFileAtomic(nested + "/key.pub", "k", FileReaders::kEveryone).ok());
  EXPECT_EQ(ModeOf(nested + "/key.pub"), 0644u);
}

TEST(OwnedPathsTest, AnOutputDirectoryIsMadeOrMadePrivate) {
  Umask usual(022);
  TempDir dir;
  std::string fresh = dir.path() + "/runs/one";
  ASSERT_TRUE(PrepareOutputDir(fresh).ok());
  EXPECT_EQ(ModeOf(dir.path() + "/runs"), 0700u);
  EXPECT_EQ(ModeOf(fresh), 0700u);
  // An earlier version's directory, readable by all, is narrowed.
  std::string old = dir.path() + "/old";
  ASSERT_EQ(::mkdir(old.c_str(), 0755), 0);
  ASSERT_TRUE(PrepareOutputDir(old).ok());
  EXPECT_EQ(ModeOf(old), 0700u);
}

TEST(OwnedPathsTest, AWritableOrLinkedOutputDirectoryIsRefused) {
  TempDir dir;
  std::string open = dir.path() + "/open";
  ASSERT_EQ(::mkdir(open.c_str(), 0700), 0);
  ASSERT_EQ(::chmod(open.c_str(), 0777), 0);
  absl::Status s = PrepareOutputDir(open);
  EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied) << s;
  EXPECT_THAT(s.message(), HasSubstr("writable by others (mode 0777)"));
  EXPECT_EQ(ModeOf(open), 0777u);  // refused, not repaired

  std::string real = dir.path() + "/real";
  ASSERT_TRUE(MakeDirs(real).ok());
  std::string link = dir.path() + "/link";
  ASSERT_EQ(::symlink(real.c_str(), link.c_str()), 0);
  s = PrepareOutputDir(link);
  EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied) << s;
  EXPECT_THAT(s.message(), HasSubstr("symbolic link (to " + real + ")"));

  // A directory above that others may write (and is not sticky, unlike
  // /tmp) is refused too: they could replace the output directory.
  std::string shared = dir.path() + "/shared";
  ASSERT_EQ(::mkdir(shared.c_str(), 0700), 0);
  ASSERT_EQ(::chmod(shared.c_str(), 0775), 0);
  s = PrepareOutputDir(shared + "/out");
  EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied) << s;
  EXPECT_THAT(s.message(), HasSubstr("above it is writable by its group (mode 0775) and not sticky"));
  EXPECT_FALSE(FileExists(shared + "/out"));
  ASSERT_EQ(::chmod(shared.c_str(), 01777), 0);
  EXPECT_TRUE(PrepareOutputDir(shared + "/out").ok());
}

TEST(OwnedPathsTest, AnotherUsersDirectoryIsRefused) {
  if (!CanChown()) GTEST_SKIP() << "needs root to give a directory to another user";
  TempDir dir;
  std::string theirs = dir.path() + "/theirs";
  ASSERT_EQ(::mkdir(theirs.c_str(), 0700), 0);
  ASSERT_EQ(::chown(theirs.c_str(), kNobody, kNobody), 0);
  absl::Status s = PrepareOutputDir(theirs);
  EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied) << s;
  EXPECT_THAT(s.message(), HasSubstr("it belongs to"));
  EXPECT_THAT(s.message(), HasSubstr("not to you"));
  s = PrepareOutputDir(theirs + "/run");
  EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied) << s;
  EXPECT_THAT(s.message(), HasSubstr("the directory " + theirs + " above it belongs to"));
}

TEST(OwnedPathsTest, AFileForAppendingIsOwnerOnlyAndNeverALink) {
  Umask usual(022);
  TempDir dir;
  std::string log = dir.path() + "/logs/audit.jsonl";
  absl::StatusOr<int> fd = OpenOwnedFileForAppend(log);
  ASSERT_TRUE(fd.ok()) << fd.status();
  ::close(*fd);
  EXPECT_EQ(ModeOf(log), 0600u);
  EXPECT_EQ(ModeOf(dir.path() + "/logs"), 0700u);

  std::string readable = dir.path() + "/readable.jsonl";
  ASSERT_TRUE(WriteFileAtomic(readable, "x\n").ok());
  ASSERT_EQ(::chmod(readable.c_str(), 0644), 0);
  fd = OpenOwnedFileForAppend(readable);
  ASSERT_TRUE(fd.ok()) << fd.status();
  ::close(*fd);
  EXPECT_EQ(ModeOf(readable), 0600u);

  std::string link = dir.path() + "/link.jsonl";
  ASSERT_EQ(::symlink(log.c_str(), link.c_str()), 0);
  fd = OpenOwnedFileForAppend(link);
  EXPECT_EQ(fd.status().code(), absl::StatusCode::kPermissionDenied) << fd.status();
  EXPECT_THAT(fd.status().message(), HasSubstr("symbolic link"));
  EXPECT_EQ(CheckOwnedPath(link).code(), absl::StatusCode::kPermissionDenied);

  std::string writable = dir.path() + "/writable.jsonl";
  ASSERT_TRUE(WriteFileAtomic(writable, "x\n").ok());
  ASSERT_EQ(::chmod(writable.c_str(), 0666), 0);
  fd = OpenOwnedFileForAppend(writable);
  EXPECT_EQ(fd.status().code(), absl::StatusCode::kPermissionDenied) << fd.status();

  if (CanChown()) {
    std::string theirs = dir.path() + "/theirs.jsonl";
    ASSERT_TRUE(WriteFileAtomic(theirs, "x\n").ok());
    ASSERT_EQ(::chown(theirs.c_str(), kNobody, kNobody), 0);
    fd = OpenOwnedFileForAppend(theirs);
    EXPECT_EQ(fd.status().code(), absl::StatusCode::kPermissionDenied) << fd.status();
  }
}

TEST(OwnedPathsTest, OnlyTheUsersOwnProgramsGetTheUsersUmask) {
  Umask usual(022);
  RestrictUmask();
  EXPECT_EQ(UserUmask(), 022u);
  SubprocessOptions ours;
  absl::StatusOr<SubprocessResult> r = RunSubprocess({"/bin/sh", "-c", "umask"}, ours);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->stdout_data, "0077\n");
  SubprocessOptions users;
  users.user_umask = true;
  r = RunSubprocess({"/bin/sh", "-c", "umask"}, users);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->stdout_data, "0022\n");
}

}  // namespace
}  // namespace tracespec

// File utilities. Every output file is written to a temporary sibling and
// renamed into place, so a reader never sees a half-written file.
#ifndef TRACESPEC_COMMON_FILES_H_
#define TRACESPEC_COMMON_FILES_H_

#include <cstdio>
#include <string>
#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tracespec {

absl::StatusOr<std::string> ReadFile(const std::string& path);

// Writes `content` to `path` atomically (temp file, fsync, rename).
absl::Status WriteFileAtomic(const std::string& path, absl::string_view content);

// Creates `path` and its parents if missing.
absl::Status MakeDirs(const std::string& path);

// While one is alive, files written by WriteFileAtomic/AtomicFileWriter get
// mode 0600 and directories MakeDirs creates 0700 (instead of 0644/0755):
// for run directories that hold prompts, answers and observations. Process
// wide; the previous modes come back when it goes away.
class PrivateOutputScope {
 public:
  PrivateOutputScope();
  ~PrivateOutputScope();
  PrivateOutputScope(const PrivateOutputScope&) = delete;
  PrivateOutputScope& operator=(const PrivateOutputScope&) = delete;

 private:
  bool previous_;
};

bool FileExists(const std::string& path);
bool IsDirectory(const std::string& path);

// A fresh directory under $TMPDIR (or /tmp) named `prefix`XXXXXX.
absl::StatusOr<std::string> MakeTempDir(absl::string_view prefix);

// Removes a file or a directory tree; missing paths are not an error.
absl::Status RemoveAll(const std::string& path);

// Streams content into `path`: writes go to a temporary sibling, Commit()
// fsyncs and renames it into place. Destroying an uncommitted writer removes
// the temporary file, leaving `path` as it was.
class AtomicFileWriter {
 public:
  static absl::StatusOr<AtomicFileWriter> Open(const std::string& path);
  AtomicFileWriter(AtomicFileWriter&& other) noexcept;
  AtomicFileWriter& operator=(AtomicFileWriter&& other) noexcept;
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;
  ~AtomicFileWriter();

  absl::Status Write(absl::string_view data);
  absl::Status Commit();
  const std::string& path() const { return path_; }

 private:
  AtomicFileWriter(std::string path, std::string temp_path, std::FILE* file)
      : path_(std::move(path)), temp_path_(std::move(temp_path)), file_(file) {}
  void Abandon();

  std::string path_;
  std::string temp_path_;
  std::FILE* file_ = nullptr;
};

}  // namespace tracespec

#endif  // TRACESPEC_COMMON_FILES_H_

// File utilities. Every output file is written to a temporary sibling and
// renamed into place, so a reader never sees a half-written file; a
// symbolic link planted at the path is replaced, never written through.
// What tracespec writes is its user's alone: files are created 0600 and
// directories 0700 whatever the umask (prompts, observations and reports
// hold in clear what a prompt only shows by shape).
#ifndef TRACESPEC_COMMON_FILES_H_
#define TRACESPEC_COMMON_FILES_H_

#include <cstdio>
#include <string>
#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tracespec {

absl::StatusOr<std::string> ReadFile(const std::string& path);

// Who may read a file WriteFileAtomic writes: its owner (0600), or, for
// what is meant to be handed out (a public key), everyone (0644).
enum class FileReaders { kOwner, kEveryone };

// Writes `content` to `path` atomically (temp file, fsync, rename).
absl::Status WriteFileAtomic(const std::string& path, absl::string_view content,
                             FileReaders readers = FileReaders::kOwner);

// Creates `path` and its missing parents, each 0700.
absl::Status MakeDirs(const std::string& path);

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
  // The file becomes 0644 instead of 0600.
  void ReadableByEveryone();
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

// File utilities; see files.h.
#include "common/files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <vector>

#include "absl/strings/str_cat.h"

namespace tracespec {
namespace {

absl::Status ErrnoError(absl::string_view what, const std::string& path) {
  int err = errno;
  std::string message = absl::StrCat(path, ": ", what, ": ", std::strerror(err));
  if (err == ENOENT) return absl::NotFoundError(message);
  if (err == EACCES || err == EPERM) return absl::PermissionDeniedError(message);
  return absl::InternalError(message);
}

}  // namespace

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  if (IsDirectory(path)) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": is a directory"));
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return ErrnoError("cannot open", path);
  std::string out;
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) out.append(buffer, n);
  bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return ErrnoError("cannot read", path);
  return out;
}

absl::Status WriteFileAtomic(const std::string& path, absl::string_view content,
                             FileReaders readers) {
  auto writer = AtomicFileWriter::Open(path);
  if (!writer.ok()) return writer.status();
  if (readers == FileReaders::kEveryone) writer->ReadableByEveryone();
  if (auto s = writer->Write(content); !s.ok()) return s;
  return writer->Commit();
}

absl::Status MakeDirs(const std::string& path) {
  // Component by component, so that every directory made here is 0700
  // (mkdir's mode is further narrowed by the umask, never widened).
  std::filesystem::path prefix;
  for (const std::filesystem::path& part : std::filesystem::path(path)) {
    prefix /= part;
    if (part.empty() || IsDirectory(prefix.string())) continue;
    if (::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST) {
      return absl::InternalError(
          absl::StrCat(path, ": cannot create directory: ", std::strerror(errno)));
    }
  }
  return absl::OkStatus();
}

bool FileExists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

bool IsDirectory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

absl::StatusOr<std::string> MakeTempDir(absl::string_view prefix) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      absl::StrCat(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp", "/", prefix, "XXXXXX");
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (::mkdtemp(buffer.data()) == nullptr) return ErrnoError("mkdtemp", pattern);
  return std::string(buffer.data());
}

absl::Status RemoveAll(const std::string& path) {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
  if (ec) {
    return absl::InternalError(absl::StrCat(path, ": cannot remove: ", ec.message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<AtomicFileWriter> AtomicFileWriter::Open(const std::string& path) {
  std::string temp = absl::StrCat(path, ".tmp.XXXXXX");
  std::vector<char> buffer(temp.begin(), temp.end());
  buffer.push_back('\0');
  int fd = ::mkstemp(buffer.data());
  if (fd < 0) return ErrnoError("cannot create", path);
  ::fchmod(fd, 0600);
  std::FILE* file = ::fdopen(fd, "wb");
  if (file == nullptr) {
    ::close(fd);
    ::unlink(buffer.data());
    return ErrnoError("cannot open", path);
  }
  return AtomicFileWriter(path, std::string(buffer.data()), file);
}

AtomicFileWriter::AtomicFileWriter(AtomicFileWriter&& other) noexcept
    : path_(std::move(other.path_)),
      temp_path_(std::move(other.temp_path_)),
      file_(other.file_) {
  other.file_ = nullptr;
}

AtomicFileWriter& AtomicFileWriter::operator=(AtomicFileWriter&& other) noexcept {
  if (this != &other) {
    Abandon();
    path_ = std::move(other.path_);
    temp_path_ = std::move(other.temp_path_);
    file_ = other.file_;
    other.file_ = nullptr;
  }
  return *this;
}

AtomicFileWriter::~AtomicFileWriter() { Abandon(); }

void AtomicFileWriter::Abandon() {
  if (file_ != nullptr) {
    std::fclose(file_);
    ::unlink(temp_path_.c_str());
    file_ = nullptr;
  }
}

absl::Status AtomicFileWriter::Write(absl::string_view data) {
  if (file_ == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(path_, ": writer is closed"));
  }
  if (std::fwrite(data.data(), 1, data.size(), file_) != data.size()) {
    return ErrnoError("cannot write", path_);
  }
  return absl::OkStatus();
}

void AtomicFileWriter::ReadableByEveryone() {
  if (file_ != nullptr) ::fchmod(::fileno(file_), 0644);
}

absl::Status AtomicFileWriter::Commit() {
  if (file_ == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(path_, ": writer is closed"));
  }
  bool ok = std::fflush(file_) == 0 && ::fsync(::fileno(file_)) == 0;
  absl::Status status = ok ? absl::OkStatus() : ErrnoError("cannot flush", path_);
  std::fclose(file_);
  file_ = nullptr;
  if (status.ok() && ::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    status = ErrnoError("cannot rename into place", path_);
  }
  if (!status.ok()) ::unlink(temp_path_.c_str());
  return status;
}

}  // namespace tracespec

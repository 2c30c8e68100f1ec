// Reading .jar archives (ZIP, PKWARE APPNOTE): the central directory is read
// directly and entries are inflated with zlib. Stored and deflated entries are
// supported; encrypted entries and ZIP64 archives are rejected with an error.
#ifndef TRACESPEC_VALIDATOR_CLASSFILE_JAR_H_
#define TRACESPEC_VALIDATOR_CLASSFILE_JAR_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tracespec::classfile {

class JarFile {
 public:
  // Reads the archive at `path` into memory and indexes its central directory.
  static absl::StatusOr<JarFile> Open(const std::string& path);
  // Indexes an archive held in memory; `name` is used in errors.
  static absl::StatusOr<JarFile> FromBytes(std::string bytes, std::string name);

  const std::string& name() const { return name_; }
  // Entry names in sorted order (directories included, ending in '/').
  std::vector<std::string> EntryNames() const;
  bool Contains(const std::string& entry) const { return entries_.count(entry) > 0; }
  // The uncompressed contents of `entry`, CRC-checked. Errors read
  // "<jar>!<entry>: byte <offset>: <problem>" or "<jar>: no entry <entry>".
  absl::StatusOr<std::string> Read(const std::string& entry) const;

  // Entries larger than this (uncompressed) are rejected as absurd.
  static constexpr uint64_t kMaxEntrySize = 256u << 20;

 private:
  struct Entry {
    uint16_t method = 0;
    uint16_t flags = 0;
    uint32_t crc = 0;
    uint32_t compressed_size = 0;
    uint32_t uncompressed_size = 0;
    uint32_t local_header_offset = 0;
  };
  JarFile() = default;
  absl::Status Index();

  std::string name_;
  std::string data_;
  std::map<std::string, Entry> entries_;
};

}  // namespace tracespec::classfile

#endif  // TRACESPEC_VALIDATOR_CLASSFILE_JAR_H_

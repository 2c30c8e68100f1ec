// ZIP reading for .jar archives; see jar.h.
#include "validator/classfile/jar.h"

#include <zlib.h>

#include "absl/strings/str_cat.h"
#include "common/files.h"
#include "common/status.h"

namespace tracespec::classfile {
namespace {

constexpr uint32_t kEndOfCentralDirectory = 0x06054b50;
constexpr uint32_t kCentralDirectoryHeader = 0x02014b50;
constexpr uint32_t kLocalFileHeader = 0x04034b50;

uint32_t Le(const std::string& data, uint64_t at, int bytes) {
  uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(data[at + i]);
  return v;
}

}  // namespace

absl::StatusOr<JarFile> JarFile::Open(const std::string& path) {
  TS_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
  return FromBytes(std::move(bytes), path);
}

absl::StatusOr<JarFile> JarFile::FromBytes(std::string bytes, std::string name) {
  JarFile jar;
  jar.name_ = std::move(name);
  jar.data_ = std::move(bytes);
  TS_RETURN_IF_ERROR(jar.Index());
  return jar;
}

absl::Status JarFile::Index() {
  auto error = [this](uint64_t at, absl::string_view problem) {
    return absl::InvalidArgumentError(absl::StrCat(name_, ": byte ", at, ": ", problem));
  };
  const uint64_t size = data_.size();
  if (size < 22) return error(0, "not a jar/zip archive (too short for an end record)");
  // The end record is 22 bytes plus a comment of at most 65535 bytes.
  uint64_t lowest = size > 22 + 65535 ? size - 22 - 65535 : 0;
  uint64_t eocd = UINT64_MAX;
  for (uint64_t at = size - 22 + 1; at-- > lowest;) {
    if (Le(data_, at, 4) == kEndOfCentralDirectory && at + 22 + Le(data_, at + 20, 2) == size) {
      eocd = at;
      break;
    }
  }
  if (eocd == UINT64_MAX) return error(size, "not a jar/zip archive (no end record)");
  uint32_t disk = Le(data_, eocd + 4, 2), cd_disk = Le(data_, eocd + 6, 2);
  uint32_t count = Le(data_, eocd + 10, 2);
  uint32_t cd_size = Le(data_, eocd + 12, 4), cd_offset = Le(data_, eocd + 16, 4);
  if (disk != 0 || cd_disk != 0) return error(eocd, "multi-disk archives are not supported");
  if (count == 0xFFFF || cd_size == 0xFFFFFFFFu || cd_offset == 0xFFFFFFFFu) {
    return error(eocd, "ZIP64 archives are not supported");
  }
  if (static_cast<uint64_t>(cd_offset) + cd_size > eocd) {
    return error(eocd, absl::StrCat("central directory [", cd_offset, ", +", cd_size,
                                    ") overlaps the end record"));
  }
  uint64_t at = cd_offset;
  const uint64_t cd_end = static_cast<uint64_t>(cd_offset) + cd_size;
  for (uint32_t i = 0; i < count; ++i) {
    if (at + 46 > cd_end) return error(at, absl::StrCat("truncated central directory entry ", i));
    if (Le(data_, at, 4) != kCentralDirectoryHeader) {
      return error(at, absl::StrCat("bad signature of central directory entry ", i));
    }
    Entry e;
    e.flags = static_cast<uint16_t>(Le(data_, at + 8, 2));
    e.method = static_cast<uint16_t>(Le(data_, at + 10, 2));
    e.crc = Le(data_, at + 16, 4);
    e.compressed_size = Le(data_, at + 20, 4);
    e.uncompressed_size = Le(data_, at + 24, 4);
    uint32_t name_length = Le(data_, at + 28, 2);
    uint32_t extra_length = Le(data_, at + 30, 2);
    uint32_t comment_length = Le(data_, at + 32, 2);
    e.local_header_offset = Le(data_, at + 42, 4);
    uint64_t next = at + 46 + name_length + extra_length + comment_length;
    if (next > cd_end) return error(at, absl::StrCat("central directory entry ", i,
                                                     " runs past the directory"));
    std::string entry_name = data_.substr(at + 46, name_length);
    if (e.compressed_size == 0xFFFFFFFFu || e.uncompressed_size == 0xFFFFFFFFu ||
        e.local_header_offset == 0xFFFFFFFFu) {
      return error(at, absl::StrCat("entry ", entry_name, ": ZIP64 is not supported"));
    }
    entries_[entry_name] = e;
    at = next;
  }
  return absl::OkStatus();
}

std::vector<std::string> JarFile::EntryNames() const {
  std::vector<std::string> out;
  out.reserve(entries_.size());
  for (const auto& [name, e] : entries_) out.push_back(name);
  return out;
}

absl::StatusOr<std::string> JarFile::Read(const std::string& entry) const {
  auto it = entries_.find(entry);
  if (it == entries_.end()) return absl::NotFoundError(absl::StrCat(name_, ": no entry ", entry));
  const Entry& e = it->second;
  std::string where = absl::StrCat(name_, "!", entry);
  auto error = [&](uint64_t at, absl::string_view problem) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": byte ", at, ": ", problem));
  };
  if (e.flags & 1) return error(e.local_header_offset, "encrypted entries are not supported");
  uint64_t at = e.local_header_offset;
  if (at + 30 > data_.size()) return error(at, "truncated local file header");
  if (Le(data_, at, 4) != kLocalFileHeader) return error(at, "bad local file header signature");
  uint64_t start = at + 30 + Le(data_, at + 26, 2) + Le(data_, at + 28, 2);
  if (start + e.compressed_size > data_.size()) {
    return error(start, absl::StrCat("entry data (", e.compressed_size,
                                     " bytes) runs past the end of the archive"));
  }
  if (e.uncompressed_size > kMaxEntrySize) {
    return error(at, absl::StrCat("entry of ", e.uncompressed_size, " bytes is too large"));
  }
  std::string out;
  if (e.method == 0) {
    if (e.compressed_size != e.uncompressed_size) {
      return error(at, "stored entry with different compressed and uncompressed sizes");
    }
    out = data_.substr(start, e.compressed_size);
  } else if (e.method == 8) {
    // One spare byte, so that data longer than announced is detected.
    out.resize(static_cast<size_t>(e.uncompressed_size) + 1);
    z_stream zs{};
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) return absl::InternalError("zlib: inflateInit2");
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data_.data() + start));
    zs.avail_in = e.compressed_size;
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = e.uncompressed_size + 1;
    int rc = inflate(&zs, Z_FINISH);
    uint64_t produced = zs.total_out;
    uint64_t consumed = zs.total_in;
    inflateEnd(&zs);
    if (rc != Z_STREAM_END || produced != e.uncompressed_size) {
      return error(start + consumed,
                   absl::StrCat("corrupt deflate data (zlib status ", rc, ", ", produced,
                                " of ", e.uncompressed_size, " bytes)"));
    }
    out.resize(e.uncompressed_size);
  } else {
    return error(at, absl::StrCat("compression method ", e.method, " is not supported"));
  }
  uint32_t crc = static_cast<uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(out.data()), static_cast<uInt>(out.size())));
  if (crc != e.crc) return error(start, "CRC mismatch");
  return out;
}

}  // namespace tracespec::classfile

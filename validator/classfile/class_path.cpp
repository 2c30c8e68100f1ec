// Class loading from directories and jars; see class_path.h.
#include "validator/classfile/class_path.h"

#include <filesystem>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "common/status.h"

namespace tracespec::classfile {

absl::StatusOr<ClassPath> ClassPath::Create(absl::string_view path_list) {
  ClassPath cp;
  for (absl::string_view entry : absl::StrSplit(path_list, ':', absl::SkipEmpty())) {
    TS_RETURN_IF_ERROR(cp.AddEntry(std::string(entry)));
  }
  return cp;
}

absl::Status ClassPath::AddEntry(const std::string& path) {
  Source source;
  if (IsDirectory(path)) {
    source.directory = path;
  } else if (FileExists(path)) {
    TS_ASSIGN_OR_RETURN(JarFile jar, JarFile::Open(path));
    source.jar = std::make_unique<JarFile>(std::move(jar));
  } else {
    return absl::NotFoundError(absl::StrCat(path, ": class path entry does not exist"));
  }
  entry_names_.push_back(path);
  sources_.push_back(std::move(source));
  return absl::OkStatus();
}

absl::Status ClassPath::AddJarBytes(std::string bytes, std::string name) {
  TS_ASSIGN_OR_RETURN(JarFile jar, JarFile::FromBytes(std::move(bytes), name));
  Source source;
  source.jar = std::make_unique<JarFile>(std::move(jar));
  entry_names_.push_back(std::move(name));
  sources_.push_back(std::move(source));
  return absl::OkStatus();
}

absl::StatusOr<ClassPath::ClassBytes> ClassPath::ReadBytes(absl::string_view name) const {
  std::string internal = BinaryToInternal(name);
  if (internal.empty() || absl::StrContains(internal, "..") || internal[0] == '/') {
    return absl::NotFoundError(absl::StrCat("class ", name, ": not a valid class name"));
  }
  std::string relative = absl::StrCat(internal, ".class");
  for (const Source& source : sources_) {
    ClassBytes out;
    if (!source.directory.empty()) {
      std::string path = absl::StrCat(source.directory, "/", relative);
      if (!FileExists(path)) continue;
      TS_ASSIGN_OR_RETURN(out.bytes, ReadFile(path));
      out.where = path;
    } else {
      if (!source.jar->Contains(relative)) continue;
      TS_ASSIGN_OR_RETURN(out.bytes, source.jar->Read(relative));
      out.where = absl::StrCat(source.jar->name(), "!", relative);
    }
    return out;
  }
  return absl::NotFoundError(absl::StrCat("class ", InternalToBinary(internal),
                                          " not found on the class path"));
}

absl::StatusOr<const ClassFile*> ClassPath::Load(absl::string_view name) {
  std::string internal = BinaryToInternal(name);
  std::lock_guard<std::mutex> lock(*cache_mutex_);
  auto cached = cache_.find(internal);
  if (cached != cache_.end()) return cached->second.get();
  TS_ASSIGN_OR_RETURN(ClassBytes read, ReadBytes(name));
  TS_ASSIGN_OR_RETURN(ClassFile cf, ParseClassFile(read.bytes, read.where));
  if (cf.name != internal) {
    return absl::InvalidArgumentError(
        absl::StrCat(read.where, ": declares class ", cf.name, ", expected ", internal));
  }
  auto owned = std::make_unique<ClassFile>(std::move(cf));
  const ClassFile* out = owned.get();
  cache_[internal] = std::move(owned);
  return out;
}

std::vector<std::string> ClassPath::ListClasses() const {
  std::set<std::string> names;
  auto add = [&names](const std::string& relative) {
    if (!absl::EndsWith(relative, ".class") || absl::StartsWith(relative, "META-INF/")) return;
    std::string name = relative.substr(0, relative.size() - 6);
    if (absl::EndsWith(name, "module-info") || absl::EndsWith(name, "package-info")) return;
    names.insert(name);
  };
  for (const Source& source : sources_) {
    if (!source.directory.empty()) {
      std::error_code ec;
      std::filesystem::recursive_directory_iterator it(source.directory, ec), end;
      for (; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        std::string relative =
            std::filesystem::relative(it->path(), source.directory, ec).generic_string();
        if (!ec) add(relative);
      }
    } else {
      for (const std::string& entry : source.jar->EntryNames()) add(entry);
    }
  }
  return std::vector<std::string>(names.begin(), names.end());
}

}  // namespace tracespec::classfile

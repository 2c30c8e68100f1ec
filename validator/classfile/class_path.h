// A class path: directories and .jar archives searched in order for classes
// by name, as the JVM's application class loader does. Loaded classes are
// parsed once and cached. Once its entries are added, threads may share it
// (Load locks the cache; the rest only reads).
#ifndef TRACESPEC_VALIDATOR_CLASSFILE_CLASS_PATH_H_
#define TRACESPEC_VALIDATOR_CLASSFILE_CLASS_PATH_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "validator/classfile/class_file.h"
#include "validator/classfile/jar.h"

namespace tracespec::classfile {

class ClassPath {
 public:
  ClassPath() = default;
  ClassPath(ClassPath&&) = default;
  ClassPath& operator=(ClassPath&&) = default;

  // `path_list` is ':'-separated; each entry is a directory or a .jar/.zip
  // file. A missing entry is a NotFound error naming it.
  static absl::StatusOr<ClassPath> Create(absl::string_view path_list);

  // Adds one directory or archive at the end of the search order.
  absl::Status AddEntry(const std::string& path);
  // Adds an archive held in memory (used by the fuzzer and tests).
  absl::Status AddJarBytes(std::string bytes, std::string name);

  // The class named `name` ("pkg.Name" or "pkg/Name"); NotFound when no entry
  // has it, InvalidArgument (with file and byte offset) when it is malformed
  // or declares a different name. The pointer stays valid while the
  // ClassPath lives.
  absl::StatusOr<const ClassFile*> Load(absl::string_view name);

  // The bytes of the class file Load would read for `name`, unparsed, and
  // where they come from ("dir/pkg/Name.class", "lib.jar!pkg/Name.class").
  struct ClassBytes {
    std::string bytes;
    std::string where;
  };
  absl::StatusOr<ClassBytes> ReadBytes(absl::string_view name) const;

  // Every class on the path (internal names, sorted, duplicates removed).
  std::vector<std::string> ListClasses() const;

  const std::vector<std::string>& entries() const { return entry_names_; }

 private:
  struct Source {
    std::string directory;            // set for directories
    std::unique_ptr<JarFile> jar;     // set for archives
  };
  std::vector<std::string> entry_names_;
  std::vector<Source> sources_;
  std::unique_ptr<std::mutex> cache_mutex_ = std::make_unique<std::mutex>();  // keeps it movable
  std::map<std::string, std::unique_ptr<ClassFile>> cache_;
};

}  // namespace tracespec::classfile

#endif  // TRACESPEC_VALIDATOR_CLASSFILE_CLASS_PATH_H_

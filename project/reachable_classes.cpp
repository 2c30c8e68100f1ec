// Class files reachable from roots; see reachable_classes.h.
#include "project/reachable_classes.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <map>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "common/files.h"
#include "common/status.h"
#include "validator/classfile/class_file.h"

namespace tracespec::project {
namespace {

namespace fs = std::filesystem;

bool IsNameChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '/' || c == '.' || static_cast<unsigned char>(c) >= 0x80;
}

// The internal class names a constant-pool text may spell: the runs of
// name characters in it, as they are ("pkg/C"), dotted ("pkg.C"), or after
// a descriptor's 'L' ("Lpkg/C;" in "(Lpkg/C;[I)V" or "Ljava/util/List<Lpkg/C;>;").
template <typename Fn>
void ForEachCandidate(const std::string& text, Fn&& fn) {
  size_t i = 0;
  while (i < text.size()) {
    if (!IsNameChar(text[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && IsNameChar(text[end])) ++end;
    std::string token = absl::StrReplaceAll(text.substr(i, end - i), {{".", "/"}});
    fn(token);
    if (token.size() > 1 && token[0] == 'L') fn(token.substr(1));
    i = end;
  }
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ReachableClassFiles(
    const std::vector<std::string>& dirs, const std::vector<std::string>& roots) {
  // Internal name -> file; the first directory holding a class wins, as on a
  // class path.
  std::map<std::string, std::string> files;
  for (const std::string& dir : dirs) {
    if (!IsDirectory(dir)) continue;
    std::vector<std::string> found;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string path = it->path().string();
      if (it->is_regular_file() && absl::EndsWith(path, ".class")) found.push_back(path);
    }
    if (ec) return absl::UnavailableError(absl::StrCat("cannot list ", dir, ": ", ec.message()));
    for (const std::string& path : found) {
      std::string relative = fs::path(path).lexically_relative(dir).generic_string();
      files.emplace(relative.substr(0, relative.size() - 6), path);
    }
  }
  std::set<std::string> reached;
  std::deque<std::string> queue;
  auto reach = [&](const std::string& internal) {
    if (files.count(internal) > 0 && reached.insert(internal).second) queue.push_back(internal);
  };
  for (const std::string& root : roots) reach(classfile::BinaryToInternal(root));
  while (!queue.empty()) {
    const std::string& path = files[queue.front()];
    queue.pop_front();
    TS_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
    absl::StatusOr<classfile::ClassFile> cls = classfile::ParseClassFile(bytes, path);
    if (!cls.ok()) continue;
    for (size_t i = 1; i < cls->pool.size(); ++i) {
      const classfile::CpEntry& entry = cls->pool.at(i);
      if (entry.tag == classfile::CpTag::kUtf8) ForEachCandidate(entry.text, reach);
    }
  }
  std::vector<std::string> out;
  for (const std::string& name : reached) out.push_back(files[name]);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tracespec::project

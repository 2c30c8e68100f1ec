// What `tracespec check` verifies before it checks; see check_guard.h.
#include "project/check_guard.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "common/files.h"
#include "validator/jml/parser.h"

namespace tracespec::project {
namespace {

namespace fs = std::filesystem;

constexpr char kSpecsDir[] = "specs";

// Relative path under `root` -> absolute path, for every regular file
// ending in `extension`, sorted.
std::map<std::string, std::string> FilesUnder(const std::string& root, const std::string& extension) {
  std::map<std::string, std::string> files;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return files;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->path().extension() != extension) continue;
    files[fs::relative(it->path(), root, ec).generic_string()] = it->path().string();
  }
  return files;
}

// Method contracts declared in a .jml file (model methods are not
// contracts of the class's methods).
absl::StatusOr<int> CountContracts(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  absl::StatusOr<std::unique_ptr<jml::CompilationUnit>> unit = jml::ParseJmlFile(*text, path);
  if (!unit.ok()) return unit.status();
  // Malformed JML is kept on its declaration (jml::ParseJmlFile); a stored
  // contract that no longer parses is named, not counted as missing.
  if (!(*unit)->errors.empty()) return (*unit)->errors.front();
  int count = 0;
  for (const auto& type : (*unit)->types) {
    if (!type->errors.empty()) return type->errors.front();
    for (const jml::MethodDecl& m : type->methods) {
      if (!m.errors.empty()) return m.errors.front();
      if (!m.jml && !m.spec.empty()) ++count;
    }
  }
  return count;
}

}  // namespace

absl::Status SpecsMatchRun(const std::string& out_dir, const v1::RunSummary& summary) {
  const std::string run_json = absl::StrCat(out_dir, "/run.json");
  std::map<std::string, int> named;  // "specs/a/B.jml" -> methods run.json puts there
  for (const std::string& f : summary.spec_files()) named[f];
  for (const v1::MethodRun& m : summary.methods()) {
    if (!m.spec_file().empty()) ++named[m.spec_file()];
  }
  std::map<std::string, std::string> on_disk;
  for (const auto& [rel, abs] : FilesUnder(absl::StrCat(out_dir, "/", kSpecsDir), ".jml")) {
    on_disk[absl::StrCat(kSpecsDir, "/", rel)] = abs;
  }
  for (const auto& [file, count] : named) {
    if (!on_disk.count(file)) {
      return absl::FailedPreconditionError(absl::StrCat(
          run_json, " names ", out_dir, "/", file, ", which does not exist: the contracts of ",
          count, count == 1 ? " method cannot" : " methods cannot",
          " be checked; run `tracespec run` again"));
    }
  }
  for (const auto& [file, path] : on_disk) {
    auto it = named.find(file);
    if (it == named.end()) {
      return absl::FailedPreconditionError(
          absl::StrCat(path, " is not a spec file of the run ", run_json,
                       " records: its contracts would go unchecked; remove it or run `tracespec "
                       "run` again"));
    }
    absl::StatusOr<int> held = CountContracts(path);
    if (!held.ok()) return held.status();
    if (*held != it->second) {
      return absl::FailedPreconditionError(absl::StrCat(
          path, " holds ", *held, *held == 1 ? " method contract; " : " method contracts; ",
          run_json, " names ", it->second, " for it: the files changed after the run; run "
          "`tracespec run` again"));
    }
  }
  return absl::OkStatus();
}

namespace {

// The package path of a Java source ("shop/" for `package shop;`, "" for
// the default package), from its first package declaration.
std::string PackagePath(const std::string& source) {
  absl::StatusOr<std::string> text = ReadFile(source);
  if (!text.ok()) return "";
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (!absl::ConsumePrefix(&line, "package ")) continue;
    size_t end = line.find(';');
    if (end == absl::string_view::npos) return "";
    return absl::StrCat(absl::StrReplaceAll(absl::StripAsciiWhitespace(line.substr(0, end)),
                                            {{".", "/"}}),
                        "/");
  }
  return "";
}

}  // namespace

std::vector<std::string> StaleSources(const Project& project, bool* roots_found) {
  // Class file path relative to a class directory ("shop/Util.class") ->
  // source, for every source of `sources`.
  std::map<std::string, std::string> sources;
  for (const std::string& entry : project.config.sources()) {
    if (IsDirectory(entry)) {
      for (const auto& [rel, source] : FilesUnder(entry, ".java")) sources.emplace(rel, source);
    } else if (absl::EndsWith(entry, ".java") && FileExists(entry)) {
      sources.emplace(absl::StrCat(PackagePath(entry), fs::path(entry).filename().string()), entry);
    }
  }
  if (roots_found != nullptr) *roots_found = !sources.empty();
  std::vector<std::string> stale;
  std::error_code ec;
  for (const auto& [rel, source] : sources) {
    if (absl::EndsWith(rel, "package-info.java") || absl::EndsWith(rel, "module-info.java")) continue;
    const std::string class_rel = rel.substr(0, rel.size() - 5) + ".class";
    for (const std::string& classes : project.config.classes()) {
      std::string class_file = absl::StrCat(classes, "/", class_rel);
      if (!fs::exists(class_file, ec)) continue;
      if (fs::last_write_time(source, ec) > fs::last_write_time(class_file, ec)) {
        stale.push_back(absl::StrCat(fs::relative(source, project.dir, ec).generic_string(),
                                     " is newer than ",
                                     fs::relative(class_file, project.dir, ec).generic_string()));
      }
      break;
    }
  }
  std::sort(stale.begin(), stale.end());
  return stale;
}

}  // namespace tracespec::project

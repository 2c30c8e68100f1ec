// What `tracespec check` verifies before it checks; see check_guard.h.
#include "project/check_guard.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "agent/loop/run_dir.h"
#include "common/files.h"
#include "common/status.h"
#include "validator/jml/parser.h"
#include "validator/jml/printer.h"
#include "validator/jml/type_env.h"

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

// A method declared in a .jml file (model methods are not methods of the
// class, so not listed).
struct Declared {
  std::string method;  // "a.B#m(I)V"
  int line = 0;        // of the contract's first annotation, else of the name
  bool has_contract = false;
  std::string text;  // the contract, printed canonically
  // The parser's message when its JML does not parse ("" = it does).
  std::string error;
};

// The canonical text of a contract: parsed and printed again, so that
// layout and comments do not count.
std::string Canonical(const jml::MethodSpec& spec) { return jml::PrintMethodSpec(spec); }

// The line a parser message ("PATH:12:5: ...") names in `path`; 0 if none.
int LineOfMessage(absl::string_view message, const std::string& path) {
  int line = 0;
  if (!absl::ConsumePrefix(&message, path) || !absl::ConsumePrefix(&message, ":")) return 0;
  absl::string_view digits = message.substr(0, message.find(':'));
  return absl::SimpleAtoi(digits, &line) ? line : 0;
}

// The instance invariants a type of a .jml file declares (those the
// validator assumes and checks for its methods).
struct DeclaredInvariants {
  std::string class_name;
  std::vector<StoredInvariant> invariants;
};

// What a .jml file declares, or why it does not parse as a whole.
struct DeclaredFile {
  // Not empty: the parser's message for the whole file (a Java syntax
  // error the scanner cannot skip, a malformed class-level annotation);
  // nothing else is then filled in.
  std::string error;
  std::vector<Declared> methods;
  std::vector<DeclaredInvariants> invariants;  // types that declare some, as declared
};

// Reading the file is an error (I/O); its JML not parsing is not: it is
// recorded, on the whole file or on the method it belongs to
// (jml::ParseJmlFile keeps malformed JML on its declaration), so that a
// contract that no longer parses is named, not reported as missing, and
// does not hide the other contracts.
absl::StatusOr<DeclaredFile> DeclaredIn(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  DeclaredFile declared;
  absl::StatusOr<std::unique_ptr<jml::CompilationUnit>> unit = jml::ParseJmlFile(*text, path);
  if (!unit.ok()) {
    declared.error = std::string(unit.status().message());
    return declared;
  }
  std::vector<absl::Status> file_errors = (*unit)->errors;
  for (const auto& type : (*unit)->types) {
    file_errors.insert(file_errors.end(), type->errors.begin(), type->errors.end());
  }
  if (!file_errors.empty()) {
    declared.error = std::string(file_errors.front().message());
    return declared;
  }
  // Descriptors as the file's own declarations and the JDK tell them
  // (other classes guessed from their names): no class path needed.
  jml::SourceTypeEnvironment env({unit->get()}, &jml::JdkTypeEnvironment());
  for (const auto& type : (*unit)->types) {
    DeclaredInvariants invariants{type->binary_name, {}};
    for (const jml::ClassClause& c : type->clauses) {
      if (c.kind != jml::ClassClauseKind::kInvariant || !c.pred || c.mods.Has(jml::kModStatic)) {
        continue;
      }
      invariants.invariants.push_back({jml::PrintExpr(*c.pred), c.span.line});
    }
    if (!invariants.invariants.empty()) declared.invariants.push_back(std::move(invariants));
    for (const jml::MethodDecl& m : type->methods) {
      if (m.jml) continue;
      const jml::MethodInfo* info = env.InfoFor(*type, m);
      Declared d;
      d.method = absl::StrCat(type->binary_name, "#", m.name, info != nullptr ? info->descriptor : "");
      if (!m.errors.empty()) {
        d.error = std::string(m.errors.front().message());
        d.has_contract = true;  // a contract, malformed
        d.line = LineOfMessage(d.error, path);
        if (d.line == 0) d.line = m.span.line;
        declared.methods.push_back(std::move(d));
        continue;
      }
      d.has_contract = !m.spec.empty();
      d.line = d.has_contract && m.spec.span.valid() ? m.spec.span.line : m.span.line;
      if (d.has_contract) d.text = Canonical(m.spec);
      declared.methods.push_back(std::move(d));
    }
  }
  return declared;
}

// The contract run.json recorded for `m`, printed canonically; nothing
// when it recorded none that parses (an older run.json).
std::optional<std::string> RecordedText(const v1::MethodRun& m) {
  if (m.contract().empty()) return std::nullopt;
  absl::StatusOr<jml::SpecText> parsed = jml::ParseSpecText(m.contract(), "run.json");
  if (!parsed.ok()) return std::nullopt;
  return Canonical(parsed->spec);
}

// The invariants run.json recorded per class, printed canonically (one
// that does not parse, from an older run.json, as it stands).
std::map<std::string, std::vector<std::string>> RecordedInvariants(const v1::RunSummary& summary) {
  std::map<std::string, std::vector<std::string>> out;
  for (const v1::ClassInvariants& c : summary.class_invariants()) {
    for (const std::string& inv : c.invariants()) {
      absl::StatusOr<jml::ExprPtr> parsed = jml::ParseExpressionText(inv, "run.json");
      out[c.class_name()].push_back(parsed.ok() ? jml::PrintExpr(**parsed) : inv);
    }
  }
  return out;
}

// `declared` (a file's) against what run.json recorded for its classes:
// which the run did not record, and which it did that the file no longer
// states.
std::vector<StoredClassInvariants> CompareInvariants(
    const std::string& file, std::vector<DeclaredInvariants> declared,
    const std::map<std::string, std::vector<std::string>>& recorded) {
  std::vector<StoredClassInvariants> out;
  std::set<std::string> seen;
  auto recorded_of = [&](const std::string& cls) {
    auto it = recorded.find(cls);
    return it == recorded.end() ? std::vector<std::string>{} : it->second;
  };
  for (DeclaredInvariants& d : declared) {
    seen.insert(d.class_name);
    std::vector<std::string> run = recorded_of(d.class_name);
    StoredClassInvariants c{d.class_name, file, std::move(d.invariants), {}};
    std::set<std::string> stated;
    for (StoredInvariant& inv : c.invariants) {
      inv.edited = std::find(run.begin(), run.end(), inv.text) == run.end();
      stated.insert(inv.text);
    }
    for (const std::string& r : run) {
      if (!stated.count(r)) c.removed.push_back(r);
    }
    out.push_back(std::move(c));
  }
  // A class of the file that states none: all the run recorded is gone.
  const std::string cls = ClassOfSpecFile(file);
  if (!seen.count(cls) && !recorded_of(cls).empty()) {
    out.push_back({cls, file, {}, recorded_of(cls)});
  }
  return out;
}

}  // namespace

std::string ClassOfSpecFile(const std::string& file) {
  return absl::StrReplaceAll(
      absl::StripSuffix(absl::StripPrefix(file, absl::StrCat(kSpecsDir, "/")), ".jml"),
      {{"/", "."}});
}

absl::Status RecordRunStarted(const std::string& out_dir, v1::RunSummary summary) {
  summary.set_error(absl::StrCat(
      "it started at ",
      absl::FormatTime("%Y-%m-%d %H:%M:%S UTC", absl::Now(), absl::UTCTimeZone()), " (process ",
      ::getpid(),
      ") and did not finish: it is still running, or it was killed (SIGKILL, out of memory, a "
      "crash) before it could record how it ended"));
  return loop::WriteJsonFile(absl::StrCat(out_dir, "/", kFailedRunJson), summary);
}

absl::Status RefuseFailedTests(const std::string& out_dir, const v1::RunSummary& summary) {
  if (summary.failed_tests().empty()) return absl::OkStatus();
  const int n = summary.failed_tests_size();
  return absl::FailedPreconditionError(absl::StrCat(
      "the last `tracespec run` (", out_dir, "/run.json) recorded ", n,
      n == 1 ? " failing test" : " failing tests", ":\n  ",
      absl::StrJoin(summary.failed_tests(), "\n  "), "\nthe contracts under ", out_dir, "/",
      kSpecsDir,
      " were inferred from code the project's own tests reject (and the methods only those tests "
      "called have none), so check does not vouch for them: make the tests pass (or leave a test "
      "known to fail out of `tests`) and run `tracespec run` again"));
}

Losses LostContracts(const v1::RunSummary& previous, const v1::RunSummary& now) {
  std::set<std::string> with_contract;
  for (const v1::MethodRun& m : now.methods()) {
    if (!m.spec_file().empty()) with_contract.insert(m.method());
  }
  Losses losses;
  for (const v1::MethodRun& m : previous.methods()) {
    if (!m.spec_file().empty() && !with_contract.count(m.method())) {
      losses.since_previous.push_back(m.method());
    }
  }
  for (const std::string& method : previous.contracts_lost()) {
    if (!with_contract.count(method)) losses.carried.push_back(method);
  }
  return losses;
}

std::vector<UncoveredTarget> UncoveredTargets(const std::vector<std::string>& targets,
                                              const v1::RunSummary& summary) {
  std::set<std::string> remaining(targets.begin(), targets.end());
  std::vector<UncoveredTarget> out;
  for (const v1::MethodRun& m : summary.methods()) {
    if (remaining.erase(m.method()) == 0 || !m.spec_file().empty()) continue;
    out.push_back({m.method(), &m});
  }
  for (const std::string& method : remaining) out.push_back({method, nullptr});
  return out;
}

std::string Where(const StoredContract& contract) {
  return absl::StrCat(contract.spec_file, ":", contract.line);
}

absl::StatusOr<StoredSpecs> ReadStoredSpecs(const std::string& out_dir,
                                            const v1::RunSummary& summary) {
  const std::string run_json = absl::StrCat(out_dir, "/run.json");
  // "specs/a/B.jml" -> the methods run.json puts there.
  std::map<std::string, std::vector<const v1::MethodRun*>> named;
  for (const std::string& f : summary.spec_files()) named[f];
  for (const v1::MethodRun& m : summary.methods()) {
    if (!m.spec_file().empty()) named[m.spec_file()].push_back(&m);
  }
  std::map<std::string, std::string> on_disk;
  for (const auto& [rel, abs] : FilesUnder(absl::StrCat(out_dir, "/", kSpecsDir), ".jml")) {
    on_disk[absl::StrCat(kSpecsDir, "/", rel)] = abs;
  }
  for (const auto& [file, methods] : named) {
    if (!on_disk.count(file)) {
      return absl::FailedPreconditionError(absl::StrCat(
          run_json, " names ", out_dir, "/", file, ", which does not exist: the contracts of ",
          methods.size(), methods.size() == 1 ? " method cannot" : " methods cannot",
          " be checked; run `tracespec run` again"));
    }
  }
  std::map<std::string, StoredContract> found;  // by method
  std::map<std::string, std::vector<std::string>> recorded = RecordedInvariants(summary);
  StoredSpecs specs;
  std::vector<std::string> problems;
  for (const auto& [file, path] : on_disk) {
    auto it = named.find(file);
    if (it == named.end()) {
      return absl::FailedPreconditionError(
          absl::StrCat(path, " is not a spec file of the run ", run_json,
                       " records: its contracts would go unchecked; remove it or run `tracespec "
                       "run` again"));
    }
    TS_ASSIGN_OR_RETURN(DeclaredFile declared, DeclaredIn(path));
    if (!declared.error.empty()) {
      // Every contract run.json puts in the file is affected; each is
      // counted broken by check, the message given once per file.
      for (const v1::MethodRun* m : it->second) {
        StoredContract& c = found[m->method()];
        c.method = m->method();
        c.spec_file = file;
        c.line = LineOfMessage(declared.error, path);
        c.edited = true;  // the run wrote a file that parses
        c.parse_error = declared.error;
        c.whole_file = true;
      }
      // A file of invariants alone has no contract to count as broken.
      if (it->second.empty()) {
        problems.push_back(absl::StrCat(declared.error,
                                        " (none of the file's object invariants can be checked)"));
      }
      continue;
    }
    for (StoredClassInvariants& c : CompareInvariants(file, std::move(declared.invariants), recorded)) {
      specs.invariants.push_back(std::move(c));
    }
    std::map<std::string, const v1::MethodRun*> expected;
    for (const v1::MethodRun* m : it->second) expected[m->method()] = m;
    std::map<std::string, int> declared_at;  // method -> line of its declaration
    for (const Declared& d : declared.methods) {
      declared_at.emplace(d.method, d.line);
      if (!d.has_contract) continue;
      auto named_here = expected.find(d.method);
      if (named_here == expected.end()) {
        problems.push_back(absl::StrCat(path, ":", d.line, ": a contract of ", d.method, ", which ",
                                        run_json, " does not name: it would go unchecked"));
        continue;
      }
      if (found.count(d.method)) {
        problems.push_back(absl::StrCat(path, ":", d.line, ": a second contract of ", d.method,
                                        " (the first is at line ", found[d.method].line, ")"));
        continue;
      }
      StoredContract& c = found[d.method];
      c.method = d.method;
      c.spec_file = file;
      c.line = d.line;
      c.parse_error = d.error;
      std::optional<std::string> recorded = RecordedText(*named_here->second);
      c.edited = recorded.has_value() && (!d.error.empty() || *recorded != d.text);
    }
    for (const auto& [method, m] : expected) {
      if (found.count(method)) continue;
      auto at = declared_at.find(method);
      problems.push_back(absl::StrCat(
          path, at == declared_at.end() ? "" : absl::StrCat(":", at->second), ": no contract of ",
          method, ", which ", run_json, " records in this file",
          at == declared_at.end() ? " (the file does not declare the method)"
                                  : " (its declaration has none)"));
    }
  }
  if (!problems.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        absl::StrJoin(problems, "\n"), "\nthe contracts under ", out_dir, "/", kSpecsDir,
        " are not the ones the last run recorded, so check would not check what it reports: "
        "restore them, or run `tracespec run` again"));
  }
  for (const v1::MethodRun& m : summary.methods()) {
    if (!m.spec_file().empty()) specs.contracts.push_back(found[m.method()]);
  }
  return specs;
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

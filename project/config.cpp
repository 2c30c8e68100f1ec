// Project configuration and discovery; see config.h.
#include "project/config.h"

#include <filesystem>
#include <functional>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "common/files.h"
#include "common/glob.h"
#include "common/proto_io.h"
#include "common/status.h"
#include "observer/junit.h"
#include "validator/classfile/class_file.h"
#include "validator/classfile/class_path.h"
#include "validator/jml/spec_source.h"

namespace tracespec::project {
namespace {

namespace fs = std::filesystem;

// The main sources of the Maven and Gradle layouts (ProjectConfig.sources).
constexpr char kDefaultSources[] = "src/main/java";
// Else, when the project has it and the tests are not under it: a plain
// layout's sources.
constexpr char kPlainSources[] = "src";

std::string Absolute(const std::string& dir, const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  return absl::StrCat(dir, "/", path);
}

void AbsolutizeAll(const std::string& dir, google::protobuf::RepeatedPtrField<std::string>* paths) {
  for (std::string& path : *paths) path = Absolute(dir, path);
}

void Absolutize(const std::string& dir, std::string* path) { *path = Absolute(dir, *path); }

// The absolute form of `dir` without "." / ".." components or a trailing '/'.
absl::StatusOr<std::string> CanonicalDir(const std::string& dir) {
  char* real = ::realpath(dir.c_str(), nullptr);
  if (real == nullptr) {
    return absl::NotFoundError(absl::StrCat("project directory ", dir, " does not exist"));
  }
  std::string out(real);
  ::free(real);
  if (!IsDirectory(out)) {
    return absl::InvalidArgumentError(absl::StrCat(dir, " is not a directory"));
  }
  return out;
}

struct Layout {
  v1::ConfigSource source;
  const char* name;
  const char* classes;
  const char* test_classes;
};

constexpr Layout kLayouts[] = {
    {v1::CONFIG_SOURCE_MAVEN, "maven layout", "target/classes", "target/test-classes"},
    {v1::CONFIG_SOURCE_GRADLE, "gradle layout", "build/classes/java/main",
     "build/classes/java/test"},
};

// The classes of a class-path entry list (directories and jars) that exist.
absl::StatusOr<std::vector<std::string>> ListClasses(
    const google::protobuf::RepeatedPtrField<std::string>& entries, const char* what) {
  std::vector<std::string> existing;
  for (const std::string& entry : entries) {
    if (!FileExists(entry)) {
      return absl::NotFoundError(absl::StrCat(what, " entry ", entry, " does not exist"));
    }
    existing.push_back(entry);
  }
  TS_ASSIGN_OR_RETURN(classfile::ClassPath path,
                      classfile::ClassPath::Create(absl::StrJoin(existing, ":")));
  std::vector<std::string> names;
  for (const std::string& internal : path.ListClasses()) {
    names.push_back(classfile::InternalToBinary(internal));
  }
  return names;
}

// The number of the first line of `path` for which `matches` holds; 0
// when none does (or the file cannot be read).
int FirstLineOf(const std::string& path, const std::function<bool(absl::string_view)>& matches) {
  std::string text = ReadFile(path).value_or("");
  int line = 1;
  for (absl::string_view l : absl::StrSplit(text, '\n')) {
    if (matches(l)) return line;
    ++line;
  }
  return 0;
}

// "PATH:LINE: " of the configuration file's entry that sets `field` to
// `value` (`tests: "bank.NoSuchTest"`; in a list spread over lines, the
// line of the value), for messages; "" for a discovered layout, or when
// no line holds the value.
std::string EntryLocation(const Project& project, absl::string_view field, absl::string_view value) {
  if (project.source != v1::CONFIG_SOURCE_FILE) return "";
  const std::string quoted = absl::StrCat("\"", value, "\"");
  int line = FirstLineOf(project.description, [&](absl::string_view l) {
    return absl::StrContains(l, field) && absl::StrContains(l, quoted);
  });
  if (line == 0) {
    line = FirstLineOf(project.description,
                       [&](absl::string_view l) { return absl::StrContains(l, quoted); });
  }
  return line == 0 ? "" : absl::StrCat(project.description, ":", line, ": ");
}

// Names matching each pattern of the configuration's `field` (a plain
// name must be present); sorted. A pattern that matches nothing is an
// error naming its line in the configuration file.
absl::StatusOr<std::vector<std::string>> Select(const std::vector<std::string>& names,
                                                const google::protobuf::RepeatedPtrField<std::string>& patterns,
                                                const Project& project, const char* field,
                                                const std::string& what, const std::string& where) {
  std::set<std::string> out;
  for (const std::string& pattern : patterns) {
    bool any = false;
    for (const std::string& name : names) {
      if (IsGlobPattern(pattern) ? GlobMatch(pattern, name) : name == pattern) {
        out.insert(name);
        any = true;
      }
    }
    if (!any) {
      return absl::InvalidArgumentError(absl::StrCat(EntryLocation(project, field, pattern), what,
                                                     " '", pattern, "' matches no class under ",
                                                     where));
    }
  }
  return std::vector<std::string>(out.begin(), out.end());
}

std::string SimpleName(const std::string& binary) {
  size_t dot = binary.rfind('.');
  return dot == std::string::npos ? binary : binary.substr(dot + 1);
}

bool LooksLikeTest(const std::string& binary) {
  std::string simple = SimpleName(binary);
  if (simple.find('$') != std::string::npos) return false;
  return absl::StartsWith(simple, "Test") || absl::EndsWith(simple, "Test") ||
         absl::EndsWith(simple, "Tests") || absl::EndsWith(simple, "TestCase");
}

// Public, concrete, non-synthetic, non-bridge methods that are not
// constructors or static initializers.
bool IsClassWideTarget(const classfile::Method& m) {
  if (!m.is_public() || m.is_abstract() || m.is_native()) return false;
  if ((m.access & (classfile::kAccSynthetic | classfile::kAccVolatile /* bridge */)) != 0) return false;
  return m.name != "<init>" && m.name != "<clinit>";
}

// Whether the existing `path` is `dir` or lies below it (links resolved).
bool InsideDir(const std::string& path, const std::string& dir) {
  if (path.empty() || !FileExists(path)) return false;
  std::error_code ec;
  std::string p = fs::weakly_canonical(path, ec).string();
  std::string root = fs::weakly_canonical(dir, ec).string();
  return p == root || absl::StartsWith(p, root + "/");
}

// The project's main sources must exist and must not hold its tests (the
// gate would take every test for a copy of the implementation).
absl::Status CheckSources(const std::string& description, const v1::ProjectConfig& config) {
  for (const std::string& source : config.sources()) {
    if (!FileExists(source)) {
      return absl::NotFoundError(
          absl::StrCat(description, ": sources entry ", source, " does not exist"));
    }
    if (InsideDir(config.tests_src(), source)) {
      return absl::InvalidArgumentError(absl::StrCat(
          description, ": sources entry ", source, " holds the test sources (tests_src ",
          config.tests_src(), "); name the main sources only, e.g. src/main/java"));
    }
  }
  return absl::OkStatus();
}

// The bounds of `config` (read from `path`) in the ranges the validator
// takes; an error names the line of the field (the first that sets it).
absl::Status CheckBounds(const std::string& path, const v1::ProjectConfig& config) {
  const v1::ProjectBounds& b = config.bounds();
  auto where = [&path](absl::string_view field) {
    int line = FirstLineOf(path, [field](absl::string_view l) {
      return absl::StartsWith(absl::StripLeadingAsciiWhitespace(l), field) ||
             absl::StrContains(l, absl::StrCat(" ", field, ":")) ||
             absl::StrContains(l, absl::StrCat("{", field, ":"));
    });
    return line == 0 ? path : absl::StrCat(path, ":", line);
  };
  if (b.unwind() < 0 || b.unwind() > 1000000) {
    return absl::InvalidArgumentError(absl::StrCat(where("unwind"), ": bounds.unwind ", b.unwind(),
                                                   " is outside 1..1000000 (0 or absent: the default, 4)"));
  }
  if (b.max_array() < 0 || b.max_array() > 4096) {
    return absl::InvalidArgumentError(absl::StrCat(where("max_array"), ": bounds.max_array ",
                                                   b.max_array(),
                                                   " is outside 1..4096 (0 or absent: the default, 4)"));
  }
  if (!(b.check_timeout_seconds() >= 0) || b.check_timeout_seconds() > 86400) {
    return absl::InvalidArgumentError(absl::StrCat(
        where("check_timeout_seconds"), ": bounds.check_timeout_seconds ", b.check_timeout_seconds(),
        " is outside (0, 86400] seconds (0 or absent: the default, 60)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Project> LoadProject(const std::string& dir) {
  Project project;
  TS_ASSIGN_OR_RETURN(project.dir, CanonicalDir(dir));
  const std::string& root = project.dir;
  std::string config_path = absl::StrCat(root, "/", kConfigFileName);
  v1::ProjectConfig& config = project.config;
  if (FileExists(config_path)) {
    TS_RETURN_IF_ERROR(ParseTextProtoFile(config_path, &config));
    project.source = v1::CONFIG_SOURCE_FILE;
    project.description = config_path;
    if (config.classes().empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(config_path, ": no 'classes' entry (the class directories or jars of "
                                    "the code under test)"));
    }
    TS_RETURN_IF_ERROR(CheckBounds(config_path, config));
    if (config.has_model() && config.model().has_endpoint()) {
      const v1::ProjectEndpoint& endpoint = config.model().endpoint();
      if (endpoint.url().empty() || endpoint.model().empty() ||
          endpoint.egress_policy().empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            config_path, ": model.endpoint needs url, model and egress_policy"));
      }
    }
  } else {
    const Layout* found = nullptr;
    for (const Layout& layout : kLayouts) {
      if (IsDirectory(absl::StrCat(root, "/", layout.classes))) {
        found = &layout;
        break;
      }
    }
    if (found == nullptr) {
      return absl::NotFoundError(absl::StrCat(
          root, " is not a project tracespec knows: no ", kConfigFileName,
          ", no Maven layout (target/classes, target/test-classes, src/test/java) and no "
          "Gradle layout (build/classes/java/main, build/classes/java/test, src/test/java); "
          "build the project first or write a ",
          kConfigFileName, " (see project/README.md)"));
    }
    project.source = found->source;
    config.add_classes(found->classes);
    std::vector<std::string> seen = {found->classes};
    if (IsDirectory(absl::StrCat(root, "/", found->test_classes))) {
      config.add_test_classes(found->test_classes);
      seen.push_back(found->test_classes);
    }
    if (IsDirectory(absl::StrCat(root, "/src/test/java"))) {
      config.set_tests_src("src/test/java");
      seen.push_back("src/test/java");
    }
    project.description = absl::StrCat(found->name, ": ", absl::StrJoin(seen, ", "));
  }
  if (!config.command().empty()) {
    if (!config.tests().empty() || !config.test_classes().empty() ||
        !config.tests_src().empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          project.description, ": 'command' replaces the tests; remove 'tests', "
                               "'test_classes' and 'tests_src', or the command"));
    }
    // A program named by a relative path is the project's own (bin/start).
    std::string* program = config.mutable_command(0);
    if (program->find('/') != std::string::npos) Absolutize(root, program);
  }
  AbsolutizeAll(root, config.mutable_classes());
  AbsolutizeAll(root, config.mutable_test_classes());
  AbsolutizeAll(root, config.mutable_classpath());
  if (!config.tests_src().empty()) Absolutize(root, config.mutable_tests_src());
  if (config.sources().empty()) {
    if (IsDirectory(absl::StrCat(root, "/", kDefaultSources))) {
      config.add_sources(kDefaultSources);
    } else if (const std::string plain = absl::StrCat(root, "/", kPlainSources);
               IsDirectory(plain) && !InsideDir(config.tests_src(), plain) &&
               !IsDirectory(plain + "/main") && !IsDirectory(plain + "/test") &&
               !IsDirectory(plain + "/tests")) {
      // A plain layout (src/ beside test/; not when src/ may hold tests):
      // without it, a run without a build command could not tell stale
      // class files, and a remote model could be sent a copy of the
      // implementation.
      config.add_sources(kPlainSources);
    }
  }
  AbsolutizeAll(root, config.mutable_sources());
  TS_RETURN_IF_ERROR(CheckSources(project.description, config));
  if (!config.redaction_policy().empty()) Absolutize(root, config.mutable_redaction_policy());
  if (config.has_model() && config.model().has_endpoint()) {
    v1::ProjectEndpoint* endpoint = config.mutable_model()->mutable_endpoint();
    Absolutize(root, endpoint->mutable_egress_policy());
    AbsolutizeAll(root, endpoint->mutable_impl_src());
  }
  return project;
}

std::string MainClassPath(const Project& project) {
  std::vector<std::string> entries(project.config.classes().begin(),
                                   project.config.classes().end());
  entries.insert(entries.end(), project.config.classpath().begin(),
                 project.config.classpath().end());
  return absl::StrJoin(entries, ":");
}

std::string FullClassPath(const Project& project) {
  std::vector<std::string> entries(project.config.classes().begin(),
                                   project.config.classes().end());
  entries.insert(entries.end(), project.config.test_classes().begin(),
                 project.config.test_classes().end());
  entries.insert(entries.end(), project.config.classpath().begin(),
                 project.config.classpath().end());
  return absl::StrJoin(entries, ":");
}

absl::StatusOr<std::vector<std::string>> ResolveTests(const Project& project) {
  const v1::ProjectConfig& config = project.config;
  if (!config.command().empty()) return std::vector<std::string>();  // Captured behaviour.
  std::string where = absl::StrJoin(config.test_classes(), ", ");
  if (config.test_classes().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(project.description, ": no test class directory (test_classes)"));
  }
  TS_ASSIGN_OR_RETURN(std::vector<std::string> names,
                      ListClasses(config.test_classes(), "test_classes"));
  if (!config.tests().empty()) {
    // Plain names must be there; globs stand for the JUnit test classes
    // they match (observer::ExpandTestClasses), in the order given.
    google::protobuf::RepeatedPtrField<std::string> plain;
    for (const std::string& test : config.tests()) {
      if (!IsGlobPattern(test)) *plain.Add() = test;
    }
    TS_RETURN_IF_ERROR(Select(names, plain, project, "tests", "test class", where).status());
    return observer::ExpandTestClasses({config.tests().begin(), config.tests().end()},
                                       absl::StrJoin(config.test_classes(), ":"),
                                       absl::StrCat(kConfigFileName, ": tests"));
  }
  TS_ASSIGN_OR_RETURN(classfile::ClassPath path,
                      classfile::ClassPath::Create(absl::StrJoin(config.test_classes(), ":")));
  std::vector<std::string> tests;
  for (const std::string& name : names) {
    if (!LooksLikeTest(name)) continue;
    TS_ASSIGN_OR_RETURN(const classfile::ClassFile* cls, path.Load(name));
    if (cls->is_abstract() || cls->is_interface()) continue;
    tests.push_back(name);
  }
  if (tests.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "no test classes (Test*, *Test, *Tests, *TestCase) under ", where,
        "; name them with 'tests' in ", kConfigFileName));
  }
  return tests;
}

absl::StatusOr<std::vector<std::string>> ResolveTargets(const Project& project) {
  const v1::ProjectConfig& config = project.config;
  std::string where = absl::StrJoin(config.classes(), ", ");
  TS_ASSIGN_OR_RETURN(std::vector<std::string> names, ListClasses(config.classes(), "classes"));
  TS_ASSIGN_OR_RETURN(classfile::ClassPath path, classfile::ClassPath::Create(MainClassPath(project)));
  std::vector<std::string> classes;
  if (!config.target_classes().empty()) {
    TS_ASSIGN_OR_RETURN(classes, Select(names, config.target_classes(), project, "target_classes",
                                          "target class", where));
  } else if (config.methods().empty()) {
    for (const std::string& name : names) {
      if (name.find('$') == std::string::npos) classes.push_back(name);
    }
  }
  std::set<std::string> targets;
  for (const std::string& name : classes) {
    TS_ASSIGN_OR_RETURN(const classfile::ClassFile* cls, path.Load(name));
    if (cls->is_interface()) continue;
    for (const classfile::Method& m : cls->methods) {
      if (IsClassWideTarget(m)) targets.insert(absl::StrCat(name, "#", m.name, m.descriptor));
    }
  }
  for (const std::string& text : config.methods()) {
    TS_ASSIGN_OR_RETURN(jml::MethodSelector selector, jml::MethodSelector::Parse(text));
    absl::StatusOr<const classfile::ClassFile*> cls = path.Load(selector.class_name);
    if (!cls.ok() && !absl::IsNotFound(cls.status())) {
      // There, but not a class file that can be read (its error names the
      // file and offset).
      return absl::Status(cls.status().code(),
                          absl::StrCat(EntryLocation(project, "methods", text), "method '", text,
                                       "': ", cls.status().message()));
    }
    if (!cls.ok()) {
      return absl::NotFoundError(absl::StrCat(EntryLocation(project, "methods", text), "method '",
                                              text, "': class ", selector.class_name,
                                              " is not under ", where));
    }
    bool any = false;
    for (const classfile::Method& m : (*cls)->methods) {
      if (m.name == selector.method_name && selector.Matches(m.descriptor)) {
        targets.insert(absl::StrCat(selector.class_name, "#", m.name, m.descriptor));
        any = true;
      }
    }
    if (!any) {
      return absl::NotFoundError(absl::StrCat(EntryLocation(project, "methods", text), "method '",
                                              text, "': ", selector.class_name,
                                              " declares no such method"));
    }
  }
  if (targets.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("no target methods: no public methods in the classes under ", where));
  }
  return std::vector<std::string>(targets.begin(), targets.end());
}

}  // namespace tracespec::project

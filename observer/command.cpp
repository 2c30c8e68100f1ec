// Command runs under the probe; see command.h.
#include "observer/command.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/files.h"

namespace tracespec::observer {
namespace {

void AddUnique(const google::protobuf::RepeatedPtrField<std::string>& from,
               google::protobuf::RepeatedPtrField<std::string>* to) {
  for (const std::string& value : from) {
    if (std::find(to->begin(), to->end(), value) == to->end()) to->Add(std::string(value));
  }
}

bool IsJdkPackage(const std::string& package) {
  for (const char* prefix : {"java", "javax", "jdk", "sun", "com.sun"}) {
    if (package == prefix || absl::StartsWith(package, absl::StrCat(prefix, "."))) return true;
  }
  return false;
}

void Merge(const v1::ProbeStatus& from, v1::ProbeStatus* into,
           std::map<std::string, int64_t>* packages, std::map<std::string, int64_t>* calls) {
  if (into->targets_size() == 0) *into->mutable_targets() = from.targets();
  for (int i = 0; i < from.targets_size() && i < into->targets_size(); ++i) {
    const v1::TargetStatus& t = from.targets(i);
    v1::TargetStatus* merged = into->mutable_targets(i);
    merged->set_class_loaded(merged->class_loaded() || t.class_loaded());
    AddUnique(t.methods_matched(), merged->mutable_methods_matched());
    AddUnique(t.methods_available(), merged->mutable_methods_available());
    AddUnique(t.problems(), merged->mutable_problems());
  }
  into->set_vm_death_seen(into->vm_death_seen() && from.vm_death_seen());
  into->set_observations_written(into->observations_written() + from.observations_written());
  AddUnique(from.errors(), into->mutable_errors());
  AddUnique(from.withheld_fields(), into->mutable_withheld_fields());
  AddUnique(from.denied_sources(), into->mutable_denied_sources());
  into->set_tainted_values(into->tainted_values() + from.tainted_values());
  AddUnique(from.classes_without_parameter_names(),
            into->mutable_classes_without_parameter_names());
  into->set_trace_limit_reached(into->trace_limit_reached() || from.trace_limit_reached());
  for (const v1::PackageCount& p : from.loaded_packages()) (*packages)[p.package()] += p.classes();
  into->set_method_limit_reached(into->method_limit_reached() || from.method_limit_reached());
  into->set_methods_refused(into->methods_refused() + from.methods_refused());
  for (const v1::MethodCount& c : from.method_counts()) (*calls)[c.method()] += c.calls();
  for (const v1::DeniedTextKey& k : from.denied_text_keys()) *into->add_denied_text_keys() = k;
  into->mutable_denied_number_keys()->Add(from.denied_number_keys().begin(),
                                          from.denied_number_keys().end());
}

// Every JVM's denied-value keys once, sorted (as one JVM reports them).
void SortDeniedKeys(v1::ProbeStatus* status) {
  std::map<std::pair<uint32_t, uint64_t>, v1::DeniedTextKey> texts;
  for (const v1::DeniedTextKey& k : status->denied_text_keys()) texts[{k.bytes(), k.key()}] = k;
  std::set<uint64_t> numbers(status->denied_number_keys().begin(),
                             status->denied_number_keys().end());
  status->clear_denied_text_keys();
  for (const auto& [bytes_and_key, k] : texts) *status->add_denied_text_keys() = k;
  status->clear_denied_number_keys();
  for (uint64_t key : numbers) status->add_denied_number_keys(key);
}

}  // namespace

bool IsJavaProgram(const std::string& program) {
  return program == "java" || absl::EndsWith(program, "/java");
}

std::string CommandClassPath(const std::vector<std::string>& command, const std::string& cwd) {
  if (command.empty() || !IsJavaProgram(command[0])) return "";
  auto absolute = [&cwd](absl::string_view entry) {
    std::string path(entry);
    if (cwd.empty() || absl::StartsWith(path, "/")) return path;
    return absl::StrCat(cwd, "/", path);
  };
  std::string named;
  // The options come before the main class (or -jar JAR); the first word
  // that is no option ends them.
  for (size_t i = 1; i < command.size(); ++i) {
    const std::string& word = command[i];
    bool last = i + 1 == command.size();
    if ((word == "-cp" || word == "-classpath" || word == "--class-path") && !last) {
      named = command[++i];
    } else if (absl::StartsWith(word, "--class-path=")) {
      named = word.substr(std::string("--class-path=").size());
    } else if (word == "-jar" && !last) {
      return absolute(command[i + 1]);
    } else if (!absl::StartsWith(word, "-")) {
      break;
    }
  }
  std::vector<std::string> entries;
  for (absl::string_view entry : absl::StrSplit(named, ':', absl::SkipEmpty())) {
    entries.push_back(absolute(entry));
  }
  return absl::StrJoin(entries, ":");
}

absl::StatusOr<CommandLaunch> InjectProbe(const std::vector<std::string>& command,
                                          const std::string& probe,
                                          const std::string& config_path,
                                          const std::string& inherited) {
  if (command.empty()) return absl::InvalidArgumentError("no command given after --");
  std::string option = absl::StrCat("-agentpath:", probe, "=config=", config_path);
  CommandLaunch launch;
  launch.argv = command;
  if (IsJavaProgram(command[0])) {
    launch.argv.insert(launch.argv.begin() + 1, option);
    launch.injection = "-agentpath";
    return launch;
  }
  if (option.find_first_of(" \t\n'\"") != std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot put the probe into JAVA_TOOL_OPTIONS: its path has a space or quote (", option,
        "); run java directly or move tracespec"));
  }
  launch.env.emplace_back("JAVA_TOOL_OPTIONS",
                          inherited.empty() ? option : absl::StrCat(inherited, " ", option));
  launch.injection = "JAVA_TOOL_OPTIONS";
  return launch;
}

absl::StatusOr<v1::ProbeStatus> ReadStatuses(const std::string& base, int* jvms) {
  std::filesystem::path path(base);
  std::vector<std::string> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(path.parent_path(), error)) {
    std::string name = entry.path().filename().string();
    std::string stem = path.filename().string();
    if (name == stem || (absl::StartsWith(name, stem + ".") && !absl::EndsWith(name, ".tmp"))) {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  v1::ProbeStatus merged;
  merged.set_format_version(v1::FORMAT_VERSION_1);
  merged.set_vm_death_seen(true);
  std::map<std::string, int64_t> packages;
  std::map<std::string, int64_t> calls;
  *jvms = 0;
  for (const std::string& file : files) {
    auto data = ReadFile(file);
    v1::ProbeStatus status;
    if (!data.ok() || !status.ParseFromString(*data)) continue;
    Merge(status, &merged, &packages, &calls);
    ++*jvms;
  }
  SortDeniedKeys(&merged);
  for (const auto& [method, count] : calls) {
    v1::MethodCount* c = merged.add_method_counts();
    c->set_method(method);
    c->set_calls(count);
  }
  for (const auto& [package, classes] : packages) {
    v1::PackageCount* count = merged.add_loaded_packages();
    count->set_package(package);
    count->set_classes(classes);
  }
  return merged;
}

std::string TopPackages(const v1::ProbeStatus& status, int limit) {
  std::vector<const v1::PackageCount*> packages;
  for (const v1::PackageCount& p : status.loaded_packages()) {
    if (!IsJdkPackage(p.package())) packages.push_back(&p);
  }
  std::stable_sort(packages.begin(), packages.end(), [](const auto* a, const auto* b) {
    return a->classes() > b->classes();
  });
  if (static_cast<int>(packages.size()) > limit) packages.resize(static_cast<size_t>(limit));
  std::vector<std::string> parts;
  for (const v1::PackageCount* p : packages) {
    parts.push_back(absl::StrCat(p->package().empty() ? "(unnamed package)" : p->package(), " (",
                                 p->classes(), p->classes() == 1 ? " class)" : " classes)"));
  }
  return absl::StrJoin(parts, ", ");
}

}  // namespace tracespec::observer

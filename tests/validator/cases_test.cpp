// Runs every regression case under tests/validator/cases (see its README)
// with the real tracespec binary: compile, verify (or validate a contract),
// compare the verdict, exit status and output, and replay counterexamples
// on the JVM.
#include <filesystem>
#include <map>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "common/files.h"
#include "common/subprocess.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec {
namespace {

struct Case {
  std::string name;
  std::string dir;
  std::multimap<std::string, std::string> desc;
  std::string Get(const std::string& key) const {
    auto it = desc.find(key);
    return it == desc.end() ? "" : it->second;
  }
};

void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

std::vector<Case> LoadCases() {
  std::vector<Case> cases;
  std::string root = TRACESPEC_CASES_DIR;
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    if (!entry.is_directory()) continue;
    Case c;
    c.name = entry.path().filename().string();
    c.dir = entry.path().string();
    auto text = ReadFile(c.dir + "/test.desc");
    if (!text.ok()) continue;
    for (absl::string_view line : absl::StrSplit(*text, '\n')) {
      line = absl::StripAsciiWhitespace(line);
      if (line.empty() || line[0] == '#') continue;
      size_t colon = line.find(':');
      if (colon == absl::string_view::npos) continue;
      c.desc.emplace(std::string(absl::StripAsciiWhitespace(line.substr(0, colon))),
                     std::string(absl::StripAsciiWhitespace(line.substr(colon + 1))));
    }
    cases.push_back(std::move(c));
  }
  std::sort(cases.begin(), cases.end(),
            [](const Case& a, const Case& b) { return a.name < b.name; });
  return cases;
}

// Every `output:` text of the case is in `out`, and no `absent:` text is.
void ExpectOutput(const Case& c, const std::string& out) {
  auto range = c.desc.equal_range("output");
  for (auto it = range.first; it != range.second; ++it) {
    EXPECT_TRUE(absl::StrContains(out, it->second)) << "missing output: " << it->second;
  }
  range = c.desc.equal_range("absent");
  for (auto it = range.first; it != range.second; ++it) {
    EXPECT_FALSE(absl::StrContains(out, it->second)) << "forbidden output: " << it->second;
  }
}

class CasesTest : public ::testing::TestWithParam<Case> {};

TEST_P(CasesTest, Verdict) {
  const Case& c = GetParam();
  testing::TempDir dir;
  // The Java sources of the case, or of the case `sources:` names (the
  // same program checked with other options).
  std::string source_dir =
      c.Get("sources").empty() ? c.dir : absl::StrCat(c.dir, "/../", c.Get("sources"));
  std::map<std::string, std::string> sources;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(source_dir)) {
    if (entry.path().extension() != ".java") continue;
    auto text = ReadFile(entry.path().string());
    ASSERT_TRUE(text.ok());
    sources[std::filesystem::relative(entry.path(), source_dir).string()] = *text;
  }
  std::vector<std::string> javac = {"-g"};
  for (absl::string_view arg : absl::StrSplit(c.Get("javac"), ' ', absl::SkipEmpty())) {
    javac.emplace_back(arg);
  }
  std::string classes = testing::CompileJava(dir, sources, javac, TRACESPEC_VERIFIER_CLASSES_DIR);
  ASSERT_FALSE(classes.empty());
  std::string class_path = classes + ":" + TRACESPEC_VERIFIER_CLASSES_DIR;
  if (c.Get("command") == "validate") {
    // A JML contract checked with `tracespec validate`, once for each
    // `method:` line: exit status and output.
    auto methods = c.desc.equal_range("method");
    for (auto m = methods.first; m != methods.second; ++m) {
      std::vector<std::string> args = {"validate", "--classpath", class_path, "--method",
                                       m->second, "--contract", c.dir + "/" + c.Get("contract")};
      if (!c.Get("observations").empty()) {
        args.push_back("--observations");
        args.push_back(c.dir + "/" + c.Get("observations"));
      }
      for (absl::string_view arg : absl::StrSplit(c.Get("options"), ' ', absl::SkipEmpty())) {
        args.emplace_back(arg);
      }
      SubprocessResult r = testing::RunTracespec(args);
      SCOPED_TRACE(m->second + ":\n" + r.stdout_data + r.stderr_data);
      EXPECT_EQ(r.exit_code, std::stoi(c.Get("exit")));
      ExpectOutput(c, r.stdout_data + r.stderr_data);
    }
    return;
  }
  std::string driver = dir.path() + "/driver/" +
                       (c.Get("options").find("--method") != std::string::npos
                            ? "TracespecReplay.java"
                            : "Verifier.java");
  std::vector<std::string> args = {"verify", "--classpath", class_path, "--class", c.Get("class"),
                                   "--emit-driver", driver};
  for (absl::string_view arg : absl::StrSplit(c.Get("options"), ' ', absl::SkipEmpty())) {
    args.emplace_back(arg);
  }
  SubprocessResult r = testing::RunTracespec(args);
  std::string out = r.stdout_data;
  SCOPED_TRACE(out + r.stderr_data);
  EXPECT_EQ(r.exit_code, std::stoi(c.Get("exit")));
  std::string verdict = c.Get("verdict");
  if (absl::StrContains(out, "\"verdict\"")) {
    EXPECT_TRUE(absl::StrContains(out, absl::StrCat("\"verdict\":\"", verdict, "\"")));
  } else if (verdict == "UNKNOWN") {
    EXPECT_TRUE(absl::StartsWith(out, "UNKNOWN ("));
  } else {
    EXPECT_TRUE(absl::StartsWith(out, absl::StrCat("VERIFICATION ", verdict)));
  }
  ExpectOutput(c, out);
  if (verdict != "FAILED") {
    EXPECT_FALSE(FileExists(driver));
    return;
  }
  std::string exception = c.Get("exception");
  EXPECT_TRUE(absl::StrContains(out, exception));
  if (!c.Get("line").empty() && !absl::StrContains(out, "\"verdict\"")) {
    EXPECT_TRUE(absl::StrContains(out, absl::StrCat(".java:", c.Get("line"), ", bytecode")))
        << "expected the violation at line " << c.Get("line");
  }
  if (c.Get("replay") != "yes") return;
  // The driver reproduces the failure on the real JVM.
  std::string replay_classes = dir.path() + "/replay";
  auto compiled = RunSubprocess({"javac", "-nowarn", "-cp", class_path, "-d", replay_classes, driver});
  ASSERT_TRUE(compiled.ok() && compiled->Succeeded())
      << (compiled.ok() ? compiled->stderr_data : "javac did not start");
  bool method_mode = absl::EndsWith(driver, "TracespecReplay.java");
  std::string main = method_mode ? "TracespecReplay" : c.Get("class");
  auto run = RunSubprocess({"java", "-ea", "-cp", replay_classes + ":" + classes, main},
                           SubprocessOptions{{}, "", "", "", 60, ""});
  ASSERT_TRUE(run.ok());
  EXPECT_TRUE(absl::StrContains(run->stderr_data,
                                absl::StrCat("Exception in thread \"main\" ", exception)))
      << "replay:\n" << run->stdout_data << run->stderr_data;
  EXPECT_FALSE(absl::StrContains(run->stderr_data, "tracespec-replay:")) << run->stderr_data;
}

INSTANTIATE_TEST_SUITE_P(Cases, CasesTest, ::testing::ValuesIn(LoadCases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace tracespec

// `tracespec run` and `tracespec check` end to end on real projects: a
// Maven-layout and a Gradle-layout project (tests/e2e/projects), compiled
// here by javac, and a copy of examples/bank built by its own
// tracespec.textproto. Real JVM, probe, JUnit and Z3 throughout.
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "common/subprocess.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/agent/fake_llm_server.h"
#include "tests/testing/testing.h"
#include "tracespec/v1/run.pb.h"

namespace tracespec {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

// Copies a directory of the source tree into `dir`/name.
std::string CopyProject(const testing::TempDir& dir, const std::string& source,
                        const std::string& name) {
  std::string target = absl::StrCat(dir.path(), "/", name);
  fs::copy(source, target, fs::copy_options::recursive);
  return target;
}

// javac of every .java under `src` into `out`.
void Javac(const std::string& project, const std::string& src, const std::string& out,
           const std::string& classpath) {
  std::vector<std::string> args = {"javac", "-nowarn", "-g", "--release", "8", "-d",
                                   absl::StrCat(project, "/", out)};
  if (!classpath.empty()) {
    args.push_back("-cp");
    args.push_back(classpath);
  }
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(absl::StrCat(project, "/", src))) {
    if (entry.path().extension() == ".java") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  args.insert(args.end(), files.begin(), files.end());
  ASSERT_TRUE(MakeDirs(absl::StrCat(project, "/", out)).ok());
  absl::StatusOr<SubprocessResult> r = RunSubprocess(args);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->Succeeded()) << r->stderr_data;
}

v1::RunSummary ReadRunJson(const std::string& out_dir) {
  v1::RunSummary summary;
  absl::StatusOr<std::string> text = ReadFile(out_dir + "/run.json");
  EXPECT_TRUE(text.ok()) << text.status();
  if (text.ok()) {
    EXPECT_TRUE(FromJson(*text, &summary).ok());
  }
  return summary;
}

// The request of `method`'s first round in the run of `summary` (written
// into `out_dir`), or "" (a failure) when the run has no such method.
std::string FirstRequest(const std::string& out_dir, const v1::RunSummary& summary,
                         const std::string& method) {
  for (const v1::MethodRun& m : summary.methods()) {
    if (m.method() != method) continue;
    return ReadFile(absl::StrCat(out_dir, "/", m.infer_dir(), "/round-1/request.json"))
        .value_or("");
  }
  ADD_FAILURE() << "no method " << method << " in the run";
  return "";
}

// The .jml files under OUT/specs: relative path -> content.
std::map<std::string, std::string> Specs(const std::string& out_dir) {
  std::map<std::string, std::string> files;
  std::string root = out_dir + "/specs";
  if (!IsDirectory(root)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    files[entry.path().string().substr(root.size() + 1)] = *ReadFile(entry.path().string());
  }
  return files;
}

// javac of a Maven-layout project: src/main/java into target/classes,
// src/test/java (against JUnit) into target/test-classes.
void CompileMavenLayout(const std::string& project) {
  Javac(project, "src/main/java", "target/classes", "");
  Javac(project, "src/test/java", "target/test-classes",
        absl::StrCat(project, "/target/classes:", testing::JunitJar()));
}

// Adds `member` to the class of src/main/java/`source` (before its last
// brace) and compiles src/main/java into target/classes again.
void AddToClass(const std::string& project, const std::string& source, const std::string& member) {
  std::string path = absl::StrCat(project, "/src/main/java/", source);
  std::string text = *ReadFile(path);
  size_t close = text.rfind('}');
  ASSERT_NE(close, std::string::npos);
  ASSERT_TRUE(WriteFileAtomic(path, text.substr(0, close) + member + "}\n").ok());
  Javac(project, "src/main/java", "target/classes", "");
}

// A copy of tests/e2e/projects/maven-shop in `dir`/p, compiled.
std::string CompiledMavenShop(const testing::TempDir& dir) {
  std::string project = CopyProject(
      dir, absl::StrCat(testing::SourceDir(), "/tests/e2e/projects/maven-shop"), "p");
  CompileMavenLayout(project);
  return project;
}

// Every file and directory under `root` (not following links), with the
// ones whose permission bits are not 0600 (files) or 0700 (directories).
std::vector<std::string> NotOwnerOnly(const std::string& root, int* checked) {
  std::vector<std::string> wrong;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    struct stat st;
    if (::lstat(entry.path().c_str(), &st) != 0) continue;
    ++*checked;
    mode_t want = S_ISDIR(st.st_mode) ? 0700 : 0600;
    if ((st.st_mode & 07777) != want) {
      wrong.push_back(absl::StrCat(entry.path().string(), " ", absl::StrFormat("%04o", st.st_mode & 07777)));
    }
  }
  std::sort(wrong.begin(), wrong.end());
  return wrong;
}

struct Layout {
  const char* project;
  const char* classes;
  const char* test_classes;
  const char* source;  // "CONFIG_SOURCE_..."
  std::vector<std::string> spec_files;
};

void PrintTo(const Layout& layout, std::ostream* os) { *os << layout.project; }

class RunLayoutTest : public ::testing::TestWithParam<Layout> {};

// tracespec run on a discovered layout, from another working directory:
// one .jml per class under its package path, each method's contract
// re-validated from there by `tracespec validate`, and a second run into
// a fresh directory gives byte-identical .jml files.
TEST_P(RunLayoutTest, RunWritesSpecsThatRevalidateAndAreDeterministic) {
  const Layout& layout = GetParam();
  testing::TempDir dir;
  std::string project = CopyProject(
      dir, absl::StrCat(testing::SourceDir(), "/tests/e2e/projects/", layout.project), "p");
  Javac(project, "src/main/java", layout.classes, "");
  Javac(project, "src/test/java", layout.test_classes,
        absl::StrCat(project, "/", layout.classes, ":", testing::JunitJar()));

  SubprocessOptions elsewhere;
  elsewhere.cwd = dir.path();
  SubprocessResult r = testing::RunTracespec({"run", "p", "--jobs", "2"}, elsewhere);
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  std::string out = project + "/tracespec-out";
  v1::RunSummary summary = ReadRunJson(out);
  EXPECT_EQ(v1::ConfigSource_Name(summary.config_source()), layout.source);
  EXPECT_EQ(summary.project(), fs::canonical(project).string());
  EXPECT_TRUE(FileExists(out + "/observations/observations.pb"));
  EXPECT_TRUE(FileExists(out + "/infer/summary.json"));

  std::map<std::string, std::string> specs = Specs(out);
  std::vector<std::string> names;
  for (const auto& [name, content] : specs) names.push_back(name);
  EXPECT_EQ(names, layout.spec_files);
  int validated = 0;
  for (const v1::MethodRun& m : summary.methods()) {
    if (m.infer_status() != v1::INFER_SUCCESS) continue;
    ASSERT_FALSE(m.spec_file().empty()) << m.method();
    // The typed identity; its Java-style display names the method on the
    // command line.
    EXPECT_EQ(absl::StrCat(m.id().class_name(), "#", m.id().name(), m.id().jvm_descriptor()),
              m.method());
    EXPECT_NE(m.id().display(), m.method());
    SubprocessResult v = testing::RunTracespec(
        {"validate", "--classpath", absl::StrCat(project, "/", layout.classes), "--method",
         m.id().display(), "--contract", absl::StrCat(out, "/", m.spec_file())});
    EXPECT_EQ(v.exit_code, 0) << m.method() << "\n" << v.stdout_data << v.stderr_data;
    EXPECT_THAT(v.stdout_data, HasSubstr("result: 1-")) << m.method();  // coverage skipped
    ++validated;
  }
  EXPECT_GE(validated, 4);

  SubprocessResult again = testing::RunTracespec({"run", project, "--out", dir.path() + "/second"});
  ASSERT_EQ(again.exit_code, 0) << again.stdout_data << again.stderr_data;
  EXPECT_EQ(Specs(dir.path() + "/second"), specs);
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, RunLayoutTest,
    ::testing::Values(Layout{"maven-shop", "target/classes", "target/test-classes",
                             "CONFIG_SOURCE_MAVEN",
                             {"shop/Cart.jml", "shop/Discount.jml", "shop/Stock.jml"}},
                      Layout{"gradle-library", "build/classes/java/main",
                             "build/classes/java/test", "CONFIG_SOURCE_GRADLE",
                             {"library/Fines.jml", "library/Loan.jml"}}),
    [](const ::testing::TestParamInfo<Layout>& info) {
      return std::string(info.param.source) == "CONFIG_SOURCE_MAVEN" ? "Maven" : "Gradle";
    });

// `run --jobs 2` is deterministic: three runs of a three-class project
// into fresh output directories write the same bytes, whichever worker
// finishes first. The one field normalised is "seconds" (wall-clock time
// of a method or a check, in run.json and infer/summary.json), which the
// summaries keep on purpose to show where a run spends its time; every
// other byte, order included, must match.
// The second solver is on, and in the third run it starts eight seconds
// late (a script named cvc5 first on PATH), as on a loaded machine: which
// engine answers first must not decide the counterexample (when it did,
// Discount#apply's report gained a hypothesis drawn from cvc5's values in
// one run of three; validator/README.md, "Second solver").
TEST(RunTest, RunWithTwoJobsIsDeterministic) {
  testing::TempDir dir;
  std::string project = CompiledMavenShop(dir);
  std::string cvc5 = FindInPath("cvc5");
  std::string late = dir.Write("bin/cvc5", absl::StrCat("#!/bin/sh\nsleep 8\nexec ", cvc5, " \"$@\"\n"));
  ASSERT_EQ(::chmod(late.c_str(), 0700), 0);
  const char* path = std::getenv("PATH");
  SubprocessOptions late_cvc5;
  late_cvc5.env = {{"PATH", absl::StrCat(dir.path(), "/bin:", path != nullptr ? path : "")}};
  const std::regex seconds(R"re("seconds":[0-9.eE+-]+)re");
  auto outputs = [&](const std::string& out) {
    std::map<std::string, std::string> files;
    for (const char* name : {"run.json", "infer/summary.json", "report.md", "report.html"}) {
      files[name] = std::regex_replace(ReadFile(out + "/" + name).value_or("(missing)"), seconds,
                                       "\"seconds\":0");
    }
    for (const auto& [name, content] : Specs(out)) files["specs/" + name] = content;
    return files;
  };
  std::map<std::string, std::string> first;
  for (int i = 1; i <= 3; ++i) {
    std::string out = absl::StrCat(dir.path(), "/out", i);
    SubprocessResult r =
        testing::RunTracespec({"run", project, "--jobs", "2", "--out", out},
                              i == 3 && !cvc5.empty() ? late_cvc5 : SubprocessOptions());
    ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
    std::map<std::string, std::string> files = outputs(out);
    if (i == 1) {
      first = files;
      ASSERT_EQ(first.size(), 7u);  // 4 summaries, Cart/Discount/Stock.jml
      EXPECT_EQ(ReadRunJson(out).methods_size(), 7);
      continue;
    }
    for (const auto& [name, content] : first) {
      EXPECT_EQ(files[name], content) << "run " << i << " wrote another " << name;
    }
    EXPECT_EQ(files.size(), first.size());
  }
}

// The merged class file keeps the class file's modifiers and makes the
// private fields the public contracts name spec_public.
TEST(RunTest, SpecFilesCarryModifiersAndSpecPublic) {
  testing::TempDir dir;
  std::string project = CompiledMavenShop(dir);
  SubprocessResult r = testing::RunTracespec({"run", project});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  std::map<std::string, std::string> specs = Specs(project + "/tracespec-out");
  EXPECT_THAT(specs["shop/Discount.jml"], HasSubstr("public final class Discount {"));
  EXPECT_THAT(specs["shop/Discount.jml"], HasSubstr("public static long apply(long cents, int percent);"));
  EXPECT_THAT(specs["shop/Stock.jml"], HasSubstr("private /*@ spec_public @*/ int onHand;"));
  EXPECT_THAT(specs["shop/Stock.jml"], HasSubstr("package shop;"));
}

// The acceptance test of `check`: a copy of examples/bank, built by its own
// build command; check passes on the untouched build, and fails naming
// deposit and the checksum once deposit no longer updates it, while the
// project's JUnit tests still pass. A second run reuses the observations
// and the finished methods.
// Also: under the usual umask 022, every file and directory the run wrote
// is its user's alone (observed strings and prompts are in there), while
// the class files the project's own build command wrote keep the user's
// umask.
TEST(RunTest, CheckCatchesTheDroppedChecksumUpdate) {
  const mode_t saved_umask = ::umask(022);
  struct RestoreUmask {
    mode_t mask;
    ~RestoreUmask() { ::umask(mask); }
  } restore{saved_umask};
  testing::TempDir dir;
  std::string bank =
      CopyProject(dir, absl::StrCat(testing::SourceDir(), "/examples/bank"), "bank");
  RemoveAll(bank + "/target").IgnoreError();
  RemoveAll(bank + "/tracespec-out").IgnoreError();
  SubprocessOptions elsewhere;
  elsewhere.cwd = dir.path();
  SubprocessResult run = testing::RunTracespec({"run", "bank"}, elsewhere);
  ASSERT_EQ(run.exit_code, 0) << run.stdout_data << run.stderr_data;
  EXPECT_THAT(run.stdout_data, HasSubstr("bank.Account#deposit(I)V: Success 11"));
  EXPECT_TRUE(FileExists(bank + "/tracespec-out/specs/bank/Account.jml"));
  int checked = 0;
  EXPECT_THAT(NotOwnerOnly(bank + "/tracespec-out", &checked), ::testing::IsEmpty());
  EXPECT_GT(checked, 20);
  struct stat built;
  ASSERT_EQ(::stat((bank + "/target/classes/bank/Account.class").c_str(), &built), 0);
  EXPECT_EQ(built.st_mode & 0777, 0644u);

  v1::RunSummary first = ReadRunJson(bank + "/tracespec-out");
  EXPECT_THAT(run.stderr_data, Not(HasSubstr("strength kept")));
  SubprocessResult rerun = testing::RunTracespec({"run", bank});
  ASSERT_EQ(rerun.exit_code, 0) << rerun.stdout_data << rerun.stderr_data;
  v1::RunSummary summary = ReadRunJson(bank + "/tracespec-out");
  EXPECT_TRUE(summary.observations_reused());
  for (const v1::MethodRun& m : summary.methods()) EXPECT_TRUE(m.reused()) << m.method();
  // A finished method's strength is not measured again: same contract,
  // observations and bounds.
  ASSERT_EQ(summary.methods_size(), first.methods_size());
  for (int i = 0; i < summary.methods_size(); ++i) {
    const v1::MethodRun& m = summary.methods(i);
    if (m.infer_status() != v1::INFER_SUCCESS) continue;
    EXPECT_THAT(rerun.stderr_data, HasSubstr(m.method() + ": strength kept")) << m.method();
    EXPECT_EQ(m.strength().SerializeAsString(), first.methods(i).strength().SerializeAsString())
        << m.method();
  }

  // Strength: in run's output and run.json, and `tracespec strength` of
  // the project (twice: the same bytes; mutants: tests/e2e/strength_test.cpp).
  EXPECT_THAT(run.stdout_data,
              HasSubstr("bank.Account#getBalance()I: Success 11 (rounds: 11) — pins \\result on "));
  for (const v1::MethodRun& m : summary.methods()) {
    EXPECT_TRUE(m.strength().measured()) << m.method() << " " << m.strength().note();
  }
  SubprocessResult strength = testing::RunTracespec({"strength", bank, "--no-mutants"});
  ASSERT_EQ(strength.exit_code, 0) << strength.stdout_data << strength.stderr_data;
  EXPECT_THAT(strength.stdout_data, HasSubstr("method "));
  EXPECT_THAT(strength.stdout_data,
              HasSubstr("bank.Account#getBalance()I: pins \\result on 5/5 observations, rejects "
                        "100% of perturbed outcomes\n"));
  SubprocessResult strength_again = testing::RunTracespec({"strength", bank, "--no-mutants"});
  EXPECT_EQ(strength_again.stdout_data, strength.stdout_data);
  // One contract: a bare frame says nothing about the result, the inferred
  // contract pins it.
  dir.Write("weak.jml-text", "//@ assignable \\nothing;\n");
  dir.Write("strong.jml-text", "//@ assignable \\nothing;\n//@ ensures \\result == balance;\n");
  for (const char* which : {"weak", "strong"}) {
    SubprocessResult one = testing::RunTracespec(
        {"strength", "--classpath", bank + "/target/classes", "--method",
         "bank.Account#getBalance", "--contract", dir.path() + "/" + which + ".jml-text",
         "--observations", bank + "/tracespec-out/observations", "--no-mutants"});
    ASSERT_EQ(one.exit_code, 0) << one.stdout_data << one.stderr_data;
    if (std::string(which) == "weak") {
      EXPECT_THAT(one.stdout_data, HasSubstr("pins \\result on 0/5 observations"));
      EXPECT_THAT(one.stdout_data, HasSubstr(", says nothing about the outcome\n"));
    } else {
      EXPECT_THAT(one.stdout_data, HasSubstr("pins \\result on 5/5 observations"));
      EXPECT_THAT(one.stdout_data, Not(HasSubstr(", weak")));
    }
  }

  SubprocessResult holds = testing::RunTracespec({"check", bank});
  EXPECT_EQ(holds.exit_code, 0) << holds.stdout_data << holds.stderr_data;
  EXPECT_THAT(holds.stdout_data, HasSubstr("0 broken"));

  std::string source = bank + "/src/bank/Account.java";
  std::string text = *ReadFile(source);
  std::string edited = absl::StrReplaceAll(text, {{"    checksum = 31 * checksum + amount;\n", ""}});
  ASSERT_NE(edited, text);
  ASSERT_TRUE(WriteFileAtomic(source, edited).ok());

  SubprocessResult broken = testing::RunTracespec({"check", bank});
  EXPECT_EQ(broken.exit_code, 10) << broken.stdout_data << broken.stderr_data;
  EXPECT_THAT(broken.stdout_data, HasSubstr("bank.Account#deposit(I)V: BROKEN"));
  EXPECT_THAT(broken.stdout_data, HasSubstr("ensures checksum == 31 * \\old(checksum) + amount"));
  EXPECT_THAT(broken.stdout_data, HasSubstr("bank.Account#withdraw(I)V: holds"));

  // The project's own tests do not notice (check rebuilt target/).
  absl::StatusOr<SubprocessResult> junit = RunSubprocess(
      {"java", "-jar", testing::JunitJar(), "--disable-banner", "--class-path",
       bank + "/target/classes:" + bank + "/target/test-classes", "--select-class",
       "bank.AccountTest"});
  ASSERT_TRUE(junit.ok()) << junit.status();
  EXPECT_EQ(junit->exit_code, 0) << junit->stdout_data << junit->stderr_data;
  EXPECT_THAT(junit->stdout_data, HasSubstr("0 tests failed"));
}

// The CI guard cannot pass on a run that failed or on contracts the run
// does not account for: a first run that fails leaves no run.json, and
// check names the failure; a run that fails (an unknown test class) keeps
// the last good run.json and specs and records the failure aside; check
// refuses while it is recorded; a good run clears it. A .jml file the run
// did not write, a contract of a method run.json does not name, or one
// missing from its file, stops check too, naming the method and the line;
// a contract edited since the run is checked, and listed (refused with
// --frozen).
TEST(RunTest, CheckRefusesAFailedRunAndSpecsTheRunDoesNotAccountFor) {
  testing::TempDir dir;
  std::string bank =
      CopyProject(dir, absl::StrCat(testing::SourceDir(), "/examples/bank"), "bank");
  RemoveAll(bank + "/target").IgnoreError();
  RemoveAll(bank + "/tracespec-out").IgnoreError();
  const std::string out = bank + "/tracespec-out";
  std::string config_path = bank + "/tracespec.textproto";
  std::string config = *ReadFile(config_path);
  std::string broken_config =
      absl::StrReplaceAll(config, {{"tests: \"bank.AccountTest\"", "tests: \"bank.NoSuchTest\""}});
  ASSERT_NE(broken_config, config);

  // The first run fails: no run.json, and check says why.
  ASSERT_TRUE(WriteFileAtomic(config_path, broken_config).ok());
  SubprocessResult first_failed = testing::RunTracespec({"run", bank});
  EXPECT_EQ(first_failed.exit_code, 3) << first_failed.stdout_data << first_failed.stderr_data;
  ASSERT_FALSE(FileExists(out + "/run.json"));
  SubprocessResult never_ran = testing::RunTracespec({"check", bank});
  EXPECT_EQ(never_ran.exit_code, 3) << never_ran.stdout_data << never_ran.stderr_data;
  EXPECT_THAT(never_ran.stderr_data, HasSubstr("the last `tracespec run` of"));
  EXPECT_THAT(never_ran.stderr_data, HasSubstr("bank.NoSuchTest"));
  EXPECT_THAT(never_ran.stderr_data, HasSubstr(out + "/failed-run.json"));
  ASSERT_TRUE(WriteFileAtomic(config_path, config).ok());

  SubprocessResult run = testing::RunTracespec({"run", bank});
  ASSERT_EQ(run.exit_code, 0) << run.stdout_data << run.stderr_data;
  std::string good_run_json = *ReadFile(out + "/run.json");
  // Verdicts in run.json come typed from the rounds: complete exactly when
  // nothing was cut, and the cuts named.
  v1::RunSummary good = ReadRunJson(out);
  ASSERT_EQ(good.methods_size(), 3);
  for (const v1::MethodRun& m : good.methods()) {
    EXPECT_EQ(m.consistency().status(), "PASS") << m.method();
    // The typed verdict is what readers decide on; the flat fields render it.
    EXPECT_EQ(m.consistency().verdict().status(), v1::VERDICT_PASS) << m.method();
    EXPECT_EQ(m.consistency().verdict().complete(), m.consistency().complete()) << m.method();
    EXPECT_EQ(m.coverage().verdict().status(), v1::VERDICT_PASS) << m.method();
    EXPECT_EQ(m.consistency().complete(), m.consistency().cuts().empty()) << m.method();
    EXPECT_EQ(m.consistency().complete(),
              absl::StrContains(m.consistency().summary(), "(complete)"))
        << m.method();
    EXPECT_EQ(m.coverage().status(), "PASS") << m.method();
  }
  std::map<std::string, std::string> good_specs = Specs(out);
  ASSERT_FALSE(good_specs.empty());

  ASSERT_TRUE(WriteFileAtomic(config_path, broken_config).ok());
  SubprocessResult failed = testing::RunTracespec({"run", bank});
  EXPECT_EQ(failed.exit_code, 3) << failed.stdout_data << failed.stderr_data;
  // Named with the line of its entry in the configuration.
  EXPECT_THAT(failed.stderr_data, HasSubstr("/tracespec.textproto:11: test class "
                                            "'bank.NoSuchTest' matches no class under "));
  EXPECT_EQ(*ReadFile(out + "/run.json"), good_run_json);
  EXPECT_EQ(Specs(out), good_specs);
  ASSERT_TRUE(FileExists(out + "/failed-run.json"));

  ASSERT_TRUE(WriteFileAtomic(config_path, config).ok());
  SubprocessResult refused = testing::RunTracespec({"check", bank});
  EXPECT_EQ(refused.exit_code, 3) << refused.stdout_data << refused.stderr_data;
  EXPECT_THAT(refused.stderr_data, HasSubstr("the last `tracespec run` of"));
  EXPECT_THAT(refused.stderr_data, HasSubstr("bank.NoSuchTest"));
  EXPECT_THAT(refused.stdout_data, Not(HasSubstr("contracts checked")));

  SubprocessResult rerun = testing::RunTracespec({"run", bank});
  ASSERT_EQ(rerun.exit_code, 0) << rerun.stdout_data << rerun.stderr_data;
  EXPECT_FALSE(FileExists(out + "/failed-run.json"));
  // The failed run stopped before observing: the observations, complete
  // and with their key, are reused.
  EXPECT_TRUE(ReadRunJson(out).observations_reused());
  SubprocessResult holds = testing::RunTracespec({"check", bank});
  EXPECT_EQ(holds.exit_code, 0) << holds.stdout_data << holds.stderr_data;
  EXPECT_THAT(holds.stdout_data, HasSubstr("3 contracts checked against the current build"));
  EXPECT_THAT(holds.stdout_data, HasSubstr("0 undecided; 0 edited since the run; 0 target methods not covered\n"));
  EXPECT_THAT(holds.stdout_data, Not(HasSubstr("edited since the run:")));
  // The run records the bounds it proved within; check refuses lower ones,
  // naming each contract, and accepts higher ones.
  v1::RunSummary bounded = ReadRunJson(out);
  EXPECT_EQ(bounded.bounds().unwind(), 4);
  EXPECT_EQ(bounded.bounds().max_array(), 4);
  ASSERT_TRUE(WriteFileAtomic(config_path, config + "bounds { max_array: 2 unwind: 8 }\n").ok());
  SubprocessResult lowered = testing::RunTracespec({"check", bank});
  EXPECT_EQ(lowered.exit_code, 3) << lowered.stdout_data << lowered.stderr_data;
  EXPECT_THAT(lowered.stderr_data,
              HasSubstr("bank.Account#deposit(I)V: checked with max_array 2, below the run's 4 "
                        "(specs/bank/Account.jml:"));
  EXPECT_THAT(lowered.stderr_data, HasSubstr("bank.Account#getBalance()I: checked with max_array 2"));
  EXPECT_THAT(lowered.stderr_data, HasSubstr("set bounds { max_array: 4 }"));
  EXPECT_THAT(lowered.stderr_data, Not(HasSubstr("unwind 8")));
  EXPECT_THAT(lowered.stdout_data, Not(HasSubstr("contracts checked")));
  ASSERT_TRUE(WriteFileAtomic(config_path, config + "bounds { max_array: 5 }\n").ok());
  SubprocessResult raised = testing::RunTracespec({"check", bank});
  EXPECT_EQ(raised.exit_code, 0) << raised.stdout_data << raised.stderr_data;
  EXPECT_THAT(raised.stdout_data, HasSubstr("3 contracts checked against the current build"));
  ASSERT_TRUE(WriteFileAtomic(config_path, config).ok());

  // A configuration that does not parse stops the run before it reads
  // anything else; the failure is recorded all the same, so mending the
  // file is not enough for check to vouch for the last run's results.
  const std::string last_run_json = *ReadFile(out + "/run.json");
  ASSERT_TRUE(WriteFileAtomic(config_path, config + "bogus_entry: 1\n").ok());
  SubprocessResult unparsed = testing::RunTracespec({"run", bank});
  EXPECT_EQ(unparsed.exit_code, 3) << unparsed.stdout_data << unparsed.stderr_data;
  EXPECT_THAT(unparsed.stderr_data, HasSubstr("/tracespec.textproto:"));
  EXPECT_THAT(unparsed.stderr_data, HasSubstr("bogus_entry"));
  EXPECT_EQ(*ReadFile(out + "/run.json"), last_run_json);
  ASSERT_TRUE(FileExists(out + "/failed-run.json"));
  ASSERT_TRUE(WriteFileAtomic(config_path, config).ok());
  SubprocessResult after_unparsed = testing::RunTracespec({"check", bank});
  EXPECT_EQ(after_unparsed.exit_code, 3)
      << after_unparsed.stdout_data << after_unparsed.stderr_data;
  EXPECT_THAT(after_unparsed.stderr_data, HasSubstr("the last `tracespec run` of"));
  EXPECT_THAT(after_unparsed.stderr_data, HasSubstr("bogus_entry"));
  SubprocessResult mended = testing::RunTracespec({"run", bank});
  ASSERT_EQ(mended.exit_code, 0) << mended.stdout_data << mended.stderr_data;
  EXPECT_FALSE(FileExists(out + "/failed-run.json"));

  // A spec file the run did not write.
  std::string extra = out + "/specs/bank/Extra.jml";
  ASSERT_TRUE(WriteFileAtomic(extra, "package bank;\npublic class Extra {\n  //@ ensures \\result == 1;\n"
                                     "  public int one();\n}\n").ok());
  SubprocessResult stray = testing::RunTracespec({"check", bank});
  EXPECT_EQ(stray.exit_code, 3) << stray.stdout_data << stray.stderr_data;
  EXPECT_THAT(stray.stderr_data, HasSubstr("specs/bank/Extra.jml is not a spec file of the run"));
  ASSERT_TRUE(RemoveAll(extra).ok());

  // A stored contract edited into a JML syntax error: named with its file
  // and line, not reported as a missing contract; broken, and the other
  // contracts of the file are still checked.
  std::string account = out + "/specs/bank/Account.jml";
  std::string stored = *ReadFile(account);
  std::string broken = absl::StrReplaceAll(
      stored, {{"ensures \\result == \\old(balance);", "ensures \\result == (balance <= 0 ? 1 : );"}});
  ASSERT_NE(broken, stored);
  ASSERT_TRUE(WriteFileAtomic(account, broken).ok());
  SubprocessResult malformed = testing::RunTracespec({"check", bank});
  EXPECT_EQ(malformed.exit_code, 10) << malformed.stdout_data << malformed.stderr_data;
  EXPECT_THAT(malformed.stdout_data,
              HasSubstr(absl::StrCat("bank.Account#getBalance()I: BROKEN — the contract does not "
                                     "parse: ", account, ":")));
  EXPECT_THAT(malformed.stdout_data, HasSubstr("bank.Account#deposit(I)V: holds"));
  EXPECT_THAT(malformed.stdout_data, HasSubstr("2 hold, 1 broken (1 not parsed), 0 undecided"));
  ASSERT_TRUE(WriteFileAtomic(account, stored).ok());

  // The same number of contracts, for other methods: getBalance's removed,
  // one added for a method run.json does not name.
  std::string swapped = absl::StrReplaceAll(
      stored, {{"  //@ public normal_behavior\n  //@   assignable \\nothing;\n"
                "  //@   ensures \\result == \\old(balance);\n  public int getBalance();\n",
                "  public int getBalance();\n\n  //@ public normal_behavior\n"
                "  //@   ensures \\result == 0;\n  public int zero();\n"}});
  ASSERT_NE(swapped, stored);
  ASSERT_TRUE(WriteFileAtomic(account, swapped).ok());
  SubprocessResult swap = testing::RunTracespec({"check", bank});
  EXPECT_EQ(swap.exit_code, 3) << swap.stdout_data << swap.stderr_data;
  EXPECT_THAT(swap.stderr_data, HasSubstr("specs/bank/Account.jml:21: no contract of "
                                          "bank.Account#getBalance()I, which"));
  EXPECT_THAT(swap.stderr_data, HasSubstr("specs/bank/Account.jml:23: a contract of "
                                          "bank.Account#zero()I, which"));
  EXPECT_THAT(swap.stdout_data, Not(HasSubstr("contracts checked")));
  ASSERT_TRUE(WriteFileAtomic(account, stored).ok());

  // A contract weakened by hand: checked as it stands, and said to be
  // edited (in the text, the summary line and --json); --frozen refuses it.
  std::string weakened =
      absl::StrReplaceAll(stored, {{"ensures \\result == \\old(balance);", "ensures true;"}});
  ASSERT_NE(weakened, stored);
  ASSERT_TRUE(WriteFileAtomic(account, weakened).ok());
  SubprocessResult edited = testing::RunTracespec({"check", bank});
  EXPECT_EQ(edited.exit_code, 0) << edited.stdout_data << edited.stderr_data;
  EXPECT_THAT(edited.stdout_data,
              HasSubstr("edited since the run: bank.Account#getBalance()I "
                        "(specs/bank/Account.jml:21)\n"));
  EXPECT_THAT(edited.stdout_data, Not(HasSubstr("edited since the run: bank.Account#deposit")));
  EXPECT_THAT(edited.stdout_data, HasSubstr("3 hold, 0 broken, 0 undecided; 1 edited since the run"));
  SubprocessResult edited_json = testing::RunTracespec({"check", bank, "--json"});
  EXPECT_EQ(edited_json.exit_code, 0) << edited_json.stdout_data << edited_json.stderr_data;
  v1::CheckSummary checked;
  EXPECT_TRUE(FromJson(edited_json.stdout_data, &checked).ok()) << edited_json.stdout_data;
  EXPECT_EQ(checked.edited(), 1);
  EXPECT_EQ(checked.holds(), 3);
  EXPECT_EQ(checked.contracts_size(), 3);
  for (const v1::CheckedContract& c : checked.contracts()) {
    EXPECT_EQ(c.edited(), c.method() == "bank.Account#getBalance()I") << c.method();
    EXPECT_EQ(c.spec_file(), "specs/bank/Account.jml");
  }
  SubprocessResult frozen = testing::RunTracespec({"check", bank, "--frozen"});
  EXPECT_EQ(frozen.exit_code, 3) << frozen.stdout_data << frozen.stderr_data;
  EXPECT_THAT(frozen.stderr_data,
              HasSubstr("bank.Account#getBalance()I (specs/bank/Account.jml:21)"));
  EXPECT_THAT(frozen.stdout_data, Not(HasSubstr("contracts checked")));

  // run.json naming fewer contracts than Account.jml holds.
  v1::RunSummary fewer = ReadRunJson(out);
  int dropped = 0;
  for (v1::MethodRun& m : *fewer.mutable_methods()) {
    if (m.method() == "bank.Account#withdraw(I)V") {
      m.clear_spec_file();
      ++dropped;
    }
  }
  ASSERT_EQ(dropped, 1);
  ASSERT_TRUE(WriteFileAtomic(out + "/run.json", ToJsonLine(fewer)).ok());
  SubprocessResult uncounted = testing::RunTracespec({"check", bank});
  EXPECT_EQ(uncounted.exit_code, 3) << uncounted.stdout_data << uncounted.stderr_data;
  EXPECT_THAT(uncounted.stderr_data,
              HasSubstr("Account.jml:27: a contract of bank.Account#withdraw(I)V, which"));
  EXPECT_THAT(uncounted.stderr_data, HasSubstr("does not name: it would go unchecked"));
}

// Without a build command, check does not take stale class files for the
// current build: a source newer than its class file stops it, naming both;
// and a run that wrote no contract is nothing to pass on.
// A result that depends only on which band an input lies in — an int
// grade, an enum level — is pinned band by band from the calls the tests
// make (was: `\result >= 0` and `\result != null`, pinned on 0 of 5 calls,
// "weak"); the band edges the tests do not show (51 to 499) are left open.
TEST(RunTest, ResultsThatStepWithAnInputArePinnedBandByBand) {
  testing::TempDir dir;
  dir.Write("src/main/java/g/Level.java", "package g;\npublic enum Level { LOW, MID, HIGH }\n");
  dir.Write("src/main/java/g/Gauge.java", R"(package g;
public class Gauge {
  public static Level level(int x) {
    if (x > 100) return Level.HIGH;
    if (x > 10) return Level.MID;
    return Level.LOW;
  }
  public static int grade(int x) {
    if (x > 100) return 2;
    if (x > 10) return 1;
    return 0;
  }
}
)");
  dir.Write("src/test/java/g/GaugeTest.java", R"(package g;
import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.api.Test;
class GaugeTest {
  @Test void levels() {
    assertEquals(Level.LOW, Gauge.level(3));
    assertEquals(Level.LOW, Gauge.level(10));
    assertEquals(Level.MID, Gauge.level(11));
    assertEquals(Level.MID, Gauge.level(50));
    assertEquals(Level.HIGH, Gauge.level(500));
  }
  @Test void grades() {
    assertEquals(0, Gauge.grade(3));
    assertEquals(0, Gauge.grade(10));
    assertEquals(1, Gauge.grade(11));
    assertEquals(1, Gauge.grade(50));
    assertEquals(2, Gauge.grade(500));
  }
}
)");
  CompileMavenLayout(dir.path());
  SubprocessResult r = testing::RunTracespec({"run", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  const std::string spec = ReadFile(dir.path() + "/tracespec-out/specs/g/Gauge.jml").value_or("");
  for (const char* clause : {"ensures x <= 10 ==> \\result == g.Level.LOW;",
                             "ensures x >= 11 && x <= 50 ==> \\result == g.Level.MID;",
                             "ensures x >= 500 ==> \\result == g.Level.HIGH;",
                             "ensures x <= 10 ==> \\result == 0;",
                             "ensures x >= 11 && x <= 50 ==> \\result == 1;",
                             "ensures x >= 500 ==> \\result == 2;"}) {
    EXPECT_THAT(spec, HasSubstr(clause)) << spec;
  }
  EXPECT_THAT(r.stdout_data, HasSubstr("g.Gauge#level(I)Lg/Level;: Success 11"));
  EXPECT_THAT(r.stdout_data, HasSubstr("pins \\result on 5/5 observations"));
  EXPECT_THAT(r.stdout_data, Not(HasSubstr("weak"))) << r.stdout_data;
}

TEST(RunTest, CheckWithoutABuildCommandRefusesStaleClassesAndNothingToCheck) {
  testing::TempDir dir;
  dir.Write("src/main/java/shop/Price.java",
            "package shop;\npublic class Price {\n  public static int twice(int x) { return 2 * x; }\n}\n");
  dir.Write("src/test/java/shop/PriceTest.java", "package shop;\nclass PriceTest {}\n");
  Javac(dir.path(), "src/main/java", "target/classes", "");
  ASSERT_TRUE(MakeDirs(dir.path() + "/target/test-classes").ok());
  dir.Write("tracespec-out/run.json",
            "{\"formatVersion\":\"FORMAT_VERSION_1\",\"methods\":[{\"method\":\"shop.Price#twice(I)I\"}]}\n");
  SubprocessResult nothing = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(nothing.exit_code, 3) << nothing.stdout_data << nothing.stderr_data;
  EXPECT_THAT(nothing.stderr_data, HasSubstr("nothing to check"));
  EXPECT_THAT(nothing.stderr_data, HasSubstr("wrote no contract for any of its 1 methods"));

  std::string source = dir.path() + "/src/main/java/shop/Price.java";
  fs::last_write_time(source, fs::last_write_time(dir.path() + "/target/classes/shop/Price.class") +
                                  std::chrono::seconds(5));
  SubprocessResult stale = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(stale.exit_code, 3) << stale.stdout_data << stale.stderr_data;
  EXPECT_THAT(stale.stderr_data,
              HasSubstr("src/main/java/shop/Price.java is newer than target/classes/shop/Price.class"));
  EXPECT_THAT(stale.stderr_data, HasSubstr("has no build command"));

  // A project with src/shop/Price.java newer than its class file, the
  // configuration `config` and the further `files`; what check says.
  const std::string price = *ReadFile(source);
  auto check_stale = [&price](const std::string& config,
                              const std::map<std::string, std::string>& files) {
    testing::TempDir project;
    project.Write("src/shop/Price.java", price);
    for (const auto& [name, text] : files) project.Write(name, text);
    project.Write("tracespec.textproto",
                  "classes: \"target/classes\"\ntest_classes: \"target/test-classes\"\n" + config);
    Javac(project.path(), "src/shop", "target/classes", "");
    EXPECT_TRUE(MakeDirs(project.path() + "/target/test-classes").ok());
    project.Write("tracespec-out/run.json",
                  "{\"formatVersion\":\"FORMAT_VERSION_1\",\"methods\":[{\"method\":"
                  "\"shop.Price#twice(I)I\"}]}\n");
    fs::last_write_time(project.path() + "/src/shop/Price.java",
                        fs::last_write_time(project.path() + "/target/classes/shop/Price.class") +
                            std::chrono::seconds(5));
    return testing::RunTracespec({"check", project.path()});
  };
  const std::string newer = "src/shop/Price.java is newer than target/classes/shop/Price.class";

  // The same where the configuration names the sources (no src/main/java).
  SubprocessResult stale_configured = check_stale("sources: \"src\"\n", {});
  EXPECT_EQ(stale_configured.exit_code, 3)
      << stale_configured.stdout_data << stale_configured.stderr_data;
  EXPECT_THAT(stale_configured.stderr_data, HasSubstr(newer));

  // A plain src/ + test/ layout whose configuration does not name the
  // sources: src/ is taken for them (check could not tell stale class files
  // here before, and said so and exited 0). Not when src/ may hold the
  // tests (a src/test directory): then check cannot tell.
  const std::map<std::string, std::string> plain = {
      {"test/shop/PriceTest.java", "package shop;\nclass PriceTest {}\n"}};
  SubprocessResult stale_plain = check_stale("tests_src: \"test\"\n", plain);
  EXPECT_EQ(stale_plain.exit_code, 3) << stale_plain.stdout_data << stale_plain.stderr_data;
  EXPECT_THAT(stale_plain.stderr_data, HasSubstr(newer));
  std::map<std::string, std::string> tests_inside = plain;
  tests_inside["src/test/shop/Other.java"] = "package shop;\nclass Other {}\n";
  SubprocessResult unknown = check_stale("tests_src: \"test\"\n", tests_inside);
  EXPECT_THAT(unknown.stderr_data + unknown.stdout_data, Not(HasSubstr("is newer than")));
}

// `run` without a build command on class files older than their sources
// infers contracts of the old class files: it says so as it starts and in
// its last lines, and run.json records which (until this stop it went
// ahead without a word, and only `check` refused).
TEST(RunTest, ARunOnClassFilesOlderThanTheirSourcesWarns) {
  testing::TempDir dir;
  dir.Write("src/main/java/shop/Price.java",
            "package shop;\npublic class Price {\n  public static int twice(int x) { return 2 * x; }\n}\n");
  dir.Write("src/test/java/shop/PriceTest.java",
            "package shop;\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n"
            "import org.junit.jupiter.api.Test;\n"
            "class PriceTest { @Test void t() { assertEquals(6, Price.twice(3)); } }\n");
  CompileMavenLayout(dir.path());
  std::string source = dir.path() + "/src/main/java/shop/Price.java";
  dir.Write("src/main/java/shop/Price.java",
            "package shop;\npublic class Price {\n  public static int twice(int x) { return x + x; }\n}\n");
  fs::last_write_time(source,
                      fs::last_write_time(dir.path() + "/target/classes/shop/Price.class") +
                          std::chrono::seconds(5));
  SubprocessResult r = testing::RunTracespec({"run", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  const std::string stale =
      "src/main/java/shop/Price.java is newer than target/classes/shop/Price.class";
  EXPECT_THAT(r.stderr_data, HasSubstr("build: none configured, and 1 class file is older than "
                                       "its source: the contracts are of the class files as found"));
  EXPECT_THAT(r.stdout_data, HasSubstr(absl::StrCat("WARNING: 1 class file is older than its "
                                                    "source: the contracts are of the class files "
                                                    "as found, not of the sources:\n  ",
                                                    stale)));
  v1::RunSummary summary = ReadRunJson(dir.path() + "/tracespec-out");
  EXPECT_THAT(summary.stale_classes(), ::testing::ElementsAre(stale));

  // Built again: no warning.
  Javac(dir.path(), "src/main/java", "target/classes", "");
  fs::last_write_time(source,
                      fs::last_write_time(dir.path() + "/target/classes/shop/Price.class") -
                          std::chrono::seconds(10));
  SubprocessResult again = testing::RunTracespec({"run", dir.path()});
  ASSERT_EQ(again.exit_code, 0) << again.stdout_data << again.stderr_data;
  EXPECT_THAT(again.stdout_data, Not(HasSubstr("WARNING")));
  EXPECT_EQ(ReadRunJson(dir.path() + "/tracespec-out").stale_classes_size(), 0);
}

// Ctrl-C during `tracespec run`, even when the shell started it in the
// background with SIGINT ignored: the run stops within seconds of the
// signal (exit 130), keeps the methods that had finished, records itself as
// a failed run (check refuses), and the next run redoes none of them.
TEST(RunTest, SigintStopsTheRunAndTheNextRunContinues) {
  testing::TempDir dir;
  std::string project = CompiledMavenShop(dir);
  // A background job of a non-interactive shell starts with SIGINT
  // ignored (here explicitly, and `exec` so that $! is tracespec itself);
  // the first finished method ("[1/") is the moment to interrupt.
  std::string script = absl::StrCat(
      "(trap '' INT; exec \"$0\" run \"$1\" 2>\"$2/err.txt\" >\"$2/out.txt\") &\n"
      "pid=$!\n"
      "while ! grep -q '\\[1/' \"$2/err.txt\" 2>/dev/null; do\n"
      "  kill -0 $pid 2>/dev/null || break\n"
      "  sleep 0.05\n"
      "done\n"
      "grep '^Sig' /proc/$pid/status >\"$2/signals.txt\" 2>&1\n"
      "t0=$(date +%s%N)\n"
      "kill -INT $pid\n"
      "wait $pid\n"
      "code=$?\n"
      "t1=$(date +%s%N)\n"
      "echo \"exit=$code ms=$(( (t1 - t0) / 1000000 ))\"\n");
  absl::StatusOr<SubprocessResult> r = RunSubprocess(
      {"/bin/sh", "-c", script, testing::TracespecBinary(), project, dir.path()});
  ASSERT_TRUE(r.ok()) << r.status();
  std::string err = ReadFile(dir.path() + "/err.txt").value_or("");
  ASSERT_THAT(r->stdout_data, HasSubstr("exit=130 "))
      << r->stdout_data << ReadFile(dir.path() + "/signals.txt").value_or("") << err;
  int ms = std::stoi(r->stdout_data.substr(r->stdout_data.find("ms=") + 3));
  std::printf("the run stopped %d ms after SIGINT\n", ms);
  EXPECT_LE(ms, 5000) << "the run took " << ms << " ms to stop\n" << err;
  EXPECT_THAT(err, HasSubstr("interrupted by SIGINT"));
  EXPECT_THAT(err, HasSubstr("methods finished; they are kept in"));
  const std::string out = project + "/tracespec-out";
  ASSERT_TRUE(FileExists(out + "/failed-run.json"));
  EXPECT_FALSE(FileExists(out + "/run.json"));
  int finished = 0;
  for (const auto& entry : fs::directory_iterator(out + "/infer")) {
    if (FileExists(entry.path().string() + "/result.json")) ++finished;
  }
  EXPECT_GE(finished, 1);

  SubprocessResult rerun = testing::RunTracespec({"run", project});
  ASSERT_EQ(rerun.exit_code, 0) << rerun.stdout_data << rerun.stderr_data;
  EXPECT_THAT(rerun.stderr_data, HasSubstr("observe: reusing"));
  v1::RunSummary summary = ReadRunJson(out);
  EXPECT_TRUE(summary.observations_reused());
  int reused = 0;
  for (const v1::MethodRun& m : summary.methods()) reused += m.reused() ? 1 : 0;
  EXPECT_EQ(reused, finished) << rerun.stderr_data;
  EXPECT_LT(reused, summary.methods_size()) << "the signal came after the last method";
  EXPECT_FALSE(FileExists(out + "/failed-run.json"));
}

// How a signal ended a background `tracespec ...`: its exit status, the
// milliseconds from the signal to its end, its stderr.
struct Interrupted {
  int exit_code = -1;
  int ms = -1;
  std::string err;
};

// Starts `tracespec args...` as a shell starts a background job (SIGINT
// ignored, `exec` so that $! is tracespec itself), sends it SIGINT one
// second after the file `marker` appears (a build command or a test
// creates it when it starts), and waits for it to end. The child processes
// run in process groups of their own: like a Ctrl-C at the terminal, the
// signal reaches tracespec only.
Interrupted InterruptWhenStarted(const testing::TempDir& dir, const std::string& marker,
                                 const std::vector<std::string>& args) {
  std::string script =
      "marker=$1; work=$2; shift 2\n"
      "rm -f \"$work/err.txt\"\n"
      "(trap '' INT; exec \"$@\" 2>\"$work/err.txt\" >\"$work/out.txt\") &\n"
      "pid=$!\n"
      "while [ ! -e \"$marker\" ]; do\n"
      "  kill -0 $pid 2>/dev/null || break\n"
      "  sleep 0.05\n"
      "done\n"
      "sleep 1\n"
      "t0=$(date +%s%N)\n"
      "kill -INT $pid\n"
      "wait $pid\n"
      "code=$?\n"
      "t1=$(date +%s%N)\n"
      "echo \"exit=$code ms=$(( (t1 - t0) / 1000000 ))\"\n";
  std::vector<std::string> argv = {"/bin/sh", "-c", script, "sh", marker, dir.path(),
                                   testing::TracespecBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  absl::StatusOr<SubprocessResult> r = RunSubprocess(argv);
  Interrupted out;
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok()) return out;
  out.err = ReadFile(dir.path() + "/err.txt").value_or("");
  size_t exit = r->stdout_data.find("exit=");
  size_t ms = r->stdout_data.find("ms=");
  EXPECT_NE(ms, std::string::npos) << r->stdout_data << r->stderr_data;
  if (exit == std::string::npos || ms == std::string::npos) return out;
  out.exit_code = std::stoi(r->stdout_data.substr(exit + 5));
  out.ms = std::stoi(r->stdout_data.substr(ms + 3));
  return out;
}

// Ctrl-C while the build command or the test JVMs run (each in a process
// group of its own, which the signal does not reach): the run kills them
// at once and stops within two seconds with exit 130, saying it was
// interrupted (not that the JVM failed); the last good run's run.json and
// observations stay, the stop is recorded in failed-run.json, and the
// build and the tests never finish behind its back. `tracespec observe`
// itself stops the same way and writes nothing.
TEST(RunTest, CtrlCDuringTheBuildOrTheTestsStopsTheRunAtOnce) {
  testing::TempDir dir;
  std::string project = CopyProject(
      dir, absl::StrCat(testing::SourceDir(), "/tests/e2e/projects/maven-shop"), "p");
  const std::string slow = dir.path() + "/slow";
  dir.Write("p/src/test/java/shop/SlowTest.java",
            absl::StrCat("package shop;\n"
                         "import java.io.File;\n"
                         "import org.junit.jupiter.api.Test;\n"
                         "class SlowTest {\n"
                         "  @Test void waitsWhenAsked() throws Exception {\n"
                         "    if (!new File(\"", slow, "\").exists()) return;\n"
                         "    new File(\"", dir.path(), "/tests-started\").createNewFile();\n"
                         "    Thread.sleep(6000);\n"
                         "    new File(\"", dir.path(), "/tests-finished\").createNewFile();\n"
                         "  }\n}\n"));
  CompileMavenLayout(project);
  dir.Write("p/tracespec.textproto",
            "build: \"sh build.sh\"\n"
            "classes: \"target/classes\"\n"
            "test_classes: \"target/test-classes\"\n"
            "tests: \"shop.DiscountTest\"\n"
            "tests: \"shop.SlowTest\"\n"
            "target_classes: \"shop.Discount\"\n");
  dir.Write("p/build.sh", "true\n");
  const std::string out = project + "/tracespec-out";
  SubprocessResult good = testing::RunTracespec({"run", project});
  ASSERT_EQ(good.exit_code, 0) << good.stdout_data << good.stderr_data;
  const std::string run_json = ReadFile(out + "/run.json").value_or("");
  const std::string observations = ReadFile(out + "/observations/observations.pb").value_or("");
  const std::string observe_summary = ReadFile(out + "/observations/summary.json").value_or("");
  ASSERT_FALSE(observations.empty());

  // During the build command.
  dir.Write("p/build.sh", absl::StrCat("touch '", dir.path(), "/build-started'\nsleep 6\ntouch '",
                                       dir.path(), "/build-finished'\n"));
  Interrupted build =
      InterruptWhenStarted(dir, dir.path() + "/build-started", {"run", project});
  std::printf("the run stopped %d ms after SIGINT during the build\n", build.ms);
  EXPECT_EQ(build.exit_code, 130) << build.err;
  EXPECT_LE(build.ms, 2000) << build.err;
  EXPECT_THAT(build.err, HasSubstr("interrupted by SIGINT during the build command (sh build.sh)"));
  EXPECT_THAT(build.err, Not(HasSubstr("observe:")));
  EXPECT_THAT(ReadFile(out + "/failed-run.json").value_or(""),
              HasSubstr("interrupted by SIGINT during the build command"));
  EXPECT_EQ(ReadFile(out + "/run.json").value_or(""), run_json);

  // During the tests (run A and the substituted run B beside it); the
  // observations must be recorded again (a target class changed).
  dir.Write("p/build.sh", "true\n");
  dir.Write("slow", "");
  AddToClass(project, "shop/Discount.java", "  static final String NOTE = \"changed\";\n");
  Interrupted tests =
      InterruptWhenStarted(dir, dir.path() + "/tests-started", {"run", project});
  std::printf("the run stopped %d ms after SIGINT during the tests\n", tests.ms);
  EXPECT_EQ(tests.exit_code, 130) << tests.err;
  EXPECT_LE(tests.ms, 2000) << tests.err;
  EXPECT_THAT(tests.err, HasSubstr("interrupted by SIGINT while the tests ran; nothing was "
                                   "inferred"));
  EXPECT_THAT(tests.err, Not(HasSubstr("JVM failed")));
  EXPECT_THAT(tests.err, Not(HasSubstr("JUnit did not run")));
  EXPECT_THAT(ReadFile(out + "/failed-run.json").value_or(""),
              HasSubstr("interrupted by SIGINT while the tests ran"));
  EXPECT_EQ(ReadFile(out + "/run.json").value_or(""), run_json);
  EXPECT_EQ(ReadFile(out + "/observations/observations.pb").value_or(""), observations);
  EXPECT_EQ(ReadFile(out + "/observations/summary.json").value_or(""), observe_summary);

  // `tracespec observe` on its own.
  ASSERT_TRUE(RemoveAll(dir.path() + "/tests-started").ok());
  const std::string observed = dir.path() + "/observed";
  Interrupted observe = InterruptWhenStarted(
      dir, dir.path() + "/tests-started",
      {"observe", "--classpath",
       absl::StrCat(project, "/target/classes:", project, "/target/test-classes"), "--tests",
       "shop.SlowTest", "--method", "shop.Discount#*", "--out", observed});
  std::printf("observe stopped %d ms after SIGINT\n", observe.ms);
  EXPECT_EQ(observe.exit_code, 130) << observe.err;
  EXPECT_LE(observe.ms, 2000) << observe.err;
  EXPECT_THAT(observe.err, HasSubstr("interrupted by SIGINT while the tests ran under the probe"));
  EXPECT_FALSE(FileExists(observed + "/observations.pb"));
  EXPECT_FALSE(FileExists(observed + "/summary.json"));

  // `tracespec strength` while JUnit runs the tests for its mutants (here
  // the original's run, the same code as each mutant's): the JVM is killed
  // and strength stops with exit 130 (its JVMs went on after a SIGTERM).
  ASSERT_TRUE(RemoveAll(dir.path() + "/tests-started").ok());
  Interrupted strength =
      InterruptWhenStarted(dir, dir.path() + "/tests-started", {"strength", project});
  std::printf("strength stopped %d ms after SIGINT\n", strength.ms);
  EXPECT_EQ(strength.exit_code, 130) << strength.err;
  EXPECT_LE(strength.ms, 2000) << strength.err;
  EXPECT_THAT(strength.err, HasSubstr("interrupted by SIGINT while JUnit ran shop.DiscountTest, "
                                      "shop.SlowTest"));

  // Neither the build nor a test JVM went on behind the stopped run.
  std::this_thread::sleep_for(std::chrono::seconds(6));
  EXPECT_FALSE(FileExists(dir.path() + "/build-finished"));
  EXPECT_FALSE(FileExists(dir.path() + "/tests-finished"));
}

// The observations (and every finished method) are kept when a class file
// that neither the tests nor the targets reach is added; a change to one
// they reach observes again.
TEST(RunTest, AnUnreachedClassKeepsTheObservations) {
  testing::TempDir dir;
  std::string project = CompiledMavenShop(dir);
  SubprocessResult first = testing::RunTracespec({"run", project});
  ASSERT_EQ(first.exit_code, 0) << first.stdout_data << first.stderr_data;
  std::string out = project + "/tracespec-out";
  std::string key = ReadRunJson(out).observations_key();

  // Not a target (package-private, in no test's reach): a new class file.
  dir.Write("extra/shop/Unused.java", "package shop;\nclass Unused { int n() { return 4; } }\n");
  Javac(dir.path(), "extra", "p/target/classes", "");
  ASSERT_TRUE(FileExists(project + "/target/classes/shop/Unused.class"));
  SubprocessResult again = testing::RunTracespec({"run", project});
  ASSERT_EQ(again.exit_code, 0) << again.stdout_data << again.stderr_data;
  v1::RunSummary summary = ReadRunJson(out);
  EXPECT_TRUE(summary.observations_reused());
  EXPECT_EQ(summary.observations_key(), key);
  int inferred = 0;
  for (const v1::MethodRun& m : summary.methods()) {
    if (m.status() != v1::METHOD_RUN_INFERRED) continue;
    ++inferred;
    EXPECT_TRUE(m.reused()) << m.method();
  }
  EXPECT_GT(inferred, 0);

  // A reached class changes (same behaviour, one more constant).
  AddToClass(project, "shop/Cart.java", "  static final String NOTE = \"changed\";\n");
  SubprocessResult third = testing::RunTracespec({"run", project});
  ASSERT_EQ(third.exit_code, 0) << third.stdout_data << third.stderr_data;
  EXPECT_FALSE(ReadRunJson(out).observations_reused());
  EXPECT_NE(ReadRunJson(out).observations_key(), key);
}

// The methods whose progress asked the built-in synthesizer for a round,
// as "pkg.C#m(desc)I" taken from the lines' "[..] METHOD: round N: asking".
std::set<std::string> MethodsAsked(const std::string& progress) {
  std::set<std::string> asked;
  for (absl::string_view line : absl::StrSplit(progress, '\n')) {
    if (!absl::StrContains(line, "asking the built-in synthesizer")) continue;
    static const std::regex method(R"(([A-Za-z_][\w.$]*#[^\s:]+): round \d+: asking)");
    std::cmatch m;
    std::string text(line);
    if (std::regex_search(text.c_str(), m, method)) asked.insert(m[1].str());
  }
  return asked;
}

// A run that observes again keeps the journal of every method whose own
// observations and reachable class files are unchanged: adding a public
// class (a new target, so everything is observed again) asks again only
// for the new method, and a test changed to call a method with new values
// starts that method again, saying why, and no other.
TEST(RunTest, ObservingAgainKeepsTheJournalsOfUnchangedMethods) {
  testing::TempDir dir;
  std::string project = dir.path() + "/p";
  dir.Write("p/src/main/java/lib/Calc.java",
            "package lib;\n"
            "public class Calc {\n"
            "  public static int add(int a, int b) { return a + b; }\n"
            "  public static int twice(int a) { return 2 * a; }\n"
            "}\n");
  dir.Write("p/src/test/java/lib/CalcTest.java",
            "package lib;\n"
            "import static org.junit.jupiter.api.Assertions.assertEquals;\n"
            "import org.junit.jupiter.api.Test;\n"
            "public class CalcTest {\n"
            "  @Test void add() { assertEquals(5, Calc.add(2, 3)); assertEquals(0, Calc.add(-1, 1)); }\n"
            "}\n");
  const std::string twice_test =
      "package lib;\n"
      "import static org.junit.jupiter.api.Assertions.assertEquals;\n"
      "import org.junit.jupiter.api.Test;\n"
      "public class TwiceTest {\n"
      "  @Test void twice() { assertEquals(4, Calc.twice(2)); assertEquals(-6, Calc.twice(-3)); }\n"
      "}\n";
  dir.Write("p/src/test/java/lib/TwiceTest.java", twice_test);
  CompileMavenLayout(project);
  const std::string add = "lib.Calc#add(II)I", twice = "lib.Calc#twice(I)I",
                    k = "lib.Other#k()I";
  SubprocessResult first = testing::RunTracespec({"run", project});
  ASSERT_EQ(first.exit_code, 0) << first.stdout_data << first.stderr_data;
  EXPECT_EQ(MethodsAsked(first.stderr_data), (std::set<std::string>{add, twice}))
      << first.stderr_data;
  std::string out = project + "/tracespec-out";
  std::string add_round = out + "/infer/lib.Calc#add(II)I/round-1/round.json";
  std::string add_record = *ReadFile(add_round);

  // A new public class and its test: a new target, so every test runs
  // again; Calc's calls are the same.
  dir.Write("p/src/main/java/lib/Other.java",
            "package lib;\npublic class Other { public static int k() { return 1; } }\n");
  dir.Write("p/src/test/java/lib/OtherTest.java",
            "package lib;\n"
            "import static org.junit.jupiter.api.Assertions.assertEquals;\n"
            "import org.junit.jupiter.api.Test;\n"
            "public class OtherTest {\n"
            "  @Test void k() { assertEquals(1, Other.k()); }\n"
            "}\n");
  CompileMavenLayout(project);
  SubprocessResult second = testing::RunTracespec({"run", project});
  ASSERT_EQ(second.exit_code, 0) << second.stdout_data << second.stderr_data;
  EXPECT_FALSE(ReadRunJson(out).observations_reused());
  EXPECT_EQ(MethodsAsked(second.stderr_data), (std::set<std::string>{k})) << second.stderr_data;
  EXPECT_THAT(second.stderr_data, HasSubstr(add + ": observations unchanged"));
  EXPECT_THAT(second.stderr_data, HasSubstr(twice + ": observations unchanged"));
  EXPECT_EQ(*ReadFile(add_round), add_record);
  v1::RunSummary summary = ReadRunJson(out);
  int succeeded = 0;
  for (const v1::MethodRun& m : summary.methods()) {
    EXPECT_EQ(m.status(), v1::METHOD_RUN_INFERRED) << m.method();
    succeeded += m.infer_status() == v1::INFER_SUCCESS ? 1 : 0;
    EXPECT_EQ(m.reused(), m.method() != k) << m.method();
  }
  EXPECT_EQ(succeeded, 3) << second.stderr_data;

  // twice's test calls it with other values: twice alone starts again.
  dir.Write("p/src/test/java/lib/TwiceTest.java",
            absl::StrReplaceAll(twice_test, {{"assertEquals(4, Calc.twice(2))",
                                              "assertEquals(14, Calc.twice(7))"}}));
  CompileMavenLayout(project);
  SubprocessResult third = testing::RunTracespec({"run", project});
  ASSERT_EQ(third.exit_code, 0) << third.stdout_data << third.stderr_data;
  EXPECT_EQ(MethodsAsked(third.stderr_data), (std::set<std::string>{twice})) << third.stderr_data;
  EXPECT_THAT(third.stderr_data,
              HasSubstr(twice + ": observations or the class files it reaches changed: "
                                "inferred again"));
  EXPECT_THAT(third.stderr_data, HasSubstr(add + ": observations unchanged"));
  EXPECT_EQ(*ReadFile(add_round), add_record);
}

// A damaged cached observations file is observed again, with a note, not a
// failed run.
TEST(RunTest, ADamagedObservationsCacheIsObservedAgain) {
  testing::TempDir dir;
  std::string project = CompiledMavenShop(dir);
  SubprocessResult first = testing::RunTracespec({"run", project});
  ASSERT_EQ(first.exit_code, 0) << first.stdout_data << first.stderr_data;
  std::string pb = project + "/tracespec-out/observations/observations.pb";
  std::string bytes = *ReadFile(pb);
  ASSERT_GT(bytes.size(), 10u);
  ASSERT_TRUE(WriteFileAtomic(pb, bytes.substr(0, bytes.size() - 7)).ok());
  SubprocessResult again = testing::RunTracespec({"run", project});
  ASSERT_EQ(again.exit_code, 0) << again.stdout_data << again.stderr_data;
  EXPECT_THAT(again.stderr_data, HasSubstr("the cached observations are damaged"));
  EXPECT_THAT(again.stderr_data, HasSubstr("observing again"));
  EXPECT_FALSE(ReadRunJson(project + "/tracespec-out").observations_reused());
  EXPECT_TRUE(ReadObservations(pb).ok());

  // Damage that still parses: one byte of a recorded value changed (an
  // observation the tests never made). Reused as it was until this stop.
  std::string good = *ReadFile(pb);
  std::string changed = good;
  size_t at = changed.find("CartTest");
  ASSERT_NE(at, std::string::npos);
  changed[at] = 'K';  // a test id of the same length: it still parses
  ASSERT_TRUE(WriteFileAtomic(pb, changed).ok());
  ASSERT_TRUE(ReadObservations(pb).ok());
  SubprocessResult third = testing::RunTracespec({"run", project});
  ASSERT_EQ(third.exit_code, 0) << third.stdout_data << third.stderr_data;
  EXPECT_THAT(third.stderr_data,
              HasSubstr("the cached observations changed after they were written"));
  EXPECT_FALSE(ReadRunJson(project + "/tracespec-out").observations_reused());
  EXPECT_EQ(*ReadFile(pb), good);

  // Unchanged: reused.
  SubprocessResult fourth = testing::RunTracespec({"run", project});
  ASSERT_EQ(fourth.exit_code, 0) << fourth.stdout_data << fourth.stderr_data;
  EXPECT_TRUE(ReadRunJson(project + "/tracespec-out").observations_reused());
}

// A failing JUnit test: run names it in the observe progress line and in
// run.json's failed_tests (also when the observations are reused), and its
// call of half(7) is kept out of what the synthesizer is shown. third(I)I,
// which only a failing test calls, is not observed, saying so (it was sent
// to the synthesizer, which failed for want of observations).
TEST(RunTest, AFailingTestIsNamedAndItsCallsKeptOutOfInference) {
  testing::TempDir dir;
  dir.Write("src/main/java/shop/Price.java",
            "package shop;\npublic class Price {\n"
            "  public static int twice(int x) { return 2 * x; }\n"
            "  public static int half(int x) { return x / 2; }\n"
            "  public static int third(int x) { return x / 3; }\n}\n");
  dir.Write("src/test/java/shop/PriceTest.java",
            "package shop;\n"
            "import static org.junit.jupiter.api.Assertions.assertEquals;\n"
            "import org.junit.jupiter.api.Test;\n"
            "class PriceTest {\n"
            "  @Test void twiceDoubles() { assertEquals(6, Price.twice(3)); }\n"
            "  @Test void halfRoundsUp() { assertEquals(4, Price.half(7)); }  // fails\n"
            "  @Test void thirdIsNine() { assertEquals(9, Price.third(3)); }  // fails\n"
            "  @Test void halfHalves() {\n"
            "    assertEquals(3, Price.half(6));\n"
            "    assertEquals(-2, Price.half(-4));\n"
            "  }\n}\n");
  CompileMavenLayout(dir.path());
  const std::string failed = "shop.PriceTest#halfRoundsUp: AssertionFailedError";
  const std::string failed_third = "shop.PriceTest#thirdIsNine: AssertionFailedError";
  const std::string out = dir.path() + "/tracespec-out";

  SubprocessResult r = testing::RunTracespec({"run", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data,
              HasSubstr(absl::StrCat("observe: 4 tests run, 2 failed (", failed, ", ", failed_third,
                                     "; their calls are kept out of inference), ")));
  EXPECT_THAT(r.stdout_data, HasSubstr("shop.Price#third(I)I: not observed (only failing tests "
                                       "called it (shop.PriceTest"));
  EXPECT_THAT(r.stdout_data, Not(HasSubstr("exchange failed")));
  v1::RunSummary summary = ReadRunJson(out);
  EXPECT_THAT(summary.failed_tests(), ::testing::ElementsAre(failed, failed_third));
  EXPECT_EQ(summary.not_observed(), 1);
  std::string request = FirstRequest(out, summary, "shop.Price#half(I)I");
  EXPECT_THAT(request, HasSubstr("Observations (2 calls"));
  EXPECT_THAT(request, HasSubstr("]: x=-4 -"));  // '>' is escaped in JSON
  EXPECT_THAT(request, Not(HasSubstr("x=7")));
  EXPECT_THAT(request, Not(HasSubstr("halfRoundsUp")));

  SubprocessResult again = testing::RunTracespec({"run", dir.path()});
  ASSERT_EQ(again.exit_code, 0) << again.stdout_data << again.stderr_data;
  EXPECT_THAT(again.stderr_data,
              HasSubstr(absl::StrCat("; failed: ", failed, ", ", failed_third,
                                     " (their calls are kept out of inference)")));
  v1::RunSummary reused = ReadRunJson(out);
  EXPECT_TRUE(reused.observations_reused());
  EXPECT_THAT(reused.failed_tests(), ::testing::ElementsAre(failed, failed_third));
}

// A test class whose @BeforeAll throws (a JUnit container failure: the
// class's tests never start) is a failed entry named after the class: run
// names it in its observe line and warns of it, the calls its setup made
// are kept out of inference, and check refuses the run.
TEST(RunTest, AFailingBeforeAllIsAFailedEntryAndItsCallsKeptOutOfInference) {
  testing::TempDir dir;
  dir.Write("src/main/java/demo/Arr.java",
            "package demo;\npublic class Arr {\n"
            "  public static int twice(int x) { return 2 * x; }\n}\n");
  dir.Write("src/test/java/demo/ArrTest.java",
            "package demo;\n"
            "import static org.junit.jupiter.api.Assertions.assertEquals;\n"
            "import org.junit.jupiter.api.Test;\n"
            "class ArrTest {\n"
            "  @Test void twiceDoubles() { assertEquals(6, Arr.twice(3)); }\n"
            "  @Test void twiceNegative() { assertEquals(-4, Arr.twice(-2)); }\n}\n");
  dir.Write("src/test/java/demo/BrokenTest.java",
            "package demo;\n"
            "import static org.junit.jupiter.api.Assertions.assertEquals;\n"
            "import org.junit.jupiter.api.BeforeAll;\n"
            "import org.junit.jupiter.api.Test;\n"
            "public class BrokenTest {\n"
            "  @BeforeAll static void boom() { Arr.twice(100); throw new "
            "IllegalStateException(\"setup\"); }\n"
            "  @Test void never() { assertEquals(2, Arr.twice(1)); }\n}\n");
  CompileMavenLayout(dir.path());
  const std::string broken =
      "demo.BrokenTest: IllegalStateException, failed outside its tests (@BeforeAll, "
      "@AfterAll, a static initializer, an extension)";
  const std::string out = dir.path() + "/tracespec-out";

  SubprocessResult r = testing::RunTracespec({"run", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr(absl::StrCat("observe: 3 tests run, 1 failed (", broken,
                                                    "; their calls are kept out of inference)")));
  EXPECT_THAT(r.stdout_data, HasSubstr(absl::StrCat("WARNING: 1 test failed:\n  ", broken)));
  v1::RunSummary summary = ReadRunJson(out);
  EXPECT_THAT(summary.failed_tests(), ::testing::ElementsAre(broken));
  std::string observations = ReadFile(out + "/observations/observations.jsonl").value_or("");
  EXPECT_THAT(observations, HasSubstr("\"test_id\":\"demo.BrokenTest#boom\""));
  for (absl::string_view line : absl::StrSplit(observations, '\n', absl::SkipEmpty())) {
    if (!absl::StrContains(line, "demo.BrokenTest")) continue;
    EXPECT_THAT(std::string(line), HasSubstr("\"test_failed\":true"));
    EXPECT_THAT(std::string(line), HasSubstr("the test class demo.BrokenTest failed outside its "
                                             "tests (java.lang.IllegalStateException)"));
  }
  std::string request = FirstRequest(out, summary, "demo.Arr#twice(I)I");
  EXPECT_THAT(request, HasSubstr("Observations (2 calls"));
  EXPECT_THAT(request, Not(HasSubstr("x=100")));
  EXPECT_THAT(request, Not(HasSubstr("BrokenTest")));
  std::string report = ReadFile(out + "/report.md").value_or("");
  EXPECT_THAT(report, HasSubstr("3 tests run: 2 passed, 1 failed"));
  EXPECT_THAT(report, HasSubstr("demo.BrokenTest (java.lang.IllegalStateException) outside its "
                                "tests"));

  SubprocessResult check = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(check.exit_code, 3) << check.stdout_data << check.stderr_data;
  EXPECT_THAT(check.stderr_data, HasSubstr(absl::StrCat("1 failing test:\n  ", broken)));
}

// Object invariants read off the observed states and proved over the class
// (project/invariants.h): the class's .jml file states them, its contracts
// have no case for a state no object reaches (a negative size, a size above
// the array's length: until stop 37 peek "may throw
// ArrayIndexOutOfBoundsException" when size < 0), and check proves them
// again over the constructor, which a later edit breaks.
TEST(RunTest, ObjectInvariantsAreProvedStatedAndCheckedAgain) {
  testing::TempDir dir;
  auto stack = [](const std::string& init) {
    return absl::StrCat(
        "package shop;\npublic class Stack {\n"
        "  private final int[] items;\n  private int size;\n"
        "  public Stack(int capacity) {\n"
        "    if (capacity <= 0) throw new IllegalArgumentException(\"capacity\");\n"
        "    items = new int[capacity];\n", init,
        "  }\n"
        "  public void push(int x) {\n"
        "    if (size == items.length) throw new IllegalStateException(\"full\");\n"
        "    items[size++] = x;\n  }\n"
        "  public int peek() {\n"
        "    if (size == 0) throw new IllegalStateException(\"empty\");\n"
        "    return items[size - 1];\n  }\n"
        "  public int size() { return size; }\n}\n");
  };
  dir.Write("src/main/java/shop/Stack.java", stack(""));
  dir.Write("src/test/java/shop/StackTest.java",
            "package shop;\n"
            "import static org.junit.jupiter.api.Assertions.*;\n"
            "import org.junit.jupiter.api.Test;\n"
            "class StackTest {\n"
            "  @Test void pushPeek() {\n"
            "    Stack s = new Stack(2);\n    assertEquals(0, s.size());\n"
            "    s.push(4);\n    assertEquals(4, s.peek());\n    s.push(5);\n"
            "    assertEquals(5, s.peek());\n    assertEquals(2, s.size());\n"
            "    assertThrows(IllegalStateException.class, () -> s.push(6));\n  }\n"
            "  @Test void empty() {\n"
            "    assertThrows(IllegalStateException.class, () -> new Stack(3).peek());\n  }\n}\n");
  CompileMavenLayout(dir.path());
  const std::string out = dir.path() + "/tracespec-out";

  SubprocessResult r = testing::RunTracespec({"run", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr("invariants: shop.Stack: 2 of 2 candidates proved within "
                                       "bounds: size >= 0; size <= items.length"));
  v1::RunSummary summary = ReadRunJson(out);
  ASSERT_EQ(summary.class_invariants_size(), 1);
  EXPECT_THAT(summary.class_invariants(0).invariants(),
              ::testing::ElementsAre("size >= 0", "size <= items.length"));
  std::string spec = Specs(out)["shop/Stack.jml"];
  EXPECT_THAT(spec, HasSubstr("  //@ public invariant size >= 0;\n"
                              "  //@ public invariant size <= items.length;\n"));
  EXPECT_THAT(spec, HasSubstr("public int peek();"));
  EXPECT_THAT(spec, Not(HasSubstr("size < 0")));
  EXPECT_THAT(spec, Not(HasSubstr("ArrayIndexOutOfBoundsException")));

  SubprocessResult holds = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(holds.exit_code, 0) << holds.stdout_data << holds.stderr_data;
  EXPECT_THAT(holds.stdout_data,
              HasSubstr("shop.Stack#<init>(I)V: holds — keeps the class invariants: consistency PASS"));
  EXPECT_THAT(holds.stdout_data,
              HasSubstr("3 contracts and the class invariants of 1 method without one checked"));

  // A constructor that starts a large stack at -1 breaks `size >= 0`.
  dir.Write("src/main/java/shop/Stack.java", stack("    if (capacity > 5) size = -1;\n"));
  CompileMavenLayout(dir.path());
  SubprocessResult broken = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(broken.exit_code, 10) << broken.stdout_data << broken.stderr_data;
  EXPECT_THAT(broken.stdout_data,
              HasSubstr("shop.Stack#<init>(I)V: BROKEN — keeps the class invariants: consistency "
                        "FAIL: invariant size >= 0 (specs/shop/Stack.jml:9) does not hold at exit"));
}

// check proves the object invariants the .jml files state — the ones every
// contract's check assumes —, not those run.json records: over the
// constructors and the non-private methods without a contract (a private
// one is not checked; a method with a contract proves them at its exits).
// An invariant added by hand that the constructor does not establish is
// BROKEN, named with its file and line (until this, check proved run.json's
// and passed, while getBalance's `\result >= 0` was proved assuming the
// false `balance > 100`); one strengthened by hand breaks the contract of
// deposit at its exit; one removed is neither assumed nor checked; each
// difference is listed as edited since the run (--frozen refuses it, --json
// has it); one over a field the check does not follow (written by a static
// method) is undecided; one that does not parse makes every contract of
// the file broken, naming file and line once.
TEST(RunTest, CheckProvesTheInvariantsTheSpecFilesState) {
  testing::TempDir dir;
  dir.Write("src/main/java/bank/Account.java",
            "package bank;\npublic class Account {\n  private int balance;\n"
            "  public Account() { balance = 0; }\n"
            "  public int getBalance() { return balance; }\n"
            "  public void deposit(int amount) {\n"
            "    if (amount <= 0 || amount > 1000 - balance) throw new IllegalArgumentException();\n"
            "    balance += amount;\n  }\n"
            "  public void withdraw(int amount) {\n"
            "    if (amount <= 0 || amount > balance) throw new IllegalArgumentException();\n"
            "    balance -= amount;\n  }\n"
            "  public void reset() { balance = 0; }\n"
            "  private void spoil() { balance = -5; }\n"
            "  private int spare;\n"
            "  static void clear(Account a) { a.spare = -1; }\n}\n");
  Javac(dir.path(), "src/main/java", "target/classes", "");
  ASSERT_TRUE(MakeDirs(dir.path() + "/target/test-classes").ok());
  ASSERT_TRUE(MakeDirs(dir.path() + "/src/test/java").ok());
  const std::string spec_path = dir.path() + "/tracespec-out/specs/bank/Account.jml";
  // The invariants from line 6 on, one a line.
  auto spec = [](const std::string& invariants) {
    return absl::StrCat(
        "package bank;\n\npublic class Account {\n  private /*@ spec_public @*/ int balance;\n\n",
        invariants,
        "\n  //@ public normal_behavior\n  //@   ensures \\result == balance && \\result >= 0;\n"
        "  public int getBalance();\n\n"
        "  //@ public normal_behavior\n  //@   requires 0 < amount && amount <= 1000 - balance;\n"
        "  //@   ensures balance == \\old(balance) + amount;\n  public void deposit(int amount);\n}\n");
  };
  const std::string recorded =
      "  //@ public invariant balance >= 0;\n  //@ public invariant balance <= 1000;\n";
  // check, with Account.jml stating `invariants`.
  auto check_with = [&](const std::string& invariants) {
    dir.Write("tracespec-out/specs/bank/Account.jml", spec(invariants));
    return testing::RunTracespec({"check", dir.path()});
  };
  dir.Write("tracespec-out/run.json",
            "{\"methods\":["
            "{\"method\":\"bank.Account#getBalance()I\",\"spec_file\":\"specs/bank/Account.jml\"},"
            "{\"method\":\"bank.Account#deposit(I)V\",\"spec_file\":\"specs/bank/Account.jml\"},"
            "{\"method\":\"bank.Account#withdraw(I)V\"},{\"method\":\"bank.Account#reset()V\"}],"
            "\"spec_files\":[\"specs/bank/Account.jml\"],"
            "\"class_invariants\":[{\"class_name\":\"bank.Account\","
            "\"invariants\":[\"balance >= 0\",\"balance <= 1000\"]}]}\n");

  SubprocessResult holds = check_with(recorded);
  EXPECT_EQ(holds.exit_code, 0) << holds.stdout_data << holds.stderr_data;
  for (const char* m : {"<init>()V", "withdraw(I)V", "reset()V"}) {
    EXPECT_THAT(holds.stdout_data, HasSubstr(absl::StrCat(
                                       "bank.Account#", m,
                                       ": holds — keeps the class invariants: consistency PASS")));
  }
  EXPECT_THAT(holds.stdout_data, Not(HasSubstr("spoil")));
  EXPECT_THAT(holds.stdout_data,
              HasSubstr("2 contracts and the class invariants of 3 methods without one checked"));
  EXPECT_THAT(holds.stdout_data, HasSubstr("; 0 edited since the run;"));

  // Added by hand, and false of a new account.
  SubprocessResult added = check_with(recorded + "  //@ public invariant balance > 100;\n");
  EXPECT_EQ(added.exit_code, 10) << added.stdout_data << added.stderr_data;
  EXPECT_THAT(added.stdout_data,
              HasSubstr("bank.Account#<init>()V: BROKEN — keeps the class invariants: consistency "
                        "FAIL: invariant balance > 100 (specs/bank/Account.jml:8) does not hold at "
                        "exit"));
  EXPECT_THAT(added.stdout_data, HasSubstr("bank.Account#reset()V: BROKEN — keeps the class invariants"));
  EXPECT_THAT(added.stdout_data, HasSubstr("bank.Account#getBalance()I: holds"));
  EXPECT_THAT(added.stdout_data,
              HasSubstr("edited since the run: bank.Account: invariant balance > 100 "
                        "(specs/bank/Account.jml:8), which run.json does not record\n"));
  EXPECT_THAT(added.stdout_data, HasSubstr("; 1 edited since the run;"));
  SubprocessResult added_json = testing::RunTracespec({"check", dir.path(), "--json"});
  EXPECT_EQ(added_json.exit_code, 10) << added_json.stdout_data << added_json.stderr_data;
  v1::CheckSummary checked;
  ASSERT_TRUE(FromJson(added_json.stdout_data, &checked).ok()) << added_json.stdout_data;
  EXPECT_EQ(checked.edited(), 1);
  ASSERT_EQ(checked.edited_invariants_size(), 1);
  EXPECT_EQ(checked.edited_invariants(0).class_name(), "bank.Account");
  EXPECT_EQ(checked.edited_invariants(0).invariant(), "balance > 100");
  EXPECT_EQ(checked.edited_invariants(0).spec_file(), "specs/bank/Account.jml");
  EXPECT_EQ(checked.edited_invariants(0).line(), 8);
  EXPECT_FALSE(checked.edited_invariants(0).removed());
  for (const v1::CheckedContract& c : checked.contracts()) {
    if (c.method() == "bank.Account#<init>()V") EXPECT_EQ(c.line(), 8);
  }
  SubprocessResult frozen = testing::RunTracespec({"check", dir.path(), "--frozen"});
  EXPECT_EQ(frozen.exit_code, 3) << frozen.stdout_data << frozen.stderr_data;
  EXPECT_THAT(frozen.stderr_data, HasSubstr("--frozen: 1 invariant under "));
  EXPECT_THAT(frozen.stderr_data, HasSubstr("bank.Account: invariant balance > 100 "
                                            "(specs/bank/Account.jml:8)"));

  // Added by hand over a field a static method writes, which no check of
  // the class's constructors and methods sees: not proved (it held, and
  // check passed, before the fields were compared with what the check
  // follows).
  SubprocessResult unseen = check_with(recorded + "  //@ public invariant spare >= 0;\n");
  EXPECT_EQ(unseen.exit_code, 11) << unseen.stdout_data << unseen.stderr_data;
  EXPECT_THAT(unseen.stdout_data,
              HasSubstr("bank.Account: undecided — invariant spare >= 0 (specs/bank/Account.jml:8) "
                        "is not proved over the class: it reads spare, written by a static, "
                        "synthetic or nested-class method, or through another object of the "
                        "class, which the check does not follow\n"));
  EXPECT_THAT(unseen.stdout_data,
              HasSubstr("bank.Account#<init>()V: holds — keeps the class invariants"));

  // Strengthened by hand: deposit, which has a contract, breaks it at its
  // exit (its check proves the file's invariants there).
  SubprocessResult stronger =
      check_with("  //@ public invariant balance >= 0;\n  //@ public invariant balance <= 500;\n");
  EXPECT_EQ(stronger.exit_code, 10) << stronger.stdout_data << stronger.stderr_data;
  EXPECT_THAT(stronger.stdout_data,
              HasSubstr("bank.Account#deposit(I)V: BROKEN — consistency FAIL: invariant balance "
                        "<= 500 (line 7) does not hold at exit"));
  EXPECT_THAT(stronger.stdout_data,
              HasSubstr("bank.Account#<init>()V: holds — keeps the class invariants"));
  EXPECT_THAT(stronger.stdout_data,
              HasSubstr("edited since the run: bank.Account: invariant balance <= 500 "
                        "(specs/bank/Account.jml:7), which run.json does not record\n"));
  EXPECT_THAT(stronger.stdout_data,
              HasSubstr("edited since the run: bank.Account: invariant balance <= 1000, which "
                        "run.json records, is gone from specs/bank/Account.jml (no longer assumed "
                        "or checked)\n"));
  EXPECT_THAT(stronger.stdout_data, HasSubstr("; 2 edited since the run;"));

  // Removed: no longer assumed (getBalance's `\result >= 0` fails) nor
  // checked.
  SubprocessResult removed = check_with("");
  EXPECT_EQ(removed.exit_code, 10) << removed.stdout_data << removed.stderr_data;
  EXPECT_THAT(removed.stdout_data, HasSubstr("bank.Account#getBalance()I: BROKEN"));
  EXPECT_THAT(removed.stdout_data, Not(HasSubstr("keeps the class invariants")));
  EXPECT_THAT(removed.stdout_data,
              HasSubstr("edited since the run: bank.Account: invariant balance >= 0, which "
                        "run.json records, is gone from specs/bank/Account.jml"));
  EXPECT_THAT(removed.stdout_data, HasSubstr("2 contracts checked"));
  EXPECT_THAT(removed.stdout_data, HasSubstr("; 2 edited since the run;"));

  // One that does not parse: no contract of the class can be checked
  // (each counts as broken), nor the invariants the run recorded, said once
  // with file and line.
  SubprocessResult malformed = check_with(recorded + "  //@ public invariant balance >;\n");
  EXPECT_EQ(malformed.exit_code, 10) << malformed.stdout_data << malformed.stderr_data;
  EXPECT_THAT(malformed.stdout_data,
              HasSubstr(" contracts is checked (each counts as broken), nor the 2 object "
                        "invariants run.json records for bank.Account (neither proved nor "
                        "assumed): " + spec_path +
                        ":8:33: expected an expression, found ';' (in the invariant clause)\n"));
  EXPECT_THAT(malformed.stdout_data,
              HasSubstr("bank.Account#getBalance()I: BROKEN — not checked: its file "
                        "specs/bank/Account.jml does not parse (above)"));
  EXPECT_THAT(malformed.stdout_data, Not(HasSubstr(": holds")));
}

// Every method's contract pointer in the report names a file that holds
// that method: the merged spec file for those that succeeded, infer's own
// file of the last contract tried for one that did not (tag() makes a
// java.util.Random, which the checker does not model, so no contract of
// it can pass; nor can one be refuted: it is Unknown, naming the call, not
// Fail); Price.jml holds only the methods that succeeded.
TEST(RunTest, TheReportPointsEachMethodToTheFileOfItsContract) {
  testing::TempDir dir;
  dir.Write("src/main/java/shop/Price.java",
            "package shop;\npublic class Price {\n"
            "  public static int twice(int x) { return 2 * x; }\n"
            "  public static int tag(int x) { return new java.util.Random(x).nextInt(5); }\n}\n");
  dir.Write("src/test/java/shop/PriceTest.java",
            "package shop;\n"
            "import static org.junit.jupiter.api.Assertions.assertEquals;\n"
            "import static org.junit.jupiter.api.Assertions.assertTrue;\n"
            "import org.junit.jupiter.api.Test;\n"
            "class PriceTest {\n"
            "  @Test void twiceDoubles() { assertEquals(6, Price.twice(3)); }\n"
            "  @Test void tags() { assertTrue(Price.tag(1) < 5); assertTrue(Price.tag(2) < 5); }\n"
            "}\n");
  CompileMavenLayout(dir.path());
  SubprocessResult r = testing::RunTracespec({"run", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  const std::string out = dir.path() + "/tracespec-out";
  v1::RunSummary summary = ReadRunJson(out);
  ASSERT_EQ(summary.methods_size(), 2);
  const v1::MethodRun& tag = summary.methods(0);
  ASSERT_EQ(tag.method(), "shop.Price#tag(I)I");
  ASSERT_EQ(tag.infer_status(), v1::INFER_UNKNOWN) << r.stderr_data;
  EXPECT_THAT(tag.reason(), HasSubstr("consistency UNKNOWN (constructor java.util.Random(long) "
                                      "is not modelled by the validator"));
  EXPECT_THAT(r.stdout_data, HasSubstr("shop.Price#tag(I)I: Unknown (rounds: "));
  EXPECT_THAT(r.stdout_data, Not(HasSubstr("class path")));
  EXPECT_THAT(r.stdout_data, Not(HasSubstr("Fail")));
  ASSERT_FALSE(tag.contract().empty());
  EXPECT_EQ(tag.spec_file(), "");
  EXPECT_EQ(tag.contract_file(), "infer/shop.Price#tag(I)I/Price.jml");
  EXPECT_EQ(summary.methods(1).infer_status(), v1::INFER_SUCCESS);
  EXPECT_THAT(*ReadFile(out + "/specs/shop/Price.jml"), Not(HasSubstr(" tag(")));

  std::string report = *ReadFile(out + "/report.md");
  for (const v1::MethodRun& m : summary.methods()) {
    const std::string& name = m.id().name();
    // The report names methods in Java: "shop.Price#tag(int)".
    size_t line = report.find(absl::StrCat("- ` ", m.id().display(), " `: "));
    ASSERT_NE(line, std::string::npos) << m.method() << "\n" << report;
    std::string entry = report.substr(line, report.find('\n', line) - line);
    size_t at = entry.find(", contract ` ");
    ASSERT_NE(at, std::string::npos) << entry;
    std::string file = entry.substr(at + 13, entry.rfind(" `") - at - 13);
    EXPECT_EQ(file, m.infer_status() == v1::INFER_SUCCESS ? m.spec_file() : m.contract_file())
        << entry;
    std::string text = ReadFile(absl::StrCat(out, "/", file)).value_or("");
    EXPECT_THAT(text, HasSubstr(absl::StrCat(" ", name, "(int x);"))) << file;
    for (absl::string_view clause : absl::StrSplit(m.contract(), '\n', absl::SkipEmpty())) {
      EXPECT_THAT(text, HasSubstr(std::string(clause))) << file;
    }
  }
}

// check's counterexample shows what an array named only by reference
// holds.
// The issue's first finding, end to end (javac, JUnit, probe, Z3): a loop
// that stops after the sixth element is no bug the tests of short arrays
// show. `run` must not call its PASS complete (input arrays were cut), and
// the true contract, once written into specs/, is BROKEN under `check` with
// the default bounds, on an array longer than six.
TEST(RunTest, ABugOnlyLongArraysShowIsNeverCompleteAndCheckFindsIt) {
  testing::TempDir dir;
  std::string project = CopyProject(
      dir, absl::StrCat(testing::SourceDir(), "/bench/pipeline/tasks/prefix_alarm"), "p");
  SubprocessResult r = testing::RunTracespec({"run", project});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  v1::RunSummary summary = ReadRunJson(project + "/tracespec-out");
  ASSERT_EQ(summary.methods_size(), 1);
  const v1::Verdict& verdict = summary.methods(0).consistency().verdict();
  EXPECT_EQ(verdict.status(), v1::VERDICT_PASS);
  EXPECT_FALSE(verdict.complete());
  EXPECT_TRUE(verdict.inputs_cut());
  EXPECT_THAT(r.stderr_data, Not(HasSubstr("PASS (complete)")));
  EXPECT_THAT(r.stderr_data, HasSubstr("input arrays of at most 4 elements"));

  ASSERT_TRUE(WriteFileAtomic(
                  project + "/tracespec-out/specs/arrays/Alarms.jml",
                  "package arrays;\npublic class Alarms {\n"
                  "  //@ public normal_behavior\n"
                  "  //@   ensures \\result <==> (\\exists int i; 0 <= i && i < readings.length; "
                  "readings[i] > limit);\n"
                  "  //@   assignable \\nothing;\n"
                  "  public boolean anyAbove(int[] readings, int limit);\n}\n")
                  .ok());
  SubprocessResult check = testing::RunTracespec({"check", project});
  EXPECT_EQ(check.exit_code, 10) << check.stdout_data << check.stderr_data;
  EXPECT_THAT(check.stdout_data, HasSubstr("arrays.Alarms#anyAbove([II)Z: BROKEN"));
  EXPECT_THAT(check.stdout_data, ::testing::ContainsRegex("pre:  #[0-9]+ \\[I length [78] "));
}

TEST(RunTest, CheckShowsTheArraysOfACounterexample) {
  testing::TempDir dir;
  dir.Write("src/main/java/shop/Arr.java",
            "package shop;\npublic class Arr {\n  public static int first(int[] a) { return a[0] + 1; }\n}\n");
  Javac(dir.path(), "src/main/java", "target/classes", "");
  ASSERT_TRUE(MakeDirs(dir.path() + "/target/test-classes").ok());
  ASSERT_TRUE(MakeDirs(dir.path() + "/src/test/java").ok());
  dir.Write("tracespec-out/specs/shop/Arr.jml",
            "package shop;\npublic class Arr {\n  //@ requires a != null && a.length > 0;\n"
            "  //@ ensures \\result == a[0];\n  public static int first(int[] a);\n}\n");
  dir.Write("tracespec-out/run.json",
            "{\"methods\":[{\"method\":\"shop.Arr#first([I)I\",\"spec_file\":\"specs/shop/Arr.jml\"}],"
            "\"spec_files\":[\"specs/shop/Arr.jml\"]}\n");
  SubprocessResult r = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(r.exit_code, 10) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("shop.Arr#first([I)I: BROKEN"));
  EXPECT_THAT(r.stdout_data, HasSubstr("a = int[]#"));
  EXPECT_THAT(r.stdout_data, HasSubstr("pre:  #1 [I length "));
  EXPECT_THAT(r.stdout_data, HasSubstr("against the class files as found (no build command; none "
                                       "older than its source in src/main/java)"));
}

// A method of a member class (configured by its binary name) gets its
// contract in the top-level class's .jml file, declared in the member
// class's body, and `check` validates it there: a bug put into it later is
// BROKEN. Until this stop such a contract stayed in the infer directory
// and check called the method "not covered" and exited 0.
TEST(RunTest, AMemberClassesContractIsInItsTopLevelClasssFileAndChecked) {
  testing::TempDir dir;
  const std::string counter =
      "package shop;\npublic class Counter {\n"
      "  public static final class Step {\n"
      "    public static int twice(int x) { return 2 * x; }\n"
      "  }\n"
      "  public static int add(int a, int b) { return a + b; }\n}\n";
  dir.Write("src/main/java/shop/Counter.java", counter);
  dir.Write("src/test/java/shop/CounterTest.java",
            "package shop;\n"
            "import static org.junit.jupiter.api.Assertions.assertEquals;\n"
            "import org.junit.jupiter.api.Test;\n"
            "class CounterTest {\n"
            "  @Test void twice() {\n"
            "    assertEquals(6, Counter.Step.twice(3));\n"
            "    assertEquals(-4, Counter.Step.twice(-2));\n"
            "    assertEquals(0, Counter.Step.twice(0));\n"
            "  }\n"
            "  @Test void add() { assertEquals(5, Counter.add(2, 3)); assertEquals(0, Counter.add(-1, 1)); }\n"
            "}\n");
  dir.Write("tracespec.textproto",
            "classes: \"target/classes\"\ntest_classes: \"target/test-classes\"\n"
            "sources: \"src/main/java\"\n"
            "methods: \"shop.Counter$Step#twice(I)I\"\nmethods: \"shop.Counter#add(II)I\"\n");
  CompileMavenLayout(dir.path());
  const std::string out = dir.path() + "/tracespec-out";

  SubprocessResult r = testing::RunTracespec({"run", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  std::string spec = ReadFile(out + "/specs/shop/Counter.jml").value_or("");
  EXPECT_THAT(spec, HasSubstr("  public static final class Step {\n"));
  EXPECT_THAT(spec, HasSubstr("    public static int twice(int x);\n"));
  EXPECT_THAT(spec, HasSubstr("  public static int add(int a, int b);\n"));
  EXPECT_FALSE(fs::exists(out + "/specs/shop/Counter$Step.jml"));
  v1::RunSummary summary = ReadRunJson(out);
  for (const v1::MethodRun& m : summary.methods()) {
    EXPECT_EQ(m.spec_file(), "specs/shop/Counter.jml") << m.method();
  }

  SubprocessResult check = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(check.exit_code, 0) << check.stdout_data << check.stderr_data;
  EXPECT_THAT(check.stdout_data, HasSubstr("shop.Counter$Step#twice(I)I: holds"));
  EXPECT_THAT(check.stdout_data, Not(HasSubstr("not covered: shop.Counter$Step")));

  // A bug in the member class's method.
  dir.Write("src/main/java/shop/Counter.java",
            absl::StrReplaceAll(counter, {{"return 2 * x;", "return x > 5 ? 2 * x + 1 : 2 * x;"}}));
  Javac(dir.path(), "src/main/java", "target/classes", "");
  SubprocessResult broken = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(broken.exit_code, 10) << broken.stdout_data << broken.stderr_data;
  EXPECT_THAT(broken.stdout_data, HasSubstr("shop.Counter$Step#twice(I)I: BROKEN"));
}

TEST(RunTest, NoProjectNamesWhatWasLookedFor) {
  testing::TempDir dir;
  SubprocessResult r = testing::RunTracespec({"run", dir.path()});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_THAT(r.stderr_data, HasSubstr("tracespec.textproto"));
  EXPECT_THAT(r.stderr_data, HasSubstr("target/classes"));
  EXPECT_THAT(r.stderr_data, HasSubstr("build/classes/java/main"));
  EXPECT_FALSE(FileExists(dir.path() + "/tracespec-out"));
}

TEST(RunTest, UnknownConfigKeyNamesFileAndLine) {
  testing::TempDir dir;
  dir.Write("tracespec.textproto", "classes: \"target/classes\"\nclasess: \"x\"\n");
  SubprocessResult r = testing::RunTracespec({"run", dir.path()});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_THAT(r.stderr_data, HasSubstr("tracespec.textproto:2"));
  EXPECT_THAT(r.stderr_data, HasSubstr("clasess"));
}

TEST(RunTest, FailingBuildCommandStopsTheRun) {
  testing::TempDir dir;
  dir.Write("tracespec.textproto",
            "build: \"echo compiling; echo 'Foo.java:3: error: oops' >&2; exit 1\"\n"
            "classes: \"target/classes\"\n");
  SubprocessResult r = testing::RunTracespec({"run", dir.path()});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_THAT(r.stderr_data, HasSubstr("build command"));
  EXPECT_THAT(r.stderr_data, HasSubstr("Foo.java:3: error: oops"));
}

// An output directory that is a symbolic link, or that others may write,
// is refused before anything is built or written.
TEST(RunTest, AnOutputDirectoryOthersControlIsRefused) {
  testing::TempDir dir;
  dir.Write("p/tracespec.textproto",
            "build: \"touch built\"\n"
            "classes: \"target/classes\"\n");
  dir.Write("p/target/classes/.keep", "");
  std::string elsewhere = dir.path() + "/elsewhere";
  ASSERT_TRUE(MakeDirs(elsewhere).ok());
  std::string link = dir.path() + "/out";
  ASSERT_EQ(::symlink(elsewhere.c_str(), link.c_str()), 0);
  SubprocessResult r = testing::RunTracespec({"run", dir.path() + "/p", "--out", link});
  EXPECT_EQ(r.exit_code, 4) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr(link + ": refused: it is a symbolic link"));
  EXPECT_TRUE(fs::is_empty(elsewhere));
  EXPECT_FALSE(FileExists(dir.path() + "/p/built"));

  std::string open = dir.path() + "/open";
  ASSERT_TRUE(MakeDirs(open).ok());
  ASSERT_EQ(::chmod(open.c_str(), 0777), 0);
  r = testing::RunTracespec({"run", dir.path() + "/p", "--out", open});
  EXPECT_EQ(r.exit_code, 4) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr("it is writable by others (mode 0777)"));
  EXPECT_TRUE(fs::is_empty(open));
}

// With a remote model, a test that carries a copy of the method under
// inference never reaches it. A "reference model" class declared in the
// test method is compiled from the test file, so observe's bytecode check
// excludes the test: neither its source nor its observations are sent.
// The same copy in a comment has no bytecode: `run` hands the project's own
// sources (src/main/java by default) to the egress gate as the
// implementation, which blocks the request. The same project without the
// copy is sent.
constexpr char kRange[] = R"(package shop;
public class Range {
  public static int clamp(int value, int low, int high) {
    if (low > high) {
      throw new IllegalArgumentException("empty range");
    }
    int result = value;
    if (result < low) {
      result = low;
    }
    if (result > high) {
      result = high;
    }
    return result;
  }
}
)";
// clamp's body with other names: compiled in a local class of the test
// method, or only written in a comment there.
constexpr char kRangeCopy[] = R"(
        if (lo > hi) {
          throw new IllegalArgumentException("empty range");
        }
        int r = v;
        if (r < lo) {
          r = lo;
        }
        if (r > hi) {
          r = hi;
        }
        return r;
)";
constexpr char kRangeTestHead[] = R"(package shop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.api.Test;
class RangeTest {
  @Test void clampsLikeTheReference() {
)";
std::string RangeTestWithCopy() {
  return absl::StrCat(kRangeTestHead, R"(    class Reference {
      int bound(int v, int lo, int hi) {)",
                      kRangeCopy, R"(      }
    }
    Reference model = new Reference();
    for (int v = -2; v <= 11; v += 3) assertEquals(model.bound(v, 0, 9), Range.clamp(v, 0, 9));
  }
}
)");
}
std::string RangeTestWithCopyInAComment() {
  return absl::StrCat(kRangeTestHead, "    /* What clamp does:", kRangeCopy, R"(    */
    int[] want = {0, 1, 4, 7, 9};
    for (int i = 0; i < want.length; i++) assertEquals(want[i], Range.clamp(-2 + 3 * i, 0, 9));
  }
}
)");
}
constexpr char kRangeTestWithoutCopy[] = R"(package shop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.api.Test;
class RangeTest {
  @Test void clampsLikeTheReference() {
    int[] want = {0, 1, 4, 7, 9};
    for (int i = 0; i < want.length; i++) assertEquals(want[i], Range.clamp(-2 + 3 * i, 0, 9));
  }
}
)";

TEST(RunTest, ARemoteModelIsNotSentACopyOfTheProjectsOwnSources) {
  const std::string answer = testing::ContentEntry(
      R"({"contract": "//@ public normal_behavior\n//@   requires low <= high;\n//@   ensures \\result >= low && \\result <= high;\n", "hypotheses": []})");
  enum Case { kLocalClass, kComment, kNoCopy };
  for (Case c : {kLocalClass, kComment, kNoCopy}) {
    SCOPED_TRACE(c == kLocalClass ? "a copy in a local class"
                 : c == kComment  ? "a copy in a comment"
                                  : "no copy");
    testing::FakeLlmServer server(absl::StrCat("{\"responses\":[", answer, ",", answer, ",",
                                               answer, "],\"then\":\"fail\"}"));
    testing::TempDir dir;
    dir.Write("src/main/java/shop/Range.java", kRange);
    dir.Write("src/test/java/shop/RangeTest.java", c == kLocalClass ? RangeTestWithCopy()
                                                   : c == kComment  ? RangeTestWithCopyInAComment()
                                                                    : kRangeTestWithoutCopy);
    CompileMavenLayout(dir.path());
    // No `sources`: src/main/java is the default.
    dir.Write("tracespec.textproto",
              absl::StrCat("classes: \"target/classes\"\ntest_classes: \"target/test-classes\"\n"
                           "tests_src: \"src/test/java\"\nmethods: \"shop.Range#clamp\"\n"
                           "model { endpoint { url: \"", server.base_url(),
                           "\" model: \"fake-model\" egress_policy: \"", testing::SourceDir(),
                           "/policies/egress.textproto\" } }\n"));
    SubprocessResult r = testing::RunTracespec({"run", dir.path()});
    std::string received = server.RecordText();
    std::string audit = ReadFile(dir.path() + "/tracespec-out/infer/audit.jsonl").value_or("");
    std::string observed =
        ReadFile(dir.path() + "/tracespec-out/observations/summary.json").value_or("");
    // The run goes on either way.
    ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
    EXPECT_FALSE(absl::StrContains(received, "empty range")) << "the copy reached the server";
    if (c == kLocalClass) {
      // Excluded by observe: the request carries neither the test nor its
      // observations, so the gate has nothing to block.
      EXPECT_THAT(observed, HasSubstr("\"excluded_reason\": \"shop.RangeTest$1Reference#bound, in "
                                      "its test file: its bytecode copies the body of "
                                      "shop.Range#clamp(III)I ("));
      ASSERT_GE(server.Received().size(), 1u) << r.stdout_data << r.stderr_data;
      EXPECT_FALSE(absl::StrContains(received, "clampsLikeTheReference"));
      EXPECT_FALSE(absl::StrContains(received, "value=-2"));
      EXPECT_FALSE(absl::StrContains(audit, "implementation-source"));
    } else if (c == kComment) {
      // The method stops, naming the rule and the source.
      EXPECT_THAT(observed, HasSubstr("\"tests_excluded\": \"0\""));
      EXPECT_EQ(server.Received().size(), 0u) << r.stdout_data;
      EXPECT_THAT(r.stdout_data,
                  HasSubstr("shop.Range#clamp(III)I: Stopped (rounds: none): round 1: blocked by "
                            "the egress gate: egress to "));
      EXPECT_THAT(r.stdout_data, HasSubstr("blocked by rule implementation-source at "));
      EXPECT_THAT(r.stdout_data, HasSubstr("tokens match " + dir.path() +
                                           "/src/main/java/shop/Range.java"));
      EXPECT_TRUE(absl::StrContains(audit, "\"rule\":\"implementation-source\""))
          << "no audit record of the blocked request";
    } else {
      EXPECT_THAT(observed, HasSubstr("\"tests_excluded\": \"0\""));
      ASSERT_GE(server.Received().size(), 1u) << r.stdout_data << r.stderr_data;
      EXPECT_THAT(received, HasSubstr("Range.clamp(-2 + 3 * i, 0, 9)"));
      EXPECT_THAT(received, HasSubstr("clampsLikeTheReference"));
      EXPECT_THAT(received, HasSubstr("value=-2"));
      EXPECT_FALSE(absl::StrContains(audit, "implementation-source"));
    }
  }
}

TEST(RunTest, CheckWithoutARunSaysSo) {
  testing::TempDir dir;
  dir.Write("target/classes/.keep", "");
  SubprocessResult r = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_THAT(r.stderr_data, HasSubstr("run `tracespec run` first"));

  // --json: one document saying why, not an empty output.
  SubprocessResult json = testing::RunTracespec({"check", dir.path(), "--json"});
  EXPECT_EQ(json.exit_code, 3);
  v1::CheckSummary summary;
  ASSERT_TRUE(FromJson(json.stdout_data, &summary).ok()) << json.stdout_data;
  EXPECT_THAT(summary.refused(), HasSubstr("run `tracespec run` first"));
  EXPECT_EQ(summary.contracts_size(), 0);
  EXPECT_THAT(json.stderr_data, HasSubstr("run `tracespec run` first"));
}

// A run killed outright (SIGKILL: no handler runs, as on out of memory or
// a crash) while it observes again: it cannot record how it ended, but it
// recorded that it started, so check refuses the previous run's contracts,
// naming the unfinished run and its process; the next run clears it.
TEST(RunTest, CheckRefusesAfterARunKilledOutright) {
  testing::TempDir dir;
  std::string project = CompiledMavenShop(dir);
  const std::string out = project + "/tracespec-out";
  SubprocessResult first = testing::RunTracespec({"run", project});
  ASSERT_EQ(first.exit_code, 0) << first.stdout_data << first.stderr_data;
  SubprocessResult holds = testing::RunTracespec({"check", project});
  ASSERT_EQ(holds.exit_code, 0) << holds.stdout_data << holds.stderr_data;

  // A reached class changes, so the next run observes again; it is killed
  // once it has started the tests.
  AddToClass(project, "shop/Cart.java", "  static final String NOTE = \"changed\";\n");
  std::string script =
      "\"$0\" run \"$1\" 2>\"$2/err.txt\" >\"$2/out.txt\" &\n"
      "pid=$!\n"
      "while ! grep -q 'observe: running' \"$2/err.txt\" 2>/dev/null; do\n"
      "  kill -0 $pid 2>/dev/null || break\n"
      "  sleep 0.05\n"
      "done\n"
      "kill -KILL $pid\n"
      "wait $pid\n"
      "echo \"exit=$? pid=$pid\"\n";
  absl::StatusOr<SubprocessResult> r = RunSubprocess(
      {"/bin/sh", "-c", script, testing::TracespecBinary(), project, dir.path()});
  ASSERT_TRUE(r.ok()) << r.status();
  std::string err = ReadFile(dir.path() + "/err.txt").value_or("");
  ASSERT_THAT(r->stdout_data, HasSubstr("exit=137 ")) << r->stdout_data << err;
  std::string pid = r->stdout_data.substr(r->stdout_data.find("pid=") + 4);
  while (!pid.empty() && pid.back() == '\n') pid.pop_back();
  ASSERT_TRUE(FileExists(out + "/failed-run.json"));

  SubprocessResult refused = testing::RunTracespec({"check", project});
  EXPECT_EQ(refused.exit_code, 3) << refused.stdout_data << refused.stderr_data;
  EXPECT_THAT(refused.stderr_data, HasSubstr(out + "/failed-run.json"));
  EXPECT_THAT(refused.stderr_data,
              HasSubstr(absl::StrCat("(process ", pid, ") and did not finish: it is still running, "
                                     "or it was killed (SIGKILL, out of memory, a crash)")));
  EXPECT_THAT(refused.stdout_data, Not(HasSubstr("contracts checked")));

  SubprocessResult rerun = testing::RunTracespec({"run", project});
  ASSERT_EQ(rerun.exit_code, 0) << rerun.stdout_data << rerun.stderr_data;
  EXPECT_FALSE(FileExists(out + "/failed-run.json"));
  SubprocessResult again = testing::RunTracespec({"check", project});
  EXPECT_EQ(again.exit_code, 0) << again.stdout_data << again.stderr_data;
}

// shop.Price in a Maven layout, compiled: twice, half and third, each
// called by a passing test, and unused(), which no test calls.
void WritePriceProject(const testing::TempDir& dir, const std::string& third_body) {
  dir.Write("src/main/java/shop/Price.java",
            absl::StrCat("package shop;\npublic class Price {\n"
                         "  public static int twice(int x) { return 2 * x; }\n"
                         "  public static int half(int x) { return x / 2; }\n"
                         "  public static int third(int x) { ", third_body, " }\n"
                         "  public static int unused(int x) { return x - 1; }\n}\n"));
  dir.Write("src/test/java/shop/PriceTest.java",
            "package shop;\n"
            "import static org.junit.jupiter.api.Assertions.assertEquals;\n"
            "import org.junit.jupiter.api.Test;\n"
            "class PriceTest {\n"
            "  @Test void twiceDoubles() {\n"
            "    for (int x = -3; x <= 3; x++) assertEquals(x + x, Price.twice(x));\n"
            "  }\n"
            "  @Test void halfHalves() {\n"
            "    for (int x = -3; x <= 3; x++) assertEquals(x / 2, Price.half(x));\n"
            "  }\n"
            "  @Test void thirdOfNine() {\n"
            "    for (int x = 0; x <= 12; x += 3) assertEquals(x / 3, Price.third(x));\n"
            "  }\n"
            "}\n");
  CompileMavenLayout(dir.path());
}

// `tracespec check PROJECT --json ARGS...`, expected to exit with
// `exit_code`: its summary.
v1::CheckSummary CheckJson(const std::string& project, int exit_code,
                           std::vector<std::string> args = {}) {
  args.insert(args.begin(), {"check", project, "--json"});
  SubprocessResult r = testing::RunTracespec(args);
  EXPECT_EQ(r.exit_code, exit_code) << r.stdout_data << r.stderr_data;
  v1::CheckSummary summary;
  EXPECT_TRUE(FromJson(r.stdout_data, &summary).ok()) << r.stdout_data;
  return summary;
}

// A bug the tests catch, then `tracespec run` on the buggy code: the run
// says loudly which tests failed and which method lost its contract (only
// the failing test called it), and check does not turn green on what is
// left: it refuses, naming the failing test.
TEST(RunTest, ARunWithFailingTestsNamesTheLostContractsAndCheckRefusesIt) {
  testing::TempDir dir;
  WritePriceProject(dir, "return x / 3;");
  const std::string out = dir.path() + "/tracespec-out";
  SubprocessResult good = testing::RunTracespec({"run", dir.path()});
  ASSERT_EQ(good.exit_code, 0) << good.stdout_data << good.stderr_data;
  EXPECT_THAT(good.stdout_data, Not(HasSubstr("WARNING")));
  v1::RunSummary good_summary = ReadRunJson(out);
  bool third_had_contract = false;
  for (const v1::MethodRun& m : good_summary.methods()) {
    if (m.method() == "shop.Price#third(I)I") third_had_contract = !m.spec_file().empty();
  }
  ASSERT_TRUE(third_had_contract) << good.stdout_data;
  EXPECT_TRUE(good_summary.contracts_lost().empty());

  WritePriceProject(dir, "return x / 3 + 1;");
  SubprocessResult caught = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(caught.exit_code, 10) << caught.stdout_data << caught.stderr_data;
  EXPECT_THAT(caught.stdout_data, HasSubstr("shop.Price#third(I)I: BROKEN"));

  const std::string failed = "shop.PriceTest#thirdOfNine: AssertionFailedError";
  SubprocessResult buggy = testing::RunTracespec({"run", dir.path()});
  ASSERT_EQ(buggy.exit_code, 0) << buggy.stdout_data << buggy.stderr_data;
  EXPECT_THAT(buggy.stdout_data,
              HasSubstr(absl::StrCat("WARNING: 1 test failed:\n  ", failed,
                                     "\nthe contracts above were inferred from code the project's "
                                     "own tests reject; `tracespec check` refuses them until the "
                                     "tests pass\n")));
  EXPECT_THAT(buggy.stdout_data,
              HasSubstr(absl::StrCat("WARNING: 1 method had a contract in the previous run and "
                                     "has none now (gone from ", dir.path(),
                                     "/tracespec-out/specs):\n  shop.Price#third(I)I: not observed "
                                     "(only failing tests called it (shop.PriceTest#thirdOfNine)")));
  v1::RunSummary buggy_summary = ReadRunJson(out);
  EXPECT_THAT(buggy_summary.contracts_lost(), ::testing::ElementsAre("shop.Price#third(I)I"));
  EXPECT_THAT(buggy_summary.failed_tests(), ::testing::ElementsAre(failed));

  SubprocessResult refused = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(refused.exit_code, 3) << refused.stdout_data << refused.stderr_data;
  EXPECT_THAT(refused.stderr_data,
              HasSubstr(absl::StrCat("recorded 1 failing test:\n  ", failed, "\n")));
  EXPECT_THAT(refused.stderr_data, HasSubstr("inferred from code the project's own tests reject"));
  EXPECT_THAT(refused.stdout_data, Not(HasSubstr("contracts checked")));

  // Fixed: the run has no warning, and check passes again.
  WritePriceProject(dir, "return x / 3;");
  SubprocessResult fixed = testing::RunTracespec({"run", dir.path()});
  ASSERT_EQ(fixed.exit_code, 0) << fixed.stdout_data << fixed.stderr_data;
  EXPECT_THAT(fixed.stdout_data, Not(HasSubstr("WARNING")));
  SubprocessResult holds = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(holds.exit_code, 0) << holds.stdout_data << holds.stderr_data;
}

// A stored contract that does not parse is one broken method named with
// the parser's message (file, line, construct), not a stop: the file's
// other contracts are still checked, and --json carries it. A .jml file
// that does not parse at all makes each of its contracts broken, and says
// so once.
TEST(RunTest, AContractThatDoesNotParseIsBrokenAndTheOthersAreChecked) {
  testing::TempDir dir;
  WritePriceProject(dir, "return x / 3;");
  SubprocessResult run = testing::RunTracespec({"run", dir.path()});
  ASSERT_EQ(run.exit_code, 0) << run.stdout_data << run.stderr_data;
  int with_contract = 0;
  const v1::RunSummary first = ReadRunJson(dir.path() + "/tracespec-out");
  for (const v1::MethodRun& m : first.methods()) {
    with_contract += m.spec_file() == "specs/shop/Price.jml" ? 1 : 0;
  }
  ASSERT_EQ(with_contract, 3) << run.stdout_data;
  const std::string file = dir.path() + "/tracespec-out/specs/shop/Price.jml";
  const std::string stored = *ReadFile(file);

  // third's last `ensures`, misspelt.
  size_t decl = stored.find("int third(int x);");
  ASSERT_NE(decl, std::string::npos) << stored;
  size_t clause = stored.rfind("ensures ", decl);
  ASSERT_NE(clause, std::string::npos) << stored;
  ASSERT_EQ(stored.find(");", clause), decl + 15) << "not third's clause:\n" << stored;
  const int line = 1 + static_cast<int>(std::count(stored.begin(), stored.begin() + clause, '\n'));
  ASSERT_TRUE(WriteFileAtomic(file, stored.substr(0, clause) + "ensure " +
                                        stored.substr(clause + 8)).ok());
  SubprocessResult misspelt = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(misspelt.exit_code, 10) << misspelt.stdout_data << misspelt.stderr_data;
  EXPECT_THAT(misspelt.stdout_data,
              HasSubstr(absl::StrCat("shop.Price#third(I)I: BROKEN — the contract does not parse: ",
                                     file, ":", line, ":")));
  EXPECT_THAT(misspelt.stdout_data,
              HasSubstr("unknown clause keyword 'ensure' (did you mean 'ensures'?)\n"));
  EXPECT_THAT(misspelt.stdout_data, HasSubstr("shop.Price#twice(I)I: holds"));
  EXPECT_THAT(misspelt.stdout_data, HasSubstr("shop.Price#half(I)I: holds"));
  EXPECT_THAT(misspelt.stdout_data, HasSubstr("edited since the run: shop.Price#third(I)I"));
  EXPECT_THAT(misspelt.stdout_data, HasSubstr("2 hold, 1 broken (1 not parsed), 0 undecided"));
  // The contract that does not parse was not checked.
  EXPECT_THAT(misspelt.stdout_data,
              HasSubstr("\n2 contracts checked, 1 not parsed, against the class files"));
  v1::CheckSummary summary = CheckJson(dir.path(), 10);
  EXPECT_EQ(summary.checked(), 2);
  EXPECT_EQ(summary.holds(), 2);
  EXPECT_EQ(summary.broken(), 1);
  EXPECT_EQ(summary.not_parsed(), 1);
  ASSERT_EQ(summary.contracts_size(), 3);
  for (const v1::CheckedContract& c : summary.contracts()) {
    EXPECT_FALSE(c.whole_file()) << c.method();
    if (c.method() != "shop.Price#third(I)I") {
      EXPECT_EQ(c.parse_error(), "") << c.method();
      continue;
    }
    EXPECT_EQ(c.verdict(), "BROKEN");
    EXPECT_EQ(c.line(), line);
    EXPECT_THAT(c.parse_error(), HasSubstr("did you mean 'ensures'?"));
    EXPECT_THAT(c.parse_error(), ::testing::StartsWith(absl::StrCat(file, ":", line, ":")));
  }

  // The class's closing brace gone: nothing in the file can be read.
  ASSERT_TRUE(WriteFileAtomic(file, stored.substr(0, stored.rfind('}'))).ok());
  SubprocessResult unclosed = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(unclosed.exit_code, 10) << unclosed.stdout_data << unclosed.stderr_data;
  EXPECT_THAT(unclosed.stdout_data,
              HasSubstr(absl::StrCat("specs/shop/Price.jml does not parse, so none of its 3 "
                                     "contracts is checked (each counts as broken), nor any "
                                     "object invariant it states: ",
                                     file, ":")));
  const std::string message = "is never closed";
  size_t said = unclosed.stdout_data.find(message);
  ASSERT_NE(said, std::string::npos) << unclosed.stdout_data;
  EXPECT_EQ(unclosed.stdout_data.find(message, said + 1), std::string::npos)
      << "said more than once:\n" << unclosed.stdout_data;
  for (const char* method : {"shop.Price#twice(I)I", "shop.Price#half(I)I", "shop.Price#third(I)I"}) {
    EXPECT_THAT(unclosed.stdout_data,
                HasSubstr(absl::StrCat(method, ": BROKEN — not checked: its file "
                                       "specs/shop/Price.jml does not parse (above)\n")));
  }
  EXPECT_THAT(unclosed.stdout_data, HasSubstr("0 hold, 3 broken (3 not parsed), 0 undecided"));
  EXPECT_THAT(unclosed.stdout_data,
              HasSubstr("\n0 contracts checked, 3 not parsed, against the class files"));
  summary = CheckJson(dir.path(), 10);
  EXPECT_EQ(summary.checked(), 0);
  EXPECT_EQ(summary.not_parsed(), 3);
  for (const v1::CheckedContract& c : summary.contracts()) {
    EXPECT_TRUE(c.whole_file()) << c.method();
    EXPECT_THAT(c.parse_error(), HasSubstr(message)) << c.method();
  }

  // Restored: everything holds again.
  ASSERT_TRUE(WriteFileAtomic(file, stored).ok());
  SubprocessResult restored = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(restored.exit_code, 0) << restored.stdout_data << restored.stderr_data;
}

// A bug the tests let pass can still lose a contract: third rewritten
// through a library call the validator does not model keeps its tests
// green, but its contract can no longer be proved, so the run loses it.
// That run is no baseline: check lists the method with the run's line for
// it and exits 3 after checking the rest, in the text and --json, until
// the code is fixed and run again; --accept-lost makes it a note.
TEST(RunTest, CheckRefusesARunThatLostAContractUnlessAccepted) {
  testing::TempDir dir;
  WritePriceProject(dir, "return x / 3;");
  const std::string out = dir.path() + "/tracespec-out";
  SubprocessResult good = testing::RunTracespec({"run", dir.path()});
  ASSERT_EQ(good.exit_code, 0) << good.stdout_data << good.stderr_data;

  WritePriceProject(dir, "return java.util.Collections.nCopies(x / 3, \"\").size();");
  SubprocessResult lossy = testing::RunTracespec({"run", dir.path()});
  ASSERT_EQ(lossy.exit_code, 0) << lossy.stdout_data << lossy.stderr_data;
  v1::RunSummary lossy_summary = ReadRunJson(out);
  EXPECT_TRUE(lossy_summary.failed_tests().empty()) << lossy.stdout_data;
  ASSERT_THAT(lossy_summary.contracts_lost(), ::testing::ElementsAre("shop.Price#third(I)I"))
      << lossy.stdout_data;
  EXPECT_THAT(lossy.stdout_data,
              HasSubstr("`tracespec check` exits 3 on this run: fix the code and run `tracespec "
                        "run` again, or accept the loss with `tracespec run --accept-lost` "
                        "(`tracespec check --accept-lost` accepts it for one check only)\n"));
  // The run's own line for the method, "shop.Price#third(I)I: ...".
  size_t at = lossy.stdout_data.find("shop.Price#third(I)I: ");
  ASSERT_NE(at, std::string::npos);
  const std::string run_line = lossy.stdout_data.substr(
      at + 22, lossy.stdout_data.find('\n', at) - at - 22);

  SubprocessResult refused = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(refused.exit_code, 3) << refused.stdout_data << refused.stderr_data;
  EXPECT_THAT(refused.stdout_data, HasSubstr("shop.Price#twice(I)I: holds"));
  EXPECT_THAT(refused.stdout_data,
              HasSubstr(absl::StrCat("lost since the previous run: shop.Price#third(I)I: ",
                                     run_line, "\n")));
  EXPECT_THAT(refused.stdout_data,
              HasSubstr("; 1 contract lost since the previous run (the last run is no baseline "
                        "to vouch for: fix the code and run `tracespec run` again, or accept the "
                        "loss with `tracespec run --accept-lost`, or for this check only with "
                        "--accept-lost)\n"));
  v1::CheckSummary summary = CheckJson(dir.path(), 3);
  ASSERT_EQ(summary.lost_size(), 1);
  EXPECT_EQ(summary.lost(0).method(), "shop.Price#third(I)I");
  EXPECT_EQ(summary.lost(0).reason(), run_line);
  EXPECT_FALSE(summary.lost_accepted());

  SubprocessResult accepted = testing::RunTracespec({"check", dir.path(), "--accept-lost"});
  EXPECT_EQ(accepted.exit_code, 0) << accepted.stdout_data << accepted.stderr_data;
  EXPECT_THAT(accepted.stdout_data, HasSubstr("lost since the previous run: shop.Price#third(I)I"));
  EXPECT_THAT(accepted.stdout_data,
              HasSubstr("; 1 contract lost since the previous run (accepted for this check: "
                        "--accept-lost; the next run still lists the loss unless it runs with "
                        "--accept-lost)\n"));
  EXPECT_TRUE(CheckJson(dir.path(), 0, {"--accept-lost"}).lost_accepted());

  // Fixed and run again: nothing lost, check passes.
  WritePriceProject(dir, "return x / 3;");
  SubprocessResult fixed = testing::RunTracespec({"run", dir.path()});
  ASSERT_EQ(fixed.exit_code, 0) << fixed.stdout_data << fixed.stderr_data;
  EXPECT_TRUE(ReadRunJson(out).contracts_lost().empty());
  SubprocessResult holds = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(holds.exit_code, 0) << holds.stdout_data << holds.stderr_data;
  EXPECT_THAT(holds.stdout_data, Not(HasSubstr("lost since the previous run")));
}

// A loss is sticky: running again on the same code lists it again (carried
// from the earlier run), and check still exits 3, until the method has a
// contract again or `tracespec run --accept-lost` accepts the loss, after
// which no run lists it.
TEST(RunTest, ALostContractStaysLostUntilRegainedOrAcceptedByARun) {
  testing::TempDir dir;
  WritePriceProject(dir, "return x / 3;");
  const std::string out = dir.path() + "/tracespec-out";
  const std::string third = "shop.Price#third(I)I";
  const std::string lossy_code = "return java.util.Collections.nCopies(x / 3, \"\").size();";
  auto run = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"run", dir.path()});
    SubprocessResult r = testing::RunTracespec(args);
    EXPECT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
    return r;
  };
  run({});
  WritePriceProject(dir, lossy_code);
  run({});
  ASSERT_THAT(ReadRunJson(out).contracts_lost(), ::testing::ElementsAre(third));

  // Run again, nothing changed: the loss is carried, not accepted.
  SubprocessResult again = run({});
  v1::RunSummary carried = ReadRunJson(out);
  EXPECT_THAT(carried.contracts_lost(), ::testing::ElementsAre(third)) << again.stdout_data;
  EXPECT_THAT(carried.contracts_lost_carried(), ::testing::ElementsAre(third));
  EXPECT_THAT(again.stdout_data,
              HasSubstr(absl::StrCat("WARNING: 1 method lost its contract in an earlier run and "
                                     "still has none (gone from ", out, "/specs; a loss is carried "
                                     "from run to run until the method has a contract again or a "
                                     "run accepts it):\n  ", third, ": ")));
  EXPECT_THAT(again.stdout_data, Not(HasSubstr("had a contract in the previous run")));
  SubprocessResult refused = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(refused.exit_code, 3) << refused.stdout_data << refused.stderr_data;
  EXPECT_THAT(refused.stdout_data,
              HasSubstr(absl::StrCat("lost in an earlier run and not regained: ", third, ": ")));
  EXPECT_THAT(refused.stdout_data,
              HasSubstr("; 1 contract lost in an earlier run and not regained (the last run is "
                        "no baseline to vouch for"));
  v1::CheckSummary summary = CheckJson(dir.path(), 3);
  ASSERT_EQ(summary.lost_size(), 1);
  EXPECT_EQ(summary.lost(0).method(), third);
  EXPECT_TRUE(summary.lost(0).carried());

  // Regained: the method has a contract again, nothing is lost.
  WritePriceProject(dir, "return x / 3;");
  run({});
  EXPECT_TRUE(ReadRunJson(out).contracts_lost().empty());

  // Lost again, then accepted by a run: recorded as accepted, not lost,
  // check passes, and the next run does not list it any more.
  WritePriceProject(dir, lossy_code);
  run({});
  ASSERT_THAT(ReadRunJson(out).contracts_lost(), ::testing::ElementsAre(third));
  SubprocessResult accepting = run({"--accept-lost"});
  v1::RunSummary accepted = ReadRunJson(out);
  EXPECT_TRUE(accepted.contracts_lost().empty()) << accepting.stdout_data;
  EXPECT_THAT(accepted.contracts_lost_accepted(), ::testing::ElementsAre(third));
  EXPECT_THAT(accepting.stdout_data, Not(HasSubstr("WARNING")));
  EXPECT_THAT(accepting.stdout_data,
              HasSubstr(absl::StrCat("accepted (--accept-lost): 1 method without the contract an "
                                     "earlier run had (gone from ", out, "/specs), no longer "
                                     "carried to the next run:\n  ", third, ": ")));
  SubprocessResult passes = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(passes.exit_code, 0) << passes.stdout_data << passes.stderr_data;
  EXPECT_THAT(passes.stdout_data, Not(HasSubstr("lost since")));
  EXPECT_THAT(passes.stdout_data, Not(HasSubstr("lost in an earlier run")));
  SubprocessResult after = run({});
  v1::RunSummary later = ReadRunJson(out);
  EXPECT_TRUE(later.contracts_lost().empty()) << after.stdout_data;
  EXPECT_TRUE(later.contracts_lost_accepted().empty());
  EXPECT_THAT(after.stdout_data, Not(HasSubstr("WARNING")));
}

// check lists the target methods it checks no contract of: one the run
// covered without a contract (no test calls it) passes with a note; one
// added since the run makes check exit 3 (after checking) until a run
// covers it. In the text, its last line and --json.
TEST(RunTest, CheckListsTargetMethodsItDoesNotCover) {
  testing::TempDir dir;
  WritePriceProject(dir, "return x / 3;");
  SubprocessResult run = testing::RunTracespec({"run", dir.path()});
  ASSERT_EQ(run.exit_code, 0) << run.stdout_data << run.stderr_data;
  SubprocessResult covered = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(covered.exit_code, 0) << covered.stdout_data << covered.stderr_data;
  EXPECT_THAT(covered.stdout_data,
              HasSubstr("not covered: shop.Price#unused(I)I: no contract: not observed (no test "
                        "called it)\n"));
  EXPECT_THAT(covered.stdout_data, HasSubstr("; 0 edited since the run; 1 target method not covered\n"));

  // A public method added to a target class.
  AddToClass(dir.path(), "shop/Price.java", "  public static int quad(int x) { return 4 * x; }\n");
  SubprocessResult added = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(added.exit_code, 3) << added.stdout_data << added.stderr_data;
  EXPECT_THAT(added.stdout_data, HasSubstr("shop.Price#twice(I)I: holds"));
  EXPECT_THAT(added.stdout_data,
              HasSubstr(absl::StrCat("not covered: shop.Price#quad(I)I: added since the run (",
                                     dir.path(), "/tracespec-out/run.json has no entry for it): run "
                                     "`tracespec run` to cover it\n")));
  EXPECT_THAT(added.stdout_data,
              HasSubstr("; 2 target methods not covered (1 added since the run: run `tracespec "
                        "run` to cover it)\n"));
  v1::CheckSummary summary = CheckJson(dir.path(), 3);
  EXPECT_EQ(summary.added_since_run(), 1);
  ASSERT_EQ(summary.not_covered_size(), 2);
  EXPECT_EQ(summary.not_covered(0).method(), "shop.Price#unused(I)I");
  EXPECT_FALSE(summary.not_covered(0).added_since_run());
  EXPECT_EQ(summary.not_covered(0).reason(), "not observed (no test called it)");
  EXPECT_EQ(summary.not_covered(1).method(), "shop.Price#quad(I)I");
  EXPECT_TRUE(summary.not_covered(1).added_since_run());

  // Covered by a run (no test calls it either): listed, not refused.
  SubprocessResult rerun = testing::RunTracespec({"run", dir.path()});
  ASSERT_EQ(rerun.exit_code, 0) << rerun.stdout_data << rerun.stderr_data;
  SubprocessResult after = testing::RunTracespec({"check", dir.path()});
  EXPECT_EQ(after.exit_code, 0) << after.stdout_data << after.stderr_data;
  EXPECT_THAT(after.stdout_data,
              HasSubstr("not covered: shop.Price#quad(I)I: no contract: not observed"));
  EXPECT_THAT(after.stdout_data, HasSubstr("; 2 target methods not covered\n"));
}

}  // namespace
}  // namespace tracespec

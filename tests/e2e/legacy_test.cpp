// End-to-end tests of legacy capture on examples/legacy: `tracespec observe
// -- COMMAND` with the real javac, jar, JVM and probe, no tests anywhere.
// Each test works on its own copy of the example, built with the build
// command of its tracespec.textproto.
#include <filesystem>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"
#include "tracespec/v1/project.pb.h"
#include "tracespec/v1/summary.pb.h"

namespace tracespec {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

struct Observed {
  SubprocessResult run;
  std::vector<v1::Observation> observations;
  v1::ObserveSummary summary;
  std::string Output() const { return run.stdout_data + run.stderr_data; }
};

class LegacyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    project_ = dir_.path() + "/legacy";
    fs::copy(testing::SourceDir() + "/examples/legacy", project_, fs::copy_options::recursive);
    fs::remove_all(project_ + "/target");
    v1::ProjectConfig config;
    auto text = ReadFile(project_ + "/tracespec.textproto");
    ASSERT_TRUE(text.ok());
    ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(*text, &config));
    SubprocessOptions in_project;
    in_project.cwd = project_;
    auto built = RunSubprocess({"sh", "-c", config.build()}, in_project);
    ASSERT_TRUE(built.ok() && built->Succeeded()) << built->stderr_data;
    jar_ = project_ + "/target/legacy.jar";
    ASSERT_TRUE(FileExists(jar_));
  }

  std::string Workload(const std::string& name, const std::string& text) {
    return dir_.Write(name, text);
  }

  // `tracespec observe --method M... --out OUT EXTRA... -- COMMAND...`.
  Observed Observe(const std::vector<std::string>& methods, const std::vector<std::string>& command,
                   const std::vector<std::string>& extra = {}) {
    Observed o;
    out_ = dir_.path() + "/obs";
    std::vector<std::string> args = {"observe", "--out", out_};
    for (const std::string& m : methods) args.insert(args.end(), {"--method", m});
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back("--");
    args.insert(args.end(), command.begin(), command.end());
    SubprocessOptions options;
    options.cwd = project_;
    o.run = testing::RunTracespec(args, options);
    if (FileExists(out_ + "/observations.pb")) {
      auto read = ReadObservations(out_ + "/observations.pb");
      EXPECT_TRUE(read.ok()) << read.status();
      if (read.ok()) o.observations = *read;
    }
    auto summary = ReadFile(out_ + "/summary.json");
    if (summary.ok()) {
      EXPECT_TRUE(FromJson(*summary, &o.summary).ok());
    }
    return o;
  }

  int Count(const Observed& o, const std::string& method) {
    int n = 0;
    for (const v1::Observation& obs : o.observations) n += obs.method().name() == method;
    return n;
  }

  testing::TempDir dir_;
  std::string project_;
  std::string jar_;
  std::string out_;
};

const std::vector<std::string> kTargets = {"legacy.pricing.PriceCalculator#quote",
                                           "legacy.pricing.PriceCalculator#total",
                                           "legacy.pricing.Cart#add"};

TEST_F(LegacyTest, JavaCommandGetsTheAgentpath) {
  Observed o = Observe(kTargets, {"java", "-jar", jar_, "workload/day1.txt"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  EXPECT_THAT(o.run.stderr_data, HasSubstr("injected with -agentpath (the command runs java)"));
  EXPECT_THAT(o.run.stdout_data, HasSubstr("command: java (probe injected with -agentpath): "
                                           "exit code 0"));
  // day1.txt: 8 quote requests (with "abc" the parser fails before quote
  // is called), 4 totals, 6 adds (one refused).
  EXPECT_EQ(Count(o, "quote"), 7) << o.Output();
  EXPECT_EQ(Count(o, "total"), 4);
  EXPECT_EQ(Count(o, "add"), 6);
  for (const v1::Observation& obs : o.observations) {
    EXPECT_EQ(obs.test_id(), "");
    EXPECT_EQ(obs.entry_point(), "legacy.Main#main");
    EXPECT_EQ(obs.thread(), "main");
  }
  EXPECT_TRUE(o.summary.complete());
  EXPECT_EQ(o.summary.injection(), "-agentpath");
  ASSERT_EQ(o.summary.entry_points_size(), 1);
  EXPECT_EQ(o.summary.entry_points(0).entry_point(), "legacy.Main#main");
  EXPECT_EQ(o.summary.entry_points(0).observations(), 17);
  EXPECT_THAT(o.run.stdout_data, HasSubstr("  main from legacy.Main#main: 17"));
  EXPECT_THAT(o.run.stdout_data, Not(HasSubstr("tests:")));
  // The program's own output went to jvm.log.
  EXPECT_THAT(ReadFile(out_ + "/jvm.log").value_or(""), HasSubstr("quote 12 3 -> 36"));
  // A refused quantity is recorded as the exception it was.
  int thrown = 0;
  for (const v1::Observation& obs : o.observations) {
    if (obs.method().name() == "quote" && obs.outcome().has_thrown()) {
      EXPECT_EQ(obs.outcome().thrown().class_name(), "java.lang.IllegalArgumentException");
      ++thrown;
    }
  }
  EXPECT_EQ(thrown, 2);
}

TEST_F(LegacyTest, LauncherScriptGetsJavaToolOptions) {
  Observed o = Observe(kTargets, {"bin/legacy-pricing", "workload/day1.txt"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  EXPECT_THAT(o.run.stderr_data, HasSubstr("injected with JAVA_TOOL_OPTIONS (the command is not "
                                           "java; it must start java)"));
  EXPECT_EQ(o.summary.injection(), "JAVA_TOOL_OPTIONS");
  EXPECT_EQ(o.summary.command_program(), "bin/legacy-pricing");
  EXPECT_EQ(o.observations.size(), 17u) << o.Output();
  EXPECT_TRUE(o.summary.complete());
}

TEST_F(LegacyTest, ThePolicyAppliesAsForTests) {
  // A policy denying the cart's total: never recorded, reported withheld.
  // (An int is withheld by an exact name; a pattern such as "*total*"
  // withholds only values that can hold a secret.)
  std::string policy = dir_.Write(
      "policy.textproto",
      "format_version: FORMAT_VERSION_1\nrecord { class_pattern: \"*\" }\ndeny: \"total\"\n");
  Observed o = Observe({"legacy.pricing.Cart#add"}, {"java", "-jar", jar_, "workload/day1.txt"},
                       {"--policy", policy});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  ASSERT_FALSE(o.observations.empty());
  for (const v1::Observation& obs : o.observations) {
    for (const v1::ObjectState& s : obs.post()) {
      for (const v1::Field& f : s.fields()) {
        if (f.name() == "total") {
          EXPECT_TRUE(f.value().has_redacted());
        }
      }
    }
  }
  EXPECT_THAT(o.run.stdout_data, HasSubstr("legacy.pricing.Cart.total: "));
}

TEST_F(LegacyTest, NonZeroExitKeepsTheObservations) {
  Workload("stop.txt", "quote 2 3\ncart 4\nexit 3\nquote 5 5\n");
  Observed o = Observe(kTargets, {"java", "-jar", jar_, dir_.path() + "/stop.txt"});
  EXPECT_EQ(o.run.exit_code, 0) << o.Output();
  EXPECT_THAT(o.run.stdout_data, HasSubstr("exit code 3"));
  EXPECT_EQ(o.summary.jvm_result(), "exit code 3");
  EXPECT_EQ(Count(o, "quote"), 1);
  EXPECT_EQ(Count(o, "add"), 1);
  EXPECT_TRUE(o.summary.complete());
}

TEST_F(LegacyTest, ACommandThatIsNoJvmIsBadInput) {
  Observed o = Observe(kTargets, {"sh", "-c", "echo hello"});
  EXPECT_EQ(o.run.exit_code, 3) << o.Output();
  EXPECT_THAT(o.run.stderr_data, HasSubstr("the command sh started no JVM"));
  EXPECT_FALSE(FileExists(out_ + "/observations.pb"));

  o = Observe(kTargets, {"no-such-program-here"});
  EXPECT_EQ(o.run.exit_code, 3) << o.Output();
  EXPECT_THAT(o.run.stderr_data, HasSubstr("no-such-program-here: program not found"));
}

TEST_F(LegacyTest, TargetsNeverLoadedListWhatWasLoaded) {
  Observed o = Observe({"com.acme.Pricing#quote"}, {"java", "-jar", jar_, "workload/day1.txt"});
  EXPECT_EQ(o.run.exit_code, 3) << o.Output();
  EXPECT_THAT(o.run.stderr_data,
              HasSubstr("the command java never loaded com.acme.Pricing; it loaded classes of: "
                        "legacy.pricing (3 classes), legacy (1 class)"));
  EXPECT_FALSE(FileExists(out_ + "/observations.pb"));
}

// A named target whose class is in the jar of `java -jar` is resolved
// before the command starts, as for tests (issue 25); a launcher's class
// path cannot be read, so there the run finds it.
TEST_F(LegacyTest, AMisspeltMethodOfAClassInTheJarStartsNoCommand) {
  Observed o = Observe({"legacy.pricing.PriceCalculator#quotes"},
                       {"java", "-jar", jar_, "workload/day1.txt"});
  EXPECT_EQ(o.run.exit_code, 3) << o.Output();
  EXPECT_THAT(o.run.stderr_data,
              HasSubstr("--method legacy.pricing.PriceCalculator#quotes: no method quotes in "
                        "legacy.pricing.PriceCalculator (did you mean 'quote'?; it has: "));
  EXPECT_THAT(o.run.stderr_data, Not(HasSubstr("under the probe")));
  EXPECT_FALSE(FileExists(out_));

  o = Observe({"legacy.pricing.PriceCalculator#quotes"},
              {"bin/legacy-pricing", "workload/day1.txt"});
  EXPECT_EQ(o.run.exit_code, 3) << o.Output();
  EXPECT_THAT(o.run.stderr_data, HasSubstr("under the probe"));
  EXPECT_THAT(o.run.stderr_data,
              HasSubstr("--method legacy.pricing.PriceCalculator#quotes: no method quotes in "
                        "legacy.pricing.PriceCalculator (it has: "));
}

TEST_F(LegacyTest, TimeoutStopsTheJvmAndKeepsWhatWasRecorded) {
  Workload("slow.txt", "quote 2 3\ntotal 1 1\ncart 4\nsleep 600000\nquote 5 5\n");
  Observed o = Observe(kTargets, {"bin/legacy-pricing", dir_.path() + "/slow.txt"},
                       {"--timeout", "8"});
  EXPECT_EQ(o.run.exit_code, 4) << o.Output();
  EXPECT_FALSE(o.summary.complete());
  EXPECT_THAT(o.summary.incomplete_reason(), HasSubstr("stopped at --timeout"));
  EXPECT_THAT(o.run.stdout_data, HasSubstr("PARTIAL: the run was stopped at --timeout"));
  EXPECT_EQ(Count(o, "quote"), 1) << o.Output();
  EXPECT_EQ(Count(o, "total"), 1);
}

TEST_F(LegacyTest, SigtermStopsTheCommandAndKeepsWhatWasRecorded) {
  Workload("slow.txt", "quote 2 3\ncart 1 2\nsleep 600000\n");
  out_ = dir_.path() + "/obs";
  // tracespec in the background; SIGTERM once the program says it sleeps.
  std::string script = absl::StrCat(
      "'", testing::TracespecBinary(), "' observe --out '", out_,
      "' --method legacy.pricing.Cart#add --method legacy.pricing.PriceCalculator#quote -- java "
      "-jar '", jar_, "' '", dir_.path(), "/slow.txt' & pid=$!; i=0; "
      "until grep -q sleeping '", out_, "/jvm.log' 2>/dev/null; do sleep 0.2; i=$((i+1)); "
      "[ $i -gt 600 ] && break; done; kill -TERM $pid; wait $pid");
  auto run = RunSubprocess({"sh", "-c", script});
  ASSERT_TRUE(run.ok());
  // Interrupted (130) since edb478d, as the README says; what was recorded
  // is kept, marked partial.
  EXPECT_EQ(run->exit_code, 130) << run->stdout_data << run->stderr_data;
  EXPECT_THAT(run->stdout_data, HasSubstr("PARTIAL: the run was stopped (stopped by signal 15"));
  auto observations = ReadObservations(out_ + "/observations.pb");
  ASSERT_TRUE(observations.ok()) << observations.status();
  EXPECT_EQ(observations->size(), 3u);  // One quote, two adds.
}

TEST_F(LegacyTest, MaxBytesStopsRecording) {
  Observed o = Observe(kTargets, {"java", "-jar", jar_, "workload/day1.txt"},
                       {"--max-bytes", "600"});
  EXPECT_EQ(o.run.exit_code, 0) << o.Output();
  EXPECT_FALSE(o.summary.complete());
  EXPECT_THAT(o.summary.incomplete_reason(), HasSubstr("recording stopped at --max-bytes 600"));
  EXPECT_GT(o.observations.size(), 0u);
  EXPECT_LT(o.observations.size(), 17u);
  EXPECT_LE(fs::file_size(out_ + "/observations.pb"), 600u);
}

TEST_F(LegacyTest, ThePerMethodCapBoundsCommandRunsToo) {
  Observed o = Observe({"legacy.pricing.Cart#add"}, {"java", "-jar", jar_, "workload/day1.txt"},
                       {"--max-observations", "2"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  EXPECT_EQ(o.summary.observations(), 6);  // Recorded...
  EXPECT_LT(o.observations.size(), 6u);    // ...but not all kept.
  EXPECT_GT(o.summary.observations_dropped(), 0);
  EXPECT_EQ(o.summary.max_observations_per_method(), 2);
}

TEST_F(LegacyTest, InferWorksFromCapturedObservationsAlone) {
  Observed o = Observe(kTargets, {"java", "-jar", jar_, "workload/day1.txt"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  std::string infer_out = dir_.path() + "/infer";
  SubprocessResult r = testing::RunTracespec(
      {"infer", "--classpath", jar_, "--observations", out_, "--method",
       "legacy.pricing.PriceCalculator#quote", "--out", infer_out});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("legacy.pricing.PriceCalculator#quote: Success"));
  // The request the built-in synthesizer got says what the evidence is.
  std::string tree = testing::ReadTree(infer_out);
  EXPECT_THAT(tree, HasSubstr("The evidence is captured behaviour, not tests"));
  EXPECT_THAT(tree, HasSubstr("\\result == unitPrice * quantity"));
}

// Runs the JUnit console launcher on the compiled tests in `classes` with
// `jar` (the classes under test) on the class path.
SubprocessResult RunJunit(const std::string& classes, const std::string& jar) {
  auto r = RunSubprocess({"java", "-jar", testing::JunitJar(), "--disable-banner",
                          "--disable-ansi-colors", "--fail-if-no-tests", "--class-path",
                          classes + ":" + jar, "--scan-class-path"});
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : SubprocessResult{};
}

// javac on every .java file under `sources` against `jar` and JUnit, into
// `classes`.
void CompileTests(const std::string& sources, const std::string& classes, const std::string& jar) {
  ASSERT_TRUE(MakeDirs(classes).ok());
  std::vector<std::string> javac = {"javac", "-nowarn", "-d", classes, "-cp",
                                    jar + ":" + testing::JunitJar()};
  for (const auto& entry : fs::recursive_directory_iterator(sources)) {
    if (entry.path().extension() == ".java") javac.push_back(entry.path().string());
  }
  auto r = RunSubprocess(javac);
  ASSERT_TRUE(r.ok() && r->Succeeded()) << (r.ok() ? r->stderr_data : r.status().ToString());
}

TEST_F(LegacyTest, CharacterizationTestsPassOnTheJarAndCatchAPlantedChange) {
  Observed o = Observe(kTargets, {"java", "-jar", jar_, "workload/day1.txt"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  std::vector<std::string> args = {"characterize", "--observations", out_, "--classpath", jar_};
  for (const std::string& m : kTargets) args.insert(args.end(), {"--method", m});
  std::string generated = dir_.path() + "/characterization";
  std::vector<std::string> first = args;
  first.insert(first.end(), {"--out", generated});
  SubprocessResult r = testing::RunTracespec(first);
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("17 recorded calls: 17 tests, 0 calls repeating an earlier "
                                       "test, 0 not rebuilt\n"));
  std::string calculator = generated + "/legacy/pricing/PriceCalculatorCharacterizationTest.java";
  std::string cart = generated + "/legacy/pricing/CartCharacterizationTest.java";
  std::string calculator_text = ReadFile(calculator).value_or("");
  EXPECT_THAT(calculator_text,
              HasSubstr("assertEquals(36, legacy.pricing.PriceCalculator.quote(12, 3));"));
  EXPECT_THAT(calculator_text,
              HasSubstr("Throwable thrown = assertThrows(Throwable.class, () -> "
                        "legacy.pricing.PriceCalculator.quote(7, 0));\n    assertEquals("
                        "\"java.lang.IllegalArgumentException\", thrown.getClass().getName());"));
  EXPECT_THAT(calculator_text, HasSubstr("int[] v1 = new int[] {10, -4, 7, 100};"));
  std::string cart_text = ReadFile(cart).value_or("");
  EXPECT_THAT(cart_text, HasSubstr("Replay.set(v1, \"legacy.pricing.Cart\", \"items\", 1);"));
  EXPECT_THAT(cart_text, HasSubstr("assertEquals((Object) 2, Replay.get(v1, "
                                   "\"legacy.pricing.Cart\", \"items\"));"));
  EXPECT_EQ(ReadFile(generated + "/not-rebuilt.txt").value_or("").find("legacy."),
            std::string::npos);

  // Deterministic: a second run writes the same bytes.
  std::vector<std::string> second = args;
  second.insert(second.end(), {"--out", dir_.path() + "/again"});
  ASSERT_EQ(testing::RunTracespec(second).exit_code, 0);
  EXPECT_EQ(testing::ReadTree(generated), testing::ReadTree(dir_.path() + "/again"));

  // The tests compile against the jar and pass on it.
  std::string classes = dir_.path() + "/characterization-classes";
  CompileTests(generated, classes, jar_);
  SubprocessResult passing = RunJunit(classes, jar_);
  EXPECT_EQ(passing.exit_code, 0) << passing.stdout_data << passing.stderr_data;
  EXPECT_THAT(passing.stdout_data, HasSubstr("17 tests successful"));

  // A planted change in a copy of the sources: bulk orders get one unit
  // added. The same tests, run on the changed classes, catch it.
  std::string changed = dir_.path() + "/changed";
  fs::create_directories(changed);
  fs::copy(project_ + "/src", changed + "/src", fs::copy_options::recursive);
  std::string source = changed + "/src/legacy/pricing/PriceCalculator.java";
  std::string text = ReadFile(source).value_or("");
  size_t at = text.find("return unitPrice * quantity;");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 28, "return unitPrice * quantity + quantity / 10;");
  ASSERT_TRUE(WriteFileAtomic(source, text).ok());
  std::string changed_classes = changed + "/classes";
  ASSERT_TRUE(MakeDirs(changed_classes).ok());
  std::vector<std::string> javac = {"javac", "-nowarn", "-g", "-d", changed_classes};
  for (const auto& entry : fs::recursive_directory_iterator(changed + "/src")) {
    if (entry.path().extension() == ".java") javac.push_back(entry.path().string());
  }
  auto rebuilt = RunSubprocess(javac);
  ASSERT_TRUE(rebuilt.ok() && rebuilt->Succeeded());
  SubprocessResult failing = RunJunit(classes, changed_classes);
  EXPECT_NE(failing.exit_code, 0) << failing.stdout_data;
  EXPECT_THAT(failing.stdout_data, HasSubstr("quote_2()"));  // quote(5, 10) is now 51.
  EXPECT_THAT(failing.stdout_data, HasSubstr("1 tests failed"));
}

// Without --method every recorded method gets tests; a method without
// recorded calls is bad input, and so is a directory without observations.
TEST_F(LegacyTest, CharacterizeWithoutMethodTakesEveryRecordedMethod) {
  Observed o = Observe({"legacy.pricing.QuantityParser#parse", "legacy.pricing.Cart#add"},
                       {"java", "-jar", jar_, "workload/day1.txt"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  std::string generated = dir_.path() + "/characterization";
  SubprocessResult r = testing::RunTracespec(
      {"characterize", "--observations", out_, "--classpath", jar_, "--out", generated});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("written: " + generated +
                                       "/legacy/pricing/CartCharacterizationTest.java\n"
                                       "written: " + generated +
                                       "/legacy/pricing/QuantityParserCharacterizationTest.java\n"));
  std::string parser =
      ReadFile(generated + "/legacy/pricing/QuantityParserCharacterizationTest.java").value_or("");
  EXPECT_THAT(parser, HasSubstr("assertEquals(10, legacy.pricing.QuantityParser.parse(\"x10\"));"));
  EXPECT_THAT(parser, HasSubstr("legacy.pricing.QuantityParser.parse(\"abc\"));\n    assertEquals("
                                "\"java.lang.NumberFormatException\""));
  std::string classes = dir_.path() + "/characterization-classes";
  CompileTests(generated, classes, jar_);
  SubprocessResult passing = RunJunit(classes, jar_);
  EXPECT_EQ(passing.exit_code, 0) << passing.stdout_data << passing.stderr_data;

  r = testing::RunTracespec({"characterize", "--observations", out_, "--classpath", jar_,
                             "--method", "legacy.pricing.PriceCalculator#quote", "--out",
                             dir_.path() + "/none"});
  EXPECT_EQ(r.exit_code, 3) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr("no recorded calls of legacy.pricing.PriceCalculator#quote"));
  EXPECT_FALSE(fs::exists(dir_.path() + "/none"));
  r = testing::RunTracespec({"characterize", "--observations", out_, "--classpath", jar_,
                             "--method", "legacy.pricing.Cart#", "--out", dir_.path() + "/none"});
  EXPECT_EQ(r.exit_code, 3) << r.stdout_data << r.stderr_data;
  EXPECT_FALSE(fs::exists(dir_.path() + "/none"));
}

// What the policy withheld never reaches a test: a call with a withheld
// input is listed as not rebuilt, a withheld result or field is not
// asserted.
TEST_F(LegacyTest, CharacterizationTestsNeverHoldWithheldValues) {
  std::string policy = dir_.Write("policy.textproto",
                                  "format_version: FORMAT_VERSION_1\nrecord { class_pattern: "
                                  "\"*\" }\ndeny: \"total\"\ndeny: \"text\"\n");
  Observed o = Observe({"legacy.pricing.Cart#add", "legacy.pricing.PriceCalculator#total",
                        "legacy.pricing.QuantityParser#parse"},
                       {"java", "-jar", jar_, "workload/day1.txt"}, {"--policy", policy});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  std::string generated = dir_.path() + "/characterization";
  SubprocessResult r = testing::RunTracespec(
      {"characterize", "--observations", out_, "--classpath", jar_, "--out", generated});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("18 recorded calls: 4 tests, 0 calls repeating an earlier "
                                       "test, 14 not rebuilt (each listed in " +
                                       generated + "/not-rebuilt.txt)\n"));
  EXPECT_THAT(r.stdout_data,
              HasSubstr("  not rebuilt: legacy.pricing.Cart#add(I)V: 6 calls: field "
                        "legacy.pricing.Cart.total was withheld by the policy\n"));
  EXPECT_THAT(r.stdout_data, HasSubstr("  not rebuilt: legacy.pricing.QuantityParser#parse("
                                       "Ljava/lang/String;)I: 8 calls: an input was withheld by "
                                       "the policy\n"));
  std::string listing = ReadFile(generated + "/not-rebuilt.txt").value_or("");
  EXPECT_THAT(listing, HasSubstr("14 of 18 calls."));
  EXPECT_THAT(listing, HasSubstr("legacy.pricing.Cart#add(I)V call "));
  // Only PriceCalculator#total is replayed; its results (6, 0, 113, 42)
  // were withheld and are not asserted, its array arguments are.
  EXPECT_FALSE(FileExists(generated + "/legacy/pricing/CartCharacterizationTest.java"));
  EXPECT_FALSE(FileExists(generated + "/legacy/pricing/QuantityParserCharacterizationTest.java"));
  std::string tree = testing::ReadTree(generated);
  EXPECT_THAT(tree, HasSubstr("legacy.pricing.PriceCalculator.total(v1);  // the result was "
                              "withheld by the policy\n    assertArrayEquals(new int[] {10, -4, "
                              "7, 100}, v1);"));
  for (const char* withheld : {"113", "42", "x10", "abc"}) {
    EXPECT_THAT(tree, Not(HasSubstr(withheld)));
  }
  std::string classes = dir_.path() + "/characterization-classes";
  CompileTests(generated, classes, jar_);
  SubprocessResult passing = RunJunit(classes, jar_);
  EXPECT_EQ(passing.exit_code, 0) << passing.stdout_data << passing.stderr_data;
  EXPECT_THAT(passing.stdout_data, HasSubstr("4 tests successful"));
}

// A pattern selects the public methods of the classes it matches: a
// package's, or one class's (no constructors).
TEST_F(LegacyTest, PatternsSelectPublicMethods) {
  Observed o = Observe({"legacy.pricing.*#*"}, {"java", "-jar", jar_, "workload/day1.txt"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  std::set<std::string> methods;
  for (const v1::Observation& obs : o.observations) {
    methods.insert(obs.method().class_name() + "#" + obs.method().name());
  }
  EXPECT_EQ(methods, (std::set<std::string>{
                         "legacy.pricing.Cart#add", "legacy.pricing.Cart#getItems",
                         "legacy.pricing.Cart#getTotal", "legacy.pricing.PriceCalculator#quote",
                         "legacy.pricing.PriceCalculator#total",
                         "legacy.pricing.QuantityParser#parse"}));
  EXPECT_EQ(o.observations.size(), 29u);

  o = Observe({"legacy.pricing.Cart#*"}, {"bin/legacy-pricing", "workload/day1.txt"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  EXPECT_EQ(o.observations.size(), 10u);  // 6 add, 2 getItems, 2 getTotal.
  EXPECT_EQ(Count(o, "<init>"), 0);

  // Patterns work for characterize too.
  SubprocessResult r = testing::RunTracespec(
      {"characterize", "--observations", out_, "--classpath", jar_, "--method",
       "legacy.pricing.Cart#get*", "--out", dir_.path() + "/characterization"});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("4 recorded calls: 4 tests"));

  o = Observe({"legacy.nothing.*#*"}, {"java", "-jar", jar_, "workload/day1.txt"});
  EXPECT_EQ(o.run.exit_code, 3) << o.Output();
  EXPECT_THAT(o.run.stderr_data, HasSubstr("never loaded legacy.nothing.*; it loaded classes of: "
                                           "legacy.pricing (3 classes)"));
}

// The size guard: patterns matching more methods than --max-methods are
// refused with a clear message, and nothing is written but jvm.log.
TEST_F(LegacyTest, PatternsMatchingTooManyMethodsAreRefused) {
  Observed o = Observe({"legacy.*#*"}, {"java", "-jar", jar_, "workload/day1.txt"},
                       {"--max-methods", "4"});
  EXPECT_EQ(o.run.exit_code, 3) << o.Output();
  EXPECT_THAT(o.run.stderr_data,
              HasSubstr("the --method patterns matched more than --max-methods 4 methods (3 more "
                        "were left alone); the run's observations were not written: name fewer "
                        "classes or methods (observe --list-hot shows which are called), or raise "
                        "--max-methods"));
  EXPECT_FALSE(FileExists(out_ + "/observations.pb"));
  // legacy.Main#main and the six of legacy.pricing.
  o = Observe({"legacy.*#*"}, {"java", "-jar", jar_, "workload/day1.txt"},
              {"--max-methods", "7"});
  EXPECT_EQ(o.run.exit_code, 0) << o.Output();
  EXPECT_EQ(Count(o, "main"), 1);
}

// --list-hot counts the calls of the matched methods and prints them, most
// called first (ties by name), without recording.
TEST_F(LegacyTest, ListHotCountsCallsMostCalledFirst) {
  Observed o = Observe({"legacy.pricing.*#*"}, {"bin/legacy-pricing", "workload/day1.txt"},
                       {"--list-hot"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  std::string expected =
      "calls per target method (6 of 6 instrumented methods called by the command; counted, "
      "nothing recorded):\n"
      "         8  legacy.pricing.QuantityParser#parse(Ljava/lang/String;)I\n"
      "         7  legacy.pricing.PriceCalculator#quote(II)I\n"
      "         6  legacy.pricing.Cart#add(I)V\n"
      "         4  legacy.pricing.PriceCalculator#total([I)I\n"
      "         2  legacy.pricing.Cart#getItems()I\n"
      "         2  legacy.pricing.Cart#getTotal()I\n";
  EXPECT_EQ(o.run.stdout_data, expected);
  EXPECT_EQ(ReadFile(out_ + "/hot.txt").value_or(""), expected);
  EXPECT_FALSE(FileExists(out_ + "/observations.pb"));

  // Methods never called are listed with 0, after the others.
  Workload("totals.txt", "total 1 2\ntotal 3\n");
  o = Observe({"legacy.pricing.PriceCalculator#*"},
              {"java", "-jar", jar_, dir_.path() + "/totals.txt"}, {"--list-hot"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  EXPECT_THAT(o.run.stdout_data,
              HasSubstr("(1 of 2 instrumented methods called by the command; counted, nothing "
                        "recorded):\n"
                        "         2  legacy.pricing.PriceCalculator#total([I)I\n"
                        "         0  legacy.pricing.PriceCalculator#quote(II)I\n"));
}

// `tracespec run` on the example as it is: its configuration names the
// launcher script instead of tests. Every contract passes both checks, and
// `check` re-proves them.
TEST_F(LegacyTest, RunInfersContractsFromTheLauncherCapture) {
  fs::remove_all(project_ + "/target");
  SubprocessResult r = testing::RunTracespec({"run", project_});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr("injected with JAVA_TOOL_OPTIONS"));
  EXPECT_THAT(r.stderr_data, HasSubstr("no tests: captured behaviour"));
  EXPECT_THAT(r.stdout_data, HasSubstr("3 methods: 3 with a contract that holds"));
  std::string spec =
      ReadFile(project_ + "/tracespec-out/specs/legacy/pricing/PriceCalculator.jml").value_or("");
  EXPECT_THAT(spec, HasSubstr("ensures \\result == unitPrice * quantity;"));
  EXPECT_THAT(spec, HasSubstr("signals_only IllegalArgumentException;"));
  std::string report = ReadFile(project_ + "/tracespec-out/report.md").value_or("");
  EXPECT_THAT(report, HasSubstr("Evidence: captured behaviour, not tests"));

  r = testing::RunTracespec({"check", project_});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("3 hold, 0 broken"));
}

}  // namespace
}  // namespace tracespec

// End-to-end: the real `tracespec ctl` binary on the shipped loan models and
// on bad input; exit statuses, text, JSON and DOT output.
#include <string>
#include <vector>

#include "common/files.h"
#include "gtest/gtest.h"
#include "rapidjson/document.h"
#include "tests/testing/testing.h"

namespace tracespec {
namespace {

std::string Model(const std::string& name) {
  return testing::SourceDir() + "/examples/loan/models/" + name;
}

SubprocessResult Ctl(std::vector<std::string> args) {
  args.insert(args.begin(), "ctl");
  return testing::RunTracespec(args);
}

std::vector<std::string> Strings(const rapidjson::Value& array) {
  std::vector<std::string> out;
  for (const auto& v : array.GetArray()) out.push_back(v.GetString());
  return out;
}

using V = std::vector<std::string>;

TEST(CtlE2e, BaseDesignJson) {
  SubprocessResult r = Ctl({Model("base.kripke"), "EF g", "AF g", "AG !bad", "--json"});
  EXPECT_EQ(r.exit_code, 10) << r.stderr_data;
  rapidjson::Document doc;
  doc.Parse(r.stdout_data.c_str());
  ASSERT_FALSE(doc.HasParseError()) << r.stdout_data;
  EXPECT_EQ(Strings(doc["model"]["unreachable"]), V({"s4"}));
  EXPECT_FALSE(doc["all_hold"].GetBool());
  const auto& results = doc["results"];
  ASSERT_EQ(results.Size(), 3u);
  EXPECT_TRUE(results[0]["holds"].GetBool());
  EXPECT_EQ(Strings(results[0]["evidence"][0]["trace"]["states"]), V({"s0", "s1", "s2", "s3"}));
  EXPECT_FALSE(results[1]["holds"].GetBool());
  const auto& lasso = results[1]["evidence"][0]["trace"];
  EXPECT_EQ(Strings(lasso["prefix"]), V({"s0", "s1"}));
  EXPECT_EQ(Strings(lasso["cycle"]), V({"s1", "s2", "s1"}));
  EXPECT_TRUE(results[2]["holds"].GetBool());
}

TEST(CtlE2e, WithoutSendBackEverythingHolds) {
  SubprocessResult r = Ctl({Model("no_send_back.kripke"), "EF g", "AF g", "AG !bad"});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_NE(r.stdout_data.find("all formulas hold"), std::string::npos);
}

TEST(CtlE2e, ShortcutIsCaughtByAg) {
  SubprocessResult r = Ctl({Model("shortcut.kripke"), "EF g", "AF g", "AG !bad"});
  EXPECT_EQ(r.exit_code, 10);
  EXPECT_NE(r.stdout_data.find("EF g: holds"), std::string::npos) << r.stdout_data;
  EXPECT_NE(r.stdout_data.find("AF g: FAILS in s0"), std::string::npos);
  EXPECT_NE(r.stdout_data.find("AG !bad: FAILS in s0"), std::string::npos);
  EXPECT_NE(r.stdout_data.find("path: s0 -[submit]-> s1 -[lend]-> s4\n"), std::string::npos);
}

TEST(CtlE2e, FairnessInitAndDot) {
  EXPECT_EQ(Ctl({Model("base.kripke"), "AF g"}).exit_code, 10);
  SubprocessResult fair = Ctl({Model("base.kripke"), "AF g", "--fair", "!(s1 | s2)"});
  EXPECT_EQ(fair.exit_code, 0) << fair.stdout_data;
  EXPECT_NE(fair.stdout_data.find("fairness: only paths on which each of !(s1 | s2) holds infinitely often"),
            std::string::npos);
  EXPECT_EQ(Ctl({Model("base.kripke"), "AF g", "--init", "s3"}).exit_code, 0);
  EXPECT_EQ(Ctl({Model("base.kripke"), "EF g", "--init", "s4"}).exit_code, 10);
  testing::TempDir dir;
  const std::string dot = dir.path() + "/trace.dot";
  EXPECT_EQ(Ctl({Model("shortcut.kripke"), "AG !bad", "--dot", dot}).exit_code, 10);
  auto text = ReadFile(dot);
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find("\"s1\" -> \"s4\" [color=red"), std::string::npos) << *text;
}

TEST(CtlE2e, BadInputExitsWithThreeAndSaysWhere) {
  SubprocessResult parse = Ctl({Model("base.kripke"), "EF (g"});
  EXPECT_EQ(parse.exit_code, 3);
  EXPECT_NE(parse.stderr_data.find("formula \"EF (g\": column 6: expected ')'"), std::string::npos)
      << parse.stderr_data;
  SubprocessResult unknown = Ctl({Model("base.kripke"), "AG !approved"});
  EXPECT_EQ(unknown.exit_code, 3);
  EXPECT_NE(unknown.stderr_data.find("column 5: unknown proposition 'approved'"), std::string::npos);
  EXPECT_EQ(Ctl({Model("base.kripke"), "EF g", "--init", "s9"}).exit_code, 3);

  testing::TempDir dir;
  const std::string bad = dir.Write("bad.kripke", "states a b\ninit a\na -> b\nb -> c\n");
  SubprocessResult r = Ctl({bad, "EF b"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.stderr_data.find("bad.kripke:4:6: unknown state 'c'"), std::string::npos) << r.stderr_data;

  const std::string dead = dir.Write("dead.kripke", "states a\nstates b\ninit a\na -> b\n");
  r = Ctl({dead, "EF b"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.stderr_data.find("dead.kripke:2: state 'b' has no successor (deadlock)"), std::string::npos)
      << r.stderr_data;
  r = Ctl({dead, "EF b", "AX b", "--deadlock=self-loop"});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_data;
  EXPECT_NE(r.stdout_data.find("deadlock states given a self-loop: b"), std::string::npos);
  EXPECT_EQ(Ctl({dead, "EF b", "--deadlock=maybe"}).exit_code, 2);
}

TEST(CtlE2e, JsonAndAldebaranModels) {
  testing::TempDir dir;
  const std::string json = dir.Write(
      "m.json", R"({"states": ["a", "b"], "init": ["a"], "labels": {"p": ["b"]},
                   "transitions": [["a", "b"], ["b", "b"]]})");
  EXPECT_EQ(Ctl({json, "AF p", "EX p"}).exit_code, 0);
  const std::string aut = dir.Write("m.aut", "des (0, 3, 2)\n(0, \"req\", 1)\n(1, \"ack\", 0)\n(1, \"crash\", 1)\n");
  SubprocessResult r = Ctl({aut, "AG !crash"});
  EXPECT_EQ(r.exit_code, 10);
  EXPECT_NE(r.stdout_data.find("path: s0 -[req]-> s0.req.s1 -> s1 -[crash]-> s1.crash.s1"), std::string::npos)
      << r.stdout_data;
}

TEST(CtlE2e, HelpListsTheOptions) {
  SubprocessResult r = testing::RunTracespec({"ctl", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* flag : {"--init", "--fair", "--deadlock", "--json", "--dot"})
    EXPECT_NE(r.stdout_data.find(flag), std::string::npos) << flag;
}

}  // namespace
}  // namespace tracespec

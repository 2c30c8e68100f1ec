// The run directory: names, records, and what a re-run finds.
#include "agent/loop/run_dir.h"

#include <filesystem>

#include "common/files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::loop {
namespace {

TEST(RunDirTest, MethodDirectoryNames) {
  EXPECT_EQ(MethodDirName("bank.Account#deposit"), "bank.Account#deposit");
  EXPECT_EQ(MethodDirName("p.C#m(Ljava/lang/String;)V"), "p.C#m(Ljava_lang_String_)V");
  EXPECT_EQ(MethodDirName(".."), "_..");
}

// What a Success's consistency PASS covered is on its line: nothing when
// complete, "within bounds" when something was cut (also a proof by
// induction whose inputs were cut), "proved by induction" otherwise.
TEST(RunDirTest, TheRoundsNoteSaysWhatASuccessCovered) {
  const auto ok = v1::INFER_SUCCESS;
  auto pass = [](bool complete, bool proved, bool inputs_cut) {
    v1::Verdict v;
    v.set_status(v1::VERDICT_PASS);
    v.set_complete(complete);
    v.set_proved(proved);
    v.set_inputs_cut(inputs_cut);
    return v;
  };
  EXPECT_EQ(RoundsNote("01,11", ok, pass(true, false, false)), " (rounds: 01,11)");
  EXPECT_EQ(RoundsNote("11", ok, pass(false, false, true)), " (rounds: 11; within bounds)");
  EXPECT_EQ(RoundsNote("11", ok, pass(false, false, false)), " (rounds: 11; within bounds)");
  EXPECT_EQ(RoundsNote("11", ok, pass(false, true, true)), " (rounds: 11; within bounds)");
  EXPECT_EQ(RoundsNote("11", ok, pass(false, true, false)), " (rounds: 11; proved by induction)");
  // Only a Success's PASS is qualified; a verdict of an older run has none.
  EXPECT_EQ(RoundsNote("01", v1::INFER_FAIL, pass(false, false, true)), " (rounds: 01)");
  EXPECT_EQ(RoundsNote("11", ok, v1::Verdict()), " (rounds: 11)");
  EXPECT_EQ(RoundsNote("", v1::INFER_STOPPED, pass(false, false, false)), " (rounds: none)");
}

void WriteRound(const std::string& dir, int number, v1::RoundOutcome outcome) {
  v1::InferRound r;
  r.set_format_version(v1::FORMAT_VERSION_1);
  r.set_round(number);
  r.set_outcome(outcome);
  r.set_bits(IsCompleted(outcome) ? "01" : "");
  ASSERT_TRUE(MakeDirs(dir + "/" + RoundDirName(number)).ok());
  ASSERT_TRUE(WriteJsonFile(dir + "/" + RoundDirName(number) + "/round.json", r).ok());
}

TEST(RunDirTest, CompletedRoundsAreKeptAndTheIncompleteOneMovedAside) {
  testing::TempDir tmp;
  std::string dir = tmp.path() + "/m";
  WriteRound(dir, 1, v1::ROUND_VALIDATED);
  WriteRound(dir, 2, v1::ROUND_NO_CONTRACT);
  WriteRound(dir, 3, v1::ROUND_EXCHANGE_FAILED);
  auto prior = LoadPriorRuns(dir);
  ASSERT_TRUE(prior.ok()) << prior.status();
  ASSERT_EQ(prior->rounds.size(), 2u);
  EXPECT_EQ(prior->rounds[1].outcome(), v1::ROUND_NO_CONTRACT);
  EXPECT_EQ(prior->moved_aside, std::vector<std::string>{"round-3.attempt-1"});
  EXPECT_FALSE(FileExists(dir + "/round-3"));

  // A crash before round.json: the directory alone is incomplete too.
  ASSERT_TRUE(MakeDirs(dir + "/round-3").ok());
  prior = LoadPriorRuns(dir);
  ASSERT_TRUE(prior.ok());
  EXPECT_EQ(prior->rounds.size(), 2u);
  EXPECT_EQ(prior->moved_aside, std::vector<std::string>{"round-3.attempt-2"});
}

// A round.json cut short (or one recording another round) is a damaged
// journal entry: that round and the later ones are moved aside and redone,
// with the reason. Until this stop it was an error that made every later
// run of the method fail (exit 3) until the file was removed by hand.
TEST(RunDirTest, AMissingDirectoryHasNoRoundsAndADamagedRecordIsRedone) {
  testing::TempDir tmp;
  auto none = LoadPriorRuns(tmp.path() + "/absent");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->rounds.empty());

  std::string dir = tmp.path() + "/m";
  WriteRound(dir, 1, v1::ROUND_VALIDATED);
  ASSERT_TRUE(MakeDirs(dir + "/round-2").ok());
  ASSERT_TRUE(WriteFileAtomic(dir + "/round-2/round.json", "{\"round\": \"x\"").ok());
  WriteRound(dir, 3, v1::ROUND_VALIDATED);
  auto damaged = LoadPriorRuns(dir);
  ASSERT_TRUE(damaged.ok()) << damaged.status();
  ASSERT_EQ(damaged->rounds.size(), 1u);
  EXPECT_EQ(damaged->moved_aside,
            (std::vector<std::string>{"round-2.attempt-1", "round-3.attempt-1"}));
  ASSERT_EQ(damaged->damaged.count("round-2.attempt-1"), 1u);
  EXPECT_THAT(damaged->damaged["round-2.attempt-1"], ::testing::HasSubstr("round-2/round.json"));
  EXPECT_EQ(damaged->damaged.count("round-3.attempt-1"), 0u);  // only after a damaged one

  // A record of another round.
  WriteRound(dir, 5, v1::ROUND_VALIDATED);
  ASSERT_TRUE(MakeDirs(dir + "/round-2").ok());
  std::filesystem::rename(dir + "/round-5/round.json", dir + "/round-2/round.json");
  auto other = LoadPriorRuns(dir);
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_EQ(other->rounds.size(), 1u);
  ASSERT_EQ(other->damaged.size(), 1u);
  EXPECT_THAT(other->damaged.begin()->second, ::testing::HasSubstr("records round 5, expected 2"));
}

}  // namespace
}  // namespace tracespec::loop

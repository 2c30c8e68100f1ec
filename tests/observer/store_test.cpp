#include "observer/store.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "common/files.h"
#include "common/proto_io.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::observer {
namespace {

using ::testing::HasSubstr;

// A call of shop.Counter#add(I)I on a receiver whose `n` goes from `before`
// to `after`; it returns `after`, or throws when `throws` is set.
v1::Observation Call(uint64_t sequence, int arg, int before, int after, bool throws = false) {
  v1::Observation o;
  o.set_sequence(sequence);
  o.mutable_method()->set_class_name("shop.Counter");
  o.mutable_method()->set_name("add");
  o.mutable_method()->set_jvm_descriptor("(I)I");
  o.mutable_receiver()->set_ref(1);
  o.add_args()->set_int_value(arg);
  for (auto [states, value] : {std::pair{o.mutable_pre(), before}, {o.mutable_post(), after}}) {
    v1::ObjectState* s = states->Add();
    s->set_id(1);
    s->set_class_name("shop.Counter");
    v1::Field* f = s->add_fields();
    f->set_name("n");
    f->set_jvm_type("I");
    f->mutable_value()->set_int_value(value);
  }
  if (throws) {
    o.mutable_outcome()->mutable_thrown()->set_class_name("java.lang.IllegalArgumentException");
  } else {
    o.mutable_outcome()->mutable_returned()->set_int_value(after);
  }
  return o;
}

TEST(BehaviourKeyTest, OutcomesBranchesAndChangesTellBehavioursApart) {
  std::string positive = BehaviourKey(Call(1, 5, 1, 6));
  EXPECT_EQ(positive, BehaviourKey(Call(2, 7, 3, 10)));        // same branches
  EXPECT_NE(positive, BehaviourKey(Call(3, 0, 1, 1)));         // argument zero, n unchanged
  EXPECT_NE(positive, BehaviourKey(Call(4, -5, 1, -4)));       // negative argument and result
  EXPECT_NE(positive, BehaviourKey(Call(5, 5, 1, 1, true)));   // threw
  EXPECT_THAT(BehaviourKey(Call(5, 5, 1, 1, true)),
              HasSubstr("throws java.lang.IllegalArgumentException"));
  EXPECT_THAT(positive, HasSubstr("this..n=+>+!"));
}

// 200 positive calls, one with 0, one throwing: cap 10.
std::vector<v1::Observation> Calls() {
  std::vector<v1::Observation> calls;
  for (int i = 1; i <= 200; ++i) calls.push_back(Call(i, i, i, 2 * i));
  calls.push_back(Call(150, 0, 3, 3));  // replaces sequence 150 below
  calls.push_back(Call(300, -1, 0, 0, true));
  calls.erase(calls.begin() + 149);
  return calls;
}

std::set<uint64_t> Kept(ObservationStore& store, const std::vector<v1::Observation>& calls) {
  std::set<uint64_t> kept;
  for (const v1::Observation& o : calls) {
    if (store.Keeps(o)) kept.insert(o.sequence());
  }
  return kept;
}

TEST(ObservationStoreTest, KeepsEveryBehaviourAndADeterministicSampleUpToTheCap) {
  std::vector<v1::Observation> calls = Calls();
  ObservationStore store(10);
  for (const v1::Observation& o : calls) store.Note(o);
  std::set<uint64_t> kept = Kept(store, calls);
  EXPECT_EQ(kept.size(), 10u);
  EXPECT_EQ(kept.count(150), 1u);  // the only call with argument 0
  EXPECT_EQ(kept.count(300), 1u);  // the only one that threw
  EXPECT_EQ(kept.count(1), 1u);    // the earliest of the common behaviour
  // The sample spreads over the run rather than taking its first calls.
  EXPECT_GT(*std::prev(kept.end(), 3), 20u);

  // Noted in another order: the same choice.
  std::vector<v1::Observation> reversed(calls.rbegin(), calls.rend());
  ObservationStore again(10);
  for (const v1::Observation& o : reversed) again.Note(o);
  EXPECT_EQ(Kept(again, calls), kept);

  v1::ObserveSummary summary;
  summary.add_methods()->set_method("shop.Counter#add(I)I");
  store.Fill(&summary);
  EXPECT_EQ(summary.methods(0).kept(), 10);
  EXPECT_EQ(summary.methods(0).dropped(), 191);  // of 201
  EXPECT_EQ(summary.methods(0).behaviours(), 3);
  EXPECT_EQ(summary.observations_dropped(), 191);
  EXPECT_EQ(summary.max_observations_per_method(), 10);
}

TEST(ObservationStoreTest, BehavioursOutnumberingTheCapAreAllKeptAndNoCapKeepsAll) {
  std::vector<v1::Observation> calls = Calls();
  ObservationStore tiny(1);
  for (const v1::Observation& o : calls) tiny.Note(o);
  EXPECT_EQ(Kept(tiny, calls).size(), 3u);

  ObservationStore all(-1);
  for (const v1::Observation& o : calls) all.Note(o);
  EXPECT_EQ(Kept(all, calls).size(), calls.size());
}

TEST(ObservationStoreTest, WritesOnlyTheKeptObservationsToBothFiles) {
  testing::TempDir dir;
  std::vector<v1::Observation> calls = Calls();
  std::sort(calls.begin(), calls.end(), [](const v1::Observation& a, const v1::Observation& b) {
    return a.sequence() < b.sequence();
  });
  ObservationStore store(10);
  for (const v1::Observation& o : calls) store.Note(o);
  ASSERT_TRUE(store.Open(dir.path()).ok());
  for (const v1::Observation& o : calls) ASSERT_TRUE(store.Write(o).ok());
  ASSERT_TRUE(store.Commit().ok());
  std::string jsonl = ReadFile(dir.path() + "/observations.jsonl").value_or("");
  EXPECT_EQ(std::count(jsonl.begin(), jsonl.end(), '\n'), 10);
  std::string pb = ReadFile(dir.path() + "/observations.pb").value_or("");
  std::vector<DelimitedRecord> records;
  ASSERT_TRUE(SplitDelimited(pb, "observations.pb", &records).ok());
  EXPECT_EQ(records.size(), 10u);
}

}  // namespace
}  // namespace tracespec::observer

// The built-in synthesizer's template families end to end: observations of
// a real javac'd method, the real validator as Houdini's oracle, and the
// family's clause in a contract that passes both checks.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/agent/loop/synth_validate.h"
#include "tests/testing/call_builder.h"

namespace tracespec::loop {
namespace {

using ::testing::HasSubstr;
using testing::Call;
using testing::SynthesizeAndValidate;
using testing::Weakened;

void ExpectClause(const Weakened& w, const std::string& clause) {
  EXPECT_THAT(w.result.jml, HasSubstr(clause))
      << ::testing::PrintToString(w.result.hypotheses) << w.result.oracle_verdict;
  EXPECT_EQ(w.bits, "11") << w.result.jml << w.report;
}

TEST(GrammarTest, InPlaceSortIsSortedWithoutWrapAround) {
  // Pairs of neighbours bounded by a.length - 1: with `i + 1 < a.length`
  // the validator finds i = Integer.MAX_VALUE (i + 1 wraps) and a[i] out of
  // bounds.
  std::map<std::string, std::string> src = {{"t/Sorter.java", R"(package t;
public class Sorter {
  public static void sort(int[] a) {
    for (int i = 1; i < a.length; i++) {
      int k = a[i];
      int j = i - 1;
      while (j >= 0 && a[j] > k) { a[j + 1] = a[j]; j--; }
      a[j + 1] = k;
    }
  }
})"}};
  std::vector<v1::Observation> obs;
  for (std::vector<int> a : std::vector<std::vector<int>>{{3, 1, 2}, {5, -1, 5, 0}, {}, {9, 8, 7}}) {
    std::vector<int> sorted = a;
    std::sort(sorted.begin(), sorted.end());
    obs.push_back(Call("t.Sorter", "sort", "([I)V", {"a"}, true).IntArray(a, &sorted).ReturnsVoid());
  }
  Weakened w = SynthesizeAndValidate(src, "t.Sorter#sort", obs);
  ExpectClause(w, "ensures (\\forall int i; 0 <= i && i < a.length - 1; a[i] <= a[i + 1]);");
  EXPECT_THAT(w.result.jml, HasSubstr("\\num_of"));  // and the permutation
}

}  // namespace
}  // namespace tracespec::loop

// The built-in synthesizer's template families end to end: observations of
// a real javac'd method, the real validator as Houdini's oracle, and the
// family's clause in a contract that passes both checks.
#include <algorithm>
#include <map>
#include <tuple>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/agent/loop/synth_validate.h"
#include "tests/testing/call_builder.h"

namespace tracespec::loop {
namespace {

using ::testing::HasSubstr;
using testing::C;
using testing::Call;
using testing::I;
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

TEST(GrammarTest, ConditionalTermWithAnArithmeticPiece) {
  std::map<std::string, std::string> src = {{"t/Even.java", R"(package t;
public class Even {
  public static int smallestEvenMultiple(int n) { return n % 2 == 0 ? n : 2 * n; }
})"}};
  std::vector<v1::Observation> obs;
  for (int n : {5, 6, 1, 8, 7, 10}) {
    obs.push_back(Call("t.Even", "smallestEvenMultiple", "(I)I", {"n"}, true)
                      .Arg(I(n))
                      .Returns(I(n % 2 == 0 ? n : 2 * n))
                      .Build());
  }
  Weakened w = SynthesizeAndValidate(src, "t.Even#smallestEvenMultiple", obs);
  ExpectClause(w, "ensures \\result == (n % 2 == 0 ? n : 2 * n);");
}

TEST(GrammarTest, CharClassesAndCharArithmetic) {
  std::map<std::string, std::string> src = {{"t/Chars.java", R"(package t;
public class Chars {
  public static char toUpper(char c) {
    if (c >= 'a' && c <= 'z') return (char) (c - 32);
    return c;
  }
})"}};
  std::vector<v1::Observation> obs;
  for (char c : {'a', 'z', 'Q', '1', 'm', '#'}) {
    char r = c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c;
    obs.push_back(
        Call("t.Chars", "toUpper", "(C)C", {"c"}, true).Arg(C(c)).Returns(C(r)).Build());
  }
  Weakened w = SynthesizeAndValidate(src, "t.Chars#toUpper", obs);
  ExpectClause(w, "ensures \\result == (c >= 'a' && c <= 'z' ? c - 32 : c);");
}

TEST(GrammarTest, MinMaxAndAbsOfADifference) {
  std::map<std::string, std::string> src = {{"t/M.java", R"(package t;
public class M {
  public static int max3(int a, int b, int c) { return Math.max(a, Math.max(b, c)); }
  public static int absDiff(int a, int b) { return Math.abs(a - b); }
})"}};
  std::vector<v1::Observation> max3, diff;
  for (auto [a, b, c] : std::vector<std::tuple<int, int, int>>{
           {1, 9, 3}, {7, 2, 3}, {1, 2, 5}, {-1, -2, -3}, {4, 4, 0}}) {
    max3.push_back(Call("t.M", "max3", "(III)I", {"a", "b", "c"}, true)
                       .Arg(I(a))
                       .Arg(I(b))
                       .Arg(I(c))
                       .Returns(I(std::max({a, b, c})))
                       .Build());
  }
  for (auto [a, b] : std::vector<std::pair<int, int>>{{5, 2}, {2, 5}, {4, 4}, {-5, 5}, {0, -7}}) {
    diff.push_back(Call("t.M", "absDiff", "(II)I", {"a", "b"}, true)
                       .Arg(I(a))
                       .Arg(I(b))
                       .Returns(I(std::abs(a - b)))
                       .Build());
  }
  ExpectClause(SynthesizeAndValidate(src, "t.M#max3", max3),
               "ensures \\result == Math.max(a, Math.max(b, c));");
  ExpectClause(SynthesizeAndValidate(src, "t.M#absDiff", diff),
               "ensures \\result == Math.abs(a - b);");
}

TEST(GrammarTest, PiecewiseCasesAndATwoAtomExceptionGuard) {
  // A calculator: one relation per operator, and division by zero only
  // for '/': the exceptional case's guard is two atoms.
  std::map<std::string, std::string> src = {{"t/Calc.java", R"(package t;
public class Calc {
  public static int calc(char op, int a, int b) {
    if (op == '+') return a + b;
    if (op == '-') return a - b;
    if (op == '*') return a * b;
    if (op == '/') return a / b;
    return 0;
  }
})"}};
  std::vector<v1::Observation> obs;
  for (auto [op, a, b] : std::vector<std::tuple<char, int, int>>{
           {'+', 2, 3}, {'+', 4, 0}, {'-', 2, 3}, {'-', 9, 4}, {'*', 2, 3}, {'*', 4, 0},
           {'/', 7, 3}, {'/', 9, 2}, {'/', 1, 0}, {'/', 5, 0}}) {
    Call c("t.Calc", "calc", "(CII)I", {"op", "a", "b"}, true);
    c.Arg(C(op)).Arg(I(a)).Arg(I(b));
    int r = op == '+' ? a + b : op == '-' ? a - b : op == '*' ? a * b : b == 0 ? 0 : a / b;
    obs.push_back(op == '/' && b == 0 ? c.Throws("java.lang.ArithmeticException").Build()
                                      : c.Returns(I(r)).Build());
  }
  Weakened w = SynthesizeAndValidate(src, "t.Calc#calc", obs);
  ExpectClause(w, "requires op == '/' && b == 0;");
  EXPECT_THAT(w.result.jml, HasSubstr("ensures op == '+' ==> \\result == a + b;"));
  EXPECT_THAT(w.result.jml, HasSubstr("ensures op == '-' ==> \\result == a - b;"));
  EXPECT_THAT(w.result.jml, HasSubstr("ensures op == '*' ==> \\result == a * b;"));
}

}  // namespace
}  // namespace tracespec::loop

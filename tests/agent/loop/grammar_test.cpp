// The built-in synthesizer's template families end to end: observations of
// a real javac'd method, the real validator as Houdini's oracle, and the
// family's clause in a contract that passes both checks.
#include <algorithm>
#include <cstdint>
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
using testing::B;
using testing::C;
using testing::Call;
using testing::I;
using testing::L;
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

TEST(GrammarTest, LongResultsOfIntArithmeticAreComputedInLong) {
  // An int product or sum that a long result holds: `n * n * n` in int
  // wraps at n = 10000, `(long) n * n * n` does not; likewise the elements
  // of a long sum.
  std::map<std::string, std::string> src = {{"t/W.java", R"(package t;
public class W {
  public static long cube(int n) { long x = n; return x * x * x; }
  public static long sum(int[] a) { long t = 0; for (int v : a) t += v; return t; }
})"}};
  std::vector<v1::Observation> cube, sum;
  for (int n : {2, 3, 0, -4, 10000}) {
    cube.push_back(Call("t.W", "cube", "(I)J", {"n"}, true)
                       .Arg(I(n))
                       .Returns(L(static_cast<int64_t>(n) * n * n))
                       .Build());
  }
  for (std::vector<int> a : std::vector<std::vector<int>>{
           {1, 2, 3}, {}, {5, -5}, {2147483647, 2147483647}, {-8}}) {
    int64_t t = 0;
    for (int v : a) t += v;
    sum.push_back(Call("t.W", "sum", "([I)J", {"a"}, true).IntArray(a).Returns(L(t)).Build());
  }
  ExpectClause(SynthesizeAndValidate(src, "t.W#cube", cube), "ensures \\result == (long) n * n * n;");
  ExpectClause(SynthesizeAndValidate(src, "t.W#sum", sum),
               "ensures \\result == (\\sum int i; 0 <= i && i < a.length; (long) a[i]);");
}

TEST(GrammarTest, ScaledProductInLong) {
  std::map<std::string, std::string> src = {{"t/P.java", R"(package t;
public class P {
  public static int percentOf(int amount, int pct) { return (int) ((long) amount * pct / 100); }
})"}};
  std::vector<v1::Observation> obs;
  for (auto [a, p] : std::vector<std::pair<int, int>>{
           {2500, 10}, {999, 100}, {12345, 0}, {7, 50}, {-80, 25}, {2147483647, 50}}) {
    obs.push_back(Call("t.P", "percentOf", "(II)I", {"amount", "pct"}, true)
                      .Arg(I(a))
                      .Arg(I(p))
                      .Returns(I(static_cast<int>(static_cast<int64_t>(a) * p / 100)))
                      .Build());
  }
  ExpectClause(SynthesizeAndValidate(src, "t.P#percentOf", obs),
               "ensures \\result == (int) ((long) amount * pct / 100);");
}

TEST(GrammarTest, NestedConditionalForAThreeWaySplit) {
  // No flat conditional fits a sign function or a case toggle: the side
  // that is not one expression is split once more.
  std::map<std::string, std::string> src = {{"t/N.java", R"(package t;
public class N {
  public static int signum(long x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }
  public static char toggle(char c) {
    if (c >= 'a' && c <= 'z') return (char) (c - 32);
    if (c >= 'A' && c <= 'Z') return (char) (c + 32);
    return c;
  }
})"}};
  std::vector<v1::Observation> sign, toggle;
  for (int64_t x : {int64_t{42}, int64_t{-3}, int64_t{0}, INT64_MIN, INT64_MAX}) {
    sign.push_back(Call("t.N", "signum", "(J)I", {"x"}, true)
                       .Arg(L(x))
                       .Returns(I(x > 0 ? 1 : x < 0 ? -1 : 0))
                       .Build());
  }
  for (char c : {'q', 'M', 'a', 'Z', '7', '!', ' '}) {
    char r = c >= 'a' && c <= 'z' ? c - 32 : c >= 'A' && c <= 'Z' ? c + 32 : c;
    toggle.push_back(Call("t.N", "toggle", "(C)C", {"c"}, true).Arg(C(c)).Returns(C(r)).Build());
  }
  ExpectClause(SynthesizeAndValidate(src, "t.N#signum", sign),
               "ensures \\result == (x != 0 ? x <= 0 ? -1 : 1 : x);");
  ExpectClause(SynthesizeAndValidate(src, "t.N#toggle", toggle),
               "ensures \\result == (c >= 'a' && c <= 'z' ? c - 32 : c >= 'A' && c <= 'Z' ? c + 32 : c);");
}

TEST(GrammarTest, RelationOfTwoBooleanInputs) {
  std::map<std::string, std::string> src = {{"t/X.java", R"(package t;
public class X {
  public static boolean xor(boolean a, boolean b) { return a != b; }
})"}};
  std::vector<v1::Observation> obs;
  for (auto [a, b] : std::vector<std::pair<bool, bool>>{
           {false, false}, {true, false}, {false, true}, {true, true}}) {
    obs.push_back(Call("t.X", "xor", "(ZZ)Z", {"a", "b"}, true)
                      .Arg(B(a))
                      .Arg(B(b))
                      .Returns(B(a != b))
                      .Build());
  }
  ExpectClause(SynthesizeAndValidate(src, "t.X#xor", obs), "ensures \\result <==> a != b;");
}

TEST(GrammarTest, PiecewiseFromOneCallAndTheOperatorsNoOtherCallHad) {
  // One call for '-', division for '/', and a default branch that throws
  // for every other operator: its guard is the operators the other calls
  // had, each excluded.
  std::map<std::string, std::string> src = {{"t/K.java", R"(package t;
public class K {
  public static int calc(int a, char op, int b) {
    switch (op) {
      case '+': return a + b;
      case '-': return a - b;
      case '*': return a * b;
      case '/':
        if (b == 0) throw new ArithmeticException("zero");
        return a / b;
      default: throw new IllegalArgumentException("op");
    }
  }
})"}};
  std::vector<v1::Observation> obs;
  for (auto [a, op, b] : std::vector<std::tuple<int, char, int>>{
           {3, '+', 4}, {3, '-', 4}, {3, '*', 4}, {10, '/', 3}, {-10, '/', 3}, {0, '*', 99},
           {5, '+', 0}, {1, '/', 0}, {1, '%', 2}}) {
    Call c("t.K", "calc", "(ICI)I", {"a", "op", "b"}, true);
    c.Arg(I(a)).Arg(C(op)).Arg(I(b));
    if (op == '%') {
      obs.push_back(c.Throws("java.lang.IllegalArgumentException").Build());
    } else if (op == '/' && b == 0) {
      obs.push_back(c.Throws("java.lang.ArithmeticException").Build());
    } else {
      int r = op == '+' ? a + b : op == '-' ? a - b : op == '*' ? a * b : a / b;
      obs.push_back(c.Returns(I(r)).Build());
    }
  }
  Weakened w = SynthesizeAndValidate(src, "t.K#calc", obs);
  ExpectClause(w, "requires op != '*' && op != '+' && op != '-' && op != '/';");
  EXPECT_THAT(w.result.jml, HasSubstr("ensures op == '-' ==> \\result == a - b;"));
  EXPECT_THAT(w.result.jml, HasSubstr("ensures op == '/' ==> \\result == a / b;"));
}

TEST(GrammarTest, LeapYearFromDivisibilityAtomsAndTheValidatorsCounterexamples) {
  // The five years a test suite has admit `year % 8 == 0`; the validator
  // refutes it, and with its counterexample the simplest formula whose
  // moduli nest is the rule.
  std::map<std::string, std::string> src = {{"t/Years.java", R"(package t;
public class Years {
  public static boolean isLeap(int year) {
    if (year % 400 == 0) return true;
    if (year % 100 == 0) return false;
    return year % 4 == 0;
  }
})"}};
  std::vector<v1::Observation> obs;
  for (int year : {2024, 2023, 1900, 2000, 2026}) {
    bool r = year % 400 == 0 || (year % 100 != 0 && year % 4 == 0);
    obs.push_back(
        Call("t.Years", "isLeap", "(I)Z", {"year"}, true).Arg(I(year)).Returns(B(r)).Build());
  }
  ExpectClause(SynthesizeAndValidate(src, "t.Years#isLeap", obs),
               "ensures \\result <==> year % 4 == 0 && year % 100 != 0 || year % 400 == 0;");
}

TEST(GrammarTest, OverlapIsAClampedDifferenceOfMinAndMax) {
  std::map<std::string, std::string> src = {{"t/Intervals.java", R"(package t;
public class Intervals {
  public static int overlap(int aStart, int aEnd, int bStart, int bEnd) {
    int start = Math.max(aStart, bStart);
    int end = Math.min(aEnd, bEnd);
    return end > start ? end - start : 0;
  }
})"}};
  std::vector<v1::Observation> obs;
  for (auto [as, ae, bs, be] : std::vector<std::tuple<int, int, int, int>>{
           {0, 5, 2, 8}, {0, 10, 4, 6}, {0, 3, 5, 9}, {0, 4, 4, 8}, {2, 8, 0, 5}, {-10, -2, -7, 0}}) {
    int start = std::max(as, bs), end = std::min(ae, be);
    obs.push_back(Call("t.Intervals", "overlap", "(IIII)I", {"aStart", "aEnd", "bStart", "bEnd"},
                       true)
                      .Arg(I(as))
                      .Arg(I(ae))
                      .Arg(I(bs))
                      .Arg(I(be))
                      .Returns(I(end > start ? end - start : 0))
                      .Build());
  }
  ExpectClause(SynthesizeAndValidate(src, "t.Intervals#overlap", obs),
               "ensures \\result == (Math.min(aEnd, bEnd) > Math.max(aStart, bStart) ? "
               "Math.min(aEnd, bEnd) - Math.max(aStart, bStart) : 0);");
}

}  // namespace
}  // namespace tracespec::loop

// Observations of small methods in the spirit of SpecGenBench (absolute
// value, max of two, max of an array, sum, count, linear search, first zero,
// binary search, sortedness, array copy and reverse, in-place sort,
// temperature conversion, prime test, digit root, division, bank deposit and
// withdraw with exceptions, setters, constructors, strings): what a test
// suite would have recorded. Shared by the synthesizer tests and the
// synthesis benchmark.
#ifndef TRACESPEC_TESTS_AGENT_SYNTH_TASKS_H_
#define TRACESPEC_TESTS_AGENT_SYNTH_TASKS_H_

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "tests/testing/call_builder.h"

namespace tracespec::testing {

struct SynthTask {
  std::string name;
  std::vector<v1::Observation> observations;
  // Clauses (canonical text) the contract must contain.
  std::vector<std::string> key_clauses;
  // Implementation behaviours beyond the recorded ones (for oracles).
  std::vector<v1::Observation> more;
};

// bank.Account#deposit(int): balance += amount, checksum = 31 * checksum +
// amount, returns the new balance; amount <= 0 throws.
inline v1::Observation DepositCall(int amount, int balance, int checksum) {
  Call c("bank.Account", "deposit", "(I)I", {"amount"}, false);
  c.Arg(I(amount));
  Call::Fields before = {{"balance", {"I", I(balance)}},
                         {"checksum", {"I", I(checksum)}},
                         {"owner", {"Ljava/lang/String;", S("ann")}}};
  if (amount <= 0) {
    c.Receiver(before, before);
    return c.Throws("java.lang.IllegalArgumentException");
  }
  int32_t sum = static_cast<int32_t>(static_cast<uint32_t>(checksum) * 31u +
                                     static_cast<uint32_t>(amount));
  c.Receiver(before, {{"balance", {"I", I(balance + amount)}},
                      {"checksum", {"I", I(sum)}},
                      {"owner", {"Ljava/lang/String;", S("ann")}}});
  return c.Returns(I(balance + amount));
}

inline v1::Observation WithdrawCall(int amount, int balance) {
  Call c("bank.Account", "withdraw", "(I)V", {"amount"}, false);
  c.Arg(I(amount));
  bool ok = amount <= balance;
  c.Receiver({{"balance", {"I", I(balance)}}}, {{"balance", {"I", I(ok ? balance - amount : balance)}}});
  return ok ? c.ReturnsVoid() : c.Throws("bank.InsufficientFundsException");
}

inline v1::Observation AbsCall(int x) {
  int32_t r = x < 0 ? static_cast<int32_t>(0u - static_cast<uint32_t>(x)) : x;
  return Call("m.MathUtil", "abs", "(I)I", {"x"}, true).Arg(I(x)).Returns(I(r));
}

inline v1::Observation MaxCall(int a, int b) {
  return Call("m.MathUtil", "max", "(II)I", {"a", "b"}, true).Arg(I(a)).Arg(I(b)).Returns(
      I(a >= b ? a : b));
}

inline v1::Observation MaxOfCall(const std::vector<int>& a) {
  Call c("m.Arrays2", "maxOf", "([I)I", {"a"}, true);
  c.IntArray(a);
  if (a.empty()) return c.Throws("java.lang.IllegalArgumentException");
  return c.Returns(I(*std::max_element(a.begin(), a.end())));
}

inline v1::Observation SumCall(const std::vector<int>& a) {
  int32_t s = 0;
  for (int v : a) s = static_cast<int32_t>(static_cast<uint32_t>(s) + static_cast<uint32_t>(v));
  return Call("m.Arrays2", "sum", "([I)I", {"a"}, true).IntArray(a).Returns(I(s));
}

// 1 + 2 + ... + n as a long; n < 0 throws.
inline v1::Observation SumToCall(int n) {
  Call c("m.Series", "sumTo", "(I)J", {"n"}, true);
  c.Arg(I(n));
  if (n < 0) return c.Throws("java.lang.IllegalArgumentException");
  return c.Returns(L(static_cast<int64_t>(n) * (n + 1) / 2));
}

// The mean of the elements as a double (their sum in long); an empty
// array throws.
inline v1::Observation MeanCall(const std::vector<int>& a) {
  Call c("m.Marks", "mean", "([I)D", {"a"}, true);
  c.IntArray(a);
  if (a.empty()) return c.Throws("java.lang.IllegalArgumentException");
  int64_t total = 0;
  for (int v : a) total += v;
  return c.Returns(D(static_cast<double>(total) / static_cast<double>(a.size())));
}

// Gregorian leap years: divisible by 4, not by 100 unless by 400.
inline v1::Observation LeapCall(int year) {
  bool r = year % 400 == 0 || (year % 100 != 0 && year % 4 == 0);
  return Call("calendar.Years", "isLeap", "(I)Z", {"year"}, true).Arg(I(year)).Returns(B(r));
}

// The length of the common part of [aStart, aEnd) and [bStart, bEnd), 0
// when they are disjoint.
inline v1::Observation OverlapCall(int a_start, int a_end, int b_start, int b_end) {
  int start = std::max(a_start, b_start), end = std::min(a_end, b_end);
  return Call("geometry.Intervals", "overlap", "(IIII)I", {"aStart", "aEnd", "bStart", "bEnd"},
              true)
      .Arg(I(a_start))
      .Arg(I(a_end))
      .Arg(I(b_start))
      .Arg(I(b_end))
      .Returns(I(end > start ? end - start : 0));
}

inline v1::Observation CountCall(const std::vector<int>& a, int key) {
  int n = 0;
  for (int v : a) n += v == key;
  return Call("m.Arrays2", "count", "([II)I", {"a", "key"}, true).IntArray(a).Arg(I(key)).Returns(
      I(n));
}

inline v1::Observation IndexOfCall(const std::vector<int>& a, int key) {
  int r = -1;
  for (size_t i = 0; i < a.size() && r < 0; ++i) {
    if (a[i] == key) r = static_cast<int>(i);
  }
  return Call("m.Arrays2", "indexOf", "([II)I", {"a", "key"}, true).IntArray(a).Arg(I(key)).Returns(
      I(r));
}

inline v1::Observation FirstZeroCall(const std::vector<int>& a) {
  int r = -1;
  for (size_t i = 0; i < a.size() && r < 0; ++i) {
    if (a[i] == 0) r = static_cast<int>(i);
  }
  return Call("m.Arrays2", "firstZero", "([I)I", {"a"}, true).IntArray(a).Returns(I(r));
}

inline v1::Observation BinarySearchCall(const std::vector<int>& a, int key) {
  int lo = 0, hi = static_cast<int>(a.size()) - 1, r = -1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (a[mid] == key) {
      r = mid;
      break;
    }
    if (a[mid] < key) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return Call("m.Arrays2", "binarySearch", "([II)I", {"a", "key"}, true)
      .IntArray(a)
      .Arg(I(key))
      .Returns(I(r));
}

inline v1::Observation IsSortedCall(const std::vector<int>& a) {
  bool s = std::is_sorted(a.begin(), a.end());
  return Call("m.Arrays2", "isSorted", "([I)Z", {"a"}, true).IntArray(a).Returns(B(s));
}

inline v1::Observation CopyCall(const std::vector<int>& a) {
  return Call("m.Arrays2", "copy", "([I)[I", {"a"}, true).IntArray(a).ReturnsIntArray(a);
}

inline v1::Observation ReverseCall(const std::vector<int>& a) {
  return Call("m.Arrays2", "reverse", "([I)[I", {"a"}, true).IntArray(a).ReturnsIntArray(
      std::vector<int>(a.rbegin(), a.rend()));
}

inline v1::Observation SortCall(const std::vector<int>& a) {
  std::vector<int> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  return Call("m.Arrays2", "sort", "([I)V", {"a"}, true).IntArray(a, &sorted).ReturnsVoid();
}

inline v1::Observation KelvinCall(double celsius) {
  return Call("m.Temperature", "toKelvin", "(D)D", {"celsius"}, true).Arg(D(celsius)).Returns(
      D(celsius + 273.15));
}

inline v1::Observation ConvertCall(double celsius) {
  return Call("m.Temperature", "convert", "(D)[D", {"celsius"}, true)
      .Arg(D(celsius))
      .ReturnsDoubleArray({celsius + 273.15, celsius * 9 / 5 + 32});
}

inline v1::Observation IsPrimeCall(int n) {
  bool p = n > 1;
  for (int d = 2; d < n && p; ++d) p = n % d != 0;
  return Call("m.Numbers", "isPrime", "(I)Z", {"n"}, true).Arg(I(n)).Returns(B(p));
}

inline v1::Observation DigitRootCall(int n) {
  int r = n == 0 ? 0 : 1 + (n - 1) % 9;
  return Call("m.Numbers", "digitRoot", "(I)I", {"n"}, true).Arg(I(n)).Returns(I(r));
}

inline v1::Observation DivideCall(int a, int b) {
  Call c("m.Numbers", "divide", "(II)I", {"a", "b"}, true);
  c.Arg(I(a)).Arg(I(b));
  if (b == 0) return c.Throws("java.lang.ArithmeticException");
  return c.Returns(I(a / b));
}

inline v1::Observation ContainsCall(const std::vector<int>& a, int key) {
  bool r = std::find(a.begin(), a.end(), key) != a.end();
  return Call("m.Arrays2", "contains", "([II)Z", {"a", "key"}, true).IntArray(a).Arg(I(key)).Returns(
      B(r));
}

inline v1::Observation AnyAboveCall(const std::vector<int>& a, int limit) {
  bool r = std::any_of(a.begin(), a.end(), [limit](int x) { return x > limit; });
  return Call("m.Alarms", "anyAbove", "([II)Z", {"a", "limit"}, true)
      .IntArray(a)
      .Arg(I(limit))
      .Returns(B(r));
}

inline v1::Observation SetCall(int v, int old_value, int count) {
  return Call("m.Counter", "set", "(I)V", {"v"}, false)
      .Arg(I(v))
      .Receiver({{"count", {"I", I(count)}}, {"value", {"I", I(old_value)}}},
                {{"count", {"I", I(count + 1)}}, {"value", {"I", I(v)}}})
      .ReturnsVoid();
}

inline v1::Observation ConcatCall(const std::string& s, const std::string& t) {
  return Call("m.Strings", "concat", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;",
              {"s", "t"}, true)
      .Arg(S(s))
      .Arg(S(t))
      .Returns(S(s + t));
}

inline v1::Observation TransferCall(int from, int to, int amount) {
  return Call("bank.Bank", "transfer", "(Lbank/Acc;Lbank/Acc;I)V", {"from", "to", "amount"}, true)
      .Object("bank.Acc", {{"balance", {"I", I(from)}}}, {{"balance", {"I", I(from - amount)}}})
      .Object("bank.Acc", {{"balance", {"I", I(to)}}}, {{"balance", {"I", I(to + amount)}}})
      .Arg(I(amount))
      .ReturnsVoid();
}

inline std::vector<SynthTask> SynthTasks() {
  std::vector<SynthTask> tasks;
  auto add = [&](std::string name, std::vector<v1::Observation> obs,
                 std::vector<std::string> keys) {
    tasks.push_back(SynthTask{std::move(name), std::move(obs), std::move(keys), {}});
  };
  add("deposit",
      {DepositCall(10, 0, 0), DepositCall(5, 10, 10), DepositCall(7, 15, 315),
       DepositCall(-3, 22, 9772), DepositCall(0, 22, 9772)},
      {"requires amount > 0;", "assignable balance, checksum;", "ensures \\result == balance;",
       "ensures balance == \\old(balance) + amount;",
       "ensures checksum == 31 * \\old(checksum) + amount;", "requires amount <= 0;",
       "signals_only IllegalArgumentException;"});
  add("withdraw",
      {WithdrawCall(10, 100), WithdrawCall(50, 60), WithdrawCall(30, 30), WithdrawCall(200, 100),
       WithdrawCall(61, 60)},
      {"requires amount <= balance;", "ensures balance == \\old(balance) - amount;",
       "requires amount > balance;", "signals_only bank.InsufficientFundsException;"});
  add("abs", {AbsCall(5), AbsCall(-3), AbsCall(0), AbsCall(17), AbsCall(-42)},
      {"ensures \\result == (x <= 0 ? -x : x);", "assignable \\nothing;"});
  add("max", {MaxCall(1, 2), MaxCall(5, 3), MaxCall(4, 4), MaxCall(-1, -7)},
      {"ensures \\result == (a <= b ? b : a);"});
  add("maxOf",
      {MaxOfCall({1, 5, 3}), MaxOfCall({7}), MaxOfCall({-2, -9}), MaxOfCall({4, 4, 1, 8}),
       MaxOfCall({})},
      {"ensures (\\forall int i; 0 <= i && i < a.length; \\result >= a[i]);",
       "ensures (\\exists int i; 0 <= i && i < a.length; \\result == a[i]);",
       "requires a.length == 0;"});
  add("sum", {SumCall({1, 5, 3}), SumCall({7}), SumCall({}), SumCall({4, 4, 1, 8})},
      {"ensures \\result == (\\sum int i; 0 <= i && i < a.length; a[i]);"});
  add("sumTo",
      {SumToCall(10), SumToCall(0), SumToCall(1), SumToCall(100), SumToCall(-1)},
      {"ensures \\result == ((long) n * n + n) / 2;", "requires n < 0;"});
  add("mean",
      {MeanCall({2, 3, 4}), MeanCall({2, 3}), MeanCall({17}), MeanCall({-2, 0}), MeanCall({})},
      {"ensures \\result == (double) (\\sum int i; 0 <= i && i < a.length; (long) a[i]) / "
       "a.length;"});
  add("isLeap",
      {LeapCall(2024), LeapCall(2023), LeapCall(1900), LeapCall(2000), LeapCall(2026),
       LeapCall(1996), LeapCall(2100), LeapCall(2400)},
      {"ensures \\result <==> year % 4 == 0 && year % 100 != 0 || year % 400 == 0;"});
  add("overlap",
      {OverlapCall(0, 5, 2, 8), OverlapCall(0, 10, 4, 6), OverlapCall(0, 3, 5, 9),
       OverlapCall(0, 4, 4, 8), OverlapCall(2, 8, 0, 5), OverlapCall(-10, -2, -7, 0)},
      {"ensures \\result == (Math.min(aEnd, bEnd) > Math.max(aStart, bStart) ? Math.min(aEnd, "
       "bEnd) - Math.max(aStart, bStart) : 0);"});
  add("count",
      {CountCall({1, 5, 3, 5}, 5), CountCall({7, 7}, 7), CountCall({}, 1),
       CountCall({4, 4, 1, 8}, 9), CountCall({2, 1, 2}, 2)},
      {"ensures \\result == (\\num_of int i; 0 <= i && i < a.length; a[i] == key);"});
  add("indexOf",
      {IndexOfCall({1, 5, 3}, 5), IndexOfCall({7, 7}, 7), IndexOfCall({}, 1),
       IndexOfCall({4, 4, 1, 8}, 9), IndexOfCall({2, 1, 2}, 2)},
      {"ensures \\result == -1 || 0 <= \\result && \\result < a.length && a[\\result] == key;",
       "ensures \\result == -1 ==> (\\forall int i; 0 <= i && i < a.length; a[i] != key);",
       "ensures (\\forall int i; 0 <= i && i < \\result; a[i] != key);"});
  add("firstZero",
      {FirstZeroCall({1, 0, 3, 0}), FirstZeroCall({0}), FirstZeroCall({}),
       FirstZeroCall({4, 4, 1, 8}), FirstZeroCall({2, 1, 0})},
      {"ensures \\result == -1 || 0 <= \\result && \\result < a.length && a[\\result] == 0;",
       "ensures (\\forall int i; 0 <= i && i < \\result; a[i] != 0);"});
  add("binarySearch",
      {BinarySearchCall({1, 3, 5, 7}, 5), BinarySearchCall({2, 4}, 3), BinarySearchCall({}, 1),
       BinarySearchCall({1, 4, 6, 8, 9}, 1), BinarySearchCall({2, 3, 7}, 7)},
      {"ensures \\result == -1 || 0 <= \\result && \\result < a.length && a[\\result] == key;",
       "ensures \\result == -1 ==> (\\forall int i; 0 <= i && i < a.length; a[i] != key);"});
  add("isSorted",
      {IsSortedCall({1, 5, 3}), IsSortedCall({7}), IsSortedCall({}), IsSortedCall({1, 4, 4, 8}),
       IsSortedCall({2, 1})},
      {"ensures \\result <==> (\\forall int i; 0 <= i && i < a.length - 1; a[i] <= a[i + 1]);"});
  add("contains",
      {ContainsCall({1, 3, 5, 7}, 5), ContainsCall({2, 4}, 3), ContainsCall({}, 1),
       ContainsCall({1, 4, 6, 8, 9}, 1), ContainsCall({2, 3, 7}, 8)},
      {"ensures \\result <==> (\\exists int i; 0 <= i && i < a.length; a[i] == key);"});
  add("anyAbove",
      {AnyAboveCall({3, 12, 4}, 10), AnyAboveCall({1, 2, 3, 40}, 10), AnyAboveCall({1, 2, 10}, 10),
       AnyAboveCall({}, 0), AnyAboveCall({-5, -1}, -2)},
      {"ensures \\result <==> (\\exists int i; 0 <= i && i < a.length; a[i] > limit);"});
  add("copy", {CopyCall({1, 5, 3}), CopyCall({7}), CopyCall({}), CopyCall({1, 4, 4, 8})},
      {"ensures \\result.length == a.length;", "ensures \\result != null;",
       "ensures (\\forall int i; 0 <= i && i < \\result.length; \\result[i] == a[i]);"});
  add("reverse", {ReverseCall({1, 5, 3}), ReverseCall({7}), ReverseCall({}), ReverseCall({1, 4, 4, 8})},
      {"ensures (\\forall int i; 0 <= i && i < \\result.length; \\result[i] == a[a.length - 1 - "
       "i]);"});
  add("sort", {SortCall({3, 1, 2}), SortCall({7}), SortCall({}), SortCall({9, 4, 4, 8})},
      {"assignable a[*];",
       "ensures (\\forall int i; 0 <= i && i < a.length - 1; a[i] <= a[i + 1]);"});
  add("toKelvin",
      {KelvinCall(0.0), KelvinCall(25.0), KelvinCall(-40.0), KelvinCall(100.5), KelvinCall(36.6)},
      {"ensures \\result == celsius + 273.15;"});
  add("convert",
      {ConvertCall(0.0), ConvertCall(25.0), ConvertCall(-40.0), ConvertCall(100.5),
       ConvertCall(36.6)},
      {"ensures \\result.length == 2;",
       "ensures \\result != null && \\result.length >= 1 ==> \\result[0] == celsius + 273.15;",
       "ensures \\result != null && \\result.length >= 2 ==> \\result[1] == celsius * 9 / 5 + "
       "32.0;"});
  add("isPrime",
      {IsPrimeCall(2), IsPrimeCall(3), IsPrimeCall(4), IsPrimeCall(9), IsPrimeCall(13),
       IsPrimeCall(1), IsPrimeCall(0), IsPrimeCall(25), IsPrimeCall(29)},
      {"ensures \\result <==> n > 1 && (\\forall int d; 2 <= d && d < n; n % d != 0);"});
  add("digitRoot",
      {DigitRootCall(0), DigitRootCall(9), DigitRootCall(38), DigitRootCall(12345),
       DigitRootCall(7), DigitRootCall(10), DigitRootCall(99)},
      {"ensures \\result == (n - 1) % 9 + 1;"});
  add("divide",
      {DivideCall(7, 2), DivideCall(9, 3), DivideCall(-8, 3), DivideCall(5, 0), DivideCall(1, 0)},
      {"ensures \\result == a / b;", "requires b == 0;", "signals_only ArithmeticException;"});
  add("set", {SetCall(3, 7, 0), SetCall(-1, 3, 1), SetCall(0, -1, 2), SetCall(42, 0, 3)},
      {"assignable count, value;", "ensures value == v;",
       "ensures count == \\old(count) + 1;"});
  add("concat",
      {ConcatCall("ab", "cd"), ConcatCall("", "x"), ConcatCall("hello", ""), ConcatCall("a", "b")},
      {"ensures \\result.equals(s + t);"});
  add("transfer", {TransferCall(100, 0, 30), TransferCall(50, 50, 50), TransferCall(10, 5, 1)},
      {"assignable from.balance, to.balance;",
       "ensures from.balance == \\old(from.balance) - amount;",
       "ensures to.balance == \\old(to.balance) + amount;"});
  return tasks;
}

// The observations of the task called `name` (empty if there is none).
inline std::vector<v1::Observation> TaskObservations(const std::string& name) {
  for (SynthTask& t : SynthTasks()) {
    if (t.name == name) return std::move(t.observations);
  }
  return {};
}

}  // namespace tracespec::testing

#endif  // TRACESPEC_TESTS_AGENT_SYNTH_TASKS_H_

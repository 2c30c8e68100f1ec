// End-to-end tests of `tracespec observe`: real javac, real JVM, real
// JUnit 5, real probe. Each test compiles its own Java classes and tests.
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"
#include "tracespec/v1/summary.pb.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::TempDir;

struct Observed {
  SubprocessResult run;
  std::string out;
  std::vector<v1::Observation> observations;
  v1::ObserveSummary summary;
  bool has_summary = false;
  std::string Output() const { return run.stdout_data + run.stderr_data; }
};

class ObserveTest : public ::testing::Test {
 protected:
  // Compiles main and test classes together against JUnit.
  std::string Compile(const std::map<std::string, std::string>& sources,
                      const std::vector<std::string>& javac_args = {"-g"}) {
    return testing::CompileJava(dir_, sources, javac_args, testing::JunitJar());
  }

  std::string WritePolicy(const std::string& text) { return dir_.Write("policy.textproto", text); }

  Observed Observe(const std::string& classpath, const std::string& tests,
                   const std::vector<std::string>& methods,
                   const std::vector<std::string>& extra = {},
                   const SubprocessOptions& options = {}) {
    Observed o;
    o.out = dir_.path() + "/out";
    std::vector<std::string> args = {"observe", "--classpath", classpath, "--tests", tests,
                                     "--out", o.out};
    for (const std::string& m : methods) {
      args.push_back("--method");
      args.push_back(m);
    }
    args.insert(args.end(), extra.begin(), extra.end());
    o.run = testing::RunTracespec(args, options);
    if (FileExists(o.out + "/observations.pb")) {
      auto read = ReadObservations(o.out + "/observations.pb");
      EXPECT_TRUE(read.ok()) << read.status();
      if (read.ok()) o.observations = *read;
    }
    auto summary = ReadFile(o.out + "/summary.json");
    if (summary.ok()) {
      o.has_summary = FromJson(*summary, &o.summary).ok();
      EXPECT_TRUE(o.has_summary);
    }
    return o;
  }

  TempDir dir_;
};

std::vector<v1::Observation> Of(const Observed& o, const std::string& method,
                                const std::string& descriptor = "") {
  std::vector<v1::Observation> out;
  for (const v1::Observation& obs : o.observations) {
    if (obs.method().name() == method &&
        (descriptor.empty() || obs.method().jvm_descriptor() == descriptor)) {
      out.push_back(obs);
    }
  }
  return out;
}

const v1::ObjectState* State(const google::protobuf::RepeatedPtrField<v1::ObjectState>& states,
                             uint64_t id) {
  for (const v1::ObjectState& s : states) {
    if (s.id() == id) return &s;
  }
  return nullptr;
}

const v1::Value* FieldOf(const v1::ObjectState* state, const std::string& name) {
  if (state == nullptr) return nullptr;
  for (const v1::Field& f : state->fields()) {
    if (f.name() == name) return &f.value();
  }
  return nullptr;
}

// --- Primitive types, compiled without debug information. -----------------

constexpr char kPrims[] = R"(package p;
public class Prims {
  public boolean z; public byte b; public short s; public char c;
  public int i; public long j; public float f; public double d;
  public static boolean flip(boolean v) { return !v; }
  public static byte incB(byte v) { return (byte) (v + 1); }
  public static short incS(short v) { return (short) (v + 1); }
  public static char incC(char v) { return (char) (v + 1); }
  public static int incI(int v) { return v + 1; }
  public static long twice(long v) { return v * 2; }
  public static float half(float v) { return v / 2; }
  public static double neg(double v) { return -v; }
  public void setAll(boolean z, byte b, short s, char c, int i, long j, float f, double d) {
    this.z = z; this.b = b; this.s = s; this.c = c; this.i = i; this.j = j; this.f = f; this.d = d;
  }
  public static double mix(int a, long b, float c, double d, char e) { return a + b + c + d + e; }
}
)";

constexpr char kPrimsTest[] = R"(package p;
import org.junit.jupiter.api.Test;
class PrimsTest {
  @Test void values() {
    Prims.flip(true);
    Prims.incB((byte) 127);
    Prims.incS((short) -32768);
    Prims.incC('\uffff');
    Prims.incI(Integer.MAX_VALUE);
    Prims.twice(Long.MIN_VALUE + 1);
    Prims.half(Float.NaN);
    Prims.half(-0.0f);
    Prims.neg(0.0);
    Prims.neg(Double.NaN);
    new Prims().setAll(true, (byte) -1, (short) 300, 'x', -7, 1L << 40, 1.5f, -2.25);
    Prims.mix(1, 2L, 3.5f, 4.25, 'a');
  }
}
)";

TEST_F(ObserveTest, EveryPrimitiveTypeWithoutDebugInfo) {
  std::string classes =
      Compile({{"p/Prims.java", kPrims}, {"p/PrimsTest.java", kPrimsTest}}, {"-g:none"});
  std::vector<std::string> methods;
  for (const char* m : {"flip", "incB", "incS", "incC", "incI", "twice", "half", "neg", "setAll",
                        "mix"}) {
    methods.push_back(std::string("p.Prims#") + m);
  }
  Observed o = Observe(classes, "p.PrimsTest", methods);
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  ASSERT_EQ(o.observations.size(), 12u) << o.Output();

  auto one = [&](const std::string& name) {
    auto all = Of(o, name);
    EXPECT_EQ(all.size(), 1u) << name;
    return all.empty() ? v1::Observation() : all[0];
  };
  EXPECT_TRUE(one("flip").args(0).bool_value());
  EXPECT_FALSE(one("flip").outcome().returned().bool_value());
  EXPECT_TRUE(one("flip").outcome().returned().has_bool_value());
  EXPECT_EQ(one("incB").args(0).byte_value(), 127);
  EXPECT_EQ(one("incB").outcome().returned().byte_value(), -128);
  EXPECT_EQ(one("incS").outcome().returned().short_value(), -32767);
  EXPECT_EQ(one("incC").args(0).char_value(), 0xffff);
  EXPECT_EQ(one("incC").outcome().returned().char_value(), 0);
  EXPECT_EQ(one("incI").outcome().returned().int_value(), INT32_MIN);
  EXPECT_EQ(one("twice").args(0).long_value(), INT64_MIN + 1);
  EXPECT_EQ(one("twice").outcome().returned().long_value(), 2);

  auto halves = Of(o, "half");
  ASSERT_EQ(halves.size(), 2u);
  EXPECT_TRUE(std::isnan(halves[0].args(0).float_value()));
  EXPECT_TRUE(std::isnan(halves[0].outcome().returned().float_value()));
  EXPECT_TRUE(std::signbit(halves[1].outcome().returned().float_value()));
  EXPECT_EQ(halves[1].outcome().returned().float_value(), 0.0f);
  auto negs = Of(o, "neg");
  ASSERT_EQ(negs.size(), 2u);
  EXPECT_TRUE(std::signbit(negs[0].outcome().returned().double_value()));
  EXPECT_TRUE(std::isnan(negs[1].outcome().returned().double_value()));

  v1::Observation set = one("setAll");
  EXPECT_FALSE(set.method().is_static());
  EXPECT_THAT(std::vector<std::string>(set.method().param_names().begin(),
                                       set.method().param_names().end()),
              ::testing::ElementsAre("arg0", "arg1", "arg2", "arg3", "arg4", "arg5", "arg6",
                                     "arg7"));
  ASSERT_EQ(set.args_size(), 8);
  EXPECT_EQ(set.args(5).long_value(), int64_t{1} << 40);
  EXPECT_EQ(set.args(7).double_value(), -2.25);
  const v1::ObjectState* before = State(set.pre(), set.receiver().ref());
  const v1::ObjectState* after = State(set.post(), set.receiver().ref());
  ASSERT_NE(after, nullptr);
  EXPECT_EQ(FieldOf(before, "i")->int_value(), 0);
  EXPECT_TRUE(FieldOf(after, "z")->bool_value());
  EXPECT_EQ(FieldOf(after, "b")->byte_value(), -1);
  EXPECT_EQ(FieldOf(after, "s")->short_value(), 300);
  EXPECT_EQ(FieldOf(after, "c")->char_value(), 'x');
  EXPECT_EQ(FieldOf(after, "i")->int_value(), -7);
  EXPECT_EQ(FieldOf(after, "j")->long_value(), int64_t{1} << 40);
  EXPECT_EQ(FieldOf(after, "f")->float_value(), 1.5f);
  EXPECT_EQ(FieldOf(after, "d")->double_value(), -2.25);
  EXPECT_EQ(FieldOf(after, "d")->kind_case(), v1::Value::kDoubleValue);

  v1::Observation mix = one("mix");
  EXPECT_EQ(mix.args(0).int_value(), 1);
  EXPECT_EQ(mix.args(1).long_value(), 2);
  EXPECT_EQ(mix.args(2).float_value(), 3.5f);
  EXPECT_EQ(mix.args(3).double_value(), 4.25);
  EXPECT_EQ(mix.args(4).char_value(), 'a');
  EXPECT_EQ(mix.outcome().returned().double_value(), 1 + 2 + 3.5 + 4.25 + 97);
  for (const v1::Observation& obs : o.observations) {
    EXPECT_EQ(obs.test_id(), "p.PrimsTest#values");
    EXPECT_EQ(obs.format_version(), v1::FORMAT_VERSION_1);
  }
}

// --- Arrays, nested objects and strings, with a policy's limits. ----------

constexpr char kShapes[] = R"(package p;
public class Shapes {
  public static int sum(int[] a) { int s = 0; for (int x : a) s += x; a[0] = s; return s; }
  public static int length(Node n) { int k = 0; while (n != null) { k++; n = n.next; } return k; }
  public static String greet(String name) { return "hello " + name; }
  public static int count(Object[] items) { return items.length; }
  public static long[] copy(long[] a) { return a.clone(); }
}
)";
constexpr char kNode[] = R"(package p;
public class Node {
  public int value; public Node next;
  public Node(int value, Node next) { this.value = value; this.next = next; }
}
)";
constexpr char kShapesTest[] = R"(package p;
import org.junit.jupiter.api.Test;
class ShapesTest {
  @Test void all() {
    Shapes.sum(new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    Shapes.length(new Node(1, new Node(2, new Node(3, new Node(4, null)))));
    Shapes.greet("w\u00f6rld\ud83d\ude42x");
    Shapes.count(new Object[] {"a", new Node(9, null), null, new StringBuilder("x")});
    Shapes.copy(new long[] {5L, 6L});
  }
}
)";

TEST_F(ObserveTest, ArraysNestedObjectsAndStringsFollowThePolicyLimits) {
  std::string classes = Compile(
      {{"p/Shapes.java", kShapes}, {"p/Node.java", kNode}, {"p/ShapesTest.java", kShapesTest}});
  std::string policy = WritePolicy(R"(format_version: FORMAT_VERSION_1
record { class_pattern: "p.*" }
max_depth: 2
max_array_length: 4
max_string_length: 7
)");
  Observed o = Observe(classes, "p.ShapesTest",
                       {"p.Shapes#sum", "p.Shapes#length", "p.Shapes#greet", "p.Shapes#count",
                        "p.Shapes#copy"},
                       {"--policy", policy});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();

  v1::Observation sum = Of(o, "sum").at(0);
  EXPECT_EQ(sum.method().param_names(0), "a");
  const v1::ObjectState* array = State(sum.pre(), sum.args(0).ref());
  ASSERT_NE(array, nullptr);
  EXPECT_EQ(array->class_name(), "[I");
  EXPECT_EQ(array->array().element_descriptor(), "I");
  EXPECT_EQ(array->array().length(), 10);
  ASSERT_EQ(array->array().elements_size(), 4);  // Capped.
  EXPECT_EQ(array->array().elements(3).int_value(), 4);
  const v1::ObjectState* array_after = State(sum.post(), sum.args(0).ref());
  ASSERT_NE(array_after, nullptr);
  EXPECT_EQ(array_after->array().elements(0).int_value(), 55);
  EXPECT_EQ(sum.outcome().returned().int_value(), 55);

  v1::Observation length = Of(o, "length").at(0);
  const v1::ObjectState* n1 = State(length.pre(), length.args(0).ref());
  ASSERT_NE(n1, nullptr);
  EXPECT_FALSE(n1->truncated());
  const v1::ObjectState* n2 = State(length.pre(), FieldOf(n1, "next")->ref());
  ASSERT_NE(n2, nullptr);
  EXPECT_FALSE(n2->truncated());
  EXPECT_EQ(FieldOf(n2, "value")->int_value(), 2);
  const v1::ObjectState* n3 = State(length.pre(), FieldOf(n2, "next")->ref());
  ASSERT_NE(n3, nullptr);
  EXPECT_TRUE(n3->truncated());  // Two hops from the argument.
  EXPECT_EQ(n3->fields_size(), 0);
  EXPECT_EQ(n3->class_name(), "p.Node");
  EXPECT_EQ(length.pre_size(), 3);

  v1::Observation greet = Of(o, "greet").at(0);
  EXPECT_EQ(greet.args(0).string_value(), "w\xc3\xb6rld\xf0\x9f\x99\x82");  // Cut to 7 units.
  EXPECT_EQ(greet.outcome().returned().string_value(), "hello w");

  v1::Observation count = Of(o, "count").at(0);
  const v1::ObjectState* items = State(count.pre(), count.args(0).ref());
  ASSERT_NE(items, nullptr);
  EXPECT_EQ(items->array().element_descriptor(), "Ljava/lang/Object;");
  ASSERT_EQ(items->array().elements_size(), 4);
  EXPECT_EQ(items->array().elements(0).string_value(), "a");
  const v1::ObjectState* node = State(count.pre(), items->array().elements(1).ref());
  ASSERT_NE(node, nullptr);
  EXPECT_EQ(FieldOf(node, "value")->int_value(), 9);
  EXPECT_TRUE(items->array().elements(2).has_null_value());
  // Not in the record list ("p.*"): identity and class only.
  const v1::ObjectState* builder = State(count.pre(), items->array().elements(3).ref());
  ASSERT_NE(builder, nullptr);
  EXPECT_EQ(builder->class_name(), "java.lang.StringBuilder");
  EXPECT_TRUE(builder->truncated());
  EXPECT_EQ(builder->fields_size(), 0);

  v1::Observation copy = Of(o, "copy").at(0);
  ASSERT_TRUE(copy.outcome().returned().has_ref());
  EXPECT_NE(copy.outcome().returned().ref(), copy.args(0).ref());
  const v1::ObjectState* copied = State(copy.post(), copy.outcome().returned().ref());
  ASSERT_NE(copied, nullptr);
  EXPECT_EQ(copied->array().elements(1).long_value(), 6);
}

// --- Exceptions through and inside the target. ------------------------------

constexpr char kEx[] = R"(package p;
public class Ex {
  public static int divide(int a, int b) { return a / b; }
  public static int viaHelper(int x) { return helper(x); }
  static int helper(int x) {
    if (x < 0) throw new IllegalStateException("negative: " + x);
    return x;
  }
  public static int caught(int x) {
    try { return helper(x); } catch (IllegalStateException e) { return -1; }
  }
}
)";
constexpr char kExTest[] = R"(package p;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class ExTest {
  @Test void exceptions() {
    assertThrows(ArithmeticException.class, () -> Ex.divide(1, 0));
    assertThrows(IllegalStateException.class, () -> Ex.viaHelper(-5));
    assertEquals(-1, Ex.caught(-5));
    assertEquals(3, Ex.viaHelper(3));
  }
}
)";

TEST_F(ObserveTest, ExceptionsPropagatingAndCaught) {
  std::string classes = Compile({{"p/Ex.java", kEx}, {"p/ExTest.java", kExTest}});
  std::string policy = WritePolicy(R"(format_version: FORMAT_VERSION_1
record { class_pattern: "*" }
keep_exception_messages: true
)");
  Observed o = Observe(classes, "p.ExTest", {"p.Ex#divide", "p.Ex#viaHelper", "p.Ex#caught"},
                       {"--policy", policy});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  v1::Observation divide = Of(o, "divide").at(0);
  ASSERT_TRUE(divide.outcome().has_thrown());
  EXPECT_EQ(divide.outcome().thrown().class_name(), "java.lang.ArithmeticException");
  EXPECT_EQ(divide.outcome().thrown().message(), "/ by zero");
  auto via = Of(o, "viaHelper");
  ASSERT_EQ(via.size(), 2u);
  EXPECT_EQ(via[0].outcome().thrown().class_name(), "java.lang.IllegalStateException");
  EXPECT_TRUE(via[0].outcome().thrown().has_message());
  EXPECT_EQ(via[0].outcome().thrown().message(), "negative: -5");
  EXPECT_EQ(via[1].outcome().returned().int_value(), 3);
  v1::Observation caught = Of(o, "caught").at(0);
  EXPECT_EQ(caught.outcome().returned().int_value(), -1);
  EXPECT_EQ(o.summary.methods_size(), 3);
}

// --- Recursion, overloads, constructors, instance and interface methods. ---

constexpr char kCalc[] = R"(package p;
public class Calc {
  private int calls;
  public Calc() {}
  public Calc(int start) {
    if (start < 0) throw new IllegalArgumentException("start");
    calls = start;
  }
  public static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
  public int f(int x) { calls++; return x + 1; }
  public long f(long x) { calls++; return x + 2; }
  public String f(String x) { calls++; return x + "!"; }
}
)";
constexpr char kChain[] = R"(package p;
public class Chain {
  private final int n; private final Chain next;
  public Chain(int n) { this.next = n > 0 ? new Chain(n - 1) : null; this.n = n; }
}
)";
constexpr char kShape[] = R"(package p;
public interface Shape {
  double area();
  default double scaled(double k) { return area() * k; }
}
)";
constexpr char kSquare[] = R"(package p;
public class Square implements Shape {
  private final double side;
  public Square(double side) { this.side = side; }
  public double area() { return side * side; }
}
)";
constexpr char kCalcTest[] = R"(package p;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class CalcTest {
  @Test void everything() {
    assertEquals(24, Calc.fact(4));
    Calc c = new Calc(5);
    c.f(1);
    c.f(2L);
    c.f("a");
    assertThrows(IllegalArgumentException.class, () -> new Calc(-1));
    new Calc();
    new Chain(2);
    assertEquals(12.0, new Square(2).scaled(3));
  }
}
)";

TEST_F(ObserveTest, RecursionOverloadsConstructorsAndInterfaceMethods) {
  std::string classes = Compile({{"p/Calc.java", kCalc},
                                 {"p/Chain.java", kChain},
                                 {"p/Shape.java", kShape},
                                 {"p/Square.java", kSquare},
                                 {"p/CalcTest.java", kCalcTest}});
  // "p.Calc#fact" twice: the method is instrumented once.
  Observed o = Observe(classes, "p.CalcTest",
                       {"p.Calc#fact", "p.Calc#f(J)J", "p.Calc#<init>(I)V", "p.Chain#<init>",
                        "p.Shape#scaled", "p.Calc#fact(I)I"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();

  auto fact = Of(o, "fact");
  ASSERT_EQ(fact.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(fact[i].recursion_depth(), static_cast<int>(i));
    EXPECT_EQ(fact[i].args(0).int_value(), 4 - static_cast<int>(i));
    EXPECT_TRUE(fact[i].method().is_static());
    EXPECT_FALSE(fact[i].has_receiver());
  }
  EXPECT_EQ(fact[0].outcome().returned().int_value(), 24);
  EXPECT_EQ(fact[3].outcome().returned().int_value(), 1);

  auto f = Of(o, "f");
  ASSERT_EQ(f.size(), 1u);  // Only the (J)J overload.
  EXPECT_EQ(f[0].method().jvm_descriptor(), "(J)J");
  EXPECT_EQ(f[0].args(0).long_value(), 2);
  EXPECT_EQ(f[0].outcome().returned().long_value(), 4);
  EXPECT_EQ(FieldOf(State(f[0].pre(), f[0].receiver().ref()), "calls")->int_value(), 6);
  EXPECT_EQ(FieldOf(State(f[0].post(), f[0].receiver().ref()), "calls")->int_value(), 7);

  std::vector<v1::Observation> ctors, chain;
  for (const v1::Observation& obs : Of(o, "<init>")) {
    (obs.method().class_name() == "p.Calc" ? ctors : chain).push_back(obs);
  }
  ASSERT_EQ(ctors.size(), 2u);  // Calc(5) and Calc(-1); not Calc().
  EXPECT_EQ(ctors[0].pre_size(), 0);
  ASSERT_TRUE(ctors[0].has_receiver());
  EXPECT_EQ(ctors[0].receiver().ref(), f[0].receiver().ref());  // Same object, same id.
  EXPECT_EQ(FieldOf(State(ctors[0].post(), ctors[0].receiver().ref()), "calls")->int_value(), 5);
  EXPECT_TRUE(ctors[0].outcome().has_returned_void());
  EXPECT_EQ(ctors[1].outcome().thrown().class_name(), "java.lang.IllegalArgumentException");
  EXPECT_FALSE(ctors[1].outcome().thrown().has_message());  // The default policy drops it.

  ASSERT_EQ(chain.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(chain[i].recursion_depth(), static_cast<int>(i));
    EXPECT_EQ(chain[i].args(0).int_value(), 2 - static_cast<int>(i));
    const v1::ObjectState* made = State(chain[i].post(), chain[i].receiver().ref());
    ASSERT_NE(made, nullptr);
    EXPECT_EQ(FieldOf(made, "n")->int_value(), 2 - static_cast<int>(i));
  }

  v1::Observation scaled = Of(o, "scaled").at(0);
  EXPECT_EQ(scaled.method().class_name(), "p.Shape");
  EXPECT_EQ(scaled.args(0).double_value(), 3.0);
  EXPECT_EQ(scaled.outcome().returned().double_value(), 12.0);
  const v1::ObjectState* square = State(scaled.pre(), scaled.receiver().ref());
  ASSERT_NE(square, nullptr);
  EXPECT_EQ(square->class_name(), "p.Square");
  EXPECT_EQ(FieldOf(square, "side")->double_value(), 2.0);
}

// --- Several threads. --------------------------------------------------------

constexpr char kCounter[] = R"(package p;
public class Counter {
  private int n;
  public synchronized int inc(int by) { n += by; return n; }
}
)";
constexpr char kThreadsTest[] = R"(package p;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class ThreadsTest {
  @Test void fourThreads() throws Exception {
    Counter c = new Counter();
    Thread[] threads = new Thread[4];
    for (int t = 0; t < 4; t++) {
      threads[t] = new Thread(() -> { for (int k = 0; k < 100; k++) c.inc(1); }, "worker-" + t);
      threads[t].start();
    }
    for (Thread t : threads) t.join();
    assertEquals(401, c.inc(1));
  }
}
)";

TEST_F(ObserveTest, CallsFromSeveralThreads) {
  std::string classes =
      Compile({{"p/Counter.java", kCounter}, {"p/ThreadsTest.java", kThreadsTest}});
  Observed o = Observe(classes, "p.ThreadsTest", {"p.Counter#inc"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  ASSERT_EQ(o.observations.size(), 401u);
  std::set<std::string> threads;
  std::set<int> results;
  std::set<uint64_t> sequences;
  for (const v1::Observation& obs : o.observations) {
    threads.insert(obs.thread());
    results.insert(obs.outcome().returned().int_value());
    sequences.insert(obs.sequence());
    EXPECT_EQ(obs.test_id(), "p.ThreadsTest#fourThreads");
    // Synchronized: the pre-state is read under the lock.
    int before = FieldOf(State(obs.pre(), obs.receiver().ref()), "n")->int_value();
    EXPECT_EQ(before + 1, obs.outcome().returned().int_value());
  }
  EXPECT_EQ(threads, (std::set<std::string>{"main", "worker-0", "worker-1", "worker-2",
                                            "worker-3"}));
  EXPECT_EQ(results.size(), 401u);
  EXPECT_EQ(sequences.size(), 401u);
  for (size_t i = 1; i < o.observations.size(); ++i) {
    EXPECT_LT(o.observations[i - 1].sequence(), o.observations[i].sequence());
  }
}

// --- Redaction: the secret never reaches any file. -------------------------

constexpr char kSecret[] = "S3CR3T-VALUE-42";
constexpr char kVault[] = R"(package p;
public class Vault {
  private final String owner;
  private final String secretCode;
  private int opens;
  public Vault(String owner, String secretCode) { this.owner = owner; this.secretCode = secretCode; }
  public boolean open(String password) { opens++; return password.equals(secretCode); }
  public String getToken() { return "tok-" + secretCode; }
  public void fail() { throw new IllegalStateException("bad code " + secretCode); }
  public int inspect(Creds creds) { return creds.user.length(); }
}
)";
constexpr char kCreds[] = R"(package p;
public class Creds {
  public String user; public String apiKey;
  public Creds(String user, String apiKey) { this.user = user; this.apiKey = apiKey; }
}
)";
constexpr char kVaultTest[] = R"(package p;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class VaultTest {
  static final String CODE = "S3CR3T-" + "VALUE-42";
  @Test void vault() {
    Vault v = new Vault("ann", CODE);
    assertTrue(v.open(CODE));
    assertEquals(18, v.getToken().length() - 1);
    assertThrows(IllegalStateException.class, v::fail);
    assertEquals(3, v.inspect(new Creds("ann", CODE)));
  }
}
)";

class RedactionTest : public ObserveTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(RedactionTest, SecretValueIsAbsentFromEveryOutputByte) {
  std::string mode = GetParam();
  std::string classes = Compile(
      {{"p/Vault.java", kVault}, {"p/Creds.java", kCreds}, {"p/VaultTest.java", kVaultTest}});
  std::string policy = WritePolicy(std::string(R"(format_version: FORMAT_VERSION_1
record { class_pattern: "*" }
deny: "*secret*"
deny: "*password*"
deny: "*token*"
deny: "*key*"
keep_exception_messages: false
redaction: )") + mode + "\n");
  // The redaction modes themselves, without noninterference; with it (the
  // default), checked below.
  Observed o = Observe(classes, "p.VaultTest",
                       {"p.Vault#<init>", "p.Vault#open", "p.Vault#getToken", "p.Vault#fail",
                        "p.Vault#inspect"},
                       {"--policy", policy, "--no-noninterference"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  ASSERT_EQ(o.observations.size(), 5u);
  std::string everything = testing::ReadTree(o.out);
  EXPECT_THAT(everything, Not(HasSubstr(kSecret)));
  EXPECT_THAT(everything, Not(HasSubstr("S3CR3T")));
  EXPECT_THAT(o.Output(), Not(HasSubstr("S3CR3T")));

  v1::Observation ctor = Of(o, "<init>").at(0);
  EXPECT_EQ(ctor.args(0).string_value(), "ann");
  EXPECT_TRUE(ctor.args(1).has_redacted());  // Parameter `secretCode`.
  v1::Observation open = Of(o, "open").at(0);
  EXPECT_TRUE(open.args(0).has_redacted());  // Parameter `password`.
  EXPECT_TRUE(Of(o, "getToken").at(0).outcome().returned().has_redacted());
  EXPECT_FALSE(Of(o, "fail").at(0).outcome().thrown().has_message());
  const v1::ObjectState* vault = State(open.post(), open.receiver().ref());
  ASSERT_NE(vault, nullptr);
  EXPECT_EQ(FieldOf(vault, "opens")->int_value(), 1);
  EXPECT_EQ(FieldOf(vault, "owner")->string_value(), "ann");
  v1::Observation inspect = Of(o, "inspect").at(0);
  const v1::ObjectState* creds = State(inspect.pre(), inspect.args(0).ref());
  ASSERT_NE(creds, nullptr);
  EXPECT_EQ(FieldOf(creds, "user")->string_value(), "ann");
  if (mode == "MARK") {
    ASSERT_NE(FieldOf(vault, "secretCode"), nullptr);
    EXPECT_TRUE(FieldOf(vault, "secretCode")->has_redacted());
    EXPECT_TRUE(FieldOf(creds, "apiKey")->has_redacted());
  } else {
    EXPECT_EQ(FieldOf(vault, "secretCode"), nullptr);
    EXPECT_EQ(FieldOf(creds, "apiKey"), nullptr);
  }
  std::set<std::string> withheld;
  for (const v1::RedactionCount& r : o.summary.redactions()) withheld.insert(r.what());
  EXPECT_TRUE(withheld.count("p.Vault.secretCode")) << o.Output();
  EXPECT_TRUE(withheld.count("p.Creds.apiKey")) << o.Output();
  // Last: it writes the same output directory.
  {
    Observed ni = Observe(classes, "p.VaultTest",
                          {"p.Vault#<init>", "p.Vault#open", "p.Vault#getToken", "p.Vault#fail",
                           "p.Vault#inspect"},
                          {"--policy", policy});
    ASSERT_EQ(ni.run.exit_code, 0) << ni.Output();
    // CODE, the test's constant, is the denied value the probe read: the
    // substituted runs substitute it where it loads, so `open(CODE)` holds
    // there too and the test's calls are the same (before, the field alone
    // was substituted, `open` was false, the test stopped early and every
    // value of it was withheld).
    EXPECT_THAT(ni.Output(), HasSubstr("among them 1 constant equal to a denied value"));
    EXPECT_THAT(ni.Output(), Not(HasSubstr("its calls differed between the runs")));
    EXPECT_THAT(testing::ReadTree(ni.out), Not(HasSubstr("S3CR3T")));
    ASSERT_EQ(ni.observations.size(), 5u);
    v1::Observation ctor_ni = Of(ni, "<init>").at(0);
    EXPECT_EQ(ctor_ni.args(0).string_value(), "ann");
    EXPECT_TRUE(ctor_ni.args(1).has_redacted());
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, RedactionTest, ::testing::Values("MARK", "OMIT"));

// --- Taint: a denied value copied elsewhere is redacted wherever it is. -------

constexpr char kLedger[] = R"(package t;
import java.util.*;
public class Ledger {
  private final String secretToken;
  private final int pin;
  public String label = "none";
  public Object[] slots = new Object[2];
  public List<String> notes = new ArrayList<>();
  public int entries;
  public Ledger(String secretToken, int pin) { this.secretToken = secretToken; this.pin = pin; }
  public void publish() { label = "lbl:" + secretToken; slots[0] = secretToken; notes.add(secretToken); entries++; }
  public int code() { return pin; }
  public int size() { return notes.size(); }
  public void explode() { throw new IllegalStateException("bad " + secretToken); }
}
)";
constexpr char kRelay[] = R"(package t;
public class Relay { public static int pass(String s) { return s.length(); } }
)";
constexpr char kLedgerTest[] = R"(package t;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class LedgerTest {
  static String make() { return "TK-" + "zq81" + "-PLUM"; }
  @Test void copies() {
    assertEquals(12, Relay.pass(make()));
    Ledger l = new Ledger(make(), 73000 + 915);
    l.publish();
    assertEquals(1, l.size());
    assertEquals(73915, l.code());
    assertThrows(IllegalStateException.class, l::explode);
    assertEquals(5, Relay.pass("plain"));
  }
}
)";

TEST_F(ObserveTest, ValuesCopiedFromDeniedFieldsAreRedactedEverywhere) {
  std::string classes = Compile({{"t/Ledger.java", kLedger},
                                 {"t/Relay.java", kRelay},
                                 {"t/LedgerTest.java", kLedgerTest}});
  std::string policy = WritePolicy(R"(format_version: FORMAT_VERSION_1
record { class_pattern: "*" }
deny: "*secret*"
deny: "pin"
keep_exception_messages: true
redaction: MARK
)");
  Observed o = Observe(classes, "t.LedgerTest",
                       {"t.Relay#pass", "t.Ledger#publish", "t.Ledger#code", "t.Ledger#size",
                        "t.Ledger#explode"},
                       // The taint rule alone: with noninterference (the default) the
                       // test, which asserts the pin, fails in the substituted run and
                       // every value of it is withheld.
                       {"--policy", policy, "--no-noninterference"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  ASSERT_EQ(o.observations.size(), 6u);
  std::string everything = testing::ReadTree(o.out) + o.Output();
  EXPECT_THAT(everything, Not(HasSubstr("zq81")));
  EXPECT_THAT(everything, Not(HasSubstr("73915")));

  // The call before any denied field was seen is scrubbed at the end of the run.
  std::vector<v1::Observation> pass = Of(o, "pass");
  ASSERT_EQ(pass.size(), 2u);
  EXPECT_TRUE(pass[0].args(0).has_redacted());
  EXPECT_EQ(pass[0].outcome().returned().int_value(), 12);
  EXPECT_EQ(pass[1].args(0).string_value(), "plain");  // No blanket redaction.

  v1::Observation publish = Of(o, "publish").at(0);
  const v1::ObjectState* ledger = State(publish.post(), publish.receiver().ref());
  ASSERT_NE(ledger, nullptr);
  EXPECT_TRUE(FieldOf(ledger, "label")->has_redacted());
  EXPECT_EQ(FieldOf(ledger, "entries")->int_value(), 1);
  EXPECT_TRUE(FieldOf(ledger, "pin")->has_redacted());
  const v1::ObjectState* slots = State(publish.post(), FieldOf(ledger, "slots")->ref());
  ASSERT_NE(slots, nullptr);
  ASSERT_EQ(slots->array().elements_size(), 2);
  EXPECT_TRUE(slots->array().elements(0).has_redacted());
  EXPECT_TRUE(slots->array().elements(1).has_null_value());
  const v1::ObjectState* pre = State(publish.pre(), publish.receiver().ref());
  EXPECT_EQ(FieldOf(pre, "label")->string_value(), "none");
  const v1::ObjectState* list = State(publish.post(), FieldOf(ledger, "notes")->ref());
  ASSERT_NE(list, nullptr);
  const v1::ObjectState* data = State(publish.post(), FieldOf(list, "elementData")->ref());
  ASSERT_NE(data, nullptr);
  EXPECT_TRUE(data->array().elements(0).has_redacted());

  EXPECT_EQ(Of(o, "size").at(0).outcome().returned().int_value(), 1);
  EXPECT_TRUE(Of(o, "code").at(0).outcome().returned().has_redacted());
  v1::Observation explode = Of(o, "explode").at(0);
  EXPECT_EQ(explode.outcome().thrown().class_name(), "java.lang.IllegalStateException");
  EXPECT_FALSE(explode.outcome().thrown().has_message());
  EXPECT_GE(o.summary.tainted_values(), 6);
  EXPECT_THAT(o.run.stdout_data, HasSubstr("holding a value of a denied location (taint): "));
}

constexpr char kGate[] = R"(package t;
public class Gate {
  public boolean login(String password) { return password.length() > 3; }
}
)";
constexpr char kGateTest[] = R"(package t;
import org.junit.jupiter.api.Test;
class GateTest { @Test void login() { new Gate().login("hunter22"); } }
)";

TEST_F(ObserveTest, ClassesWithoutParameterNamesAreReportedOncePerClass) {
  std::string classes =
      Compile({{"t/Gate.java", kGate}, {"t/GateTest.java", kGateTest}}, {"-g:none"});
  Observed o = Observe(classes, "t.GateTest", {"t.Gate#login"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  ASSERT_EQ(o.observations.size(), 1u);
  EXPECT_TRUE(o.observations[0].method().param_names_unknown());
  EXPECT_THAT(o.run.stderr_data,
              HasSubstr("compiled without -g: name rules cannot apply to arguments of t.Gate"));
  ASSERT_EQ(o.summary.classes_without_parameter_names_size(), 1);
  EXPECT_EQ(o.summary.classes_without_parameter_names(0), "t.Gate");

  classes = Compile({{"t/Gate.java", kGate}, {"t/GateTest.java", kGateTest}}, {"-g"});
  o = Observe(classes, "t.GateTest", {"t.Gate#login"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  EXPECT_FALSE(o.observations.at(0).method().param_names_unknown());
  EXPECT_TRUE(o.observations.at(0).args(0).has_redacted());
  EXPECT_THAT(o.run.stderr_data, Not(HasSubstr("compiled without -g")));
}

// --- Excluded tests. -----------------------------------------------------------

constexpr char kEcho[] = R"(package p;
public class Echo { public static String echo(String s) { return s; } }
)";
constexpr char kExclTest[] = R"(package p;
import org.junit.jupiter.api.Test;
class ExclTest {
  @Test void plain() { Echo.echo("hello"); }
  @Test void sourceMentions() {
    // The password of the day is irrelevant here.
    Echo.echo("x");
  }
  @Test void dataMentions() { Echo.echo(build()); }
  private static String build() { return "my-" + "tok" + "en-value"; }
}
)";

TEST_F(ObserveTest, TestsMentioningSensitiveNamesAreExcluded) {
  std::string classes = Compile({{"p/Echo.java", kEcho}, {"p/ExclTest.java", kExclTest}});
  Observed o = Observe(classes, "p.ExclTest", {"p.Echo#echo"},
                       {"--tests-src", dir_.path() + "/src"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  ASSERT_EQ(o.observations.size(), 3u);
  std::map<std::string, v1::Observation> by_test;
  for (const v1::Observation& obs : o.observations) by_test[obs.test_id()] = obs;
  EXPECT_FALSE(by_test["p.ExclTest#plain"].excluded());
  EXPECT_TRUE(by_test["p.ExclTest#sourceMentions"].excluded());
  EXPECT_THAT(by_test["p.ExclTest#sourceMentions"].excluded_reason(),
              HasSubstr("source mentions \"password\" (p/ExclTest.java:6)"));
  EXPECT_TRUE(by_test["p.ExclTest#dataMentions"].excluded());
  EXPECT_THAT(by_test["p.ExclTest#dataMentions"].excluded_reason(),
              HasSubstr("recorded data mentions \"token\""));
  EXPECT_EQ(o.summary.tests_excluded(), 2);
  EXPECT_THAT(o.run.stdout_data, HasSubstr("excluded tests (never sent anywhere): 2"));
}

// No false alarms from name rules on ordinary code: a pattern ("*key*")
// withholds values that can hold a secret (the String `apiKey`, the long
// `secretSeed`), not the `int key` of a search, an int-returning
// `tokenize`, an int `keyCount` or the JDK's own HashMap fields; a
// sensitive name excludes a test that mentions it as a word
// (`accessToken`), not one that calls `tokenize` or `keySet()`.
constexpr char kLookup[] = R"(package n;
public class Lookup {
  private final String apiKey;
  private final long secretSeed;
  private int keyCount;
  public Lookup(String apiKey, long secretSeed) { this.apiKey = apiKey; this.secretSeed = secretSeed; }
  public static int find(int[] a, int key) {
    for (int i = 0; i < a.length; i++) if (a[i] == key) return i;
    return -1;
  }
  public int tokenize(String s) { keyCount++; return s.trim().isEmpty() ? 0 : s.trim().split(" +").length; }
  public int countKeys(java.util.Map<String, Integer> m) { return m.keySet().size(); }
}
)";
constexpr char kLookupTest[] = R"(package n;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class LookupTest {
  @Test void finds() { assertEquals(1, Lookup.find(new int[] {4, 7, 9}, 7)); }
  @Test void words() { assertEquals(2, new Lookup("k-1", 99L).tokenize("ab cd")); }
  @Test void keys() {
    java.util.Map<String, Integer> m = new java.util.HashMap<>();
    m.put("alpha", 1);
    assertEquals(1, m.keySet().size());
    assertEquals(1, new Lookup("k-2", 98L).countKeys(m));
  }
  @Test void session() {
    String accessToken = "k-3";
    assertEquals(1, new Lookup(accessToken, 97L).tokenize("x"));
  }
}
)";

TEST_F(ObserveTest, NameRulesWithholdOnlyWhatCanHoldASecret) {
  std::string classes = Compile({{"n/Lookup.java", kLookup}, {"n/LookupTest.java", kLookupTest}});
  Observed o = Observe(classes, "n.LookupTest",
                       {"n.Lookup#<init>", "n.Lookup#find", "n.Lookup#tokenize", "n.Lookup#countKeys"},
                       {"--tests-src", dir_.path() + "/src"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  std::map<std::string, std::vector<v1::Observation>> by_test;
  for (const v1::Observation& obs : o.observations) by_test[obs.test_id()].push_back(obs);

  v1::Observation find = Of(o, "find").at(0);
  EXPECT_EQ(find.args(1).int_value(), 7);  // `int key`
  EXPECT_FALSE(find.excluded());
  for (const v1::Observation& t : Of(o, "tokenize")) {
    EXPECT_TRUE(t.outcome().returned().has_int_value()) << t.test_id();
  }
  v1::Observation ctor = Of(o, "<init>").at(0);
  EXPECT_TRUE(ctor.args(0).has_redacted());  // String apiKey
  EXPECT_TRUE(ctor.args(1).has_redacted());  // long secretSeed
  v1::Observation words = by_test["n.LookupTest#words"].back();
  const v1::ObjectState* lookup = State(words.post(), words.receiver().ref());
  ASSERT_NE(lookup, nullptr);
  EXPECT_EQ(FieldOf(lookup, "keyCount")->int_value(), 1);
  EXPECT_TRUE(FieldOf(lookup, "apiKey")->has_redacted());
  EXPECT_TRUE(FieldOf(lookup, "secretSeed")->has_redacted());
  v1::Observation keys = Of(o, "countKeys").at(0);
  EXPECT_EQ(keys.outcome().returned().int_value(), 1);
  std::string everything = testing::ReadTree(o.out);
  EXPECT_THAT(everything, HasSubstr("\"alpha\""));  // the map's key, recorded
  EXPECT_THAT(everything, Not(HasSubstr("k-1")));

  EXPECT_FALSE(by_test["n.LookupTest#words"].front().excluded());
  EXPECT_FALSE(by_test["n.LookupTest#keys"].front().excluded());
  EXPECT_TRUE(by_test["n.LookupTest#session"].front().excluded());
  EXPECT_THAT(by_test["n.LookupTest#session"].front().excluded_reason(),
              HasSubstr("source mentions \"token\" (n/LookupTest.java:14)"));
  EXPECT_EQ(o.summary.tests_excluded(), 1);
}

// Name rules that look at more than a name (issue 26, item 5): a deny
// pattern matches whole words (`secretaryName` is not a secret, the
// all-lower-case `apikey` still is), not a name for a fact about the secret
// (`tokenExpiry`) — but a `String key` alone, lookup key or key material,
// is withheld unless the tests spell its value (the name cannot tell them
// apart); a test is
// excluded for what it does with a sensitive name (a String named for a
// token), not for reading an int `tokens` or calling `tokenExpiry`.
constexpr char kDesk[] = R"(package w;
public class Desk {
  public String secretaryName = "";
  public String apikey;
  public int tokens;
  public Desk(int tokens, String apikey) { this.tokens = tokens; this.apikey = apikey; }
  public void assign(String name) { secretaryName = name; }
  public static String lookup(String key) { return key.equals("timeout") ? "30" : ""; }
  public static long tokenExpiry(long issuedAt, int ttl) { return issuedAt + ttl; }
}
)";
constexpr char kDeskTest[] = R"(package w;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class DeskTest {
  @Test void assigns() {
    Desk d = new Desk(5, "zq-4471");
    d.assign("Ines Mora");
    assertEquals(5, d.tokens);
  }
  @Test void looksUp() { assertEquals("30", Desk.lookup("timeout")); }
  @Test void expires() { assertEquals(1700003600L, Desk.tokenExpiry(1700000000L, 3600)); }
  @Test void holdsAToken() {
    String sessionToken = "s-1";
    Desk.lookup(sessionToken);
  }
}
)";

TEST_F(ObserveTest, NameRulesReadWordsTypesAndWhatATestDoes) {
  std::string classes = Compile({{"w/Desk.java", kDesk}, {"w/DeskTest.java", kDeskTest}});
  Observed o = Observe(classes, "w.DeskTest", {"w.Desk#assign", "w.Desk#lookup", "w.Desk#tokenExpiry"},
                       {"--tests-src", dir_.path() + "/src"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  std::map<std::string, v1::Observation> by_test;
  for (const v1::Observation& obs : o.observations) by_test[obs.test_id()] = obs;

  v1::Observation assign = by_test["w.DeskTest#assigns"];
  const v1::ObjectState* desk = State(assign.post(), assign.receiver().ref());
  ASSERT_NE(desk, nullptr);
  EXPECT_EQ(FieldOf(desk, "secretaryName")->string_value(), "Ines Mora");
  EXPECT_TRUE(FieldOf(desk, "apikey")->has_redacted());
  EXPECT_EQ(FieldOf(desk, "tokens")->int_value(), 5);
  // A String named `key` the test passes as a literal: the tests disclose
  // it (withheld otherwise: noninterference_test.cpp).
  EXPECT_EQ(by_test["w.DeskTest#looksUp"].args(0).string_value(), "timeout");
  EXPECT_EQ(by_test["w.DeskTest#expires"].outcome().returned().long_value(), 1700003600L);
  EXPECT_THAT(testing::ReadTree(o.out), Not(HasSubstr("zq-4471")));

  EXPECT_FALSE(by_test["w.DeskTest#assigns"].excluded()) << by_test["w.DeskTest#assigns"].excluded_reason();
  EXPECT_FALSE(by_test["w.DeskTest#looksUp"].excluded());
  EXPECT_FALSE(by_test["w.DeskTest#expires"].excluded()) << by_test["w.DeskTest#expires"].excluded_reason();
  EXPECT_TRUE(by_test["w.DeskTest#holdsAToken"].excluded());
  EXPECT_THAT(by_test["w.DeskTest#holdsAToken"].excluded_reason(),
              HasSubstr("source mentions \"token\" (w/DeskTest.java:13)"));
  EXPECT_EQ(o.summary.tests_excluded(), 1);
}

// --- Bad input. ------------------------------------------------------------------

TEST_F(ObserveTest, MalformedPolicyNamesLineAndColumn) {
  std::string classes = Compile({{"p/Echo.java", kEcho}, {"p/ExclTest.java", kExclTest}});
  std::string policy = WritePolicy("format_version: FORMAT_VERSION_1\nmax_depth: 2\ndeny: *key*\n");
  Observed o = Observe(classes, "p.ExclTest", {"p.Echo#echo"}, {"--policy", policy});
  EXPECT_EQ(o.run.exit_code, 3);
  EXPECT_THAT(o.run.stderr_data, HasSubstr(policy + ":3:7: "));
  EXPECT_FALSE(FileExists(o.out + "/observations.pb"));

  policy = WritePolicy("format_version: FORMAT_VERSION_1\n\n  max_depth: -4\n");
  o = Observe(classes, "p.ExclTest", {"p.Echo#echo"}, {"--policy", policy});
  EXPECT_EQ(o.run.exit_code, 3);
  EXPECT_THAT(o.run.stderr_data, HasSubstr(policy + ":3:3: max_depth must be between 1 and 32"));
}

constexpr char kUnused[] = R"(package p;
public class Unused { public static void run() {} }
)";

// Every --method is resolved in the class files before the JVM starts: an
// unknown class or method is bad input that writes nothing.
TEST_F(ObserveTest, UnknownClassAndMethodAreRefusedBeforeTheRun) {
  std::string classes = Compile({{"p/Echo.java", kEcho}, {"p/ExclTest.java", kExclTest}});
  Observed o = Observe(classes, "p.ExclTest", {"p.Echo#nope", "p.Missing#run", "p.Echo#echo"});
  EXPECT_EQ(o.run.exit_code, 3) << o.Output();
  EXPECT_THAT(o.run.stderr_data,
              HasSubstr("--method p.Echo#nope: no method nope in p.Echo (it has: "));
  EXPECT_THAT(o.run.stderr_data, HasSubstr("echo(Ljava/lang/String;)Ljava/lang/String;"));
  EXPECT_THAT(o.run.stderr_data, Not(HasSubstr("running ")));
  EXPECT_FALSE(FileExists(o.out));

  o = Observe(classes, "p.ExclTest", {"p.Echo#echo", "p.Missing#run"});
  EXPECT_EQ(o.run.exit_code, 3) << o.Output();
  EXPECT_THAT(o.run.stderr_data,
              HasSubstr("--method p.Missing#run: class p.Missing is not on --classpath (check "
                        "the name; classes of the JDK itself cannot be observed)"));
  EXPECT_FALSE(FileExists(o.out));

  o = Observe(classes, "p.ExclTest", {"p.Ecko#echo"});
  EXPECT_EQ(o.run.exit_code, 3) << o.Output();
  EXPECT_THAT(o.run.stderr_data,
              HasSubstr("--method p.Ecko#echo: class p.Ecko is not on --classpath (did you mean "
                        "'p.Echo'?)"));

  o = Observe(classes, "p.ExclTest", {"p.Echo#echoo"});
  EXPECT_EQ(o.run.exit_code, 3) << o.Output();
  EXPECT_THAT(o.run.stderr_data,
              HasSubstr("--method p.Echo#echoo: no method echoo in p.Echo (did you mean "
                        "'echo'?; it has: "));

  o = Observe(classes, "p.ExclTest", {"p.Echo#echo(I)V"});
  EXPECT_EQ(o.run.exit_code, 3);
  EXPECT_THAT(o.run.stderr_data, HasSubstr("no method echo(I)V in p.Echo (it has: "));

  o = Observe(classes, "p.ExclTest", {"p.*#nope*"});
  EXPECT_EQ(o.run.exit_code, 3);
  EXPECT_THAT(o.run.stderr_data,
              HasSubstr("--method p.*#nope*: no public method matching nope* in the 2 classes "
                        "on --classpath matching p.*"));

  o = Observe(classes, "p.ExclTest", {"q.*#*"});
  EXPECT_EQ(o.run.exit_code, 3);
  EXPECT_THAT(o.run.stderr_data, HasSubstr("--method q.*#*: no class on --classpath matches q.*"));
  EXPECT_FALSE(FileExists(o.out));

  o = Observe(classes, "p.ExclTest", {"p.Echo.echo"});
  EXPECT_EQ(o.run.exit_code, 3);
  EXPECT_THAT(o.run.stderr_data, HasSubstr("no '#' between class and method"));
}

// A class that is on the class path but that the tests never load can only
// be found by running them: the other targets are observed and it is
// reported (exit 3).
TEST_F(ObserveTest, AClassTheTestsNeverLoadIsReportedAfterTheRun) {
  std::string classes = Compile(
      {{"p/Echo.java", kEcho}, {"p/ExclTest.java", kExclTest}, {"p/Unused.java", kUnused}});
  Observed o = Observe(classes, "p.ExclTest", {"p.Unused#run", "p.Echo#echo"});
  EXPECT_EQ(o.run.exit_code, 3) << o.Output();
  ASSERT_EQ(o.summary.target_problems_size(), 1);
  EXPECT_THAT(o.summary.target_problems(0).message(),
              HasSubstr("class p.Unused was never loaded by the tests"));
  EXPECT_EQ(o.observations.size(), 3u);  // The valid target was still observed.
}

constexpr char kTwice[] = R"(package lib;
public class Calc { public static int twice(int x) { return 2 * x; } }
)";
constexpr char kTwiceTest[] = R"(package lib;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class CalcTest {
  @Test void doubles() { assertEquals(4, Calc.twice(2)); }
}
)";

// Issue 25: a misspelt --method after a good run used to start the JVM and
// replace the observations with empty ones (a 0-byte observations.pb, a
// summary saying "complete"). Now the JVM never starts and --out stays.
TEST_F(ObserveTest, AMisspeltMethodLeavesTheLastResultsAsTheyWere) {
  std::string classes = Compile({{"lib/Calc.java", kTwice}, {"lib/CalcTest.java", kTwiceTest}});
  Observed good = Observe(classes, "lib.CalcTest", {"lib.Calc#twice"});
  ASSERT_EQ(good.run.exit_code, 0) << good.Output();
  ASSERT_EQ(good.observations.size(), 1u);
  auto snapshot = [&good] {
    std::map<std::string, std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(good.out)) {
      files[entry.path().filename().string()] =
          absl::StrCat(ReadFile(entry.path().string()).value_or("<unreadable>"), "@",
                       std::filesystem::last_write_time(entry.path()).time_since_epoch().count());
    }
    return files;
  };
  const std::map<std::string, std::string> before = snapshot();
  ASSERT_EQ(before.count("observations.pb"), 1u);
  ASSERT_EQ(before.count("summary.json"), 1u);
  ASSERT_EQ(before.count("jvm.log"), 1u);

  Observed bad = Observe(classes, "lib.CalcTest", {"lib.Calc#twise"});
  EXPECT_EQ(bad.run.exit_code, 3) << bad.Output();
  EXPECT_THAT(bad.run.stderr_data,
              HasSubstr("--method lib.Calc#twise: no method twise in lib.Calc (did you mean "
                        "'twice'?; it has: <init>()V, twice(I)I)"));
  EXPECT_THAT(bad.run.stderr_data, Not(HasSubstr("running ")));  // No JVM started.
  EXPECT_EQ(snapshot(), before);  // Byte for byte, jvm.log untouched.
  EXPECT_EQ(bad.observations.size(), 1u);
}

TEST_F(ObserveTest, WrongClasspathMissingTestClassAndMissingJava) {
  std::string classes = Compile({{"p/Echo.java", kEcho}, {"p/ExclTest.java", kExclTest}});
  Observed o = Observe(classes + ":" + dir_.path() + "/nowhere", "p.ExclTest", {"p.Echo#echo"});
  EXPECT_EQ(o.run.exit_code, 3);
  EXPECT_THAT(o.run.stderr_data, HasSubstr("nowhere: no such file or directory"));

  o = Observe(classes, "p.NoSuchTest", {"p.Echo#echo"});
  EXPECT_EQ(o.run.exit_code, 3) << o.Output();
  EXPECT_THAT(o.run.stderr_data,
              HasSubstr("test class 'p.NoSuchTest' was not found on the class path"));

  SubprocessOptions no_java;
  no_java.env = {{"PATH", dir_.path() + "/empty-bin"}, {"JAVA_HOME", ""}};
  o = Observe(classes, "p.ExclTest", {"p.Echo#echo"}, {}, no_java);
  EXPECT_EQ(o.run.exit_code, 4);
  EXPECT_THAT(o.run.stderr_data, HasSubstr("java not found"));
}

constexpr char kFailingTest[] = R"(package p;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class FailingTest {
  @Test void passes() { assertEquals("a", Echo.echo("a")); }
  @Test void fails() { assertEquals("b", Echo.echo("c")); }
}
)";

TEST_F(ObserveTest, FailingTestStillProducesResults) {
  std::string classes = Compile({{"p/Echo.java", kEcho}, {"p/FailingTest.java", kFailingTest}});
  Observed o = Observe(classes, "p.FailingTest", {"p.Echo#echo"});
  EXPECT_EQ(o.run.exit_code, 0) << o.Output();
  EXPECT_EQ(o.observations.size(), 2u);
  EXPECT_TRUE(o.summary.complete());
  EXPECT_EQ(o.summary.tests_run(), 2);
  EXPECT_EQ(o.summary.tests_failed(), 1);
  EXPECT_EQ(o.summary.tests_passed(), 1);
  EXPECT_THAT(o.run.stdout_data,
              HasSubstr("FAILED p.FailingTest#fails (org.opentest4j.AssertionFailedError): its 1 "
                        "call is kept out of inference (flagged, used for local checks only)\n"));
  // The failing test's call is flagged with the failure; the passing
  // test's is not. A failure is no secret: no test counts as excluded and
  // no isolation run happens.
  for (const v1::Observation& obs : o.observations) {
    bool failing = obs.test_id() == "p.FailingTest#fails";
    EXPECT_EQ(obs.test_failed(), failing) << obs.test_id();
    EXPECT_EQ(obs.excluded(), failing) << obs.test_id();
    EXPECT_EQ(obs.excluded_reason(),
              failing ? "the test failed (org.opentest4j.AssertionFailedError): its calls are "
                        "used for local checks only"
                      : "");
  }
  EXPECT_EQ(o.summary.tests_excluded(), 0);
  EXPECT_FALSE(o.summary.isolation_run());
  EXPECT_THAT(o.run.stdout_data, HasSubstr("excluded tests (never sent anywhere): 0\n"));
  EXPECT_THAT(o.run.stderr_data, Not(HasSubstr("isolation")));
}

// A test that fails and is excluded for a sensitive name keeps the
// sensitive reason (the one that keeps it from ever leaving) and still
// counts as failing.
TEST_F(ObserveTest, AFailingExcludedTestKeepsItsFirstReason) {
  constexpr char kSecretFailing[] = R"(package p;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class SecretFailingTest {
  @Test void passes() { assertEquals("a", Echo.echo("a")); }
  @Test void failsWithPassword() { assertEquals("b", Echo.echo("password")); }
}
)";
  std::string classes =
      Compile({{"p/Echo.java", kEcho}, {"p/SecretFailingTest.java", kSecretFailing}});
  Observed o = Observe(classes, "p.SecretFailingTest", {"p.Echo#echo"});
  EXPECT_EQ(o.run.exit_code, 0) << o.Output();
  ASSERT_EQ(o.observations.size(), 2u);
  EXPECT_EQ(o.summary.tests_failed(), 1);
  EXPECT_EQ(o.summary.tests_excluded(), 1);
  for (const v1::Observation& obs : o.observations) {
    bool failing = obs.test_id() == "p.SecretFailingTest#failsWithPassword";
    EXPECT_EQ(obs.test_failed(), failing) << obs.test_id();
    EXPECT_EQ(obs.excluded(), failing) << obs.test_id();
    if (failing) {
      EXPECT_THAT(obs.excluded_reason(), HasSubstr("password"));
      EXPECT_THAT(obs.excluded_reason(), Not(HasSubstr("the test failed")));
    }
  }
}

constexpr char kHaltTest[] = R"(package p;
import org.junit.jupiter.api.Test;
class HaltTest {
  @Test void dies() {
    Echo.echo("one");
    Echo.echo("two");
    Runtime.getRuntime().halt(7);
  }
}
)";

TEST_F(ObserveTest, JvmThatHaltsKeepsPartialResults) {
  std::string classes = Compile({{"p/Echo.java", kEcho}, {"p/HaltTest.java", kHaltTest}});
  Observed o = Observe(classes, "p.HaltTest", {"p.Echo#echo"});
  EXPECT_EQ(o.run.exit_code, 4) << o.Output();
  EXPECT_THAT(o.run.stderr_data, HasSubstr("the JVM ended before the tests finished during "
                                           "p.HaltTest#dies (exit code 7)"));
  ASSERT_EQ(o.observations.size(), 2u);
  EXPECT_EQ(o.observations[1].outcome().returned().string_value(), "two");
  EXPECT_FALSE(o.summary.complete());
  EXPECT_EQ(o.summary.tests_interrupted(), 1);
  EXPECT_THAT(o.run.stdout_data, HasSubstr("PARTIAL: "));
}

constexpr char kHangTest[] = R"(package p;
import org.junit.jupiter.api.Test;
class HangTest {
  @Test void hangs() throws Exception {
    Echo.echo("before");
    Thread.sleep(600000);
  }
}
)";

// The limit leaves room for a JVM and JUnit start on a loaded machine (they
// took 5 s at load 11); the test plan must reach the hang.
TEST_F(ObserveTest, KilledJvmKeepsWhatWasRecorded) {
  std::string classes = Compile({{"p/Echo.java", kEcho}, {"p/HangTest.java", kHangTest}});
  Observed o = Observe(classes, "p.HangTest", {"p.Echo#echo"}, {"--timeout", "10"});
  EXPECT_EQ(o.run.exit_code, 4) << o.Output();
  EXPECT_THAT(o.summary.incomplete_reason(), HasSubstr("timed out"));
  ASSERT_EQ(o.observations.size(), 1u);
  EXPECT_EQ(o.observations[0].args(0).string_value(), "before");
}

// --- The shipped examples. ------------------------------------------------------

class ExampleTest : public ObserveTest {
 protected:
  // Compiles examples/<name>/src and test (listed relative to the example).
  std::string CompileExample(const std::string& name, const std::vector<std::string>& files) {
    std::map<std::string, std::string> sources;
    for (const std::string& file : files) {
      auto text = ReadFile(Root(name) + "/" + file);
      EXPECT_TRUE(text.ok()) << text.status();
      sources[file.substr(file.find('/') + 1)] = text.value_or("");
    }
    return Compile(sources, {"-g", "--release", "8"});
  }
  std::string Root(const std::string& name) { return testing::SourceDir() + "/examples/" + name; }
};

TEST_F(ExampleTest, BankShowsTheChecksumAndNeverTheAuditKey) {
  std::string classes = CompileExample(
      "bank", {"src/bank/Account.java", "src/bank/AuditService.java",
               "src/bank/InsufficientFundsException.java", "test/bank/AccountTest.java"});
  Observed o = Observe(classes, "bank.AccountTest",
                       {"bank.Account#deposit", "bank.Account#withdraw", "bank.Account#<init>"},
                       {"--tests-src", Root("bank") + "/test"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  EXPECT_THAT(testing::ReadTree(o.out), Not(HasSubstr("AK-7f3e9c1d")));
  v1::Observation deposit;
  for (const v1::Observation& obs : Of(o, "deposit")) {
    if (obs.test_id() == "bank.AccountTest#depositIncreasesBalance") deposit = obs;
  }
  const v1::ObjectState* before = State(deposit.pre(), deposit.receiver().ref());
  const v1::ObjectState* after = State(deposit.post(), deposit.receiver().ref());
  ASSERT_NE(after, nullptr);
  EXPECT_EQ(FieldOf(before, "balance")->int_value(), 100);
  EXPECT_EQ(FieldOf(after, "balance")->int_value(), 150);
  EXPECT_EQ(FieldOf(before, "checksum")->int_value(), 100);
  EXPECT_EQ(FieldOf(after, "checksum")->int_value(), 31 * 100 + 50);
  EXPECT_TRUE(FieldOf(after, "auditKey")->has_redacted());
  // The constructor ran in @BeforeEach; the listener attributes it to the test.
  for (const v1::Observation& obs : Of(o, "<init>")) {
    EXPECT_THAT(obs.test_id(), ::testing::StartsWith("bank.AccountTest#"));
    EXPECT_NE(obs.test_id(), "bank.AccountTest#openAccount");
  }
  bool threw = false;
  for (const v1::Observation& obs : Of(o, "withdraw")) {
    threw |= obs.outcome().thrown().class_name() == "bank.InsufficientFundsException";
  }
  EXPECT_TRUE(threw);
  // auditEntriesAreSignedWithTheSecretKey is named for the key but does
  // nothing with it (the key is set up in @BeforeEach and withheld): it is
  // not excluded.
  EXPECT_EQ(o.summary.tests_excluded(), 0);
}

TEST_F(ExampleTest, LoanRecordsTheStateOfEachApplicationAcrossCalls) {
  std::string classes = CompileExample(
      "loan", {"src/loan/LoanApplication.java", "test/loan/LoanApplicationTest.java"});
  Observed o = Observe(classes, "loan.LoanApplicationTest",
                       {"loan.LoanApplication#submit", "loan.LoanApplication#review",
                        "loan.LoanApplication#sendBack", "loan.LoanApplication#approve",
                        "loan.LoanApplication#lend"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  // The states one application went through, in call order.
  auto state_name = [](const google::protobuf::RepeatedPtrField<v1::ObjectState>& states,
                       uint64_t id) -> std::string {
    const v1::Value* state = FieldOf(State(states, id), "state");
    if (state == nullptr) return "?";
    const v1::Value* name = FieldOf(State(states, state->ref()), "name");
    return name == nullptr ? "?" : name->string_value();
  };
  std::vector<std::string> path;
  uint64_t application = 0;
  for (const v1::Observation& obs : o.observations) {
    if (obs.test_id() != "loan.LoanApplicationTest#sentBackForAnotherReview") continue;
    if (application == 0) application = obs.receiver().ref();
    EXPECT_EQ(obs.receiver().ref(), application);  // One object id across calls.
    path.push_back(obs.method().name() + ":" + state_name(obs.pre(), application) + "->" +
                   state_name(obs.post(), application));
  }
  EXPECT_THAT(path, ::testing::ElementsAre("submit:BEFORE_SUBMISSION->SUBMITTED",
                                           "review:SUBMITTED->UNDER_REVIEW",
                                           "sendBack:UNDER_REVIEW->SUBMITTED",
                                           "review:SUBMITTED->UNDER_REVIEW",
                                           "approve:UNDER_REVIEW->APPROVED"));
}

// --- --list-hot with JUnit tests: calls counted, nothing recorded. ---------

constexpr char kHot[] = R"(package h;
public class Hot {
  public Hot() {}
  public static int a(int x) { return x + 1; }
  public static int b() { return 0; }
  public int c() { return 1; }
  int hidden() { return 2; }
}
)";

constexpr char kHotTest[] = R"(package h;
import org.junit.jupiter.api.Test;
class HotTest {
  @Test void calls() {
    for (int i = 0; i < 3; i++) Hot.a(i);
    new Hot().c();
    new Hot().hidden();
  }
}
)";

TEST_F(ObserveTest, ListHotCountsTheCallsOfTests) {
  std::string classes = Compile({{"h/Hot.java", kHot}, {"h/HotTest.java", kHotTest}});
  Observed o = Observe(classes, "h.HotTest", {"h.*#*"}, {"--list-hot"});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  // Public methods only: no constructor, no package-private method, no test.
  EXPECT_EQ(o.run.stdout_data,
            "calls per target method (2 of 3 instrumented methods called by the tests; counted, "
            "nothing recorded):\n"
            "         3  h.Hot#a(I)I\n"
            "         1  h.Hot#c()I\n"
            "         0  h.Hot#b()I\n");
  EXPECT_TRUE(o.observations.empty());
  EXPECT_FALSE(FileExists(o.out + "/observations.pb"));
}

// A failing assertion that prints a denied value (JUnit's "expected: <...>
// but was: <...>") would put it into jvm.log, the test run's console
// output, which observe writes beside the observations: the probe
// replaces every value of its taint set there at the end of the run.
constexpr char kSafe[] = R"(package t;
public class Safe {
  private final String secretCode;
  public Safe(String code) { secretCode = code; }
  public boolean opens(String guess) { return secretCode.equals(guess); }
  public String reveal() { return secretCode; }
}
)";
constexpr char kSafeTest[] = R"(package t;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class SafeTest {
  @Test void reveals() {
    Safe s = new Safe("Wd" + "83Kp" + "51");
    assertFalse(s.opens("guess"));
    assertEquals("nothing", s.reveal());
  }
}
)";

TEST_F(ObserveTest, ADeniedValueAFailingAssertionPrintsIsRedactedInTheJvmLog) {
  std::string classes = Compile({{"t/Safe.java", kSafe}, {"t/SafeTest.java", kSafeTest}});
  std::string policy = WritePolicy(R"(format_version: FORMAT_VERSION_1
record { class_pattern: "t.*" }
deny: "*secret*"
redaction: MARK
)");
  Observed o = Observe(classes, "t.SafeTest", {"t.Safe#opens"}, {"--policy", policy});
  ASSERT_EQ(o.run.exit_code, 0) << o.Output();
  std::string log = ReadFile(o.out + "/jvm.log").value_or("");
  EXPECT_THAT(log, HasSubstr("expected: <nothing> but was: <<redacted: denied value>>"));
  EXPECT_THAT(testing::ReadTree(o.out) + o.Output(), Not(HasSubstr("Wd83Kp51")));
}

}  // namespace
}  // namespace tracespec

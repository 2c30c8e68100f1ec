// Tests for observer/probe/class_file.h: parsing javac output, parameter
// names, byte-exact round trips, and rewritten classes that the real JVM
// verifies and runs (with a stand-in hooks class written in Java that logs
// what the rewritten code reports).
#include "observer/probe/class_file.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "common/subprocess.h"
#include "common/utf8.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "observer/probe/concat_recipe.h"
#include "observer/probe/substitute_value.h"
#include "tests/testing/testing.h"

namespace tracespec::probe {
namespace {

using ::testing::ElementsAre;

constexpr char kSubject[] = R"(package q;
public class Subject {
  private int total;
  static long created;
  double weight = 1.5;
  public Subject(int start, long big) {
    super();
    created++;
    int k = 0;
    for (int i = 0; i < start; i++) k += i;
    switch (start) {
      case 0: k += 100; break;
      case 1: k += 200; break;
      case 2: k += 300; break;
      default: k -= 1;
    }
    total = k + (int) big;
  }
  public int sum(int[] a, double scale) {
    int s = 0;
    for (int x : a) s += x;
    return (int) (s * scale) + total;
  }
  public static String pick(boolean b, char c, String s) {
    try {
      if (b) throw new IllegalStateException();
      return s + c;
    } catch (IllegalStateException e) {
      return "caught";
    }
  }
  public static long fail(long x) { throw new ArithmeticException("x"); }
  public synchronized void touch(byte b, short s, float f) { total += b + s + (int) f; }
}
)";

constexpr char kMain[] = R"(package q;
public class Main {
  public static void main(String[] args) {
    Subject s = new Subject(3, 10L);
    System.out.println(s.sum(new int[] {1, 2, 3}, 2.0));
    System.out.println(Subject.pick(false, 'x', "a"));
    System.out.println(Subject.pick(true, 'y', "b"));
    try { Subject.fail(5); } catch (ArithmeticException e) { System.out.println("fail threw"); }
    s.touch((byte) 1, (short) 2, 3.5f);
    System.out.println(s.sum(new int[0], 1.0));
    System.out.println(new Subject(1, 0L).sum(new int[0], 1.0));
    System.out.println(s.weight + " " + Subject.created);
    System.out.println("log:" + tracespec.probe.Hooks.log);
  }
}
)";

// Logs every hook call; stands in for the probe's native hooks class.
constexpr char kHooks[] = R"(package tracespec.probe;
public final class Hooks {
  public static final StringBuilder log = new StringBuilder();
  static void put(String s) { log.append(s).append(' '); }
  public static void argZ(boolean v) { put("Z" + v); }
  public static void argB(byte v) { put("B" + v); }
  public static void argC(char v) { put("C" + v); }
  public static void argS(short v) { put("S" + v); }
  public static void argI(int v) { put("I" + v); }
  public static void argJ(long v) { put("J" + v); }
  public static void argF(float v) { put("F" + v); }
  public static void argD(double v) { put("D" + v); }
  public static void argL(Object v) { put("L" + (v instanceof int[] ? "int[]" : String.valueOf(v))); }
  public static void enter(Object r, int id) { put("enter" + id + (r == null ? "" : "+this")); }
  public static void enterJvmti(Object r, int id) { put("enterJvmti" + id + (r == null ? "" : "+this")); }
  public static void exitZ(boolean v) { put("=" + v); }
  public static void exitB(byte v) { put("=" + v); }
  public static void exitC(char v) { put("=" + v); }
  public static void exitS(short v) { put("=" + v); }
  public static void exitI(int v) { put("=" + v); }
  public static void exitJ(long v) { put("=" + v); }
  public static void exitF(float v) { put("=" + v); }
  public static void exitD(double v) { put("=" + v); }
  public static void exitL(Object v) { put("=" + v); }
  public static void exitV() { put("=void"); }
  public static void exitThrown(Throwable t) { put("!" + t.getClass().getSimpleName()); }
  public static void readDenied(Object r, Class<?> c, int id) { put("read" + id + c.getSimpleName() + (r == null ? "" : "+obj")); }
}
)";

std::string RunMain(const std::string& classes) {
  auto run = RunSubprocess({"java", "-cp", classes, "q.Main"});
  EXPECT_TRUE(run.ok()) << run.status();
  if (!run.ok()) return "";
  EXPECT_TRUE(run->Succeeded()) << run->stdout_data << run->stderr_data;
  return run->stdout_data;
}

int FindMethod(const ClassFile& cls, const std::string& name) {
  for (int i = 0; i < cls.method_count(); ++i) {
    if (cls.Facts(i).name == name) return i;
  }
  return -1;
}

TEST(ClassFileTest, DescriptorsAndKinds) {
  MethodType type;
  ASSERT_TRUE(ParseMethodDescriptor("(IJ[Ljava/lang/String;D[[Z)Lq/X;", &type));
  EXPECT_THAT(type.params, ElementsAre("I", "J", "[Ljava/lang/String;", "D", "[[Z"));
  EXPECT_EQ(type.ret, "Lq/X;");
  EXPECT_EQ(type.ParamSlots(), 7);
  EXPECT_FALSE(ParseMethodDescriptor("(I", &type));
  EXPECT_FALSE(ParseMethodDescriptor("(L;)V", &type));
  EXPECT_EQ(KindOf("[I"), 'L');
  EXPECT_EQ(KindOf("Ljava/lang/Object;"), 'L');
  EXPECT_EQ(KindOf("J"), 'J');
}

TEST(ClassFileTest, RejectsNonClassFiles) {
  ClassFile cls;
  std::string error;
  const uint8_t junk[] = {0xCA, 0xFE, 0xBA, 0xBE, 0, 0};
  EXPECT_FALSE(cls.Parse(junk, sizeof junk, &error));
  EXPECT_EQ(error, "truncated class file");
  const uint8_t text[] = {'h', 'e', 'l', 'l', 'o'};
  EXPECT_FALSE(cls.Parse(text, sizeof text, &error));
  EXPECT_THAT(error, ::testing::HasSubstr("bad magic"));
}

class RewriteTest : public ::testing::Test {
 protected:
  std::string Compile(const std::vector<std::string>& javac_args) {
    return testing::CompileJava(
        dir_, {{"q/Subject.java", kSubject}, {"q/Main.java", kMain},
               {"tracespec/probe/Hooks.java", kHooks}},
        javac_args);
  }
  ClassFile Load(const std::string& classes, std::string* bytes) {
    auto data = ReadFile(classes + "/q/Subject.class");
    EXPECT_TRUE(data.ok());
    *bytes = data.value_or("");
    ClassFile cls;
    std::string error;
    EXPECT_TRUE(cls.Parse(reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size(), &error))
        << error;
    return cls;
  }
  testing::TempDir dir_;
};

TEST_F(RewriteTest, RoundTripIsByteExactAndNamesComeFromDebugInfo) {
  std::string bytes;
  ClassFile cls = Load(Compile({"-g"}), &bytes);
  EXPECT_EQ(cls.name(), "q/Subject");
  EXPECT_FALSE(cls.is_interface());
  EXPECT_EQ(cls.Serialize(), bytes);
  MethodFacts sum = cls.Facts(FindMethod(cls, "sum"));
  EXPECT_EQ(sum.descriptor, "([ID)I");
  EXPECT_TRUE(sum.has_code);
  EXPECT_THAT(sum.param_names, ElementsAre("a", "scale"));
  EXPECT_THAT(cls.Facts(FindMethod(cls, "<init>")).param_names, ElementsAre("start", "big"));
}

TEST_F(RewriteTest, NamesFromMethodParametersOrNone) {
  std::string bytes;
  ClassFile with = Load(Compile({"-g:none", "-parameters"}), &bytes);
  EXPECT_THAT(with.Facts(FindMethod(with, "pick")).param_names, ElementsAre("b", "c", "s"));
  testing::TempDir other;
  std::string classes = testing::CompileJava(other, {{"q/Subject.java", kSubject}}, {"-g:none"});
  auto data = ReadFile(classes + "/q/Subject.class");
  ASSERT_TRUE(data.ok());
  ClassFile without;
  std::string error;
  ASSERT_TRUE(without.Parse(reinterpret_cast<const uint8_t*>(data->data()), data->size(), &error));
  EXPECT_THAT(without.Facts(FindMethod(without, "pick")).param_names, ElementsAre("", "", ""));
}

TEST_F(RewriteTest, RewrittenClassVerifiesRunsAndReportsToTheHooks) {
  for (const char* debug : {"-g", "-g:none"}) {
    SCOPED_TRACE(debug);
    std::string classes = Compile({debug});
    std::string original_output = RunMain(classes);
    std::string bytes;
    ClassFile cls = Load(classes, &bytes);
    std::string error;
    int count = cls.method_count();
    ASSERT_TRUE(cls.AddWrapper(FindMethod(cls, "sum"), 1, &error)) << error;
    ASSERT_TRUE(cls.AddWrapper(FindMethod(cls, "pick"), 2, &error)) << error;
    ASSERT_TRUE(cls.AddWrapper(FindMethod(cls, "fail"), 3, &error)) << error;
    ASSERT_TRUE(cls.AddWrapper(FindMethod(cls, "touch"), 4, &error)) << error;
    ASSERT_TRUE(cls.InsertPrologue(FindMethod(cls, "<init>"), 40000, &error)) << error;
    EXPECT_EQ(cls.method_count(), count + 4);
    EXPECT_FALSE(cls.AddWrapper(FindMethod(cls, "<init>"), 5, &error));
    MethodFacts body = cls.Facts(FindMethod(cls, "sum$tracespec"));
    EXPECT_EQ(body.access & (kAccPrivate | kAccSynthetic), kAccPrivate | kAccSynthetic);
    EXPECT_EQ(cls.Facts(FindMethod(cls, "touch")).access & kAccSynchronized, kAccSynchronized);
    EXPECT_EQ(cls.Facts(FindMethod(cls, "touch$tracespec")).access & kAccSynchronized, 0);
    ASSERT_TRUE(WriteFileAtomic(classes + "/q/Subject.class", cls.Serialize()).ok());

    std::string output = RunMain(classes);
    std::string functional = output.substr(0, output.find("log:"));
    EXPECT_EQ(functional, original_output.substr(0, original_output.find("log:")));
    EXPECT_EQ(output.substr(output.find("log:")),
              "log:I3 J10 enterJvmti40000 "
              "Lint[] D2.0 enter1+this =24 "
              "Zfalse Cx La enter2 =ax "
              "Ztrue Cy Lb enter2 =caught "
              "J5 enter3 !ArithmeticException "
              "B1 S2 F3.5 enter4+this =void "
              "Lint[] D1.0 enter1+this =18 "
              "I1 J0 enterJvmti40000 Lint[] D1.0 enter1+this =200 \n");
  }
}

// Field reads routed through readDenied: the chosen getfield/getstatic
// instructions (a private field of the class itself, a static long, a
// double field of another class) call the hook first and then read as
// before; every other read stays as it was, and a class with no chosen
// read is written back byte for byte.
TEST_F(RewriteTest, RoutedFieldReadsCallTheHookAndReadAsBefore) {
  std::string classes = Compile({"-g"});
  std::string original_output = RunMain(classes);
  std::vector<std::string> seen;
  int next_id = 10;
  auto hook_id = [&](const FieldRead& read) {
    seen.push_back(read.owner + "." + read.name + ":" + read.descriptor +
                   (read.is_static ? " static" : ""));
    bool chosen = read.name == "total" || read.name == "created" || read.name == "weight";
    return chosen ? next_id++ : -1;
  };
  for (const char* name : {"q/Subject", "q/Main", "tracespec/probe/Hooks"}) {
    SCOPED_TRACE(name);
    auto data = ReadFile(classes + "/" + name + ".class");
    ASSERT_TRUE(data.ok());
    ClassFile cls;
    std::string error;
    ASSERT_TRUE(cls.Parse(reinterpret_cast<const uint8_t*>(data->data()), data->size(), &error));
    int rewritten = -1;
    int count = cls.method_count();
    ASSERT_TRUE(cls.RedirectFieldReads(hook_id, &rewritten, &error)) << error;
    if (std::string(name) == "tracespec/probe/Hooks") {
      EXPECT_EQ(rewritten, 0);
      EXPECT_EQ(cls.Serialize(), *data);
      continue;
    }
    // Subject: created (ctor), total (sum, touch: one accessor); Main:
    // s.weight, Subject.created.
    EXPECT_EQ(rewritten, std::string(name) == "q/Subject" ? 3 : 2);
    EXPECT_EQ(cls.method_count(), count + 2);
    MethodFacts accessor = cls.Facts(count);
    EXPECT_EQ(accessor.name, "tracespec$read$0");
    EXPECT_EQ(accessor.access, kAccPrivate | kAccStatic | kAccSynthetic);
    ASSERT_TRUE(WriteFileAtomic(classes + "/" + name + ".class", cls.Serialize()).ok());
  }
  EXPECT_THAT(seen, ElementsAre("q/Subject.created:J static", "q/Subject.total:I",
                                "java/lang/System.out:Ljava/io/PrintStream; static",
                                "q/Subject.weight:D", "q/Subject.created:J static",
                                "tracespec/probe/Hooks.log:Ljava/lang/StringBuilder; static",
                                "tracespec/probe/Hooks.log:Ljava/lang/StringBuilder; static"));
  std::string output = RunMain(classes);
  EXPECT_EQ(output.substr(0, output.find("log:")),
            original_output.substr(0, original_output.find("log:")));
  // Ids: Subject.created 10, Subject.total 11, Main's s.weight 12, Main's
  // Subject.created 13.
  EXPECT_EQ(output.substr(output.find("log:")),
            "log:read10Subject read11Subject+obj read11Subject+obj read11Subject+obj "
            "read10Subject read11Subject+obj read12Subject+obj read13Subject \n");
}

// A String constant whose text is also a field's name (one Utf8 entry for
// both), an Integer and a Long constant, a sipush operand: replaced, the class loads the new
// values where it loaded the old ones and the field keeps its name.
constexpr char kConstants[] = R"(package k;
public class Constants {
  static String secret = "secret";
  public static void main(String[] args) {
    long bits = 123456789012L;
    int number = 98765;  // an Integer constant: a literal in the concatenation goes into its recipe
    int pin = 4821;      // sipush: in the code, not the pool
    StringBuilder units = new StringBuilder();
    for (char c : "caf\u00e9\u0000".toCharArray()) units.append((int) c).append(',');
    System.out.println(secret + " " + "secret".length() + " " + number + " " + bits + " " + pin +
        " " + units);
  }
}
)";

// Compiles `source`, the file `java_path` ("k/Constants.java"), into `dir`
// and parses its class into *cls; returns the classes' folder, "" (a
// failure reported) when either fails.
std::string CompileAndParse(testing::TempDir& dir, const std::string& java_path,
                            const char* source, ClassFile* cls) {
  std::string classes = testing::CompileJava(dir, {{java_path, source}}, {"-g"});
  std::string class_path =
      classes + "/" + java_path.substr(0, java_path.size() - std::string(".java").size()) +
      ".class";
  auto data = ReadFile(class_path);
  std::string error;
  if (!data.ok() ||
      !cls->Parse(reinterpret_cast<const uint8_t*>(data->data()), data->size(), &error)) {
    ADD_FAILURE() << "cannot read " << class_path << ": " << error;
    return "";
  }
  return classes;
}

TEST(ClassFileTest, ConstantsAreListedAndReplacedWhereLoaded) {
  testing::TempDir dir;
  ClassFile cls;
  std::string classes = CompileAndParse(dir, "k/Constants.java", kConstants, &cls);
  ASSERT_FALSE(classes.empty());
  std::vector<std::string> seen;
  for (const PoolConstant& c : cls.LoadableConstants()) {
    seen.push_back(c.kind == 'S' ? "S:" + ModifiedUtf8ToUtf8(c.text)
                                 : std::string(1, c.kind) + ":" + std::to_string(c.value));
  }
  EXPECT_THAT(seen, ::testing::IsSupersetOf(std::vector<std::string>{
                        "S:secret", "I:98765", "J:123456789012",
                        std::string("S:caf\xC3\xA9") + '\0'}));
  for (PoolConstant c : cls.LoadableConstants()) {
    if (c.kind == 'S' && c.text == "secret") {
      c.text = "hidden";
    } else if (c.kind == 'S' && c.text.rfind("caf", 0) == 0) {
      c.text = SubstituteModifiedUtf8(7, c.text);
    } else if (c.kind == 'S') {
      continue;  // the concatenation's recipe
    } else if (c.kind == 'I') {
      c.value = 11111;
    } else {
      c.value = -5;
    }
    ASSERT_TRUE(cls.ReplaceConstant(c));
  }
  EXPECT_THAT(cls.ShortImmediates(), ::testing::Contains(4821));
  EXPECT_EQ(cls.ReplaceShortImmediates([](int16_t v) -> std::optional<int16_t> {
              return v == 4821 ? std::optional<int16_t>(-1234) : std::nullopt;
            }),
            1);
  EXPECT_THAT(cls.ShortImmediates(), ::testing::Not(::testing::Contains(4821)));
  PoolConstant wrong;
  wrong.index = 1;  // a Methodref or Class entry, never a loadable constant here
  EXPECT_FALSE(cls.ReplaceConstant(wrong));
  ASSERT_TRUE(WriteFileAtomic(classes + "/k/Constants.class", cls.Serialize()).ok());
  auto run = RunSubprocess({"java", "-cp", classes, "k.Constants"});
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_TRUE(run->Succeeded()) << run->stderr_data;
  // The text with U+0000 keeps its length and its NUL; é moves within
  // U+0080..U+00FF; letters stay lower-case letters.
  std::vector<std::string> words = absl::StrSplit(run->stdout_data, ' ');
  ASSERT_EQ(words.size(), 6u) << run->stdout_data;
  EXPECT_EQ(absl::StrJoin(words.begin(), words.begin() + 5, " "), "hidden 6 11111 -5 -1234");
  std::vector<int> units;
  for (absl::string_view unit : absl::StrSplit(words[5], ',', absl::SkipWhitespace())) {
    int u = 0;
    ASSERT_TRUE(absl::SimpleAtoi(unit, &u)) << unit;
    units.push_back(u);
  }
  ASSERT_EQ(units.size(), 5u) << run->stdout_data;
  EXPECT_NE(std::vector<int>(units.begin(), units.begin() + 4),
            (std::vector<int>{'c', 'a', 'f', 0xE9}));
  for (int k = 0; k < 3; ++k) EXPECT_TRUE(units[k] >= 'a' && units[k] <= 'z') << units[k];
  EXPECT_TRUE(units[3] >= 0x80 && units[3] <= 0xFF) << units[3];
  EXPECT_EQ(units[4], 0);
}

// javac 9+ folds the literals of a concatenation into its recipe; one
// recipe is also a plain string (an ldc of the same String entry).
constexpr char kRecipes[] = R"(package r;
public class Recipes {
  static String name = "ann";
  static int n = 7;
  public static void main(String[] args) {
    String shared = "\u0001:48213/\u0001";
    System.out.println(name + ":" + 48213 + "/" + n);
    System.out.println(n + "s3cr3t-value" + name);
    System.out.println(name + " owes " + -90210L + " since 2026-48213 #" + n);
    System.out.println(shared.replace('\u0001', '#'));
  }
}
)";

TEST(ClassFileTest, ConcatenationRecipesAreListedAndTheirLiteralsReplaced) {
  testing::TempDir dir;
  ClassFile cls;
  std::string classes = CompileAndParse(dir, "r/Recipes.java", kRecipes, &cls);
  ASSERT_FALSE(classes.empty());
  std::vector<std::string> recipes;
  for (const PoolConstant& c : cls.ConcatRecipes()) recipes.push_back(c.text);
  EXPECT_THAT(recipes, ::testing::UnorderedElementsAre("\1:48213/\1", "\1s3cr3t-value\1",
                                                       "\1 owes -90210 since 2026-48213 #\1"));
  // The shared one is a plain string constant too; the others are not.
  std::vector<std::string> strings;
  for (const PoolConstant& c : cls.LoadableConstants()) {
    if (c.kind == 'S') strings.push_back(c.text);
  }
  EXPECT_THAT(strings, ::testing::Contains("\1:48213/\1"));

  constexpr uint64_t kSeed = 3;
  auto text = [](std::string_view piece) { return piece == "s3cr3t-value"; };
  auto number = [](int64_t value) { return value == 48213 || value == -90210; };
  for (PoolConstant c : cls.ConcatRecipes()) {
    RecipeSubstitution substitution = SubstituteRecipe(kSeed, c.text, text, number);
    ASSERT_TRUE(substitution.changed()) << c.text;
    c.text = substitution.recipe;
    ASSERT_TRUE(cls.ReplaceConcatRecipe(c));
  }
  PoolConstant plain;
  for (const PoolConstant& c : cls.LoadableConstants()) {
    if (c.kind == 'S' && c.text == "ann") plain = c;
  }
  ASSERT_NE(plain.index, 0);
  EXPECT_FALSE(cls.ReplaceConcatRecipe(plain));  // not a recipe
  ASSERT_TRUE(WriteFileAtomic(classes + "/r/Recipes.class", cls.Serialize()).ok());
  auto run = RunSubprocess({"java", "-cp", classes, "r.Recipes"});
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_TRUE(run->Succeeded()) << run->stderr_data;
  const std::string pin = std::to_string(SubstituteDecimal(kSeed, 48213));
  const std::string debt = std::to_string(SubstituteDecimal(kSeed, -90210));
  EXPECT_EQ(run->stdout_data,
            absl::StrCat("ann:", pin, "/7\n", "7", SubstituteModifiedUtf8(kSeed, "s3cr3t-value"),
                         "ann\n", "ann owes ", debt, " since 2026-", pin, " #7\n",
                         "#:48213/#\n"));
  EXPECT_NE(pin, "48213");
  EXPECT_NE(debt, "-90210");
}

TEST_F(RewriteTest, RoutedReadsNeedClassConstants) {
  std::string classes = Compile({"-g"});
  auto data = ReadFile(classes + "/q/Main.class");
  ASSERT_TRUE(data.ok());
  std::string bytes = *data;
  bytes[6] = 0;
  bytes[7] = 48;  // major version 48: no ldc of a class
  ClassFile cls;
  std::string error;
  ASSERT_TRUE(cls.Parse(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), &error));
  int rewritten = 0;
  EXPECT_TRUE(cls.RedirectFieldReads([](const FieldRead&) { return -1; }, &rewritten, &error));
  EXPECT_FALSE(cls.RedirectFieldReads([](const FieldRead& r) { return r.name == "weight" ? 1 : -1; },
                                      &rewritten, &error));
  EXPECT_EQ(error, "class file version 48 is too old to route q/Subject.weight through the probe");
}

}  // namespace
}  // namespace tracespec::probe

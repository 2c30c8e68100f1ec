// Tests for validator/jml/spec_source.h: choosing a method's specification
// in Java sources (with overloads), .jml files and bare specification texts.
#include "validator/jml/spec_source.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"
#include "validator/jml/printer.h"

namespace tracespec::jml {
namespace {

using ::testing::HasSubstr;

constexpr char kCalc[] = R"java(package calc;

public class Calc {
  //@ ensures \result == (a < 0 ? -a : a);
  public static int abs(int a) { return a < 0 ? -a : a; }

  //@ ensures \result == (a < 0 ? -a : a);
  public static long abs(long a) { return a < 0 ? -a : a; }

  /*@ requires a != null && a.length > 0;
    @ ensures (\forall int i; 0 <= i && i < a.length; a[i] <= \result);
    @*/
  public static int max(int[] a) { return 0; }

  //@ requires d != 0;
  //@ ensures \result == n / d;
  public static double div(double n, double d) { return n / d; }

  //@ requires bad >;
  public static int broken(int bad) { return bad; }

  public Calc(int seed) {}
}
)java";

MethodSelector Sel(const std::string& text) {
  auto s = MethodSelector::Parse(text);
  EXPECT_TRUE(s.ok()) << s.status();
  return *s;
}

TEST(SpecSourceTest, SelectorSyntax) {
  MethodSelector s = Sel("calc.Calc#abs(I)I");
  EXPECT_EQ(s.class_name, "calc.Calc");
  EXPECT_EQ(s.method_name, "abs");
  EXPECT_EQ(s.descriptor, "(I)I");
  EXPECT_TRUE(s.Matches("(I)I"));
  EXPECT_FALSE(s.Matches("(J)J"));
  MethodSelector params = Sel("calc.Calc#abs(J)");
  EXPECT_TRUE(params.Matches("(J)J"));
  EXPECT_TRUE(Sel("calc.Calc#abs").Matches("(J)J"));
  EXPECT_EQ(Sel("a.B#<init>(I)V").ToString(), "a.B#<init>(I)V");
  for (const char* bad : {"Calc", "#m", "a.B#", "a.B#m(I", "a.B#m(Q)V"}) {
    EXPECT_FALSE(MethodSelector::Parse(bad).ok()) << bad;
  }
}

TEST(SpecSourceTest, OverloadsInJavaSource) {
  auto i =
      ParseMethodSpecSource(kCalc, "Calc.java", ContractFormat::kAuto, Sel("calc.Calc#abs(I)I"));
  ASSERT_TRUE(i.ok()) << i.status();
  EXPECT_EQ(i->descriptor, "(I)I");
  EXPECT_EQ(i->method_decl->span.line, 5);
  auto l =
      ParseMethodSpecSource(kCalc, "Calc.java", ContractFormat::kAuto, Sel("calc.Calc#abs(J)"));
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->descriptor, "(J)J");
  EXPECT_EQ(l->method_decl->span.line, 8);
  auto ambiguous =
      ParseMethodSpecSource(kCalc, "Calc.java", ContractFormat::kAuto, Sel("calc.Calc#abs"));
  EXPECT_EQ(std::string(ambiguous.status().message()),
            "Calc.java: method abs is overloaded in calc.Calc; give a descriptor to choose one of "
            "abs(I)I at line 5, "
            "abs(J)J at line 8");
  auto wrong =
      ParseMethodSpecSource(kCalc, "Calc.java", ContractFormat::kAuto, Sel("calc.Calc#abs(D)D"));
  EXPECT_EQ(
      std::string(wrong.status().message()),
      "Calc.java: no method calc.Calc#abs(D)D; declared: abs(I)I at line 5, abs(J)J at line 8");
  EXPECT_EQ(wrong.status().code(), absl::StatusCode::kNotFound);
}

TEST(SpecSourceTest, ExtractedSpecificationTypeChecks) {
  for (const char* sel :
       {"calc.Calc#abs(I)I", "calc.Calc#abs(J)J", "calc.Calc#max", "calc.Calc#div"}) {
    auto src = ParseMethodSpecSource(kCalc, "Calc.java", ContractFormat::kAuto, Sel(sel));
    ASSERT_TRUE(src.ok()) << sel << ": " << src.status();
    auto ctx = src->Context();
    ASSERT_TRUE(ctx.ok()) << ctx.status();
    auto r = TypeChecker(src->environment()).CheckMethodSpec(*src->spec, *ctx);
    EXPECT_TRUE(r.ok()) << sel << ": " << r.status();
  }
  auto max =
      ParseMethodSpecSource(kCalc, "Calc.java", ContractFormat::kAuto, Sel("calc.Calc#max([I)I"));
  ASSERT_TRUE(max.ok());
  EXPECT_EQ(PrintMethodSpec(*max->spec),
            "requires a != null && a.length > 0;\nensures (\\forall int i; 0 <= i && i < a.length; "
            "a[i] <= "
            "\\result);\n");
}

TEST(SpecSourceTest, ConstructorsAndMissingThings) {
  auto ctor =
      ParseMethodSpecSource(kCalc, "Calc.java", ContractFormat::kAuto, Sel("calc.Calc#<init>(I)V"));
  ASSERT_TRUE(ctor.ok()) << ctor.status();
  EXPECT_TRUE(ctor->spec->empty());
  EXPECT_EQ(std::string(ParseMethodSpecSource(kCalc, "Calc.java", ContractFormat::kAuto,
                                              Sel("calc.Other#abs"))
                            .status()
                            .message()),
            "Calc.java: class calc.Other is not declared here (it declares calc.Calc)");
  EXPECT_EQ(std::string(ParseMethodSpecSource(kCalc, "Calc.java", ContractFormat::kAuto,
                                              Sel("calc.Calc#nope"))
                            .status()
                            .message()),
            "Calc.java: no method nope in class calc.Calc");
  // A per-class .jml lists only the methods it specifies: no contract, not
  // no method.
  EXPECT_EQ(std::string(ParseMethodSpecSource("package calc;\npublic class Calc {\n"
                                              "  //@ ensures \\result >= 0;\n"
                                              "  public static int abs(int x);\n}\n",
                                              "Calc.jml", ContractFormat::kAuto,
                                              Sel("calc.Calc#nope"))
                            .status()
                            .message()),
            "Calc.jml: no contract of nope here: the file declares no method nope in calc.Calc "
            "(it specifies abs)");
}

TEST(SpecSourceTest, SyntaxErrorsOfTheChosenMethodOnly) {
  auto broken =
      ParseMethodSpecSource(kCalc, "Calc.java", ContractFormat::kAuto, Sel("calc.Calc#broken"));
  EXPECT_EQ(std::string(broken.status().message()),
            "Calc.java:19:21: expected an expression, found ';'");
  // The other methods are still usable.
  EXPECT_TRUE(
      ParseMethodSpecSource(kCalc, "Calc.java", ContractFormat::kAuto, Sel("calc.Calc#div")).ok());
}

TEST(SpecSourceTest, ClassLevelErrorsBlockEveryMethod) {
  const char* text =
      "class K {\n  //@ invariant x >;\n  int x;\n  //@ ensures true;\n  void f() {}\n}\n";
  auto src = ParseMethodSpecSource(text, "K.java", ContractFormat::kJava, Sel("K#f"));
  EXPECT_EQ(std::string(src.status().message()),
            "K.java:2:20: expected an expression, found ';' (in the invariant clause)");
}

TEST(SpecSourceTest, JmlFile) {
  const char* text = R"jml(package calc;
import java.util.List;
public class Calc {
  public normal_behavior
    requires a >= 0;
    ensures \result == a;
  also
  public normal_behavior
    requires a < 0;
    ensures \result == -a;
  public static int abs(int a);

  //@ ensures \result == (a < 0 ? -a : a);
  public static long abs(long a);
}
)jml";
  auto src =
      ParseMethodSpecSource(text, "Calc.jml", ContractFormat::kAuto, Sel("calc.Calc#abs(I)I"));
  ASSERT_TRUE(src.ok()) << src.status();
  EXPECT_EQ(src->kind, SourceKind::kJmlFile);
  EXPECT_EQ(src->spec->cases.size(), 2u);
  auto ctx = src->Context();
  ASSERT_TRUE(ctx.ok());
  EXPECT_TRUE(TypeChecker(src->environment()).CheckMethodSpec(*src->spec, *ctx).ok());
  auto l = ParseMethodSpecSource(text, "Calc.jml", ContractFormat::kAuto, Sel("calc.Calc#abs(J)J"));
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->spec->cases.size(), 1u);
}

TEST(SpecSourceTest, BareSpecificationText) {
  // The class comes from a "classpath" environment (here: the Java source).
  auto unit = ParseJavaSource(kCalc, "Calc.java");
  ASSERT_TRUE(unit.ok());
  SourceTypeEnvironment classpath({unit->get()}, &JdkTypeEnvironment());
  LoadOptions options;
  options.classpath = &classpath;
  auto with_header = ParseMethodSpecSource(
      "//@ requires a > Integer.MIN_VALUE;\n//@ ensures \\result >= 0;\n"
      "public static int abs(int a);\n",
      "abs.txt", ContractFormat::kAuto, Sel("calc.Calc#abs"), options);
  ASSERT_TRUE(with_header.ok()) << with_header.status();
  EXPECT_EQ(with_header->descriptor, "(I)I");
  auto ctx = with_header->Context();
  ASSERT_TRUE(ctx.ok()) << ctx.status();
  EXPECT_EQ(ctx->param_names[0], "a");
  EXPECT_TRUE(
      TypeChecker(with_header->environment()).CheckMethodSpec(*with_header->spec, *ctx).ok());

  auto bare = ParseMethodSpecSource("ensures \\result == n / d;", "div.txt", ContractFormat::kAuto,
                                    Sel("calc.Calc#div(DD)D"), options);
  ASSERT_TRUE(bare.ok()) << bare.status();
  auto bare_ctx = bare->Context();
  ASSERT_TRUE(bare_ctx.ok()) << bare_ctx.status();  // names from the classpath's view
  EXPECT_TRUE(TypeChecker(bare->environment()).CheckMethodSpec(*bare->spec, *bare_ctx).ok());

  auto overloaded = ParseMethodSpecSource("ensures \\result >= 0;", "abs.txt",
                                          ContractFormat::kAuto, Sel("calc.Calc#abs"), options);
  ASSERT_TRUE(overloaded.ok());
  EXPECT_EQ(std::string(overloaded->Context().status().message()),
            "abs.txt: method abs is overloaded in calc.Calc; give a descriptor: abs(I)I, abs(J)J");
  auto wrong_name = ParseMethodSpecSource("ensures true;\nint other(int a);", "x.txt",
                                          ContractFormat::kAuto, Sel("calc.Calc#abs"), options);
  EXPECT_EQ(std::string(wrong_name.status().message()),
            "x.txt:2:5: the specification is for 'other', not for calc.Calc#abs");
  auto wrong_desc = ParseMethodSpecSource("ensures true;\nlong abs(long a);", "x.txt",
                                          ContractFormat::kAuto, Sel("calc.Calc#abs(I)I"), options);
  EXPECT_EQ(std::string(wrong_desc.status().message()),
            "x.txt:2:6: the declaration has descriptor (J)J, not (I)I");
  auto no_class =
      ParseMethodSpecSource("ensures true;", "x.txt", ContractFormat::kAuto, Sel("other.X#f"));
  ASSERT_TRUE(no_class.ok());
  EXPECT_THAT(std::string(no_class->Context().status().message()),
              HasSubstr("class other.X is not known"));
}

TEST(SpecSourceTest, LoadFromFile) {
  testing::TempDir dir;
  std::string path = dir.Write("Calc.java", kCalc);
  auto src = LoadMethodSpec(path, Sel("calc.Calc#div"));
  ASSERT_TRUE(src.ok()) << src.status();
  EXPECT_EQ(src->spec->cases[0].clauses.size(), 2u);
  EXPECT_EQ(src->spec->cases[0].clauses[0].span.FileName(), path);
  EXPECT_EQ(LoadMethodSpec(dir.path() + "/missing.jml", Sel("a.B#c")).status().code(),
            absl::StatusCode::kNotFound);
}

TEST(SpecSourceTest, ATextsDeclarationSaysWhatMayBeNull) {
  SpecTextDeclaration split = SplitSpecTextDeclaration(
      "//@ requires s == null;\n//@ ensures \\result == null;\n"
      "public /*@ nullable @*/ String trim(/*@ nullable @*/ String s, String t, int n);\n");
  ASSERT_TRUE(split.declared);
  EXPECT_EQ(split.annotations, "//@ requires s == null;\n//@ ensures \\result == null;\n");
  EXPECT_THAT(split.params, ::testing::ElementsAre(Nullity::kNullable, Nullity::kUnspecified,
                                                   Nullity::kUnspecified));
  EXPECT_EQ(split.result, Nullity::kNullable);
  // Without a declaration, or unparsable: the text as it is, nothing declared.
  for (const char* text : {"//@ ensures \\result > 0;\n", "//@ ensures \\result >;\n"}) {
    SpecTextDeclaration whole = SplitSpecTextDeclaration(text);
    EXPECT_FALSE(whole.declared) << text;
    EXPECT_EQ(whole.annotations, text);
  }
}

}  // namespace
}  // namespace tracespec::jml

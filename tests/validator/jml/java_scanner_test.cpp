// Tests for the declaration scanner (ParseJavaSource / ParseJmlFile): Java
// structure, specifications attached to methods, class-level clauses,
// ghost/model declarations, in-body annotations with their lines, and error
// attribution.
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "validator/jml/parser.h"
#include "validator/jml/printer.h"

namespace tracespec::jml {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kAccount[] = R"java(package bank;

import java.util.List;
import java.util.*;
import static java.lang.Math.max;

/** An account. */
public class Account implements Comparable<Account> {
  //@ public invariant balance >= 0;
  //@ public constraint balance >= \old(balance) || true;
  //@ initially balance == 0;
  private /*@ spec_public @*/ int balance;
  private int checksum = computeChecksum(0, "a;b{c}"), other, third[] = {1, 2};
  private java.util.Map<String, List<Integer>> history = new java.util.HashMap<String, List<Integer>>();
  //@ public ghost int deposits = 0;
  //@ public model int total;
  //@ represents total = balance + deposits;
  //@ public model \bigint exact;
  //@ private represents exact \such_that exact >= 0;
  private static final String NAME = "x}{";

  public Account() { balance = 0; }

  /*@ public normal_behavior
    @   requires amount > 0;
    @   assignable balance, checksum;
    @   ensures balance == \old(balance) + amount;
    @ also
    @ public exceptional_behavior
    @   requires amount <= 0;
    @   signals_only IllegalArgumentException;
    @*/
  public void deposit(int amount) {
    if (amount <= 0) throw new IllegalArgumentException("bad { amount");
    //@ assert amount > 0;
    balance += amount;
    //@ set deposits = deposits + 1;
    checksum = computeChecksum(balance, NAME);
  }

  //@ requires amount > 0;
  //@ ensures \result == balance;
  public long deposit(long amount) { return balance; }

  //@ ensures \result == balance;
  public /*@ pure @*/ int getBalance() { return balance; }

  public <T extends Comparable<T>> T pick(T a, T... rest) { return a; }

  public int[][] grid(String[] names, java.lang.String s, int n[]) {
    int sum = 0;
    //@ loop_invariant 0 <= i && i <= names.length;
    //@ decreases names.length - i;
    for (int i = 0; i < names.length; i++) {
      sum += i;
    }
    return null;
  }

  private static int computeChecksum(int b, String s) { return b ^ s.hashCode(); }

  @Override
  public int compareTo(Account o) { return Integer.compare(balance, o.balance); }

  /*@ public model pure int twice(int x) { return x + x; } @*/

  static class Entry {
    //@ requires v >= 0;
    Entry(int v) {}
    void touch() {}
  }

  enum Kind { SAVINGS, CHECKING("c") { void f() {} }; Kind() {} Kind(String s) {} int code() { return 1; } }

  interface Listener { void changed(int from, int to); default int zero() { return 0; } }

  record Point(int x, int y) {
    Point {
      if (x < 0) throw new IllegalArgumentException();
    }
  }
}
)java";

const TypeDecl& Find(const CompilationUnit& unit, const std::string& name) {
  const TypeDecl* t = unit.FindType(name);
  EXPECT_NE(t, nullptr) << name;
  static TypeDecl empty;
  return t != nullptr ? *t : empty;
}

const MethodDecl* Method(const TypeDecl& t, const std::string& name, size_t nth = 0) {
  for (const auto& m : t.methods) {
    if (m.name == name && nth-- == 0) return &m;
  }
  ADD_FAILURE() << "no method " << name;
  return nullptr;
}

TEST(JavaScannerTest, Structure) {
  auto unit = ParseJavaSource(kAccount, "Account.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  EXPECT_EQ((*unit)->package, "bank");
  ASSERT_EQ((*unit)->imports.size(), 3u);
  EXPECT_TRUE((*unit)->imports[1].on_demand);
  EXPECT_TRUE((*unit)->imports[2].is_static);
  EXPECT_EQ((*unit)->imports[2].name, "java.lang.Math.max");
  std::vector<std::string> types;
  for (const auto& t : (*unit)->types) types.push_back(t->binary_name);
  EXPECT_THAT(types, ElementsAre("bank.Account", "bank.Account$Entry", "bank.Account$Kind",
                                 "bank.Account$Listener", "bank.Account$Point"));
  const TypeDecl& acc = Find(**unit, "bank.Account");
  for (const auto& t : (*unit)->types) EXPECT_TRUE(t->errors.empty()) << t->errors[0];
  std::vector<std::string> fields;
  for (const auto& f : acc.fields) fields.push_back(f.name);
  EXPECT_THAT(fields, ElementsAre("balance", "checksum", "other", "third", "history", "deposits",
                                  "total", "exact", "NAME"));
  EXPECT_TRUE(acc.fields[0].mods.Has(kModSpecPublic | kModPrivate));
  EXPECT_EQ(acc.fields[3].type.dims, 1);
  EXPECT_TRUE(acc.fields[5].mods.Has(kModGhost));
  EXPECT_TRUE(acc.fields[5].jml);
  ASSERT_NE(acc.fields[5].init, nullptr);
  EXPECT_TRUE(acc.fields[6].mods.Has(kModModel));
  EXPECT_EQ(acc.fields[7].type.name, "\\bigint");
  EXPECT_EQ(acc.implements[0].name, "Comparable");
  std::vector<std::string> methods;
  for (const auto& m : acc.methods) methods.push_back(m.name);
  EXPECT_THAT(methods, ElementsAre("<init>", "deposit", "deposit", "getBalance", "pick", "grid",
                                   "computeChecksum", "compareTo", "twice"));
}

TEST(JavaScannerTest, ClassClauses) {
  auto unit = ParseJavaSource(kAccount, "Account.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  const TypeDecl& acc = Find(**unit, "bank.Account");
  ASSERT_EQ(acc.clauses.size(), 5u);
  EXPECT_EQ(PrintClassClause(acc.clauses[0]), "public invariant balance >= 0;");
  EXPECT_EQ(PrintClassClause(acc.clauses[1]),
            "public constraint balance >= \\old(balance) || true;");
  EXPECT_EQ(PrintClassClause(acc.clauses[2]), "initially balance == 0;");
  EXPECT_EQ(PrintClassClause(acc.clauses[3]), "represents total = balance + deposits;");
  EXPECT_EQ(PrintClassClause(acc.clauses[4]), "private represents exact \\such_that exact >= 0;");
  EXPECT_EQ(acc.clauses[0].span.line, 9);
}

TEST(JavaScannerTest, SpecificationsAttachToTheFollowingMethod) {
  auto unit = ParseJavaSource(kAccount, "Account.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  const TypeDecl& acc = Find(**unit, "bank.Account");
  const MethodDecl* dep_int = Method(acc, "deposit", 0);
  const MethodDecl* dep_long = Method(acc, "deposit", 1);
  ASSERT_NE(dep_int, nullptr);
  ASSERT_NE(dep_long, nullptr);
  EXPECT_TRUE(Method(acc, "<init>")->spec.empty());
  ASSERT_EQ(dep_int->spec.cases.size(), 2u);
  EXPECT_EQ(dep_int->spec.cases[1].behavior, Behavior::kExceptional);
  EXPECT_EQ(dep_int->params[0].type.name, "int");
  EXPECT_EQ(dep_long->params[0].type.name, "long");
  EXPECT_EQ(PrintMethodSpec(dep_long->spec),
            "requires amount > 0;\nensures \\result == balance;\n");
  EXPECT_TRUE(Method(acc, "getBalance")->mods.Has(kModPure | kModPublic));
  EXPECT_EQ(Method(acc, "getBalance")->spec.cases.size(), 1u);
  EXPECT_TRUE(Method(acc, "compareTo")->spec.empty());
  EXPECT_THAT(Method(acc, "compareTo")->mods.annotations, ElementsAre("Override"));
}

TEST(JavaScannerTest, HeadersWithGenericsArraysAndVarargs) {
  auto unit = ParseJavaSource(kAccount, "Account.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  const TypeDecl& acc = Find(**unit, "bank.Account");
  const MethodDecl* pick = Method(acc, "pick");
  ASSERT_EQ(pick->type_params.size(), 1u);
  EXPECT_EQ(pick->type_params[0].name, "T");
  EXPECT_EQ(pick->type_params[0].bounds[0].name, "Comparable");
  EXPECT_TRUE(pick->params[1].varargs);
  EXPECT_EQ(pick->params[1].type.dims, 1);
  const MethodDecl* grid = Method(acc, "grid");
  EXPECT_EQ(grid->return_type.dims, 2);
  EXPECT_EQ(grid->params[2].type.dims, 1);  // int n[]
  EXPECT_EQ(grid->params[1].type.name, "java.lang.String");
}

TEST(JavaScannerTest, BodyAnnotationsWithLines) {
  auto unit = ParseJavaSource(kAccount, "Account.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  const TypeDecl& acc = Find(**unit, "bank.Account");
  const MethodDecl* dep = Method(acc, "deposit", 0);
  ASSERT_EQ(dep->body_annotations.size(), 2u);
  EXPECT_EQ(dep->body_annotations[0].kind, BodyAnnotationKind::kAssert);
  EXPECT_EQ(dep->body_annotations[0].span.line, 35);
  EXPECT_EQ(dep->body_annotations[0].next_code_line, 36);
  EXPECT_EQ(dep->body_annotations[1].kind, BodyAnnotationKind::kSet);
  EXPECT_EQ(PrintBodyAnnotation(dep->body_annotations[1]), "set deposits = deposits + 1;");
  EXPECT_EQ(dep->body_begin_line, 33);
  EXPECT_EQ(dep->body_end_line, 39);
  const MethodDecl* grid = Method(acc, "grid");
  ASSERT_EQ(grid->body_annotations.size(), 2u);
  EXPECT_EQ(grid->body_annotations[0].kind, BodyAnnotationKind::kLoopInvariant);
  EXPECT_EQ(grid->body_annotations[1].kind, BodyAnnotationKind::kDecreases);
  // Both annotate the loop on the line after them.
  EXPECT_EQ(grid->body_annotations[0].next_code_line, grid->body_annotations[1].span.line + 1);
  EXPECT_EQ(grid->body_annotations[1].next_code_line, 54);
  // ... which is a loop (a statement is not).
  EXPECT_TRUE(grid->body_annotations[0].precedes_loop);
  EXPECT_FALSE(dep->body_annotations[0].precedes_loop);
}

TEST(JavaScannerTest, BodyAnnotationsBeforeLoops) {
  constexpr char kLoops[] = R"java(package p;
class Loops {
  void m(int n) {
    int i = 0;
    //@ maintaining i >= 0;
    while (true) { if (i >= n) break; i++; }
    //@ maintaining i >= 0;
    /* a plain comment */ do { i--; } while (i > 0);
    //@ maintaining i >= 0;
    outer: for (;;) { break outer; }
    //@ maintaining i >= 0;
    i = 0;
    //@ maintaining i >= 0;
    forty: i++;
  }
}
)java";
  auto unit = ParseJavaSource(kLoops, "Loops.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  const MethodDecl* m = Method(Find(**unit, "p.Loops"), "m");
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->body_annotations.size(), 5u);
  EXPECT_TRUE(m->body_annotations[0].precedes_loop);   // while
  EXPECT_TRUE(m->body_annotations[1].precedes_loop);   // do, after a plain comment
  EXPECT_TRUE(m->body_annotations[2].precedes_loop);   // a labelled for
  EXPECT_FALSE(m->body_annotations[3].precedes_loop);  // an assignment
  EXPECT_FALSE(m->body_annotations[4].precedes_loop);  // a labelled statement
}

TEST(JavaScannerTest, ModelMethodWithBody) {
  auto unit = ParseJavaSource(kAccount, "Account.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  const MethodDecl* twice = Method(Find(**unit, "bank.Account"), "twice");
  ASSERT_NE(twice, nullptr);
  EXPECT_TRUE(twice->jml);
  EXPECT_TRUE(twice->mods.Has(kModModel | kModPure));
  ASSERT_NE(twice->model_body, nullptr);
  EXPECT_EQ(PrintExpr(*twice->model_body), "x + x");
}

TEST(JavaScannerTest, NestedEnumInterfaceRecord) {
  auto unit = ParseJavaSource(kAccount, "Account.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  const TypeDecl& entry = Find(**unit, "bank.Account$Entry");
  EXPECT_EQ(entry.outer, &Find(**unit, "bank.Account"));
  ASSERT_EQ(entry.methods.size(), 2u);
  EXPECT_TRUE(entry.methods[0].is_constructor);
  EXPECT_EQ(entry.methods[0].spec.cases.size(), 1u);
  const TypeDecl& kind = Find(**unit, "bank.Account$Kind");
  EXPECT_EQ(kind.kind, TypeDeclKind::kEnum);
  ASSERT_EQ(kind.fields.size(), 2u);
  EXPECT_EQ(kind.fields[1].name, "CHECKING");
  EXPECT_EQ(kind.methods.size(), 3u);
  const TypeDecl& listener = Find(**unit, "bank.Account$Listener");
  EXPECT_EQ(listener.kind, TypeDeclKind::kInterface);
  EXPECT_TRUE(listener.methods[1].mods.Has(kModDefault));
  const TypeDecl& point = Find(**unit, "bank.Account$Point");
  EXPECT_EQ(point.kind, TypeDeclKind::kRecord);
  ASSERT_EQ(point.fields.size(), 2u);
  EXPECT_TRUE(point.methods.empty());
}

TEST(JavaScannerTest, JmlFileWithoutBodies) {
  const char* text = R"jml(package bank;
public class Account {
  private /*@ spec_public @*/ int balance;
  //@ public invariant balance >= 0;
  public normal_behavior
    requires amount > 0;
    assignable balance;
    ensures balance == \old(balance) + amount;
  public void deposit(int amount);

  //@ ensures \result == balance;
  public /*@ pure @*/ int getBalance();

  public model int twice;
  ghost int count;
  requires x > 0;
  public static int abs(int x);
}
)jml";
  auto unit = ParseJmlFile(text, "Account.jml");
  ASSERT_TRUE(unit.ok()) << unit.status();
  const TypeDecl& acc = Find(**unit, "bank.Account");
  EXPECT_TRUE(acc.errors.empty()) << acc.errors[0];
  ASSERT_EQ(acc.methods.size(), 3u);
  EXPECT_FALSE(acc.methods[0].has_body);
  EXPECT_EQ(acc.methods[0].spec.cases[0].behavior, Behavior::kNormal);
  EXPECT_EQ(acc.methods[0].spec.cases[0].visibility, Visibility::kPublic);
  EXPECT_EQ(acc.methods[1].spec.cases.size(), 1u);
  EXPECT_EQ(acc.methods[2].spec.cases.size(), 1u);
  EXPECT_EQ(acc.clauses.size(), 1u);
  ASSERT_EQ(acc.fields.size(), 3u);
  EXPECT_TRUE(acc.fields[1].mods.Has(kModModel));
  EXPECT_TRUE(acc.fields[2].mods.Has(kModGhost));
}

TEST(JavaScannerTest, BadAnnotationStaysWithItsMethod) {
  const char* text = R"java(class C {
  //@ requires x >> ;
  int f(int x) { return x; }
  //@ requires y > 0;
  int g(int y) { return y; }
  int h(int z) {
    //@ assert z >;
    return z;
  }
}
)java";
  auto unit = ParseJavaSource(text, "C.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  const TypeDecl& c = Find(**unit, "C");
  ASSERT_EQ(c.methods.size(), 3u);
  ASSERT_EQ(c.methods[0].errors.size(), 1u);
  EXPECT_EQ(std::string(c.methods[0].errors[0].message()),
            "C.java:2:21: expected an expression, found ';'");
  EXPECT_TRUE(c.methods[1].errors.empty());
  EXPECT_EQ(c.methods[1].spec.cases.size(), 1u);
  ASSERT_EQ(c.methods[2].errors.size(), 1u);
  EXPECT_EQ(std::string(c.methods[2].errors[0].message()),
            "C.java:7:19: expected an expression, found ';'");
}

TEST(JavaScannerTest, AnErrorInsideNestedCasesIsTheOneReported) {
  // Reading on after the failing clause lands inside the nested group;
  // what is left of it must not add an error of its own ("unexpected '|}'")
  // that would hide the real one and fail the whole class.
  const char* text = R"java(class C {
  /*@ behavior
    @ {| requires x >> ; ensures true;
    @ also requires x < 0; ensures true; |}
    @*/
  int f(int x) { return x; }
  //@ requires y > 0;
  int g(int y) { return y; }
}
)java";
  auto unit = ParseJavaSource(text, "C.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  const TypeDecl& c = Find(**unit, "C");
  EXPECT_TRUE(c.errors.empty()) << c.errors[0];
  ASSERT_EQ(c.methods.size(), 2u);
  ASSERT_EQ(c.methods[0].errors.size(), 1u);
  EXPECT_EQ(std::string(c.methods[0].errors[0].message()),
            "C.java:3:24: expected an expression, found ';'");
  EXPECT_TRUE(c.methods[1].errors.empty());
}

TEST(JavaScannerTest, TheLastClauseMayLackItsSemicolonAtTheAnnotationEnd) {
  // As OpenJML accepts it; `pure function` is a JML modifier pair.
  auto unit = ParseJavaSource(
      "class C {\n  //@ requires x > 0\n  /*@ pure function @*/ int f(int x) { return x; }\n"
      "  //@ requires x > 0 ensures x > 1;\n  int g(int x) { return x; }\n}\n",
      "C.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  const TypeDecl& c = Find(**unit, "C");
  ASSERT_EQ(c.methods.size(), 2u);
  EXPECT_TRUE(c.methods[0].errors.empty());
  ASSERT_EQ(c.methods[0].spec.cases.size(), 1u);
  EXPECT_EQ(c.methods[0].spec.cases[0].clauses.size(), 1u);
  EXPECT_TRUE(c.methods[0].mods.Has(kModPure | kModFunction));
  // Two clauses on one line still need the ';' between them.
  ASSERT_EQ(c.methods[1].errors.size(), 1u);
  EXPECT_EQ(std::string(c.methods[1].errors[0].message()),
            "C.java:4:22: expected ';' at the end of the requires clause, found 'ensures'");
}

TEST(JavaScannerTest, UnparenthesizedQuantifiersEndWithTheirClause) {
  // In a method specification, a class invariant and a loop annotation,
  // each followed by more JML in the same comment.
  const char* text = R"java(class Sort {
  /*@ public invariant \forall int i; 0 <= i && i < data.length; data[i] >= 0;
    @ public ghost int swaps;
    @*/
  int[] data;
  /*@ requires a != null;
    @ ensures \forall int j; 0 <= j && j < a.length; \forall int i; 0 <= i && i < j; a[i] <= a[j];
    @ ensures \exists int k; 0 <= k && k < a.length; a[k] == \old(a[0])
    @*/
  void sort(int[] a) {
    for (int n = 0; n < a.length; n++) {
      /*@ maintaining \forall int i; 0 <= i && i < n; a[i] <= a[n];
        @ decreases a.length - n; @*/
      a[n] = a[n];
    }
  }
}
)java";
  auto unit = ParseJavaSource(text, "Sort.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  const TypeDecl& c = Find(**unit, "Sort");
  ASSERT_EQ(c.errors.size(), 0u) << c.errors[0];
  ASSERT_EQ(c.clauses.size(), 1u);
  EXPECT_EQ(PrintClassClause(c.clauses[0]),
            "public invariant (\\forall int i; 0 <= i && i < data.length; data[i] >= 0);");
  ASSERT_EQ(c.fields.size(), 2u);
  EXPECT_EQ(c.fields[0].name, "swaps");
  const MethodDecl* sort = Method(c, "sort");
  ASSERT_NE(sort, nullptr);
  ASSERT_TRUE(sort->errors.empty()) << sort->errors[0];
  const auto& cl = sort->spec.cases[0].clauses;
  ASSERT_EQ(cl.size(), 3u);
  EXPECT_EQ(PrintClause(cl[1]),
            "ensures (\\forall int j; 0 <= j && j < a.length; (\\forall int i; 0 <= i && i < j; "
            "a[i] <= a[j]));");
  EXPECT_EQ(PrintClause(cl[2]),
            "ensures (\\exists int k; 0 <= k && k < a.length; a[k] == \\old(a[0]));");
  ASSERT_EQ(sort->body_annotations.size(), 2u);
  EXPECT_EQ(PrintBodyAnnotation(sort->body_annotations[0]),
            "loop_invariant (\\forall int i; 0 <= i && i < n; a[i] <= a[n]);");
  EXPECT_EQ(sort->body_annotations[1].kind, BodyAnnotationKind::kDecreases);
}

TEST(JavaScannerTest, ClassLevelErrors) {
  const char* text = R"java(class C {
  //@ invariant x >;
  //@ requires y > 0;
  int x;
  //@ foo bar;
}
)java";
  auto unit = ParseJavaSource(text, "C.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  const TypeDecl& c = Find(**unit, "C");
  ASSERT_EQ(c.errors.size(), 3u);
  // The clause is named: the position alone does not say what was read.
  EXPECT_EQ(std::string(c.errors[0].message()),
            "C.java:2:20: expected an expression, found ';' (in the invariant clause)");
  EXPECT_EQ(
      std::string(c.errors[1].message()),
      "C.java:3:7: a method specification must be followed by a method declaration, not field 'x'");
  EXPECT_THAT(std::string(c.errors[2].message()),
              HasSubstr("C.java:5:7: unexpected 'foo' in a JML annotation"));
}

TEST(JavaScannerTest, JavaSyntaxErrorsFailTheFile) {
  EXPECT_THAT(std::string(ParseJavaSource("class C { int f( { }", "C.java").status().message()),
              HasSubstr("C.java:1:"));
  EXPECT_EQ(std::string(ParseJavaSource("class C { void f() { ", "C.java").status().message()),
            "C.java:1:20: '{' is never closed");
  EXPECT_EQ(std::string(ParseJavaSource("class C {", "C.java").status().message()),
            "C.java:1:9: the body of C is never closed");
  EXPECT_EQ(ParseJavaSource("int x;", "C.java").status().message(),
            "C.java:1:1: expected a class, interface, enum or record declaration, found 'int'");
}

TEST(JavaScannerTest, AnnotationsAndModifiers) {
  const char* text = R"java(@SuppressWarnings({"a", "b"})
public final class C<K, V extends Comparable<V>> extends java.util.AbstractMap<K, V> {
  @org.jmlspecs.annotation.Pure public int size() { return 0; }
  public @NonNull String name(@Nullable String s, final int... xs) { return s; }
  protected /*@ helper nullable @*/ Object o(/*@ non_null @*/ Object p) { return p; }
  public sealed interface S permits A, B {}
  public non-sealed class A implements S {}
  final class B implements S {}
  public java.util.Set<java.util.Map.Entry<K, V>> entrySet() { return null; }
}
)java";
  auto unit = ParseJavaSource(text, "C.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  const TypeDecl& c = Find(**unit, "C");
  EXPECT_EQ(c.type_params.size(), 2u);
  EXPECT_EQ(c.extends.name, "java.util.AbstractMap");
  EXPECT_TRUE(c.methods[0].mods.Has(kModPure));
  EXPECT_TRUE(c.methods[1].params[0].mods.Has(kModNullable));
  EXPECT_TRUE(c.methods[1].params[1].mods.Has(kModFinal));
  EXPECT_TRUE(c.methods[2].mods.Has(kModHelper | kModNullable | kModProtected));
  EXPECT_TRUE(c.methods[2].params[0].mods.Has(kModNonNull));
  EXPECT_TRUE(Find(**unit, "C$A").mods.Has(kModNonSealed));
  EXPECT_EQ(PrintTypeRef(c.methods[3].return_type), "java.util.Set<java.util.Map.Entry<K, V>>");
}

}  // namespace
}  // namespace tracespec::jml

// Tests for validator/jml/type_env.h: subtyping and conversions, member
// lookup, name resolution, the source-declared environment (descriptors,
// modifiers, JML members), the built-in JDK classes, chaining and overlays.
#include "validator/jml/type_env.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "validator/jml/parser.h"

namespace tracespec::jml {
namespace {

using ::testing::ElementsAre;

const TypeEnvironment& Jdk() { return JdkTypeEnvironment(); }

TEST(TypeEnvTest, JdkHierarchy) {
  EXPECT_TRUE(IsSubclassOf(Jdk(), "java.lang.ArrayIndexOutOfBoundsException",
                           "java.lang.RuntimeException"));
  EXPECT_TRUE(IsSubclassOf(Jdk(), "java.lang.NumberFormatException", "java.lang.Throwable"));
  EXPECT_TRUE(IsSubclassOf(Jdk(), "java.lang.String", "java.lang.CharSequence"));
  EXPECT_TRUE(IsSubclassOf(Jdk(), "java.lang.Integer", "java.lang.Number"));
  EXPECT_TRUE(IsSubclassOf(Jdk(), "anything.Unknown", "java.lang.Object"));
  EXPECT_FALSE(IsSubclassOf(Jdk(), "java.lang.Error", "java.lang.Exception"));
  const ClassInfo* math = Jdk().FindClass("java.lang.Math");
  ASSERT_NE(math, nullptr);
  const MethodInfo* abs = math->FindMethod("abs", "(J)J");
  ASSERT_NE(abs, nullptr);
  EXPECT_TRUE(abs->is_static && abs->is_pure);
  const FieldInfo* max = Jdk().FindClass("java.lang.Integer")->FindField("MAX_VALUE");
  ASSERT_NE(max, nullptr);
  EXPECT_EQ(max->type, Type::Int());
  EXPECT_TRUE(max->is_static);
  EXPECT_EQ(Jdk().FindClass("java.lang.Boolean")->FindField("TRUE")->type,
            Type::Class("java.lang.Boolean"));
}

TEST(TypeEnvTest, Conversions) {
  const auto& env = Jdk();
  EXPECT_TRUE(IsAssignable(env, Type::Int(), Type::Long()));
  EXPECT_TRUE(IsAssignable(env, Type::Char(), Type::Int()));
  EXPECT_FALSE(IsAssignable(env, Type::Short(), Type::Char()));
  EXPECT_FALSE(IsAssignable(env, Type::Char(), Type::Short()));
  EXPECT_FALSE(IsAssignable(env, Type::Long(), Type::Int()));
  EXPECT_TRUE(IsAssignable(env, Type::Long(), Type::Float()));
  EXPECT_TRUE(IsAssignable(env, Type::Long(), Type::Bigint()));
  EXPECT_FALSE(IsAssignable(env, Type::Double(), Type::Bigint()));
  EXPECT_TRUE(IsAssignable(env, Type::Double(), Type::Real()));
  EXPECT_FALSE(IsAssignable(env, Type::Bigint(), Type::Long()));
  EXPECT_TRUE(IsAssignable(env, Type::Null(), Type::String()));
  EXPECT_TRUE(IsAssignable(env, Type::String(), Type::Object()));
  EXPECT_TRUE(IsAssignable(env, Type::Int(), Type::Class("java.lang.Integer")));
  EXPECT_TRUE(IsAssignable(env, Type::Int(), Type::Object()));
  EXPECT_TRUE(IsAssignable(env, Type::Class("java.lang.Integer"), Type::Long()));
  EXPECT_FALSE(IsConvertibleForCall(env, Type::Int(), Type::Object(), /*allow_boxing=*/false));
  EXPECT_TRUE(IsAssignable(env, Type::ArrayOf(Type::String()), Type::ArrayOf(Type::Object())));
  EXPECT_FALSE(IsAssignable(env, Type::ArrayOf(Type::Int()), Type::ArrayOf(Type::Long())));
  EXPECT_TRUE(IsAssignable(env, Type::ArrayOf(Type::Int()), Type::Class("java.lang.Cloneable")));
  EXPECT_TRUE(IsCastable(env, Type::Object(), Type::ArrayOf(Type::Int())));
  EXPECT_TRUE(IsCastable(env, Type::Double(), Type::Char()));
  EXPECT_FALSE(IsCastable(env, Type::Boolean(), Type::Int()));
  EXPECT_TRUE(IsCastable(env, Type::Object(), Type::Int()));
  EXPECT_TRUE(IsCastable(env, Type::Class("java.lang.Number"), Type::Class("java.lang.Integer")));
  EXPECT_FALSE(IsCastable(env, Type::String(), Type::Class("java.lang.Integer")));
  EXPECT_TRUE(
      IsCastable(env, Type::Class("java.lang.Number"), Type::Class("java.lang.CharSequence")));
  EXPECT_FALSE(IsCastable(env, Type::String(), Type::ArrayOf(Type::Int())));
}

constexpr char kShapes[] = R"java(package geo;
import java.util.List;
import java.util.Map.Entry;
public abstract class Shape implements Comparable<Shape> {
  protected int id;
  public static final int MAX = 10;
  //@ public model double area;
  public abstract double area() throws IllegalStateException, java.io.IOException;
  public /*@ pure @*/ int id() { return id; }
  public <T extends Number> T scale(T factor, List<T> all, Entry<String, T> e, int... rest) { return factor; }
  public static class Circle extends Shape {
    private double r;
    public double area() { return r * r; }
  }
  public interface Visitor<R> { R visit(Shape s); }
}
)java";

class SourceEnvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto unit = ParseJavaSource(kShapes, "Shape.java");
    ASSERT_TRUE(unit.ok()) << unit.status();
    unit_ = *std::move(unit);
    env_ = std::make_unique<SourceTypeEnvironment>(std::vector<const CompilationUnit*>{unit_.get()},
                                                   &Jdk());
  }
  std::unique_ptr<CompilationUnit> unit_;
  std::unique_ptr<SourceTypeEnvironment> env_;
};

TEST_F(SourceEnvTest, ClassesAndMembers) {
  const ClassInfo* shape = env_->FindClass("geo.Shape");
  ASSERT_NE(shape, nullptr);
  EXPECT_TRUE(shape->is_abstract);
  EXPECT_EQ(shape->superclass, "java.lang.Object");
  EXPECT_THAT(shape->interfaces, ElementsAre("java.lang.Comparable"));
  const FieldInfo* area = shape->FindField("area");
  ASSERT_NE(area, nullptr);
  EXPECT_TRUE(area->is_model);
  EXPECT_EQ(area->type, Type::Double());
  EXPECT_TRUE(shape->FindField("MAX")->is_static);
  const MethodInfo* id = shape->FindMethod("id", "()I");
  ASSERT_NE(id, nullptr);
  EXPECT_TRUE(id->is_pure);
  EXPECT_FALSE(shape->FindMethod("area", "()D")->is_pure);
  EXPECT_TRUE(shape->FindMethod("area", "()D")->is_abstract);
  EXPECT_THAT(shape->FindMethod("area", "()D")->exceptions,
              ElementsAre("java.lang.IllegalStateException", "java.io.IOException"));
  // Type variables erase to their bound; imports resolve; varargs are arrays.
  const MethodInfo* scale = shape->methods[2].name == "scale" ? &shape->methods[2] : nullptr;
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ(scale->descriptor,
            "(Ljava/lang/Number;Ljava/util/List;Ljava/util/Map$Entry;[I)Ljava/lang/Number;");
  EXPECT_TRUE(scale->is_varargs);
  EXPECT_THAT(scale->param_names, ElementsAre("factor", "all", "e", "rest"));
  const ClassInfo* circle = env_->FindClass("geo.Shape$Circle");
  ASSERT_NE(circle, nullptr);
  EXPECT_EQ(circle->superclass, "geo.Shape");
  EXPECT_TRUE(IsSubclassOf(*env_, "geo.Shape$Circle", "java.lang.Comparable"));
  auto f = LookupField(*env_, "geo.Shape$Circle", "id");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->owner->name, "geo.Shape");
  auto areas = LookupMethods(*env_, "geo.Shape$Circle", "area");
  ASSERT_EQ(areas.size(), 1u);
  EXPECT_EQ(areas[0].owner->name, "geo.Shape$Circle");
  const ClassInfo* visitor = env_->FindClass("geo.Shape$Visitor");
  ASSERT_NE(visitor, nullptr);
  EXPECT_TRUE(visitor->is_interface);
  EXPECT_EQ(visitor->methods[0].descriptor, "(Lgeo/Shape;)Ljava/lang/Object;");
  EXPECT_EQ(visitor->methods[0].visibility, Visibility::kPublic);
  EXPECT_FALSE(LookupMethods(*env_, "geo.Shape$Visitor", "hashCode").empty());
}

TEST_F(SourceEnvTest, NameResolution) {
  NameContext ctx = env_->ContextFor(*unit_->FindType("geo.Shape$Circle"));
  EXPECT_EQ(ResolveClassName(*env_, ctx, "Shape"), "geo.Shape");
  EXPECT_EQ(ResolveClassName(*env_, ctx, "Circle"), "geo.Shape$Circle");
  EXPECT_EQ(ResolveClassName(*env_, ctx, "Visitor"), "geo.Shape$Visitor");
  EXPECT_EQ(ResolveClassName(*env_, ctx, "Shape.Visitor"), "geo.Shape$Visitor");
  EXPECT_EQ(ResolveClassName(*env_, ctx, "geo.Shape.Circle"), "geo.Shape$Circle");
  EXPECT_EQ(ResolveClassName(*env_, ctx, "String"), "java.lang.String");
  EXPECT_EQ(ResolveClassName(*env_, ctx, "java.lang.Math"), "java.lang.Math");
  EXPECT_EQ(ResolveClassName(*env_, ctx, "Nope"), std::nullopt);
  TypeRef list;
  list.name = "List";
  EXPECT_FALSE(
      ResolveType(*env_, ctx, list).ok());  // java.util.List is not known to the built-in JDK view
  EXPECT_EQ(*ResolveType(*env_, ctx, list, /*guess=*/true), Type::Class("java.util.List"));
  TypeRef unknown;
  unknown.name = "Widget";
  unknown.dims = 1;
  EXPECT_EQ(*ResolveType(*env_, ctx, unknown, true), Type::ArrayOf(Type::Class("geo.Widget")));
  EXPECT_EQ(std::string(ResolveType(*env_, ctx, unknown).status().message()),
            "unknown type 'Widget'");
}

TEST_F(SourceEnvTest, ChainedAndOverlay) {
  // The "base" plays the class-file view: the real members, no JML.
  auto base_unit = ParseJavaSource(
      "package geo; public abstract class Shape { protected int id; public int id() { return id; } "
      "public abstract double area(); }",
      "base.java");
  ASSERT_TRUE(base_unit.ok());
  SourceTypeEnvironment base({base_unit->get()}, nullptr);
  OverlayTypeEnvironment overlay(base, *env_);
  const ClassInfo* merged = overlay.FindClass("geo.Shape");
  ASSERT_NE(merged, nullptr);
  EXPECT_EQ(merged, overlay.FindClass("geo.Shape"));      // cached
  EXPECT_TRUE(merged->FindMethod("id", "()I")->is_pure);  // from the specification
  EXPECT_TRUE(merged->FindField("area")->is_model);       // JML-only member added
  EXPECT_EQ(overlay.FindClass("geo.Shape$Circle"), env_->FindClass("geo.Shape$Circle"));
  ChainedTypeEnvironment chain({&base, &Jdk()});
  EXPECT_NE(chain.FindClass("java.lang.String"), nullptr);
  EXPECT_EQ(chain.FindClass("geo.Shape"), base.FindClass("geo.Shape"));
  EXPECT_EQ(chain.FindClass("geo.Missing"), nullptr);
}

TEST_F(SourceEnvTest, NullityDefaults) {
  auto unit = ParseJavaSource(
      "/*@ nullable_by_default @*/ class N { Object f; /*@ non_null @*/ Object g; Object m(Object "
      "a, "
      "/*@ non_null @*/ Object b, int c) { return a; } }",
      "N.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  SourceTypeEnvironment env({unit->get()}, &Jdk());
  const ClassInfo* n = env.FindClass("N");
  EXPECT_EQ(n->FindField("f")->nullity, Nullity::kNullable);
  EXPECT_EQ(n->FindField("g")->nullity, Nullity::kNonNull);
  EXPECT_THAT(n->methods[0].param_nullity,
              ElementsAre(Nullity::kNullable, Nullity::kNonNull, Nullity::kUnspecified));
  EXPECT_EQ(n->methods[0].result_nullity, Nullity::kNullable);
}

}  // namespace
}  // namespace tracespec::jml

// The table of modelled JDK methods against the compiled Java models, the
// executor's resolution and the JML type environment: one table, read by
// all of them.
#include "validator/jdk/jdk_models.h"

#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "validator/classfile/class_path.h"
#include "validator/classfile/descriptors.h"
#include "validator/jml/type_env.h"
#include "validator/symex/library_classes.h"
#include "validator/symex/program.h"

namespace tracespec::jdk {
namespace {

TEST(JdkModelsTest, TableIsSortedAndUnique) {
  const std::vector<ModelledMethod>& table = ModelledMethods();
  ASSERT_FALSE(table.empty());
  for (size_t i = 1; i < table.size(); ++i) {
    EXPECT_LT(table[i - 1].Key(), table[i].Key());
  }
  for (const ModelledMethod& m : table) {
    EXPECT_TRUE(classfile::ParseMethodDescriptor(m.descriptor).ok()) << m.Key();
    EXPECT_EQ(FindModelledMethod(m.Key()), &m);
  }
  EXPECT_EQ(FindModelledMethod("java/util/Arrays.asList([Ljava/lang/Object;)Ljava/util/List;"),
            nullptr);
}

// Every Java entry of the table has public static bytecode in the embedded
// models (an instance method's takes the receiver first), and every public
// method of a model class is in the table. The natives the models call
// (tracespec/jdk/Intrinsics) are natives of the table.
TEST(JdkModelsTest, JavaEntriesMatchTheCompiledModels) {
  classfile::ClassPath path;
  ASSERT_TRUE(path.AddJarBytes(ModelArchive(), "models").ok());
  std::set<std::string> compiled;
  for (const std::string& name : path.ListClasses()) {
    ASSERT_TRUE(absl::StartsWith(name, kModelPackagePrefix)) << name;
    if (!absl::StartsWith(JdkClassOfModel(name), "java/")) continue;  // Intrinsics
    auto file = path.Load(name);
    ASSERT_TRUE(file.ok()) << file.status();
    for (const classfile::Method& m : (*file)->methods) {
      if (!m.is_public()) continue;
      EXPECT_TRUE(m.is_static()) << name << "." << m.name;
      EXPECT_TRUE(m.code.has_value()) << name << "." << m.name;
      compiled.insert(absl::StrCat(JdkClassOfModel(name), ".", m.name, m.descriptor));
    }
  }
  std::set<std::string> listed;
  for (const ModelledMethod& m : ModelledMethods()) {
    if (m.kind == ModelKind::kJava) {
      listed.insert(absl::StrCat(m.owner, ".", m.name, ModelDescriptor(m)));
    }
  }
  for (const std::string& k : compiled) EXPECT_TRUE(listed.count(k)) << "not in the table: " << k;
  for (const std::string& k : listed) EXPECT_TRUE(compiled.count(k)) << "no model: " << k;
  EXPECT_GT(listed.size(), 80u);
}

TEST(JdkModelsTest, NativesAreTheExecutorsLibraryModels) {
  size_t natives = 0;
  for (const ModelledMethod& m : ModelledMethods()) {
    bool native = m.kind == ModelKind::kNative;
    natives += native;
    EXPECT_EQ(symex::IsModelledLibraryMethod(m.Key()), native) << m.Key();
  }
  EXPECT_EQ(symex::ModelledLibraryMethods().size(), natives);
}

TEST(JdkModelsTest, ExecutorRunsJavaModelsAsBytecode) {
  auto program = symex::Program::Load(classfile::ClassPath());
  ASSERT_TRUE(program.ok()) << program.status();
  symex::CallTarget t = (*program)->ResolveStatic("java/util/Arrays", "copyOf", "([II)[I");
  ASSERT_EQ(t.kind, symex::CallTarget::Kind::kBytecode) << t.reason;
  EXPECT_EQ(t.method->DisplayName(), "java.util.Arrays.copyOf(int[],int)");
  EXPECT_EQ((*program)->ResolveStatic("java/lang/Math", "addExact", "(II)I").kind,
            symex::CallTarget::Kind::kLibrary);
  // Outside the models: unsupported, naming the method.
  symex::CallTarget unknown = (*program)->ResolveStatic(
      "java/util/Arrays", "asList", "([Ljava/lang/Object;)Ljava/util/List;");
  EXPECT_EQ(unknown.kind, symex::CallTarget::Kind::kUnsupported);
  EXPECT_EQ(unknown.reason,
            "call of java.util.Arrays.asList(java.lang.Object[]) is not modelled by the validator");
  // String's instance methods run their models, receiver first.
  symex::CallTarget length = (*program)->Select((*program)->TypeIdOf("java/lang/String"),
                                                "length", "()I");
  ASSERT_EQ(length.kind, symex::CallTarget::Kind::kBytecode) << length.reason;
  EXPECT_EQ(length.method->DisplayName(), "java.lang.String.length(java.lang.String)");
  EXPECT_EQ((*program)->Select((*program)->TypeIdOf("java/lang/String"), "trim",
                               "()Ljava/lang/String;")
                .reason,
            "call of java.lang.String.trim() is not modelled by the validator");
  // The model classes are never instances of anything.
  for (int id : (*program)->ConcreteSubtypes("java/lang/Object")) {
    EXPECT_FALSE(absl::StartsWith((*program)->Type(id).name, kModelPackagePrefix));
  }
}

// The JML type checker knows exactly the pure methods of the table (besides
// its own list of the java.lang methods specifications use).
TEST(JdkModelsTest, TypeEnvironmentHasThePureModelledMethods) {
  const jml::TypeEnvironment& env = jml::JdkTypeEnvironment();
  for (const ModelledMethod& m : ModelledMethods()) {
    if (m.owner == "[" || m.name == "<init>") continue;
    const jml::ClassInfo* cls = env.FindClass(classfile::InternalToBinary(m.owner));
    bool found = false;
    if (cls != nullptr) {
      for (const jml::MethodInfo& mi : cls->methods) {
        found |= mi.name == m.name && mi.descriptor == m.descriptor;
      }
    }
    if (m.is_pure) {
      EXPECT_TRUE(found) << m.Key();
    } else if (m.kind == ModelKind::kJava) {
      EXPECT_FALSE(found) << m.Key();
    }
  }
}

}  // namespace
}  // namespace tracespec::jdk

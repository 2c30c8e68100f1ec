// Tests of the jar reader and the class path on archives made by `jar`.
#include "validator/classfile/jar.h"

#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "common/files.h"
#include "common/subprocess.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"
#include "validator/classfile/class_path.h"

namespace tracespec::classfile {
namespace {

class JarTest : public ::testing::Test {
 protected:
  void SetUp() override {
    classes_ = testing::CompileJava(dir_, {{"p/A.java", "package p; public class A { int x; }"},
                                           {"p/q/B.java", "package p.q; public class B {}"}});
    ASSERT_FALSE(classes_.empty());
    jar_ = dir_.path() + "/lib.jar";
    auto r = RunSubprocess({"jar", "cf", jar_, "-C", classes_, "."});
    ASSERT_TRUE(r.ok() && r->Succeeded()) << (r.ok() ? r->stderr_data : "");
    stored_ = dir_.path() + "/stored.jar";
    r = RunSubprocess({"jar", "cf0", stored_, "-C", classes_, "."});
    ASSERT_TRUE(r.ok() && r->Succeeded());
  }
  testing::TempDir dir_;
  std::string classes_, jar_, stored_;
};

TEST_F(JarTest, ReadsDeflatedAndStoredEntries) {
  for (const std::string& path : {jar_, stored_}) {
    auto jar = JarFile::Open(path);
    ASSERT_TRUE(jar.ok()) << jar.status();
    EXPECT_TRUE(jar->Contains("p/A.class"));
    auto bytes = jar->Read("p/q/B.class");
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    auto direct = ReadFile(classes_ + "/p/q/B.class");
    EXPECT_EQ(*bytes, *direct);
    EXPECT_FALSE(jar->Read("p/C.class").ok());
  }
}

TEST_F(JarTest, ClassPathLoadsFromJarsAndDirectories) {
  auto cp = ClassPath::Create(jar_ + ":" + classes_);
  ASSERT_TRUE(cp.ok()) << cp.status();
  auto a = cp->Load("p.A");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ((*a)->name, "p/A");
  EXPECT_TRUE(absl::StrContains((*a)->source, "lib.jar!p/A.class"));
  EXPECT_EQ(cp->ListClasses(), (std::vector<std::string>{"p/A", "p/q/B"}));
  auto missing = cp->Load("p.Missing");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_FALSE(ClassPath::Create(dir_.path() + "/nope.jar").ok());
}

// The workers of `tracespec run` share one class path (loop::InferWorld):
// loads from several threads at once each parse a class once, and every
// thread gets the same parsed class.
TEST_F(JarTest, ThreadsShareOneClassPath) {
  auto cp = ClassPath::Create(jar_ + ":" + classes_);
  ASSERT_TRUE(cp.ok()) << cp.status();
  constexpr int kThreads = 8;
  std::vector<const ClassFile*> a(kThreads), b(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        auto x = cp->Load(t % 2 == 0 ? "p.A" : "p.q.B");
        auto y = cp->Load(t % 2 == 0 ? "p.q.B" : "p.A");
        if (!x.ok() || !y.ok()) return;
        (t % 2 == 0 ? a : b)[t] = *x;
        (t % 2 == 0 ? b : a)[t] = *y;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_NE(a[t], nullptr);
    EXPECT_EQ(a[t], a[0]);
    EXPECT_EQ(b[t], b[0]);
  }
  EXPECT_EQ(a[0]->name, "p/A");
  EXPECT_EQ(b[0]->name, "p/q/B");
}

TEST_F(JarTest, CorruptArchivesAreErrors) {
  auto bytes = ReadFile(jar_);
  ASSERT_TRUE(bytes.ok());
  EXPECT_FALSE(JarFile::FromBytes("PK", "tiny.jar").ok());
  for (size_t cut : {bytes->size() / 2, bytes->size() - 10}) {
    auto jar = JarFile::FromBytes(bytes->substr(0, cut), "cut.jar");
    ASSERT_FALSE(jar.ok());
    EXPECT_TRUE(absl::StartsWith(jar.status().message(), "cut.jar: byte ")) << jar.status();
  }
  // Damage the first entry's compressed data: inflate or the CRC must fail.
  std::string damaged = *bytes;
  auto jar = JarFile::FromBytes(damaged, "ok.jar");
  ASSERT_TRUE(jar.ok());
  size_t data = damaged.find("p/A.class");
  ASSERT_NE(data, std::string::npos);
  for (size_t i = data + 9; i < data + 40 && i < damaged.size(); ++i) damaged[i] ^= 0x33;
  auto broken = JarFile::FromBytes(damaged, "bad.jar");
  if (broken.ok()) {
    auto entry = broken->Read("p/A.class");
    EXPECT_FALSE(entry.ok());
  }
}

}  // namespace
}  // namespace tracespec::classfile

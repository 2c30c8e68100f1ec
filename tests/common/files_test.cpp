// Tests for common/files.h: atomic writes never leave partial files.
#include "common/files.h"

#include <filesystem>

#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec {
namespace {

using testing::TempDir;

int CountEntries(const std::string& dir) {
  int n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    (void)entry;
    ++n;
  }
  return n;
}

TEST(FilesTest, WriteThenReadRoundTrips) {
  TempDir dir;
  std::string path = dir.path() + "/a.txt";
  ASSERT_TRUE(WriteFileAtomic(path, std::string("x\0y", 3)).ok());
  auto data = ReadFile(path);
  ASSERT_TRUE(data.ok());
  EXPECT_EQ(*data, std::string("x\0y", 3));
  EXPECT_EQ(CountEntries(dir.path()), 1);  // no temp file left behind
}

TEST(FilesTest, UncommittedWriterLeavesOldContent) {
  TempDir dir;
  std::string path = dir.path() + "/out.pb";
  ASSERT_TRUE(WriteFileAtomic(path, "old").ok());
  {
    auto writer = AtomicFileWriter::Open(path);
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE(writer->Write("new but unfinished").ok());
  }  // destroyed without Commit
  EXPECT_EQ(*ReadFile(path), "old");
  EXPECT_EQ(CountEntries(dir.path()), 1);
}

TEST(FilesTest, CommittedWriterReplacesContent) {
  TempDir dir;
  std::string path = dir.path() + "/out.pb";
  ASSERT_TRUE(WriteFileAtomic(path, "old").ok());
  auto writer = AtomicFileWriter::Open(path);
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE(writer->Write("new").ok());
  ASSERT_TRUE(writer->Commit().ok());
  EXPECT_EQ(*ReadFile(path), "new");
  EXPECT_FALSE(writer->Write("more").ok());
}

TEST(FilesTest, MissingFileIsNotFoundAndNamesPath) {
  auto data = ReadFile("/nonexistent/tracespec/file");
  ASSERT_FALSE(data.ok());
  EXPECT_EQ(data.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(data.status().message().find("/nonexistent/tracespec/file"), std::string::npos);
}

TEST(FilesTest, WriteIntoMissingDirectoryFails) {
  EXPECT_FALSE(WriteFileAtomic("/nonexistent/tracespec/file", "x").ok());
}

TEST(FilesTest, ReadingADirectoryIsAnError) {
  TempDir dir;
  auto data = ReadFile(dir.path());
  ASSERT_FALSE(data.ok());
  EXPECT_NE(data.status().message().find("is a directory"), std::string::npos);
}

}  // namespace
}  // namespace tracespec

// Tests for common/proto_io.h: round trips, truncation and version checks.
#include "common/proto_io.h"

#include "common/files.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"
#include "tracespec/v1/policy.pb.h"

namespace tracespec {
namespace {

using testing::TempDir;

v1::Observation MakeObservation(int amount) {
  v1::Observation o;
  o.set_format_version(v1::FORMAT_VERSION_1);
  o.mutable_method()->set_class_name("bank.Account");
  o.mutable_method()->set_name("deposit");
  o.mutable_method()->set_jvm_descriptor("(I)V");
  o.add_args()->set_int_value(amount);
  o.mutable_outcome()->mutable_returned_void();
  return o;
}

TEST(ProtoIoTest, PbAndJsonlRoundTrip) {
  TempDir dir;
  std::vector<v1::Observation> in = {MakeObservation(5), MakeObservation(-3)};
  for (std::string name : {"/o.pb", "/o.jsonl"}) {
    std::string path = dir.path() + name;
    ASSERT_TRUE(WriteObservations(path, in).ok());
    auto out = ReadObservations(path);
    ASSERT_TRUE(out.ok()) << out.status();
    ASSERT_EQ(out->size(), 2u);
    EXPECT_EQ((*out)[1].args(0).int_value(), -3);
    EXPECT_EQ((*out)[0].method().jvm_descriptor(), "(I)V");
  }
}

TEST(ProtoIoTest, TruncatedPbNamesRecordAndOffset) {
  TempDir dir;
  std::string path = dir.path() + "/o.pb";
  ASSERT_TRUE(WriteObservations(path, {MakeObservation(1), MakeObservation(2)}).ok());
  std::string data = *ReadFile(path);
  ASSERT_TRUE(WriteFileAtomic(path, data.substr(0, data.size() - 3)).ok());
  auto out = ReadObservations(path);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(out.status().message().find("record 1"), std::string::npos) << out.status();
  EXPECT_NE(out.status().message().find("truncated"), std::string::npos) << out.status();
}

TEST(ProtoIoTest, MissingVersionIsRejected) {
  TempDir dir;
  v1::Observation o = MakeObservation(1);
  o.clear_format_version();
  std::string path = dir.path() + "/o.pb";
  ASSERT_TRUE(WriteObservations(path, {o}).ok());
  auto out = ReadObservations(path);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("format_version"), std::string::npos);
}

TEST(ProtoIoTest, BadJsonlNamesLine) {
  TempDir dir;
  std::string path = dir.path() + "/o.jsonl";
  ASSERT_TRUE(WriteFileAtomic(path, ToJsonLine(MakeObservation(1)) + "\n{not json\n").ok());
  auto out = ReadObservations(path);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("o.jsonl:2"), std::string::npos) << out.status();
}

TEST(ProtoIoTest, TextProtoErrorHasLineAndColumn) {
  v1::RedactionPolicy policy;
  absl::Status status =
      ParseTextProto("format_version: FORMAT_VERSION_1\nmax_depth: 2\n  bogus_field: 3\n",
                     "p.textproto", &policy);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("p.textproto:3:14"), std::string::npos) << status;
  EXPECT_NE(status.message().find("bogus_field"), std::string::npos) << status;
}

TEST(ProtoIoTest, JsonIsDeterministic) {
  EXPECT_EQ(ToJsonLine(MakeObservation(7)), ToJsonLine(MakeObservation(7)));
  EXPECT_EQ(ToJsonLine(MakeObservation(7)).find('\n'), std::string::npos);
}

}  // namespace
}  // namespace tracespec

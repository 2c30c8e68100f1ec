// Tests for common/proto_io.h: round trips, truncation and version checks.
#include "common/proto_io.h"

#include "common/files.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"
#include "tracespec/v1/answer.pb.h"
#include "tracespec/v1/audit.pb.h"
#include "tracespec/v1/egress.pb.h"
#include "tracespec/v1/infer.pb.h"
#include "tracespec/v1/method.pb.h"
#include "tracespec/v1/policy.pb.h"
#include "tracespec/v1/probe.pb.h"
#include "tracespec/v1/project.pb.h"
#include "tracespec/v1/run.pb.h"
#include "tracespec/v1/summary.pb.h"

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

// A text that ends inside a message: the error says so, where the parser
// names no token.
TEST(ProtoIoTest, TextProtoCutShortSaysEndOfFile) {
  v1::ProjectConfig config;
  absl::Status status = ParseTextProto("classes: \"c\"\nmodel { builtin: true\n", "t.textproto", &config);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("t.textproto:3:"), std::string::npos) << status;
  EXPECT_NE(status.message().find("got: end of file"), std::string::npos) << status;
}

TEST(ProtoIoTest, JsonIsDeterministic) {
  EXPECT_EQ(ToJsonLine(MakeObservation(7)), ToJsonLine(MakeObservation(7)));
  EXPECT_EQ(ToJsonLine(MakeObservation(7)).find('\n'), std::string::npos);
}

// Enum values are scoped to the package, not to their enum: two enums of
// tracespec.v1 with a value of the same name (TestStatus and AuditVerdict
// both had FAILED) make protobuf abort when one process loads both files.
// Loading every schema and round-tripping both enums keeps it from coming
// back.
TEST(ProtoIoTest, EverySchemaLoadsInOneProcess) {
  const google::protobuf::Descriptor* messages[] = {
      v1::ModelAnswer::descriptor(),  v1::AuditRecord::descriptor(),
      v1::EgressPolicy::descriptor(), v1::InferSummary::descriptor(),
      v1::Observation::descriptor(),  v1::RedactionPolicy::descriptor(),
      v1::ProbeConfig::descriptor(),  v1::ObserveSummary::descriptor(),
      v1::ProjectConfig::descriptor(), v1::RunSummary::descriptor(), v1::MethodId::descriptor(),
  };
  for (const google::protobuf::Descriptor* message : messages) {
    ASSERT_NE(message, nullptr);
    EXPECT_EQ(message->file()->package(), "tracespec.v1") << message->full_name();
  }

  v1::ObserveSummary summary;
  summary.add_tests()->set_status(v1::TEST_STATUS_FAILED);
  v1::ObserveSummary summary_back;
  ASSERT_TRUE(FromJson(ToJsonLine(summary), &summary_back).ok());
  EXPECT_EQ(summary_back.tests(0).status(), v1::TEST_STATUS_FAILED);

  v1::AuditRecord record;
  record.set_verdict(v1::FAILED);
  v1::AuditRecord record_back;
  ASSERT_TRUE(FromJson(ToJsonLine(record), &record_back).ok());
  EXPECT_EQ(record_back.verdict(), v1::FAILED);
}

}  // namespace
}  // namespace tracespec

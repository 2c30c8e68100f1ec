// Tests for observer/policy.h: the shipped policy, syntax and value errors
// with file:line:column, defaults.
#include "observer/policy.h"

#include "common/files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::observer {
namespace {

using ::testing::HasSubstr;

TEST(PolicyTest, DefaultPolicyIsValidAndDeniesTheUsualNames) {
  auto policy = DefaultPolicy();
  ASSERT_TRUE(policy.ok()) << policy.status();
  EXPECT_EQ(policy->redaction(), v1::MARK);
  EXPECT_EQ(policy->max_depth(), 3);
  EXPECT_FALSE(policy->keep_exception_messages());
  std::vector<std::string> deny(policy->deny().begin(), policy->deny().end());
  for (const char* pattern : {"*key*", "*secret*", "*password*", "*token*", "*credential*"}) {
    EXPECT_THAT(deny, ::testing::Contains(pattern));
  }
  EXPECT_GT(policy->sensitive_names_size(), 0);
}

TEST(PolicyTest, ShippedFileMatchesTheBuiltInCopy) {
  auto from_file = LoadPolicy(testing::SourceDir() + "/policies/default.textproto");
  ASSERT_TRUE(from_file.ok()) << from_file.status();
  EXPECT_EQ(from_file->SerializeAsString(), DefaultPolicy()->SerializeAsString());
}

TEST(PolicyTest, SyntaxErrorNamesLineAndColumn) {
  auto policy =
      ParsePolicy("format_version: FORMAT_VERSION_1\nmax_depth: 2\ndeny: *key*\n", "p.textproto");
  ASSERT_FALSE(policy.ok());
  EXPECT_EQ(policy.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(policy.status().message(), HasSubstr("p.textproto:3:7: "));
}

TEST(PolicyTest, UnknownFieldsAndEnumValuesAreSyntaxErrors) {
  auto field = ParsePolicy("format_version: FORMAT_VERSION_1\n  depth: 3\n", "p.textproto");
  ASSERT_FALSE(field.ok());
  EXPECT_THAT(field.status().message(), HasSubstr("p.textproto:2:8: "));
  EXPECT_THAT(field.status().message(), HasSubstr("\"depth\""));
  auto value = ParsePolicy("format_version: FORMAT_VERSION_1\nredaction: HIDE\n", "p.textproto");
  ASSERT_FALSE(value.ok());
  EXPECT_THAT(value.status().message(), HasSubstr("p.textproto:"));
  EXPECT_THAT(value.status().message(), HasSubstr("\"HIDE\""));
  auto disclosure = ParsePolicy(
      "format_version: FORMAT_VERSION_1\n\nstring_disclosure: SOME\n", "p.textproto");
  ASSERT_FALSE(disclosure.ok());
  EXPECT_THAT(disclosure.status().message(), HasSubstr("p.textproto:"));
  EXPECT_THAT(disclosure.status().message(), HasSubstr("\"SOME\""));
  auto known = ParsePolicy("format_version: FORMAT_VERSION_1\nstring_disclosure: NONE\n", "p");
  ASSERT_TRUE(known.ok()) << known.status();
  EXPECT_EQ(known->string_disclosure(), v1::NONE);
}

TEST(PolicyTest, ValueErrorsPointAtTheField) {
  auto depth = ParsePolicy("format_version: FORMAT_VERSION_1\nmax_depth: 99\n", "p.textproto");
  ASSERT_FALSE(depth.ok());
  EXPECT_THAT(depth.status().message(),
              HasSubstr("p.textproto:2:1: max_depth must be between 1 and 32"));

  auto array = ParsePolicy("format_version: FORMAT_VERSION_1\n\n   max_array_length: -1",
                           "p.textproto");
  ASSERT_FALSE(array.ok());
  EXPECT_THAT(array.status().message(), HasSubstr("p.textproto:3:4: max_array_length"));

  auto deny = ParsePolicy("format_version: FORMAT_VERSION_1\ndeny: \"*a*\"\ndeny: \"\"\n",
                          "p.textproto");
  ASSERT_FALSE(deny.ok());
  EXPECT_THAT(deny.status().message(), HasSubstr("p.textproto:3:1: a deny pattern is empty"));

  auto env = ParsePolicy(
      "format_version: FORMAT_VERSION_1\ndeny_env: \"DB_*\"\ndeny_env: \"A=B\"\n", "p.textproto");
  ASSERT_FALSE(env.ok());
  EXPECT_THAT(env.status().message(),
              HasSubstr("p.textproto:3:1: 'A=B' cannot name an environment variable"));
  auto property = ParsePolicy("format_version: FORMAT_VERSION_1\ndeny_property: \"\"\n",
                              "p.textproto");
  ASSERT_FALSE(property.ok());
  EXPECT_THAT(property.status().message(),
              HasSubstr("p.textproto:2:1: a system property pattern is empty"));

  auto fields = ParsePolicy(
      "format_version: FORMAT_VERSION_1\nrecord {\n  class_pattern: \"a.*\"\n  fields: \"x\"\n"
      "  fields: \"\"\n}\n",
      "p.textproto");
  ASSERT_FALSE(fields.ok());
  EXPECT_THAT(fields.status().message(),
              HasSubstr("p.textproto:5:3: a record rule names an empty field"));

  auto rule = ParsePolicy("format_version: FORMAT_VERSION_1\nrecord { fields: \"x\" }\n",
                          "p.textproto");
  ASSERT_FALSE(rule.ok());
  EXPECT_THAT(rule.status().message(), HasSubstr("p.textproto:2:1: a record rule needs"));
}

TEST(PolicyTest, MissingVersionIsAnError) {
  auto policy = ParsePolicy("max_depth: 2\n", "p.textproto");
  ASSERT_FALSE(policy.ok());
  EXPECT_THAT(policy.status().message(), HasSubstr("p.textproto:1:1: format_version is missing"));
}

TEST(PolicyTest, ZeroesBecomeDefaults) {
  auto policy = ParsePolicy("format_version: FORMAT_VERSION_1\n", "p.textproto");
  ASSERT_TRUE(policy.ok()) << policy.status();
  EXPECT_EQ(policy->max_depth(), kDefaultMaxDepth);
  EXPECT_EQ(policy->max_array_length(), kDefaultMaxArrayLength);
  EXPECT_EQ(policy->max_string_length(), 0);
  EXPECT_EQ(policy->redaction(), v1::MARK);
}

TEST(PolicyTest, LoadPolicyReportsMissingFile) {
  auto policy = LoadPolicy("/nonexistent/policy.textproto");
  ASSERT_FALSE(policy.ok());
  EXPECT_EQ(policy.status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace tracespec::observer

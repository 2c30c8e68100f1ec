// Tests for agent/gateway/egress_policy.h: the shipped policy, errors with
// positions, URL parsing and endpoint matching.
#include "agent/gateway/egress_policy.h"

#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::gateway {
namespace {

TEST(EgressPolicyTest, ShippedPolicyLoads) {
  auto policy = LoadEgressPolicy(testing::SourceDir() + "/policies/egress.textproto");
  ASSERT_TRUE(policy.ok()) << policy.status();
  EXPECT_EQ(policy->allow_size(), 3);
  EXPECT_TRUE(policy->audit().store_payloads());
  // Only loopback: a hosted endpoint is not allowed until the user adds it.
  for (const v1::Endpoint& e : policy->allow()) {
    EXPECT_TRUE(e.host() == "127.0.0.1" || e.host() == "localhost" || e.host() == "::1");
  }
}

TEST(EgressPolicyTest, SyntaxErrorsHaveLineAndColumn) {
  auto p =
      ParseEgressPolicy("format_version: FORMAT_VERSION_1\nallow { scheme: }\n", "e.textproto");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(std::string(p.status().message()).rfind("e.textproto:2:17: ", 0), 0u) << p.status();
}

TEST(EgressPolicyTest, UnknownKeysAreSyntaxErrorsWithTheirPlace) {
  auto p = ParseEgressPolicy(
      "format_version: FORMAT_VERSION_1\nallow { scheme: \"http\" host: \"a\" }\nsend_all: true\n",
      "e.textproto");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(std::string(p.status().message()).rfind("e.textproto:3:", 0), 0u) << p.status();
  EXPECT_NE(std::string(p.status().message()).find("send_all"), std::string::npos) << p.status();
  auto v = ParseEgressPolicy("format_version: FORMAT_VERSION_9\n", "v.textproto");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(std::string(v.status().message()).rfind("v.textproto:", 0), 0u) << v.status();
  EXPECT_NE(std::string(v.status().message()).find("FORMAT_VERSION_9"), std::string::npos);
}

TEST(EgressPolicyTest, BadValuesNameTheirLine) {
  struct Case {
    const char* text;
    const char* expected;
  } cases[] = {
      {"format_version: FORMAT_VERSION_1\n\nallow { scheme: \"ftp\" host: \"a\" }\n",
       "p:3: allow: scheme \"ftp\" is not http or https"},
      {"format_version: FORMAT_VERSION_1\nallow { scheme: \"https\" host: \"*.openai.com\" }\n",
       "p:2: allow: host \"*.openai.com\" must be a plain name or address"},
      {"format_version: FORMAT_VERSION_1\nsecret_rules {\n  id: \"corp\"\n  regex: \"(\"\n}\n",
       "p:3: secret_rules \"corp\": regex does not compile"},
      {"format_version: FORMAT_VERSION_1\nsecret_rules { id: \"jwt\" regex: \"x\" }\n",
       "p:2: secret_rules: duplicate id \"jwt\""},
      {"format_version: FORMAT_VERSION_1\n\ndisabled_secret_rules: \"nope\"\n",
       "p:3: disabled_secret_rules: \"nope\" is not a built-in rule"},
      {"format_version: FORMAT_VERSION_1\nfingerprint { k: 4 window: 8 }\n",
       "p:2: fingerprint: window must not exceed k"},
      {"allow { scheme: \"http\" host: \"a\" }\n", "format_version is missing"},
  };
  for (const Case& c : cases) {
    auto p = ParseEgressPolicy(c.text, "p");
    ASSERT_FALSE(p.ok()) << c.text;
    EXPECT_NE(std::string(p.status().message()).find(c.expected), std::string::npos)
        << p.status() << "\nexpected: " << c.expected;
  }
}

TEST(EgressPolicyTest, ParsesUrls) {
  auto u = ParseUrl("HTTPS://API.example.com/v1/chat/completions?x=1");
  ASSERT_TRUE(u.ok()) << u.status();
  EXPECT_EQ(u->scheme, "https");
  EXPECT_EQ(u->host, "api.example.com");
  EXPECT_EQ(u->port, 443);
  EXPECT_EQ(u->path, "/v1/chat/completions");
  auto v6 = ParseUrl("http://[::1]:8080");
  ASSERT_TRUE(v6.ok()) << v6.status();
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->port, 8080);
  EXPECT_EQ(v6->path, "/");
  EXPECT_FALSE(ParseUrl("ftp://a/b").ok());
  EXPECT_FALSE(ParseUrl("http://user:pw@host/").ok());
  EXPECT_FALSE(ParseUrl("http://host:99999/").ok());
  EXPECT_FALSE(ParseUrl("http://host/v1/../admin").ok());
  EXPECT_FALSE(ParseUrl("http://host/v1/%2E%2e/admin").ok());
  EXPECT_FALSE(ParseUrl("host/v1").ok());
}

TEST(EgressPolicyTest, EndpointsMatchSchemeHostPortAndPathPrefix) {
  v1::Endpoint e;
  e.set_scheme("https");
  e.set_host("api.example.com");
  e.set_path_prefix("/v1");
  auto allows = [&e](const char* url) { return EndpointAllows(e, *ParseUrl(url)); };
  EXPECT_TRUE(allows("https://api.example.com/v1/chat/completions"));
  EXPECT_TRUE(allows("https://API.EXAMPLE.COM:443/v1"));
  EXPECT_FALSE(allows("https://api.example.com/v10/chat"));
  EXPECT_FALSE(allows("http://api.example.com/v1/chat"));
  EXPECT_FALSE(allows("https://api.example.com:8443/v1/chat"));
  EXPECT_FALSE(allows("https://evil.api.example.com/v1/chat"));
  EXPECT_FALSE(allows("https://api.example.com.evil.org/v1/chat"));
  e.set_any_port(true);
  EXPECT_TRUE(allows("https://api.example.com:8443/v1/chat"));
}

}  // namespace
}  // namespace tracespec::gateway

// Tests for agent/gateway/egress_gate.h: every rule blocks, findings say
// where without repeating what, and clean payloads pass.
#include "agent/gateway/egress_gate.h"

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "agent/gateway/chat_wire.h"
#include "agent/prompt/answer.h"
#include "gtest/gtest.h"
#include "observer/probe/substitute_value.h"
#include "tests/agent/observation_builders.h"
#include "tracespec/v1/summary.pb.h"

namespace tracespec::gateway {
namespace {

constexpr char kUrl[] = "http://127.0.0.1:8080/v1/chat/completions";

v1::EgressPolicy LoopbackPolicy() {
  v1::EgressPolicy policy;
  policy.set_format_version(v1::FORMAT_VERSION_1);
  v1::Endpoint* e = policy.add_allow();
  e->set_scheme("http");
  e->set_host("127.0.0.1");
  e->set_any_port(true);
  e->set_path_prefix("/v1/");
  policy.add_blocked_terms("Project-Bluebird");
  return policy;
}

ProtectedMaterial Material() {
  v1::RedactionPolicy redaction;
  redaction.add_deny("*ssn*");
  redaction.add_deny("taxNumber");
  redaction.add_sensitive_names("salary");
  v1::Observation visible = testing::Deposit("bank.AccountTest#a", 5, 10, 15);
  v1::Observation hidden =
      testing::Deposit("bank.AccountTest#vip", 5, 10, 15, "", "", "Ms. Very Important");
  hidden.set_excluded(true);
  return ProtectedMaterialFrom(redaction, {visible, hidden});
}

EgressGate Gate(v1::EgressPolicy policy = LoopbackPolicy(),
                std::shared_ptr<const ImplementationFingerprints> fingerprints = nullptr) {
  auto gate = EgressGate::Create(std::move(policy), Material(), std::move(fingerprints));
  EXPECT_TRUE(gate.ok()) << gate.status();
  return *std::move(gate);
}

// A chat request whose user message is `text`.
std::string Body(const std::string& text) {
  LlmRequest request;
  request.messages = {{prompt::Role::kSystem, "Write JML."}, {prompt::Role::kUser, text}};
  return *internal::EncodeChatRequest(request, "m");
}

TEST(EgressGateTest, ProtectedMaterialComesFromPolicyAndObservations) {
  ProtectedMaterial m = Material();
  EXPECT_EQ(m.redacted_field_names, std::vector<std::string>{"pin"});
  // Only exact deny names block a name anywhere; the observer applies
  // patterns to the values that can hold a secret.
  EXPECT_EQ(m.denied_name_patterns, std::vector<std::string>{"taxNumber"});
  EXPECT_EQ(m.sensitive_names, std::vector<std::string>{"salary"});
  // The excluded test's id and its owner string; "ann" is visible anyway
  // (and short), so it is not withheld.
  EXPECT_EQ(m.withheld_values,
            (std::vector<std::string>{"Ms. Very Important", "bank.AccountTest#vip"}));
}

TEST(EgressGateTest, CleanPayloadPasses) {
  GateVerdict v = Gate().Check(kUrl, Body("amount=5, this.balance=10 -> returns 15"));
  EXPECT_TRUE(v.allowed()) << v.Summary();
  EXPECT_EQ(v.Summary(), "allowed");
}

TEST(EgressGateTest, EveryRuleBlocks) {
  const std::string aws = std::string("AKIA") + "Q7ZXQ7ZXQ7ZXQ7ZX";
  struct Case {
    std::string rule;
    std::string text;
    std::string secret;  // must not appear in the finding
  } cases[] = {
      {"secret.aws-access-key-id", "line one\nkey " + aws + " end", aws},
      {"redacted-field-name", "this.balance=10, this.PIN=1234", "PIN"},
      {"denied-field-name", "this.taxnumber=5", "taxnumber"},
      {"sensitive-name", "int monthlySalaryCents = 812500;", "Salary"},
      {"redacted-value", "owner=\"Ms. Very Important\"", "Very Important"},
      {"redacted-value", "see bank.AccountTest#vip", "AccountTest#vip"},
      {"blocked-term", "part of project-bluebird", "bluebird"},
  };
  EgressGate gate = Gate();
  for (const Case& c : cases) {
    GateVerdict v = gate.Check(kUrl, Body(c.text));
    ASSERT_FALSE(v.allowed()) << c.rule;
    EXPECT_EQ(v.findings[0].rule, c.rule) << v.Summary();
    EXPECT_TRUE(absl::StartsWith(v.findings[0].where, "messages[1].content bytes "))
        << v.findings[0].where;
    EXPECT_FALSE(absl::StrContains(v.Summary(), c.secret)) << v.Summary();
  }
  // Offsets and line/column of the AWS key in the user message.
  GateVerdict v = gate.Check(kUrl, Body("line one\nkey " + aws + " end"));
  EXPECT_EQ(v.findings[0].where, "messages[1].content bytes 13..33 (line 2, column 5)");
}

// A secret the source spells so that no rule matches it there, but javac
// folds into one constant of the compiled test class: every payload that
// names the class is blocked by the rule that matched the constant.
TEST(EgressGateTest, ACompiledConstantOfATestBlocksItsSource) {
  ProtectedMaterial material = Material();
  material.test_constants = {
      {"t.KeyTest", {"plain", std::string("AKIA") + "QWERTYUIOPASDFGZ"}},
      {"t.CleanTest", {"AKIA-not-a-key"}}};
  auto gate = EgressGate::Create(LoopbackPolicy(), material, nullptr);
  ASSERT_TRUE(gate.ok()) << gate.status();
  const std::string source =
      "class KeyTest { String id = \"\\u0041KIA\" + 'Q' + \"WERTYUIOPASDFGZ\"; }";
  GateVerdict v = gate->Check(kUrl, Body(source));
  ASSERT_FALSE(v.allowed());
  EXPECT_EQ(v.findings[0].rule, "secret.aws-access-key-id") << v.Summary();
  EXPECT_TRUE(absl::StrContains(v.findings[0].where, "a string constant of the compiled KeyTest"))
      << v.findings[0].where;
  EXPECT_FALSE(absl::StrContains(v.Summary(), "WERTY")) << v.Summary();
  // Payloads that do not name the class, or name a clean one, pass.
  EXPECT_TRUE(gate->Check(kUrl, Body("class CleanTest { } // KeyTests")).allowed());
  // A nested test class (JUnit 5's @Nested) is named as its source declares it.
  material.test_constants = {{"t.OuterTest$Inner", {std::string("AKIA") + "QWERTYUIOPASDFGZ"}}};
  auto nested = EgressGate::Create(LoopbackPolicy(), material, nullptr);
  ASSERT_TRUE(nested.ok()) << nested.status();
  EXPECT_FALSE(nested->Check(kUrl, Body("@Nested class Inner { void t() {} }")).allowed());
}

// A value the tests read from a denied field reaches the gate only as its
// key (the probe's taint set, through the observe summary): it is found
// inside longer text and as a number among digits, wherever it is; the
// findings never hold it, and look-alikes pass.
TEST(EgressGateTest, ADeniedValueIsFoundByItsKeyWhereverItIs) {
  v1::ObserveSummary summary;
  const std::string secret = "maple-harbor-lantern";
  v1::DeniedTextKey* text_key = summary.add_denied_text_keys();
  text_key->set_bytes(static_cast<uint32_t>(secret.size()));
  text_key->set_key(probe::ConstantKey(std::string_view(secret)));
  summary.add_denied_number_keys(probe::ConstantKey(int64_t{482193}));
  summary.add_denied_number_keys(probe::ConstantKey(int64_t{-77001}));
  ProtectedMaterial material = Material();
  material.denied_keys.Add(summary.denied_text_keys(), summary.denied_number_keys());
  EXPECT_EQ(material.denied_keys.size(), 3u);
  auto gate = EgressGate::Create(LoopbackPolicy(), material, nullptr);
  ASSERT_TRUE(gate.ok()) << gate.status();

  // Inside a longer literal of a test's source.
  GateVerdict in_text =
      gate->Check(kUrl, Body("assertEquals(\"Bearer maple-harbor-lantern!\", c.header());"));
  ASSERT_FALSE(in_text.allowed());
  ASSERT_EQ(in_text.findings.size(), 1u) << in_text.Summary();
  EXPECT_EQ(in_text.findings[0].rule, "denied-value");
  EXPECT_EQ(in_text.findings[0].where, "messages[1].content bytes 21..41 (line 1, column 22)");
  EXPECT_FALSE(absl::StrContains(in_text.Summary(), "lantern")) << in_text.Summary();
  // Every occurrence is a finding (a stored blocked body masks each).
  GateVerdict twice = gate->Check(kUrl, Body("maple-harbor-lantern, maple-harbor-lantern"));
  ASSERT_EQ(twice.findings.size(), 2u) << twice.Summary();
  EXPECT_EQ(twice.findings[1].begin, 22u);

  // Numbers: a run of digits, with or without its sign.
  GateVerdict number = gate->Check(kUrl, Body("{\"code\": 482193}"));
  ASSERT_EQ(number.findings.size(), 1u) << number.Summary();
  EXPECT_EQ(number.findings[0].rule, "denied-value");
  EXPECT_EQ(number.findings[0].begin, 9u);
  EXPECT_FALSE(gate->Check(kUrl, Body("offset -77001 from the origin")).allowed());
  EXPECT_FALSE(gate->Check(kUrl, Body("offset 77001 from the origin")).allowed());
  EXPECT_FALSE(gate->Check(kUrl, Body("x = -482193;")).allowed());

  // The digits before a decimal point are the number itself.
  EXPECT_FALSE(gate->Check(kUrl, Body("ratio 482193.5")).allowed());
  // Look-alikes pass: other digits around the number, a part of the text,
  // another case.
  for (const char* clean : {"4821930 and 1482193 and 770010", "maple-harbor-lanter",
                            "Maple-harbor-lantern", "int deposit(int amount)"}) {
    GateVerdict v = gate->Check(kUrl, Body(clean));
    EXPECT_TRUE(v.allowed()) << clean << ": " << v.Summary();
  }
  // A value of letters only is a word: found as one, not inside an
  // identifier or a longer word (a lookup key "timeout" and a test named
  // timeoutDefault).
  material.denied_keys.texts[7].insert(probe::ConstantKey(std::string_view("timeout")));
  auto words = EgressGate::Create(LoopbackPolicy(), material, nullptr);
  ASSERT_TRUE(words.ok()) << words.status();
  for (const char* clean : {"void timeoutDefault()", "the xtimeout", "timeout2"}) {
    GateVerdict v = words->Check(kUrl, Body(clean));
    EXPECT_TRUE(v.allowed()) << clean << ": " << v.Summary();
  }
  for (const char* leaked : {"lookup(\"timeout\")", "key=timeout;", "timeout"}) {
    EXPECT_FALSE(words->Check(kUrl, Body(leaked)).allowed()) << leaked;
  }
  // Without keys nothing of this rule fires.
  EXPECT_TRUE(Gate().Check(kUrl, Body("maple-harbor-lantern 482193")).allowed());
}

// With the texts' rolling keys (a probe of this version), the gate hashes
// only the windows whose rolling key is a text's; the findings are those of
// hashing every window (keys alone, a summary of an older probe): every
// occurrence, none overlapping, words as words, text of any bytes.
TEST(EgressGateTest, ARollingKeyFindsWhatHashingEveryWindowFinds) {
  const std::vector<std::string> texts = {"maple-harbor-lantern", "timeout", "aaaa", "abab",
                                          "\xC3\xA9t\xC3\xA9s", "k9#Q"};
  ProtectedMaterial hashed = Material();
  ProtectedMaterial rolling = Material();
  for (const std::string& t : texts) {
    const auto bytes = static_cast<uint32_t>(t.size());
    hashed.denied_keys.AddText(bytes, probe::ConstantKey(std::string_view(t)), std::nullopt);
    rolling.denied_keys.AddText(bytes, probe::ConstantKey(std::string_view(t)),
                                probe::RollingKey(t));
  }
  // One length with a text without its rolling key is hashed in full.
  rolling.denied_keys.AddText(4, probe::ConstantKey(std::string_view("zz-9")), std::nullopt);
  hashed.denied_keys.AddText(4, probe::ConstantKey(std::string_view("zz-9")), std::nullopt);
  auto by_hash = EgressGate::Create(LoopbackPolicy(), hashed, nullptr);
  auto by_rolling = EgressGate::Create(LoopbackPolicy(), rolling, nullptr);
  ASSERT_TRUE(by_hash.ok() && by_rolling.ok());
  std::mt19937 random(11);
  std::vector<std::string> bodies = {
      "assertEquals(\"Bearer maple-harbor-lantern!\", c.header());",
      "maple-harbor-lantern, maple-harbor-lantern", "void timeoutDefault() { lookup(\"timeout\"); }",
      "aaaaaaaaa ababab zz-9zz-9", "caf\xC3\xA9 \xC3\xA9t\xC3\xA9s k9#Q"};
  for (int i = 0; i < 40; ++i) {
    std::string body;
    const std::string alphabet = "ab -timeuo9k#Qzs";
    for (int k = 0; k < 400; ++k) body.push_back(alphabet[random() % alphabet.size()]);
    body.insert(random() % body.size(), texts[random() % texts.size()]);
    bodies.push_back(body);
  }
  int found = 0;
  for (const std::string& text : bodies) {
    GateVerdict a = by_hash->Check(kUrl, Body(text));
    GateVerdict b = by_rolling->Check(kUrl, Body(text));
    ASSERT_EQ(a.findings.size(), b.findings.size()) << text;
    for (size_t k = 0; k < a.findings.size(); ++k) {
      EXPECT_EQ(a.findings[k].rule, b.findings[k].rule) << text;
      EXPECT_EQ(a.findings[k].begin, b.findings[k].begin) << text;
      EXPECT_EQ(a.findings[k].end, b.findings[k].end) << text;
    }
    found += static_cast<int>(a.findings.size());
  }
  EXPECT_GT(found, 20);  // a word planted inside letters is not one
  // The keys cross the wire with their rolling keys.
  v1::ObserveSummary summary;
  v1::DeniedTextKey* k = summary.add_denied_text_keys();
  k->set_bytes(7);
  k->set_key(probe::ConstantKey(std::string_view("timeout")));
  k->set_rolling(probe::RollingKey("timeout"));
  DeniedValueKeys keys;
  keys.Add(summary.denied_text_keys(), summary.denied_number_keys());
  EXPECT_EQ(keys.rolling.at(7).at(k->key()), probe::RollingKey("timeout"));
}

TEST(EgressGateTest, EscapedSecretsAreFoundInTheDecodedText) {
  // "\u0041" is 'A': the raw body never shows the key's prefix as such.
  std::string body = absl::StrCat(
      R"({"model":"m","messages":[{"role":"user","content":"key \u0041KIAQ7ZXQ7ZXQ7ZXQ7ZX"}]})");
  GateVerdict v = Gate().Check(kUrl, body);
  ASSERT_FALSE(v.allowed());
  EXPECT_EQ(v.findings[0].rule, "secret.aws-access-key-id");
}

// Without the compiled class (no test constants), the gate still reads
// the test source as javac will: a key spelt with escapes or in a text
// block is found, and the finding spans its whole spelling. Credentials in
// headers and random tokens in comments have rules of their own.
TEST(EgressGateTest, SecretsSpeltWithEscapesHeadersAndCommentsBlockTheSource) {
  const std::string tail = "Q7ZXQ7ZXQ7ZXQ7ZX";
  struct Case {
    std::string rule;
    std::string source;
    std::string spelling;  // where the finding must be, exactly
  } cases[] = {
      {"secret.aws-access-key-id",
       "@Test void signs() {\n  String k = \"\\u0041\\uu004bIA" + tail + "\";\n}",
       "\\u0041\\uu004bIA" + tail},
      {"secret.aws-access-key-id",
       "@Test void signs() {\n  String k = \"\\101\\113\\111\\101" + tail + "\";\n}",
       "\\101\\113\\111\\101" + tail},
      {"secret.aws-access-key-id",
       "@Test void signs() {\n  String k = \"\"\"\n      AKIA" + tail.substr(0, 6) +
           "\\\n      " + tail.substr(6) + "\"\"\";\n}",
       "AKIA" + tail.substr(0, 6) + "\\\n      " + tail.substr(6)},
      {"secret.bearer-token",
       "@Test void calls() {\n  get(\"/a\", \"Authorization: Bearer 9fQ2xL7vK3mZ8pR4tW6y\");\n}",
       "9fQ2xL7vK3mZ8pR4tW6y"},
      {"secret.high-entropy-comment",
       "@Test void calls() {\n  // was: Zq8xP3vL9mT2kR7wY5nB4cD6fG1hJ0sA8eU3iO7\n  go();\n}",
       "Zq8xP3vL9mT2kR7wY5nB4cD6fG1hJ0sA8eU3iO7"},
  };
  EgressGate gate = Gate();
  for (const Case& c : cases) {
    GateVerdict v = gate.Check(kUrl, Body(c.source));
    ASSERT_FALSE(v.allowed()) << c.source;
    EXPECT_EQ(v.findings[0].rule, c.rule) << v.Summary();
    ASSERT_TRUE(v.findings[0].has_span);
    EXPECT_EQ(v.findings[0].path, "messages[1].content");
    EXPECT_EQ(v.findings[0].begin, c.source.find(c.spelling)) << c.source;
    EXPECT_EQ(v.findings[0].end, c.source.find(c.spelling) + c.spelling.size()) << c.source;
    EXPECT_FALSE(absl::StrContains(v.Summary(), tail.substr(6))) << v.Summary();
  }
  // Ordinary test code about headers, with a commit id and escapes, passes.
  GateVerdict clean = gate.Check(
      kUrl, Body("@Test void rejectsMissingHeader() {\n"
                 "  // Bearer token is required; fixed in 3f9c2a7d1e8b4c6a0f5e9d2b7c4a1e8f3d6b9c0a\n"
                 "  String h = \"Authorization: Bearer \" + token;\n"
                 "  assertEquals(\"caf\\u00e9 \\\"ok\\\"\\n\", read(h));\n}"));
  EXPECT_TRUE(clean.allowed()) << clean.Summary();
}

TEST(EgressGateTest, DestinationMustBeAllowed) {
  EgressGate gate = Gate();
  for (const char* url : {"https://api.openai.com/v1/chat/completions",
                          "http://127.0.0.1:8080/admin/chat/completions",
                          "http://user:pw@127.0.0.1:8080/v1/chat/completions"}) {
    GateVerdict v = gate.Check(url, Body("hello"));
    ASSERT_FALSE(v.allowed()) << url;
    EXPECT_EQ(v.findings[0].rule, "endpoint-not-allowed");
  }
  v1::EgressPolicy nothing = LoopbackPolicy();
  nothing.clear_allow();
  EXPECT_FALSE(Gate(nothing).Check(kUrl, Body("hello")).allowed());
}

TEST(EgressGateTest, SizeCap) {
  v1::EgressPolicy policy = LoopbackPolicy();
  policy.set_max_payload_bytes(100);
  GateVerdict v = Gate(policy).Check(kUrl, Body(std::string(200, 'x')));
  ASSERT_FALSE(v.allowed());
  EXPECT_EQ(v.findings[0].rule, "max-payload-bytes");
  EXPECT_TRUE(absl::StrContains(v.findings[0].where, "exceeds the cap of 100"));
}

TEST(EgressGateTest, ImplementationTextBlocks) {
  auto f = std::make_shared<ImplementationFingerprints>();
  f->AddSource("Account.java", R"(class Account { int balance;
    int deposit(int amount) {
      if (amount <= 0) throw new IllegalArgumentException("amount must be positive");
      balance = Math.addExact(balance, amount);
      return balance;
    } })");
  EgressGate gate = Gate(LoopbackPolicy(), f);
  EXPECT_TRUE(
      gate.Check(kUrl, Body("int deposit(int amount); assertEquals(15, a.deposit(5));")).allowed());
  GateVerdict v = gate.Check(
      kUrl, Body("the body: if (amount <= 0) throw new IllegalArgumentException(\"amount must "
                 "be positive\"); balance = Math.addExact(balance, amount); return balance;"));
  ASSERT_FALSE(v.allowed());
  EXPECT_EQ(v.findings[0].rule, "implementation-source");
  EXPECT_TRUE(absl::StrContains(v.findings[0].where, "tokens match Account.java"));
}

TEST(EgressGateTest, SummaryCountsFurtherFindings) {
  GateVerdict v = Gate().Check("https://elsewhere.example/v1/x", Body("this.pin=1"));
  ASSERT_EQ(v.findings.size(), 2u);
  EXPECT_TRUE(absl::StartsWith(v.Summary(),
                               "blocked by rule endpoint-not-allowed at destination "
                               "https://elsewhere.example:443/v1/x"));
  EXPECT_TRUE(absl::EndsWith(v.Summary(), "; and 1 more finding"));
}


TEST(EgressGateTest, NameRulesSkipTheFixedTemplateAndTestClassNames) {
  v1::RedactionPolicy redaction;
  redaction.add_deny("*key*");
  ProtectedMaterial material = ProtectedMaterialFrom(redaction, {});
  material.denied_name_patterns = {"*key*"};  // a gate given a pattern
  material.redacted_field_names = {"add"};  // a hidden method named `add`
  const std::string fixed = "Weaken or drop clauses, and add cases for outcomes.";
  material.template_texts = {fixed};
  material.exempt_class_names = {"KeyTest"};
  auto gate = EgressGate::Create(LoopbackPolicy(), material, nullptr);
  ASSERT_TRUE(gate.ok()) << gate.status();
  const std::string to = "http://127.0.0.1:8080/v1/chat/completions";
  // The template's own "add" and the test class KeyTest pass ...
  EXPECT_TRUE(gate->Check(to, Body(fixed + "\nclass KeyTest { void t() {} }")).allowed())
      << gate->Check(to, Body(fixed + "\nclass KeyTest {}")).Summary();
  // ... the hidden name outside the template, and a field matching the deny
  // pattern, do not.
  GateVerdict hidden = gate->Check(to, Body(fixed + "\nlist.add(1);"));
  ASSERT_FALSE(hidden.allowed());
  EXPECT_EQ(hidden.findings[0].rule, "redacted-field-name");
  GateVerdict denied = gate->Check(to, Body(fixed + "\nclass KeyTest { String apiKey; }"));
  ASSERT_FALSE(denied.allowed());
  EXPECT_EQ(denied.findings[0].rule, "denied-field-name");
  // A secret inside text that looks like the template is still a secret.
  std::string key = "AK" + std::string("IA") + "Q7ZXQ7ZXQ7ZXQ7ZX";
  EXPECT_FALSE(gate->Check(to, Body(fixed + " " + key)).allowed());
}

// A sensitive name blocks where the payload does something with it that
// can carry data, not wherever the word is: a rate limiter's int budget of
// "tokens" (recorded as an int), its class and its tests go; a String
// named for a token beside a literal, or a comment about one, does not.
TEST(EgressGateTest, SensitiveNamesBlockWhatCarriesDataNotEveryWord) {
  v1::RedactionPolicy redaction;
  redaction.add_sensitive_names("token");
  redaction.add_sensitive_names("password");
  v1::Observation o = testing::Deposit("budget.TokenBucketTest#takesWhileTokensLast", 5, 10, 15);
  v1::Field* tokens = o.add_post()->add_fields();
  tokens->set_name("tokens");
  tokens->set_jvm_type("I");
  tokens->mutable_value()->set_int_value(5);
  auto gate = EgressGate::Create(LoopbackPolicy(), ProtectedMaterialFrom(redaction, {o}), nullptr);
  ASSERT_TRUE(gate.ok()) << gate.status();
  for (const char* clean :
       {"Method under test (class budget.TokenBucket, JVM descriptor (I)Z):\n"
        "    public boolean take(int n)\n"
        "Test budget.TokenBucketTest#takesWhileTokensLast:\n"
        "  @Test void takesWhileTokensLast() {\n"
        "    TokenBucket b = new TokenBucket(5);\n    assertEquals(2, b.tokens);\n  }\n"
        "this.tokens=5 -> returns true",
        "assertEquals(1700003600L, Expiry.tokenExpiry(1700000000L, 3600));",
        "assertTrue(PasswordRules.longEnough(12, 12));"}) {
    GateVerdict v = gate->Check(kUrl, Body(clean));
    EXPECT_TRUE(v.allowed()) << clean << ": " << v.Summary();
  }
  for (const char* data : {"String accessToken = \"k-3\";", "// the password of the day",
                           "login(user, password);", "new TokenBucket(\"abc\")"}) {
    GateVerdict v = gate->Check(kUrl, Body(data));
    ASSERT_FALSE(v.allowed()) << data;
    EXPECT_EQ(v.findings[0].rule, "sensitive-name") << data;
  }
}

// The request's own JSON keys (`name`, `schema`, `content`, ...) are the wire
// protocol's, not the code's: a hidden name that happens to be one of them
// blocks only where the prompt text uses it.
TEST(EgressGateTest, NameRulesSkipTheWireFormatsKeys) {
  ProtectedMaterial material = ProtectedMaterialFrom(v1::RedactionPolicy(), {});
  material.redacted_field_names = {"name", "schema", "content", "type"};
  auto gate = EgressGate::Create(LoopbackPolicy(), material, nullptr);
  ASSERT_TRUE(gate.ok()) << gate.status();
  LlmRequest request;
  request.messages = {{prompt::Role::kSystem, "Write JML."},
                      {prompt::Role::kUser, "int deposit(int amount)"}};
  request.response_schema = prompt::ContractAnswerSchema();
  std::string body = *internal::EncodeChatRequest(request, "m");
  ASSERT_TRUE(absl::StrContains(body, "\"name\""));
  GateVerdict clean = gate->Check(kUrl, body);
  EXPECT_TRUE(clean.allowed()) << clean.Summary();
  request.messages[1].content = "String name();";
  GateVerdict leaked = gate->Check(kUrl, *internal::EncodeChatRequest(request, "m"));
  ASSERT_FALSE(leaked.allowed());
  EXPECT_EQ(leaked.findings[0].rule, "redacted-field-name");
  EXPECT_TRUE(absl::StrContains(leaked.findings[0].where, "messages[1].content"))
      << leaked.findings[0].where;
}

}  // namespace
}  // namespace tracespec::gateway

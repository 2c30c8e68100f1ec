// Tests for agent/prompt/disclosure.h: which recorded strings a prompt
// shows as they are, and how the others look.
#include "agent/prompt/disclosure.h"

#include "absl/strings/match.h"
#include "agent/prompt/observations.h"
#include "agent/prompt/prompt_builder.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/agent/observation_builders.h"

namespace tracespec::prompt {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(DisclosureTest, JavaStringLiteralsAreUnescaped) {
  std::set<std::string> found = JavaStringLiterals(
      "String a = \"plain\"; char q = '\"'; String b = \"tab\\there \\\"q\\\" \\u00e9\\101\";\n"
      "// \"in a comment\"\nString c = \"unclosed\n");
  EXPECT_EQ(found, (std::set<std::string>{"plain", "tab\there \"q\" \xC3\xA9" "A",
                                          "in a comment"}));
}

TEST(DisclosureTest, LiteralsOnlyShowsWhatTheTestsSpell) {
  StringDisclosure d(v1::LITERALS_ONLY, {"login(\"ann\"); check(\"x\" + y);"});
  EXPECT_EQ(d.String("ann"), "");
  EXPECT_EQ(d.String(""), "");
  EXPECT_EQ(d.String("Ledger-7-secret-ish"), "<s1: String, 19 chars>");
  EXPECT_EQ(d.String("other"), "<s2: String, 5 chars>");
  EXPECT_EQ(d.String("Ledger-7-secret-ish"), "<s1: String, 19 chars>");  // Stable.
  EXPECT_EQ(d.String("ann", /*by_shape=*/true), "<s3: String, 3 chars>");
  EXPECT_EQ(d.Chars("hunter22", 8), "<c1: char[], 8 chars>");
  EXPECT_EQ(d.MaskText("expected \"other\" but was \"ann\""),
            "expected \"<s2: String, 5 chars>\" but was \"<s3: String, 3 chars>\"");
  // The default (unspecified) is LITERALS_ONLY.
  StringDisclosure unspecified(v1::STRING_DISCLOSURE_UNSPECIFIED, {"f(\"ann\")"});
  EXPECT_EQ(unspecified.String("bob"), "<s1: String, 3 chars>");
}

TEST(DisclosureTest, AllAndNone) {
  StringDisclosure all(v1::ALL, {});
  EXPECT_EQ(all.String("anything"), "");
  EXPECT_EQ(all.String("anything", /*by_shape=*/true), "");
  StringDisclosure none(v1::NONE, {"f(\"ann\")"});
  EXPECT_EQ(none.String("ann"), "<s1: String, 3 chars>");
}

TEST(DisclosureTest, JavaIntegerLiteralsAreReadAsDecimalText) {
  std::set<std::string> found = JavaIntegerLiterals(
      "long a = 0x1F_FFL; int b = -1_000; int c = 017, d = 0b101; double e = 1.5e3;\n"
      "x2 = f(3); y = 9f; z = 12345678901234567890L;");
  EXPECT_EQ(found, (std::set<std::string>{"8191", "1000", "-1000", "15", "5", "3",
                                          "12345678901234567890"}));
}

TEST(DisclosureTest, ANumberTheTestsWriteAsAnIntegerLiteralIsShown) {
  StringDisclosure d(v1::LITERALS_ONLY, {"assertEquals(b, BigInteger.valueOf(-42));"});
  HeldText number{'n', "BigInteger", "-42", true, 2, "digit"};
  EXPECT_EQ(d.Held(number), "");
  number.text = "43";
  EXPECT_EQ(d.Held(number), "<n1: BigInteger, 2 digits>");
}

TEST(DisclosureTest, EveryHolderOfTextFollowsTheSameRule) {
  StringDisclosure d(v1::LITERALS_ONLY,
                     {"sb.append(\"shown-text\"); UUID.fromString(\"12345678-90ab-cdef-0fed-"
                      "cba987654321\"); new BigInteger(\"42\");"});
  HeldText builder = StringText("jane.doe@example-corp.com");
  builder.type = "StringBuilder";
  EXPECT_EQ(d.Held(builder), "<s1: StringBuilder, 25 chars>");
  // The same text in a String: the same alias number, so equality is kept.
  EXPECT_EQ(d.String("jane.doe@example-corp.com"), "<s1: String, 25 chars>");
  builder.text = "shown-text";
  builder.size = 10;
  EXPECT_EQ(d.Held(builder), "");
  EXPECT_EQ(d.Held(builder, /*by_shape=*/true), "<s2: StringBuilder, 10 chars>");
  // Recorded in part: by shape even when the part is a literal.
  builder.complete = false;
  EXPECT_EQ(d.Held(builder), "<s3: StringBuilder, 10 chars>");

  HeldText uuid{'u', "UUID", "12345678-90ab-cdef-0fed-cba987654321", true, 0, ""};
  EXPECT_EQ(d.Held(uuid), "");
  uuid.text = "00000000-0000-0001-0000-000000000002";
  EXPECT_EQ(d.Held(uuid), "<u1: UUID>");
  HeldText number{'n', "BigInteger", "987654321012345", true, 15, "digit"};
  EXPECT_EQ(d.Held(number), "<n1: BigInteger, 15 digits>");
  number.text = "42";  // written as a string literal
  EXPECT_EQ(d.Held(number), "");
  HeldText bytes{'b', "byte[]", "secret-bytes", true, 12, "byte"};
  EXPECT_EQ(d.Held(bytes), "<b1: byte[], 12 bytes>");
  // Diagnostics are masked with every hidden holder's text.
  EXPECT_EQ(d.MaskText("expected secret-bytes"), "expected <b1: byte[], 12 bytes>");
  EXPECT_TRUE(d.Hides("987654321012345"));
  EXPECT_FALSE(d.Hides("42"));
  // ALL shows every holder.
  StringDisclosure all(v1::ALL, {});
  EXPECT_EQ(all.Held(bytes), "");
}

v1::Observation Login(const std::string& test, const std::string& user, bool unnamed) {
  v1::Observation o;
  o.set_test_id(test);
  o.mutable_method()->set_class_name("p.Gate");
  o.mutable_method()->set_name("login");
  o.mutable_method()->set_jvm_descriptor("(Ljava/lang/String;[C)Z");
  o.mutable_method()->set_is_static(true);
  o.mutable_method()->add_param_names(unnamed ? "arg0" : "user");
  o.mutable_method()->add_param_names(unnamed ? "arg1" : "pass");
  o.mutable_method()->set_param_names_unknown(unnamed);
  o.add_args()->set_string_value(user);
  o.add_args()->set_ref(7);
  v1::ObjectState* chars = o.add_pre();
  chars->set_id(7);
  chars->set_class_name("[C");
  chars->mutable_array()->set_element_descriptor("C");
  chars->mutable_array()->set_length(3);
  for (char c : std::string("pqr")) chars->mutable_array()->add_elements()->set_char_value(c);
  o.mutable_outcome()->mutable_returned()->set_bool_value(true);
  return o;
}

TEST(DisclosureTest, PromptsShowUndisclosedStringsByShape) {
  PromptInputs in;
  in.signature = *SignatureFromDescriptor("p.Gate", "login", "(Ljava/lang/String;[C)Z", true,
                                          {"user", "pass"});
  in.tests = {{"p.GateTest#ok", "@Test void ok() { Gate.login(\"ann\", secretChars()); }"}};
  in.observations = {Login("p.GateTest#ok", "ann", false), Login("p.GateTest#ok", "zed-91", false)};
  PromptOptions options;
  options.string_disclosure = v1::LITERALS_ONLY;
  auto b = PromptBuilder::Create(in, options);
  ASSERT_TRUE(b.ok()) << b.status();
  std::string stage2 = b->Stage2Message().content;
  EXPECT_THAT(stage2, HasSubstr("user=\"ann\""));
  EXPECT_THAT(stage2, HasSubstr("user=<s1: String, 6 chars>"));
  EXPECT_THAT(stage2, HasSubstr("pass=<c1: char[], 3 chars>"));
  EXPECT_THAT(stage2, Not(HasSubstr("zed-91")));
  EXPECT_THAT(stage2, Not(HasSubstr("'p'")));

  ValidationFeedback feedback;
  feedback.counterexamples = {Login("", "zed-91", false)};
  feedback.diagnostics = {"coverage: observation 2 rejected: user == \"zed-91\""};
  std::string round2 = b->FeedbackMessage(feedback).content;
  EXPECT_THAT(round2, Not(HasSubstr("zed-91")));
  EXPECT_THAT(round2, HasSubstr("user == \"<s1: String, 6 chars>\""));

  // Without parameter names even a literal is shown by shape.
  in.observations = {Login("p.GateTest#ok", "ann", true)};
  b = PromptBuilder::Create(in, options);
  ASSERT_TRUE(b.ok());
  EXPECT_THAT(b->Stage2Message().content, Not(HasSubstr("\"ann\"")));
  // The same rule, asked directly (for the feedback's substituted copies).
  EXPECT_TRUE(b->HidesText("ann", ArgumentsByShape(in.observations[0])));
  EXPECT_FALSE(b->HidesText("ann", /*by_shape=*/false));
  EXPECT_TRUE(b->HidesText("zed-91", /*by_shape=*/false));
  EXPECT_FALSE(b->HidesText("", /*by_shape=*/true));
  // Anonymised, the text is judged as it would be sent.
  PromptOptions anonymised = options;
  anonymised.anonymize = true;
  in.tests = {{"p.GateTest#ok", "@Test void ok() { Gate.login(\"Gate\", secretChars()); }"}};
  auto a = PromptBuilder::Create(in, anonymised);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_FALSE(a->HidesText("Gate", /*by_shape=*/false));
  EXPECT_TRUE(a->HidesText("Gatekeeper-7", /*by_shape=*/false));

  // ALL (the built-in synthesizer's setting) shows everything.
  options.string_disclosure = v1::ALL;
  in.observations = {Login("p.GateTest#ok", "zed-91", false)};
  b = PromptBuilder::Create(in, options);
  ASSERT_TRUE(b.ok());
  EXPECT_THAT(b->Stage2Message().content, HasSubstr("\"zed-91\""));
}

// Mailer.send(body, relay) on a ByteBuffer and an Inet4Address.
v1::Observation Send(const std::string& body, uint32_t relay) {
  v1::Observation o;
  o.set_test_id("p.MailerTest#sends");
  o.mutable_method()->set_class_name("p.Mailer");
  o.mutable_method()->set_name("send");
  o.mutable_method()->set_jvm_descriptor("(Ljava/nio/ByteBuffer;Ljava/net/InetAddress;)I");
  o.mutable_method()->set_is_static(true);
  o.mutable_method()->add_param_names("body");
  o.mutable_method()->add_param_names("relay");
  o.add_args()->set_ref(1);
  o.add_args()->set_ref(2);
  testing::AddByteBuffer(1, body, 0, static_cast<int>(body.size()), o.mutable_pre());
  testing::AddInet4(2, relay, "relay.internal", o.mutable_pre());
  o.mutable_outcome()->mutable_returned()->set_int_value(1);
  return o;
}

TEST(DisclosureTest, ByteBuffersAndAddressesFollowTheSameRule) {
  PromptInputs in;
  in.signature = *SignatureFromDescriptor("p.Mailer", "send",
                                          "(Ljava/nio/ByteBuffer;Ljava/net/InetAddress;)I", true,
                                          {"body", "relay"});
  in.tests = {{"p.MailerTest#sends",
               "@Test void sends() { send(ByteBuffer.wrap(\"hello-world\".getBytes()),"
               " InetAddress.getByName(\"10.0.0.1\")); }"}};
  // allocate(32).put(mail), an internal address: neither is a literal.
  in.observations = {Send("jane@x.org" + std::string(22, '\0'), 0x0A141E28u),
                     Send("hello-world", 0x0A000001u)};
  PromptOptions options;
  options.string_disclosure = v1::LITERALS_ONLY;
  auto b = PromptBuilder::Create(in, options);
  ASSERT_TRUE(b.ok()) << b.status();
  std::string stage2 = b->Stage2Message().content;
  EXPECT_THAT(stage2, HasSubstr("body=<b1: ByteBuffer, 32 bytes>"));
  EXPECT_THAT(stage2, HasSubstr("relay=<a1: Inet4Address>"));
  EXPECT_THAT(stage2, Not(HasSubstr("106, 97, 110, 101")));  // j, a, n, e
  EXPECT_THAT(stage2, Not(HasSubstr("169090600")));
  EXPECT_THAT(stage2, Not(HasSubstr("relay.internal")));  // inside the hidden address
  // What the tests spell is shown, field by field.
  EXPECT_THAT(stage2, HasSubstr("body.hb=[104, 101, 108, 108"));
  EXPECT_THAT(stage2, HasSubstr("relay.holder.address=167772161"));
  EXPECT_TRUE(b->HidesText("10.20.30.40", /*by_shape=*/false));
  EXPECT_FALSE(b->HidesText("10.0.0.1", /*by_shape=*/false));
}

}  // namespace
}  // namespace tracespec::prompt

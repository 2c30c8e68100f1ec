// Text by shape for every holder of text: a customer e-mail in a
// StringBuilder or a ByteBuffer, a session UUID, an account number in a
// BigInteger and internal IPv4/IPv6 addresses that the tests do not spell
// as literals go out only by shape, while a StringBuilder whose text a
// test spells is still shown. Real pipeline:
// javac, `tracespec observe` (JVM, JUnit 5, the probe), `tracespec infer
// --llm` (validator on Z3, the egress gate) against the fake model server
// on loopback, every byte of which is scanned.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/agent/fake_llm_server.h"
#include "tests/testing/testing.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::RunTracespec;

constexpr char kNotifier[] = R"(package h;
import java.math.BigInteger;
import java.util.UUID;
public class Notifier {
  private int sent;
  public int notify(StringBuilder recipient, UUID session, BigInteger account,
                    StringBuilder subject) {
    sent++;
    return recipient.length() + subject.length() + account.bitLength()
        + (int) (session.getLeastSignificantBits() & 1);
  }
}
)";
// The e-mail, the UUID and the account number are built at run time: no
// literal of the test spells them. The subject is a literal.
constexpr char kNotifierTest[] = R"(package h;
import static org.junit.jupiter.api.Assertions.*;
import java.math.BigInteger;
import java.util.UUID;
import org.junit.jupiter.api.Test;
class NotifierTest {
  static String mail() { return "jane.doe" + "@example-corp.com"; }
  static UUID session() { return new UUID(0x1234567890abcdefL, 0x0fedcba987654321L); }
  static BigInteger account() { return new BigInteger("98765" + "4321012345"); }
  @Test void notifies() {
    StringBuilder to = new StringBuilder();
    to.append(mail());
    assertEquals(25 + 12 + 50 + 1,
                 new Notifier().notify(to, session(), account(), new StringBuilder("Your invoice")));
  }
}
)";
constexpr char kPolicy[] = R"(format_version: FORMAT_VERSION_1
record { class_pattern: "*" }
redaction: MARK
string_disclosure: LITERALS_ONLY
)";
// Wrong for every call: coverage fails, so later rounds carry the
// counterexamples and diagnostics too.
constexpr char kAnswer[] =
    R"({"contract": "//@ public normal_behavior\n//@   ensures \\result == 0;\n", "hypotheses": []})";

std::string Script(int times) {
  std::string out = "{\"responses\":[";
  for (int i = 0; i < times; ++i) absl::StrAppend(&out, i ? "," : "", testing::ContentEntry(kAnswer));
  return out + "],\"then\":\"fail\"}";
}

// What the real pipeline recorded and sent for h.`name`#`method_name`,
// tested by h.`name`Test: javac, `tracespec observe` under the policy
// above, then `tracespec infer` against the fake model for three rounds.
struct Pipeline {
  std::string recorded;
  std::string sent;
};

void RunPipeline(const std::string& name, const std::string& method_name, const char* source,
                 const char* test_source, Pipeline* out) {
  testing::TempDir dir;
  std::string main = testing::CompileJava(dir, {{"h/" + name + ".java", source}}, {"-g"});
  ASSERT_FALSE(main.empty());
  testing::TempDir tests;
  std::string test_classes =
      testing::CompileJava(tests, {{"h/" + name + "Test.java", test_source}}, {"-g"},
                           main + ":" + testing::JunitJar());
  ASSERT_FALSE(test_classes.empty());
  std::string method = "h." + name + "#" + method_name;
  std::string observed = dir.path() + "/observed";
  SubprocessResult observe = RunTracespec(
      {"observe", "--classpath", main + ":" + test_classes, "--tests", "h." + name + "Test",
       "--method", method, "--policy", dir.Write("policy.textproto", kPolicy), "--tests-src",
       tests.path() + "/src", "--out", observed});
  ASSERT_EQ(observe.exit_code, 0) << observe.stdout_data << observe.stderr_data;
  out->recorded = testing::ReadTree(observed);

  testing::FakeLlmServer server(Script(3));
  SubprocessResult run = RunTracespec(
      {"infer", "--classpath", main, "--method", method, "--observations", observed,
       "--tests-src", tests.path() + "/src", "--out", dir.path() + "/infer", "--llm",
       server.base_url(), "--model", "fake-model", "--egress-policy",
       testing::SourceDir() + "/policies/egress.textproto"});
  ASSERT_GE(server.Received().size(), 2u) << run.stdout_data << run.stderr_data;
  out->sent = server.RecordText();
}

TEST(HolderLeakTest, TextInBuildersUuidsAndBigIntegersLeavesOnlyByShape) {
  Pipeline p;
  ASSERT_NO_FATAL_FAILURE(RunPipeline("Notifier", "notify", kNotifier, kNotifierTest, &p));
  // The probe recorded the holders' insides (what today's prompt sent).
  ASSERT_THAT(p.recorded, HasSubstr("mostSigBits"));
  ASSERT_THAT(p.recorded, HasSubstr("\"mag\""));
  const std::string& sent = p.sent;
  // Round 2 on carries the counterexamples: they are scanned too.
  EXPECT_THAT(sent, HasSubstr("Counterexamples"));

  // The e-mail: neither as text nor as the builder's bytes (j, a, n, e).
  EXPECT_THAT(sent, Not(HasSubstr("jane.doe@example-corp.com")));
  EXPECT_THAT(sent, Not(HasSubstr("106, 97, 110, 101")));
  EXPECT_THAT(sent, Not(HasSubstr("recipient.")));
  // The UUID: neither its longs nor its text.
  EXPECT_THAT(sent, Not(HasSubstr("1311768467294899695")));
  EXPECT_THAT(sent, Not(HasSubstr("1147797409030816545")));
  EXPECT_THAT(sent, Not(HasSubstr("12345678-90ab-cdef")));
  EXPECT_THAT(sent, Not(HasSubstr("session.")));
  // The account: neither its magnitude's ints, its digits, nor its caches.
  EXPECT_THAT(sent, Not(HasSubstr("229956")));
  EXPECT_THAT(sent, Not(HasSubstr("821493369")));
  EXPECT_THAT(sent, Not(HasSubstr("987654321012345")));
  EXPECT_THAT(sent, Not(HasSubstr("account.")));
  // They went by shape.
  EXPECT_THAT(sent, HasSubstr("recipient=<s"));
  EXPECT_THAT(sent, HasSubstr(": StringBuilder, 25 chars>"));
  EXPECT_THAT(sent, HasSubstr("session=<u1: UUID>"));
  EXPECT_THAT(sent, HasSubstr(": BigInteger, 15 digits>"));
  // The subject the test spells is still shown: its bytes (Y, o, u, r).
  EXPECT_THAT(sent, HasSubstr("subject.count=12"));
  EXPECT_THAT(sent, HasSubstr("subject.value=[89, 111, 117, 114"));
}

constexpr char kRouter[] = R"(package h;
import java.net.InetAddress;
import java.nio.ByteBuffer;
public class Router {
  private int routed;
  public int route(ByteBuffer body, InetAddress relay, InetAddress backup) {
    routed++;
    return body.position() + relay.getAddress().length + backup.getAddress().length;
  }
}
)";
// The e-mail goes into a buffer larger than it (the rest stays zero, so
// the backing array alone never read as text), the addresses are parsed
// from text built at run time: no literal of the test spells them.
constexpr char kRouterTest[] = R"(package h;
import static org.junit.jupiter.api.Assertions.*;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
class RouterTest {
  static String mail() { return "jane.doe" + "@example-corp.com"; }
  @Test void routes() throws Exception {
    ByteBuffer out = ByteBuffer.allocate(64);
    out.put(mail().getBytes(StandardCharsets.UTF_8));
    InetAddress internal = InetAddress.getByName("10.73." + "18.201");
    InetAddress internal6 = InetAddress.getByName("fd12:3456:" + "789a::7");
    assertEquals(25 + 4 + 16, new Router().route(out, internal, internal6));
  }
}
)";

TEST(HolderLeakTest, TextInByteBuffersAndAddressesLeavesOnlyByShape) {
  Pipeline p;
  ASSERT_NO_FATAL_FAILURE(RunPipeline("Router", "route", kRouter, kRouterTest, &p));
  // The probe recorded the JDK 17 layouts the holders are read from.
  ASSERT_THAT(p.recorded, HasSubstr("java.nio.HeapByteBuffer"));
  ASSERT_THAT(p.recorded, HasSubstr("\"hb\""));
  ASSERT_THAT(p.recorded, HasSubstr("java.net.InetAddress$InetAddressHolder"));
  ASSERT_THAT(p.recorded, HasSubstr("\"ipaddress\""));
  const std::string& sent = p.sent;
  EXPECT_THAT(sent, HasSubstr("Counterexamples"));

  // The e-mail: neither as text nor as the buffer's bytes (j, a, n, e).
  EXPECT_THAT(sent, Not(HasSubstr("jane.doe@example-corp.com")));
  EXPECT_THAT(sent, Not(HasSubstr("106, 97, 110, 101")));
  EXPECT_THAT(sent, Not(HasSubstr("body.")));
  // The IPv4 address: neither its int nor its text; the IPv6 one neither
  // its bytes (fd 12 34 56) nor its text.
  EXPECT_THAT(sent, Not(HasSubstr("172561097")));
  EXPECT_THAT(sent, Not(HasSubstr("10.73.18.201")));
  EXPECT_THAT(sent, Not(HasSubstr("-3, 18, 52, 86")));
  EXPECT_THAT(sent, Not(HasSubstr("fd12:3456:789a:")));
  EXPECT_THAT(sent, Not(HasSubstr("relay.")));
  EXPECT_THAT(sent, Not(HasSubstr("backup.")));
  // They went by shape.
  EXPECT_THAT(sent, HasSubstr("body=<b1: ByteBuffer, 64 bytes>"));
  EXPECT_THAT(sent, HasSubstr("relay=<a1: Inet4Address>"));
  EXPECT_THAT(sent, HasSubstr("backup=<a2: Inet6Address>"));
}

constexpr char kFramer[] = R"(package h;
import java.nio.ByteBuffer;
public class Framer {
  private int framed;
  public int frame(ByteBuffer packet, byte[] record, ByteBuffer known) {
    framed++;
    return packet.position() + record.length + known.position();
  }
}
)";
// Text after a binary header: the e-mail (built at run time, 42 bytes, so
// its short length's second byte is a printable '*') after its length in
// a ByteBuffer, and after a tag and a version in a byte[]; a notice
// address the test spells, after its length.
constexpr char kFramerTest[] = R"(package h;
import static org.junit.jupiter.api.Assertions.*;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
class FramerTest {
  static String mail() { return "tobias.lindqvist" + "@harrowgate-clinic.example"; }
  static ByteBuffer framed(String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    ByteBuffer buf = ByteBuffer.allocate(2 + b.length);
    buf.putShort((short) b.length);
    buf.put(b);
    return buf;
  }
  @Test void frames() {
    byte[] m = mail().getBytes(StandardCharsets.UTF_8);
    byte[] record = new byte[4 + m.length];
    record[0] = 0x7f;
    record[1] = 1;
    System.arraycopy(m, 0, record, 4, m.length);
    assertEquals(44 + 46 + 40,
                 new Framer().frame(framed(mail()), record,
                                    framed("noreply@notifications.example-corp.com")));
  }
}
)";

TEST(HolderLeakTest, TextAfterABinaryPrefixLeavesOnlyByShape) {
  Pipeline p;
  ASSERT_NO_FATAL_FAILURE(RunPipeline("Framer", "frame", kFramer, kFramerTest, &p));
  // The probe recorded the bytes: t, o, b, i after the prefix 0, 42.
  ASSERT_THAT(p.recorded, HasSubstr("\"hb\""));
  const std::string& sent = p.sent;
  EXPECT_THAT(sent, HasSubstr("Counterexamples"));
  EXPECT_THAT(sent, Not(HasSubstr("tobias.lindqvist")));
  EXPECT_THAT(sent, Not(HasSubstr("116, 111, 98, 105")));
  EXPECT_THAT(sent, Not(HasSubstr("packet.")));
  EXPECT_THAT(sent, HasSubstr("packet=<b1: ByteBuffer, 44 bytes>"));
  EXPECT_THAT(sent, HasSubstr("record=<b1: byte[], 46 bytes>"));
  // The address the test spells is still shown, its length and its bytes
  // (n, o, r, e, p, l, y).
  EXPECT_THAT(sent, HasSubstr("0, 38, 110, 111, 114, 101, 112, 108, 121"));
}

}  // namespace
}  // namespace tracespec

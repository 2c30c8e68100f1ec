// TLS and mutual TLS between the gateway's clients (services::ConnectGateway,
// `infer --gateway`, `run --gateway`) and `tracespec serve gateway`
// (services/common/tls.h): the real binary on loopback in front of the fake
// chat-completions server, with the certificates of
// tests/services/test_certificates.h made by the openssl command at test
// time.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/gateway/gateway.h"
#include "common/files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/common/tls.h"
#include "services/gateway/client.h"
#include "tests/agent/fake_llm_server.h"
#include "tests/services/gateway_process.h"
#include "tests/services/test_certificates.h"
#include "tests/testing/testing.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::ContentEntry;
using testing::FakeLlmServer;
using testing::RunTracespec;

gateway::LlmRequest Request() {
  gateway::LlmRequest r;
  r.messages = {{prompt::Role::kSystem, "Write JML."},
                {prompt::Role::kUser, "deposit(5) on 10 returned 15"}};
  r.label = "bank.Account#deposit round 1";
  return r;
}

class GatewayTlsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    certificates_ = new TestCertificates(*dir_);
  }
  static void TearDownTestSuite() {
    delete certificates_;
    delete dir_;
  }

  void SetUp() override {
    // Keys of the client side of the test stay unused: the key is the
    // gateway's.
    setenv("TRACESPEC_AUDIT_KEY", (local_.path() + "/client-audit-key.pem").c_str(), 1);
    unsetenv("TRACESPEC_API_KEY");
    policy_ = gateway_dir_.Write("egress.textproto", kLoopbackEgressPolicy);
  }
  void TearDown() override { unsetenv("TRACESPEC_AUDIT_KEY"); }

  static const TestCertificates& Certs() { return *certificates_; }

  // The server's TLS flags, and with `client_ca` mutual TLS.
  static std::vector<std::string> ServerFlags(const CertificatePair* client_ca = nullptr) {
    std::vector<std::string> flags = {"--tls-cert", Certs().server.cert, "--tls-key",
                                      Certs().server.key};
    if (client_ca != nullptr) flags.insert(flags.end(), {"--tls-client-ca", client_ca->cert});
    return flags;
  }

  // A client's TLS read from PEM files as --gateway-ca, --gateway-cert and
  // --gateway-key read them.
  static std::optional<services::ClientTls> ClientTls(const CertificatePair& ca,
                                                      const CertificatePair* identity = nullptr) {
    services::ClientTlsFiles files{"--gateway", ca.cert};
    if (identity != nullptr) {
      files.cert = identity->cert;
      files.key = identity->key;
    }
    absl::StatusOr<std::optional<services::ClientTls>> tls = services::ReadClientTls(files);
    EXPECT_TRUE(tls.ok()) << tls.status();
    return tls.ok() ? *tls : std::nullopt;
  }

  absl::StatusOr<std::unique_ptr<gateway::LlmClient>> Connect(
      const std::string& address, std::optional<services::ClientTls> tls) {
    services::RemoteGatewayOptions options;
    options.gateway = address;
    options.connect_seconds = 5;
    options.tls = std::move(tls);
    return services::ConnectGateway(options, gateway::GatewayMaterial());
  }

  // A session refused at the handshake: UNAVAILABLE naming the gateway.
  static void ExpectRefused(const absl::Status& status, const std::string& address) {
    EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
    EXPECT_THAT(status.message(), HasSubstr("no gateway reachable at " + address));
  }

  // The answer of a session over `tls`, which must reach the model.
  void ExpectAnswered(const std::string& address, std::optional<services::ClientTls> tls) {
    auto client = Connect(address, std::move(tls));
    ASSERT_TRUE(client.ok()) << client.status();
    auto response = (*client)->Complete(Request());
    ASSERT_TRUE(response.ok()) << response.status();
    EXPECT_EQ(response->text, kContractAnswer);
  }

  // `infer --gateway ADDRESS FLAGS...` on a method it never gets to: the
  // gateway is reached (or the flags refused) before anything is written.
  SubprocessResult Infer(const std::string& address, const std::vector<std::string>& flags) {
    std::vector<std::string> args = {"infer",          "--classpath",  local_.path(),
                                     "--method",       "demo.Calc#max", "--observations",
                                     local_.path(),    "--out",        out_,
                                     "--gateway",      address};
    args.insert(args.end(), flags.begin(), flags.end());
    return RunTracespec(args);
  }

  static testing::TempDir* dir_;
  static TestCertificates* certificates_;
  testing::TempDir local_;
  testing::TempDir gateway_dir_;
  GatewayFiles files_{gateway_dir_.path()};
  std::string policy_;
  const std::string out_ = local_.path() + "/out";
};

testing::TempDir* GatewayTlsTest::dir_ = nullptr;
TestCertificates* GatewayTlsTest::certificates_ = nullptr;

TEST_F(GatewayTlsTest, ATlsGatewayAnswersATlsClient) {
  FakeLlmServer model("{\"responses\":[" + ContentEntry(kContractAnswer) + "," +
                      ContentEntry(kContractAnswer) + "]}");
  ASSERT_TRUE(model.running());
  auto server = StartGateway(files_, model, policy_, ServerFlags());
  ASSERT_NE(server->address(), "");
  EXPECT_THAT(server->listening_line(),
              HasSubstr("(to " + model.base_url() + "/chat/completions, TLS)"));
  // By address (the certificate's IP address) and by name (its DNS name).
  ExpectAnswered(server->address(), ClientTls(Certs().ca));
  const std::string port = server->address().substr(server->address().rfind(':') + 1);
  ExpectAnswered("localhost:" + port, ClientTls(Certs().ca));
  EXPECT_EQ(model.Received().size(), 2u);
  std::vector<v1::AuditRecord> records = GatewayRecords(files_);
  ASSERT_FALSE(records.empty());
  EXPECT_EQ(records[0].verdict(), v1::ALLOWED);
}

TEST_F(GatewayTlsTest, ATlsGatewayRefusesPlaintextAndAPlaintextGatewayRefusesTls) {
  FakeLlmServer model("{\"responses\":[]}");
  ASSERT_TRUE(model.running());
  auto tls = StartGateway(files_, model, policy_, ServerFlags());
  ASSERT_NE(tls->address(), "");
  auto plaintext = Connect(tls->address(), std::nullopt);
  ASSERT_FALSE(plaintext.ok());
  ExpectRefused(plaintext.status(), tls->address());
  EXPECT_THAT(plaintext.status().message(), HasSubstr("give --gateway-ca"));
  // infer without --gateway-ca: exit 4 before anything is written.
  SubprocessResult infer = Infer(tls->address(), {});
  EXPECT_EQ(infer.exit_code, 4) << infer.stderr_data;
  EXPECT_THAT(infer.stderr_data, HasSubstr("no gateway reachable at " + tls->address()));
  EXPECT_FALSE(std::filesystem::exists(out_));
  EXPECT_TRUE(model.Received().empty());

  testing::TempDir plain_dir;
  GatewayFiles plain_files(plain_dir.path());
  auto plain = StartGateway(plain_files, model, policy_);
  ASSERT_NE(plain->address(), "");
  auto secure = Connect(plain->address(), ClientTls(Certs().ca));
  ASSERT_FALSE(secure.ok());
  ExpectRefused(secure.status(), plain->address());
}

TEST_F(GatewayTlsTest, AClientRefusesAGatewayCertificateOfAnotherCaOrForAnotherName) {
  FakeLlmServer model("{\"responses\":[]}");
  ASSERT_TRUE(model.running());
  auto tls = StartGateway(files_, model, policy_, ServerFlags());
  ASSERT_NE(tls->address(), "");
  auto other_ca = Connect(tls->address(), ClientTls(Certs().other_ca));
  ASSERT_FALSE(other_ca.ok());
  ExpectRefused(other_ca.status(), tls->address());
  EXPECT_THAT(other_ca.status().message(),
              HasSubstr("TLS handshake failed with " + tls->address() +
                        ": the server's certificate does not verify against --gateway-ca"));

  testing::TempDir elsewhere_dir;
  GatewayFiles elsewhere_files(elsewhere_dir.path());
  auto elsewhere = StartGateway(elsewhere_files, model, policy_,
                                {"--tls-cert", Certs().elsewhere.cert, "--tls-key",
                                 Certs().elsewhere.key});
  ASSERT_NE(elsewhere->address(), "");
  auto wrong_name = Connect(elsewhere->address(), ClientTls(Certs().ca));
  ASSERT_FALSE(wrong_name.ok());
  ExpectRefused(wrong_name.status(), elsewhere->address());
  EXPECT_THAT(wrong_name.status().message(),
              HasSubstr("the server's certificate does not name 127.0.0.1"));
}

TEST_F(GatewayTlsTest, MutualTlsRefusesClientsWithoutACertificateOfItsCa) {
  FakeLlmServer model("{\"responses\":[" + ContentEntry(kContractAnswer) + "]}");
  ASSERT_TRUE(model.running());
  auto mtls = StartGateway(files_, model, policy_, ServerFlags(&Certs().ca));
  ASSERT_NE(mtls->address(), "");
  EXPECT_THAT(mtls->listening_line(), HasSubstr("/chat/completions, mutual TLS)"));
  const std::string& address = mtls->address();

  auto no_cert = Connect(address, ClientTls(Certs().ca));
  ASSERT_FALSE(no_cert.ok());
  ExpectRefused(no_cert.status(), address);
  EXPECT_THAT(no_cert.status().message(),
              HasSubstr("the server refused this client (no --gateway-cert given)"));
  auto other_cert = Connect(address, ClientTls(Certs().ca, &Certs().other_client));
  ASSERT_FALSE(other_cert.ok());
  ExpectRefused(other_cert.status(), address);
  EXPECT_THAT(other_cert.status().message(),
              HasSubstr("the server refused this client (its certificate, --gateway-cert)"));
  ExpectRefused(Connect(address, std::nullopt).status(), address);

  // The command line's flags: refused the same way, before anything is
  // written.
  for (const std::vector<std::string>& flags :
       {std::vector<std::string>{"--gateway-ca", Certs().ca.cert},
        std::vector<std::string>{"--gateway-ca", Certs().ca.cert, "--gateway-cert",
                                 Certs().other_client.cert, "--gateway-key",
                                 Certs().other_client.key}}) {
    SubprocessResult infer = Infer(address, flags);
    EXPECT_EQ(infer.exit_code, 4) << absl::StrJoin(flags, " ") << "\n" << infer.stderr_data;
    EXPECT_THAT(infer.stderr_data, HasSubstr("the server refused this client"));
    EXPECT_FALSE(std::filesystem::exists(out_));
  }
  SubprocessResult run = RunTracespec({"run", local_.path() + "/no-project", "--gateway", address,
                                       "--gateway-ca", Certs().ca.cert});
  EXPECT_EQ(run.exit_code, 4) << run.stderr_data;
  EXPECT_THAT(run.stderr_data, HasSubstr("the server refused this client"));
  EXPECT_TRUE(model.Received().empty());

  // A client of its CA is answered.
  ExpectAnswered(address, ClientTls(Certs().ca, &Certs().client));
  EXPECT_EQ(model.Received().size(), 1u);
}

TEST_F(GatewayTlsTest, BadPemFlagsAreClearInputErrorsBeforeAnythingHappens) {
  const std::string missing = local_.path() + "/missing.pem";
  const std::string text = local_.Write("not-pem.txt", "hello\n");
  // The client's flags, checked before any connection (no gateway here).
  for (const BadTlsFlags& c : BadClientTlsFlags("--gateway", Certs(), missing, text)) {
    SubprocessResult r = Infer("127.0.0.1:1", c.flags);
    EXPECT_EQ(r.exit_code, 3) << absl::StrJoin(c.flags, " ") << "\n" << r.stderr_data;
    EXPECT_THAT(r.stderr_data, HasSubstr(c.message)) << absl::StrJoin(c.flags, " ");
    EXPECT_THAT(r.stderr_data, Not(HasSubstr("reachable")));
    EXPECT_FALSE(std::filesystem::exists(out_));
  }
  SubprocessResult run = RunTracespec({"run", local_.path() + "/no-project", "--gateway",
                                       "127.0.0.1:1", "--gateway-ca", missing});
  EXPECT_EQ(run.exit_code, 3) << run.stderr_data;
  EXPECT_THAT(run.stderr_data, HasSubstr("--gateway-ca " + missing + ": no such file"));
  SubprocessResult without_gateway =
      RunTracespec({"infer", "--classpath", local_.path(), "--method", "demo.Calc#max",
                    "--observations", local_.path(), "--out", out_, "--gateway-ca",
                    Certs().ca.cert});
  EXPECT_EQ(without_gateway.exit_code, 3) << without_gateway.stderr_data;
  EXPECT_THAT(without_gateway.stderr_data,
              HasSubstr("--gateway-ca " + Certs().ca.cert + " is given without --gateway"));
  EXPECT_FALSE(std::filesystem::exists(out_));

  // The gateway's flags, checked before it listens (and before its log is
  // opened).
  FakeLlmServer model("{\"responses\":[]}");
  ASSERT_TRUE(model.running());
  for (const BadTlsFlags& c : BadServerTlsFlags(Certs(), missing, text)) {
    std::vector<std::string> args = {"gateway",         "--llm",       model.base_url(),
                                     "--model",         "m",           "--egress-policy",
                                     policy_,           "--audit-log", files_.log,
                                     "--audit-key",     files_.key};
    args.insert(args.end(), c.flags.begin(), c.flags.end());
    ServerProcess process(args, gateway_dir_.path() + "/bad.err");
    const std::string what = absl::StrJoin(c.flags, " ");
    EXPECT_EQ(process.address(), "") << what;
    EXPECT_EQ(process.WaitForExit(10), 3) << what << "\n" << process.Stderr();
    EXPECT_THAT(process.Stderr(), HasSubstr(c.message)) << what;
  }
  EXPECT_FALSE(std::filesystem::exists(files_.log));
}

}  // namespace
}  // namespace tracespec

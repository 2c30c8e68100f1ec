// TLS and mutual TLS between `--validators` clients and `tracespec serve
// validator` (services/common/tls.h): the real binary on loopback, with a
// CA, server and client certificates made by the openssl command at test
// time, and a second, unrelated CA with a client certificate of its own
// (tests/services/test_certificates.h).
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/files.h"
#include "common/subprocess.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/validator/client.h"
#include "tests/services/server_process.h"
#include "tests/services/test_certificates.h"
#include "tests/testing/testing.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::RunTracespec;

constexpr char kCalc[] = R"(package demo;

public class Calc {
  public static int max(int a, int b) {
    return a >= b ? a : b;
  }
}
)";
constexpr char kMethod[] = "demo.Calc#max";
constexpr char kHolds[] = "//@ ensures \\result >= a && \\result >= b;\n";
// Fails when b > a: a counterexample in the report.
constexpr char kFails[] = "//@ ensures \\result == a;\n";

using Pair = CertificatePair;

class ValidatorTlsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    classes_ = new std::string(testing::CompileJava(*dir_, {{"demo/Calc.java", kCalc}}, {"-g"}));
    certificates_ = new TestCertificates(*dir_);
    ca_ = &certificates_->ca;
    other_ca_ = &certificates_->other_ca;
    server_ = &certificates_->server;
    elsewhere_ = &certificates_->elsewhere;
    client_ = &certificates_->client;
    other_client_ = &certificates_->other_client;
  }
  static void TearDownTestSuite() {
    delete certificates_;
    delete classes_;
    delete dir_;
  }

  std::unique_ptr<ServerProcess> StartServer(const std::vector<std::string>& tls,
                                             const std::string& name) {
    std::vector<std::string> extra = {"--workers", "1"};
    extra.insert(extra.end(), tls.begin(), tls.end());
    auto server = std::make_unique<ServerProcess>(*classes_, extra,
                                                  local_.path() + "/" + name + ".err");
    EXPECT_FALSE(server->address().empty())
        << "no listening line: '" << server->listening_line() << "'\n" << server->Stderr();
    return server;
  }

  // `tracespec validate` of Calc#max with `contract` and `extra` flags.
  SubprocessResult Validate(const std::string& contract, const std::vector<std::string>& extra) {
    std::string file = local_.Write("contract.txt", contract);
    std::vector<std::string> args = {"validate", "--method", kMethod, "--contract", file};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunTracespec(args);
  }

  // The TLS flags of a client trusting `ca`, with `identity` when given.
  static std::vector<std::string> ClientFlags(const Pair& ca, const Pair* identity = nullptr) {
    std::vector<std::string> flags = {"--validators-ca", ca.cert};
    if (identity != nullptr) {
      flags.insert(flags.end(),
                   {"--validators-cert", identity->cert, "--validators-key", identity->key});
    }
    return flags;
  }

  static std::vector<std::string> Join(std::vector<std::string> a,
                                       const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  }

  // A call refused at the handshake: exit 4, nothing on stdout, the pool
  // named.
  static void ExpectRefused(const SubprocessResult& r, const std::string& address) {
    EXPECT_EQ(r.exit_code, 4) << r.stdout_data << r.stderr_data;
    EXPECT_EQ(r.stdout_data, "");
    EXPECT_THAT(r.stderr_data, HasSubstr("no validator reachable at ipv4:" + address));
  }

  static testing::TempDir* dir_;
  static std::string* classes_;
  static TestCertificates* certificates_;
  static const Pair* ca_;
  static const Pair* other_ca_;
  static const Pair* server_;
  static const Pair* elsewhere_;
  static const Pair* client_;
  static const Pair* other_client_;
  testing::TempDir local_;
};

testing::TempDir* ValidatorTlsTest::dir_ = nullptr;
std::string* ValidatorTlsTest::classes_ = nullptr;
TestCertificates* ValidatorTlsTest::certificates_ = nullptr;
const Pair* ValidatorTlsTest::ca_ = nullptr;
const Pair* ValidatorTlsTest::other_ca_ = nullptr;
const Pair* ValidatorTlsTest::server_ = nullptr;
const Pair* ValidatorTlsTest::elsewhere_ = nullptr;
const Pair* ValidatorTlsTest::client_ = nullptr;
const Pair* ValidatorTlsTest::other_client_ = nullptr;

TEST(ValidatorsTlsAuthorityTest, TheOneHostOfAListIsTheNameCheckedNamesGoToGrpc) {
  EXPECT_EQ(*services::ValidatorsTlsAuthority("ipv4:127.0.0.1:1,127.0.0.1:2"), "127.0.0.1:1");
  EXPECT_EQ(*services::ValidatorsTlsAuthority("ipv6:[::1]:1"), "[::1]:1");
  EXPECT_EQ(*services::ValidatorsTlsAuthority("dns:///validators:7411"), "");
  EXPECT_THAT(services::ValidatorsTlsAuthority("ipv4:10.0.0.1:1,10.0.0.2:1").status().message(),
              HasSubstr("give one dns:///NAME:PORT"));
}

TEST_F(ValidatorTlsTest, ValidateOverTlsPrintsWhatPlaintextAndInProcessPrint) {
  auto plain = StartServer({}, "plain");
  auto tls = StartServer({"--tls-cert", server_->cert, "--tls-key", server_->key}, "tls");
  auto tls2 = StartServer({"--tls-cert", server_->cert, "--tls-key", server_->key}, "tls2");
  EXPECT_THAT(tls->listening_line(), HasSubstr("(1 workers, TLS)"));
  for (const char* contract : {kHolds, kFails}) {
    SubprocessResult local = Validate(contract, {"--classpath", *classes_});
    SubprocessResult remote = Validate(contract, {"--validators", plain->address()});
    SubprocessResult secure =
        Validate(contract, Join({"--validators", tls->address()}, ClientFlags(*ca_)));
    // Two replicas in a list (one host, checked against the IP address
    // SAN), and dns:///localhost:PORT (checked against the DNS SAN).
    const std::string list = absl::StrCat(tls->address(), ",", tls2->address());
    SubprocessResult pair = Validate(contract, Join({"--validators", list}, ClientFlags(*ca_)));
    const std::string port = tls->address().substr(tls->address().rfind(':') + 1);
    SubprocessResult named =
        Validate(contract, Join({"--validators", "localhost:" + port}, ClientFlags(*ca_)));
    EXPECT_THAT(local.stdout_data, HasSubstr("consistency: "));
    for (const SubprocessResult* r : {&remote, &secure, &pair, &named}) {
      EXPECT_EQ(r->exit_code, local.exit_code) << r->stderr_data;
      EXPECT_EQ(Untimed(r->stdout_data), Untimed(local.stdout_data));
      EXPECT_EQ(r->stderr_data, local.stderr_data);
    }
  }
  // The two contracts differ in verdict, so the comparison can fail.
  EXPECT_NE(Validate(kHolds, {"--classpath", *classes_}).exit_code,
            Validate(kFails, {"--classpath", *classes_}).exit_code);
}

TEST_F(ValidatorTlsTest, ATlsServerRefusesPlaintextAndAPlaintextServerRefusesTls) {
  auto tls = StartServer({"--tls-cert", server_->cert, "--tls-key", server_->key}, "tls");
  SubprocessResult plaintext = Validate(kHolds, {"--validators", tls->address()});
  ExpectRefused(plaintext, tls->address());
  EXPECT_THAT(plaintext.stderr_data, HasSubstr("give --validators-ca"));
  auto plain = StartServer({}, "plain");
  ExpectRefused(Validate(kHolds, Join({"--validators", plain->address()}, ClientFlags(*ca_))),
                plain->address());
}

TEST_F(ValidatorTlsTest, AClientRefusesAServerCertificateOfAnotherCaOrForAnotherName) {
  auto tls = StartServer({"--tls-cert", server_->cert, "--tls-key", server_->key}, "tls");
  SubprocessResult other_ca =
      Validate(kHolds, Join({"--validators", tls->address()}, ClientFlags(*other_ca_)));
  ExpectRefused(other_ca, tls->address());
  EXPECT_THAT(other_ca.stderr_data, HasSubstr("TLS handshake failed"));
  auto elsewhere =
      StartServer({"--tls-cert", elsewhere_->cert, "--tls-key", elsewhere_->key}, "elsewhere");
  SubprocessResult wrong_name =
      Validate(kHolds, Join({"--validators", elsewhere->address()}, ClientFlags(*ca_)));
  ExpectRefused(wrong_name, elsewhere->address());
  EXPECT_THAT(wrong_name.stderr_data, HasSubstr("TLS handshake failed"));
}

TEST_F(ValidatorTlsTest, MutualTlsRefusesClientsWithoutACertificateOfItsCa) {
  auto mtls = StartServer({"--tls-cert", server_->cert, "--tls-key", server_->key,
                           "--tls-client-ca", ca_->cert},
                          "mtls");
  EXPECT_THAT(mtls->listening_line(), HasSubstr("(1 workers, mutual TLS)"));
  const std::vector<std::string> pool = {"--validators", mtls->address()};
  SubprocessResult no_cert = Validate(kHolds, Join(pool, ClientFlags(*ca_)));
  ExpectRefused(no_cert, mtls->address());
  EXPECT_THAT(no_cert.stderr_data, HasSubstr("the server refused this client"));
  SubprocessResult other_cert = Validate(kHolds, Join(pool, ClientFlags(*ca_, other_client_)));
  ExpectRefused(other_cert, mtls->address());
  EXPECT_THAT(other_cert.stderr_data, HasSubstr("the server refused this client"));
  ExpectRefused(Validate(kHolds, pool), mtls->address());
  SubprocessResult local = Validate(kFails, {"--classpath", *classes_});
  SubprocessResult secure = Validate(kFails, Join(pool, ClientFlags(*ca_, client_)));
  EXPECT_EQ(secure.exit_code, local.exit_code) << secure.stderr_data;
  EXPECT_EQ(Untimed(secure.stdout_data), Untimed(local.stdout_data));
  EXPECT_THAT(secure.stdout_data, HasSubstr("consistency: FAIL"));
}

TEST_F(ValidatorTlsTest, BadPemFlagsAreClearInputErrorsBeforeAnythingHappens) {
  const std::string missing = local_.path() + "/missing.pem";
  const std::string text = local_.Write("not-pem.txt", "hello\n");
  // The client's flags, checked before any connection (no server here).
  const std::vector<std::string> pool = {"--validators", "127.0.0.1:1"};
  for (const BadTlsFlags& c : BadClientTlsFlags("--validators", *certificates_, missing, text)) {
    SubprocessResult r = Validate(kHolds, Join(pool, c.flags));
    EXPECT_EQ(r.exit_code, 3) << absl::StrJoin(c.flags, " ") << "\n" << r.stderr_data;
    EXPECT_THAT(r.stderr_data, HasSubstr(c.message)) << absl::StrJoin(c.flags, " ");
    EXPECT_THAT(r.stderr_data, Not(HasSubstr("reachable")));
    EXPECT_EQ(r.stdout_data, "");
  }
  SubprocessResult without_pool =
      Validate(kHolds, {"--classpath", *classes_, "--validators-ca", ca_->cert});
  EXPECT_EQ(without_pool.exit_code, 3);
  EXPECT_THAT(without_pool.stderr_data,
              HasSubstr("--validators-ca " + ca_->cert + " is given without --validators"));
  // infer reads them before it writes anything.
  const std::string out = local_.path() + "/out";
  SubprocessResult infer =
      RunTracespec({"infer", "--classpath", *classes_, "--method", kMethod, "--observations",
                    local_.path(), "--builtin", "--out", out, "--validators", "127.0.0.1:1",
                    "--validators-ca", missing});
  EXPECT_EQ(infer.exit_code, 3) << infer.stderr_data;
  EXPECT_THAT(infer.stderr_data, HasSubstr("--validators-ca " + missing + ": no such file"));
  EXPECT_FALSE(std::filesystem::exists(out));

  // The server's flags, checked before it listens.
  for (const BadTlsFlags& c : BadServerTlsFlags(*certificates_, missing, text)) {
    ServerProcess server(*classes_, c.flags, local_.path() + "/bad.err");
    EXPECT_EQ(server.address(), "") << absl::StrJoin(c.flags, " ");
    EXPECT_EQ(server.WaitForExit(10), 3) << absl::StrJoin(c.flags, " ");
    EXPECT_THAT(server.Stderr(), HasSubstr(c.message)) << absl::StrJoin(c.flags, " ");
  }
}

}  // namespace
}  // namespace tracespec

// Certificates for the TLS tests of every service, made by the openssl
// command at test time under a directory of the test: a CA, a server
// certificate for localhost and 127.0.0.1, one of the same CA for another
// name, a client certificate, and a second, unrelated CA with a client
// certificate of its own. P-256 keys, valid two days.
#ifndef TRACESPEC_TESTS_SERVICES_TEST_CERTIFICATES_H_
#define TRACESPEC_TESTS_SERVICES_TEST_CERTIFICATES_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/subprocess.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec {

// A certificate and its key: PEM files.
struct CertificatePair {
  std::string cert;
  std::string key;
};

class TestCertificates {
 public:
  // Makes them all under `dir` (a failure of the test when openssl fails).
  explicit TestCertificates(const testing::TempDir& dir)
      : dir_(dir),
        ca(MakeCa("ca", "tracespec test CA")),
        other_ca(MakeCa("other-ca", "unrelated test CA")),
        server(MakeLeaf("server", ca, "DNS:localhost,IP:127.0.0.1", "serverAuth")),
        elsewhere(MakeLeaf("elsewhere", ca, "DNS:elsewhere.invalid", "serverAuth")),
        client(MakeLeaf("client", ca, "DNS:client", "clientAuth")),
        other_client(MakeLeaf("other-client", other_ca, "DNS:client", "clientAuth")) {}

 private:
  const testing::TempDir& dir_;
  int serial_ = 0;

 public:
  const CertificatePair ca;
  const CertificatePair other_ca;
  // For localhost and 127.0.0.1, signed by `ca`.
  const CertificatePair server;
  // Signed by `ca`, but for a name no client connects to.
  const CertificatePair elsewhere;
  const CertificatePair client;
  // Signed by `other_ca`.
  const CertificatePair other_client;

 private:
  static void OpenSsl(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"openssl"};
    argv.insert(argv.end(), args.begin(), args.end());
    absl::StatusOr<SubprocessResult> r = RunSubprocess(argv, {});
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_EQ(r->exit_code, 0) << absl::StrJoin(argv, " ") << "\n" << r->stderr_data;
  }

  // A self-signed CA with a P-256 key.
  CertificatePair MakeCa(const std::string& name, const std::string& common_name) {
    CertificatePair p{dir_.path() + "/" + name + ".pem", dir_.path() + "/" + name + ".key"};
    OpenSsl({"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-keyout", p.key, "-out", p.cert, "-days", "2", "-subj",
             "/CN=" + common_name, "-addext", "basicConstraints=critical,CA:TRUE", "-addext",
             "keyUsage=critical,keyCertSign,cRLSign"});
    return p;
  }

  // A certificate signed by `ca` with these subject alternative names and
  // extended key usage.
  CertificatePair MakeLeaf(const std::string& name, const CertificatePair& ca,
                           const std::string& san, const std::string& usage) {
    CertificatePair p{dir_.path() + "/" + name + ".pem", dir_.path() + "/" + name + ".key"};
    const std::string csr = dir_.path() + "/" + name + ".csr";
    const std::string ext = dir_.Write(
        name + ".ext", absl::StrCat("subjectAltName=", san,
                                    "\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\n"
                                    "extendedKeyUsage=",
                                    usage, "\n"));
    OpenSsl({"req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-keyout", p.key, "-out", csr, "-subj", "/CN=" + name});
    OpenSsl({"x509", "-req", "-in", csr, "-CA", ca.cert, "-CAkey", ca.key, "-set_serial",
             absl::StrCat(++serial_), "-days", "2", "-extfile", ext, "-out", p.cert});
    return p;
  }
};

// A bad combination of TLS flags and the message it must be refused with
// (exit 3, before anything connects or listens).
struct BadTlsFlags {
  std::vector<std::string> flags;
  std::string message;
};

// The client's flags FLAG-ca, FLAG-cert and FLAG-key ("--validators",
// "--gateway"): a missing file, files without the PEM they should hold, a
// certificate without its key and the reverse, a certificate without the
// CA, a key of another certificate. `missing` names no file; `text` is a
// file of plain text.
inline std::vector<BadTlsFlags> BadClientTlsFlags(const std::string& flag,
                                                  const TestCertificates& c,
                                                  const std::string& missing,
                                                  const std::string& text) {
  const std::string ca = flag + "-ca";
  const std::string cert = flag + "-cert";
  const std::string key = flag + "-key";
  return {
      {{ca, missing}, ca + " " + missing + ": no such file"},
      {{ca, text}, ca + " " + text + ": no PEM certificate in it"},
      {{ca, c.client.key}, ca + " " + c.client.key + ": no PEM certificate in it"},
      {{ca, c.ca.cert, cert, c.client.cert},
       cert + " " + c.client.cert + " is given without " + key},
      {{ca, c.ca.cert, key, c.client.key}, key + " " + c.client.key + " is given without " + cert},
      {{cert, c.client.cert, key, c.client.key}, cert + " " + c.client.cert + " needs " + ca},
      {{ca, c.ca.cert, cert, c.client.cert, key, c.other_client.key},
       key + " " + c.other_client.key + ": is not the private key of the certificate in " +
           cert + " " + c.client.cert},
      {{ca, c.ca.cert, cert, c.client.cert, key, text},
       key + " " + text + ": no PEM private key in it"},
  };
}

// The server's flags --tls-cert, --tls-key and --tls-client-ca, as above.
inline std::vector<BadTlsFlags> BadServerTlsFlags(const TestCertificates& c,
                                                  const std::string& missing,
                                                  const std::string& text) {
  return {
      {{"--tls-cert", c.server.cert},
       "--tls-cert " + c.server.cert + " is given without --tls-key"},
      {{"--tls-key", c.server.key}, "--tls-key " + c.server.key + " is given without --tls-cert"},
      {{"--tls-cert", missing, "--tls-key", c.server.key},
       "--tls-cert " + missing + ": no such file"},
      {{"--tls-cert", text, "--tls-key", c.server.key},
       "--tls-cert " + text + ": no PEM certificate in it"},
      {{"--tls-cert", c.server.cert, "--tls-key", c.client.key},
       "--tls-key " + c.client.key + ": is not the private key of the certificate in --tls-cert " +
           c.server.cert},
      {{"--tls-cert", c.server.cert, "--tls-key", c.server.key, "--tls-client-ca", text},
       "--tls-client-ca " + text + ": no PEM certificate in it"},
      {{"--tls-client-ca", c.ca.cert}, "--tls-client-ca " + c.ca.cert + " needs --tls-cert"},
  };
}

}  // namespace tracespec

#endif  // TRACESPEC_TESTS_SERVICES_TEST_CERTIFICATES_H_

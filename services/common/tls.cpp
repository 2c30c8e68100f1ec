#include "services/common/tls.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/files.h"

namespace tracespec::services {
namespace {

struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using Bio = std::unique_ptr<BIO, BioFree>;
using Certificate = std::unique_ptr<X509, X509Free>;
using Key = std::unique_ptr<EVP_PKEY, KeyFree>;
struct SslCtxFree {
  void operator()(SSL_CTX* c) const { SSL_CTX_free(c); }
};
struct SslFree {
  void operator()(SSL* s) const { SSL_free(s); }
};
struct AddrInfoFree {
  void operator()(addrinfo* a) const { freeaddrinfo(a); }
};

// A PEM file given to a flag.
struct Pem {
  const char* flag;
  std::string path;
  std::string text;
};

absl::Status Bad(const char* flag, const std::string& path, absl::string_view problem) {
  return absl::InvalidArgumentError(absl::StrCat(flag, " ", path, ": ", problem));
}

// OpenSSL's first queued error, for a message; clears the queue.
std::string OpenSslError() {
  unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "";
  char text[256];
  ERR_error_string_n(code, text, sizeof text);
  return absl::StrCat(" (", text, ")");
}

absl::StatusOr<Pem> ReadPem(const char* flag, const std::string& path) {
  if (!FileExists(path)) return Bad(flag, path, "no such file");
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return Bad(flag, path, text.status().message());
  return Pem{flag, path, *std::move(text)};
}

Bio MemoryBio(const std::string& text) {
  return Bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
}

// The first certificate of `pem`; every PEM block in it must be a
// certificate that parses.
absl::StatusOr<Certificate> ParseCertificates(const Pem& pem) {
  Bio bio = MemoryBio(pem.text);
  Certificate first;
  int count = 0;
  while (true) {
    Certificate next(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
    if (next == nullptr) {
      unsigned long error = ERR_peek_last_error();
      // The end of the text after the last block reads as "no start line".
      if (count > 0 && ERR_GET_REASON(error) == PEM_R_NO_START_LINE) {
        ERR_clear_error();
        break;
      }
      std::string detail = OpenSslError();
      return Bad(pem.flag, pem.path,
                 count == 0 ? absl::StrCat("no PEM certificate in it", detail)
                            : absl::StrCat("certificate ", count + 1, " does not parse", detail));
    }
    if (count++ == 0) first = std::move(next);
  }
  return first;
}

absl::StatusOr<Key> ParseKey(const Pem& pem) {
  Bio bio = MemoryBio(pem.text);
  Key key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
  if (key == nullptr) {
    return Bad(pem.flag, pem.path,
               absl::StrCat("no PEM private key in it (or one protected by a passphrase, "
                            "which is not supported)",
                            OpenSslError()));
  }
  return key;
}

// Every certificate of a PEM text, in order (none when it has none).
std::vector<Certificate> CertificatesOf(const std::string& pem) {
  Bio bio = MemoryBio(pem);
  std::vector<Certificate> out;
  while (X509* x = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) out.emplace_back(x);
  ERR_clear_error();
  return out;
}

// An open socket, closed when it goes.
class Socket {
 public:
  explicit Socket(int fd) : fd_(fd) {}
  ~Socket() {
    if (fd_ >= 0) close(fd_);
  }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

// Where a target's servers are and the name their certificate must hold.
struct Endpoints {
  std::vector<std::pair<std::string, std::string>> addresses;  // host, port
  std::string name;
  bool numeric = false;
};

// "host:port" or "[v6]:port" -> host, port.
std::pair<std::string, std::string> HostPort(absl::string_view entry) {
  size_t colon = entry.rfind(':');
  if (colon == absl::string_view::npos) return {std::string(entry), ""};
  absl::string_view host = entry.substr(0, colon);
  if (absl::StartsWith(host, "[") && absl::EndsWith(host, "]")) {
    host = host.substr(1, host.size() - 2);
  }
  return {std::string(host), std::string(entry.substr(colon + 1))};
}

// An IP address, not a name.
bool IsNumericHost(const std::string& host) {
  unsigned char address[sizeof(in6_addr)];
  return inet_pton(AF_INET, host.c_str(), address) == 1 ||
         inet_pton(AF_INET6, host.c_str(), address) == 1;
}

Endpoints EndpointsOf(const std::string& target) {
  Endpoints out;
  if (absl::StartsWith(target, "ipv4:") || absl::StartsWith(target, "ipv6:")) {
    out.numeric = true;
    for (absl::string_view entry : absl::StrSplit(target.substr(5), ',')) {
      out.addresses.push_back(HostPort(entry));
    }
  } else if (absl::StartsWith(target, "dns:")) {
    out.addresses.push_back(HostPort(target.substr(target.rfind('/') + 1)));
  } else if (!absl::StrContains(target, "/") && absl::StrContains(target, ":") &&
             !absl::StartsWith(target, "unix")) {
    // "HOST:PORT": gRPC resolves it by DNS and checks HOST, a name or an
    // address, against the certificate.
    out.addresses.push_back(HostPort(target));
    out.numeric = IsNumericHost(out.addresses[0].first);
  }
  if (!out.addresses.empty()) out.name = out.addresses[0].first;
  return out;
}

// A connected TCP socket to the first address of `endpoints` that takes
// one (-1 when none does); `shown` says which.
int ConnectFirst(const Endpoints& endpoints, double seconds, std::string* shown) {
  timeval timeout{static_cast<time_t>(seconds),
                  static_cast<suseconds_t>((seconds - static_cast<time_t>(seconds)) * 1e6)};
  for (const auto& [host, port] : endpoints.addresses) {
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = endpoints.numeric ? AI_NUMERICHOST : 0;
    addrinfo* found = nullptr;
    if (getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0) continue;
    std::unique_ptr<addrinfo, AddrInfoFree> list(found);
    for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
      int fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
      if (fd < 0) continue;
      // On Linux the send timeout bounds connect() too.
      setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
      if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
        *shown = a->ai_family == AF_INET6 ? absl::StrCat("[", host, "]:", port)
                                          : absl::StrCat(host, ":", port);
        return fd;
      }
      close(fd);
    }
  }
  return -1;
}

// OpenSSL's reason for the first queued error; clears the queue.
std::string OpenSslReason() {
  unsigned long code = ERR_get_error();
  ERR_clear_error();
  const char* reason = code == 0 ? nullptr : ERR_reason_error_string(code);
  return reason == nullptr ? "the connection was closed" : reason;
}

// What the server did after the client's side of the handshake: sent an
// alert ("tlsv13 alert certificate required"), or closed the connection.
std::string AfterHandshake(const std::string& reason) {
  if (absl::StrContains(reason, "eof")) {
    return absl::StrCat("it closed the connection right after the handshake (", reason, ")");
  }
  return reason;
}

// A PEM file of one or more CA certificates.
absl::StatusOr<std::string> ReadCertificatesFile(const char* flag, const std::string& path) {
  absl::StatusOr<Pem> pem = ReadPem(flag, path);
  if (!pem.ok()) return pem.status();
  absl::StatusOr<Certificate> certificate = ParseCertificates(*pem);
  if (!certificate.ok()) return certificate.status();
  return std::move(pem->text);
}

// A certificate chain and its key, given (or not) together.
absl::StatusOr<std::optional<TlsIdentity>> ReadIdentity(const char* cert_flag,
                                                        const std::string& cert_path,
                                                        const char* key_flag,
                                                        const std::string& key_path) {
  if (cert_path.empty() && key_path.empty()) return std::nullopt;
  if (key_path.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(cert_flag, " ", cert_path, " is given without ", key_flag));
  }
  if (cert_path.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(key_flag, " ", key_path, " is given without ", cert_flag));
  }
  absl::StatusOr<Pem> cert_pem = ReadPem(cert_flag, cert_path);
  if (!cert_pem.ok()) return cert_pem.status();
  absl::StatusOr<Pem> key_pem = ReadPem(key_flag, key_path);
  if (!key_pem.ok()) return key_pem.status();
  absl::StatusOr<Certificate> certificate = ParseCertificates(*cert_pem);
  if (!certificate.ok()) return certificate.status();
  absl::StatusOr<Key> key = ParseKey(*key_pem);
  if (!key.ok()) return key.status();
  if (X509_check_private_key(certificate->get(), key->get()) != 1) {
    ERR_clear_error();
    return Bad(key_flag, key_path,
               absl::StrCat("is not the private key of the certificate in ", cert_flag, " ",
                            cert_path));
  }
  return TlsIdentity{std::move(cert_pem->text), std::move(key_pem->text)};
}

}  // namespace

absl::StatusOr<std::optional<ServerTls>> ReadServerTls(const ServerTlsFiles& files) {
  if (files.cert.empty() && files.key.empty() && !files.client_ca.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("--tls-client-ca ", files.client_ca,
                                                   " needs --tls-cert and --tls-key (mutual TLS "
                                                   "is TLS)"));
  }
  absl::StatusOr<std::optional<TlsIdentity>> identity =
      ReadIdentity("--tls-cert", files.cert, "--tls-key", files.key);
  if (!identity.ok()) return identity.status();
  if (!identity->has_value()) return std::nullopt;
  ServerTls tls;
  tls.identity = **std::move(identity);
  if (!files.client_ca.empty()) {
    absl::StatusOr<std::string> ca = ReadCertificatesFile("--tls-client-ca", files.client_ca);
    if (!ca.ok()) return ca.status();
    tls.client_ca_pem = *std::move(ca);
  }
  return tls;
}

absl::StatusOr<std::optional<ClientTls>> ReadClientTls(const ClientTlsFiles& files) {
  const std::string ca_flag = absl::StrCat(files.flag, "-ca");
  const std::string cert_flag = absl::StrCat(files.flag, "-cert");
  const std::string key_flag = absl::StrCat(files.flag, "-key");
  if (files.ca.empty()) {
    if (files.cert.empty() && files.key.empty()) return std::nullopt;
    return absl::InvalidArgumentError(absl::StrCat(
        files.cert.empty() ? key_flag : cert_flag, " ",
        files.cert.empty() ? files.key : files.cert, " needs ", ca_flag,
        " (the CA that signed the servers' certificates)"));
  }
  ClientTls tls;
  tls.flag = files.flag;
  absl::StatusOr<std::string> ca = ReadCertificatesFile(ca_flag.c_str(), files.ca);
  if (!ca.ok()) return ca.status();
  tls.server_ca_pem = *std::move(ca);
  absl::StatusOr<std::optional<TlsIdentity>> identity =
      ReadIdentity(cert_flag.c_str(), files.cert, key_flag.c_str(), files.key);
  if (!identity.ok()) return identity.status();
  tls.identity = *std::move(identity);
  return tls;
}

std::shared_ptr<grpc::ServerCredentials> ServerCredentialsOf(const std::optional<ServerTls>& tls) {
  if (!tls.has_value()) return grpc::InsecureServerCredentials();
  grpc::SslServerCredentialsOptions ssl(
      tls->client_ca_pem.empty() ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                                 : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  ssl.pem_root_certs = tls->client_ca_pem;
  ssl.pem_key_cert_pairs.push_back(
      {tls->identity.private_key_pem, tls->identity.certificate_chain_pem});
  return grpc::SslServerCredentials(ssl);
}

std::shared_ptr<grpc::ChannelCredentials> ChannelCredentialsOf(
    const std::optional<ClientTls>& tls) {
  if (!tls.has_value()) return grpc::InsecureChannelCredentials();
  grpc::SslCredentialsOptions ssl;
  ssl.pem_root_certs = tls->server_ca_pem;
  if (tls->identity.has_value()) {
    ssl.pem_private_key = tls->identity->private_key_pem;
    ssl.pem_cert_chain = tls->identity->certificate_chain_pem;
  }
  return grpc::SslCredentials(ssl);
}

std::string ServingSecurity(const std::optional<ServerTls>& tls) {
  if (!tls.has_value()) return "";
  return tls->client_ca_pem.empty() ? ", TLS" : ", mutual TLS";
}

std::string TlsHandshakeProblem(const ClientTls& tls, const std::string& target, double seconds) {
  Endpoints endpoints = EndpointsOf(target);
  std::string shown;
  Socket socket(ConnectFirst(endpoints, seconds, &shown));
  if (socket.fd() < 0) return "";
  std::unique_ptr<SSL_CTX, SslCtxFree> context(SSL_CTX_new(TLS_client_method()));
  if (context == nullptr) return "";
  SSL_CTX_set_verify(context.get(), SSL_VERIFY_PEER, nullptr);
  for (Certificate& ca : CertificatesOf(tls.server_ca_pem)) {
    X509_STORE_add_cert(SSL_CTX_get_cert_store(context.get()), ca.get());
  }
  if (tls.identity.has_value()) {
    std::vector<Certificate> chain = CertificatesOf(tls.identity->certificate_chain_pem);
    Bio key_bio = MemoryBio(tls.identity->private_key_pem);
    Key key(PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr));
    if (!chain.empty() && key != nullptr) {
      SSL_CTX_use_certificate(context.get(), chain[0].get());
      for (size_t i = 1; i < chain.size(); ++i) {
        SSL_CTX_add1_chain_cert(context.get(), chain[i].get());
      }
      SSL_CTX_use_PrivateKey(context.get(), key.get());
    }
  }
  static const unsigned char kAlpn[] = {2, 'h', '2'};
  SSL_CTX_set_alpn_protos(context.get(), kAlpn, sizeof kAlpn);
  std::unique_ptr<SSL, SslFree> ssl(SSL_new(context.get()));
  if (ssl == nullptr) return "";
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl.get());
  if (endpoints.numeric) {
    X509_VERIFY_PARAM_set1_ip_asc(param, endpoints.name.c_str());
  } else {
    X509_VERIFY_PARAM_set1_host(param, endpoints.name.c_str(), 0);
    SSL_set_tlsext_host_name(ssl.get(), endpoints.name.c_str());
  }
  SSL_set_fd(ssl.get(), socket.fd());
  ERR_clear_error();
  const std::string failed = absl::StrCat("TLS handshake failed with ", shown, ": ");
  if (SSL_connect(ssl.get()) != 1) {
    long verify = SSL_get_verify_result(ssl.get());
    if (verify == X509_V_ERR_HOSTNAME_MISMATCH || verify == X509_V_ERR_IP_ADDRESS_MISMATCH) {
      ERR_clear_error();
      return absl::StrCat(failed, "the server's certificate does not name ", endpoints.name,
                          " among its subject alternative names");
    }
    if (verify != X509_V_OK) {
      ERR_clear_error();
      return absl::StrCat(failed, "the server's certificate does not verify against ", tls.flag,
                          "-ca: ", X509_verify_cert_error_string(verify));
    }
    return absl::StrCat(failed, OpenSslReason());
  }
  // Under TLS 1.3 a server refuses the client's certificate after the
  // client's side of the handshake is done: the alert comes with the first
  // read (where an accepting gRPC server sends its HTTP/2 settings).
  char buffer[64];
  int read = SSL_read(ssl.get(), buffer, sizeof buffer);
  if (read > 0) return "";
  int error = SSL_get_error(ssl.get(), read);
  if (error == SSL_ERROR_SSL) {
    const std::string whose = tls.identity.has_value()
                                  ? absl::StrCat("its certificate, ", tls.flag, "-cert")
                                  : absl::StrCat("no ", tls.flag, "-cert given");
    return absl::StrCat(failed, "the server refused this client (", whose,
                        "): ", AfterHandshake(OpenSslReason()));
  }
  ERR_clear_error();
  return "";
}

}  // namespace tracespec::services

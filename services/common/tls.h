// TLS for every served stage, from PEM files: the files the flags name
// (ServerTlsFiles: `serve validator|gateway --tls-cert --tls-key
// --tls-client-ca`; ClientTlsFiles: `--validators-ca --validators-cert
// --validators-key`, `--gateway-ca --gateway-cert --gateway-key`) are read
// and checked once, before anything connects or listens, into the PEM texts
// gRPC takes (ServerTls, ClientTls), and from those into gRPC's credentials.
//
// The checks, each failing with InvalidArgument naming the flag and the
// file: the file exists and can be read; a certificate or CA file holds at
// least one PEM certificate and nothing that fails to parse; a key file
// holds a PEM private key; the key belongs to the certificate (the first
// one of the chain); a certificate is given with its key and a key with
// its certificate; a client CA or a client certificate without the TLS it
// belongs to (no --tls-cert, no FLAG-ca) is refused too.
#ifndef TRACESPEC_SERVICES_COMMON_TLS_H_
#define TRACESPEC_SERVICES_COMMON_TLS_H_

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/security/server_credentials.h"

namespace tracespec::services {

// Own certificate chain (leaf first) and its private key, PEM.
struct TlsIdentity {
  std::string certificate_chain_pem;
  std::string private_key_pem;
};

// A server's TLS: its identity, and when `client_ca_pem` is not empty,
// mutual TLS: every client must present a certificate that chains to one
// of these CA certificates.
struct ServerTls {
  TlsIdentity identity;
  std::string client_ca_pem;
};

// A client's TLS: the CA certificates that the server's certificate must
// chain to, and for mutual TLS its own identity.
struct ClientTls {
  std::string server_ca_pem;
  std::optional<TlsIdentity> identity;
  // The client's address flag the files were given with ("--validators"),
  // for messages that name its -ca and -cert flags.
  std::string flag;
};

// Paths as given to the flags; "" = not given.
struct ServerTlsFiles {
  std::string cert;       // --tls-cert
  std::string key;        // --tls-key
  std::string client_ca;  // --tls-client-ca
};
// A client's flags are named after its address flag FLAG ("--validators",
// "--gateway"): FLAG-ca, FLAG-cert, FLAG-key.
struct ClientTlsFiles {
  std::string flag;
  std::string ca;    // FLAG-ca
  std::string cert;  // FLAG-cert
  std::string key;   // FLAG-key
};

// nullopt when no file is given (plaintext).
absl::StatusOr<std::optional<ServerTls>> ReadServerTls(const ServerTlsFiles& files);
absl::StatusOr<std::optional<ClientTls>> ReadClientTls(const ClientTlsFiles& files);

// gRPC's credentials: plaintext when unset; else TLS only, and with a
// client CA mutual TLS (a client certificate required and verified).
std::shared_ptr<grpc::ServerCredentials> ServerCredentialsOf(const std::optional<ServerTls>& tls);
// Plaintext when unset; else the server's chain verified against
// `server_ca_pem` and its name against the channel's authority, and the
// identity presented when the server asks for one.
std::shared_ptr<grpc::ChannelCredentials> ChannelCredentialsOf(
    const std::optional<ClientTls>& tls);

// ", TLS", ", mutual TLS" or "" (plaintext), for a server's listening line.
std::string ServingSecurity(const std::optional<ServerTls>& tls);

// Why a TLS connection to the gRPC `target` (as ValidatorsTarget makes it:
// "ipv4:...", "ipv6:...", "dns:///NAME:PORT"; or "HOST:PORT" as --gateway
// takes it) fails under `tls`, found by a handshake of its own, as gRPC's:
// the same trust roots and client identity, the server's certificate
// checked against the target's host (the IP address of a numeric list or
// of HOST:PORT, NAME of dns:///), ALPN "h2". Its
// first address that accepts a connection within `seconds` is tried; the
// answer is "TLS handshake failed with ADDR: REASON" (OpenSSL's reason, the
// certificate check's error, or the alert the server sent, as when it
// refuses the client's certificate), or "" when the handshake succeeds,
// when no address accepts a connection, or for other targets. For a
// message after gRPC failed to connect, not for deciding anything.
std::string TlsHandshakeProblem(const ClientTls& tls, const std::string& target, double seconds);

}  // namespace tracespec::services

#endif  // TRACESPEC_SERVICES_COMMON_TLS_H_

// TLS for the validator service, from PEM files: the files the flags name
// (ServerTlsFiles: `serve validator --tls-cert --tls-key --tls-client-ca`;
// ClientTlsFiles: `--validators-ca --validators-cert --validators-key`) are
// read and checked once, before anything connects or listens, into the PEM
// texts gRPC takes (ServerTls, ClientTls).
//
// The checks, each failing with InvalidArgument naming the flag and the
// file: the file exists and can be read; a certificate or CA file holds at
// least one PEM certificate and nothing that fails to parse; a key file
// holds a PEM private key; the key belongs to the certificate (the first
// one of the chain); a certificate is given with its key and a key with
// its certificate; a client CA or a client certificate without the TLS it
// belongs to (no --tls-cert, no --validators-ca) is refused too.
#ifndef TRACESPEC_SERVICES_VALIDATOR_TLS_H_
#define TRACESPEC_SERVICES_VALIDATOR_TLS_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"

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
};

// Paths as given to the flags; "" = not given.
struct ServerTlsFiles {
  std::string cert;       // --tls-cert
  std::string key;        // --tls-key
  std::string client_ca;  // --tls-client-ca
};
struct ClientTlsFiles {
  std::string ca;    // --validators-ca
  std::string cert;  // --validators-cert
  std::string key;   // --validators-key
};

// nullopt when no file is given (plaintext).
absl::StatusOr<std::optional<ServerTls>> ReadServerTls(const ServerTlsFiles& files);
absl::StatusOr<std::optional<ClientTls>> ReadClientTls(const ClientTlsFiles& files);

// Why a TLS connection to the gRPC `target` (as ValidatorsTarget makes it:
// "ipv4:...", "ipv6:...", "dns:///NAME:PORT") fails under `tls`, found by a
// handshake of its own, as gRPC's: the same trust roots and client
// identity, the server's certificate checked against the target's host
// (the IP address of a numeric list, NAME of dns:///), ALPN "h2". Its
// first address that accepts a connection within `seconds` is tried; the
// answer is "TLS handshake failed with ADDR: REASON" (OpenSSL's reason, the
// certificate check's error, or the alert the server sent, as when it
// refuses the client's certificate), or "" when the handshake succeeds,
// when no address accepts a connection, or for other targets. For a
// message after gRPC failed to connect, not for deciding anything.
std::string TlsHandshakeProblem(const ClientTls& tls, const std::string& target, double seconds);

}  // namespace tracespec::services

#endif  // TRACESPEC_SERVICES_VALIDATOR_TLS_H_

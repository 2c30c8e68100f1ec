// The Ed25519 key that signs the audit log's checkpoints and seals
// (OpenSSL). The private key lives outside the run directory — by default
// $TRACESPEC_AUDIT_KEY, else $XDG_CONFIG_HOME/tracespec/audit-key.pem, else
// ~/.config/tracespec/audit-key.pem — and is created on first use (PKCS#8
// PEM, mode 0600, its directory 0700), with the public key beside it
// (`<key>.pub`, SubjectPublicKeyInfo PEM) to hand to whoever verifies.
#ifndef TRACESPEC_AGENT_GATEWAY_AUDIT_KEY_H_
#define TRACESPEC_AGENT_GATEWAY_AUDIT_KEY_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tracespec::gateway {

// The default private key path (see above); "" when neither
// $TRACESPEC_AUDIT_KEY, $XDG_CONFIG_HOME nor $HOME is set.
std::string DefaultAuditKeyPath();

// What signed records sign: "tracespec-audit-v1\n" + the record's hash.
std::string AuditSignedMessage(absl::string_view record_hash);

// A public key, for verification.
class AuditPublicKey {
 public:
  // Reads a PEM public key, or the public half of a PEM private key. Errors
  // name the file (unreadable, not PEM, not Ed25519).
  static absl::StatusOr<AuditPublicKey> Load(const std::string& path);
  // From the 32 raw key bytes.
  static absl::StatusOr<AuditPublicKey> FromRaw(absl::string_view raw, const std::string& origin);

  // SHA-256 (hex) of the raw key: what records name in signing_key_id.
  const std::string& id() const { return id_; }
  // Where the key came from (for messages).
  const std::string& origin() const { return origin_; }
  // Whether `signature_hex` is this key's signature of `message`.
  bool Verify(absl::string_view message, absl::string_view signature_hex) const;

 private:
  std::string raw_;
  std::string id_;
  std::string origin_;
};

class AuditSigner {
 public:
  // Loads the private key at `path`, creating it when the file does not
  // exist. Refuses (FailedPrecondition naming the file) a key file that
  // others may read, and (InvalidArgument) one that is not an Ed25519 PEM
  // private key.
  static absl::StatusOr<std::shared_ptr<const AuditSigner>> LoadOrCreate(const std::string& path);

  // Hex Ed25519 signature of `message`.
  std::string Sign(absl::string_view message) const;
  const AuditPublicKey& public_key() const { return public_key_; }
  // SubjectPublicKeyInfo PEM of the public key.
  std::string PublicKeyPem() const;
  const std::string& path() const { return path_; }

 private:
  AuditSigner() = default;
  std::string seed_;  // the 32-byte private key
  AuditPublicKey public_key_;
  std::string path_;
};

}  // namespace tracespec::gateway

#endif  // TRACESPEC_AGENT_GATEWAY_AUDIT_KEY_H_

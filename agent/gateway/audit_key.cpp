// The audit log's signing key; see audit_key.h.
#include "agent/gateway/audit_key.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/files.h"
#include "common/hash.h"
#include "common/status.h"

namespace tracespec::gateway {
namespace {

constexpr size_t kKeyBytes = 32;
constexpr size_t kSignatureBytes = 64;

struct PkeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
using Bio = std::unique_ptr<BIO, BioFree>;

// Never prompts for a passphrase: an encrypted key is an error.
int NoPassphrase(char*, int, int, void*) { return -1; }

std::string RawPublic(EVP_PKEY* key) {
  std::string raw(kKeyBytes, '\0');
  size_t size = raw.size();
  if (EVP_PKEY_get_raw_public_key(key, reinterpret_cast<unsigned char*>(raw.data()), &size) != 1 ||
      size != kKeyBytes) {
    return "";
  }
  return raw;
}

std::string RawPrivate(EVP_PKEY* key) {
  std::string raw(kKeyBytes, '\0');
  size_t size = raw.size();
  if (EVP_PKEY_get_raw_private_key(key, reinterpret_cast<unsigned char*>(raw.data()), &size) !=
          1 ||
      size != kKeyBytes) {
    return "";
  }
  return raw;
}

std::string BioText(BIO* bio) {
  char* data = nullptr;
  long size = BIO_get_mem_data(bio, &data);
  return size > 0 ? std::string(data, static_cast<size_t>(size)) : std::string();
}

absl::Status NotEd25519(const std::string& path, absl::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat(path, ": not an Ed25519 ", what, " in PEM form"));
}

// Creates the private key file at `path` (0600; its directory 0700 when
// created here) unless another process did so first.
absl::Status CreateKeyFile(const std::string& path) {
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty() && !IsDirectory(parent.string())) {
    std::error_code ec;
    std::filesystem::create_directories(parent, ec);
    if (ec) {
      return absl::FailedPreconditionError(
          absl::StrCat(parent.string(), ": cannot create the audit key's directory: ",
                       ec.message()));
    }
    ::chmod(parent.c_str(), 0700);
  }
  EVP_PKEY* generated = nullptr;
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nullptr);
  bool ok = ctx != nullptr && EVP_PKEY_keygen_init(ctx) == 1 && EVP_PKEY_keygen(ctx, &generated) == 1;
  EVP_PKEY_CTX_free(ctx);
  Pkey key(generated);
  if (!ok) return absl::InternalError("cannot generate an Ed25519 key (OpenSSL)");
  Bio bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_PrivateKey(bio.get(), key.get(), nullptr, nullptr, 0, nullptr,
                                       nullptr) != 1) {
    return absl::InternalError("cannot encode the audit key (OpenSSL)");
  }
  std::string pem = BioText(bio.get());

  std::string temp = absl::StrCat(path, ".tmp.", ::getpid());
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    return absl::FailedPreconditionError(
        absl::StrCat(path, ": cannot create the audit key: ", std::strerror(errno)));
  }
  bool written = ::write(fd, pem.data(), pem.size()) == static_cast<ssize_t>(pem.size()) &&
                 ::fsync(fd) == 0;
  ::close(fd);
  // link() fails when the key exists: a concurrent first run made it.
  bool linked = written && (::link(temp.c_str(), path.c_str()) == 0 || errno == EEXIST);
  int link_errno = errno;
  ::unlink(temp.c_str());
  if (!linked) {
    return absl::FailedPreconditionError(
        absl::StrCat(path, ": cannot create the audit key: ", std::strerror(link_errno)));
  }
  return absl::OkStatus();
}

}  // namespace

std::string DefaultAuditKeyPath() {
  const char* explicit_path = std::getenv("TRACESPEC_AUDIT_KEY");
  if (explicit_path != nullptr && *explicit_path != '\0') return explicit_path;
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg != nullptr && *xdg != '\0') return absl::StrCat(xdg, "/tracespec/audit-key.pem");
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0') return absl::StrCat(home, "/.config/tracespec/audit-key.pem");
  return "";
}

std::string AuditSignedMessage(absl::string_view record_hash) {
  return absl::StrCat("tracespec-audit-v1\n", record_hash);
}

absl::StatusOr<AuditPublicKey> AuditPublicKey::FromRaw(absl::string_view raw,
                                                      const std::string& origin) {
  if (raw.size() != kKeyBytes) return NotEd25519(origin, "public key");
  AuditPublicKey key;
  key.raw_ = std::string(raw);
  key.id_ = Sha256Hex(raw);
  key.origin_ = origin;
  return key;
}

absl::StatusOr<AuditPublicKey> AuditPublicKey::Load(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": cannot read the public key: ", text.status().message()));
  }
  Bio bio(BIO_new_mem_buf(text->data(), static_cast<int>(text->size())));
  Pkey key(PEM_read_bio_PUBKEY(bio.get(), nullptr, NoPassphrase, nullptr));
  if (!key) {
    Bio again(BIO_new_mem_buf(text->data(), static_cast<int>(text->size())));
    key.reset(PEM_read_bio_PrivateKey(again.get(), nullptr, NoPassphrase, nullptr));
  }
  if (!key || EVP_PKEY_get_id(key.get()) != EVP_PKEY_ED25519) {
    return NotEd25519(path, "public key");
  }
  return FromRaw(RawPublic(key.get()), path);
}

bool AuditPublicKey::Verify(absl::string_view message, absl::string_view signature_hex) const {
  if (signature_hex.size() != 2 * kSignatureBytes) return false;
  for (char c : signature_hex) {
    if (!absl::ascii_isxdigit(static_cast<unsigned char>(c))) return false;
  }
  std::string signature = absl::HexStringToBytes(signature_hex);
  Pkey key(EVP_PKEY_new_raw_public_key(
      EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(raw_.data()), raw_.size()));
  if (!key) return false;
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bool ok = ctx != nullptr &&
            EVP_DigestVerifyInit(ctx, nullptr, nullptr, nullptr, key.get()) == 1 &&
            EVP_DigestVerify(ctx, reinterpret_cast<const unsigned char*>(signature.data()),
                             signature.size(),
                             reinterpret_cast<const unsigned char*>(message.data()),
                             message.size()) == 1;
  EVP_MD_CTX_free(ctx);
  return ok;
}

absl::StatusOr<std::shared_ptr<const AuditSigner>> AuditSigner::LoadOrCreate(
    const std::string& path) {
  if (path.empty()) {
    return absl::InvalidArgumentError(
        "no audit key path: set TRACESPEC_AUDIT_KEY, XDG_CONFIG_HOME or HOME, or pass "
        "--audit-key FILE");
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) {
      return absl::FailedPreconditionError(
          absl::StrCat(path, ": cannot read the audit key: ", std::strerror(errno)));
    }
    TS_RETURN_IF_ERROR(CreateKeyFile(path));
    if (::stat(path.c_str(), &st) != 0) {
      return absl::FailedPreconditionError(
          absl::StrCat(path, ": cannot read the audit key: ", std::strerror(errno)));
    }
  }
  if (!S_ISREG(st.st_mode)) {
    return absl::FailedPreconditionError(absl::StrCat(path, ": the audit key is not a file"));
  }
  if ((st.st_mode & 077) != 0) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "%s: the audit key may be read by others (mode %04o): chmod 600 %s", path,
        st.st_mode & 07777, path));
  }
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat(path, ": cannot read the audit key: ", text.status().message()));
  }
  Bio bio(BIO_new_mem_buf(text->data(), static_cast<int>(text->size())));
  Pkey key(PEM_read_bio_PrivateKey(bio.get(), nullptr, NoPassphrase, nullptr));
  if (!key || EVP_PKEY_get_id(key.get()) != EVP_PKEY_ED25519) return NotEd25519(path, "private key");
  std::shared_ptr<AuditSigner> signer(new AuditSigner());
  signer->seed_ = RawPrivate(key.get());
  signer->path_ = path;
  TS_ASSIGN_OR_RETURN(signer->public_key_, AuditPublicKey::FromRaw(RawPublic(key.get()), path));
  if (signer->seed_.empty()) return NotEd25519(path, "private key");
  std::string pub_path = path + ".pub";
  if (!FileExists(pub_path)) {
    // For whoever verifies; losing it is harmless (`audit public-key`).
    (void)WriteFileAtomic(pub_path, signer->PublicKeyPem(), FileReaders::kEveryone);
  }
  return std::shared_ptr<const AuditSigner>(std::move(signer));
}

std::string AuditSigner::Sign(absl::string_view message) const {
  Pkey key(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr,
                                        reinterpret_cast<const unsigned char*>(seed_.data()),
                                        seed_.size()));
  std::string signature(kSignatureBytes, '\0');
  size_t size = signature.size();
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bool ok = key && ctx != nullptr &&
            EVP_DigestSignInit(ctx, nullptr, nullptr, nullptr, key.get()) == 1 &&
            EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(signature.data()), &size,
                           reinterpret_cast<const unsigned char*>(message.data()),
                           message.size()) == 1;
  EVP_MD_CTX_free(ctx);
  // Signing with a loaded Ed25519 key cannot fail short of memory
  // exhaustion; an empty signature then fails verification loudly.
  return ok ? HexEncode(signature) : std::string();
}

std::string AuditSigner::PublicKeyPem() const {
  Pkey key(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr,
                                        reinterpret_cast<const unsigned char*>(seed_.data()),
                                        seed_.size()));
  Bio bio(BIO_new(BIO_s_mem()));
  if (!key || !bio || PEM_write_bio_PUBKEY(bio.get(), key.get()) != 1) return "";
  return BioText(bio.get());
}

}  // namespace tracespec::gateway

// Cryptographic digests; see hash.h.
#include "common/hash.h"

#include <openssl/evp.h>

namespace tracespec {

Sha256Digest Sha256(absl::string_view data) {
  Sha256Digest out{};
  unsigned int length = 0;
  EVP_Digest(data.data(), data.size(), out.data(), &length, EVP_sha256(), nullptr);
  return out;
}

std::string HexEncode(absl::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xF]);
  }
  return out;
}

std::string Sha256Hex(absl::string_view data) {
  Sha256Digest digest = Sha256(data);
  return HexEncode(absl::string_view(reinterpret_cast<const char*>(digest.data()),
                                    digest.size()));
}

}  // namespace tracespec

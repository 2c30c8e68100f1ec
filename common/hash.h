// Cryptographic digests (OpenSSL): payload digests and the audit hash chain.
#ifndef TRACESPEC_COMMON_HASH_H_
#define TRACESPEC_COMMON_HASH_H_

#include <array>
#include <cstdint>
#include <string>
#include "absl/strings/string_view.h"

namespace tracespec {

using Sha256Digest = std::array<uint8_t, 32>;

Sha256Digest Sha256(absl::string_view data);

// Lower-case hexadecimal SHA-256 of `data` (64 characters).
std::string Sha256Hex(absl::string_view data);

std::string HexEncode(absl::string_view bytes);

}  // namespace tracespec

#endif  // TRACESPEC_COMMON_HASH_H_

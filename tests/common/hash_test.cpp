// Tests for common/hash.h against published SHA-256 test vectors.
#include "common/hash.h"

#include "gtest/gtest.h"

namespace tracespec {
namespace {

TEST(HashTest, Sha256KnownVectors) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(HashTest, HexEncode) { EXPECT_EQ(HexEncode(std::string("\x00\xff\x10", 3)), "00ff10"); }

}  // namespace
}  // namespace tracespec

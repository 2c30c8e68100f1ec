// Tests for agent/gateway/audit_key.h: the key is created once, private to
// its owner, signatures verify only with its own public key, and bad key
// files are refused with their name.
#include "agent/gateway/audit_key.h"

#include <sys/stat.h>

#include <cstdlib>

#include "common/files.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::gateway {
namespace {

int Mode(const std::string& path) {
  struct stat st;
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

TEST(AuditKeyTest, CreatedOnFirstUsePrivateAndReused) {
  testing::TempDir dir;
  std::string path = dir.path() + "/config/tracespec/audit-key.pem";
  auto first = AuditSigner::LoadOrCreate(path);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(Mode(path), 0600);
  EXPECT_EQ(Mode(dir.path() + "/config/tracespec"), 0700);
  auto again = AuditSigner::LoadOrCreate(path);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*first)->public_key().id(), (*again)->public_key().id());
  EXPECT_EQ((*first)->public_key().id().size(), 64u);

  // The public key beside it, and what `audit public-key` prints, verify.
  auto pub = AuditPublicKey::Load(path + ".pub");
  ASSERT_TRUE(pub.ok()) << pub.status();
  EXPECT_EQ(pub->id(), (*first)->public_key().id());
  std::string message = AuditSignedMessage(std::string(64, 'a'));
  std::string signature = (*first)->Sign(message);
  EXPECT_EQ(signature.size(), 128u);
  EXPECT_TRUE(pub->Verify(message, signature));
  EXPECT_FALSE(pub->Verify(AuditSignedMessage(std::string(64, 'b')), signature));
  std::string flipped = signature;
  flipped[10] = flipped[10] == '0' ? '1' : '0';
  EXPECT_FALSE(pub->Verify(message, flipped));
  EXPECT_FALSE(pub->Verify(message, "zz"));

  auto other = AuditSigner::LoadOrCreate(dir.path() + "/other.pem");
  ASSERT_TRUE(other.ok());
  EXPECT_NE((*other)->public_key().id(), pub->id());
  EXPECT_FALSE(pub->Verify(message, (*other)->Sign(message)));
}

TEST(AuditKeyTest, DefaultPathFollowsTheEnvironment) {
  const char* saved_key = std::getenv("TRACESPEC_AUDIT_KEY");
  const char* saved_xdg = std::getenv("XDG_CONFIG_HOME");
  std::string key = saved_key ? saved_key : "", xdg = saved_xdg ? saved_xdg : "";
  ::unsetenv("TRACESPEC_AUDIT_KEY");
  ::setenv("XDG_CONFIG_HOME", "/x/conf", 1);
  EXPECT_EQ(DefaultAuditKeyPath(), "/x/conf/tracespec/audit-key.pem");
  ::setenv("TRACESPEC_AUDIT_KEY", "/k/key.pem", 1);
  EXPECT_EQ(DefaultAuditKeyPath(), "/k/key.pem");
  ::unsetenv("TRACESPEC_AUDIT_KEY");
  ::unsetenv("XDG_CONFIG_HOME");
  ::setenv("HOME", std::getenv("HOME") ? std::getenv("HOME") : "/h", 1);
  EXPECT_EQ(DefaultAuditKeyPath(),
            std::string(std::getenv("HOME")) + "/.config/tracespec/audit-key.pem");
  if (saved_key) ::setenv("TRACESPEC_AUDIT_KEY", key.c_str(), 1);
  if (saved_xdg) ::setenv("XDG_CONFIG_HOME", xdg.c_str(), 1);
}

TEST(AuditKeyTest, BadKeyFilesAreRefusedByName) {
  testing::TempDir dir;
  std::string garbage = dir.Write("garbage.pem", "not a key\n");
  ::chmod(garbage.c_str(), 0600);
  auto bad = AuditSigner::LoadOrCreate(garbage);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("garbage.pem: not an Ed25519 private key"),
            absl::string_view::npos)
      << bad.status();

  std::string path = dir.path() + "/k.pem";
  ASSERT_TRUE(AuditSigner::LoadOrCreate(path).ok());
  ::chmod(path.c_str(), 0644);
  auto open = AuditSigner::LoadOrCreate(path);
  ASSERT_FALSE(open.ok());
  EXPECT_NE(open.status().message().find("may be read by others (mode 0644)"),
            absl::string_view::npos)
      << open.status();

  auto missing = AuditPublicKey::Load(dir.path() + "/nope.pub");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("nope.pub: cannot read the public key"),
            absl::string_view::npos);
  auto not_key = AuditPublicKey::Load(garbage);
  ASSERT_FALSE(not_key.ok());
  EXPECT_NE(not_key.status().message().find("garbage.pem: not an Ed25519 public key"),
            absl::string_view::npos);
}

}  // namespace
}  // namespace tracespec::gateway

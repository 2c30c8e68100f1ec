// Tests for agent/gateway/fingerprint.h: copied implementation text is
// found, shared boilerplate and declarations are not, and the documented
// guarantee holds.
#include "agent/gateway/fingerprint.h"

#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"

namespace tracespec::gateway {
namespace {

constexpr char kLicense[] = R"(/*
 * Copyright 2024 Example Corp. All rights reserved. Licensed under the
 * Example Source License, version 2. You may not use this file except in
 * compliance with the License. See the LICENSE file for the full terms.
 */
package com.example.bank;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
)";

constexpr char kImplementationBody[] = R"(
public class Account {
  private int balance;
  private final List<Integer> history = new ArrayList<>();

  public int deposit(int amount) {
    if (amount <= 0) throw new IllegalArgumentException("amount must be positive: " + amount);
    int updated = Math.addExact(balance, amount);
    history.add(amount);
    balance = updated;
    return balance;
  }
}
)";

ImplementationFingerprints Fingerprints() {
  ImplementationFingerprints f;
  f.AddSource("src/main/java/com/example/bank/Account.java",
              std::string(kLicense) + kImplementationBody);
  return f;
}

TEST(FingerprintTest, FindsCopiedCodeDespiteReformatting) {
  ImplementationFingerprints f = Fingerprints();
  ASSERT_FALSE(f.empty());
  std::string payload =
      "Here is the method:\\n  if (amount<=0) throw new IllegalArgumentException(\"amount must "
      "be positive: \"+amount);\n      int updated=Math.addExact(balance,amount); "
      "history.add(amount);\nbalance = updated; return balance; and more words";
  auto copied = f.FindCopiedText(payload);
  ASSERT_TRUE(copied.has_value());
  EXPECT_EQ(copied->source, "src/main/java/com/example/bank/Account.java");
  EXPECT_GE(copied->tokens, 24);
  // The span lies within the copied part.
  EXPECT_GE(copied->begin, payload.find("if (amount"));
  EXPECT_LE(copied->end, payload.find(" and more words"));
}

TEST(FingerprintTest, IgnoresLicenseImportsAndDeclarations) {
  ImplementationFingerprints f = Fingerprints();
  // A test file shares the license header, the package and the imports, and
  // the prompt states the declaration.
  std::string test_file = std::string(kLicense) + R"(
import org.junit.jupiter.api.Test;
class AccountTest {
  @Test void deposits() {
    Account account = new Account();
    assertEquals(5, account.deposit(5));
  }
}
)";
  EXPECT_FALSE(f.FindCopiedText(test_file).has_value());
  EXPECT_FALSE(f.FindCopiedText("public int deposit(int amount) throws IllegalArgumentException")
                   .has_value());
}

// The documented guarantee: any copied run of min_matched_tokens +
// 2 * (window - 1) tokens is found, wherever it starts.
TEST(FingerprintTest, CopiedRunsOfTheGuaranteedLengthAreAlwaysFound) {
  std::mt19937 random(7);
  std::vector<std::string> words;
  // Numbers, not names: every identifier is the same token.
  for (int i = 0; i < 400; ++i) words.push_back(absl::StrCat(random() % 1000));
  ImplementationFingerprints f;
  f.AddSource("Impl.java", absl::StrJoin(words, " + "));
  int guaranteed = f.options().min_matched_tokens + 2 * (f.options().window - 1);
  for (int start = 0; start + 40 < 799; start += 7) {
    // Tokens alternate word, '+'; take `guaranteed` tokens from `start`.
    std::vector<std::string> tokens;
    for (int t = start; t < start + guaranteed; ++t)
      tokens.push_back(t % 2 == 0 ? words[t / 2] : "+");
    std::string payload = "unrelated lead-in text ; " + absl::StrJoin(tokens, " ") + " ; tail";
    EXPECT_TRUE(f.FindCopiedText(payload).has_value()) << "start " << start;
  }
  // A run shorter than min_matched_tokens is never reported.
  std::vector<std::string> short_run;
  for (int t = 0; t < f.options().min_matched_tokens - 1; ++t) {
    short_run.push_back(t % 2 == 0 ? words[t / 2] : "+");
  }
  EXPECT_FALSE(f.FindCopiedText(absl::StrJoin(short_run, " ")).has_value());
}

TEST(FingerprintTest, CommentsInsideLiteralsDoNotHideCode) {
  ImplementationFingerprints f;
  f.AddSource("Url.java", R"(String url = "http://example.org/path"; int a = 1; int b = a + 2;
    int c = b * 3; int d = c - 4; int e = d / 5; return a + b + c + d + e;)");
  EXPECT_TRUE(f.FindCopiedText("int a = 1; int b = a + 2; int c = b * 3; int d = c - 4; "
                               "int e = d / 5; return a + b + c + d + e;")
                  .has_value());
}

// The disguises of issue 11: renamed locals and fields (by hand or by
// --anonymize), `/**/` between statements, and the code inside a comment.
TEST(FingerprintTest, FindsCopiesWithRenamedNamesInsertedCommentsOrInsideAComment) {
  ImplementationFingerprints f = Fingerprints();
  const std::string renamed =
      "if (amt <= 0) throw new IllegalArgumentException(\"amount must be positive: \" + amt);\n"
      "int next = Math.addExact(field_A7, amt); field_B2.add(amt); field_A7 = next;\n"
      "return field_A7;";
  EXPECT_TRUE(f.FindCopiedText(renamed).has_value());
  const std::string spliced =
      "if (amount <= 0) /**/ throw new IllegalArgumentException(\"amount must be positive: \" "
      "+ amount); /* step */ int updated = Math.addExact(balance, amount); /**/ "
      "history.add(amount); /**/ balance = updated; /**/ return balance;";
  EXPECT_TRUE(f.FindCopiedText(spliced).has_value());
  const std::string commented =
      "@Test void deposits() {\n  // if (amount <= 0) throw new IllegalArgumentException(\"amount "
      "must be positive: \" + amount);\n  // int updated = Math.addExact(balance, amount);\n  // "
      "history.add(amount); balance = updated; return balance;\n}";
  EXPECT_TRUE(f.FindCopiedText(commented).has_value());
}

// A test that uses the class as tests do shares no run of the body, however
// many calls it makes.
TEST(FingerprintTest, OrdinaryTestCodeIsNotACopy) {
  ImplementationFingerprints f = Fingerprints();
  std::string test = R"(class AccountTest {
  @Test void depositsAddUp() {
    Account account = new Account();
    assertEquals(5, account.deposit(5));
    assertEquals(12, account.deposit(7));
    assertThrows(IllegalArgumentException.class, () -> account.deposit(0));
    assertThrows(IllegalArgumentException.class, () -> account.deposit(-3));
    assertEquals(List.of(5, 7), account.history());
  }
})";
  EXPECT_FALSE(f.FindCopiedText(test).has_value());
}

TEST(FingerprintTest, ReadsSourceTrees) {
  ImplementationFingerprints f;
  EXPECT_FALSE(f.AddSourceTree("/nonexistent/tracespec/sources").ok());
}

}  // namespace
}  // namespace tracespec::gateway

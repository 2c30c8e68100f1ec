// Tests for agent/prompt/anonymizer.h: names disappear consistently and come
// back in answers.
#include "agent/prompt/anonymizer.h"

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "tests/agent/observation_builders.h"

namespace tracespec::prompt {
namespace {

constexpr char kTest[] = R"(package com.acme.bank;

import com.acme.bank.Account;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

class AccountTest {
  // C1 is already an identifier here; neutral names must avoid it.
  int C1 = 0;

  @Test
  void depositAddsAmount() {
    Account account = new Account("ann", 10);
    assertEquals(15, account.deposit(5));
    assertEquals(15, account.balance);
    assertEquals("Account[balance=15]", account.toString());
  }
}
)";

struct Fixture {
  MethodSignature signature;
  std::vector<TestSource> tests;
  std::vector<v1::Observation> observations;
};

Fixture MakeFixture() {
  Fixture f;
  f.signature =
      *SignatureFromDescriptor("com.acme.bank.Account", "deposit", "(I)I", false, {"amount"});
  f.signature.exceptions = {"com.acme.bank.Account$Frozen", "java.lang.IllegalStateException"};
  f.tests = {{"com.acme.bank.AccountTest#depositAddsAmount", kTest}};
  v1::Observation o = testing::Deposit("com.acme.bank.AccountTest#depositAddsAmount", 5, 10, 15);
  o.mutable_method()->set_class_name("com.acme.bank.Account");
  for (auto* graph : {o.mutable_pre(), o.mutable_post()}) {
    for (v1::ObjectState& state : *graph) state.set_class_name("com.acme.bank.Account");
    (*graph)[0].mutable_fields(1)->mutable_value()->set_string_value("Account of ann");
  }
  f.observations = {o};
  return f;
}

TEST(AnonymizerTest, HidesEveryNameOfTheCode) {
  Fixture f = MakeFixture();
  Anonymizer a = Anonymizer::Create(f.signature, f.tests, f.observations);
  std::string everything = RenderDeclaration(a.Anonymize(f.signature)) + "\n" +
                           a.Anonymize(f.signature).class_name + "\n" + a.Anonymize(f.tests[0]).id +
                           "\n" + a.Anonymize(f.tests[0]).text + "\n" +
                           a.Anonymize(f.observations[0]).DebugString();
  for (const char* name : {"Account", "deposit", "amount", "balance", "owner", "pin", "acme",
                           "bank", "AccountTest", "depositAddsAmount", "Frozen"}) {
    EXPECT_FALSE(absl::StrContains(everything, name)) << name << " leaked in:\n" << everything;
  }
  // Library names stay.
  EXPECT_TRUE(absl::StrContains(everything, "org.junit.jupiter.api.Test"));
  EXPECT_TRUE(absl::StrContains(everything, "IllegalStateException"));
  EXPECT_TRUE(absl::StrContains(everything, "toString"));
  // Consistent and collision-free: the test's own "C1" keeps its meaning.
  MethodSignature s = a.Anonymize(f.signature);
  EXPECT_EQ(s.class_name, "pkg1.C2");
  EXPECT_EQ(s.method_name, "m1");
  EXPECT_EQ(s.params[0].name, "a1");
  EXPECT_EQ(s.exceptions[0], "pkg1.C2$C3");
  std::string test = a.Anonymize(f.tests[0]).text;
  EXPECT_TRUE(absl::StrContains(test, "int C1 = 0;"));
  EXPECT_TRUE(absl::StrContains(test, "import pkg1.C2;"));
  EXPECT_TRUE(absl::StrContains(test, "class T1 {"));
  EXPECT_TRUE(absl::StrContains(test, "void t1()"));
  // The local `account` is made of the hidden word "account" (class
  // Account -> C2): it is hidden too.
  EXPECT_TRUE(absl::StrContains(test, "C2 c2 = new C2(\"ann\", 10);")) << test;
  EXPECT_TRUE(absl::StrContains(test, "c2.m1(5)"));
  EXPECT_TRUE(absl::StrContains(test, "\"C2[f1=15]\""));
  EXPECT_EQ(a.Anonymize(f.tests[0]).id, "pkg1.T1#t1");
  v1::Observation o = a.Anonymize(f.observations[0]);
  EXPECT_EQ(o.test_id(), "pkg1.T1#t1");
  EXPECT_EQ(o.pre(0).class_name(), "pkg1.C2");
  EXPECT_EQ(o.pre(0).fields(0).name(), "f1");
  EXPECT_EQ(o.pre(0).fields(1).value().string_value(), "C2 of ann");
  EXPECT_EQ(o.method().param_names(0), "a1");
}

TEST(AnonymizerTest, AnswersAreMappedBack) {
  Fixture f = MakeFixture();
  Anonymizer a = Anonymizer::Create(f.signature, f.tests, f.observations);
  EXPECT_EQ(a.Deanonymize("//@ requires a1 > 0;\n//@ ensures this.f1 == \\old(this.f1) + a1;\n"
                          "//@ signals (pkg1.C2$C3 e) true;"),
            "//@ requires amount > 0;\n//@ ensures this.balance == \\old(this.balance) + amount;\n"
            "//@ signals (com.acme.bank.Account$Frozen e) true;");
}

TEST(AnonymizerTest, RoundTripsAnyText) {
  Fixture f = MakeFixture();
  Anonymizer a = Anonymizer::Create(f.signature, f.tests, f.observations);
  EXPECT_EQ(a.Deanonymize(a.AnonymizeText(kTest)), kTest);
  // And through the saved map.
  Anonymizer restored = Anonymizer::FromMap(a.ToProto());
  EXPECT_EQ(restored.AnonymizeText(kTest), a.AnonymizeText(kTest));
  EXPECT_EQ(restored.Deanonymize(a.AnonymizeText(kTest)), kTest);
}

TEST(AnonymizerTest, WordsOfHiddenNamesAreHiddenInsideOtherIdentifiersStringsAndPaths) {
  MethodSignature signature =
      *SignatureFromDescriptor("acme.Ledger", "credit", "(J)V", false, {"cents"});
  std::string text =
      "class LedgerTest {\n"
      "  Ledger myLedger = new Ledger();\n"
      "  long ledgerCents = 5;\n"
      "  static final long MAX_LEDGER_CENTS = 9;\n"
      "  String where = \"acmeLedger.credit failed in acme/Ledger.java\";\n"
      "  void t() { myLedger.credit(ledgerCents); list.add(1); map.get(\"k\"); }\n"
      "}\n";
  std::vector<TestSource> tests = {{"acme.LedgerTest#t", text}};
  Anonymizer a = Anonymizer::Create(signature, tests, {});
  std::string out = a.AnonymizeText(text);
  for (const char* word : {"Ledger", "ledger", "LEDGER", "acme", "credit", "cents", "Cents"}) {
    EXPECT_FALSE(absl::StrContains(out, word)) << word << " leaked in:\n" << out;
  }
  // The word takes the neutral name of the hidden name it is (Ledger -> C1)
  // in the case of the place it is found.
  EXPECT_TRUE(absl::StrContains(out, "C1 myC1 = new C1();")) << out;
  EXPECT_TRUE(absl::StrContains(out, "long c1A1 = 5;")) << out;
  EXPECT_TRUE(absl::StrContains(out, "MAX_C1_A1")) << out;
  EXPECT_TRUE(absl::StrContains(out, "\"pkg1C1.m1 failed in pkg1/C1.java\"")) << out;
  // Generic words and library calls stay.
  EXPECT_TRUE(absl::StrContains(out, "list.add(1); map.get(\"k\");")) << out;
  // Back again, also through the saved map.
  EXPECT_EQ(a.Deanonymize(out), text);
  EXPECT_EQ(Anonymizer::FromMap(a.ToProto()).Deanonymize(out), text);
  EXPECT_EQ(Anonymizer::FromMap(a.ToProto()).AnonymizeText(text), out);
}

TEST(AnonymizerTest, MapIsSortedAndComplete) {
  Fixture f = MakeFixture();
  v1::AnonymizationMap map = Anonymizer::Create(f.signature, f.tests, f.observations).ToProto();
  ASSERT_GT(map.names_size(), 0);
  EXPECT_EQ(map.names(0).kind(), v1::PACKAGE);
  EXPECT_EQ(map.names(0).original(), "com.acme.bank");
  EXPECT_EQ(map.names(0).neutral(), "pkg1");
  bool has_field = false;
  for (const v1::NameMapping& m : map.names()) {
    if (m.original() == "balance" && m.kind() != v1::WORD) {
      has_field = true;
      EXPECT_EQ(m.kind(), v1::FIELD);
    }
  }
  EXPECT_TRUE(has_field);
}

TEST(AnonymizerTest, DescriptorsAreRenamed) {
  Fixture f = MakeFixture();
  f.signature.jvm_descriptor = "(Lcom/acme/bank/Account;[I)V";
  Anonymizer a = Anonymizer::Create(f.signature, f.tests, f.observations);
  EXPECT_EQ(a.Anonymize(f.signature).jvm_descriptor, "(Lpkg1/C2;[I)V");
}

}  // namespace
}  // namespace tracespec::prompt

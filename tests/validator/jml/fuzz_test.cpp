// Robustness: seeded random byte and token mutations of valid
// specifications and Java sources go through the lexer, parser, printer
// and type checker. Nothing may crash or hang; whatever parses must print
// back to text that parses to the same tree.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "validator/jml/lexer.h"
#include "validator/jml/parser.h"
#include "validator/jml/printer.h"
#include "validator/jml/type_checker.h"

namespace tracespec::jml {
namespace {

const char* const kSpecs[] = {
    "requires x > 0;\nensures \\result == x;",
    "ensures \\result != null && \\result.length >= 1 ==> \\result[0] == celsius + 273.15;",
    "ensures \\result == (\\num_of int i; 0 <= i && i < a.length; a[i] == 0);",
    "ensures \\result == (\\sum int i; 0 <= i && i + 1 < a.length; a[i] * a[i + 1]);",
    "ensures (\\forall int i, j; 0 <= i && i < j && j < a.length; a[i] <= a[j]);",
    "/*@ public normal_behavior\n  @ requires amount > 0;\n  @ assignable balance;\n  @ ensures "
    "balance == "
    "\\old(balance) + amount;\n  @ also\n  @ public exceptional_behavior\n  @ requires amount <= "
    "0;\n  @ "
    "signals_only IllegalArgumentException;\n  @ signals (IllegalArgumentException e) amount <= "
    "0;\n  @*/",
    "behavior requires a != null; {| requires a.length > 0; ensures \\result >= 0; also requires "
    "a.length == 0; "
    "signals (IllegalArgumentException e) true; |}",
    "old int n = a.length; requires n >= 0; ensures \\result == n && (\\max int i; 0 <= i < n; "
    "a[i]) >= 0;",
    "ensures (int) -x + (long) ~y + 0x1F + 0b11 + 017 + 'c' + \"s\\n\".length() > 1e3f ? true : "
    "false;",
    "ensures \\typeof(o) <: \\type(Object) && \\fresh(o) && \\not_modified(a[*], this.*) && "
    "\\nonnullelements(a);",
};

constexpr char kJava[] = R"java(package bank;
import java.util.List;
public class Account {
  private /*@ spec_public @*/ int balance;
  //@ public ghost int count = 0;
  //@ public model int total;
  //@ represents total = balance * 2;
  //@ public invariant balance >= 0;
  /*@ public normal_behavior
    @   requires amount > 0;
    @   assignable balance;
    @   ensures balance == \old(balance) + amount;
    @ also public exceptional_behavior
    @   requires amount <= 0;
    @   signals_only IllegalArgumentException;
    @*/
  public void deposit(int amount) {
    //@ assert amount > 0;
    balance += amount;
    //@ set count = count + 1;
  }
  //@ ensures \result == (\sum int i; 0 <= i && i < a.length; a[i]);
  public static int sum(int[] a) {
    int s = 0;
    //@ loop_invariant 0 <= i && i <= a.length;
    for (int i = 0; i < a.length; i++) s += a[i];
    return s;
  }
  public /*@ pure @*/ int get() { return balance; }
}
)java";

constexpr const char* kTokens[] = {"requires", "ensures",    "also",      "normal_behavior",
                                   "signals",  "(",          ")",         "{|",
                                   "|}",       ";",          ",",         "\\forall",
                                   "\\old",    "\\result",   "[",         "]",
                                   "==>",      "<==",        "..",        "*",
                                   "=",        "-",          "/*@",       "@*/",
                                   "//@",      "\n",         "\"",        "'",
                                   "{",        "}",          "int",       "a",
                                   "0",        "2147483648", "\\nothing", "assignable",
                                   "?",        ":"};

class Mutator {
 public:
  explicit Mutator(uint32_t seed) : rng_(seed) {}
  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  std::string Mutate(const std::string& text) {
    std::string out = text;
    int rounds = 1 + Pick(2);
    for (int r = 0; r < rounds; ++r) out = Pick(2) == 0 ? ByteMutation(out) : TokenMutation(out);
    return out;
  }

 private:
  std::string ByteMutation(std::string s) {
    static const std::string kAlphabet = "(){}[];,.@=<>!~?:+-*/&|^%\\\"' \n\tazAZ09_$\x80\xff";
    if (s.empty()) return std::string(1, kAlphabet[Pick(kAlphabet.size())]);
    size_t at = Pick(s.size());
    switch (Pick(5)) {
      case 0:
        s[at] = kAlphabet[Pick(kAlphabet.size())];
        break;
      case 1:
        s[at] = static_cast<char>(Pick(256));
        break;
      case 2:
        s.erase(at, 1 + Pick(8));
        break;
      case 3:
        s.insert(at, s.substr(Pick(s.size()), 1 + Pick(12)));
        break;
      default:
        s.insert(at, 1, kAlphabet[Pick(kAlphabet.size())]);
        break;
    }
    return s;
  }

  std::string TokenMutation(const std::string& s) {
    std::vector<Token> tokens =
        Lex(std::make_shared<const std::string>("f"), s, {LexMode::kSpecText, {}});
    std::vector<std::string> texts;
    for (const auto& t : tokens) {
      if (t.kind != TokenKind::kEnd && t.kind != TokenKind::kError) texts.push_back(t.text);
    }
    if (texts.empty()) return kTokens[Pick(sizeof(kTokens) / sizeof(kTokens[0]))];
    size_t at = Pick(texts.size());
    switch (Pick(4)) {
      case 0:
        texts.erase(texts.begin() + at);
        break;
      case 1:
        texts.insert(texts.begin() + at, texts[Pick(texts.size())]);
        break;
      case 2:
        std::swap(texts[at], texts[Pick(texts.size())]);
        break;
      default:
        texts.insert(texts.begin() + at, kTokens[Pick(sizeof(kTokens) / sizeof(kTokens[0]))]);
        break;
    }
    std::string out;
    for (const auto& t : texts) absl::StrAppend(&out, t, " ");
    return out;
  }

  std::mt19937 rng_;
};

// Seed and run count; TRACESPEC_FUZZ_SEED / TRACESPEC_FUZZ_SCALE override
// them for longer local campaigns (the defaults keep the test fast).
uint32_t Seed(uint32_t fallback) {
  const char* s = std::getenv("TRACESPEC_FUZZ_SEED");
  return s != nullptr ? static_cast<uint32_t>(std::strtoul(s, nullptr, 10)) : fallback;
}
int Scale() {
  const char* s = std::getenv("TRACESPEC_FUZZ_SCALE");
  return s != nullptr ? std::max(1, std::atoi(s)) : 1;
}

class FuzzTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto unit = ParseJavaSource(kJava, "Account.java");
    ASSERT_TRUE(unit.ok()) << unit.status();
    unit_ = *std::move(unit);
    env_ = std::make_unique<SourceTypeEnvironment>(std::vector<const CompilationUnit*>{unit_.get()},
                                                   &JdkTypeEnvironment());
    TypeDecl* decl = unit_->FindType("bank.Account");
    for (auto& m : decl->methods) {
      auto ctx = MakeMethodContext(*env_, *decl, m);
      ASSERT_TRUE(ctx.ok()) << ctx.status();
      contexts_.push_back(*ctx);
    }
  }

  // Runs everything on a mutated specification text.
  void Exercise(const std::string& text, int* parsed) {
    (void)ParseExpressionText(text);
    auto spec = ParseSpecText(text, "m.jml");
    if (!spec.ok()) return;
    ++*parsed;
    std::string printed = PrintMethodSpec(spec->spec);
    auto again = ParseSpecText(printed, "m.jml");
    ASSERT_TRUE(again.ok()) << "input:\n"
                            << text << "\nprinted:\n"
                            << printed << "\n"
                            << again.status();
    ASSERT_TRUE(SameMethodSpec(spec->spec, again->spec)) << "input:\n"
                                                         << text << "\nprinted:\n"
                                                         << printed;
    for (const auto& ctx : contexts_) {
      MethodSpec copy = CloneMethodSpec(spec->spec);
      (void)TypeChecker(*env_).CheckMethodSpec(copy, ctx);
    }
  }

  std::unique_ptr<CompilationUnit> unit_;
  std::unique_ptr<SourceTypeEnvironment> env_;
  std::vector<MethodContext> contexts_;
};

TEST_F(FuzzTest, MutatedSpecificationsNeverCrash) {
  auto start = std::chrono::steady_clock::now();
  Mutator mutator(Seed(12345));
  int parsed = 0;
  const int kRuns = 20000 * Scale();
  for (int n = 0; n < kRuns; ++n) {
    std::string text = mutator.Mutate(kSpecs[n % (sizeof(kSpecs) / sizeof(kSpecs[0]))]);
    Exercise(text, &parsed);
    if (HasFatalFailure()) return;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("parsed %d of %d mutated specifications in %.2f s\n", parsed, kRuns, seconds);
  // Some mutations must survive parsing, or the round trip was never tested.
  EXPECT_GT(parsed, kRuns / 20);
  EXPECT_LT(seconds, 60.0 * Scale());
}

TEST_F(FuzzTest, MutatedJavaSourcesNeverCrash) {
  auto start = std::chrono::steady_clock::now();
  Mutator mutator(Seed(777));
  int parsed = 0;
  const int kRuns = 1500 * Scale();
  for (int n = 0; n < kRuns; ++n) {
    std::string text = mutator.Mutate(kJava);
    for (bool jml_file : {false, true}) {
      auto unit = jml_file ? ParseJmlFile(text, "A.jml") : ParseJavaSource(text, "A.java");
      if (!unit.ok()) continue;
      ++parsed;
      SourceTypeEnvironment env({unit->get()}, &JdkTypeEnvironment());
      for (auto& decl : (*unit)->types) {
        (void)TypeChecker(env).CheckClassDecl(*decl, env);
        for (auto& m : decl->methods) {
          auto ctx = MakeMethodContext(env, *decl, m);
          if (!ctx.ok()) continue;
          (void)TypeChecker(env).CheckMethodSpec(m.spec, *ctx);
          LocalsAtLine locals = [](int) {
            return std::vector<std::pair<std::string, Type>>{{"i", Type::Int()}};
          };
          (void)TypeChecker(env).CheckBodyAnnotations(m.body_annotations, *ctx, locals);
          std::string printed = PrintMethodSpec(m.spec);
          if (!m.spec.empty()) {
            auto again = ParseSpecText(printed, "p");
            ASSERT_TRUE(again.ok()) << printed << "\n" << again.status();
            ASSERT_TRUE(SameMethodSpec(m.spec, again->spec)) << printed;
          }
        }
      }
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("parsed %d of %d mutated sources in %.2f s\n", parsed, 2 * kRuns, seconds);
  EXPECT_GT(parsed, 100);
  EXPECT_LT(seconds, 60.0 * Scale());
}

TEST_F(FuzzTest, RandomBytesNeverCrash) {
  std::mt19937 rng(Seed(99));
  for (int n = 0; n < 1000 * Scale(); ++n) {
    std::string text(std::uniform_int_distribution<int>(0, 200)(rng), '\0');
    for (char& c : text) c = static_cast<char>(rng());
    (void)ParseExpressionText(text);
    (void)ParseSpecText(text, "r");
    (void)ParseJavaSource(text, "r");
    (void)ParseJmlFile(text, "r");
  }
  SUCCEED();
}

}  // namespace
}  // namespace tracespec::jml

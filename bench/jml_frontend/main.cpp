// Measures the JML front-end on a synthetic Java class with N specified
// methods: scanning the source (lex + declarations + JML parse), building
// the source type environment, type-checking every specification, printing
// every specification canonically and re-parsing the printed text. Prints a
// table; run: build/bench/jml_frontend/bench_jml_frontend [methods...]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "validator/jml/parser.h"
#include "validator/jml/printer.h"
#include "validator/jml/type_checker.h"

namespace {

using namespace tracespec::jml;

// Specifications of the SpecGenBench kind, cycled over the methods.
const char* const kSpecs[] = {
    "  //@ requires a != null;\n"
    "  //@ ensures \\result == (\\num_of int i; 0 <= i && i < a.length; a[i] == x);\n",
    "  //@ requires a != null && a.length > 0;\n"
    "  //@ ensures (\\forall int i; 0 <= i && i < a.length; a[i] <= \\result);\n"
    "  //@ ensures (\\exists int i; 0 <= i && i < a.length; a[i] == \\result);\n",
    "  //@ requires a != null;\n"
    "  //@ ensures \\result == (\\sum int i; 0 <= i && i + 1 < a.length; a[i] * a[i + 1]);\n",
    "  /*@ public normal_behavior\n"
    "    @   requires x > 0;\n"
    "    @   assignable balance;\n"
    "    @   ensures balance == \\old(balance) + x;\n"
    "    @ also\n"
    "    @ public exceptional_behavior\n"
    "    @   requires x <= 0;\n"
    "    @   assignable \\nothing;\n"
    "    @   signals_only IllegalArgumentException;\n"
    "    @   signals (IllegalArgumentException e) x <= 0;\n"
    "    @*/\n",
    "  //@ requires a != null;\n"
    "  //@ ensures \\result <==> (\\forall int i, j; 0 <= i && i < j && j < a.length; a[i] <= "
    "a[j]);\n",
};

std::string MakeSource(int methods) {
  std::string src =
      "package bench;\npublic class Gen {\n  private /*@ spec_public @*/ int balance;\n";
  for (int m = 0; m < methods; ++m) {
    int kind = m % 5;
    src += kSpecs[kind];
    const char* ret = kind == 3 ? "void" : kind == 4 ? "boolean" : "int";
    absl::StrAppend(
        &src, "  public ", ret, " m", m, "(int[] a, int x) {\n    int s = 0;\n",
        "    //@ loop_invariant s >= 0;\n    for (int i = 0; i < a.length; i++) s += a[i];\n",
        kind == 3   ? ""
        : kind == 4 ? "    return true;\n"
                    : "    return s;\n",
        "  }\n");
  }
  return src + "}\n";
}

double Millis(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since)
      .count();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes = {100, 1000, 5000};
  if (argc > 1) {
    sizes.clear();
    for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  }
  std::printf("%-8s %-10s %-12s %-10s %-10s %-12s %-14s\n", "methods", "source KB", "scan ms",
              "env ms", "check ms", "print ms", "reparse ms");
  for (int n : sizes) {
    std::string src = MakeSource(n);
    auto t0 = std::chrono::steady_clock::now();
    auto unit = ParseJavaSource(src, "Gen.java");
    double scan = Millis(t0);
    if (!unit.ok()) {
      std::fprintf(stderr, "scan failed: %s\n", std::string(unit.status().message()).c_str());
      return 1;
    }
    t0 = std::chrono::steady_clock::now();
    SourceTypeEnvironment env({unit->get()}, &JdkTypeEnvironment());
    double build = Millis(t0);
    TypeDecl* decl = (*unit)->FindType("bench.Gen");
    t0 = std::chrono::steady_clock::now();
    int failures = 0;
    for (auto& m : decl->methods) {
      auto ctx = MakeMethodContext(env, *decl, m);
      if (!ctx.ok() || !TypeChecker(env).CheckMethodSpec(m.spec, *ctx).ok()) ++failures;
    }
    double check = Millis(t0);
    t0 = std::chrono::steady_clock::now();
    std::vector<std::string> printed;
    for (const auto& m : decl->methods) printed.push_back(PrintMethodSpec(m.spec));
    double print = Millis(t0);
    t0 = std::chrono::steady_clock::now();
    for (const auto& p : printed) {
      if (!ParseSpecText(p, "p").ok()) ++failures;
    }
    double reparse = Millis(t0);
    std::printf("%-8d %-10.1f %-12.2f %-10.2f %-10.2f %-12.2f %-14.2f\n", n, src.size() / 1024.0,
                scan, build, check, print, reparse);
    if (failures > 0) {
      std::fprintf(stderr, "%d specifications failed\n", failures);
      return 1;
    }
  }
  return 0;
}

#include "tests/testing/observed_bank.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "common/files.h"
#include "gtest/gtest.h"

namespace tracespec::testing {

ObservedBank::ObservedBank(const std::vector<std::string>& methods) {
  const std::string root = SourceDir() + "/examples/bank/";
  std::map<std::string, std::string> main_sources;
  for (const char* name : {"Account", "AuditService", "InsufficientFundsException"}) {
    auto text = ReadFile(absl::StrCat(root, "src/bank/", name, ".java"));
    EXPECT_TRUE(text.ok()) << text.status();
    if (text.ok()) main_sources[absl::StrCat("bank/", name, ".java")] = *text;
  }
  classes_ = CompileJava(main_, main_sources, {"-g"});
  auto test = ReadFile(root + "test/bank/AccountTest.java");
  EXPECT_TRUE(test.ok()) << test.status();
  if (classes_.empty() || !test.ok()) return;
  test_classes_ = CompileJava(tests_, {{"bank/AccountTest.java", *test}}, {"-g"},
                              classes_ + ":" + JunitJar());
  if (test_classes_.empty()) return;
  std::vector<std::string> args = {"observe", "--classpath", classes_ + ":" + test_classes_,
                                   "--tests", "bank.AccountTest"};
  for (const std::string& method : methods) {
    args.push_back("--method");
    args.push_back(method);
  }
  const std::string out = main_.path() + "/observed";
  args.insert(args.end(), {"--tests-src", root + "test", "--out", out});
  SubprocessResult run = RunTracespec(args);
  if (run.exit_code != 0) {
    ADD_FAILURE() << "tracespec observe failed:\n" << run.stdout_data << run.stderr_data;
    return;
  }
  observations_ = out;
}

}  // namespace tracespec::testing

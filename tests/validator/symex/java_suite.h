// Test helper: compiles Java sources against the SV-COMP Verifier class once
// per suite and runs symex::Verify on their classes.
#ifndef TRACESPEC_TESTS_VALIDATOR_SYMEX_JAVA_SUITE_H_
#define TRACESPEC_TESTS_VALIDATOR_SYMEX_JAVA_SUITE_H_

#include <map>
#include <memory>
#include <string>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"
#include "validator/symex/verify.h"

namespace tracespec::symex {

class JavaSuite {
 public:
  explicit JavaSuite(const std::map<std::string, std::string>& sources,
                     std::vector<std::string> javac_args = {"-g"})
      : sources_(sources) {
    classes_ = testing::CompileJava(dir_, sources, javac_args, TRACESPEC_VERIFIER_CLASSES_DIR);
  }

  const std::string& classes() const { return classes_; }
  std::string class_path() const {
    return classes_ + ":" + TRACESPEC_VERIFIER_CLASSES_DIR;
  }
  const testing::TempDir& dir() const { return dir_; }

  VerifyResult Run(const std::string& class_name, Property property = Property::kAssert,
                   const std::string& method = "", int max_unwind = 0, double timeout = 60) {
    VerifyOptions options;
    options.class_path = class_path();
    options.class_name = class_name;
    options.method = method;
    options.property = property;
    options.max_unwind = max_unwind;
    options.timeout_seconds = timeout;
    auto result = Verify(options);
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : VerifyResult{};
  }

  // The line of the first occurrence of `marker` in `file`.
  uint32_t LineOf(const std::string& file, const std::string& marker) const {
    uint32_t line = 1;
    for (absl::string_view l : absl::StrSplit(sources_.at(file), '\n')) {
      if (l.find(marker) != absl::string_view::npos) return line;
      ++line;
    }
    ADD_FAILURE() << "marker " << marker << " not in " << file;
    return 0;
  }

 private:
  testing::TempDir dir_;
  std::map<std::string, std::string> sources_;
  std::string classes_;
};

}  // namespace tracespec::symex

#endif  // TRACESPEC_TESTS_VALIDATOR_SYMEX_JAVA_SUITE_H_

// Flags that several subcommands share (validate, verify, ctl, infer,
// protocol explore), with one spelling and one wording. A help text that
// names a default takes it from the variable the flag sets when the flag is
// added, so help and behaviour cannot drift apart.
#ifndef TRACESPEC_CLI_COMMON_FLAGS_H_
#define TRACESPEC_CLI_COMMON_FLAGS_H_

#include <string>

#include "CLI/CLI.hpp"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace tracespec::cli {

// "TEXT (default VALUE)MORE".
template <typename T>
std::string WithDefault(absl::string_view text, T value, absl::string_view more = "") {
  return absl::StrCat(text, " (default ", value, ")", more);
}

// --classpath,--cp PATHS, required: "WHAT, ':'-separated".
CLI::Option* AddClassPathOption(CLI::App* cmd, std::string* classpath,
                                absl::string_view what = "Directories and jars");

// --unwind K: the (first) loop and recursion bound; MORE follows the default.
CLI::Option* AddUnwindOption(CLI::App* cmd, int* unwind,
                             absl::string_view text = "Loop and recursion bound k",
                             absl::string_view more = "");

// --max-array L: the bound on the length of input arrays.
CLI::Option* AddMaxArrayOption(CLI::App* cmd, int* max_array,
                               absl::string_view text = "Bound L on the length of input arrays");

// --timeout SECONDS.
CLI::Option* AddTimeoutOption(CLI::App* cmd, double* seconds,
                              absl::string_view text = "Time limit in seconds");

// --json: print the result as one JSON document instead of text.
CLI::Option* AddJsonFlag(CLI::App* cmd, bool* json,
                         absl::string_view help = "Print the report as one JSON document");

}  // namespace tracespec::cli

#endif  // TRACESPEC_CLI_COMMON_FLAGS_H_

// The shared flags; see common_flags.h.
#include "cli/common_flags.h"

namespace tracespec::cli {

CLI::Option* AddClassPathOption(CLI::App* cmd, std::string* classpath, absl::string_view what) {
  return cmd->add_option("--classpath,--cp", *classpath, absl::StrCat(what, ", ':'-separated"))
      ->required();
}

CLI::Option* AddUnwindOption(CLI::App* cmd, int* unwind, absl::string_view text,
                             absl::string_view more) {
  return cmd->add_option("--unwind", *unwind, WithDefault(text, *unwind, more));
}

CLI::Option* AddMaxArrayOption(CLI::App* cmd, int* max_array, absl::string_view text) {
  return cmd->add_option("--max-array", *max_array, WithDefault(text, *max_array));
}

CLI::Option* AddTimeoutOption(CLI::App* cmd, double* seconds, absl::string_view text) {
  return cmd->add_option("--timeout", *seconds, WithDefault(text, *seconds));
}

CLI::Option* AddJsonFlag(CLI::App* cmd, bool* json, absl::string_view help) {
  return cmd->add_flag("--json", *json, std::string(help));
}

}  // namespace tracespec::cli

// Flags that several subcommands share (validate, verify, ctl, infer,
// protocol explore), with one spelling and one wording. A help text that
// names a default takes it from the variable the flag sets when the flag is
// added, so help and behaviour cannot drift apart.
#ifndef TRACESPEC_CLI_COMMON_FLAGS_H_
#define TRACESPEC_CLI_COMMON_FLAGS_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/strings/str_cat.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "agent/gateway/gateway.h"
#include "services/common/tls.h"
#include "validator/check/validator.h"

namespace tracespec::cli {

// The ranges the bounds flags accept (the checkers reject others too; the
// flags reject them first, as bad usage).
inline constexpr int kMaxUnwindFlag = 1000000;
inline constexpr int kMaxArrayFlag = 4096;
inline constexpr double kMaxSecondsFlag = 7 * 24 * 3600;

// A flag's check: a number of seconds, positive and at most a week.
CLI::Validator PositiveSeconds();

// "TEXT (default VALUE)MORE".
template <typename T>
std::string WithDefault(absl::string_view text, T value, absl::string_view more = "") {
  return absl::StrCat(text, " (default ", value, ")", more);
}

// --classpath,--cp PATHS, required: "WHAT, ':'-separated".
CLI::Option* AddClassPathOption(CLI::App* cmd, std::string* classpath,
                                absl::string_view what = "Directories and jars");

// --unwind K in 1..kMaxUnwindFlag: the (first) loop and recursion bound;
// MORE follows the default.
CLI::Option* AddUnwindOption(CLI::App* cmd, int* unwind,
                             absl::string_view text = "Loop and recursion bound k",
                             absl::string_view more = "");

// --max-array L in 0..kMaxArrayFlag: the bound on the length of input arrays.
CLI::Option* AddMaxArrayOption(CLI::App* cmd, int* max_array,
                               absl::string_view text = "Bound L on the length of input arrays");

// --timeout SECONDS, checked by PositiveSeconds().
CLI::Option* AddTimeoutOption(CLI::App* cmd, double* seconds,
                              absl::string_view text = "Time limit in seconds");

// --json: print the result as one JSON document instead of text.
CLI::Option* AddJsonFlag(CLI::App* cmd, bool* json,
                         absl::string_view help = "Print the report as one JSON document");

// FLAG-ca, FLAG-cert and FLAG-key of a client's address flag FLAG
// (services::ClientTlsFiles::flag): TLS to the server(s) at FLAG, and mutual
// TLS. `ca_help` says what the CA's certificates must sign and name; `who`
// is who asks for the client's certificate ("servers that require one").
void AddClientTlsOptions(CLI::App* cmd, services::ClientTlsFiles* files,
                         absl::string_view ca_help, absl::string_view who);

// Reads and checks the PEM files of a client's TLS flags
// (services::ReadClientTls): InvalidArgument naming the flag and the file,
// and for a TLS flag given without `address` (the value of files.flag).
absl::StatusOr<std::optional<services::ClientTls>> ReadClientTlsFlags(
    const std::string& address, const services::ClientTlsFiles& files);

// --validators and its TLS flags, as given.
struct ValidatorsFlags {
  std::string validators;                         // "" = check in process
  services::ClientTlsFiles tls{"--validators"};   // --validators-ca, -cert, -key
};

// The pool a command checks on, its PEM files read and checked.
struct ValidatorPool {
  std::string validators;  // "" = in process
  std::optional<services::ClientTls> tls;
};

// --validators ADDR[,ADDR...] | dns:///NAME:PORT: a pool of validator
// services (services/validator/client.h) instead of the in-process checks;
// --validators-ca FILE (TLS), --validators-cert FILE and --validators-key
// FILE (mutual TLS).
void AddValidatorsOptions(CLI::App* cmd, ValidatorsFlags* flags);

// Reads and checks the PEM files (services::ReadClientTls): InvalidArgument
// naming the flag and the file; a TLS flag without --validators too.
absl::StatusOr<ValidatorPool> ReadValidatorsFlags(const ValidatorsFlags& flags);

// The validator a command checks with: in process on `classpath` when
// `pool.validators` is empty, else the pool (UNAVAILABLE naming it when no
// server is ready), with strength measured in process on `classpath` when
// `local_strength`.
absl::StatusOr<std::unique_ptr<check::Validator>> MakeValidator(const std::string& classpath,
                                                                const ValidatorPool& pool,
                                                                bool local_strength);

// For a command that makes its validators later (per method, per worker):
// an unset factory when --validators is not given; else, once the PEM
// files are read and the pool answers now (the error when they are bad or
// it does not, before anything is written), a factory of
// MakeValidator(class_path, pool, /*local_strength=*/true).
absl::StatusOr<check::ValidatorFactory> ValidatorFactoryFor(const ValidatorsFlags& flags);

// --gateway-ca, --gateway-cert, --gateway-key (the address flag, --gateway,
// is the command's own).
void AddGatewayTlsOptions(CLI::App* cmd, services::ClientTlsFiles* files);

// For a command with --gateway ADDR: an unset factory when `gateway` is
// empty (and no TLS flag given); else, once the PEM files are read and the
// gateway answers now (the error when they are bad or it does not, before
// anything is written), services::RemoteGatewayFactory of it.
absl::StatusOr<gateway::GatewayClientFactory> GatewayFactoryFor(
    const std::string& gateway, const services::ClientTlsFiles& tls);

// A path flag to check before any work starts.
enum class PathKind {
  kFile,
  kDirectory,
  kFileOrDirectory,
  kClassPath,  // ':'-separated; every entry a directory or a .jar/.zip file
};
struct PathFlag {
  const char* flag;  // "--tests-src"
  std::string path;  // "" = not given: not checked
  PathKind kind;
};

// Checks that every given path exists and is of its kind. On the first
// problem prints one error naming the flag and the path ("tracespec: error:
// --tests-src lib.jar: is a file, not a directory") and returns
// kExitInputError; else kExitOk.
int CheckPathFlags(const std::vector<PathFlag>& paths);

}  // namespace tracespec::cli

#endif  // TRACESPEC_CLI_COMMON_FLAGS_H_

// The shared flags; see common_flags.h.
#include "cli/common_flags.h"

#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "cli/commands.h"
#include "common/files.h"
#include "services/validator/client.h"

namespace tracespec::cli {

namespace {

// "" when `path` is of `kind`, else what is wrong.
std::string PathProblem(const std::string& path, PathKind kind) {
  if (!FileExists(path)) return "no such file or directory";
  bool directory = IsDirectory(path);
  switch (kind) {
    case PathKind::kFile:
      return directory ? "is a directory, not a file" : "";
    case PathKind::kDirectory:
      return directory ? "" : "is a file, not a directory";
    case PathKind::kFileOrDirectory:
      return "";
    case PathKind::kClassPath:
      if (directory || absl::EndsWith(path, ".jar") || absl::EndsWith(path, ".zip")) return "";
      return "is neither a directory nor a .jar file";
  }
  return "";
}

}  // namespace

int CheckPathFlags(const std::vector<PathFlag>& paths) {
  for (const PathFlag& p : paths) {
    if (p.path.empty()) continue;
    std::vector<std::string> entries = {p.path};
    if (p.kind == PathKind::kClassPath) entries = absl::StrSplit(p.path, ':', absl::SkipEmpty());
    for (const std::string& entry : entries) {
      std::string problem = PathProblem(entry, p.kind);
      if (problem.empty()) continue;
      std::string where = entry == p.path ? "" : absl::StrCat(" (entry of ", p.path, ")");
      std::fprintf(stderr, "tracespec: error: %s %s: %s%s\n", p.flag, entry.c_str(),
                   problem.c_str(), where.c_str());
      return kExitInputError;
    }
  }
  return kExitOk;
}

CLI::Validator PositiveSeconds() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(text, value) || !(value > 0) || value > kMaxSecondsFlag) {
          return absl::StrCat("value ", text, " is not a number of seconds in (0, ",
                              kMaxSecondsFlag, "]");
        }
        return "";
      },
      "SECONDS > 0");
}

CLI::Option* AddClassPathOption(CLI::App* cmd, std::string* classpath, absl::string_view what) {
  return cmd->add_option("--classpath,--cp", *classpath, absl::StrCat(what, ", ':'-separated"))
      ->required();
}

CLI::Option* AddUnwindOption(CLI::App* cmd, int* unwind, absl::string_view text,
                             absl::string_view more) {
  return cmd->add_option("--unwind", *unwind, WithDefault(text, *unwind, more))
      ->check(CLI::Range(1, kMaxUnwindFlag));
}

CLI::Option* AddMaxArrayOption(CLI::App* cmd, int* max_array, absl::string_view text) {
  return cmd->add_option("--max-array", *max_array, WithDefault(text, *max_array))
      ->check(CLI::Range(0, kMaxArrayFlag));
}

CLI::Option* AddTimeoutOption(CLI::App* cmd, double* seconds, absl::string_view text) {
  return cmd->add_option("--timeout", *seconds, WithDefault(text, *seconds))
      ->check(PositiveSeconds());
}

CLI::Option* AddJsonFlag(CLI::App* cmd, bool* json, absl::string_view help) {
  return cmd->add_flag("--json", *json, std::string(help));
}

void AddValidatorsOptions(CLI::App* cmd, ValidatorsFlags* flags) {
  cmd->add_option(
      "--validators", flags->validators,
      "Check on a pool of `tracespec serve validator` servers instead of in process: "
      "ADDR:PORT[,ADDR:PORT...] (numeric addresses) or one gRPC target (dns:///NAME:PORT). "
      "Calls are spread round-robin over the servers that are up and whose health service says "
      "SERVING; a call whose server dies is retried on another. The servers check with their "
      "own --classpath, which must hold the same class files as this one (strength is still "
      "measured here). Plaintext unless --validators-ca is given. No server reachable: exit 4");
  cmd->add_option(
      "--validators-ca", flags->tls.ca,
      "PEM file of the CA certificates the servers' certificates must chain to: the calls go "
      "over TLS, and a server's certificate must also name the host of --validators (the one "
      "host of a numeric list, NAME of dns:///NAME:PORT) among its subject alternative names. "
      "A failed handshake: exit 4");
  cmd->add_option("--validators-cert", flags->tls.cert,
                  "PEM file of this client's certificate (chain, leaf first), presented to "
                  "servers that require one (mutual TLS); needs --validators-ca and "
                  "--validators-key");
  cmd->add_option("--validators-key", flags->tls.key,
                  "PEM file of the private key of --validators-cert (unencrypted)");
}

absl::StatusOr<ValidatorPool> ReadValidatorsFlags(const ValidatorsFlags& flags) {
  if (flags.validators.empty()) {
    for (const auto& [flag, path] : {std::pair<const char*, const std::string&>{
                                         "--validators-ca", flags.tls.ca},
                                     {"--validators-cert", flags.tls.cert},
                                     {"--validators-key", flags.tls.key}}) {
      if (!path.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat(flag, " ", path, " is given without --validators"));
      }
    }
    return ValidatorPool();
  }
  absl::StatusOr<std::optional<services::ClientTls>> tls = services::ReadClientTls(flags.tls);
  if (!tls.ok()) return tls.status();
  return ValidatorPool{flags.validators, *std::move(tls)};
}

absl::StatusOr<std::unique_ptr<check::Validator>> MakeValidator(const std::string& classpath,
                                                                const ValidatorPool& pool,
                                                                bool local_strength) {
  if (pool.validators.empty()) return check::Validator::Create(classpath);
  services::RemoteValidatorOptions options;
  options.validators = pool.validators;
  options.tls = pool.tls;
  if (local_strength) {
    absl::StatusOr<std::unique_ptr<check::Validator>> local = check::Validator::Create(classpath);
    if (!local.ok()) return local.status();
    options.local = *std::move(local);
  }
  return services::ConnectValidators(std::move(options));
}

absl::StatusOr<check::ValidatorFactory> ValidatorFactoryFor(const ValidatorsFlags& flags) {
  absl::StatusOr<ValidatorPool> pool = ReadValidatorsFlags(flags);
  if (!pool.ok()) return pool.status();
  if (pool->validators.empty()) return check::ValidatorFactory();
  absl::StatusOr<std::unique_ptr<check::Validator>> probe =
      MakeValidator(/*classpath=*/"", *pool, /*local_strength=*/false);
  if (!probe.ok()) return probe.status();
  return check::ValidatorFactory([pool = *std::move(pool)](const std::string& class_path) {
    return MakeValidator(class_path, pool, /*local_strength=*/true);
  });
}

}  // namespace tracespec::cli

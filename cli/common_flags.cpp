// The shared flags; see common_flags.h.
#include "cli/common_flags.h"

#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "cli/commands.h"
#include "common/files.h"
#include "services/gateway/client.h"
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
  AddClientTlsOptions(
      cmd, &flags->tls,
      "CA certificates the servers' certificates must chain to: the calls go over TLS, and a "
      "server's certificate must also name the host of --validators (the one host of a "
      "numeric list, NAME of dns:///NAME:PORT) among its subject alternative names",
      "servers that require one");
}

void AddClientTlsOptions(CLI::App* cmd, services::ClientTlsFiles* files,
                         absl::string_view ca_help, absl::string_view who) {
  const std::string& flag = files->flag;
  cmd->add_option(absl::StrCat(flag, "-ca"), files->ca,
                  absl::StrCat("PEM file of the ", ca_help, ". A failed handshake: exit 4"));
  cmd->add_option(absl::StrCat(flag, "-cert"), files->cert,
                  absl::StrCat("PEM file of this client's certificate (chain, leaf first), "
                               "presented to ", who, " (mutual TLS); needs ", flag, "-ca and ",
                               flag, "-key"));
  cmd->add_option(absl::StrCat(flag, "-key"), files->key,
                  absl::StrCat("PEM file of the private key of ", flag, "-cert (unencrypted)"));
}

absl::StatusOr<std::optional<services::ClientTls>> ReadClientTlsFlags(
    const std::string& address, const services::ClientTlsFiles& files) {
  if (address.empty()) {
    for (const auto& [suffix, path] : {std::pair<const char*, const std::string&>{"-ca", files.ca},
                                       {"-cert", files.cert},
                                       {"-key", files.key}}) {
      if (!path.empty()) {
        return absl::InvalidArgumentError(absl::StrCat(files.flag, suffix, " ", path,
                                                       " is given without ", files.flag));
      }
    }
    return std::nullopt;
  }
  return services::ReadClientTls(files);
}

absl::StatusOr<ValidatorPool> ReadValidatorsFlags(const ValidatorsFlags& flags) {
  absl::StatusOr<std::optional<services::ClientTls>> tls =
      ReadClientTlsFlags(flags.validators, flags.tls);
  if (!tls.ok()) return tls.status();
  if (flags.validators.empty()) return ValidatorPool();
  return ValidatorPool{flags.validators, *std::move(tls)};
}

void AddGatewayTlsOptions(CLI::App* cmd, services::ClientTlsFiles* files) {
  AddClientTlsOptions(cmd, files,
                      "CA certificates the gateway's certificate must chain to: the calls go "
                      "over TLS, and the gateway's certificate must also name the host of "
                      "--gateway (a DNS name or an IP address) among its subject alternative "
                      "names",
                      "a gateway that requires one");
}

absl::StatusOr<gateway::GatewayClientFactory> GatewayFactoryFor(
    const std::string& gateway, const services::ClientTlsFiles& tls) {
  absl::StatusOr<std::optional<services::ClientTls>> read = ReadClientTlsFlags(gateway, tls);
  if (!read.ok()) return read.status();
  if (gateway.empty()) return gateway::GatewayClientFactory();
  services::RemoteGatewayOptions remote;
  remote.gateway = gateway;
  remote.tls = *std::move(read);
  if (absl::Status reached = services::ProbeGateway(remote); !reached.ok()) return reached;
  return services::RemoteGatewayFactory(remote);
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

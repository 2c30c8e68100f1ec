// `tracespec serve validator`: flags -> services::ServeValidatorUntilSignal.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "cli/commands.h"
#include "cli/common_flags.h"
#include "services/validator/server.h"
#include "services/validator/tls.h"

namespace tracespec::cli {

void AddServeCommand(CLI::App& app, int* exit_code) {
  CLI::App* serve = app.add_subcommand(
      "serve", "Run a stage of tracespec as a gRPC service (services/README.md)");
  serve->require_subcommand(1);

  auto options = std::make_shared<services::ValidatorServiceOptions>();
  options->workers = std::max(1u, std::thread::hardware_concurrency());
  CLI::App* validator = serve->add_subcommand(
      "validator",
      "Serve the JML checks of `tracespec validate` as tracespec.v1.ValidatorService "
      "(proto/tracespec/v1/validator_service.proto) over gRPC (plaintext, or TLS with "
      "--tls-cert and --tls-key): each call names a "
      "method by its class, name and descriptor and carries the contract, the observations and "
      "the bounds; the classes come from this server's --classpath. Each worker has a validator "
      "of its own; at most WORKERS + QUEUE calls are accepted at a time and one more fails at "
      "once with RESOURCE_EXHAUSTED. A call's deadline caps the check's time limit "
      "(DEADLINE_EXCEEDED when it passes). The standard gRPC health service answers SERVING "
      "once ready. SIGINT or SIGTERM: stop accepting calls, answer those accepted, exit 0 "
      "(a second signal cuts the running checks short). Without --tls-cert the calls are "
      "plaintext and unauthenticated: listen on loopback or a trusted network only");
  validator->add_option("--listen", options->listen,
                        "Address to listen on, host:port (port 0 picks a free one), e.g. "
                        "127.0.0.1:7411 or [::]:7411")
      ->required();
  AddClassPathOption(validator, &options->class_path,
                     "The classes every call is checked against: directories and jars on this "
                     "machine");
  validator->add_option("--workers", options->workers,
                        WithDefault("Calls checked at the same time, one validator each", "the "
                                    "number of cores"))
      ->check(CLI::Range(1, 1024));
  validator->add_option("--queue", options->queue,
                        WithDefault("Calls that may wait while every worker is busy", options->queue))
      ->check(CLI::Range(0, 1 << 20));
  validator->add_option("--max-request-bytes", options->max_request_bytes,
                        WithDefault("Largest call accepted, in bytes; a larger one fails with "
                                    "RESOURCE_EXHAUSTED",
                                    options->max_request_bytes))
      ->check(CLI::Range(int64_t{1024}, int64_t{2147483647}));
  auto tls_files = std::make_shared<services::ServerTlsFiles>();
  validator->add_option("--tls-cert", tls_files->cert,
                        "PEM file of this server's certificate (chain, leaf first): serve TLS "
                        "only (a plaintext client fails its handshake). Clients check that it "
                        "chains to their --validators-ca and names the host they connect to in "
                        "its subject alternative names (DNS name or IP address)");
  validator->add_option("--tls-key", tls_files->key,
                        "PEM file of the private key of --tls-cert (unencrypted)");
  validator->add_option("--tls-client-ca", tls_files->client_ca,
                        "PEM file of CA certificates: mutual TLS, every client must present a "
                        "certificate that chains to one of them (--validators-cert); a client "
                        "without one, or with one from another CA, fails its handshake. Needs "
                        "--tls-cert");
  validator->footer(
      "Output: one line 'tracespec: validator service listening on HOST:PORT (N workers)' on "
      "stdout once it serves, with the port actually bound (', TLS' or ', mutual TLS' after the "
      "workers when so).\n" +
      ExitStatusFooter({{kExitOk, "stopped by SIGINT or SIGTERM after answering every call"},
                        {kExitUsage, "unknown flag, a number out of range"},
                        {kExitInputError,
                         "missing class path entry; a TLS file missing, unreadable or without "
                         "the PEM it should hold, a key that is not the certificate's, a "
                         "certificate without its key"},
                        {kExitEnvironment, "the address cannot be bound"}}));
  validator->callback([options, tls_files, exit_code] {
    *exit_code = CheckPathFlags({{"--classpath", options->class_path, PathKind::kClassPath}});
    if (*exit_code != kExitOk) return;
    absl::StatusOr<std::optional<services::ServerTls>> tls = services::ReadServerTls(*tls_files);
    if (!tls.ok()) {
      *exit_code = ReportError(tls.status());
      return;
    }
    options->tls = *std::move(tls);
    absl::Status served = services::ServeValidatorUntilSignal(
        *options, [security = !options->tls.has_value()               ? ""
                              : options->tls->client_ca_pem.empty() ? ", TLS"
                                                                    : ", mutual TLS"](
                      const services::ValidatorServer& server) {
          std::printf("tracespec: validator service listening on %s (%d workers%s)\n",
                      server.address().c_str(), server.workers(), security);
          std::fflush(stdout);
        });
    *exit_code = served.ok() ? kExitOk : ReportError(served);
  });
}

}  // namespace tracespec::cli

// `tracespec serve validator`: flags -> services::ServeValidatorUntilSignal;
// `tracespec serve gateway`: flags -> services::ServeGatewayUntilSignal.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "cli/commands.h"
#include "cli/common_flags.h"
#include "services/gateway/server.h"
#include "services/validator/server.h"
#include "services/common/tls.h"

namespace tracespec::cli {

namespace {

// --tls-cert, --tls-key, --tls-client-ca of a server whose clients give
// CLIENT_FLAG-ca and CLIENT_FLAG-cert.
void AddServerTlsOptions(CLI::App* cmd, services::ServerTlsFiles* files,
                         const std::string& client_flag) {
  cmd->add_option("--tls-cert", files->cert,
                  absl::StrCat("PEM file of this server's certificate (chain, leaf first): serve "
                               "TLS only (a plaintext client fails its handshake). Clients check "
                               "that it chains to their ",
                               client_flag,
                               "-ca and names the host they connect to in its subject "
                               "alternative names (DNS name or IP address)"));
  cmd->add_option("--tls-key", files->key,
                  "PEM file of the private key of --tls-cert (unencrypted)");
  cmd->add_option("--tls-client-ca", files->client_ca,
                  absl::StrCat("PEM file of CA certificates: mutual TLS, every client must "
                               "present a certificate that chains to one of them (",
                               client_flag,
                               "-cert); a client without one, or with one from another CA, "
                               "fails its handshake. Needs --tls-cert"));
}

// The TLS text of a server's exit codes.
constexpr char kTlsFileErrors[] =
    "a TLS file missing, unreadable or without the PEM it should hold, a key that is not the "
    "certificate's, a certificate without its key";

void AddServeGatewayCommand(CLI::App* serve, int* exit_code) {
  auto options = std::make_shared<services::GatewayServiceOptions>();
  auto timeout_seconds = std::make_shared<double>(120);
  CLI::App* cmd = serve->add_subcommand(
      "gateway",
      "Serve the audited egress gate as tracespec.v1.GatewayService "
      "(proto/tracespec/v1/gateway_service.proto) over gRPC: this process alone holds the "
      "model endpoint and its API key, the egress policy with its secret rules, the audit "
      "log and its signing key. A client (`infer --gateway`, `run --gateway`) opens a session "
      "with its run's protected material (redaction policy, observations, implementation "
      "source texts, names and constants that must not leave) and sends prompt requests; "
      "each is judged by this gateway's gate and audited in this gateway's log, and answered "
      "with the model's answer or refused with PERMISSION_DENIED naming the rule that fired "
      "(nothing is sent). At most --max-sessions sessions and --max-calls calls at a time "
      "(one more: RESOURCE_EXHAUSTED). The standard gRPC health service answers SERVING "
      "once ready. SIGINT or SIGTERM: answer the calls in progress, seal the audit log, "
      "exit 0. Without --tls-cert the calls are plaintext and unauthenticated: listen on "
      "loopback or a trusted network only");
  cmd->add_option("--listen", options->listen,
                  "Address to listen on, host:port (port 0 picks a free one), e.g. "
                  "127.0.0.1:7412")
      ->required();
  cmd->add_option("--llm", options->endpoint.base_url,
                  "Base URL of the OpenAI-compatible chat-completions endpoint, e.g. "
                  "http://127.0.0.1:8000/v1")
      ->required();
  cmd->add_option("--model", options->endpoint.model,
                  "Model name of requests that name none")
      ->required();
  cmd->add_option("--api-key-env", options->endpoint.api_key_env,
                  "Environment variable of this process holding the API key (default: "
                  "TRACESPEC_API_KEY when set, else no key); the key is never logged and "
                  "never reaches a client");
  cmd->add_option("--egress-policy", options->egress_policy_path,
                  "Egress policy, e.g. policies/egress.textproto")
      ->required();
  cmd->add_option("--audit-log", options->audit_log_path,
                  "Hash-chained audit log of every request of every session")
      ->required();
  cmd->add_option("--audit-key", options->audit_key_path,
                  "Ed25519 private key (PEM) that signs the audit log, created on first use "
                  "(default: $TRACESPEC_AUDIT_KEY, else $XDG_CONFIG_HOME/tracespec/"
                  "audit-key.pem, else ~/.config/tracespec/audit-key.pem)");
  cmd->add_option("--dry-run", options->dry_run_dir,
                  "Send nothing: write each allowed request body to DIR/request-SEQ.json "
                  "(SEQ its audit record's sequence) and answer with a dry-run refusal");
  cmd->add_option("--llm-timeout", *timeout_seconds,
                  WithDefault("Seconds one HTTP attempt may take", *timeout_seconds))
      ->check(PositiveSeconds());
  cmd->add_option("--llm-attempts", options->retry.max_attempts,
                  WithDefault("HTTP attempts per request, retries included",
                              options->retry.max_attempts))
      ->check(CLI::Range(1, 100));
  cmd->add_option("--max-sessions", options->max_sessions,
                  WithDefault("Sessions open at a time", options->max_sessions))
      ->check(CLI::Range(1, 1 << 16));
  cmd->add_option("--max-calls", options->max_calls,
                  WithDefault("Calls running at a time", options->max_calls))
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--max-request-bytes", options->max_request_bytes,
                  WithDefault("Largest call accepted, in bytes; a larger one fails with "
                              "RESOURCE_EXHAUSTED",
                              options->max_request_bytes))
      ->check(CLI::Range(int64_t{1024}, int64_t{2147483647}));
  auto tls_files = std::make_shared<services::ServerTlsFiles>();
  AddServerTlsOptions(cmd, tls_files.get(), "--gateway");
  cmd->footer(
      "Output: one line 'tracespec: gateway service listening on HOST:PORT (to URL)' on "
      "stdout once it serves, with the port actually bound (', TLS' or ', mutual TLS' after the "
      "URL when so).\n" +
      ExitStatusFooter({{kExitOk, "stopped by SIGINT or SIGTERM after answering every call"},
                        {kExitUsage, "unknown flag, a missing required flag, a number out of "
                                     "range"},
                        {kExitInputError,
                         absl::StrCat("the egress policy missing or malformed, the audit log "
                                      "or its key refused (broken chain, another key, an "
                                      "unsealed tail), a bad endpoint URL, the API key "
                                      "variable unset; ",
                                      kTlsFileErrors)},
                        {kExitEnvironment,
                         "the address cannot be bound, the audit log or key unreadable"}}));
  cmd->callback([options, timeout_seconds, tls_files, exit_code] {
    *exit_code = CheckPathFlags({{"--egress-policy", options->egress_policy_path,
                                  PathKind::kFile}});
    if (*exit_code != kExitOk) return;
    absl::StatusOr<std::optional<services::ServerTls>> tls = services::ReadServerTls(*tls_files);
    if (!tls.ok()) {
      *exit_code = ReportError(tls.status());
      return;
    }
    options->tls = *std::move(tls);
    if (options->endpoint.api_key_env.empty() && std::getenv("TRACESPEC_API_KEY") != nullptr) {
      options->endpoint.api_key_env = "TRACESPEC_API_KEY";
    }
    options->endpoint.total_timeout = absl::Seconds(*timeout_seconds);
    absl::Status served = services::ServeGatewayUntilSignal(
        *options, [security = services::ServingSecurity(options->tls)](
                      const services::GatewayServer& server) {
          std::printf("tracespec: gateway service listening on %s (to %s%s)\n",
                      server.address().c_str(), server.destination().c_str(),
                      security.c_str());
          std::fflush(stdout);
        });
    *exit_code = served.ok() ? kExitOk : ReportError(served);
  });
}

}  // namespace

void AddServeCommand(CLI::App& app, int* exit_code) {
  CLI::App* serve = app.add_subcommand(
      "serve", "Run a stage of tracespec as a gRPC service (services/README.md)");
  serve->require_subcommand(1);
  AddServeGatewayCommand(serve, exit_code);

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
  AddServerTlsOptions(validator, tls_files.get(), "--validators");
  validator->footer(
      "Output: one line 'tracespec: validator service listening on HOST:PORT (N workers)' on "
      "stdout once it serves, with the port actually bound (', TLS' or ', mutual TLS' after the "
      "workers when so).\n" +
      ExitStatusFooter({{kExitOk, "stopped by SIGINT or SIGTERM after answering every call"},
                        {kExitUsage, "unknown flag, a number out of range"},
                        {kExitInputError,
                         absl::StrCat("missing class path entry; ", kTlsFileErrors)},
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
        *options, [security = services::ServingSecurity(options->tls)](
                      const services::ValidatorServer& server) {
          std::printf("tracespec: validator service listening on %s (%d workers%s)\n",
                      server.address().c_str(), server.workers(), security.c_str());
          std::fflush(stdout);
        });
    *exit_code = served.ok() ? kExitOk : ReportError(served);
  });
}

}  // namespace tracespec::cli

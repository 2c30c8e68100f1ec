// A real `tracespec serve gateway` in front of the fake model server, with
// its audit log and key in a directory of its own, for the gateway tests.
#ifndef TRACESPEC_TESTS_SERVICES_GATEWAY_PROCESS_H_
#define TRACESPEC_TESTS_SERVICES_GATEWAY_PROCESS_H_

#include <memory>
#include <string>
#include <vector>

#include "agent/gateway/audit_log.h"
#include "gtest/gtest.h"
#include "tests/agent/fake_llm_server.h"
#include "tests/services/server_process.h"

namespace tracespec {

// An egress policy that lets requests reach the fake model server on
// loopback (and stores no payloads).
inline constexpr char kLoopbackEgressPolicy[] = R"(format_version: FORMAT_VERSION_1
allow { scheme: "http" host: "127.0.0.1" any_port: true path_prefix: "/v1/" }
audit { store_payloads: false }
)";

// A model's answer for the fake model server to give.
inline constexpr char kContractAnswer[] =
    R"({"contract": "//@ requires amount > 0;", "hypotheses": []})";

// The gateway's files: DIR/audit.jsonl, DIR/keys/audit-key.pem.
struct GatewayFiles {
  explicit GatewayFiles(const std::string& dir)
      : dir(dir), log(dir + "/audit.jsonl"), key(dir + "/keys/audit-key.pem") {}
  std::string dir;
  std::string log;
  std::string key;
};

// `serve gateway --llm MODEL --model fake-model --egress-policy POLICY
// --audit-log LOG --audit-key KEY EXTRA...`, listening (else a failure).
inline std::unique_ptr<ServerProcess> StartGateway(const GatewayFiles& files,
                                                   const testing::FakeLlmServer& model,
                                                   const std::string& policy,
                                                   const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"gateway",         "--llm",     model.base_url(),
                                   "--model",         "fake-model", "--egress-policy",
                                   policy,            "--audit-log", files.log,
                                   "--audit-key",     files.key};
  args.insert(args.end(), extra.begin(), extra.end());
  auto server = std::make_unique<ServerProcess>(args, files.dir + "/server.err");
  EXPECT_NE(server->address(), "") << server->listening_line() << server->Stderr();
  return server;
}

// The gateway's audit records (a failure when they cannot be read).
inline std::vector<v1::AuditRecord> GatewayRecords(const GatewayFiles& files) {
  auto records = gateway::ReadAuditRecords(files.log);
  EXPECT_TRUE(records.ok()) << records.status();
  return records.ok() ? *records : std::vector<v1::AuditRecord>{};
}

}  // namespace tracespec

#endif  // TRACESPEC_TESTS_SERVICES_GATEWAY_PROCESS_H_

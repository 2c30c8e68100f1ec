// Benchmark of the agent's local costs: how fast the egress gate scans a
// payload (with implementation fingerprints of growing size), how fast the
// audit log appends (fsync'd), and how fast observations are summarised
// into a prompt. Prints tables; not part of ctest.
//
//   build/bench/egress_gate/bench_egress_gate [--quick]
//   build/bench/egress_gate/bench_egress_gate --requests POLICY IMPL_SRC BODY...
//
// The second form re-checks real request bodies (written by `tracespec infer
// --dry-run`) with the egress policy POLICY and the fingerprints of the
// implementation sources under IMPL_SRC, and prints the gate time per
// request and the share blocked; bench/egress_gate/examples.sh drives it on
// the examples.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "agent/gateway/audit_log.h"
#include "agent/gateway/chat_wire.h"
#include "agent/gateway/egress_gate.h"
#include "agent/gateway/egress_policy.h"
#include "agent/gateway/fingerprint.h"
#include "agent/prompt/observations.h"
#include "common/files.h"
#include "common/hash.h"
#include "observer/probe/substitute_value.h"

namespace tracespec {
namespace {

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Java-like source of about `bytes` bytes: methods over random identifiers.
std::string SyntheticJava(size_t bytes, uint32_t seed) {
  std::mt19937 random(seed);
  auto name = [&random] { return absl::StrCat("v", random() % 5000); };
  std::string out = "package bench;\nimport java.util.List;\npublic class Impl {\n";
  int method = 0;
  while (out.size() < bytes) {
    absl::StrAppend(&out, "  public int m", method++, "(int ", name(), ", int ", name(), ") {\n");
    for (int line = 0; line < 6; ++line) {
      absl::StrAppend(&out, "    int ", name(), " = ", name(), " * ", random() % 97, " + ", name(),
                      ";\n");
    }
    absl::StrAppend(&out, "    return ", name(), ";\n  }\n");
  }
  return out + "}\n";
}

// Prompt-like text: test code and observation lines, none of it copied.
std::string SyntheticPrompt(size_t bytes, uint32_t seed) {
  std::mt19937 random(seed);
  std::string out;
  int i = 0;
  while (out.size() < bytes) {
    absl::StrAppend(&out, "o", ++i, " [bench.ImplTest#case", random() % 50,
                    "]: x=", random() % 1000, ", this.total=", random() % 100000, " -> returns ",
                    random() % 1000, "; after: this.total=", random() % 100000, "\n");
    if (i % 5 == 0) {
      absl::StrAppend(&out, "  @Test void case", i, "() { assertEquals(", random() % 100,
                      ", new Impl().m", random() % 50, "(", random() % 9, ", 2)); }\n");
    }
  }
  return out;
}

std::string ChatBody(const std::string& user) {
  gateway::LlmRequest request;
  request.messages = {{prompt::Role::kSystem, "Write JML."}, {prompt::Role::kUser, user}};
  return *gateway::internal::EncodeChatRequest(request, "bench-model");
}

void GateTable(bool quick) {
  std::printf("egress gate: Check() on a chat body (best of 5)\n");
  std::printf("%-12s %-12s %-12s %-10s %-10s %-8s\n", "impl bytes", "fingerprints", "payload", "ms",
              "MB/s", "verdict");
  std::vector<size_t> impl_sizes = {0, 64 << 10, 1 << 20};
  std::vector<size_t> payload_sizes = {4 << 10, 32 << 10, 200 << 10};
  if (quick) impl_sizes = {0, 64 << 10};
  v1::EgressPolicy policy;
  v1::Endpoint* e = policy.add_allow();
  e->set_scheme("http");
  e->set_host("127.0.0.1");
  e->set_any_port(true);
  for (size_t impl_size : impl_sizes) {
    auto fingerprints = std::make_shared<gateway::ImplementationFingerprints>();
    std::string impl = SyntheticJava(impl_size, 1);
    auto start = std::chrono::steady_clock::now();
    if (impl_size > 0) fingerprints->AddSource("Impl.java", impl);
    double build = Seconds(start);
    auto gate = gateway::EgressGate::Create(policy, {}, impl_size > 0 ? fingerprints : nullptr);
    for (size_t payload_size : payload_sizes) {
      for (bool copied : {false, true}) {
        if (copied && impl_size == 0) continue;
        std::string text = SyntheticPrompt(payload_size, 2);
        if (copied) text.insert(text.size() / 2, impl.substr(impl.size() / 2, 400));
        std::string body = ChatBody(text);
        double best = 1e9;
        bool allowed = true;
        for (int run = 0; run < 5; ++run) {
          start = std::chrono::steady_clock::now();
          allowed = gate->Check("http://127.0.0.1:8080/v1/chat/completions", body).allowed();
          best = std::min(best, Seconds(start));
        }
        std::printf("%-12zu %-12zu %-12s %-10.3f %-10.1f %-8s\n", impl_size, fingerprints->size(),
                    absl::StrCat(body.size(), copied ? "+copy" : "").c_str(), best * 1e3,
                    body.size() / best / 1e6, allowed ? "allowed" : "blocked");
      }
    }
    if (impl_size > 0) {
      std::printf("  (fingerprinting %zu bytes took %.1f ms)\n", impl.size(), build * 1e3);
    }
  }
}

// The denied-value rule: the payload's windows hashed for every length the
// keys have. `keys` texts of lengths spread over 4..67 bytes (the number of
// distinct lengths is what costs) and as many numbers; a row with one of
// the texts planted must be blocked, the others allowed. Each key count
// twice: the texts' keys alone (every window hashed with ConstantKey, as
// for a summary of an older probe) and with their rolling keys (a window
// hashed only where its rolling key is a text's).
void DeniedKeysTable(bool quick) {
  std::printf("\negress gate: the denied-value rule (best of 5)\n");
  std::printf("%-8s %-8s %-8s %-12s %-10s %-10s %-8s\n", "keys", "lengths", "windows", "payload",
              "ms", "MB/s", "verdict");
  v1::EgressPolicy policy;
  v1::Endpoint* e = policy.add_allow();
  e->set_scheme("http");
  e->set_host("127.0.0.1");
  e->set_any_port(true);
  std::vector<size_t> key_counts = {0, 16, 256};
  std::vector<size_t> payload_sizes = {4 << 10, 32 << 10, 200 << 10};
  if (quick) payload_sizes = {4 << 10, 32 << 10};
  for (size_t count : key_counts) {
    for (bool rolling : {false, true}) {
      if (rolling && count == 0) continue;
      std::mt19937 random(7);  // the same texts both ways
      gateway::ProtectedMaterial material;
      std::string planted;
      for (size_t i = 0; i < count; ++i) {
        std::string value;
        const size_t length = 4 + i % 64;
        for (size_t k = 0; k < length; ++k) value.push_back(static_cast<char>('!' + random() % 90));
        material.denied_keys.AddText(
            static_cast<uint32_t>(length), probe::ConstantKey(std::string_view(value)),
            rolling ? std::optional<uint32_t>(probe::RollingKey(value)) : std::nullopt);
        material.denied_keys.numbers.insert(
            probe::ConstantKey(static_cast<int64_t>(100000 + random() % 900000000)));
        if (i == count / 2) planted = value;
      }
      auto gate = gateway::EgressGate::Create(policy, material, nullptr);
      for (size_t payload_size : payload_sizes) {
        for (bool plant : {false, true}) {
          if (plant && count == 0) continue;
          std::string text = SyntheticPrompt(payload_size, 2);
          if (plant) text.insert(text.size() / 2, absl::StrCat(" \"", planted, "\" "));
          std::string body = ChatBody(text);
          double best = 1e9;
          bool allowed = true;
          for (int run = 0; run < 5; ++run) {
            auto start = std::chrono::steady_clock::now();
            allowed = gate->Check("http://127.0.0.1:8080/v1/chat/completions", body).allowed();
            best = std::min(best, Seconds(start));
          }
          std::printf("%-8zu %-8zu %-8s %-12s %-10.3f %-10.1f %-8s\n", count,
                      material.denied_keys.texts.size(), rolling ? "rolling" : "hashed",
                      absl::StrCat(body.size(), plant ? "+value" : "").c_str(), best * 1e3,
                      body.size() / best / 1e6, allowed ? "allowed" : "blocked");
        }
      }
    }
  }
}

void AuditTable(bool quick) {
  int n = quick ? 50 : 200;
  auto dir = MakeTempDir("tracespec-bench-");
  if (!dir.ok()) return;
  std::string path = *dir + "/audit.jsonl";
  auto log = gateway::AuditLog::Open(path);
  if (!log.ok()) return;
  std::string payload = ChatBody(SyntheticPrompt(8 << 10, 3));
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    v1::AuditRecord r;
    r.set_destination("http://127.0.0.1:8080/v1/chat/completions");
    r.set_direction(v1::OUTBOUND);
    r.set_verdict(v1::ALLOWED);
    r.set_payload_text(payload);
    r.set_payload_size(payload.size());
    r.set_payload_sha256(Sha256Hex(payload));
    if (!(*log)->Append(r).ok()) return;
  }
  double append = Seconds(start);
  start = std::chrono::steady_clock::now();
  auto check = gateway::VerifyAuditLog(path);
  double verify = Seconds(start);
  std::printf("\naudit log: %d records with an %zu-byte stored payload each\n", n, payload.size());
  std::printf("%-28s %-10.3f ms/record\n", "append (flock+write+fsync)", append / n * 1e3);
  std::printf("%-28s %-10.3f ms/record (%s)\n", "verify whole chain", verify / n * 1e3,
              check.ok() && check->intact ? "intact" : "BROKEN");
  (void)RemoveAll(*dir);
}

void SummaryTable() {
  std::printf("\nobservation summaries (budget 3000 tokens)\n");
  std::printf("%-14s %-10s %-8s %-10s\n", "observations", "distinct", "shown", "ms");
  for (int n : {100, 1000, 10000}) {
    std::vector<v1::Observation> all;
    std::mt19937 random(4);
    for (int i = 0; i < n; ++i) {
      v1::Observation o;
      o.mutable_method()->set_name("f");
      o.mutable_method()->set_is_static(true);
      o.add_args()->set_int_value(static_cast<int>(random() % 2000) - 1000);
      o.add_args()->set_int_value(static_cast<int>(random() % 50));
      o.mutable_outcome()->mutable_returned()->set_int_value(static_cast<int>(random() % 100));
      all.push_back(o);
    }
    auto start = std::chrono::steady_clock::now();
    prompt::ObservationSummary s = prompt::SummarizeObservations(all, "o", 3000, {"x", "y"});
    std::printf("%-14d %-10d %-8d %-10.1f\n", n, s.distinct, s.shown, Seconds(start) * 1e3);
  }
}

// Gate time and verdict on real request bodies; returns the process status.
int RequestsTable(const std::string& policy_path, const std::string& impl_src,
                  const std::vector<std::string>& bodies) {
  auto policy = gateway::LoadEgressPolicy(policy_path);
  if (!policy.ok()) {
    std::fprintf(stderr, "%s\n", std::string(policy.status().message()).c_str());
    return 3;
  }
  auto fingerprints = std::make_shared<gateway::ImplementationFingerprints>(
      gateway::FingerprintOptions::FromPolicy(policy->fingerprint()));
  if (absl::Status s = fingerprints->AddSourceTree(impl_src); !s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 3;
  }
  auto gate = gateway::EgressGate::Create(*policy, {}, fingerprints);
  if (!gate.ok()) {
    std::fprintf(stderr, "%s\n", std::string(gate.status().message()).c_str());
    return 3;
  }
  std::printf("%-64s %-8s %-8s %s\n", "request", "bytes", "ms", "verdict");
  int blocked = 0;
  std::vector<double> times;
  for (const std::string& path : bodies) {
    auto body = ReadFile(path);
    if (!body.ok()) {
      std::fprintf(stderr, "%s\n", std::string(body.status().message()).c_str());
      return 3;
    }
    double best = 1e9;
    gateway::GateVerdict verdict;
    for (int run = 0; run < 5; ++run) {
      auto start = std::chrono::steady_clock::now();
      verdict = gate->Check("http://127.0.0.1:8080/v1/chat/completions", *body);
      best = std::min(best, Seconds(start));
    }
    times.push_back(best);
    if (!verdict.allowed()) ++blocked;
    std::string name = path.size() > 64 ? "..." + path.substr(path.size() - 61) : path;
    std::printf("%-64s %-8zu %-8.3f %s\n", name.c_str(), body->size(), best * 1e3,
                verdict.Summary().c_str());
  }
  std::sort(times.begin(), times.end());
  double median = times.empty() ? 0 : times[times.size() / 2];
  std::printf("requests %zu, blocked %d (%.0f%%), median gate time %.3f ms, max %.3f ms\n",
              bodies.size(), blocked, bodies.empty() ? 0.0 : 100.0 * blocked / bodies.size(),
              median * 1e3, times.empty() ? 0.0 : times.back() * 1e3);
  return 0;
}

}  // namespace
}  // namespace tracespec

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--requests") == 0) {
    if (argc < 4) {
      std::fprintf(stderr, "usage: bench_egress_gate --requests POLICY IMPL_SRC BODY...\n");
      return 2;
    }
    return tracespec::RequestsTable(argv[2], argv[3],
                                    std::vector<std::string>(argv + 4, argv + argc));
  }
  bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  tracespec::GateTable(quick);
  tracespec::DeniedKeysTable(quick);
  tracespec::AuditTable(quick);
  tracespec::SummaryTable();
  return 0;
}

// The audited egress gate as a client decorator; see audited_client.h.
#include "agent/gateway/audited_client.h"

#include <algorithm>
#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "agent/gateway/errors.h"
#include "common/files.h"
#include "common/hash.h"
#include "common/status.h"
#include "google/protobuf/stubs/common.h"

namespace tracespec::gateway {
namespace {

void StorePayload(absl::string_view payload, v1::AuditRecord* record) {
  if (google::protobuf::internal::IsStructurallyValidUTF8(payload.data(),
                                                          static_cast<int>(payload.size()))) {
    record->set_payload_text(std::string(payload));
  } else {
    record->set_payload_binary(std::string(payload));
  }
}

// The message index of a finding's path "messages[N].content".
std::optional<size_t> MessageIndex(absl::string_view path) {
  if (!absl::ConsumePrefix(&path, "messages[") || !absl::ConsumeSuffix(&path, "].content")) {
    return std::nullopt;
  }
  size_t index = 0;
  if (!absl::SimpleAtoi(path, &index)) return std::nullopt;
  return index;
}

// Overwrites text[begin, end) — widened to whole UTF-8 characters — with
// '*'; false when there was nothing left to mask.
bool MaskSpan(std::string* text, size_t begin, size_t end) {
  end = std::min(end, text->size());
  auto continuation = [&](size_t i) {
    return i < text->size() && (static_cast<unsigned char>((*text)[i]) & 0xC0) == 0x80;
  };
  while (begin > 0 && continuation(begin)) --begin;
  while (continuation(end)) ++end;
  bool changed = false;
  for (size_t i = begin; i < end; ++i) {
    if ((*text)[i] != '*') {
      (*text)[i] = '*';
      changed = true;
    }
  }
  return changed;
}

}  // namespace

absl::StatusOr<LlmRequest> AuditedClient::ForTheRecord(const LlmRequest& request) const {
  LlmRequest masked = request;
  std::string destination = inner_->Destination();
  // The gate reports the first match per rule and string: mask and look
  // again until nothing maskable is left.
  for (int pass = 0; pass < 256; ++pass) {
    TS_ASSIGN_OR_RETURN(std::string body, inner_->EncodeRequest(masked));
    GateVerdict verdict = gate_->Check(destination, body);
    bool changed = false;
    for (const GateFinding& finding : verdict.findings) {
      if (!finding.has_span) continue;
      std::optional<size_t> index = MessageIndex(finding.path);
      if (!index || *index >= masked.messages.size()) continue;
      changed |= MaskSpan(&masked.messages[*index].content, finding.begin, finding.end);
    }
    if (!changed) break;
  }
  return masked;
}

AuditedClient::AuditedClient(std::unique_ptr<LlmClient> inner,
                             std::shared_ptr<const EgressGate> gate, std::shared_ptr<AuditLog> log,
                             AuditedClientOptions options)
    : inner_(std::move(inner)),
      gate_(std::move(gate)),
      log_(std::move(log)),
      options_(std::move(options)) {}

absl::StatusOr<LlmResponse> AuditedClient::Complete(const LlmRequest& request) {
  std::string destination = inner_->Destination();
  if (destination.empty()) {
    return absl::FailedPreconditionError(
        "audited client: the inner client sends nothing over the network; it needs no gate");
  }
  TS_ASSIGN_OR_RETURN(std::string body, inner_->EncodeRequest(request));
  bool store = gate_->policy().audit().store_payloads();
  std::string digest = Sha256Hex(body);

  v1::AuditRecord out;
  out.set_destination(destination);
  out.set_direction(v1::OUTBOUND);
  out.set_label(request.label);
  out.set_withheld_verdicts(request.withheld_verdicts);
  out.set_withheld_values(request.withheld_values);
  out.set_payload_size(body.size());
  out.set_payload_sha256(digest);

  GateVerdict verdict = gate_->Check(destination, body);
  if (!verdict.allowed()) {
    out.set_verdict(v1::BLOCKED);
    out.set_rule(verdict.findings[0].rule);
    std::vector<std::string> where;
    for (const GateFinding& f : verdict.findings) where.push_back(f.rule + " at " + f.where);
    out.set_detail(absl::StrJoin(where, "; "));
    TS_RETURN_IF_ERROR(log_->Append(std::move(out)).status());
    return WithBlockedRule(absl::PermissionDeniedError(
                               absl::StrCat("egress to ", destination, " ", verdict.Summary())),
                           verdict.findings[0].rule);
  }

  if (!options_.dry_run_dir.empty()) {
    out.set_verdict(v1::DRY_RUN);
    if (store) StorePayload(body, &out);
    TS_ASSIGN_OR_RETURN(v1::AuditRecord written, log_->Append(std::move(out)));
    TS_RETURN_IF_ERROR(MakeDirs(options_.dry_run_dir));
    std::string file =
        absl::StrFormat("%s/request-%06d.json", options_.dry_run_dir, written.sequence());
    TS_RETURN_IF_ERROR(WriteFileAtomic(file, body));
    return DryRunStatus(absl::StrCat("the request for ", destination, " was written to ",
                                     file, "; nothing was sent"));
  }

  out.set_verdict(v1::ALLOWED);
  if (store) StorePayload(body, &out);
  TS_RETURN_IF_ERROR(log_->Append(std::move(out)).status());

  absl::Time start = absl::Now();
  absl::StatusOr<LlmResponse> response = inner_->Complete(request);
  v1::AuditRecord in;
  in.set_destination(destination);
  in.set_direction(v1::INBOUND);
  in.set_label(request.label);
  in.set_request_sha256(digest);
  if (response.ok()) {
    in.set_verdict(v1::RECEIVED);
    in.set_payload_size(response->raw_body.size());
    in.set_payload_sha256(Sha256Hex(response->raw_body));
    in.set_http_status(response->http_status);
    in.set_attempts(response->attempts);
    in.set_latency_ms(absl::ToInt64Milliseconds(response->latency));
    in.set_prompt_tokens(response->usage.prompt_tokens);
    in.set_completion_tokens(response->usage.completion_tokens);
    if (store) StorePayload(response->raw_body, &in);
  } else {
    ExchangeFailure failure = ExchangeFailureOf(response.status());
    in.set_verdict(v1::FAILED);
    in.set_detail(std::string(response.status().message()));
    in.set_http_status(failure.http_status);
    in.set_attempts(failure.attempts);
    in.set_payload_size(failure.response_size);
    in.set_payload_sha256(failure.response_sha256);
    in.set_latency_ms(absl::ToInt64Milliseconds(absl::Now() - start));
  }
  absl::StatusOr<v1::AuditRecord> logged = log_->Append(std::move(in));
  if (!logged.ok()) return Annotate(logged.status(), "the answer arrived but was not audited");
  return response;
}

}  // namespace tracespec::gateway

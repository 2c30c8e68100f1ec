// Audit records as people read them (`tracespec audit show`): one header
// line per record (sequence, time, direction, verdict, destination), its
// sizes, digests and rule, and — when the log stored it — the payload, with
// chat requests and answers shown as their messages.
#ifndef TRACESPEC_AGENT_GATEWAY_AUDIT_SHOW_H_
#define TRACESPEC_AGENT_GATEWAY_AUDIT_SHOW_H_

#include <string>
#include <vector>

#include "tracespec/v1/audit.pb.h"

namespace tracespec::gateway {

struct AuditShowOptions {
  // Print stored payloads.
  bool payloads = true;
  // Print each payload exactly as stored instead of as chat messages.
  bool raw = false;
};

std::string FormatAuditRecords(const std::vector<v1::AuditRecord>& records,
                               const AuditShowOptions& options = {});

}  // namespace tracespec::gateway

#endif  // TRACESPEC_AGENT_GATEWAY_AUDIT_SHOW_H_

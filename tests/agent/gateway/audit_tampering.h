// What an attacker who can write the audit log but holds no key does to it,
// shared by the unit and end-to-end tampering tests: renumber the records
// and recompute every hash (and, with `resign`, every signature with
// another key).
#ifndef TRACESPEC_TESTS_AGENT_GATEWAY_AUDIT_TAMPERING_H_
#define TRACESPEC_TESTS_AGENT_GATEWAY_AUDIT_TAMPERING_H_

#include <string>
#include <vector>

#include "agent/gateway/audit_key.h"
#include "agent/gateway/audit_log.h"
#include "common/proto_io.h"

namespace tracespec::testing {

// The log lines of `records` rechained.
inline std::vector<std::string> RechainedLines(std::vector<v1::AuditRecord> records,
                                               const gateway::AuditSigner* resign = nullptr) {
  std::string prev = gateway::kAuditGenesisHash;
  std::vector<std::string> lines;
  for (size_t i = 0; i < records.size(); ++i) {
    v1::AuditRecord& r = records[i];
    r.set_sequence(i + 1);
    r.set_prev_hash(prev);
    bool signed_record = !r.signature().empty();
    if (signed_record) {
      r.set_sealed_records(i);
      r.set_sealed_head(prev);
      if (resign != nullptr) r.set_signing_key_id(resign->public_key().id());
    }
    r.set_hash(gateway::AuditRecordHash(r));
    if (signed_record && resign != nullptr) {
      r.set_signature(resign->Sign(gateway::AuditSignedMessage(r.hash())));
    }
    prev = r.hash();
    lines.push_back(ToJsonLine(r));
  }
  return lines;
}

}  // namespace tracespec::testing

#endif  // TRACESPEC_TESTS_AGENT_GATEWAY_AUDIT_TAMPERING_H_

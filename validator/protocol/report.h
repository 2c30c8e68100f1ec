// Checking protocol models with CTL and reporting explorations: the checker's
// verdicts with their evidence traces also shown as call sequences, and the
// `protocol explore` report (transitions, comparison with observations,
// incomplete calls) as text or one JSON document.
#ifndef TRACESPEC_VALIDATOR_PROTOCOL_REPORT_H_
#define TRACESPEC_VALIDATOR_PROTOCOL_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "validator/ctl/check.h"
#include "validator/protocol/compare.h"
#include "validator/protocol/explore.h"
#include "validator/protocol/mine.h"

namespace tracespec::protocol {

struct ProtocolCheck {
  ctl::CheckReport report;
  // Per formula: its first evidence trace as calls (model.h TraceAsCalls),
  // "" when the verdict has no trace.
  std::vector<std::string> calls;
};

// Checks `formulas` (fairness constraints `fairness`) on a protocol model.
absl::StatusOr<ProtocolCheck> CheckProtocol(const ctl::Kripke& model, const ProtocolGraph& graph,
                                            const std::vector<std::string>& formulas,
                                            const std::vector<std::string>& fairness);

// The checker's text report followed by the call sequences.
std::string RenderCheckText(const ctl::Kripke& model, const ProtocolCheck& check);

// What `protocol explore` found. `mined` and `comparison` are set when
// observations were given, `check` when formulas were.
struct ExploreReport {
  const ExploredProtocol* explored = nullptr;
  const MinedProtocol* mined = nullptr;
  const ProtocolComparison* comparison = nullptr;
  const ProtocolCheck* check = nullptr;
  std::string observations;  // where the observations came from
};

std::string RenderExploreText(const ExploreReport& report);
// One JSON document; includes the model text.
std::string RenderExploreJson(const ExploreReport& report);

}  // namespace tracespec::protocol

#endif  // TRACESPEC_VALIDATOR_PROTOCOL_REPORT_H_

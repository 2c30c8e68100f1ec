// The one conversion between tracespec.v1.GatewayService's messages
// (proto/tracespec/v1/gateway_service.proto) and the gateway's in-process
// types, both ways: the protected material, requests, answers, refusals.
#ifndef TRACESPEC_SERVICES_GATEWAY_CONVERT_H_
#define TRACESPEC_SERVICES_GATEWAY_CONVERT_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "agent/gateway/gateway.h"
#include "agent/gateway/llm_client.h"
#include "grpcpp/grpcpp.h"
#include "tracespec/v1/gateway_service.pb.h"

namespace tracespec::services {

v1::GatewayMaterial MaterialMessage(const gateway::GatewayMaterial& material);
gateway::GatewayMaterial MaterialOf(const v1::GatewayMaterial& message);

// The request without its in-process inputs (LlmRequest::local).
v1::GatewayRequest RequestMessage(const gateway::LlmRequest& request);
// InvalidArgument for an unknown role.
absl::StatusOr<gateway::LlmRequest> RequestOf(const v1::GatewayRequest& message);

v1::CompleteReply ReplyMessage(const gateway::LlmResponse& response);
gateway::LlmResponse ResponseOf(const v1::CompleteReply& reply);

// A failed Complete as a gRPC status: its code and message, and in its
// details a v1::GatewayRefusal with the rule of a blocked request
// (gateway::BlockedRuleOf), the dry-run mark and the exchange failure.
grpc::Status RefusalStatus(const absl::Status& status);
// The other way: the same code and message, the dry-run mark and the
// exchange failure attached as the in-process clients attach them.
absl::Status StatusOfRefusal(const grpc::Status& status);

}  // namespace tracespec::services

#endif  // TRACESPEC_SERVICES_GATEWAY_CONVERT_H_

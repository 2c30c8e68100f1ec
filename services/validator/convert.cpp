#include "services/validator/convert.h"

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/method_id.h"
#include "common/method_signature.h"
#include "validator/check/messages.h"

namespace tracespec::services {
namespace {

v1::ContractFormat FormatToProto(jml::ContractFormat format) {
  switch (format) {
    case jml::ContractFormat::kAuto: return v1::CONTRACT_FORMAT_AUTO;
    case jml::ContractFormat::kJava: return v1::CONTRACT_FORMAT_JAVA;
    case jml::ContractFormat::kJml: return v1::CONTRACT_FORMAT_JML;
    case jml::ContractFormat::kSpecText: return v1::CONTRACT_FORMAT_SPEC_TEXT;
  }
  return v1::CONTRACT_FORMAT_AUTO;
}

absl::StatusOr<jml::ContractFormat> FormatFromProto(v1::ContractFormat format) {
  switch (format) {
    case v1::CONTRACT_FORMAT_AUTO: return jml::ContractFormat::kAuto;
    case v1::CONTRACT_FORMAT_JAVA: return jml::ContractFormat::kJava;
    case v1::CONTRACT_FORMAT_JML: return jml::ContractFormat::kJml;
    case v1::CONTRACT_FORMAT_SPEC_TEXT: return jml::ContractFormat::kSpecText;
    default: break;
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown contract format ", format));
}

v1::DiagnosticKind KindToProto(check::Diagnostic::Kind kind) {
  using K = check::Diagnostic::Kind;
  switch (kind) {
    case K::kViolated: return v1::DIAGNOSTIC_VIOLATED;
    case K::kWellDefinedness: return v1::DIAGNOSTIC_WELL_DEFINEDNESS;
    case K::kSyntax: return v1::DIAGNOSTIC_SYNTAX;
    case K::kType: return v1::DIAGNOSTIC_TYPE;
    case K::kUnsupported: return v1::DIAGNOSTIC_UNSUPPORTED;
    case K::kNote: return v1::DIAGNOSTIC_NOTE;
    case K::kUndecided: return v1::DIAGNOSTIC_UNDECIDED;
  }
  return v1::DIAGNOSTIC_KIND_UNSPECIFIED;
}

check::Diagnostic::Kind KindFromProto(v1::DiagnosticKind kind) {
  using K = check::Diagnostic::Kind;
  switch (kind) {
    case v1::DIAGNOSTIC_VIOLATED: return K::kViolated;
    case v1::DIAGNOSTIC_WELL_DEFINEDNESS: return K::kWellDefinedness;
    case v1::DIAGNOSTIC_SYNTAX: return K::kSyntax;
    case v1::DIAGNOSTIC_TYPE: return K::kType;
    case v1::DIAGNOSTIC_UNSUPPORTED: return K::kUnsupported;
    case v1::DIAGNOSTIC_UNDECIDED: return K::kUndecided;
    default: return K::kNote;
  }
}

v1::ContractDiagnostic DiagnosticToProto(const check::Diagnostic& d) {
  v1::ContractDiagnostic out;
  out.set_kind(KindToProto(d.kind));
  if (d.span.valid()) {
    v1::ContractSpan* span = out.mutable_span();
    span->set_file(d.span.FileName());
    span->set_line(d.span.line);
    span->set_column(d.span.column);
    span->set_end_line(d.span.end_line);
    span->set_end_column(d.span.end_column);
  }
  out.set_clause(d.clause);
  out.set_message(d.message);
  for (int c : d.counterexamples) out.add_counterexamples(c);
  out.set_given_invariant(d.given_invariant + 1);
  return out;
}

check::Diagnostic DiagnosticFromProto(const v1::ContractDiagnostic& d) {
  check::Diagnostic out;
  out.kind = KindFromProto(d.kind());
  if (d.has_span() && d.span().line() > 0) {
    if (!d.span().file().empty()) out.span.file = std::make_shared<const std::string>(d.span().file());
    out.span.line = d.span().line();
    out.span.column = d.span().column();
    out.span.end_line = d.span().end_line();
    out.span.end_column = d.span().end_column();
  }
  out.clause = d.clause();
  out.message = d.message();
  out.counterexamples.assign(d.counterexamples().begin(), d.counterexamples().end());
  out.given_invariant = d.given_invariant() - 1;
  return out;
}

v1::CheckReply CheckToProto(const check::CheckResult& r) {
  v1::CheckReply out;
  *out.mutable_verdict() = check::VerdictOf(r);
  for (const check::Diagnostic& d : r.diagnostics) *out.add_diagnostics() = DiagnosticToProto(d);
  for (const v1::Observation& o : r.counterexamples) *out.add_counterexamples() = o;
  for (const std::string& e : r.explanations) out.add_explanations(e);
  for (const std::string& v : r.verdicts) out.add_observation_verdicts(v);
  out.set_admitted(r.admitted);
  out.set_total(r.total);
  out.set_seconds(r.seconds);
  out.set_frame_seconds(r.frame_seconds);
  return out;
}

check::CheckResult CheckFromProto(const v1::CheckReply& r) {
  check::CheckResult out;
  check::ApplyVerdict(r.verdict(), &out);
  for (const v1::ContractDiagnostic& d : r.diagnostics()) {
    out.diagnostics.push_back(DiagnosticFromProto(d));
  }
  out.counterexamples.assign(r.counterexamples().begin(), r.counterexamples().end());
  out.explanations.assign(r.explanations().begin(), r.explanations().end());
  out.verdicts.assign(r.observation_verdicts().begin(), r.observation_verdicts().end());
  out.admitted = r.admitted();
  out.total = r.total();
  out.seconds = r.seconds();
  out.frame_seconds = r.frame_seconds();
  return out;
}

}  // namespace

absl::StatusOr<v1::ValidateCall> CallOf(const check::ValidateRequest& request) {
  absl::StatusOr<MethodSignature> signature = MethodSignature::Parse(request.method);
  if (!signature.ok()) return signature.status();
  v1::ValidateCall call;
  v1::MethodId* method = call.mutable_method();
  method->set_class_name(signature->class_name);
  method->set_name(signature->method_name);
  method->set_jvm_descriptor(signature->descriptor);
  call.set_contract(request.contract);
  call.set_contract_file(request.contract_file);
  call.set_format(FormatToProto(request.format));
  call.set_has_observations(request.has_observations);
  for (const v1::Observation& o : request.observations) *call.add_observations() = o;
  absl::StatusOr<v1::ProjectBounds> bounds = check::BoundsOf(request);
  if (!bounds.ok()) return bounds.status();
  *call.mutable_bounds() = *bounds;
  call.set_skip_loop_invariants(!request.check_loop_invariants);
  call.set_coverage_only(request.coverage_only);
  call.set_skip_deepening(!request.deepen);
  for (const std::string& inv : request.class_invariants) call.add_class_invariants(inv);
  call.mutable_substitute_numbers()->insert(request.substitute_numbers.begin(),
                                            request.substitute_numbers.end());
  call.mutable_substitute_texts()->insert(request.substitute_texts.begin(),
                                          request.substitute_texts.end());
  return call;
}

absl::StatusOr<check::ValidateRequest> RequestOf(const v1::ValidateCall& call) {
  const v1::MethodId& method = call.method();
  if (method.class_name().empty() || method.name().empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the call names no method: class_name \"", method.class_name(), "\", name \"",
        method.name(), "\" (both are required)"));
  }
  check::ValidateRequest request;
  request.method = absl::StrCat(method.class_name(), "#", method.name(), method.jvm_descriptor());
  // The same checks as a method named on the command line.
  absl::StatusOr<MethodSignature> signature = MethodSignature::Parse(request.method);
  if (!signature.ok()) return signature.status();
  if (!signature->descriptor.empty() &&
      !IsMethodDescriptor(signature->descriptor, /*allow_parameters_only=*/true)) {
    return absl::InvalidArgumentError(absl::StrCat(
        request.method, ": jvm_descriptor \"", method.jvm_descriptor(),
        "\" is not a JVM method descriptor"));
  }
  const v1::ProjectBounds& bounds = call.bounds();
  if (bounds.unwind() < 0 || bounds.max_array() < 0 || bounds.check_timeout_seconds() < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        request.method, ": bounds out of range (unwind ", bounds.unwind(), ", max_array ",
        bounds.max_array(), ", check_timeout_seconds ", bounds.check_timeout_seconds(),
        "): none may be negative (0 is the default)"));
  }
  check::ApplyBounds(bounds, &request);
  if (!call.has_observations() && call.observations_size() > 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        request.method, ": ", call.observations_size(),
        " observations given with has_observations false"));
  }
  absl::StatusOr<jml::ContractFormat> format = FormatFromProto(call.format());
  if (!format.ok()) return absl::InvalidArgumentError(absl::StrCat(request.method, ": ", format.status().message()));
  request.contract = call.contract();
  request.contract_file = call.contract_file().empty() ? "<contract>" : call.contract_file();
  request.format = *format;
  request.has_observations = call.has_observations();
  request.observations.assign(call.observations().begin(), call.observations().end());
  request.check_loop_invariants = !call.skip_loop_invariants();
  request.coverage_only = call.coverage_only();
  request.deepen = !call.skip_deepening();
  request.class_invariants.assign(call.class_invariants().begin(), call.class_invariants().end());
  request.substitute_numbers.insert(call.substitute_numbers().begin(),
                                    call.substitute_numbers().end());
  request.substitute_texts.insert(call.substitute_texts().begin(), call.substitute_texts().end());
  return request;
}

v1::ValidateReply ReplyOf(const check::ValidationReport& report) {
  v1::ValidateReply reply;
  absl::StatusOr<MethodId> id = MethodId::Parse(report.method);
  if (id.ok()) {
    *reply.mutable_method() = id->ToProto();
  } else {
    reply.mutable_method()->set_display(report.method);
  }
  *reply.mutable_consistency() = CheckToProto(report.consistency);
  *reply.mutable_coverage() = CheckToProto(report.coverage);
  for (const check::Diagnostic& d : report.notes) *reply.add_notes() = DiagnosticToProto(d);
  reply.set_bits(report.Bits());
  reply.set_text(check::FormatReportText(report));
  return reply;
}

check::ValidationReport ReportOf(const v1::ValidateReply& reply) {
  check::ValidationReport report;
  report.method = reply.method().class_name().empty()
                      ? reply.method().display()
                      : MethodId::FromProto(reply.method()).Key();
  report.consistency = CheckFromProto(reply.consistency());
  report.coverage = CheckFromProto(reply.coverage());
  for (const v1::ContractDiagnostic& d : reply.notes()) {
    report.notes.push_back(DiagnosticFromProto(d));
  }
  return report;
}

}  // namespace tracespec::services

// Reading a model's answer: the structured JSON answer asked for through
// `response_format`, or — from endpoints that ignore the schema — a fenced
// ```jml block or bare JML clauses.
#ifndef TRACESPEC_AGENT_PROMPT_ANSWER_H_
#define TRACESPEC_AGENT_PROMPT_ANSWER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "agent/prompt/chat.h"

namespace tracespec::prompt {

enum class AnswerFormat { kJson, kFencedBlock, kBareJml };
const char* AnswerFormatName(AnswerFormat format);

struct ContractAnswer {
  // The contract as JML annotation lines ("//@ requires x > 0;"): method
  // stubs and prose around the annotations are dropped, bare clauses get the
  // "//@ " prefix.
  std::string jml;
  std::vector<std::string> hypotheses;
  AnswerFormat format = AnswerFormat::kJson;
};

// The schema of the structured answer: {"contract": string, "hypotheses":
// [string]} (tracespec.v1.ModelAnswer).
ResponseSchema ContractAnswerSchema();

// Finds the contract in `text`, trying in order: the whole text as the JSON
// answer, a ```json block, the outermost {...} holding "contract", a fenced
// block with JML (```jml preferred), bare `//@` lines or clause lines.
// Hypotheses come from the JSON, or from a list under a line mentioning
// "hypotheses". An answer without any JML clause (requires, ensures,
// signals, signals_only, assignable, ...) is an InvalidArgument error.
absl::StatusOr<ContractAnswer> ParseAnswer(absl::string_view text);

// Brings a contract to annotation-line form (see ContractAnswer::jml); an
// error when it has no JML clause.
absl::StatusOr<std::string> NormalizeJml(absl::string_view contract);

}  // namespace tracespec::prompt

#endif  // TRACESPEC_AGENT_PROMPT_ANSWER_H_

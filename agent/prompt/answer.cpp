// Reading a model's answer; see answer.h.
#include "agent/prompt/answer.h"

#include <cctype>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/util/json_util.h"
#include "tracespec/v1/answer.pb.h"

namespace tracespec::prompt {
namespace {

constexpr absl::string_view kSchema =
    R"({"type":"object","properties":{"contract":{"type":"string","description":)"
    R"("The JML contract of the method: annotation lines, each starting with //@"},)"
    R"("hypotheses":{"type":"array","items":{"type":"string"},"description":)"
    R"("Assumptions the evidence does not support, in words, not as clauses"}},)"
    R"("required":["contract","hypotheses"],"additionalProperties":false})";

// Words that start a JML clause or spec case.
bool IsClauseWord(absl::string_view word) {
  // clang-format off
  static const char* const kWords[] = {
      "requires", "ensures", "signals", "signals_only", "assignable", "modifies", "diverges",
      "accessible", "pure", "invariant", "normal_behavior", "normal_behaviour",
      "exceptional_behavior", "exceptional_behaviour", "behavior", "behaviour", "also", "pre",
      "post", "measured_by", "spec_public"};
  // clang-format on
  for (const char* w : kWords) {
    if (word == w) return true;
  }
  return false;
}

// The first word of `line` after JML/Java markers and modifiers.
std::string LeadingWord(absl::string_view line) {
  line = absl::StripAsciiWhitespace(line);
  for (absl::string_view marker : {"/*@", "//@", "@*/", "@", "*"}) {
    if (absl::ConsumePrefix(&line, marker)) break;
  }
  line = absl::StripLeadingAsciiWhitespace(line);
  for (absl::string_view modifier : {"public ", "protected ", "private "}) {
    if (absl::ConsumePrefix(&line, modifier)) break;
  }
  line = absl::StripLeadingAsciiWhitespace(line);
  size_t end = 0;
  while (end < line.size() &&
         (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_')) {
    ++end;
  }
  return std::string(line.substr(0, end));
}

bool HasClause(absl::string_view text) {
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (IsClauseWord(LeadingWord(line))) return true;
  }
  return false;
}

struct Fence {
  std::string language;
  std::string content;
};

std::vector<Fence> FencedBlocks(absl::string_view text) {
  std::vector<Fence> out;
  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    absl::string_view open = absl::StripAsciiWhitespace(lines[i]);
    if (!absl::ConsumePrefix(&open, "```")) continue;
    Fence fence;
    fence.language = absl::AsciiStrToLower(absl::StripAsciiWhitespace(open));
    std::vector<absl::string_view> body;
    size_t j = i + 1;
    for (; j < lines.size(); ++j) {
      if (absl::StartsWith(absl::StripAsciiWhitespace(lines[j]), "```")) break;
      body.push_back(lines[j]);
    }
    fence.content = absl::StrJoin(body, "\n");
    out.push_back(std::move(fence));
    i = j;
  }
  return out;
}

// Parses `json` as the structured answer; false when it is not one.
bool TryJson(absl::string_view json, v1::ModelAnswer* answer) {
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = true;
  answer->Clear();
  return google::protobuf::util::JsonStringToMessage(std::string(json), answer, options).ok() &&
         !answer->contract().empty();
}

bool IsBulletLine(absl::string_view line, std::string* item) {
  line = absl::StripAsciiWhitespace(line);
  if (absl::ConsumePrefix(&line, "- ") || absl::ConsumePrefix(&line, "* ")) {
    *item = std::string(absl::StripAsciiWhitespace(line));
    return !item->empty();
  }
  size_t digits = 0;
  while (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits]))) ++digits;
  if (digits > 0 && digits + 1 < line.size() && (line[digits] == '.' || line[digits] == ')')) {
    *item = std::string(absl::StripAsciiWhitespace(line.substr(digits + 1)));
    return !item->empty();
  }
  return false;
}

std::vector<std::string> ProseHypotheses(absl::string_view text) {
  std::vector<std::string> out;
  bool in_list = false;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (!in_list) {
      in_list = absl::StrContains(absl::AsciiStrToLower(line), "hypothes") &&
                !absl::StrContains(line, "//@");
      continue;
    }
    std::string item;
    if (IsBulletLine(line, &item)) {
      out.push_back(item);
    } else if (!absl::StripAsciiWhitespace(line).empty() || !out.empty()) {
      break;
    }
  }
  return out;
}

// A method declaration that declares something nullable, on one line
// (`public void sort(/*@ nullable @*/ int[] values);`): it says which
// references may be null, so it stays with the contract (spec_source.h).
// Other stubs are dropped.
bool IsAnnotatedDeclaration(absl::string_view stripped) {
  if (absl::StartsWith(stripped, "//@") || absl::StartsWith(stripped, "/*@")) return false;
  size_t mark = stripped.find("/*@");
  return mark != absl::string_view::npos && stripped.find("@*/", mark) != absl::string_view::npos &&
         absl::StrContains(stripped.substr(mark), "nullable") &&
         stripped.find('(') != absl::string_view::npos && absl::EndsWith(stripped, ";");
}

// Lines of `text` that are JML: annotation comments, lines that start with
// a clause word and their continuation lines, and an annotated declaration.
std::string BareJml(absl::string_view text) {
  std::vector<absl::string_view> kept;
  bool in_block = false;
  bool in_clause = false;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    absl::string_view stripped = absl::StripAsciiWhitespace(line);
    if (in_block) {
      kept.push_back(line);
      if (absl::StrContains(stripped, "*/")) in_block = false;
      continue;
    }
    if (absl::StartsWith(stripped, "/*@")) {
      kept.push_back(line);
      in_block = !absl::StrContains(stripped.substr(3), "*/");
      continue;
    }
    if (absl::StartsWith(stripped, "//@") || IsAnnotatedDeclaration(stripped)) {
      kept.push_back(line);
      continue;
    }
    if (IsClauseWord(LeadingWord(stripped))) {
      kept.push_back(line);
      in_clause = !absl::EndsWith(stripped, ";");
      continue;
    }
    if (in_clause && !stripped.empty()) {
      kept.push_back(line);
      in_clause = !absl::EndsWith(stripped, ";");
      continue;
    }
    in_clause = false;
  }
  return absl::StrJoin(kept, "\n");
}

}  // namespace

const char* AnswerFormatName(AnswerFormat format) {
  switch (format) {
    case AnswerFormat::kJson: return "json";
    case AnswerFormat::kFencedBlock: return "fenced block";
    case AnswerFormat::kBareJml: return "bare jml";
  }
  return "json";
}

ResponseSchema ContractAnswerSchema() { return {"jml_contract", std::string(kSchema)}; }

absl::StatusOr<std::string> NormalizeJml(absl::string_view contract) {
  bool annotated = absl::StrContains(contract, "//@") || absl::StrContains(contract, "/*@");
  std::vector<std::string> lines;
  if (annotated) {
    // Keep the annotations; a clause line the model left unmarked among
    // them gets the marker too.
    bool in_block = false;
    for (absl::string_view line : absl::StrSplit(BareJml(contract), '\n')) {
      absl::string_view stripped = absl::StripTrailingAsciiWhitespace(line);
      absl::string_view bare = absl::StripAsciiWhitespace(stripped);
      if (bare.empty()) continue;
      bool marked = in_block || absl::StartsWith(bare, "//@") || absl::StartsWith(bare, "/*@") ||
                    IsAnnotatedDeclaration(bare);
      if (absl::StartsWith(bare, "/*@")) in_block = true;
      if (in_block && absl::StrContains(bare, "*/")) in_block = false;
      lines.push_back(marked ? std::string(stripped) : absl::StrCat("//@ ", bare));
    }
  } else {
    for (absl::string_view line : absl::StrSplit(contract, '\n')) {
      absl::string_view stripped = absl::StripAsciiWhitespace(line);
      if (!stripped.empty()) lines.push_back(absl::StrCat("//@ ", stripped));
    }
  }
  std::string jml = absl::StrJoin(lines, "\n");
  if (!HasClause(jml)) {
    return absl::InvalidArgumentError(
        "the contract holds no JML clause (requires, ensures, signals, assignable, ...)");
  }
  return jml;
}

absl::StatusOr<ContractAnswer> ParseAnswer(absl::string_view text) {
  absl::string_view trimmed = absl::StripAsciiWhitespace(text);
  if (trimmed.empty()) return absl::InvalidArgumentError("the answer is empty");
  std::vector<Fence> fences = FencedBlocks(trimmed);

  // 1. The structured answer, bare or in a ```json block or inside prose.
  std::vector<absl::string_view> json_candidates;
  if (absl::StartsWith(trimmed, "{")) json_candidates.push_back(trimmed);
  for (const Fence& fence : fences) {
    absl::string_view content = absl::StripAsciiWhitespace(fence.content);
    if (fence.language == "json" || absl::StartsWith(content, "{")) {
      json_candidates.push_back(content);
    }
  }
  size_t open = trimmed.find('{');
  size_t close = trimmed.rfind('}');
  if (open != absl::string_view::npos && close != absl::string_view::npos && open < close &&
      absl::StrContains(trimmed.substr(open, close - open), "\"contract\"")) {
    json_candidates.push_back(trimmed.substr(open, close - open + 1));
  }
  v1::ModelAnswer structured;
  for (absl::string_view candidate : json_candidates) {
    if (!TryJson(candidate, &structured)) continue;
    auto jml = NormalizeJml(structured.contract());
    if (!jml.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("the JSON answer's \"contract\": ", jml.status().message()));
    }
    ContractAnswer answer;
    answer.jml = *std::move(jml);
    answer.hypotheses.assign(structured.hypotheses().begin(), structured.hypotheses().end());
    answer.format = AnswerFormat::kJson;
    return answer;
  }

  // 2. A fenced block with JML, ```jml first.
  std::vector<const Fence*> ordered;
  for (const Fence& fence : fences) {
    if (fence.language == "jml") ordered.push_back(&fence);
  }
  for (const Fence& fence : fences) {
    if (fence.language != "jml") ordered.push_back(&fence);
  }
  for (const Fence* fence : ordered) {
    if (!HasClause(fence->content)) continue;
    auto jml = NormalizeJml(fence->content);
    if (!jml.ok()) continue;
    ContractAnswer answer;
    answer.jml = *std::move(jml);
    answer.hypotheses = ProseHypotheses(trimmed);
    answer.format = AnswerFormat::kFencedBlock;
    return answer;
  }

  // 3. Bare JML in the prose.
  std::string bare = BareJml(trimmed);
  if (HasClause(bare)) {
    auto jml = NormalizeJml(bare);
    if (jml.ok()) {
      ContractAnswer answer;
      answer.jml = *std::move(jml);
      answer.hypotheses = ProseHypotheses(trimmed);
      answer.format = AnswerFormat::kBareJml;
      return answer;
    }
  }
  return absl::InvalidArgumentError(
      "the answer holds no JML contract: expected a JSON object with \"contract\", a ```jml "
      "block or //@ clauses");
}

}  // namespace tracespec::prompt

// Coverage feedback that reveals nothing the prompt withholds. The coverage
// check evaluates the contract on the recorded observations, which hold the
// real values, and its feedback says which recorded call a clause rejects:
// for a string the prompt shows only by shape (prompt/disclosure.h) that
// verdict is an oracle — a model proposing `recipient.charAt(0) != 'c'`
// would read the string one character per round.
//
// So every observation the prompt shows with a text hidden — a String,
// char[], exception message, or any other holder of text
// (prompt/text_holders.h: StringBuilder/StringBuffer, text-like byte[] and
// ByteBuffer, UUID, BigInteger, BigDecimal, Inet4Address, Inet6Address) —
// is checked again in kSubstituteVariants
// copies in which each hidden text is replaced by a same-shape substitute,
// written back in the holder's own layout (observer/probe/substitute_value.h,
// SubstituteTextVariant: same length and character classes, other
// characters; across the variants every position takes every other
// character of its class). Where a copy's verdict differs from the real
// one, the real verdict is withheld: the feedback says only that the
// contract's verdict depends on withheld data — no observation, no value,
// no clause. Values the observer withheld (`redacted`) are not held
// locally either: the checks cannot read them, so nothing is substituted
// for them.
#ifndef TRACESPEC_AGENT_LOOP_WITHHELD_VERDICTS_H_
#define TRACESPEC_AGENT_LOOP_WITHHELD_VERDICTS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>

#include "agent/prompt/prompt_builder.h"
#include "tracespec/v1/observation.pb.h"
#include "validator/check/validator.h"

namespace tracespec::loop {

// Copies per observation: enough for every position to take every other
// character of its largest class (33 printable ASCII non-alphanumerics).
inline constexpr int kSubstituteVariants = 32;
// Fixed: the same inputs give the same feedback.
inline constexpr uint64_t kSubstituteSeed = 1;

// Whether the prompt hides a recorded text (String value or char[]
// contents); `by_shape` as for prompt::StringDisclosure::String.
using HidesText = std::function<bool(const std::string& text, bool by_shape)>;

// The `variant`-th (from 1) substituted copy of `observation`: every string
// value, char[] content, exception message and holder text that `hides`
// says the prompt hides (a holder recorded only in part always), replaced
// by SubstituteTextVariant(seed, text, variant) — equal texts by equal
// substitutes, as the prompt's aliases keep equality. A builder keeps its
// count and coder; a byte[] (a ByteBuffer's window) is substituted byte by
// byte as Latin-1, its trailing zero bytes kept; a UUID gets the hex
// digits of its substituted text (letters taken mod 16); a BigInteger or
// compact BigDecimal gets substituted digits with its sign and scale (a
// BigInteger's cached bit counts are reset to 0); an address gets the
// groups of its substituted text (an IPv6 scope is kept).
// nullopt when the observation holds no hidden text.
std::optional<v1::Observation> SubstitutedCopy(const v1::Observation& observation,
                                               const HidesText& hides, int variant,
                                               uint64_t seed = kSubstituteSeed);

// The indexes (into `request.observations`, which `coverage` is the
// coverage result of) of the observations the prompt shows (not left out)
// whose coverage verdict some substituted copy changes; none when coverage
// neither passed nor failed (no verdicts were reached). The copies are
// checked with `validator` in one coverage-only request; when that fails or
// the verdicts do not line up, every observation with a hidden text counts.
std::set<int> VerdictsThatDependOnWithheldData(check::Validator* validator,
                                               const check::ValidateRequest& request,
                                               const check::CheckResult& coverage,
                                               const prompt::PromptBuilder& builder);

// `coverage` as the feedback may tell it: the diagnostics, counterexamples
// and explanations of the observations in `masked` removed, and the
// summary replaced by one that says that the verdict on some recorded calls
// depends on withheld data and counts only the others' rejections; FAIL
// when anything is masked (the status the feedback shows must not depend
// on the withheld verdicts either). Unchanged when `masked` is empty.
void WithholdVerdicts(const std::set<int>& masked, check::CheckResult* coverage);

}  // namespace tracespec::loop

#endif  // TRACESPEC_AGENT_LOOP_WITHHELD_VERDICTS_H_

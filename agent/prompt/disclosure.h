// Which recorded strings a prompt to a remote model shows as they are
// (the redaction policy's `string_disclosure`): under LITERALS_ONLY only
// those that occur as a string literal in the test sources being sent,
// under ALL every one, under NONE none. The others are shown by shape as a
// stable alias, `<s3: String, 19 chars>` (`<c1: char[], 8 chars>` for the
// contents of a char[]): equal values get the same alias within one
// builder, so equality across observations and rounds is kept.
#ifndef TRACESPEC_AGENT_PROMPT_DISCLOSURE_H_
#define TRACESPEC_AGENT_PROMPT_DISCLOSURE_H_

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "tracespec/v1/policy.pb.h"

namespace tracespec::prompt {

// The string literals of Java source text, unescaped (UTF-8). Literals in
// comments count too: the text is sent as it is.
std::set<std::string> JavaStringLiterals(absl::string_view source);

class StringDisclosure {
 public:
  static constexpr size_t kMinMaskedLength = 3;

  // `test_texts`: the test sources that go into the prompt.
  StringDisclosure(v1::StringDisclosure mode, const std::vector<std::string>& test_texts);

  // The alias of `value`, or "" when it may be shown as it is. With
  // `by_shape` (an argument of a method whose parameter names are unknown)
  // only ALL shows it. The empty string is always shown.
  std::string String(const std::string& value, bool by_shape = false);
  // The same for a char[] whose contents are `value` (UTF-8, `units` UTF-16
  // code units).
  std::string Chars(const std::string& value, int units, bool by_shape = false);
  // Whether String(value, by_shape) (or Chars) hides `value`: the one
  // rule, also for whoever must keep what the prompt hides from leaking
  // another way (agent/loop/withheld_verdicts.h).
  bool Hides(const std::string& value, bool by_shape = false) const {
    return !Shown(value, by_shape);
  }
  // `text` (e.g. a validator diagnostic) with every value aliased so far
  // replaced by its alias, longest first; values shorter than
  // kMinMaskedLength bytes are left (they would garble the text).
  std::string MaskText(std::string text) const;

 private:
  bool Shown(const std::string& value, bool by_shape) const;
  std::string Alias(char kind, const std::string& type, const std::string& value, int units);

  v1::StringDisclosure mode_;
  std::set<std::string> literals_;
  std::map<std::pair<char, std::string>, int> aliases_;
  // The alias text of every aliased value.
  std::map<std::string, std::string> rendered_;
  std::map<char, int> next_;
};

}  // namespace tracespec::prompt

#endif  // TRACESPEC_AGENT_PROMPT_DISCLOSURE_H_

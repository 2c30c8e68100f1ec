// Which recorded texts a prompt to a remote model shows as they are (the
// redaction policy's `string_disclosure`): under LITERALS_ONLY only those
// that occur as a string literal, or as the decimal text of an integer
// literal, in the test sources being sent, under ALL
// every one, under NONE none. A text is whatever one of the holders of
// text_holders.h holds — a String, char[], StringBuilder/StringBuffer,
// text-like byte[] or ByteBuffer, UUID, BigInteger, BigDecimal,
// Inet4Address or Inet6Address — and the rule is the same for all of
// them. The others are shown by shape as a stable alias,
// `<s3: String, 19 chars>`, `<s4: StringBuilder, 30 chars>`,
// `<c1: char[], 8 chars>`, `<b1: byte[], 17 bytes>`,
// `<b2: ByteBuffer, 64 bytes>`, `<u1: UUID>`,
// `<n1: BigInteger, 12 digits>`, `<a1: Inet4Address>`: equal texts of
// one alias family get the same number within one builder, so equality
// across observations and rounds is kept. A holder recorded only in part
// is always shown by shape.
#ifndef TRACESPEC_AGENT_PROMPT_DISCLOSURE_H_
#define TRACESPEC_AGENT_PROMPT_DISCLOSURE_H_

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "agent/prompt/text_holders.h"
#include "tracespec/v1/policy.pb.h"

namespace tracespec::prompt {

// The string literals of Java source text, unescaped (UTF-8). Literals in
// comments count too: the text is sent as it is.
std::set<std::string> JavaStringLiterals(absl::string_view source);

// The integer literals of Java source text (decimal, hex, octal, binary;
// underscores and an L suffix allowed) as decimal text, and with a '-'
// when a minus sign stands right before one: what a BigInteger, BigDecimal
// or string built from them reads as. Floating-point literals are not
// taken. Digits inside string literals and comments count too.
std::set<std::string> JavaIntegerLiterals(absl::string_view source);

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
  // The same for any holder of text (String and Chars are two of them).
  std::string Held(const HeldText& held, bool by_shape = false);
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

  v1::StringDisclosure mode_;
  std::set<std::string> literals_;
  std::map<std::pair<char, std::string>, int> aliases_;
  // The alias text of every aliased value.
  std::map<std::string, std::string> rendered_;
  std::map<char, int> next_;
};

}  // namespace tracespec::prompt

#endif  // TRACESPEC_AGENT_PROMPT_DISCLOSURE_H_

// Where a text (a test's source, a prompt) mentions a sensitive name
// (RedactionPolicy.sensitive_names) in a way that can carry sensitive
// data — what the text does with it, not merely that the word occurs.
// The text is read as Java-like code: comments, string, char and
// text-block literals, and code split into statements at `;`, `{` and `}`.
//
//   - In a comment or a literal (text someone wrote): any occurrence of
//     the name as whole words (common/name_words.h): "the password is".
//   - In code, identifiers holding the name as whole words that name the
//     thing (NameWords::NamesTheThing: `accessToken`, `TokenBucket`, not
//     `tokenExpiry` or `PasswordRules`), where a statement "spells data"
//     when it holds a string, char or text-block literal or a number
//     outside [-1024, 1024] (common/distinctive.h):
//       * a value — a variable, field, constant or a method called
//         (`password`, `API_TOKEN`, `vault.getToken()`) — counts, unless
//         it is known to hold a type no secret fits in (common/deny_rule.h:
//         not long) and its statement spells no data; known from its
//         declaration in the text (`int tokens = 5;`) or, not declared
//         there, from `plain_names` (fields recorded only with such types,
//         PlainValueNames);
//       * a type (`TokenBucket`, an upper-camel-case name) counts only
//         when its statement spells data;
//       * a method declared (`void takesTokens() {`) or referred to by id
//         (`budget.TokenBucketTest#takesTokens`) never counts: a test's
//         name says what it is about, its body what it does.
//     So `String token = fixture();`, `login(password)`,
//     `int salary = 81250;` and `new Password("x")` count;
//     `assertEquals(2, bucket.tokens)` (an int field) and
//     `new TokenBucket(5)` do not.
//   - `package` and `import` statements are not looked at.
#ifndef TRACESPEC_COMMON_SENSITIVE_MENTION_H_
#define TRACESPEC_COMMON_SENSITIVE_MENTION_H_

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "tracespec/v1/observation.pb.h"

namespace tracespec {

struct MentionSpan {
  size_t begin = 0;  // byte offsets in the text
  size_t end = 0;
};

// The first such mention of `name` in `text`, if any. `plain_names`
// (may be null): names known to hold values no secret fits in.
std::optional<MentionSpan> FindSensitiveMention(std::string_view text, std::string_view name,
                                                const std::set<std::string>* plain_names = nullptr);

// Names of the fields the observations recorded only with types no secret
// fits in (an `int tokens` budget): never also with another type, never
// withheld.
std::set<std::string> PlainValueNames(const std::vector<v1::Observation>& observations);

}  // namespace tracespec

#endif  // TRACESPEC_COMMON_SENSITIVE_MENTION_H_

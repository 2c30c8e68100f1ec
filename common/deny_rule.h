// Whether a deny rule of the redaction policy (RedactionPolicy.deny)
// withholds a value, decided from its name and its JVM type — the rule the
// probe applies to fields, parameters and results. Header-only and
// dependency-free so that the JVMTI probe shares it.
//
//   - An exact name ("pin", "ssn": no `*` or `?`) withholds a value of that
//     name, ignoring case, of any type.
//   - A word rule, `*WORD*` (letters and digits, perhaps with `_`, `-` or
//     spaces: "*key*", "*api_key*"), withholds a value whose name holds
//     WORD as whole words (common/name_words.h: `apiKey`, `SECRET_KEY`,
//     `accessTokens`, not `secretary`, `monkey`, `tokenize`), or as one
//     word glued to a word of SecretQualifiers() (`apikey`, `AUTHTOKEN`,
//     `passkey`: an all-lower-case name shows no boundaries) — and only
//     when
//       * its type can hold a secret: strings, arrays, objects and `long`;
//         not boolean, byte, short, char, int, float, double or their boxes
//         (an `int key` in a search, an `int tokens` budget);
//       * the name names the thing, not a fact about it: not when a last
//         word of NameWords::AttributeWords() follows the match
//         (`tokenExpiry`, `passwordLength`, `keyIndex`);
//     A String named just `key` may be a lookup key
//     (`Properties.getProperty(String key)`, a setting's name) but just as
//     often key material (`hmac(String message, String key)`), and the name
//     cannot tell them apart: it is withheld unless the tests disclose the
//     value (DeniedUnlessDisclosed: the probe records it when it is a
//     string literal of the test classes, which the tests' sources spell
//     out anyway; a value built at run time or read from elsewhere stays
//     withheld).
//   - Any other pattern ("secret*", "*_pwd") is a case-insensitive glob on
//     the whole name, for types that can hold a secret.
#ifndef TRACESPEC_COMMON_DENY_RULE_H_
#define TRACESPEC_COMMON_DENY_RULE_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/glob.h"
#include "common/name_words.h"

namespace tracespec {

// Types no secret fits in: primitives other than long, and their boxes.
inline bool CannotHoldSecret(std::string_view descriptor) {
  if (descriptor.size() == 1) return descriptor != "J";
  for (std::string_view box : {"Ljava/lang/Boolean;", "Ljava/lang/Byte;", "Ljava/lang/Short;",
                               "Ljava/lang/Character;", "Ljava/lang/Integer;",
                               "Ljava/lang/Float;", "Ljava/lang/Double;"}) {
    if (descriptor == box) return true;
  }
  return false;
}

// The word a rule `*WORD*` stands for (letters and digits, lower-case), or
// "" when the rule is not of that form.
inline std::string DenyRuleWord(std::string_view rule) {
  if (rule.size() < 3 || rule.front() != '*' || rule.back() != '*') return "";
  std::string_view middle = rule.substr(1, rule.size() - 2);
  for (char c : middle) {
    bool word_char = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' ||
                     c == ' ';
    if (!word_char) return "";
  }
  return NameWords::Letters(middle);
}

// Words that make a compound naming a secret when glued, without a
// boundary, to a rule's word: `apikey`, `authtoken`, `secretkey`,
// `dbpassword`. Words that merely end or start like one (`monkey`,
// `turkey`, `hotkey`, `secretary`, `tokenize`) are not compounds of them.
inline const std::vector<const char*>& SecretQualifiers() {
  static const std::vector<const char*> words = {
      "access", "admin",   "api",   "app",      "auth",   "aws",     "bearer",
      "client", "csrf",    "db",    "encryption", "hmac", "id",      "jwt",
      "key",    "login",   "master", "oauth",   "pass",   "password", "private",
      "refresh", "secret", "session", "signing", "token",  "user",    "xsrf"};
  return words;
}

// Whether one lower-case word is `word`, its plural, or `word` glued to a
// qualifier on either side (plural allowed).
inline bool WordIsOrGlues(const std::string& candidate, const std::string& word) {
  std::string_view c = candidate;
  if (c.size() > word.size() && c.back() == 's') c.remove_suffix(1);
  if (c == word || candidate == word) return true;
  for (const char* q : SecretQualifiers()) {
    std::string_view qualifier = q;
    if (c.size() != qualifier.size() + word.size()) continue;
    if (c.substr(0, qualifier.size()) == qualifier && c.substr(qualifier.size()) == word) return true;
    if (c.substr(0, word.size()) == word && c.substr(word.size()) == qualifier) return true;
  }
  return false;
}

// Where a word rule's `word` occurs in the name's words, if it does.
inline std::optional<NameWords::Span> FindDenyWord(const NameWords& name,
                                                   const std::string& word) {
  if (std::optional<NameWords::Span> at = name.Find(word)) return at;
  const std::vector<NameWords::Word>& words = name.words();
  for (size_t k = 0; k < words.size(); ++k) {
    if (WordIsOrGlues(words[k].lower, word)) {
      return NameWords::Span{words[k].begin, words[k].end, k, k};
    }
  }
  return std::nullopt;
}

// Words that name a secret and, just as often, a thing that is none: a
// String named just one of them is withheld only for want of evidence.
inline const std::vector<const char*>& AmbiguousDenyWords() {
  static const std::vector<const char*> words = {"key"};
  return words;
}

// Whether deny rule `rule`, which withholds a value named `name` of JVM
// type `descriptor` (DenyRuleApplies), does so only because the name
// cannot tell a secret from a thing that is none: a word rule whose word is
// one of AmbiguousDenyWords(), a String named just that word (`key`, `KEY`;
// not `apiKey`, `keys`, a `byte[] key`). Such a value is withheld unless
// the tests disclose it; an exact-name rule (`deny: "key"`) withholds it
// always.
inline bool DeniedUnlessDisclosed(std::string_view rule, std::string_view name,
                                  std::string_view descriptor) {
  if (descriptor != "Ljava/lang/String;") return false;
  const std::string word = DenyRuleWord(rule);
  if (word.empty() || NameWords::Letters(name) != word) return false;
  for (const char* ambiguous : AmbiguousDenyWords()) {
    if (word == ambiguous) return true;
  }
  return false;
}

// Whether deny rule `rule` withholds a value named `name` (a field,
// parameter, or a method for its result) of JVM type `descriptor`.
inline bool DenyRuleApplies(std::string_view rule, std::string_view name,
                            std::string_view descriptor) {
  if (!IsGlobPattern(rule)) return GlobMatch(rule, name, /*ignore_case=*/true);
  if (CannotHoldSecret(descriptor)) return false;
  const std::string word = DenyRuleWord(rule);
  if (word.empty()) return GlobMatch(rule, name, /*ignore_case=*/true);
  NameWords words(name);
  std::optional<NameWords::Span> at = FindDenyWord(words, word);
  return at.has_value() && words.NamesTheThing(*at);
}

}  // namespace tracespec

#endif  // TRACESPEC_COMMON_DENY_RULE_H_

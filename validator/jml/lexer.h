// Lexer for JML annotations and the Java text around them. It finds JML
// annotation comments (//@ ..., /*@ ... @*/, and the keyed forms //+KEY@,
// //-KEY@), strips their markers and leading '@'s, and produces one token
// stream in which every token knows whether it is JML and which annotation
// comment run it came from. Malformed input never stops the lexer: it emits
// a kError token (carrying the message) and continues.
#ifndef TRACESPEC_VALIDATOR_JML_LEXER_H_
#define TRACESPEC_VALIDATOR_JML_LEXER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "validator/jml/span.h"

namespace tracespec::jml {

enum class TokenKind {
  kEnd,            // end of input (always the last token); `text` may say "end of annotation"
  kError,          // malformed input; `text` holds the message
  kIdentifier,     // Java identifiers and keywords alike (the parser tells them apart)
  kBackslashWord,  // JML \result, \forall, ... (`text` includes the backslash)
  kIntLiteral,
  kLongLiteral,
  kFloatLiteral,
  kDoubleLiteral,
  kCharLiteral,
  kStringLiteral,  // also text blocks
  kOperator,       // punctuation and operators, `text` is the operator
  kInformal,       // JML informal description (* ... *); `text` is the inside, trimmed
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;  // as written (see TokenKind for exceptions)
  SourceSpan span;
  // True for tokens inside an annotation comment, and for every token of a
  // .jml file or of a bare specification text.
  bool jml = false;
  // Consecutive annotation comments separated only by whitespace and plain
  // comments share a run number (> 0); 0 outside annotation comments.
  int run = 0;
  // Literal values. Integers are stored as two's-complement bits; chars as
  // their UTF-16 code unit.
  uint64_t int_value = 0;
  float float_value = 0;
  double double_value = 0;
  std::u16string string_value;
  // 2147483648 or 9223372036854775808L: legal only as the operand of unary minus.
  bool needs_minus = false;

  bool Is(TokenKind k, absl::string_view t) const { return kind == k && text == t; }
  bool IsOp(absl::string_view op) const { return kind == TokenKind::kOperator && text == op; }
  bool IsIdent(absl::string_view word) const {
    return kind == TokenKind::kIdentifier && text == word;
  }
};

enum class LexMode {
  kJava,      // Java source: JML only inside annotation comments
  kJmlFile,   // .jml specification file: JML everywhere
  kSpecText,  // a bare specification text: JML everywhere
};

struct LexOptions {
  LexMode mode = LexMode::kJava;
  // Keys enabling //+KEY@ annotations and disabling //-KEY@ ones. With no
  // keys, //+KEY@ comments are plain comments and //-KEY@ ones are JML.
  std::vector<std::string> enabled_keys;
};

// Tokenizes `text`; the result always ends with a kEnd token.
std::vector<Token> Lex(std::shared_ptr<const std::string> file, absl::string_view text,
                       const LexOptions& options = {});

// A token for diagnostics: "'requires'", "end of input", "integer literal 12".
std::string DescribeToken(const Token& token);

// Appends the UTF-16 encoding of code point `cp` to `out`.
void AppendUtf16(char32_t cp, std::u16string* out);
// UTF-8 encoding of a UTF-16 string (unpaired surrogates become U+FFFD).
std::string Utf16ToUtf8(const std::u16string& s);

}  // namespace tracespec::jml

#endif  // TRACESPEC_VALIDATOR_JML_LEXER_H_

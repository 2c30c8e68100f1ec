// JML/Java lexer; see lexer.h. Literal rules follow the Java Language
// Specification §3.10 (underscores, octal/hex/binary integers, hexadecimal
// floating point, escapes, text blocks); JML's annotation comment markers
// and operators follow the JML Reference Manual §4.
#include "validator/jml/lexer.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace tracespec::jml {

void AppendUtf16(char32_t cp, std::u16string* out) {
  if (cp < 0x10000) {
    out->push_back(static_cast<char16_t>(cp));
  } else {
    cp -= 0x10000;
    out->push_back(static_cast<char16_t>(0xD800 + (cp >> 10)));
    out->push_back(static_cast<char16_t>(0xDC00 + (cp & 0x3FF)));
  }
}

std::string Utf16ToUtf8(const std::u16string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    char32_t cp = s[i];
    if (cp >= 0xD800 && cp < 0xDC00 && i + 1 < s.size() && s[i + 1] >= 0xDC00 &&
        s[i + 1] < 0xE000) {
      cp = 0x10000 + ((cp - 0xD800) << 10) + (s[i + 1] - 0xDC00);
      ++i;
    } else if (cp >= 0xD800 && cp < 0xE000) {
      cp = 0xFFFD;
    }
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  return out;
}

std::string DescribeToken(const Token& token) {
  switch (token.kind) {
    case TokenKind::kEnd:
      return token.text.empty() ? "end of input" : token.text;
    case TokenKind::kError:
      return "malformed input";
    case TokenKind::kInformal:
      return "informal description";
    case TokenKind::kStringLiteral:
      return "string literal";
    case TokenKind::kCharLiteral:
      return "character literal";
    case TokenKind::kIntLiteral:
    case TokenKind::kLongLiteral:
    case TokenKind::kFloatLiteral:
    case TokenKind::kDoubleLiteral:
      return absl::StrCat("number ", token.text);
    default:
      return absl::StrCat("'", token.text, "'");
  }
}

namespace {

bool IsIdentStart(unsigned char c) {
  return absl::ascii_isalpha(c) || c == '_' || c == '$' || c >= 0x80;
}
bool IsIdentPart(unsigned char c) { return IsIdentStart(c) || absl::ascii_isdigit(c); }

// Operators, longest first within each shared prefix. JML-only ones are
// recognised only in JML context.
constexpr const char* kJmlOperators[] = {"<=!=>", "<==>", "==>", "<==", "<:", "{|", "|}"};
constexpr const char* kJavaOperators[] = {
    ">>>=", "<<=", ">>=", ">>>", "...", "->", "::", "++", "--", "&&", "||", "==", "!=",
    "<=",   ">=",  "+=",  "-=",  "*=",  "/=", "%=", "&=", "|=", "^=", "<<", ">>"};
constexpr char kSingleOperators[] = "(){}[];,.@=<>!~?:+-*/&|^%";

class Lexer {
 public:
  Lexer(std::shared_ptr<const std::string> file, absl::string_view text, const LexOptions& options)
      : file_(std::move(file)), text_(text), options_(options) {}

  std::vector<Token> Run() {
    while (true) {
      SkipTrivia();
      if (pos_ >= text_.size()) break;
      LexToken();
    }
    if (annotation_ == Annotation::kBlock) {
      Error(annotation_start_line_, annotation_start_column_, "unterminated annotation comment");
    }
    Token end;
    end.kind = TokenKind::kEnd;
    end.span = SpanFrom(line_, column_);
    end.jml = options_.mode != LexMode::kJava;
    tokens_.push_back(std::move(end));
    return std::move(tokens_);
  }

 private:
  enum class Annotation { kNone, kLine, kBlock };

  char Peek(size_t k = 0) const { return pos_ + k < text_.size() ? text_[pos_ + k] : '\0'; }
  bool LookingAt(absl::string_view s) const { return text_.substr(pos_, s.size()) == s; }

  void Advance(size_t n = 1) {
    for (size_t i = 0; i < n && pos_ < text_.size(); ++i) {
      unsigned char c = text_[pos_++];
      if (c == '\n') {
        ++line_;
        column_ = 1;
      } else if ((c & 0xC0) != 0x80) {
        ++column_;
      }
    }
  }

  SourceSpan SpanFrom(int line, int column) const {
    SourceSpan s;
    s.file = file_;
    s.line = line;
    s.column = column;
    s.end_line = line_;
    s.end_column = column_;
    return s;
  }

  bool InJml() const { return annotation_ != Annotation::kNone || options_.mode != LexMode::kJava; }

  Token& Emit(TokenKind kind, std::string text, int line, int column) {
    Token t;
    t.kind = kind;
    t.text = std::move(text);
    t.span = SpanFrom(line, column);
    t.jml = InJml();
    t.run = annotation_ != Annotation::kNone ? run_ : 0;
    if (annotation_ == Annotation::kNone) code_since_annotation_ = true;
    tokens_.push_back(std::move(t));
    return tokens_.back();
  }

  void Error(int line, int column, std::string message) {
    Emit(TokenKind::kError, std::move(message), line, column);
  }

  bool KeyEnabled(absl::string_view key) const {
    return std::find(options_.enabled_keys.begin(), options_.enabled_keys.end(), key) !=
           options_.enabled_keys.end();
  }

  // At "//" or "/*": if an active annotation marker follows, returns the
  // number of bytes of the marker (comment opener, keys and '@'s); else 0.
  size_t AnnotationMarker() const {
    size_t p = pos_ + 2;
    bool positive_key = false, positive_enabled = false, negative_enabled = false;
    while (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) {
      char sign = text_[p++];
      size_t start = p;
      while (p < text_.size() && (absl::ascii_isalnum(text_[p]) || text_[p] == '_')) ++p;
      absl::string_view key = text_.substr(start, p - start);
      if (key.empty()) continue;
      if (sign == '+') {
        positive_key = true;
        if (KeyEnabled(key)) positive_enabled = true;
      } else if (KeyEnabled(key)) {
        negative_enabled = true;
      }
    }
    if (p >= text_.size() || text_[p] != '@') return 0;
    if ((positive_key && !positive_enabled) || negative_enabled) return 0;
    while (p < text_.size() && text_[p] == '@') ++p;
    return p - pos_;
  }

  void EnterAnnotation(Annotation kind) {
    if (run_ == 0 || code_since_annotation_) ++run_;
    code_since_annotation_ = false;
    annotation_start_line_ = line_;
    annotation_start_column_ = column_;
    annotation_ = kind;
  }

  // Whitespace, comments, annotation markers, the '@'s that start lines of
  // block annotations and their closing "@*/".
  void SkipTrivia() {
    bool line_start = false;
    while (pos_ < text_.size()) {
      char c = Peek();
      if (c == '\n') {
        Advance();
        if (annotation_ == Annotation::kLine) annotation_ = Annotation::kNone;
        line_start = annotation_ == Annotation::kBlock;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        Advance();
        continue;
      }
      if (annotation_ == Annotation::kBlock) {
        if (c == '@') {
          size_t p = pos_;
          while (p < text_.size() && text_[p] == '@') ++p;
          if (line_start || text_.substr(p, 2) == "*/") {
            Advance(p - pos_);
            continue;
          }
        }
        if (LookingAt("*/")) {
          Advance(2);
          annotation_ = Annotation::kNone;
          continue;
        }
      }
      line_start = false;
      if (LookingAt("//")) {
        size_t marker = annotation_ == Annotation::kNone ? AnnotationMarker() : 0;
        if (marker > 0) {
          EnterAnnotation(Annotation::kLine);
          Advance(marker);
          continue;
        }
        // A plain line comment (it also ends a // annotation at the newline;
        // inside a block annotation it stops at "*/").
        while (pos_ < text_.size() && Peek() != '\n') {
          if (annotation_ == Annotation::kBlock && LookingAt("*/")) break;
          Advance();
        }
        continue;
      }
      if (LookingAt("/*")) {
        size_t marker = annotation_ == Annotation::kNone ? AnnotationMarker() : 0;
        if (marker > 0) {
          EnterAnnotation(Annotation::kBlock);
          Advance(marker);
          line_start = false;
          continue;
        }
        int line = line_, column = column_;
        Advance(2);
        while (pos_ < text_.size() && !LookingAt("*/")) Advance();
        if (pos_ >= text_.size()) {
          Error(line, column, "unterminated comment");
          return;
        }
        Advance(2);
        // A plain comment's "*/" cannot also close the enclosing annotation,
        // so a block comment inside a block annotation ends that annotation.
        if (annotation_ == Annotation::kBlock) annotation_ = Annotation::kNone;
        continue;
      }
      break;
    }
  }

  void LexToken() {
    int line = line_, column = column_;
    unsigned char c = Peek();
    if (IsIdentStart(c)) {
      size_t start = pos_;
      while (pos_ < text_.size() && IsIdentPart(Peek())) Advance();
      Emit(TokenKind::kIdentifier, std::string(text_.substr(start, pos_ - start)), line, column);
      return;
    }
    if (c == '\\') {
      size_t start = pos_;
      Advance();
      while (pos_ < text_.size() && (absl::ascii_isalnum(Peek()) || Peek() == '_')) Advance();
      if (!InJml()) {
        Error(line, column, "unexpected '\\' outside a JML annotation");
        return;
      }
      if (pos_ == start + 1) {
        Error(line, column, "'\\' must start a JML keyword such as \\result");
        return;
      }
      Emit(TokenKind::kBackslashWord, std::string(text_.substr(start, pos_ - start)), line, column);
      return;
    }
    if (absl::ascii_isdigit(c) || (c == '.' && absl::ascii_isdigit(Peek(1)))) {
      LexNumber();
      return;
    }
    if (c == '\'') {
      LexChar();
      return;
    }
    if (c == '"') {
      if (LookingAt("\"\"\"")) {
        LexTextBlock();
      } else {
        LexString();
      }
      return;
    }
    if (InJml() && LookingAt("(*")) {
      Advance(2);
      size_t start = pos_;
      while (pos_ < text_.size() && !LookingAt("*)")) {
        if (annotation_ == Annotation::kLine && Peek() == '\n') break;
        if (annotation_ == Annotation::kBlock && LookingAt("*/")) break;
        Advance();
      }
      if (!LookingAt("*)")) {
        Error(line, column, "unterminated informal description '(*'");
        return;
      }
      std::string inside(absl::StripAsciiWhitespace(text_.substr(start, pos_ - start)));
      Advance(2);
      Emit(TokenKind::kInformal, std::move(inside), line, column);
      return;
    }
    if (InJml()) {
      for (const char* op : kJmlOperators) {
        if (LookingAt(op)) {
          Advance(std::strlen(op));
          Emit(TokenKind::kOperator, op, line, column);
          return;
        }
      }
    }
    for (const char* op : kJavaOperators) {
      if (LookingAt(op)) {
        Advance(std::strlen(op));
        Emit(TokenKind::kOperator, op, line, column);
        return;
      }
    }
    if (InJml() && LookingAt("..")) {
      Advance(2);
      Emit(TokenKind::kOperator, "..", line, column);
      return;
    }
    if (c != '\0' && std::strchr(kSingleOperators, c) != nullptr) {
      Advance();
      Emit(TokenKind::kOperator, std::string(1, c), line, column);
      return;
    }
    Advance();
    // Skip the rest of a multi-byte character so that one error is reported.
    while (pos_ < text_.size() && (static_cast<unsigned char>(Peek()) & 0xC0) == 0x80) Advance();
    std::string shown =
        absl::ascii_isprint(c) ? std::string(1, c) : absl::StrCat("\\x", absl::Hex(c));
    Error(line, column, absl::StrCat("unexpected character '", shown, "'"));
  }

  // Reads digits of `radix` (and underscores) into `*digits`; returns false
  // when an underscore is misplaced (leading or trailing).
  bool ReadDigits(int radix, std::string* digits) {
    size_t start = pos_;
    while (pos_ < text_.size()) {
      char ch = Peek();
      bool ok = ch == '_' || (radix == 16 ? absl::ascii_isxdigit(ch) : absl::ascii_isdigit(ch));
      if (!ok) break;
      Advance();
    }
    absl::string_view raw = text_.substr(start, pos_ - start);
    if (!raw.empty() && (raw.front() == '_' || raw.back() == '_')) return false;
    for (char ch : raw) {
      if (ch != '_') digits->push_back(ch);
    }
    return true;
  }

  void LexNumber() {
    int line = line_, column = column_;
    size_t start = pos_;
    bool bad_underscore = false;
    auto fail = [&](const std::string& message) {
      while (pos_ < text_.size() && (IsIdentPart(Peek()) || Peek() == '.')) {
        if (Peek() == '.' && Peek(1) == '.') break;
        Advance();
      }
      Error(line, column, message);
    };

    if (Peek() == '0' && (Peek(1) == 'x' || Peek(1) == 'X')) {
      Advance(2);
      std::string mantissa, fraction;
      if (Peek() == '_') return fail("illegal underscore after '0x'");
      bad_underscore |= !ReadDigits(16, &mantissa);
      bool is_float = false;
      if (Peek() == '.' && Peek(1) != '.') {
        is_float = true;
        Advance();
        bad_underscore |= !ReadDigits(16, &fraction);
      }
      if (Peek() == 'p' || Peek() == 'P') {
        is_float = true;
      } else if (is_float) {
        return fail("malformed hexadecimal floating-point literal: missing 'p' exponent");
      }
      if (bad_underscore) return fail("illegal underscore in number");
      if (is_float) {
        if (mantissa.empty() && fraction.empty()) return fail("hexadecimal literal has no digits");
        Advance();
        std::string exponent;
        if (Peek() == '+' || Peek() == '-') {
          exponent.push_back(Peek());
          Advance();
        }
        size_t before = exponent.size();
        if (!ReadDigits(10, &exponent) || exponent.size() == before) {
          return fail("malformed exponent in hexadecimal floating-point literal");
        }
        std::string body =
            absl::StrCat(mantissa.empty() ? "0" : mantissa, ".", fraction, "p", exponent);
        return FinishFloat(body, std::chars_format::hex, start, line, column, fail);
      }
      if (mantissa.empty()) return fail("hexadecimal literal has no digits");
      return FinishInteger(mantissa, 16, start, line, column, fail);
    }
    if (Peek() == '0' && (Peek(1) == 'b' || Peek(1) == 'B')) {
      Advance(2);
      std::string digits;
      if (Peek() == '_') return fail("illegal underscore after '0b'");
      if (!ReadDigits(10, &digits)) return fail("illegal underscore in number");
      if (digits.empty()) return fail("binary literal has no digits");
      for (char d : digits) {
        if (d != '0' && d != '1')
          return fail(absl::StrCat("illegal digit '", std::string(1, d), "' in binary literal"));
      }
      return FinishInteger(digits, 2, start, line, column, fail);
    }

    std::string whole, fraction, exponent;
    bad_underscore |= !ReadDigits(10, &whole);
    bool is_float = false;
    if (Peek() == '.' && Peek(1) != '.' &&
        !(IsIdentStart(Peek(1)) && Peek(1) != 'e' && Peek(1) != 'E' && Peek(1) != 'f' &&
          Peek(1) != 'F' && Peek(1) != 'd' && Peek(1) != 'D')) {
      is_float = true;
      Advance();
      if (Peek() == '_') bad_underscore = true;
      bad_underscore |= !ReadDigits(10, &fraction);
    }
    if (Peek() == 'e' || Peek() == 'E') {
      is_float = true;
      Advance();
      if (Peek() == '+' || Peek() == '-') {
        exponent.push_back(Peek());
        Advance();
      }
      size_t before = exponent.size();
      if (Peek() == '_' || !ReadDigits(10, &exponent) || exponent.size() == before) {
        return fail("malformed exponent in floating-point literal");
      }
    }
    char suffix = Peek();
    bool float_suffix = suffix == 'f' || suffix == 'F' || suffix == 'd' || suffix == 'D';
    if (bad_underscore) return fail("illegal underscore in number");
    if (is_float || float_suffix) {
      if (whole.empty() && fraction.empty()) return fail("malformed number");
      std::string body =
          absl::StrCat(whole.empty() ? "0" : whole, ".", fraction.empty() ? "0" : fraction);
      if (!exponent.empty()) absl::StrAppend(&body, "e", exponent);
      return FinishFloat(body, std::chars_format::general, start, line, column, fail);
    }
    if (whole.size() > 1 && whole[0] == '0') {
      for (char d : whole) {
        if (d > '7')
          return fail(absl::StrCat("illegal digit '", std::string(1, d), "' in octal literal"));
      }
      return FinishInteger(whole.substr(1), 8, start, line, column, fail);
    }
    FinishInteger(whole, 10, start, line, column, fail);
  }

  template <typename Fail>
  void FinishInteger(const std::string& digits, int radix, size_t start, int line, int column,
                     Fail fail) {
    bool is_long = Peek() == 'l' || Peek() == 'L';
    if (is_long) Advance();
    if (pos_ < text_.size() && IsIdentPart(Peek())) return fail("invalid character in number");
    // Accumulate with overflow detection; decimal literals are magnitudes
    // (the sign is a separate unary minus), the others are bit patterns.
    unsigned __int128 value = 0;
    for (char d : digits) {
      int v = absl::ascii_isdigit(d) ? d - '0' : absl::ascii_tolower(d) - 'a' + 10;
      value = value * radix + v;
      if (value > (static_cast<unsigned __int128>(1) << 64)) break;
    }
    bool needs_minus = false;
    if (radix == 10) {
      unsigned __int128 limit = is_long ? (static_cast<unsigned __int128>(1) << 63) : (1ull << 31);
      if (value > limit)
        return fail(is_long ? "long number too large" : "integer number too large");
      needs_minus = value == limit;
    } else {
      unsigned __int128 limit = is_long ? (static_cast<unsigned __int128>(1) << 64) : (1ull << 32);
      if (value >= limit)
        return fail(is_long ? "long number too large" : "integer number too large");
    }
    Token& t = Emit(is_long ? TokenKind::kLongLiteral : TokenKind::kIntLiteral,
                    std::string(text_.substr(start, pos_ - start)), line, column);
    uint64_t bits = static_cast<uint64_t>(value);
    if (!is_long)
      bits = static_cast<uint64_t>(
          static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(bits))));
    t.int_value = bits;
    t.needs_minus = needs_minus;
  }

  template <typename Fail>
  void FinishFloat(const std::string& body, std::chars_format format, size_t start, int line,
                   int column, Fail fail) {
    bool is_float = Peek() == 'f' || Peek() == 'F';
    if (is_float || Peek() == 'd' || Peek() == 'D') Advance();
    if (pos_ < text_.size() && IsIdentPart(Peek())) return fail("invalid character in number");
    const char* b = body.data();
    const char* e = b + body.size();
    float f = 0;
    double d = 0;
    std::from_chars_result r =
        is_float ? std::from_chars(b, e, f, format) : std::from_chars(b, e, d, format);
    if (r.ec == std::errc::result_out_of_range) {
      return fail(is_float ? "floating-point number out of the range of float"
                           : "floating-point number out of the range of double");
    }
    if (r.ec != std::errc() || r.ptr != e) return fail("malformed floating-point literal");
    Token& t = Emit(is_float ? TokenKind::kFloatLiteral : TokenKind::kDoubleLiteral,
                    std::string(text_.substr(start, pos_ - start)), line, column);
    t.float_value = f;
    t.double_value = is_float ? static_cast<double>(f) : d;
  }

  // Decodes one UTF-8 code point at pos_ (advancing); -1 on invalid input.
  int32_t ReadCodePoint() {
    unsigned char c = Peek();
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || pos_ + len > text_.size()) {
      Advance();
      return -1;
    }
    int32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    for (int i = 1; i < len; ++i) {
      unsigned char cc = text_[pos_ + i];
      if ((cc & 0xC0) != 0x80) {
        Advance();
        return -1;
      }
      cp = (cp << 6) | (cc & 0x3F);
    }
    Advance(len);
    return cp;
  }

  // After a backslash: decodes one escape sequence into `out`. Returns an
  // error message, or "" on success. `text_block` allows \<line terminator>.
  std::string ReadEscape(std::u16string* out, bool text_block) {
    char c = Peek();
    const char* simple = "btnfrs\"'\\";
    const char16_t values[] = {u'\b', u'\t', u'\n', u'\f', u'\r', u' ', u'"', u'\'', u'\\'};
    if (const char* p = std::strchr(simple, c); p != nullptr && c != '\0') {
      Advance();
      out->push_back(values[p - simple]);
      return "";
    }
    if (c >= '0' && c <= '7') {
      int max_digits = c <= '3' ? 3 : 2;
      int value = 0;
      for (int i = 0; i < max_digits && Peek() >= '0' && Peek() <= '7'; ++i) {
        value = value * 8 + (Peek() - '0');
        Advance();
      }
      out->push_back(static_cast<char16_t>(value));
      return "";
    }
    if (c == 'u') {
      while (Peek() == 'u') Advance();
      int value = 0;
      for (int i = 0; i < 4; ++i) {
        if (!absl::ascii_isxdigit(Peek())) return "illegal unicode escape";
        char h = absl::ascii_tolower(Peek());
        value = value * 16 + (absl::ascii_isdigit(h) ? h - '0' : h - 'a' + 10);
        Advance();
      }
      out->push_back(static_cast<char16_t>(value));
      return "";
    }
    if (text_block && (c == '\n' || c == '\r')) {
      if (c == '\r' && Peek(1) == '\n') Advance();
      Advance();
      return "";
    }
    return "illegal escape character in literal";
  }

  void LexChar() {
    int line = line_, column = column_;
    size_t start = pos_;
    Advance();
    std::u16string value;
    if (Peek() == '\'') {
      Advance();
      return Error(line, column, "empty character literal");
    }
    if (Peek() == '\n' || pos_ >= text_.size())
      return Error(line, column, "unterminated character literal");
    std::string error;
    if (Peek() == '\\') {
      Advance();
      error = ReadEscape(&value, false);
    } else {
      int32_t cp = ReadCodePoint();
      if (cp < 0) {
        error = "invalid UTF-8 in character literal";
      } else if (cp > 0xFFFF) {
        error = "character literal holds a supplementary character; use a string";
      } else {
        value.push_back(static_cast<char16_t>(cp));
      }
    }
    if (error.empty() && Peek() != '\'') error = "unclosed character literal";
    if (!error.empty()) {
      while (pos_ < text_.size() && Peek() != '\'' && Peek() != '\n') Advance();
      if (Peek() == '\'') Advance();
      return Error(line, column, error);
    }
    Advance();
    Token& t =
        Emit(TokenKind::kCharLiteral, std::string(text_.substr(start, pos_ - start)), line, column);
    t.int_value = value[0];
    t.string_value = value;
  }

  // Decodes the inside of a string literal or text block into UTF-16;
  // returns the first error, or "".
  std::string DecodeLiteral(absl::string_view content, bool text_block, std::u16string* out) const {
    Lexer inner(file_, content, options_);
    std::string error;
    while (inner.pos_ < content.size()) {
      std::string e;
      if (inner.Peek() == '\\') {
        inner.Advance();
        e = inner.ReadEscape(out, text_block);
      } else if (int32_t cp = inner.ReadCodePoint(); cp >= 0) {
        AppendUtf16(static_cast<char32_t>(cp), out);
      } else {
        e = "invalid UTF-8 in string literal";
      }
      if (error.empty()) error = e;
    }
    return error;
  }

  void LexString() {
    int line = line_, column = column_;
    size_t start = pos_;
    Advance();
    size_t content_start = pos_;
    while (true) {
      bool end_of_line = pos_ >= text_.size() || Peek() == '\n' || Peek() == '\r';
      if (end_of_line || (annotation_ == Annotation::kBlock && LookingAt("*/"))) {
        return Error(line, column, "unterminated string literal");
      }
      if (Peek() == '"') break;
      if (Peek() == '\\' && Peek(1) != '\n' && Peek(1) != '\r' && pos_ + 1 < text_.size())
        Advance();
      Advance();
    }
    absl::string_view content = text_.substr(content_start, pos_ - content_start);
    Advance();
    std::u16string value;
    std::string error = DecodeLiteral(content, /*text_block=*/false, &value);
    if (!error.empty()) return Error(line, column, error);
    Token& t = Emit(TokenKind::kStringLiteral, std::string(text_.substr(start, pos_ - start)), line,
                    column);
    t.string_value = std::move(value);
  }

  // Java 15 text blocks (JLS §3.10.6): strip incidental indentation and
  // trailing spaces, then interpret escapes.
  void LexTextBlock() {
    int line = line_, column = column_;
    size_t start = pos_;
    Advance(3);
    while (Peek() == ' ' || Peek() == '\t' || Peek() == '\f') Advance();
    if (Peek() == '\r') Advance();
    if (Peek() != '\n')
      return Error(line, column, "text block must start with a line break after '\"\"\"'");
    Advance();
    size_t content_start = pos_;
    while (pos_ < text_.size() && !LookingAt("\"\"\"")) {
      if (Peek() == '\\') Advance();
      Advance();
    }
    if (pos_ >= text_.size()) return Error(line, column, "unterminated text block");
    std::string raw(text_.substr(content_start, pos_ - content_start));
    Advance(3);
    std::vector<std::string> lines;
    size_t p = 0;
    while (true) {
      size_t nl = raw.find('\n', p);
      std::string l = raw.substr(p, nl == std::string::npos ? std::string::npos : nl - p);
      if (!l.empty() && l.back() == '\r') l.pop_back();
      lines.push_back(l);
      if (nl == std::string::npos) break;
      p = nl + 1;
    }
    auto blank = [](const std::string& s) {
      return std::all_of(s.begin(), s.end(),
                         [](char ch) { return ch == ' ' || ch == '\t' || ch == '\f'; });
    };
    size_t indent = std::string::npos;
    for (size_t i = 0; i < lines.size(); ++i) {
      bool last = i + 1 == lines.size();
      if (blank(lines[i]) && !last) continue;
      size_t n = 0;
      while (n < lines[i].size() &&
             (lines[i][n] == ' ' || lines[i][n] == '\t' || lines[i][n] == '\f'))
        ++n;
      indent = std::min(indent, n);
    }
    if (indent == std::string::npos) indent = 0;
    std::string stripped;
    for (size_t i = 0; i < lines.size(); ++i) {
      std::string l = blank(lines[i]) ? "" : lines[i].substr(std::min(indent, lines[i].size()));
      while (!l.empty() && (l.back() == ' ' || l.back() == '\t' || l.back() == '\f')) l.pop_back();
      stripped += l;
      if (i + 1 < lines.size()) stripped += '\n';
    }
    std::u16string value;
    std::string error = DecodeLiteral(stripped, /*text_block=*/true, &value);
    if (!error.empty()) return Error(line, column, error);
    Token& t = Emit(TokenKind::kStringLiteral, std::string(text_.substr(start, pos_ - start)), line,
                    column);
    t.string_value = std::move(value);
  }

  std::shared_ptr<const std::string> file_;
  absl::string_view text_;
  const LexOptions& options_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
  Annotation annotation_ = Annotation::kNone;
  int annotation_start_line_ = 0;
  int annotation_start_column_ = 0;
  int run_ = 0;
  bool code_since_annotation_ = true;
  std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> Lex(std::shared_ptr<const std::string> file, absl::string_view text,
                       const LexOptions& options) {
  return Lexer(std::move(file), text, options).Run();
}

}  // namespace tracespec::jml

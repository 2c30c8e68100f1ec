// Winnowed token fingerprints; see fingerprint.h.
#include "agent/gateway/fingerprint.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/files.h"

namespace tracespec::gateway {
namespace {

struct Token {
  uint64_t hash;
  size_t begin;
  size_t end;
};

bool IsWordChar(unsigned char c) { return std::isalnum(c) || c == '_' || c == '$' || c >= 0x80; }

uint64_t Fnv1a(absl::string_view text) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

uint64_t Mix(uint64_t x) {  // splitmix64 finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

// Java's reserved words and literals: they keep their own token; every
// other identifier is one and the same token, so that renaming a local, a
// field or a parameter (by hand or by --anonymize) changes nothing.
bool IsJavaKeyword(absl::string_view word) {
  static const auto* const kKeywords = new std::set<std::string, std::less<>>{
      "abstract", "assert",     "boolean",   "break",      "byte",      "case",
      "catch",    "char",       "class",     "const",      "continue",  "default",
      "do",       "double",     "else",      "enum",       "extends",   "final",
      "finally",  "float",      "for",       "goto",       "if",        "implements",
      "import",   "instanceof", "int",       "interface",  "long",      "native",
      "new",      "package",    "private",   "protected",  "public",    "return",
      "short",    "static",     "strictfp",  "super",      "switch",    "synchronized",
      "this",     "throw",      "throws",    "transient",  "try",       "void",
      "volatile", "while",      "var",       "record",     "yield",     "true",
      "false",    "null"};
  return kKeywords->find(word) != kKeywords->end();
}

// How comments are treated.
enum class Comments {
  kSkip,          // skipped with their text (string and char literals honoured)
  kKeepText,      // only the markers are dropped; what is inside counts as code
  kSkipComplete,  // `/* ... */` skipped when it is closed, `//` up to the line end
};

// Splits text into word tokens and single non-blank characters; every
// identifier that is not a keyword gets the same hash.
std::vector<Token> Tokenize(absl::string_view text, Comments comments) {
  static const uint64_t kIdentifier = Fnv1a("\x01identifier");
  std::vector<Token> tokens;
  size_t i = 0;
  char in_literal = 0;
  bool escaped = false;
  const bool track_literals = comments == Comments::kSkip;
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (in_literal == 0 && c == '/' && i + 1 < text.size() &&
        (text[i + 1] == '/' || text[i + 1] == '*')) {
      if (comments == Comments::kKeepText) {
        i += 2;
        continue;
      }
      if (text[i + 1] == '/') {
        size_t end = text.find('\n', i);
        i = end == absl::string_view::npos ? text.size() : end;
        continue;
      }
      size_t end = text.find("*/", i + 2);
      if (end != absl::string_view::npos) {
        i = end + 2;
        continue;
      }
      if (comments == Comments::kSkip) {
        i = text.size();
        continue;
      }
    }
    if (comments == Comments::kKeepText && c == '*' && i + 1 < text.size() && text[i + 1] == '/') {
      i += 2;
      continue;
    }
    if (std::isspace(c)) {
      ++i;
      continue;
    }
    size_t j = i + 1;
    if (IsWordChar(c)) {
      while (j < text.size() && IsWordChar(static_cast<unsigned char>(text[j]))) ++j;
    }
    absl::string_view word = text.substr(i, j - i);
    bool identifier = !std::isdigit(c) && IsWordChar(c) && !IsJavaKeyword(word);
    tokens.push_back({identifier ? kIdentifier : Fnv1a(word), i, j});
    if (track_literals) {  // so that "//" inside a literal is no comment
      if (in_literal != 0) {
        if (c == '\\') {
          escaped = !escaped;
        } else {
          if (c == static_cast<unsigned char>(in_literal) && !escaped) in_literal = 0;
          escaped = false;
        }
      } else if (c == '"' || c == '\'') {
        in_literal = static_cast<char>(c);
      }
    }
    i = j;
  }
  return tokens;
}

// Drops `package ...;` and `import ...;` declarations.
std::vector<Token> DropDeclarations(std::vector<Token> tokens) {
  static const uint64_t kPackage = Fnv1a("package");
  static const uint64_t kImport = Fnv1a("import");
  static const uint64_t kSemicolon = Fnv1a(";");
  std::vector<Token> out;
  bool statement_start = true;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (statement_start && (t.hash == kPackage || t.hash == kImport)) {
      while (i < tokens.size() && tokens[i].hash != kSemicolon) ++i;
      continue;  // statement_start stays true after the ';'
    }
    statement_start = t.hash == kSemicolon;
    out.push_back(t);
  }
  return out;
}

std::vector<uint64_t> KGramHashes(const std::vector<Token>& tokens, int k) {
  std::vector<uint64_t> hashes;
  if (tokens.size() < static_cast<size_t>(k)) return hashes;
  for (size_t i = 0; i + k <= tokens.size(); ++i) {
    uint64_t h = 0;
    for (int j = 0; j < k; ++j) h = Mix(h ^ tokens[i + j].hash);
    hashes.push_back(h);
  }
  return hashes;
}

// The longest run of `tokens` covered by k-grams whose hash is a
// fingerprint, if it has at least min_matched_tokens tokens.
std::optional<CopiedText> LongestCopiedRun(
    const std::vector<Token>& tokens, const FingerprintOptions& options_,
    const std::unordered_map<uint64_t, size_t>& fingerprints_,
    const std::vector<std::string>& sources_) {
  std::vector<uint64_t> hashes = KGramHashes(tokens, options_.k);
  std::vector<int> source_of(tokens.size(), -1);
  for (size_t i = 0; i < hashes.size(); ++i) {
    auto it = fingerprints_.find(hashes[i]);
    if (it == fingerprints_.end()) continue;
    for (int j = 0; j < options_.k; ++j) {
      if (source_of[i + j] < 0) source_of[i + j] = static_cast<int>(it->second);
    }
  }
  std::optional<CopiedText> best;
  size_t i = 0;
  while (i < tokens.size()) {
    if (source_of[i] < 0) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < tokens.size() && source_of[j] >= 0) ++j;
    int run = static_cast<int>(j - i);
    if (run >= options_.min_matched_tokens && (!best || run > best->tokens)) {
      best = CopiedText{tokens[i].begin, tokens[j - 1].end, run, sources_[source_of[i]]};
    }
    i = j;
  }
  return best;
}

}  // namespace

FingerprintOptions FingerprintOptions::FromPolicy(const v1::FingerprintSettings& settings) {
  FingerprintOptions options;
  if (settings.k() > 0) options.k = settings.k();
  if (settings.window() > 0) options.window = settings.window();
  if (settings.min_matched_tokens() > 0) options.min_matched_tokens = settings.min_matched_tokens();
  return options;
}

void ImplementationFingerprints::AddSource(const std::string& name, absl::string_view text) {
  std::vector<Token> tokens = DropDeclarations(Tokenize(text, Comments::kSkip));
  std::vector<uint64_t> hashes = KGramHashes(tokens, options_.k);
  if (hashes.empty()) return;
  size_t index = sources_.size();
  sources_.push_back(name);
  size_t window = std::min<size_t>(options_.window, hashes.size());
  // Keep the minimum of every window (the rightmost on ties).
  for (size_t start = 0; start + window <= hashes.size(); ++start) {
    size_t best = start;
    for (size_t i = start; i < start + window; ++i) {
      if (hashes[i] <= hashes[best]) best = i;
    }
    fingerprints_.emplace(hashes[best], index);
  }
}

absl::StatusOr<std::vector<NamedSource>> ReadJavaSources(const std::string& path) {
  std::vector<std::string> files;
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) {
    files.push_back(path);
  } else if (std::filesystem::is_directory(path, ec)) {
    for (auto it = std::filesystem::recursive_directory_iterator(path, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file() && absl::EndsWith(it->path().string(), ".java")) {
        files.push_back(it->path().string());
      }
    }
    if (ec) {
      return absl::InternalError(absl::StrCat(path, ": cannot list sources: ", ec.message()));
    }
  } else {
    return absl::NotFoundError(absl::StrCat(path, ": implementation sources not found"));
  }
  std::sort(files.begin(), files.end());
  std::vector<NamedSource> sources;
  for (const std::string& file : files) {
    absl::StatusOr<std::string> text = ReadFile(file);
    if (!text.ok()) return text.status();
    sources.push_back({file, *std::move(text)});
  }
  return sources;
}

absl::Status ImplementationFingerprints::AddSourceTree(const std::string& path) {
  absl::StatusOr<std::vector<NamedSource>> sources = ReadJavaSources(path);
  if (!sources.ok()) return sources.status();
  for (const NamedSource& source : *sources) AddSource(source.name, source.text);
  return absl::OkStatus();
}

std::optional<CopiedText> ImplementationFingerprints::FindCopiedText(absl::string_view text) const {
  if (fingerprints_.empty()) return std::nullopt;
  // Twice: once without comments (so `/**/` between copied statements does
  // not split the run) and once with the text of comments kept (so code
  // copied into a comment is found too).
  std::optional<CopiedText> best;
  for (Comments comments : {Comments::kSkipComplete, Comments::kKeepText}) {
    std::optional<CopiedText> found = LongestCopiedRun(Tokenize(text, comments), options_, fingerprints_, sources_);
    if (found && (!best || found->tokens > best->tokens)) best = std::move(found);
  }
  return best;
}

}  // namespace tracespec::gateway

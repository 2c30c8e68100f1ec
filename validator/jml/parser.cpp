// Public parser entry points; see parser.h. The grammar itself lives in
// jml_parser.cpp and java_scanner.cpp.
#include "validator/jml/parser.h"

#include "common/status.h"
#include "validator/jml/lexer.h"
#include "validator/jml/parser_impl.h"

namespace tracespec::jml {
namespace {

std::vector<Token> LexFor(absl::string_view text, const std::shared_ptr<const std::string>& file,
                          LexMode mode, const ParseOptions& options) {
  LexOptions lex;
  lex.mode = mode;
  lex.enabled_keys = options.enabled_keys;
  return Lex(file, text, lex);
}

absl::StatusOr<std::unique_ptr<CompilationUnit>> ParseUnit(absl::string_view text,
                                                           const std::string& file, SourceKind kind,
                                                           const ParseOptions& options) {
  auto name = std::make_shared<const std::string>(file);
  internal::Parser parser(
      LexFor(text, name, kind == SourceKind::kJava ? LexMode::kJava : LexMode::kJmlFile, options),
      kind);
  return parser.ParseCompilationUnit(name);
}

}  // namespace

absl::StatusOr<ExprPtr> ParseExpressionText(absl::string_view text, const std::string& file,
                                            const ParseOptions& options) {
  auto name = std::make_shared<const std::string>(file);
  internal::Parser parser(LexFor(text, name, LexMode::kSpecText, options), SourceKind::kSpecText);
  TS_ASSIGN_OR_RETURN(ExprPtr e, parser.ParseExpression());
  if (!parser.AtEnd()) return parser.Unexpected("the end of the expression", "");
  return e;
}

absl::StatusOr<SpecText> ParseSpecText(absl::string_view text, const std::string& file,
                                       const ParseOptions& options) {
  SpecText out;
  out.file = std::make_shared<const std::string>(file);
  internal::Parser parser(LexFor(text, out.file, LexMode::kSpecText, options),
                          SourceKind::kSpecText);
  TS_RETURN_IF_ERROR(parser.ParseSpecText(&out.spec, &out.method));
  return out;
}

absl::StatusOr<std::unique_ptr<CompilationUnit>> ParseJavaSource(absl::string_view text,
                                                                 const std::string& file,
                                                                 const ParseOptions& options) {
  return ParseUnit(text, file, SourceKind::kJava, options);
}

absl::StatusOr<std::unique_ptr<CompilationUnit>> ParseJmlFile(absl::string_view text,
                                                              const std::string& file,
                                                              const ParseOptions& options) {
  return ParseUnit(text, file, SourceKind::kJmlFile, options);
}

}  // namespace tracespec::jml

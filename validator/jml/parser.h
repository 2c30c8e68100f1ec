// Public entry points of the JML parser: a single expression, a bare
// method specification text, a Java source file with JML annotation
// comments, or a .jml specification file (OpenJML convention: Java-like
// declarations without bodies, JML inside or outside comments).
#ifndef TRACESPEC_VALIDATOR_JML_PARSER_H_
#define TRACESPEC_VALIDATOR_JML_PARSER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "validator/jml/ast.h"

namespace tracespec::jml {

struct ParseOptions {
  // Keys of keyed annotation comments (//+KEY@ ... and //-KEY@ ...).
  std::vector<std::string> enabled_keys;
};

// Parses `text` as one JML expression (the whole text). Errors name
// `file`:line:column and the offending token.
absl::StatusOr<ExprPtr> ParseExpressionText(absl::string_view text,
                                            const std::string& file = "<expression>",
                                            const ParseOptions& options = {});

// A bare method specification: clauses and spec cases (annotation markers
// //@ and /*@ @*/ optional), optionally followed by the declaration of the
// method it specifies (with or without a body).
struct SpecText {
  std::shared_ptr<const std::string> file;
  MethodSpec spec;
  std::unique_ptr<MethodDecl> method;  // null when the text has no declaration
};
absl::StatusOr<SpecText> ParseSpecText(absl::string_view text, const std::string& file,
                                       const ParseOptions& options = {});

// Parses a compilation unit. A Java syntax error the scanner cannot skip
// fails the whole file; malformed JML is recorded on the declaration it
// belongs to (MethodDecl::errors, TypeDecl::errors, CompilationUnit::errors)
// so that one bad annotation does not hide the other methods.
absl::StatusOr<std::unique_ptr<CompilationUnit>> ParseJavaSource(absl::string_view text,
                                                                 const std::string& file,
                                                                 const ParseOptions& options = {});
absl::StatusOr<std::unique_ptr<CompilationUnit>> ParseJmlFile(absl::string_view text,
                                                              const std::string& file,
                                                              const ParseOptions& options = {});

}  // namespace tracespec::jml

#endif  // TRACESPEC_VALIDATOR_JML_PARSER_H_

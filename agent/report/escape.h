// Putting untrusted text into the reports. Everything the report shows that
// it did not write itself — recorded values, test names, contracts and
// answers a model wrote, messages — goes through these: the text is made
// valid UTF-8 (a bad byte becomes U+FFFD), control characters other than
// newline and tab become visible escapes (\u0007), and then it is escaped
// for its place, so no input can add markup, links or code to a report.
// In Markdown, untrusted values (names, paths, clauses, values) go into code
// spans and blocks; the report's own sentences, which carry such values,
// are prose with every character that could start markup escaped.
#ifndef TRACESPEC_AGENT_REPORT_ESCAPE_H_
#define TRACESPEC_AGENT_REPORT_ESCAPE_H_

#include <string>

#include "absl/strings/string_view.h"

namespace tracespec::report {

// Valid UTF-8 without control characters other than '\n' and '\t'.
std::string Printable(absl::string_view text);

// For HTML text and attribute values: & < > " ' as character references.
std::string HtmlEscape(absl::string_view text);

// A Markdown code span holding `text` verbatim on one line (newlines shown
// as spaces), with a backtick fence longer than any run inside it.
std::string MarkdownCode(absl::string_view text);

// `text` as one Markdown paragraph line of prose, shown as it is: newlines
// become spaces, leading white space is dropped, and every character that
// could start inline markup, HTML, an entity or a link (\ ` * _ [ ] < > ! |
// ~ &), or a block at the start of the line (# + - = or "1." "1)"), is
// backslash-escaped. (GitHub's extension that links a bare www. or http://
// text still shows it as the same visible text.)
std::string MarkdownText(absl::string_view text);

// A fenced Markdown code block holding `text` verbatim, fence longer than
// any backtick run inside it, ending with a newline.
std::string MarkdownBlock(absl::string_view text, absl::string_view info = "");

}  // namespace tracespec::report

#endif  // TRACESPEC_AGENT_REPORT_ESCAPE_H_

// Reading and writing tracespec's protobuf files: length-delimited binary
// (.pb), JSON Lines in the protobuf JSON mapping (.jsonl), and text format
// (.textproto). Errors name the file and the record, line or column.
#ifndef TRACESPEC_COMMON_PROTO_IO_H_
#define TRACESPEC_COMMON_PROTO_IO_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "google/protobuf/message.h"
#include "tracespec/v1/observation.pb.h"

namespace tracespec {

// Parses a text-format file into `message`; errors read
// "file:line:column: message".
absl::Status ParseTextProtoFile(const std::string& path, google::protobuf::Message* message);
absl::Status ParseTextProto(const std::string& text, const std::string& name_for_errors,
                            google::protobuf::Message* message);

// One line of JSON (protobuf JSON mapping, original field names, no
// whitespace). Field order follows the schema, so output is deterministic.
std::string ToJsonLine(const google::protobuf::Message& message);
absl::Status FromJson(const std::string& json, google::protobuf::Message* message);

// `s` as a JSON string literal (quoted, escaped), for hand-built JSON.
std::string JsonQuote(const std::string& s);

// Appends one length-delimited message to `out`.
void AppendDelimited(const google::protobuf::Message& message, std::string* out);

// Where one length-delimited record lies in a buffer: its length prefix
// starts at `offset`, its `size` bytes of message at `body`.
struct DelimitedRecord {
  size_t offset;
  size_t body;
  size_t size;
};

// Appends to `records` every complete record of `data` (the contents of
// `path`, used in messages). A truncated record ends the list with a
// DataLoss error naming its index and byte offset; the records before it
// are still appended (e.g. to keep what a crashed writer wrote).
absl::Status SplitDelimited(const std::string& data, const std::string& path,
                            std::vector<DelimitedRecord>* records);

// Calls `sink` for each length-delimited record of `data` (the contents of
// `path`, used in messages). `make` gives a fresh message to parse into. A
// truncated or corrupt record is an error naming its index and byte offset.
absl::Status ForEachDelimited(
    const std::string& data, const std::string& path,
    const std::function<std::unique_ptr<google::protobuf::Message>()>& make,
    const std::function<absl::Status(google::protobuf::Message&)>& sink);

// Observations from a .pb (length-delimited) or .jsonl file, or from a
// directory holding observations.pb. Checks every record's format version.
absl::StatusOr<std::vector<v1::Observation>> ReadObservations(const std::string& path);
// The same from `data`, the contents of `file` (.jsonl/.json: JSON lines;
// otherwise length-delimited), which messages name.
absl::StatusOr<std::vector<v1::Observation>> ParseObservations(const std::string& data,
                                                               const std::string& file);

// Writes observations atomically; the format follows the extension (.pb or
// .jsonl).
absl::Status WriteObservations(const std::string& path,
                               const std::vector<v1::Observation>& observations);

// Checks a record's format version: unset or unknown versions are errors.
absl::Status CheckFormatVersion(int version, const std::string& where);

}  // namespace tracespec

#endif  // TRACESPEC_COMMON_PROTO_IO_H_

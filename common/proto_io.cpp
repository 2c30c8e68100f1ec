// Protobuf file formats; see proto_io.h.
#include "common/proto_io.h"

#include <cstdio>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "common/status.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/json_util.h"

namespace tracespec {
namespace {

// Collects the first text-format parse error with its position.
class FirstErrorCollector : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (!has_error_) {
      has_error_ = true;
      line_ = line + 1;
      column_ = column + 1;
      // The parser names the token it found; at the end of the text that
      // is nothing ("Expected identifier, got: ").
      message_ = absl::EndsWith(message, "got: ") ? absl::StrCat(message, "end of file") : message;
    }
  }
  void AddWarning(int, google::protobuf::io::ColumnNumber, const std::string&) override {}

  bool has_error_ = false;
  int line_ = 0;
  int column_ = 0;
  std::string message_;
};

}  // namespace

absl::Status ParseTextProto(const std::string& text, const std::string& name_for_errors,
                            google::protobuf::Message* message) {
  google::protobuf::TextFormat::Parser parser;
  FirstErrorCollector errors;
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(text, message)) {
    if (errors.has_error_) {
      return InputError(name_for_errors, errors.line_, errors.column_, errors.message_);
    }
    return InputError(name_for_errors, 0, 0, "cannot parse text format");
  }
  return absl::OkStatus();
}

absl::Status ParseTextProtoFile(const std::string& path, google::protobuf::Message* message) {
  TS_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  return ParseTextProto(text, path, message);
}

std::string JsonQuote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string ToJsonLine(const google::protobuf::Message& message) {
  std::string out;
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  auto status = google::protobuf::util::MessageToJsonString(message, &out, options);
  (void)status;  // Serialising a valid message cannot fail.
  return out;
}

absl::Status FromJson(const std::string& json, google::protobuf::Message* message) {
  google::protobuf::util::JsonParseOptions options;
  auto status = google::protobuf::util::JsonStringToMessage(json, message, options);
  if (!status.ok()) return absl::InvalidArgumentError(std::string(status.message()));
  return absl::OkStatus();
}

void AppendDelimited(const google::protobuf::Message& message, std::string* out) {
  // Straight into the string: a StringOutputStream per record would zero
  // the string's whole spare capacity each time (quadratic over a file).
  size_t size = message.ByteSizeLong();
  uint8_t header[10];
  uint8_t* header_end = google::protobuf::io::CodedOutputStream::WriteVarint32ToArray(
      static_cast<uint32_t>(size), header);
  out->append(reinterpret_cast<const char*>(header), static_cast<size_t>(header_end - header));
  size_t at = out->size();
  out->resize(at + size);
  message.SerializeWithCachedSizesToArray(reinterpret_cast<uint8_t*>(&(*out)[at]));
}

absl::Status SplitDelimited(const std::string& data, const std::string& path,
                            std::vector<DelimitedRecord>* records) {
  size_t offset = 0;
  while (offset < data.size()) {
    size_t index = records->size();
    google::protobuf::io::CodedInputStream input(
        reinterpret_cast<const uint8_t*>(data.data() + offset),
        static_cast<int>(std::min<size_t>(data.size() - offset, INT32_MAX)));
    uint32_t size = 0;
    if (!input.ReadVarint32(&size)) {
      return absl::DataLossError(absl::StrCat(path, ": record ", index, " at byte ", offset,
                                              ": truncated length prefix"));
    }
    size_t header = static_cast<size_t>(input.CurrentPosition());
    if (offset + header + size > data.size()) {
      return absl::DataLossError(absl::StrCat(path, ": record ", index, " at byte ", offset,
                                              ": truncated (", size, " bytes announced, ",
                                              data.size() - offset - header, " present)"));
    }
    records->push_back({offset, offset + header, size});
    offset += header + size;
  }
  return absl::OkStatus();
}

absl::Status ForEachDelimited(
    const std::string& data, const std::string& path,
    const std::function<std::unique_ptr<google::protobuf::Message>()>& make,
    const std::function<absl::Status(google::protobuf::Message&)>& sink) {
  std::vector<DelimitedRecord> records;
  absl::Status split = SplitDelimited(data, path, &records);
  for (size_t index = 0; index < records.size(); ++index) {
    const DelimitedRecord& record = records[index];
    std::unique_ptr<google::protobuf::Message> message = make();
    if (!message->ParseFromArray(data.data() + record.body, static_cast<int>(record.size))) {
      return absl::DataLossError(absl::StrCat(path, ": record ", index, " at byte ",
                                              record.offset, ": corrupt record"));
    }
    TS_RETURN_IF_ERROR(Annotate(sink(*message), absl::StrCat(path, ": record ", index)));
  }
  return split;
}

absl::Status CheckFormatVersion(int version, const std::string& where) {
  if (version == v1::FORMAT_VERSION_1) return absl::OkStatus();
  if (version == 0) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": format_version is missing"));
  }
  return absl::InvalidArgumentError(absl::StrCat(where, ": format_version ", version,
                                                 " is not supported (this build reads 1)"));
}

absl::StatusOr<std::vector<v1::Observation>> ReadObservations(const std::string& path) {
  std::string file = path;
  if (IsDirectory(path)) file = path + "/observations.pb";
  TS_ASSIGN_OR_RETURN(std::string data, ReadFile(file));
  return ParseObservations(data, file);
}

absl::StatusOr<std::vector<v1::Observation>> ParseObservations(const std::string& data,
                                                               const std::string& file) {
  std::vector<v1::Observation> out;
  if (absl::EndsWith(file, ".jsonl") || absl::EndsWith(file, ".json")) {
    int line_number = 0;
    for (absl::string_view line : absl::StrSplit(data, '\n')) {
      ++line_number;
      if (absl::StripAsciiWhitespace(line).empty()) continue;
      v1::Observation observation;
      absl::Status status = FromJson(std::string(line), &observation);
      if (!status.ok()) return InputError(file, line_number, 0, status.message());
      TS_RETURN_IF_ERROR(CheckFormatVersion(observation.format_version(),
                                            Located(file, line_number, 0, "observation")));
      out.push_back(std::move(observation));
    }
    return out;
  }
  TS_RETURN_IF_ERROR(ForEachDelimited(
      data, file, [] { return std::make_unique<v1::Observation>(); },
      [&](google::protobuf::Message& message) -> absl::Status {
        auto& observation = static_cast<v1::Observation&>(message);
        TS_RETURN_IF_ERROR(CheckFormatVersion(observation.format_version(), "observation"));
        out.push_back(std::move(observation));
        return absl::OkStatus();
      }));
  return out;
}

absl::Status WriteObservations(const std::string& path,
                               const std::vector<v1::Observation>& observations) {
  std::string data;
  if (absl::EndsWith(path, ".jsonl")) {
    for (const auto& observation : observations) {
      absl::StrAppend(&data, ToJsonLine(observation), "\n");
    }
  } else {
    for (const auto& observation : observations) AppendDelimited(observation, &data);
  }
  return WriteFileAtomic(path, data);
}

}  // namespace tracespec

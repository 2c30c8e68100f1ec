// Chat completions over libcurl; see openai_client.h. This file and nothing
// else in tracespec talks to the network.
#include "agent/gateway/openai_client.h"

#include <curl/curl.h>

#include <cstdlib>
#include <mutex>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"
#include "agent/gateway/chat_wire.h"
#include "agent/gateway/egress_policy.h"
#include "agent/gateway/errors.h"
#include "common/hash.h"
#include "common/status.h"

namespace tracespec::gateway {
namespace {

constexpr size_t kErrorExcerptBytes = 300;

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Exchange {
  std::string body;
  size_t max_bytes = 0;
  bool too_large = false;
  std::optional<absl::Duration> retry_after;
};

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* exchange = static_cast<Exchange*>(user);
  size_t n = size * count;
  if (exchange->body.size() + n > exchange->max_bytes) {
    exchange->too_large = true;
    return 0;  // aborts the transfer
  }
  exchange->body.append(data, n);
  return n;
}

// Retry-After as delta-seconds or an HTTP date.
std::optional<absl::Duration> ParseRetryAfter(absl::string_view value) {
  value = absl::StripAsciiWhitespace(value);
  int64_t seconds = 0;
  if (absl::SimpleAtoi(value, &seconds)) return absl::Seconds(std::max<int64_t>(seconds, 0));
  absl::Time when;
  std::string error;
  if (absl::ParseTime("%a, %d %b %Y %H:%M:%S GMT", std::string(value), absl::UTCTimeZone(), &when,
                      &error)) {
    return std::max(absl::ZeroDuration(), when - absl::Now());
  }
  return std::nullopt;
}

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* exchange = static_cast<Exchange*>(user);
  size_t n = size * count;
  absl::string_view line(data, n);
  if (absl::StartsWith(line, "HTTP/")) exchange->retry_after.reset();  // a new response
  size_t colon = line.find(':');
  if (colon != absl::string_view::npos &&
      absl::EqualsIgnoreCase(absl::StripAsciiWhitespace(line.substr(0, colon)), "retry-after")) {
    exchange->retry_after = ParseRetryAfter(line.substr(colon + 1));
  }
  return n;
}

long Millis(absl::Duration d) { return static_cast<long>(absl::ToInt64Milliseconds(d)); }

}  // namespace

absl::StatusOr<std::unique_ptr<OpenAiCompatibleClient>> OpenAiCompatibleClient::Create(
    OpenAiClientOptions options) {
  if (options.model.empty()) return absl::InvalidArgumentError("llm client: no model given");
  std::string base(absl::StripSuffix(options.base_url, "/"));
  auto url = ParseUrl(base);
  if (!url.ok()) return Annotate(url.status(), "llm client");
  std::string endpoint =
      absl::EndsWith(base, "/chat/completions") ? base : absl::StrCat(base, "/chat/completions");
  std::string key;
  if (!options.api_key_env.empty()) {
    const char* value = std::getenv(options.api_key_env.c_str());
    if (value == nullptr || *value == '\0') {
      return absl::FailedPreconditionError(absl::StrCat(
          "llm client: environment variable ", options.api_key_env, " (the API key) is not set"));
    }
    key = value;
  }
  GlobalInit();
  return std::unique_ptr<OpenAiCompatibleClient>(
      new OpenAiCompatibleClient(std::move(options), std::move(endpoint), std::move(key)));
}

absl::StatusOr<std::string> OpenAiCompatibleClient::EncodeRequest(const LlmRequest& request) const {
  return internal::EncodeChatRequest(request,
                                     request.model.empty() ? options_.model : request.model);
}

std::string OpenAiCompatibleClient::Scrub(std::string text) const {
  if (api_key_.empty()) return text;
  return absl::StrReplaceAll(text, {{api_key_, "<api key>"}});
}

absl::StatusOr<LlmResponse> OpenAiCompatibleClient::Complete(const LlmRequest& request) {
  auto body = EncodeRequest(request);
  if (!body.ok()) return body.status();

  CURL* curl = curl_easy_init();
  if (curl == nullptr) return absl::InternalError("llm client: curl_easy_init failed");
  Exchange exchange;
  exchange.max_bytes = options_.max_response_bytes;
  char error_buffer[CURL_ERROR_SIZE] = {0};
  curl_slist* headers = nullptr;
  headers = curl_slist_append(headers, "Content-Type: application/json");
  headers = curl_slist_append(headers, "Accept: application/json");
  headers = curl_slist_append(headers, "Expect:");
  std::string authorization;
  if (!api_key_.empty()) {
    authorization = absl::StrCat("Authorization: Bearer ", api_key_);
    headers = curl_slist_append(headers, authorization.c_str());
  }

  curl_easy_setopt(curl, CURLOPT_URL, url_.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_PROXY, options_.proxy.c_str());
  if (!options_.ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, options_.ca_file.c_str());
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, Millis(options_.connect_timeout));
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, Millis(options_.total_timeout));
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "tracespec");
  curl_easy_setopt(curl, CURLOPT_POST, 1L);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body->data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body->size()));
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, OnBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &exchange);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, OnHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &exchange);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_buffer);

  absl::Time start = absl::Now();
  CURLcode code = curl_easy_perform(curl);
  absl::Duration latency = absl::Now() - start;
  long http_status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &http_status);
  curl_easy_cleanup(curl);
  curl_slist_free_all(headers);
  // The header list held the key; do not leave it in freed memory longer
  // than needed.
  std::fill(authorization.begin(), authorization.end(), '\0');

  ExchangeFailure failure;
  failure.http_status = static_cast<int>(http_status);
  failure.retry_after = exchange.retry_after;
  if (http_status != 0) {
    failure.response_size = exchange.body.size();
    failure.response_sha256 = Sha256Hex(exchange.body);
  }
  if (code != CURLE_OK) {
    std::string detail = error_buffer[0] != '\0' ? error_buffer : curl_easy_strerror(code);
    detail = Scrub(detail);
    if (exchange.too_large) {
      return absl::ResourceExhaustedError(
          absl::StrCat(url_, ": the answer exceeds ", options_.max_response_bytes, " bytes"));
    }
    failure.transport = true;
    switch (code) {
      case CURLE_OPERATION_TIMEDOUT:
        return WithExchangeFailure(
            absl::DeadlineExceededError(absl::StrCat(url_, ": no complete answer within ",
                                                     absl::FormatDuration(options_.total_timeout),
                                                     " (", detail, ")")),
            failure);
      case CURLE_COULDNT_CONNECT:
      case CURLE_COULDNT_RESOLVE_HOST:
      case CURLE_COULDNT_RESOLVE_PROXY:
        return WithExchangeFailure(
            absl::UnavailableError(absl::StrCat(url_, ": cannot connect (", detail, ")")), failure);
      case CURLE_UNSUPPORTED_PROTOCOL:
      case CURLE_URL_MALFORMAT: return absl::InvalidArgumentError(absl::StrCat(url_, ": ", detail));
      default:
        return WithExchangeFailure(
            absl::UnavailableError(absl::StrCat(url_, ": exchange failed (", detail, ")")),
            failure);
    }
  }
  if (http_status < 200 || http_status > 299) {
    std::string message = absl::StrCat(url_, ": HTTP ", http_status);
    std::string excerpt = Scrub(internal::ErrorExcerpt(exchange.body, kErrorExcerptBytes));
    if (!excerpt.empty()) absl::StrAppend(&message, ": ", excerpt);
    return WithExchangeFailure(
        absl::Status(StatusCodeForHttp(static_cast<int>(http_status)), message), failure);
  }
  auto response = internal::DecodeChatResponse(exchange.body, url_);
  if (!response.ok()) {
    return WithExchangeFailure(
        absl::Status(response.status().code(), Scrub(std::string(response.status().message()))),
        failure);
  }
  response->latency = latency;
  response->http_status = static_cast<int>(http_status);
  response->attempts = 1;
  response->raw_body = std::move(exchange.body);
  return response;
}

}  // namespace tracespec::gateway

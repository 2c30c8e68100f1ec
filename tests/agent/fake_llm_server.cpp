// Running the fake chat-completions server; see fake_llm_server.h.
#include "tests/agent/fake_llm_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "gtest/gtest.h"
#include "rapidjson/document.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"

extern char** environ;

namespace tracespec::testing {

FakeLlmServer::FakeLlmServer(const std::string& script_json) {
  std::string script = dir_.Write("script.json", script_json);
  std::string record = dir_.path() + "/record.jsonl";
  std::string port_file = dir_.path() + "/port";
  std::string server = SourceDir() + "/tests/agent/fake_llm_server.py";
  std::vector<std::string> args = {"python3",  server, "--script",    script,
                                   "--record", record, "--port-file", port_file};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  if (posix_spawnp(&pid_, "python3", nullptr, nullptr, argv.data(), environ) != 0) {
    ADD_FAILURE() << "cannot start python3 " << server;
    pid_ = -1;
    return;
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    auto text = ReadFile(port_file);
    int port = 0;
    if (text.ok() && absl::SimpleAtoi(*text, &port) && port > 0) {
      port_ = port;
      return;
    }
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      ADD_FAILURE() << "the fake LLM server exited before listening";
      pid_ = -1;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ADD_FAILURE() << "the fake LLM server did not start listening within 10 s";
}

FakeLlmServer::~FakeLlmServer() {
  if (pid_ <= 0) return;
  kill(pid_, SIGTERM);
  for (int i = 0; i < 200; ++i) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
}

std::string FakeLlmServer::base_url() const {
  return absl::StrCat("http://127.0.0.1:", port_, "/v1");
}

std::string FakeLlmServer::RecordText() const {
  auto text = ReadFile(dir_.path() + "/record.jsonl");
  return text.ok() ? *text : "";
}

std::vector<ReceivedRequest> FakeLlmServer::Received() const {
  std::vector<ReceivedRequest> out;
  for (absl::string_view line : absl::StrSplit(RecordText(), '\n', absl::SkipEmpty())) {
    rapidjson::Document doc;
    doc.Parse(line.data(), line.size());
    if (doc.HasParseError() || !doc.IsObject()) {
      ADD_FAILURE() << "bad record line: " << line;
      continue;
    }
    ReceivedRequest r;
    r.path = doc["path"].GetString();
    const rapidjson::Value& headers = doc["headers"];
    for (auto it = headers.MemberBegin(); it != headers.MemberEnd(); ++it) {
      if (absl::EqualsIgnoreCase(it->name.GetString(), "authorization")) {
        r.authorization = it->value.GetString();
      }
    }
    std::string decoded;
    absl::Base64Unescape(doc["body_base64"].GetString(), &decoded);
    r.body = std::move(decoded);
    out.push_back(std::move(r));
  }
  return out;
}

int UnusedLoopbackPort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  close(fd);
  return port;
}

std::string ContentEntry(const std::string& content, const std::string& extra) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.String(content.data(), static_cast<rapidjson::SizeType>(content.size()));
  return absl::StrCat("{\"status\":200,\"content\":", buffer.GetString(), extra.empty() ? "" : ",",
                      extra, "}");
}

}  // namespace tracespec::testing

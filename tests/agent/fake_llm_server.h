// Runs tests/agent/fake_llm_server.py — a real chat-completions server on
// loopback with scripted answers — for the duration of a test, and reads
// back every request it received.
#ifndef TRACESPEC_TESTS_AGENT_FAKE_LLM_SERVER_H_
#define TRACESPEC_TESTS_AGENT_FAKE_LLM_SERVER_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "tests/testing/testing.h"

namespace tracespec::testing {

// One request as the server received it.
struct ReceivedRequest {
  std::string path;
  std::string authorization;  // the Authorization header, if any
  std::string body;           // exact bytes
};

class FakeLlmServer {
 public:
  // Starts the server with `script_json` (see the script's docstring) and
  // waits until it listens; fails the current test if it does not within
  // ten seconds.
  explicit FakeLlmServer(const std::string& script_json);
  // Stops the server (SIGTERM, then SIGKILL) and reaps it.
  ~FakeLlmServer();
  FakeLlmServer(const FakeLlmServer&) = delete;
  FakeLlmServer& operator=(const FakeLlmServer&) = delete;

  bool running() const { return port_ > 0; }
  int port() const { return port_; }
  // "http://127.0.0.1:<port>/v1"
  std::string base_url() const;
  // Every request received so far, in order.
  std::vector<ReceivedRequest> Received() const;
  // The record file's bytes (for scanning everything that arrived).
  std::string RecordText() const;

 private:
  TempDir dir_;
  pid_t pid_ = -1;
  int port_ = 0;
};

// A loopback port nothing listens on (bound, then released).
int UnusedLoopbackPort();

// A fake chat-completion answer whose message is `content`, as a script
// entry: {"status":200,"content":...} with `extra` fields merged in.
std::string ContentEntry(const std::string& content, const std::string& extra = "");

}  // namespace tracespec::testing

#endif  // TRACESPEC_TESTS_AGENT_FAKE_LLM_SERVER_H_

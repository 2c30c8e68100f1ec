// `tracespec serve validator` end to end: the real binary on loopback
// (127.0.0.1:0), real gRPC through the generated stub, real Z3, classes
// compiled by javac. Verdicts are compared with `tracespec validate` on the
// same class files and contracts.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "gmock/gmock.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "services/validator/convert.h"
#include "tests/services/server_process.h"
#include "tests/testing/testing.h"
#include "tracespec/v1/validator_service.grpc.pb.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kCalc[] = R"(package demo;

public class Calc {
  public static int abs(int x) {
    return x < 0 ? -x : x;
  }

  public static long mul(long a, long b) {
    return a * b;
  }
}
)";

// Holds: the overflow case is named.
constexpr char kAbsHolds[] = "//@ ensures \\result >= 0 || x == -2147483648;\n";
// Broken by Integer.MIN_VALUE.
constexpr char kAbsBroken[] = "//@ ensures \\result > 0;\n";
// True (2^61-1 is prime) but out of the solver's reach: every check of it
// runs into its time limit, which makes a call last as long as asked.
constexpr char kMulSlow[] =
    "//@ requires 1 < a && a < 4294967296L && 1 < b && b < 4294967296L;\n"
    "//@ ensures \\result != 2305843009213693951L;\n";

class ValidatorServiceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    classes_ = new std::string(testing::CompileJava(*dir_, {{"demo/Calc.java", kCalc}}, {"-g"}));
  }
  static void TearDownTestSuite() {
    delete classes_;
    delete dir_;
  }

  std::unique_ptr<ServerProcess> StartServer(const std::vector<std::string>& extra = {}) {
    auto server = std::make_unique<ServerProcess>(*classes_, extra, local_.path() + "/server.err");
    EXPECT_FALSE(server->address().empty())
        << "no listening line: '" << server->listening_line() << "'\n" << server->Stderr();
    return server;
  }

  static std::shared_ptr<grpc::Channel> Connect(const ServerProcess& server) {
    auto channel = grpc::CreateChannel(server.address(), grpc::InsecureChannelCredentials());
    EXPECT_TRUE(channel->WaitForConnected(std::chrono::system_clock::now() +
                                          std::chrono::seconds(10)));
    return channel;
  }

  static check::ValidateRequest Request(const std::string& method, const std::string& contract,
                                        double timeout = 60) {
    check::ValidateRequest request;
    request.method = method;
    request.contract = contract;
    request.contract_file = "contract.txt";
    request.timeout_seconds = timeout;
    return request;
  }

  // One call through the generated stub; `deadline_seconds` 0: none.
  static grpc::Status Call(grpc::Channel* channel, const check::ValidateRequest& request,
                           v1::ValidateReply* reply, double deadline_seconds = 0) {
    absl::StatusOr<v1::ValidateCall> call = services::CallOf(request);
    EXPECT_TRUE(call.ok()) << call.status();
    auto stub = v1::ValidatorService::NewStub(
        std::shared_ptr<grpc::Channel>(channel, [](grpc::Channel*) {}));
    grpc::ClientContext context;
    if (deadline_seconds > 0) {
      context.set_deadline(std::chrono::system_clock::now() +
                           std::chrono::milliseconds(static_cast<int>(deadline_seconds * 1000)));
    }
    return stub->Validate(&context, *call, reply);
  }

  // `tracespec validate` on the same classes and contract (its stdout),
  // with these observations when there are any.
  std::string ValidateInProcess(const std::string& method, const std::string& contract,
                                const std::vector<v1::Observation>& observations = {}) {
    // Named as the calls name it, so that the diagnostics' places agree.
    local_.Write("contract.txt", contract);
    std::vector<std::string> args = {"validate", "--classpath", *classes_, "--method", method,
                                     "--contract", "contract.txt"};
    if (!observations.empty()) {
      std::string jsonl;
      for (const v1::Observation& o : observations) jsonl += ToJsonLine(o);
      args.push_back("--observations");
      args.push_back(local_.Write("observations.jsonl", jsonl));
    }
    SubprocessOptions options;
    options.cwd = local_.path();
    SubprocessResult r = testing::RunTracespec(args, options);
    return r.stdout_data;
  }

  // The text without its timing line.
  static std::string Untimed(const std::string& text) {
    std::string out;
    for (absl::string_view line : absl::StrSplit(text, '\n')) {
      if (absl::StartsWith(line, "time: ")) continue;
      absl::StrAppend(&out, line, "\n");
    }
    return out;
  }

  static testing::TempDir* dir_;
  static std::string* classes_;
  testing::TempDir local_;
};

testing::TempDir* ValidatorServiceTest::dir_ = nullptr;
std::string* ValidatorServiceTest::classes_ = nullptr;

TEST_F(ValidatorServiceTest, VerdictsAreThoseOfValidateInProcess) {
  auto server = StartServer({"--workers", "2"});
  ASSERT_FALSE(server->address().empty());
  EXPECT_THAT(server->listening_line(), ::testing::MatchesRegex(
      "tracespec: validator service listening on 127\\.0\\.0\\.1:[1-9][0-9]* \\(2 workers\\)"));
  auto channel = Connect(*server);

  v1::ValidateReply holds;
  grpc::Status status = Call(channel.get(), Request("demo.Calc#abs", kAbsHolds), &holds);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(holds.consistency().verdict().status(), v1::VERDICT_PASS);
  EXPECT_TRUE(holds.consistency().verdict().complete());
  EXPECT_EQ(holds.coverage().verdict().status(), v1::VERDICT_SKIPPED);
  EXPECT_EQ(holds.bits(), "1-");
  EXPECT_EQ(holds.method().jvm_descriptor(), "(I)I");
  EXPECT_EQ(holds.method().display(), "demo.Calc#abs(int)");
  // Byte for byte what `tracespec validate` prints, but for the timing:
  // from the reply's text and from the report the reply converts back to.
  std::string in_process = ValidateInProcess("demo.Calc#abs", kAbsHolds);
  EXPECT_THAT(in_process, HasSubstr("consistency: PASS (complete)"));
  EXPECT_EQ(Untimed(holds.text()), Untimed(in_process));
  EXPECT_EQ(Untimed(check::FormatReportText(services::ReportOf(holds))), Untimed(in_process));

  v1::ValidateReply broken;
  status = Call(channel.get(), Request("demo.Calc#abs(I)I", kAbsBroken), &broken);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(broken.consistency().verdict().status(), v1::VERDICT_FAIL);
  EXPECT_EQ(broken.bits(), "0-");
  ASSERT_GE(broken.consistency().counterexamples_size(), 1);
  EXPECT_EQ(broken.consistency().counterexamples(0).outcome().DebugString().empty(), false);
  ASSERT_GE(broken.consistency().explanations_size(), 1);
  EXPECT_THAT(broken.consistency().explanations(0), HasSubstr("-2147483648"));
  in_process = ValidateInProcess("demo.Calc#abs(I)I", kAbsBroken);
  EXPECT_THAT(in_process, HasSubstr("consistency: FAIL"));
  EXPECT_EQ(Untimed(broken.text()), Untimed(in_process));
  EXPECT_EQ(Untimed(check::FormatReportText(services::ReportOf(broken))), Untimed(in_process));

  // Coverage: the counterexample sent back as an observation is admitted
  // by the contract that holds and rejected by the broken one, as in process.
  std::vector<v1::Observation> observations = {broken.consistency().counterexamples(0)};
  for (const char* contract : {kAbsHolds, kAbsBroken}) {
    check::ValidateRequest request = Request("demo.Calc#abs", contract);
    request.has_observations = true;
    request.observations = observations;
    v1::ValidateReply reply;
    status = Call(channel.get(), request, &reply);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(reply.coverage().total(), 1);
    EXPECT_EQ(reply.coverage().verdict().status(),
              contract == kAbsHolds ? v1::VERDICT_PASS : v1::VERDICT_FAIL);
    in_process = ValidateInProcess("demo.Calc#abs", contract, observations);
    EXPECT_THAT(in_process, HasSubstr("coverage: "));
    EXPECT_EQ(Untimed(reply.text()), Untimed(in_process));
    EXPECT_EQ(Untimed(check::FormatReportText(services::ReportOf(reply))), Untimed(in_process));
  }
}

TEST_F(ValidatorServiceTest, BadCallsGetAStatusNamingTheProblemAndTheServerGoesOn) {
  auto server = StartServer({"--workers", "1"});
  ASSERT_FALSE(server->address().empty());
  auto channel = Connect(*server);

  v1::ValidateReply reply;
  grpc::Status status = Call(channel.get(), Request("demo.Nope#abs", kAbsHolds), &reply);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr("demo.Nope"));

  status = Call(channel.get(), Request("demo.Calc#absent", kAbsHolds), &reply);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr("absent"));

  // Negative bounds, sent by hand (CallOf refuses to build them).
  {
    absl::StatusOr<v1::ValidateCall> call =
        services::CallOf(Request("demo.Calc#abs", kAbsHolds));
    ASSERT_TRUE(call.ok()) << call.status();
    call->mutable_bounds()->set_unwind(-1);
    auto stub = v1::ValidatorService::NewStub(channel);
    grpc::ClientContext context;
    status = stub->Validate(&context, *call, &reply);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(status.error_message(),
                HasSubstr("demo.Calc#abs: bounds out of range (unwind -1"));
  }
  check::ValidateRequest no_arrays = Request("demo.Calc#abs", kAbsHolds);
  no_arrays.max_array = 0;
  EXPECT_THAT(services::CallOf(no_arrays).status().message(),
              HasSubstr("demo.Calc#abs: bounds out of range"));

  // A contract that does not parse is a verdict, as in process: ERROR with
  // the diagnostic naming the construct and its place.
  reply.Clear();
  status = Call(channel.get(), Request("demo.Calc#abs", "//@ ensure \\result >= 0;\n"), &reply);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(reply.consistency().verdict().status(), v1::VERDICT_ERROR);
  ASSERT_GE(reply.consistency().diagnostics_size(), 1);
  EXPECT_EQ(reply.consistency().diagnostics(0).kind(), v1::DIAGNOSTIC_SYNTAX);
  EXPECT_EQ(reply.consistency().diagnostics(0).span().file(), "contract.txt");
  EXPECT_THAT(reply.consistency().diagnostics(0).message(), HasSubstr("ensure"));

  reply.Clear();
  status = Call(channel.get(), Request("demo.Calc#abs", kAbsHolds), &reply);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(reply.bits(), "1-");
}

TEST_F(ValidatorServiceTest, AFullServerRefusesAtOnceWithResourceExhausted) {
  auto server = StartServer({"--workers", "1", "--queue", "1"});
  ASSERT_FALSE(server->address().empty());
  auto channel = Connect(*server);

  // Four calls of two seconds each at once: one runs, one waits, two are
  // refused without waiting.
  std::vector<std::future<std::pair<grpc::Status, double>>> calls;
  for (int i = 0; i < 4; ++i) {
    calls.push_back(std::async(std::launch::async, [&] {
      auto start = std::chrono::steady_clock::now();
      v1::ValidateReply reply;
      grpc::Status status = Call(channel.get(), Request("demo.Calc#mul", kMulSlow, 2), &reply);
      if (status.ok()) {
        EXPECT_EQ(reply.consistency().verdict().status(), v1::VERDICT_UNKNOWN);
        EXPECT_THAT(reply.consistency().verdict().reason(), HasSubstr("timeout after 2 s"));
      }
      return std::make_pair(status, std::chrono::duration<double>(
                                        std::chrono::steady_clock::now() - start).count());
    }));
  }
  int ok = 0, refused = 0;
  for (auto& f : calls) {
    auto [status, seconds] = f.get();
    if (status.ok()) {
      ++ok;
    } else {
      EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED)
          << status.error_message();
      EXPECT_THAT(status.error_message(),
                  HasSubstr("all 1 workers are busy and the queue of 1 is full"));
      EXPECT_LT(seconds, 1.5);
      ++refused;
    }
  }
  EXPECT_EQ(ok, 2);
  EXPECT_EQ(refused, 2);

  v1::ValidateReply reply;
  grpc::Status status = Call(channel.get(), Request("demo.Calc#abs", kAbsHolds), &reply);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(reply.bits(), "1-");
}

TEST_F(ValidatorServiceTest, ADeadlineCapsTheCheckAndFailsTheCall) {
  auto server = StartServer({"--workers", "1"});
  ASSERT_FALSE(server->address().empty());
  auto channel = Connect(*server);

  v1::ValidateReply reply;
  grpc::Status status = Call(channel.get(), Request("demo.Calc#mul", kMulSlow, /*timeout=*/600),
                             &reply, /*deadline_seconds=*/1);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED) << status.error_message();
  // The one worker is free again soon after the deadline, not after the
  // call's ten-minute time limit.
  auto start = std::chrono::steady_clock::now();
  status = Call(channel.get(), Request("demo.Calc#abs", kAbsHolds), &reply, 20);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(reply.bits(), "1-");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10);
}

TEST_F(ValidatorServiceTest, ACallLargerThanTheLimitIsRefused) {
  auto server = StartServer({"--max-request-bytes", "4096"});
  ASSERT_FALSE(server->address().empty());
  auto channel = Connect(*server);

  std::string big = kAbsHolds;
  while (big.size() < 8192) big += "// padding to make the call larger than the limit\n";
  v1::ValidateReply reply;
  grpc::Status status = Call(channel.get(), Request("demo.Calc#abs", big), &reply);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();

  status = Call(channel.get(), Request("demo.Calc#abs", kAbsHolds), &reply);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(reply.bits(), "1-");
}

TEST_F(ValidatorServiceTest, AnAddressInUseIsAnErrorNotASharedPort) {
  auto server = StartServer();
  ASSERT_FALSE(server->address().empty());
  SubprocessOptions options;
  options.timeout_seconds = 30;
  SubprocessResult second = testing::RunTracespec(
      {"serve", "validator", "--listen", server->address(), "--classpath", *classes_}, options);
  EXPECT_EQ(second.exit_code, 4) << second.Describe() << second.stdout_data << second.stderr_data;
  EXPECT_THAT(second.stderr_data,
              HasSubstr(absl::StrCat("tracespec: error: cannot listen on ", server->address())));
  EXPECT_THAT(second.stdout_data, Not(HasSubstr("listening")));
  // And a missing class path entry is bad input, before anything listens.
  SubprocessResult missing = testing::RunTracespec(
      {"serve", "validator", "--listen", "127.0.0.1:0", "--classpath", "/no/such/classes"},
      options);
  EXPECT_EQ(missing.exit_code, 3) << missing.Describe() << missing.stderr_data;
  EXPECT_THAT(missing.stderr_data, HasSubstr("--classpath /no/such/classes"));
}

// grpc.health.v1.Health/Check through the generic stub: the request is a
// HealthCheckRequest (field 1: the service name), the answer a
// HealthCheckResponse whose field 1 is the status (1 = SERVING).
grpc::Status HealthCheck(grpc::Channel* channel, const std::string& service,
                         std::string* response) {
  grpc::GenericStub stub(std::shared_ptr<grpc::Channel>(channel, [](grpc::Channel*) {}));
  std::string request;
  if (!service.empty()) {
    request.push_back(0x0a);
    request.push_back(static_cast<char>(service.size()));
    request += service;
  }
  grpc::Slice slice(request);
  grpc::ByteBuffer request_buffer(&slice, 1);
  grpc::ByteBuffer response_buffer;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  std::promise<grpc::Status> done;
  stub.UnaryCall(&context, "/grpc.health.v1.Health/Check", grpc::StubOptions(), &request_buffer,
                 &response_buffer, [&](grpc::Status s) { done.set_value(s); });
  grpc::Status status = done.get_future().get();
  response->clear();
  std::vector<grpc::Slice> slices;
  if (status.ok() && response_buffer.Dump(&slices).ok()) {
    for (const grpc::Slice& s : slices) {
      response->append(reinterpret_cast<const char*>(s.begin()), s.size());
    }
  }
  return status;
}

TEST_F(ValidatorServiceTest, TheHealthServiceSaysServing) {
  auto server = StartServer();
  ASSERT_FALSE(server->address().empty());
  auto channel = Connect(*server);
  const std::string kServing("\x08\x01", 2);
  std::string response;
  grpc::Status status = HealthCheck(channel.get(), "", &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(response, kServing);
  status = HealthCheck(channel.get(), "tracespec.v1.ValidatorService", &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(response, kServing);
  status = HealthCheck(channel.get(), "no.such.Service", &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(ValidatorServiceTest, SigtermFinishesTheCallInProgressThenExitsZero) {
  auto server = StartServer({"--workers", "1"});
  ASSERT_FALSE(server->address().empty());
  auto channel = Connect(*server);

  auto call = std::async(std::launch::async, [&] {
    v1::ValidateReply reply;
    grpc::Status status = Call(channel.get(), Request("demo.Calc#mul", kMulSlow, 3), &reply);
    return std::make_pair(status, reply);
  });
  // The call reaches the server in milliseconds; it runs for three seconds.
  std::this_thread::sleep_for(std::chrono::seconds(1));
  ASSERT_EQ(kill(server->pid(), SIGTERM), 0);
  auto [status, reply] = call.get();
  ASSERT_TRUE(status.ok()) << status.error_message();
  // Answered in full: the check ran into its own time limit, it was not cut
  // short by the signal.
  EXPECT_EQ(reply.consistency().verdict().status(), v1::VERDICT_UNKNOWN);
  EXPECT_THAT(reply.consistency().verdict().reason(), HasSubstr("timeout after 3 s"));
  EXPECT_THAT(reply.consistency().verdict().reason(), Not(HasSubstr("interrupt")));
  EXPECT_EQ(server->WaitForExit(30), 0) << server->Stderr();
  EXPECT_THAT(server->Stderr(), HasSubstr("SIGTERM: finishing 1 calls in progress"));
}

}  // namespace
}  // namespace tracespec

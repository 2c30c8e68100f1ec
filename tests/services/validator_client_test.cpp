// `--validators`: `tracespec validate` and `tracespec infer` checking on
// real `tracespec serve validator` processes on loopback (the real binary,
// real gRPC, real Z3, classes compiled by javac, observations recorded by
// the real `tracespec observe`), compared with the same commands in
// process; and the client (services/validator/client.h) when a replica
// dies under a call or none is there.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/validator/client.h"
#include "tests/services/server_process.h"
#include "tests/testing/observed_bank.h"
#include "tests/testing/testing.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::RunTracespec;

constexpr char kMethod[] = "bank.Account#deposit";

using testing::kDepositContract;
// Excludes the exceptional observations: coverage FAIL, with counterexamples.
constexpr char kDepositTooStrong[] =
    "//@ requires amount > 0;\n"
    "//@ ensures balance == \\old(balance) + amount;\n";

constexpr char kSlow[] = R"(package demo;

public class Slow {
  public static long mul(long a, long b) {
    return a * b;
  }
}
)";
// True (2^61-1 is prime) but out of the solver's reach: its check runs
// into its time limit, which makes a call last as long as asked.
constexpr char kMulSlow[] =
    "//@ requires 1 < a && a < 4294967296L && 1 < b && b < 4294967296L;\n"
    "//@ ensures \\result != 2305843009213693951L;\n";

// CPU time (ticks) a process has used so far.
long CpuTicks(pid_t pid) {
  std::ifstream in(absl::StrCat("/proc/", pid, "/stat"));
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::vector<std::string> fields = absl::StrSplit(stat.substr(close + 2), ' ');
  // After the name: state is field 3 of stat; utime and stime are 14 and 15.
  if (fields.size() < 13) return 0;
  return std::stol(fields[11]) + std::stol(fields[12]);
}

// Every file under `dir` (relative path, untimed content), sorted by path.
std::map<std::string, std::string> Tree(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::string relative = std::filesystem::relative(entry.path(), dir).string();
    std::string text = *ReadFile(entry.path().string());
    // The run directory's own path, where a file names it.
    out[relative] = Untimed(absl::StrReplaceAll(text, {{dir, "OUT"}}));
  }
  return out;
}

class ValidatorClientTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    bank_ = new testing::ObservedBank({kMethod});
    ASSERT_FALSE(bank_->observations().empty());
    classes_ = new std::string(bank_->classes());
    observations_ = new std::string(bank_->observations());
  }
  static void TearDownTestSuite() {
    delete classes_;
    delete observations_;
    delete bank_;
  }

  std::unique_ptr<ServerProcess> StartServer(const std::string& classes, const std::string& name) {
    auto server = std::make_unique<ServerProcess>(
        classes, std::vector<std::string>{"--workers", "1"}, local_.path() + "/" + name + ".err");
    EXPECT_FALSE(server->address().empty())
        << "no listening line: '" << server->listening_line() << "'\n" << server->Stderr();
    return server;
  }

  // `tracespec validate` of deposit with `contract` and the observations,
  // and `extra` flags.
  SubprocessResult Validate(const std::string& contract, const std::vector<std::string>& extra) {
    std::string file = local_.Write("Account.jml.txt", contract);
    std::vector<std::string> args = {"validate", "--method", kMethod, "--contract", file,
                                     "--observations", *observations_};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunTracespec(args);
  }

  SubprocessResult Infer(const std::string& out, const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"infer",      "--classpath", *classes_, "--method",
                                     kMethod,      "--observations", *observations_,
                                     "--tests-src", testing::SourceDir() + "/examples/bank/test",
                                     "--builtin",  "--out",       out};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunTracespec(args);
  }

  static testing::ObservedBank* bank_;
  static std::string* classes_;
  static std::string* observations_;
  testing::TempDir local_;
};

testing::ObservedBank* ValidatorClientTest::bank_ = nullptr;
std::string* ValidatorClientTest::classes_ = nullptr;
std::string* ValidatorClientTest::observations_ = nullptr;

TEST(ValidatorsTargetTest, ListsBecomeOneTargetNamesGoToDns) {
  EXPECT_EQ(*services::ValidatorsTarget("127.0.0.1:7411"), "ipv4:127.0.0.1:7411");
  EXPECT_EQ(*services::ValidatorsTarget("127.0.0.1:1,10.0.0.2:2"), "ipv4:127.0.0.1:1,10.0.0.2:2");
  EXPECT_EQ(*services::ValidatorsTarget("[::1]:1,[::2]:2"), "ipv6:[::1]:1,[::2]:2");
  EXPECT_EQ(*services::ValidatorsTarget("validators:7411"), "dns:///validators:7411");
  EXPECT_EQ(*services::ValidatorsTarget("dns:///validators.ns.svc:7411"),
            "dns:///validators.ns.svc:7411");
  EXPECT_THAT(services::ValidatorsTarget("a:1,b:2").status().message(),
              HasSubstr("dns:///NAME:PORT"));
  EXPECT_THAT(services::ValidatorsTarget("127.0.0.1:1,[::1]:2").status().message(),
              HasSubstr("cannot be mixed"));
  EXPECT_THAT(services::ValidatorsTarget("127.0.0.1:1,").status().message(),
              HasSubstr("entry 2 is empty"));
  EXPECT_THAT(services::ValidatorsTarget("127.0.0.1").status().message(), HasSubstr("no :PORT"));
  EXPECT_FALSE(services::ValidatorsTarget("").ok());
  // The service config gRPC gets names the policies this client promises.
  std::string config = services::ValidatorsServiceConfig();
  EXPECT_THAT(config, HasSubstr("\"round_robin\""));
  EXPECT_THAT(config, HasSubstr("\"healthCheckConfig\""));
  EXPECT_THAT(config, HasSubstr("\"retryableStatusCodes\": [\"UNAVAILABLE\"]"));
}

TEST_F(ValidatorClientTest, ValidateThroughAServerPrintsWhatValidatePrintsInProcess) {
  auto server = StartServer(*classes_, "a");
  for (const char* contract : {kDepositContract, kDepositTooStrong}) {
    SubprocessResult local = Validate(contract, {"--classpath", *classes_});
    SubprocessResult remote = Validate(contract, {"--validators", server->address()});
    EXPECT_EQ(remote.exit_code, local.exit_code) << remote.stderr_data;
    EXPECT_EQ(Untimed(remote.stdout_data), Untimed(local.stdout_data));
    EXPECT_EQ(remote.stderr_data, local.stderr_data);
    EXPECT_THAT(local.stdout_data, HasSubstr("result: "));
  }
  // The two contracts differ in verdict, so the comparison can fail.
  EXPECT_NE(Validate(kDepositContract, {"--validators", server->address()}).exit_code,
            Validate(kDepositTooStrong, {"--validators", server->address()}).exit_code);
  // --no-deepen and --json travel too.
  SubprocessResult local = Validate(kDepositContract, {"--classpath", *classes_, "--no-deepen",
                                                       "--json"});
  SubprocessResult remote =
      Validate(kDepositContract, {"--validators", server->address(), "--no-deepen", "--json"});
  EXPECT_EQ(Untimed(remote.stdout_data), Untimed(local.stdout_data));
}

TEST_F(ValidatorClientTest, InferOnTwoServersWritesWhatInferInProcessWrites) {
  auto a = StartServer(*classes_, "a");
  auto b = StartServer(*classes_, "b");
  const std::string local_out = local_.path() + "/local";
  const std::string remote_out = local_.path() + "/remote";
  SubprocessResult local = Infer(local_out, {});
  ASSERT_EQ(local.exit_code, 0) << local.stdout_data << local.stderr_data;
  SubprocessResult remote =
      Infer(remote_out, {"--validators", absl::StrCat(a->address(), ",", b->address())});
  ASSERT_EQ(remote.exit_code, 0) << remote.stdout_data << remote.stderr_data;
  EXPECT_EQ(remote.stdout_data, absl::StrReplaceAll(local.stdout_data, {{local_out, remote_out}}));
  std::map<std::string, std::string> local_tree = Tree(local_out);
  std::map<std::string, std::string> remote_tree = Tree(remote_out);
  ASSERT_TRUE(local_tree.count(absl::StrCat(kMethod, "/result.json")));
  EXPECT_THAT(local_tree[absl::StrCat(kMethod, "/result.json")], HasSubstr("INFER_SUCCESS"));
  for (const auto& [path, text] : local_tree) {
    ASSERT_TRUE(remote_tree.count(path)) << path;
    EXPECT_EQ(remote_tree[path], text) << path;
  }
  EXPECT_EQ(remote_tree.size(), local_tree.size());
}

TEST_F(ValidatorClientTest, InferCompletesOnTheOtherServerWhenOneWasKilled) {
  auto a = StartServer(*classes_, "a");
  auto b = StartServer(*classes_, "b");
  const std::string local_out = local_.path() + "/local";
  const std::string remote_out = local_.path() + "/remote";
  ASSERT_EQ(Infer(local_out, {}).exit_code, 0);
  kill(a->pid(), SIGKILL);
  EXPECT_EQ(a->WaitForExit(10), -1);  // killed, not exited
  SubprocessResult remote =
      Infer(remote_out, {"--validators", absl::StrCat(a->address(), ",", b->address())});
  ASSERT_EQ(remote.exit_code, 0) << remote.stdout_data << remote.stderr_data;
  EXPECT_EQ(Tree(remote_out), Tree(local_out));
}

TEST_F(ValidatorClientTest, ACallWhoseServerIsKilledUnderItIsAnsweredByTheOther) {
  const std::string slow = testing::CompileJava(local_, {{"demo/Slow.java", kSlow}}, {"-g"});
  auto a = StartServer(slow, "a");
  auto b = StartServer(slow, "b");
  services::RemoteValidatorOptions options;
  options.validators = absl::StrCat(a->address(), ",", b->address());
  absl::StatusOr<std::unique_ptr<check::Validator>> validator =
      services::ConnectValidators(std::move(options));
  ASSERT_TRUE(validator.ok()) << validator.status();
  check::ValidateRequest request;
  request.method = "demo.Slow#mul";
  request.contract = kMulSlow;
  request.timeout_seconds = 4;
  long a_before = CpuTicks(a->pid()), b_before = CpuTicks(b->pid());
  std::future<absl::StatusOr<check::ValidationReport>> call = std::async(
      std::launch::async, [&] { return (*validator)->Validate(request); });
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  // The replica checking it is the one burning CPU.
  bool a_busy = CpuTicks(a->pid()) - a_before > CpuTicks(b->pid()) - b_before;
  ServerProcess& busy = a_busy ? *a : *b;
  ServerProcess& idle = a_busy ? *b : *a;
  long idle_before = CpuTicks(idle.pid());
  kill(busy.pid(), SIGKILL);
  ASSERT_EQ(call.wait_for(std::chrono::seconds(60)), std::future_status::ready);
  absl::StatusOr<check::ValidationReport> report = call.get();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->method, "demo.Slow#mul(JJ)J");
  EXPECT_EQ(report->consistency.status, check::CheckStatus::kUnknown);
  // The other replica did the check again, from the start (an idle server
  // burns next to no CPU; a check of up to 4 s, even on a loaded machine,
  // well over 0.2 s).
  EXPECT_GT(CpuTicks(idle.pid()) - idle_before, 20);
}

TEST_F(ValidatorClientTest, NoServerReachableIsAClearErrorAndNothingIsWritten) {
  // A port nothing listens on: bind one, then let it go.
  auto gone = StartServer(*classes_, "gone");
  const std::string address = gone->address();
  kill(gone->pid(), SIGKILL);
  gone->WaitForExit(10);
  SubprocessResult validate = Validate(kDepositContract, {"--validators", address});
  EXPECT_EQ(validate.exit_code, 4) << validate.stderr_data;
  EXPECT_THAT(validate.stderr_data, HasSubstr("no validator reachable at ipv4:" + address));
  EXPECT_THAT(validate.stderr_data, HasSubstr("UNAVAILABLE"));
  EXPECT_EQ(validate.stdout_data, "");
  const std::string out = local_.path() + "/out";
  SubprocessResult infer = Infer(out, {"--validators", address});
  EXPECT_EQ(infer.exit_code, 4) << infer.stderr_data;
  EXPECT_THAT(infer.stderr_data, HasSubstr("no validator reachable at ipv4:" + address));
  EXPECT_FALSE(std::filesystem::exists(out));
  // A malformed list is bad usage of the flag, said as such.
  SubprocessResult bad = Validate(kDepositContract, {"--validators", "127.0.0.1"});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_THAT(bad.stderr_data, HasSubstr("has no :PORT"));
}

TEST_F(ValidatorClientTest, TheServersCheckWithTheirOwnClassPath) {
  // A server without the bank classes: the checks happen there, so the
  // method is unknown even though the caller's class path has it.
  const std::string other = testing::CompileJava(local_, {{"demo/Slow.java", kSlow}}, {"-g"});
  auto server = StartServer(other, "other");
  SubprocessResult validate =
      Validate(kDepositContract, {"--classpath", *classes_, "--validators", server->address()});
  EXPECT_EQ(validate.exit_code, 3) << validate.stdout_data << validate.stderr_data;
  EXPECT_THAT(validate.stderr_data,
              HasSubstr("class bank.Account not found on the class path " + other));
  const std::string out = local_.path() + "/out";
  SubprocessResult infer = Infer(out, {"--validators", server->address()});
  EXPECT_NE(infer.exit_code, 0);
  EXPECT_THAT(*ReadFile(out + "/" + kMethod + "/result.json"), Not(HasSubstr("INFER_SUCCESS")));
}

// `run` and `check` of a copy of examples/bank, in process and on two
// servers (their class path: the bank classes compiled as the project's
// build command compiles them).
TEST_F(ValidatorClientTest, RunAndCheckOnTwoServersWriteWhatTheyWriteInProcess) {
  const std::string root = testing::SourceDir() + "/examples/bank";
  std::map<std::string, std::string> sources;
  for (const auto& entry : std::filesystem::directory_iterator(root + "/src/bank")) {
    sources["bank/" + entry.path().filename().string()] = *ReadFile(entry.path().string());
  }
  const std::string classes =
      testing::CompileJava(local_, sources, {"-nowarn", "-g", "--release", "8"});
  auto a = StartServer(classes, "a");
  auto b = StartServer(classes, "b");
  std::map<std::string, SubprocessResult> runs, checks;
  for (const std::string name : {"local", "remote"}) {
    const std::string project = local_.path() + "/" + name;
    std::filesystem::copy(root, project, std::filesystem::copy_options::recursive);
    std::filesystem::remove_all(project + "/target");
    std::filesystem::remove_all(project + "/tracespec-out");
    std::vector<std::string> pool;
    if (name == "remote") pool = {"--validators", absl::StrCat(a->address(), ",", b->address())};
    std::vector<std::string> run = {"run", project, "--jobs", "2"};
    run.insert(run.end(), pool.begin(), pool.end());
    runs[name] = RunTracespec(run);
    ASSERT_EQ(runs[name].exit_code, 0) << runs[name].stdout_data << runs[name].stderr_data;
    std::vector<std::string> check = {"check", project};
    check.insert(check.end(), pool.begin(), pool.end());
    checks[name] = RunTracespec(check);
  }
  const std::string local = local_.path() + "/local", remote = local_.path() + "/remote";
  EXPECT_THAT(runs["local"].stdout_data, HasSubstr("bank.Account#deposit(I)V: Success 11"));
  EXPECT_EQ(absl::StrReplaceAll(runs["remote"].stdout_data, {{remote, local}}),
            runs["local"].stdout_data);
  for (const char* sub : {"/tracespec-out/specs", "/tracespec-out/infer"}) {
    std::map<std::string, std::string> want = Tree(local + sub), got = Tree(remote + sub);
    EXPECT_FALSE(want.empty()) << sub;
    for (auto& [path, text] : got) text = absl::StrReplaceAll(text, {{remote, local}});
    EXPECT_EQ(got, want) << sub;
  }
  EXPECT_EQ(checks["remote"].exit_code, checks["local"].exit_code) << checks["remote"].stderr_data;
  EXPECT_THAT(checks["local"].stdout_data, HasSubstr("holds"));
  EXPECT_EQ(absl::StrReplaceAll(checks["remote"].stdout_data, {{remote, local}}),
            checks["local"].stdout_data);
}

}  // namespace
}  // namespace tracespec

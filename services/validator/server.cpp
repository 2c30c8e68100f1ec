#include "services/validator/server.h"

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <limits>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/log.h"
#include "grpcpp/grpcpp.h"
#include "services/common/serving.h"
#include "services/validator/convert.h"
#include "tracespec/v1/validator_service.grpc.pb.h"
#include "validator/check/validator.h"

namespace tracespec::services {
namespace {

using Clock = std::chrono::system_clock;

constexpr char kServiceName[] = "tracespec.v1.ValidatorService";

// One accepted call, shared by the handler that waits for it and the worker
// that runs it.
struct Job {
  check::ValidateRequest request;
  Clock::time_point deadline = Clock::time_point::max();
  std::mutex mutex;
  std::condition_variable done_cv;
  bool done = false;
  // The handler gave up (deadline passed, caller cancelled): a worker that
  // has not started it skips it.
  std::atomic<bool> abandoned{false};
  absl::StatusOr<check::ValidationReport> result = absl::UnknownError("not run");
};

// The workers and the bounded set of accepted calls.
class Pool {
 public:
  Pool(std::vector<std::unique_ptr<check::Validator>> validators, int queue)
      : capacity_(static_cast<int>(validators.size()) + queue) {
    for (auto& v : validators) {
      threads_.emplace_back([this, validator = std::move(v)] { Work(validator.get()); });
    }
  }
  ~Pool() { Stop(); }

  // False when `capacity_` calls are already accepted.
  bool TrySubmit(std::shared_ptr<Job> job) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (accepted_ >= capacity_ || stopping_) return false;
    ++accepted_;
    pending_.push_back(std::move(job));
    work_cv_.notify_one();
    return true;
  }

  int accepted() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return accepted_;
  }

  // Lets the workers finish what was accepted, then joins them.
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    work_cv_.notify_all();
    for (std::thread& t : threads_) {
      if (t.joinable()) t.join();
    }
  }

 private:
  void Work(check::Validator* validator) {
    while (true) {
      std::shared_ptr<Job> job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        work_cv_.wait(lock, [this] { return stopping_ || !pending_.empty(); });
        if (pending_.empty()) return;  // stopping, nothing left
        job = std::move(pending_.front());
        pending_.pop_front();
      }
      Run(validator, job.get());
      std::lock_guard<std::mutex> lock(mutex_);
      --accepted_;
    }
  }

  static void Run(check::Validator* validator, Job* job) {
    absl::StatusOr<check::ValidationReport> result = absl::UnknownError("not run");
    double remaining =
        job->deadline == Clock::time_point::max()
            ? job->request.timeout_seconds
            : std::chrono::duration<double>(job->deadline - Clock::now()).count();
    if (job->abandoned.load()) {
      result = absl::CancelledError("abandoned before it started");
    } else if (remaining <= 0) {
      result = absl::DeadlineExceededError(
          absl::StrCat(job->request.method, ": the deadline passed before a worker was free"));
    } else {
      check::ValidateRequest request = job->request;
      request.timeout_seconds = std::min(request.timeout_seconds, remaining);
      result = validator->Validate(request);
    }
    std::lock_guard<std::mutex> lock(job->mutex);
    job->result = std::move(result);
    job->done = true;
    job->done_cv.notify_all();
  }

  const int capacity_;
  mutable std::mutex mutex_;
  std::condition_variable work_cv_;
  std::deque<std::shared_ptr<Job>> pending_;
  int accepted_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

class Service final : public v1::ValidatorService::Service {
 public:
  Service(Pool* pool, int workers, int queue) : pool_(pool), workers_(workers), queue_(queue) {}

  grpc::Status Validate(grpc::ServerContext* context, const v1::ValidateCall* call,
                        v1::ValidateReply* reply) override {
    absl::StatusOr<check::ValidateRequest> request = RequestOf(*call);
    if (!request.ok()) return ToGrpc(absl::InvalidArgumentError(request.status().message()));
    auto job = std::make_shared<Job>();
    job->request = std::move(*request);
    if (context->deadline() != Clock::time_point::max()) job->deadline = context->deadline();
    if (!pool_->TrySubmit(job)) {
      return grpc::Status(
          grpc::StatusCode::RESOURCE_EXHAUSTED,
          absl::StrCat(job->request.method, ": all ", workers_, " workers are busy and the queue of ",
                       queue_, " is full; try again later or another replica"));
    }
    std::unique_lock<std::mutex> lock(job->mutex);
    while (!job->done) {
      // Wake up now and then to notice a caller that went away.
      Clock::time_point wake = std::min(job->deadline, Clock::now() + std::chrono::milliseconds(100));
      job->done_cv.wait_until(lock, wake);
      if (job->done) break;
      if (context->IsCancelled()) {
        job->abandoned = true;
        return grpc::Status(grpc::StatusCode::CANCELLED,
                            absl::StrCat(job->request.method, ": cancelled by the caller"));
      }
      if (Clock::now() >= job->deadline) {
        job->abandoned = true;
        return grpc::Status(
            grpc::StatusCode::DEADLINE_EXCEEDED,
            absl::StrCat(job->request.method, ": the call's deadline passed before the check ended"));
      }
    }
    if (!job->result.ok()) {
      const absl::Status& s = job->result.status();
      // The validator's errors are bad requests (unknown class or method,
      // an observation of another method).
      if (s.code() == absl::StatusCode::kNotFound || s.code() == absl::StatusCode::kFailedPrecondition) {
        return ToGrpc(absl::InvalidArgumentError(s.message()));
      }
      return ToGrpc(s);
    }
    *reply = ReplyOf(*job->result);
    return grpc::Status::OK;
  }

 private:
  Pool* pool_;
  int workers_;
  int queue_;
};

class ServerImpl final : public ValidatorServer {
 public:
  ServerImpl(const ValidatorServiceOptions& options, std::unique_ptr<Pool> pool)
      : options_(options), pool_(std::move(pool)),
        service_(pool_.get(), options.workers, options.queue) {}

  absl::Status Bind() {
    ListenOptions listen;
    listen.listen = options_.listen;
    listen.credentials = ServerCredentialsOf(options_.tls);
    listen.max_request_bytes = options_.max_request_bytes;
    // The handlers only wait for the workers; enough threads for every
    // accepted call, the refusals and the health checks.
    listen.max_threads = 2 * (options_.workers + options_.queue) + 8;
    listen.service_name = kServiceName;
    absl::StatusOr<std::unique_ptr<grpc::Server>> server =
        StartListening(&service_, listen, &address_);
    if (!server.ok()) return server.status();
    server_ = *std::move(server);
    return absl::OkStatus();
  }

  const std::string& address() const override { return address_; }
  int workers() const override { return options_.workers; }
  int in_flight() const override { return pool_->accepted(); }

  void Shutdown() override {
    if (server_ == nullptr) return;
    // Waits for every call in progress; new ones are refused.
    StopListening(server_.get());
    pool_->Stop();
    server_.reset();
  }

  ~ServerImpl() override { Shutdown(); }

 private:
  ValidatorServiceOptions options_;
  std::unique_ptr<Pool> pool_;
  Service service_;
  std::unique_ptr<grpc::Server> server_;
  std::string address_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<ValidatorServer>> ValidatorServer::Start(
    const ValidatorServiceOptions& options) {
  if (options.workers < 1 || options.workers > 1024) {
    return absl::InvalidArgumentError(
        absl::StrCat("--workers ", options.workers, " is out of range (1..1024)"));
  }
  if (options.queue < 0 || options.queue > 1 << 20) {
    return absl::InvalidArgumentError(
        absl::StrCat("--queue ", options.queue, " is out of range (0..1048576)"));
  }
  if (options.max_request_bytes < 1024) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--max-request-bytes ", options.max_request_bytes, " is out of range (at least 1024)"));
  }
  if (options.listen.empty()) return absl::InvalidArgumentError("--listen is empty");
  std::vector<std::unique_ptr<check::Validator>> validators;
  for (int i = 0; i < options.workers; ++i) {
    absl::StatusOr<std::unique_ptr<check::Validator>> v = check::Validator::Create(options.class_path);
    if (!v.ok()) return v.status();
    validators.push_back(std::move(*v));
  }
  auto server = std::make_unique<ServerImpl>(
      options, std::make_unique<Pool>(std::move(validators), options.queue));
  absl::Status bound = server->Bind();
  if (!bound.ok()) return bound;
  return server;
}

absl::Status ServeValidatorUntilSignal(const ValidatorServiceOptions& options,
                                       const std::function<void(const ValidatorServer&)>& on_ready) {
  // The signals are taken by sigwait, not by a handler: the first one must
  // not set the process-wide stop flag, which cuts solver queries short
  // (symex/solver.cpp), since the calls in progress are to finish normally.
  sigset_t signals = BlockStopSignals();
  absl::StatusOr<std::unique_ptr<ValidatorServer>> server = ValidatorServer::Start(options);
  if (!server.ok()) return server.status();
  on_ready(**server);
  const char* signal = WaitForStopSignal(signals);
  Info(absl::StrCat("validator service: ", signal, ": finishing ", (*server)->in_flight(),
                    " calls in progress; a second signal cuts them short"));
  (*server)->Shutdown();
  Info("validator service: stopped");
  return absl::OkStatus();
}

}  // namespace tracespec::services

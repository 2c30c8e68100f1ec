// The process-wide stop flag; see interrupt.h.
#include "common/interrupt.h"

#include <signal.h>

#include <atomic>

#include "absl/strings/str_cat.h"

namespace tracespec {
namespace {

volatile sig_atomic_t g_stop = 0;
std::atomic<bool> g_installed{false};

void OnStopSignal(int signal) {
  if (g_stop == 0) {
    g_stop = signal;
    return;
  }
  // Asked twice: end now.
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

}  // namespace

void StopOnSignals() {
  struct sigaction action {};
  action.sa_handler = &OnStopSignal;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
  g_installed = true;
}

bool StopOnSignalsInstalled() { return g_installed.load(); }

int StopSignal() { return g_stop; }

void RequestStop(int signal) {
  if (g_stop == 0) g_stop = signal;
}

std::string StopReason() { return InterruptReason(StopSignal()); }

std::string InterruptReason(int s) {
  if (s == SIGINT) return "interrupted by SIGINT";
  if (s == SIGTERM) return "interrupted by SIGTERM";
  return absl::StrCat("interrupted by signal ", s);
}

}  // namespace tracespec

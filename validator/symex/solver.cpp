// Solving with relevant axioms and a two-engine portfolio; see solver.h.
#include "validator/symex/solver.h"

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/interrupt.h"
#include "common/log.h"
#include "common/subprocess.h"
#include "validator/symex/java_ops.h"

namespace tracespec::symex {
namespace {

using Clock = std::chrono::steady_clock;

// Symbols (uninterpreted constants and functions) of a term, and whether it
// uses arrays, functions or floating point.
struct TermInfo {
  std::set<unsigned> symbols;
  bool arrays = false;
  bool floats = false;
  // Quantifiers or mathematical integers/reals (specification terms): only
  // the default solver takes them.
  bool general = false;
  bool quantifiers = false;
  // Constant arrays, as-array, map or default: the full array theory, which
  // the solver Z3 sets up for the QF_AUFBV logic does not have.
  bool full_arrays = false;

  void Add(const TermInfo& other) {
    symbols.insert(other.symbols.begin(), other.symbols.end());
    arrays |= other.arrays;
    floats |= other.floats;
    general |= other.general;
    quantifiers |= other.quantifiers;
    full_arrays |= other.full_arrays;
  }

  // The theories of the query, for logs and for "solver gave up" reasons.
  std::string Theories() const {
    std::vector<std::string> parts;
    if (arrays) parts.push_back(full_arrays ? "arrays (with constant arrays)" : "arrays");
    if (floats) parts.push_back("floating point");
    if (quantifiers) parts.push_back("quantifiers");
    if (general && !quantifiers) parts.push_back("mathematical integers");
    if (parts.empty()) parts.push_back("bit-vectors");
    return absl::StrJoin(parts, ", ");
  }
};

void Scan(const z3::expr& e, TermInfo& info) {
  std::unordered_set<unsigned> seen;
  std::vector<z3::expr> work = {e};
  while (!work.empty()) {
    z3::expr t = work.back();
    work.pop_back();
    if (!seen.insert(Z3_get_ast_id(t.ctx(), t)).second) continue;
    Z3_sort_kind sort = t.get_sort().sort_kind();
    if (sort == Z3_ARRAY_SORT) info.arrays = true;
    if (sort == Z3_FLOATING_POINT_SORT || sort == Z3_ROUNDING_MODE_SORT) info.floats = true;
    if (sort == Z3_INT_SORT || sort == Z3_REAL_SORT) info.general = true;
    if (t.is_app()) {
      z3::func_decl d = t.decl();
      switch (d.decl_kind()) {
        case Z3_OP_CONST_ARRAY:
        case Z3_OP_AS_ARRAY:
        case Z3_OP_ARRAY_MAP:
        case Z3_OP_ARRAY_DEFAULT:
          info.full_arrays = true;
          break;
        default:
          break;
      }
      if (d.decl_kind() == Z3_OP_UNINTERPRETED) {
        info.symbols.insert(Z3_get_ast_id(t.ctx(), d));
        if (t.num_args() > 0) info.arrays = true;
      }
      for (unsigned i = 0; i < t.num_args(); ++i) work.push_back(t.arg(i));
    } else if (t.is_quantifier()) {
      info.arrays = true;
      info.general = true;
      info.quantifiers = true;
      work.push_back(t.body());
    }
  }
}

// ---- deadlines -------------------------------------------------------------
//
// Z3's own `timeout` parameter hands each check's timer to a pooled thread,
// and that hand-over is not safe when two threads time their checks at once:
// Z3 4.8.12 aborted on a corrupted mutex inside its timer under
// `tracespec run --jobs 2`. The deadlines are kept here instead. One
// watchdog thread interrupts the context of a check that is past its
// deadline (or that the second engine ended), again every 10 ms until the
// check has returned, since a check clears an interrupt that arrives before
// it starts. An interrupt that arrives after the check has returned would
// stay set and make the next simplification throw `canceled`; the next check
// clears it, so CheckUntil runs an empty one when it may have happened.
class Watchdog {
 public:
  static Watchdog& Instance() {
    static Watchdog* watchdog = new Watchdog();  // never destroyed: its thread runs to the end
    return *watchdog;
  }

  uint64_t Arm(z3::context& ctx, Clock::time_point deadline) {
    std::lock_guard<std::mutex> lock(mutex_);
    uint64_t id = ++next_id_;
    armed_[id] = Entry{&ctx, deadline, false};
    wake_.notify_one();
    return id;
  }
  // The check `id` is to stop now (the second engine answered).
  void ExpireNow(uint64_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = armed_.find(id);
    if (it == armed_.end()) return;
    it->second.deadline = Clock::now();
    wake_.notify_one();
  }
  // After the check returned; true when its context was interrupted.
  bool Disarm(uint64_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = armed_.find(id);
    bool fired = it != armed_.end() && it->second.fired;
    if (it != armed_.end()) armed_.erase(it);
    return fired;
  }

 private:
  struct Entry {
    z3::context* ctx;
    Clock::time_point deadline;
    bool fired;
  };

  Watchdog() { std::thread([this] { Loop(); }).detach(); }

  void Loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      Clock::time_point now = Clock::now();
      Clock::time_point next = Clock::time_point::max();
      const bool stop = StopSignal() != 0;
      for (auto& [id, entry] : armed_) {
        if (entry.deadline <= now || stop) {
          entry.ctx->interrupt();
          entry.fired = true;
          next = std::min(next, now + std::chrono::milliseconds(10));
        } else {
          next = std::min(next, entry.deadline);
        }
      }
      // A stop asked for by a signal (common/interrupt.h) ends the running
      // checks within this.
      if (!armed_.empty()) next = std::min(next, now + std::chrono::milliseconds(100));
      if (next == Clock::time_point::max()) {
        wake_.wait(lock);
      } else {
        wake_.wait_until(lock, next);
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<uint64_t, Entry> armed_;
  uint64_t next_id_ = 0;
};

// Z3's resource units: on this project's machines about two million are a
// second of search on bit-vectors, one million a second on floating point.
// Slices are measured in them, not in seconds, so whether a query is decided
// within a slice — and so which engine answers and which counterexample is
// shown — does not depend on how loaded the machine is.
constexpr unsigned kNoResourceLimit = 0;

// One search of Z3 on `solver` of at most `resources` units (see above),
// interrupted at `deadline`. `on_armed`, when given, learns the watchdog's
// id of the search while it runs (0 after).
z3::check_result CheckUntil(z3::context& ctx, z3::solver& solver, Clock::time_point deadline,
                            unsigned resources = kNoResourceLimit,
                            std::atomic<uint64_t>* on_armed = nullptr) {
  z3::params params(ctx);
  params.set("rlimit", resources);
  // Z3 puts a SIGINT handler of its own in place during a search unless
  // the solver's `ctrl_c` is false: a Ctrl-C then only cancels that query
  // and never reaches the process's stop flag (common/interrupt.h), so
  // `run` went on to the end.
  params.set("ctrl_c", false);
  solver.set(params);
  Watchdog& watchdog = Watchdog::Instance();
  uint64_t id = watchdog.Arm(ctx, deadline);
  if (on_armed != nullptr) on_armed->store(id);
  z3::check_result r = z3::unknown;
  std::optional<z3::exception> failed;
  try {
    r = solver.check();
  } catch (const z3::exception& e) {
    failed = e;
  }
  if (on_armed != nullptr) on_armed->store(0);
  if (watchdog.Disarm(id)) {
    z3::solver empty(ctx);  // clears an interrupt that came after the search
    z3::params quiet(ctx);
    quiet.set("ctrl_c", false);
    empty.set(quiet);
    empty.check();
  }
  if (failed.has_value()) throw *failed;
  return r;
}

void MaybeDump(z3::solver& solver) {
  if (const char* dump = std::getenv("TRACESPEC_DUMP_SMT2")) {
    static std::atomic<int> n{0};
    std::FILE* f = std::fopen(absl::StrCat(dump, ".", n++, ".smt2").c_str(), "w");
    if (f != nullptr) {
      std::fputs(solver.to_smt2().c_str(), f);
      std::fclose(f);
    }
  }
}

// Whether a constant of this sort can be pinned to a model's value (a value
// the model prints as a literal: bit-vectors, Booleans, floating point).
bool Pinnable(const z3::func_decl& d) {
  Z3_sort_kind kind = d.range().sort_kind();
  return kind == Z3_BV_SORT || kind == Z3_BOOL_SORT || kind == Z3_FLOATING_POINT_SORT;
}

// `solver` with every pinnable input of `model` fixed to its value, except
// those whose name starts with `skip_prefix` (when not empty).
void PinInputs(const z3::model& model, z3::solver& solver, const std::string& skip_prefix = "") {
  for (unsigned i = 0; i < model.num_consts(); ++i) {
    z3::func_decl d = model.get_const_decl(i);
    if (!skip_prefix.empty() && absl::StartsWith(d.name().str(), skip_prefix)) continue;
    if (Pinnable(d)) solver.add(d() == model.get_const_interp(d));
  }
}

// ---- cvc5, the second engine -------------------------------------------
//
// A query Z3 has not decided within its first slice (kFirstSlice resource
// units; the first turn for bit-vector queries) — or on which it gave up — also goes to cvc5
// (when the `cvc5` program is installed and TRACESPEC_SECOND_SOLVER is not
// `off`), as SMT-LIB 2 in a separate process on the other core, while Z3
// searches on. cvc5's `unsat` is taken as it is; its `sat` only
// through its model: the values it gives the inputs are pinned in Z3, which
// must find the formulas satisfiable with them (then the model is Z3's, as
// every counterexample needs). Queries with operations SMT-LIB leaves
// unspecified (fp.min/fp.max of zeros, fp.to_ubv/fp.to_sbv out of range,
// Z3's own operators) stay with Z3: there the two solvers may differ.
//
// Which model is the counterexample must not depend on which engine
// answered first in wall-clock time (that changes with the machine's load,
// and with it a report's hypotheses). Both engines therefore search in
// rounds of resource units, each its own growing budgets: Z3's turn N is its
// round N (round 0 is its first slice, alone), cvc5's N-th run (a fresh
// process with `--rlimit`) is its round N (from 1). An `unsat` from either
// is taken at once (it is the same answer). A `sat` of round N is taken once
// no earlier round of the other engine can still answer `sat`: the model
// comes from the earliest round that found one, Z3's before cvc5's in the
// same round. Only the overall time limit is in seconds: a query decided
// just before it or not at all can still differ between runs.

constexpr unsigned kFirstSlice = 2000000;

// The budget of an engine's `steps`-th round after the one of `first`
// resource units: four times the last (no growth past 2^30 units).
unsigned GrowingSlice(unsigned first, int steps) {
  unsigned budget = first;
  for (int i = 0; i < steps && budget < (1u << 30); ++i) budget *= 4;
  return budget;
}

// cvc5's budget in its round `round` (from 1), in its own resource units
// (about half a million a second on this project's machines): one second
// and a half, then four times the last.
unsigned SecondEngineBudget(int round) { return GrowingSlice(1000000, round - 1); }

// Read each time (the environment of a test may change it): finding it is
// a few stat calls, next to a query that ran for a second already.
std::string SecondEnginePath() {
  const char* setting = std::getenv("TRACESPEC_SECOND_SOLVER");
  if (setting != nullptr && std::string(setting) == "off") return std::string();
  return FindInPath("cvc5");
}

// The constants a model must fix (bit-vector, Boolean, floating point), and
// whether every operation of the formulas means the same to both solvers.
struct Inputs {
  std::vector<z3::func_decl> constants;
  bool portable = true;
};

Inputs CollectInputs(z3::context& ctx, const std::vector<z3::expr>& formulas) {
  Inputs out;
  std::unordered_set<unsigned> seen, decls;
  std::vector<z3::expr> work(formulas.begin(), formulas.end());
  while (!work.empty()) {
    z3::expr t = work.back();
    work.pop_back();
    if (!seen.insert(Z3_get_ast_id(ctx, t)).second) continue;
    if (t.is_quantifier()) {
      work.push_back(t.body());
      continue;
    }
    if (!t.is_app()) continue;
    z3::func_decl d = t.decl();
    switch (d.decl_kind()) {
      case Z3_OP_FPA_MIN: case Z3_OP_FPA_MAX: case Z3_OP_FPA_TO_UBV: case Z3_OP_FPA_TO_SBV:
      case Z3_OP_FPA_TO_IEEE_BV: case Z3_OP_FPA_TO_REAL: case Z3_OP_AS_ARRAY:
      case Z3_OP_ARRAY_MAP: case Z3_OP_ARRAY_DEFAULT: case Z3_OP_BSDIV_I: case Z3_OP_BUDIV_I:
      case Z3_OP_BSREM_I: case Z3_OP_BUREM_I: case Z3_OP_BSMOD_I:
        out.portable = false;
        break;
      case Z3_OP_UNINTERPRETED: {
        std::string name = d.name().str();
        if (t.num_args() == 0 && decls.insert(Z3_get_ast_id(ctx, d)).second && Pinnable(d) &&
            name.find('|') == std::string::npos && name.find('\\') == std::string::npos) {
          out.constants.push_back(d);
        }
        break;
      }
      default:
        break;
    }
    for (unsigned i = 0; i < t.num_args(); ++i) work.push_back(t.arg(i));
  }
  return out;
}

// The top-level elements of an s-expression list "(e1 e2 ...)" at `text`.
std::vector<std::string> ListElements(const std::string& text) {
  std::vector<std::string> out;
  size_t open = text.find('(');
  if (open == std::string::npos) return out;
  int depth = 0;
  size_t start = std::string::npos;
  bool quoted = false;
  for (size_t i = open + 1; i < text.size(); ++i) {
    char c = text[i];
    if (c == '|') quoted = !quoted;
    if (quoted) continue;
    if (c == '(') {
      if (depth++ == 0) start = i;
    } else if (c == ')') {
      if (depth == 0) break;
      if (--depth == 0) out.push_back(text.substr(start, i - start + 1));
    }
  }
  return out;
}

// cvc5 on one query, on a thread of its own, in rounds (see above) until
// it has a definite answer, gives up, is cancelled or the deadline passes.
// When it has a definite answer that Z3's running round cannot beat, it has
// the watchdog end Z3's search (search()). Destroying the engine before it
// answered kills the process.
class SecondEngine {
 public:
  SecondEngine(std::string smt2, std::string program, Clock::time_point deadline) {
    worker_ = std::thread([this, smt2 = std::move(smt2), program = std::move(program), deadline] {
      auto begin = Clock::now();
      for (int round = 1; !cancel_.load(); ++round) {
        double seconds = std::chrono::duration<double>(deadline - Clock::now()).count();
        if (seconds <= 0.05) {
          why_ = "time limit reached";
          break;
        }
        SubprocessOptions options;
        options.stdin_data = smt2;
        options.timeout_seconds = seconds + 1;
        options.cancel = &cancel_;
        auto run = RunSubprocess(
            {program, "--lang=smt2", "--quiet",
             absl::StrCat("--rlimit=", SecondEngineBudget(round)),
             absl::StrCat("--tlimit=", static_cast<long>(seconds * 1000))},
            options);
        if (!run.ok()) {
          why_ = std::string(run.status().message());
          break;
        }
        std::string out = run->stdout_data;
        size_t eol = out.find('\n');
        std::string first = out.substr(0, eol);
        if (first == "sat" || first == "unsat") {
          std::lock_guard<std::mutex> lock(mutex_);
          answer_ = first == "sat" ? z3::sat : z3::unsat;
          answer_round_ = round;
          if (eol != std::string::npos) values_ = out.substr(eol + 1);
          break;
        }
        if (first == "unknown" && absl::StrContains(out, "resourceout")) {
          std::lock_guard<std::mutex> lock(mutex_);
          rounds_finished_ = round;
          changed_.notify_all();
          continue;
        }
        std::string err = run->stderr_data.substr(0, run->stderr_data.find('\n'));
        why_ = run->cancelled ? "cancelled"
               : first == "unknown" && absl::StrContains(out, "timeout") ? "time limit reached"
               : !first.empty() ? first
               : !err.empty()   ? err
                                : run->Describe();
        break;
      }
      seconds_ = std::chrono::duration<double>(Clock::now() - begin).count();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        done_ = true;
      }
      changed_.notify_all();
      // A definite answer ends Z3's search when Z3's round cannot beat it,
      // and any such search Z3 starts before it sees the answer.
      while (answer_ != z3::unknown && !cancel_.load()) {
        uint64_t search = search_.load();
        if (search != 0 && Beats(z3_round_.load())) Watchdog::Instance().ExpireNow(search);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    });
  }
  ~SecondEngine() {
    cancel_ = true;
    worker_.join();
  }
  // The watchdog's id of Z3's running search (0 when none).
  std::atomic<uint64_t>* search() { return &search_; }
  // Z3 is searching in its round `round`.
  void Z3Round(int round) { z3_round_ = round; }
  bool done() const { return done_.load(); }
  void AwaitDone() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return done_.load(); });
  }
  // Waits until cvc5 has finished every round before `round` (or stopped),
  // or until `deadline`.
  void AwaitRoundsBefore(int round, Clock::time_point deadline) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait_until(lock, deadline,
                        [this, round] { return done_.load() || rounds_finished_ >= round - 1; });
  }
  // Whether cvc5's answer stands against whatever Z3 answers in its round
  // `z3_round`: an unsat always; a sat from an earlier round.
  bool Beats(int z3_round) const {
    return done_.load() && (answer_ == z3::unsat || (answer_ == z3::sat && answer_round_ < z3_round));
  }
  // Whether cvc5's answer stands once Z3's round `z3_round` ended without
  // one: an unsat, or a sat from that round or an earlier one.
  bool BeatsAfter(int z3_round) const { return Beats(z3_round + 1); }

  z3::check_result answer() const { return answer_; }
  int answer_round() const { return answer_round_; }
  const std::string& values() const { return values_; }
  const std::string& why() const { return why_; }
  double seconds() const { return seconds_; }

 private:
  std::atomic<bool> cancel_{false}, done_{false};
  std::mutex mutex_;
  std::condition_variable changed_;
  std::atomic<uint64_t> search_{0};
  std::atomic<int> z3_round_{0};
  // Written by the worker before done_ is set; read after.
  z3::check_result answer_ = z3::unknown;
  int answer_round_ = 0;
  int rounds_finished_ = 0;  // under mutex_
  std::string values_, why_;
  double seconds_ = 0;
  std::thread worker_;
};

// Runs the second engine beside Z3 for one query (see above).
class Portfolio {
 public:
  Portfolio(z3::context& ctx, const std::vector<z3::expr>& formulas, Clock::time_point deadline)
      : ctx_(ctx), formulas_(formulas), deadline_(deadline) {}

  // Whether the engine may be asked at all (installed, and the query means
  // the same to both solvers).
  bool usable() {
    if (!usable_.has_value()) {
      inputs_ = CollectInputs(ctx_, formulas_);
      program_ = SecondEnginePath();
      usable_ = !program_.empty() && inputs_.portable;
    }
    return *usable_;
  }
  bool started() const { return engine_ != nullptr; }
  // Z3's first slice is over: the engine starts (once).
  void Start() {
    if (tried_) return;
    tried_ = true;
    if (!usable() || Clock::now() >= deadline_) {
      if (!inputs_.portable) {
        Debug("solver: the query uses operations SMT-LIB leaves unspecified; cvc5 not asked");
      }
      return;
    }
    z3::solver all(ctx_);
    for (const z3::expr& f : formulas_) all.add(f);
    std::string smt2 = absl::StrCat("(set-option :produce-models true)\n(set-logic ALL)\n",
                                    all.to_smt2());
    if (!inputs_.constants.empty()) {
      absl::StrAppend(&smt2, "(get-value (");
      for (const z3::func_decl& d : inputs_.constants) absl::StrAppend(&smt2, "|", d.name().str(), "| ");
      absl::StrAppend(&smt2, "))\n");
    }
    absl::StrAppend(&smt2, "(get-info :reason-unknown)\n");
    engine_ = std::make_unique<SecondEngine>(std::move(smt2), program_, deadline_);
  }
  // Z3's search in its round `round` on `solver`, of at most `resources`
  // units (none: to the deadline), which the engine ends when its answer
  // stands against it. Then, when Z3 found a model, waits for the engine's
  // earlier rounds: Z3's answer is sat only when none of them found one
  // (unknown when the engine's answer stands: Take gives it).
  z3::check_result Check(z3::solver& solver, unsigned resources, int round) {
    if (engine_ != nullptr) {
      engine_->Z3Round(round);
      if (engine_->Beats(round)) return z3::unknown;
    }
    z3::check_result r = CheckUntil(ctx_, solver, deadline_, resources,
                                    engine_ != nullptr ? engine_->search() : nullptr);
    if (r == z3::sat && engine_ != nullptr) {
      engine_->AwaitRoundsBefore(round, deadline_);
      if (engine_->Beats(round)) return z3::unknown;
    }
    return r;
  }
  // True when the engine's answer stands after Z3's round `round` ended
  // without one (Z3 should stop).
  bool answered_after(int round) const { return engine_ != nullptr && engine_->BeatsAfter(round); }
  // After Z3 gave up: waits for the engine's answer (starting it if needed).
  void Finish() {
    Start();
    if (engine_ != nullptr) {
      engine_->AwaitDone();
    }
  }
  // For the log when Z3 answered first: where the engine was.
  std::string Beside() const {
    if (engine_ == nullptr) return "";
    if (!engine_->done()) return "cvc5 had not answered (stopped)";
    return absl::StrCat("cvc5 also answered ",
                        engine_->answer() == z3::sat     ? "sat"
                        : engine_->answer() == z3::unsat ? "unsat"
                                                         : absl::StrCat("unknown (", engine_->why(), ")"),
                        " in ", absl::StrFormat("%.3f", engine_->seconds()), " s");
  }

  // The engine's definite answer, as one of Z3 (unknown when it has none,
  // or when Z3 cannot confirm its model); `log` says what happened.
  z3::check_result Take(std::optional<z3::model>* model, std::string* log) {
    if (engine_ == nullptr) return z3::unknown;
    if (!engine_->done()) {
      *log = "cvc5: no answer within the time limit";
      return z3::unknown;
    }
    std::string took = absl::StrFormat("%.3f s, round %d", engine_->seconds(), engine_->answer_round());
    if (engine_->answer() == z3::unknown) {
      *log = absl::StrCat("cvc5: unknown in ", absl::StrFormat("%.3f", engine_->seconds()),
                          " s (", engine_->why(), ")");
      return z3::unknown;
    }
    if (engine_->answer() == z3::unsat) {
      *log = absl::StrCat("cvc5: unsat in ", took);
      return z3::unsat;
    }
    // sat: Z3 checks the formulas with cvc5's values of the inputs.
    std::string pins;
    for (const std::string& pair : ListElements(engine_->values())) {
      absl::StrAppend(&pins, "(assert (= ", pair.substr(1, pair.size() - 2), "))\n");
    }
    z3::sort_vector sorts(ctx_);
    z3::func_decl_vector decls(ctx_);
    for (const z3::func_decl& d : inputs_.constants) decls.push_back(d);
    z3::solver pinned(ctx_);
    for (const z3::expr& f : formulas_) pinned.add(f);
    z3::check_result r = z3::unknown;
    try {
      z3::expr_vector parsed = ctx_.parse_string(pins.c_str(), sorts, decls);
      for (unsigned i = 0; i < parsed.size(); ++i) pinned.add(parsed[i]);
      // With every input fixed this is usually quick; the budget is large
      // because an unconfirmed model is a counterexample lost (a deeper
      // check's FAIL that ends as nothing).
      r = CheckUntil(ctx_, pinned, deadline_, 16 * kFirstSlice);
    } catch (const z3::exception& e) {
      *log = absl::StrCat("cvc5: sat in ", took, ", its model unreadable (", e.msg(), ")");
      return z3::unknown;
    }
    if (r != z3::sat) {
      *log = absl::StrCat("cvc5: sat in ", took, ", its model not confirmed by Z3 (",
                          r == z3::unsat ? "unsat" : "unknown", ")");
      return z3::unknown;
    }
    if (model != nullptr) model->emplace(pinned.get_model());
    *log = absl::StrCat("cvc5: sat in ", took, ", its model confirmed by Z3");
    return z3::sat;
  }

 private:
  z3::context& ctx_;
  const std::vector<z3::expr>& formulas_;
  Clock::time_point deadline_;
  bool tried_ = false;
  std::optional<bool> usable_;
  Inputs inputs_;
  std::string program_;
  std::unique_ptr<SecondEngine> engine_;
};

// Pure bit-vector problems: Z3's SMT core is best on most formulas the
// executor builds, eager bit-blasting on some others (long chains of
// merged arithmetic). They take turns with growing slices (in resource
// units, see CheckUntil), each keeping its own solver state between turns. (Racing them in two threads
// was tried: on a loaded two-core machine the core slowed down 25-fold.)
z3::check_result Alternate(z3::context& ctx, const std::vector<z3::expr>& formulas,
                           Clock::time_point deadline, std::optional<z3::model>* model,
                           Portfolio& portfolio) {
  z3::solver core(ctx, "QF_AUFBV");
  z3::tactic bb = z3::tactic(ctx, "simplify") & z3::tactic(ctx, "propagate-values") &
                  z3::tactic(ctx, "solve-eqs") & z3::tactic(ctx, "bit-blast") &
                  z3::tactic(ctx, "sat");
  z3::solver blaster = bb.mk_solver();
  for (const z3::expr& f : formulas) {
    core.add(f);
    blaster.add(f);
  }
  MaybeDump(core);
  const unsigned slices[] = {2 * kFirstSlice, 2 * kFirstSlice, 8 * kFirstSlice,
                             8 * kFirstSlice};
  for (int turn = 0;; ++turn) {
    bool use_core = turn % 2 == 0 || turn >= 4;
    z3::solver& solver = use_core ? core : blaster;
    // Beside cvc5 every turn is a round of its own, bounded; alone, the
    // fifth runs to the deadline.
    unsigned resources = turn < 4                ? slices[turn]
                         : portfolio.started()   ? GrowingSlice(slices[3], turn - 3)
                                                 : kNoResourceLimit;
    z3::check_result r = z3::unknown;
    try {
      r = portfolio.Check(solver, resources, turn);
    } catch (const z3::exception&) {
      r = z3::unknown;
    }
    if (r != z3::unknown) {
      if (r == z3::sat && model != nullptr) model->emplace(solver.get_model());
      return r;
    }
    if (Clock::now() >= deadline || resources == kNoResourceLimit || StopSignal() != 0 ||
        portfolio.answered_after(turn)) {
      return z3::unknown;
    }
    portfolio.Start();  // after the first turn
  }
}

// Z3's SMT core after the usual simplifications, with the theories its
// configuration picks from the formula (full arrays where constant arrays
// occur).
z3::solver SmtChain(z3::context& ctx) {
  z3::tactic t = z3::tactic(ctx, "simplify") & z3::tactic(ctx, "propagate-values") &
                 z3::tactic(ctx, "solve-eqs") & z3::tactic(ctx, "elim-uncnstr") &
                 z3::tactic(ctx, "smt");
  return t.mk_solver();
}

z3::check_result SolveOnce(z3::context& ctx, const std::vector<z3::expr>& formulas,
                           const TermInfo& info, Clock::time_point deadline,
                           std::optional<z3::model>* model, std::string* why_unknown,
                           Portfolio& portfolio) {
  if (!info.arrays && !info.floats && !info.general) {
    z3::check_result r = Alternate(ctx, formulas, deadline, model, portfolio);
    if (r == z3::unknown) *why_unknown = "time limit reached";
    return r;
  }
  // Z3's SMT core (as configured for QF_AUFBV) handles arrays and the
  // division-heavy, deeply merged formulas well, but its array theory has no
  // constant arrays: such queries go to the SMT core configured from the
  // formula. Floating point and specification terms go to the default
  // solver.
  z3::solver solver = info.floats || info.general ? z3::solver(ctx)
                      : info.full_arrays          ? SmtChain(ctx)
                                                  : z3::solver(ctx, "QF_AUFBV");
  for (const z3::expr& f : formulas) solver.add(f);
  MaybeDump(solver);
  // A first slice; then, with the second engine started beside it, rounds
  // of four times the last (see "cvc5, the second engine"); without it,
  // one search to the deadline.
  z3::check_result r = z3::unknown;
  for (int turn = 0;; ++turn) {
    unsigned resources = (turn == 0 && portfolio.usable()) || portfolio.started()
                             ? GrowingSlice(kFirstSlice, turn)
                             : kNoResourceLimit;
    try {
      r = portfolio.Check(solver, resources, turn);
    } catch (const z3::exception& e) {
      *why_unknown = absl::StrCat("Z3 failed: ", e.msg());
      return z3::unknown;
    }
    if (r != z3::unknown) break;
    if (portfolio.answered_after(turn)) {
      *why_unknown = "stopped once cvc5 answered";
      return r;
    }
    std::string reason = solver.reason_unknown();
    bool timeout = Clock::now() >= deadline || reason == "timeout" ||
                   reason == "canceled" || reason == "interrupted" ||
                   absl::StrContains(reason, "resource limit");
    if (!timeout) {
      *why_unknown = absl::StrCat("Z3 gave up (", reason, ") on a query over ", info.Theories());
      return r;
    }
    *why_unknown = "time limit reached";
    if (Clock::now() >= deadline || resources == kNoResourceLimit || StopSignal() != 0) return r;
    portfolio.Start();
  }
  if (r == z3::sat && model != nullptr) model->emplace(solver.get_model());
  return r;
}

// Floating-point arithmetic abstracted away: every application of an
// expensive floating-point operation (arithmetic, square root, fused
// multiply-add, rounding, min/max, conversions) outside quantifiers becomes an
// application of an uninterpreted function of the same signature, one per
// operation (so equal operands give equal results: the mean a method
// computes and the mean its contract states are one term once their sums
// are shown equal). A few facts every IEEE 754 implementation of the
// operation satisfies come with it (Lemmas): a NaN result of + - * / needs a
// NaN operand or an invalid pair (0 * inf, 0 / 0, inf / inf, inf - inf); an
// integer converted to float or double is finite, not NaN, and zero exactly
// when the integer is. Any model of the original formulas is a model of the
// abstraction and its lemmas (interpret each function as its operation), so
// when the abstraction is unsat, so are the formulas — which settles, in a
// fraction of a second, the many queries whose answer does not depend on
// those values (a frame condition of a method computing with doubles, a
// clause about another part of the result, a result computed the same way
// the contract says), where bit-blasting the arithmetic can take minutes.
class FloatAbstraction {
 public:
  explicit FloatAbstraction(z3::context& ctx) : ctx_(ctx) {}

  bool changed() const { return fresh_ > 0; }

  z3::expr Apply(const z3::expr& root) {
    // Post-order over the DAG with an explicit stack (terms can be deep).
    std::vector<std::pair<z3::expr, bool>> stack = {{root, false}};
    while (!stack.empty()) {
      auto [e, expanded] = stack.back();
      stack.pop_back();
      unsigned id = Z3_get_ast_id(ctx_, e);
      if (done_.count(id)) continue;
      if (!e.is_app() || e.num_args() == 0) {
        done_.emplace(id, e);
        continue;
      }
      if (!expanded) {
        stack.push_back({e, true});
        for (unsigned i = 0; i < e.num_args(); ++i) stack.push_back({e.arg(i), false});
        continue;
      }
      z3::expr_vector args(ctx_);
      bool same = true;
      for (unsigned i = 0; i < e.num_args(); ++i) {
        const z3::expr& a = done_.at(Z3_get_ast_id(ctx_, e.arg(i)));
        same = same && z3::eq(a, e.arg(i));
        args.push_back(a);
      }
      if (Expensive(e.decl().decl_kind())) {
        for (unsigned i = 0; i < e.num_args(); ++i) {
          if (e.arg(i).is_bv() || e.arg(i).is_bool()) operands_.push_back({e.arg(i), args[i]});
        }
        z3::expr applied = Function(e.decl())(args);
        Lemmas(e.decl().decl_kind(), args, applied);
        done_.emplace(id, applied);
        continue;
      }
      done_.emplace(id, same ? e : e.decl()(args));
    }
    return done_.at(Z3_get_ast_id(ctx_, root));
  }

  // Facts about the abstracted applications (see above), to add beside the
  // abstracted formulas.
  const std::vector<z3::expr>& lemmas() const { return lemmas_; }

  // The integer and Boolean operands of the abstracted applications: each
  // as in the formulas and as in the abstraction. Fixed to their values in
  // a model of the abstraction, they fix every floating-point operation of
  // the formulas that no other such operation feeds, so the arithmetic
  // folds to constants.
  struct Operand {
    z3::expr original, abstracted;
  };
  const std::vector<Operand>& operands() const { return operands_; }

 private:
  static bool Expensive(Z3_decl_kind kind) {
    switch (kind) {
      case Z3_OP_FPA_ADD:
      case Z3_OP_FPA_SUB:
      case Z3_OP_FPA_MUL:
      case Z3_OP_FPA_DIV:
      case Z3_OP_FPA_REM:
      case Z3_OP_FPA_FMA:
      case Z3_OP_FPA_SQRT:
      case Z3_OP_FPA_ROUND_TO_INTEGRAL:
      case Z3_OP_FPA_MIN:
      case Z3_OP_FPA_MAX:
      case Z3_OP_FPA_TO_FP:
      case Z3_OP_FPA_TO_FP_UNSIGNED:
      case Z3_OP_FPA_TO_UBV:
      case Z3_OP_FPA_TO_SBV:
        return true;
      default:
        return false;
    }
  }

  // The uninterpreted function standing for operation `op` (one per
  // declaration: an indexed conversion to float and to double are two).
  z3::func_decl Function(const z3::func_decl& op) {
    unsigned key = Z3_get_ast_id(ctx_, op);
    auto it = functions_.find(key);
    if (it != functions_.end()) return it->second;
    z3::sort_vector domain(ctx_);
    for (unsigned i = 0; i < op.arity(); ++i) domain.push_back(op.domain(i));
    z3::func_decl f =
        ctx_.function(absl::StrCat("fp_abstract!", fresh_++).c_str(), domain, op.range());
    functions_.emplace(key, f);
    return f;
  }

  void Lemmas(Z3_decl_kind kind, const z3::expr_vector& args, const z3::expr& result) {
    auto nan = [](const z3::expr& x) { return x.mk_is_nan(); };
    auto inf = [](const z3::expr& x) { return x.mk_is_inf(); };
    auto zero = [](const z3::expr& x) { return x.mk_is_zero(); };
    switch (kind) {
      case Z3_OP_FPA_ADD:
      case Z3_OP_FPA_SUB:
      case Z3_OP_FPA_MUL:
      case Z3_OP_FPA_DIV: {
        if (args.size() != 3) return;  // (rounding mode, a, b)
        z3::expr a = args[1], b = args[2];
        z3::expr invalid = kind == Z3_OP_FPA_MUL   ? (zero(a) && inf(b)) || (inf(a) && zero(b))
                           : kind == Z3_OP_FPA_DIV ? (zero(a) && zero(b)) || (inf(a) && inf(b))
                                                   : inf(a) && inf(b);
        lemmas_.push_back(z3::implies(nan(result), nan(a) || nan(b) || invalid));
        return;
      }
      case Z3_OP_FPA_TO_FP: {
        // (rounding mode, signed integer): an integer of up to 64 bits as a
        // float or double (8 or more exponent bits: always finite).
        if (args.size() != 2 || args[0].get_sort().sort_kind() != Z3_ROUNDING_MODE_SORT || !args[1].is_bv()) return;
        if (args[1].get_sort().bv_size() > 64 || result.get_sort().fpa_ebits() < 8) return;
        z3::expr i = args[1];
        lemmas_.push_back(!nan(result) && !inf(result) &&
                          (zero(result) == (i == ctx_.bv_val(0, i.get_sort().bv_size()))));
        return;
      }
      default:
        return;
    }
  }

  z3::context& ctx_;
  std::unordered_map<unsigned, z3::expr> done_;
  std::unordered_map<unsigned, z3::func_decl> functions_;
  std::vector<z3::expr> lemmas_;
  std::vector<Operand> operands_;
  int fresh_ = 0;
};

// How long cvc5 may take on an abstraction Z3 did not decide in its slice:
// a quarter of the time left, at least this (it answers the abstractions it
// can in well under a second on an idle machine; a loaded one needs more).
constexpr std::chrono::seconds kAbstractionSecondEngine{2};
// How many models of the abstraction are tried as counterexamples.
constexpr int kAbstractionAttempts = 4;

// The abstraction tried within short slices (a quarter of kFirstSlice each;
// then cvc5 for a quarter of the time left): unsat when it
// proves `formulas` unsat; sat (with a model of `formulas`) when the inputs
// of one of its models also satisfy the formulas themselves — with every
// input fixed, the floating-point arithmetic folds to constants, so that
// check is quick; unknown otherwise (the caller then solves `formulas`).
z3::check_result SolveWithFloatsAbstracted(z3::context& ctx, const std::vector<z3::expr>& formulas,
                                           Clock::time_point deadline,
                                           std::optional<z3::model>* model) {
  FloatAbstraction abstraction(ctx);
  std::vector<z3::expr> abstracted;
  for (const z3::expr& f : formulas) abstracted.push_back(abstraction.Apply(f));
  if (!abstraction.changed()) return z3::unknown;
  auto slice = [&ctx, deadline](z3::solver& solver) {
    try {
      return CheckUntil(ctx, solver, deadline, kFirstSlice / 4);
    } catch (const z3::exception&) {
      return z3::unknown;
    }
  };
  z3::solver solver(ctx);
  for (const z3::expr& f : abstracted) solver.add(f);
  for (const z3::expr& l : abstraction.lemmas()) solver.add(l);
  z3::check_result r = slice(solver);
  if (r == z3::unknown) {
    // Z3's floating-point theory turns the functions' results into bits and
    // can miss what congruence gives at once; cvc5 is asked briefly (its
    // unsat is taken as always, anything else leaves the formulas to the
    // portfolio).
    std::vector<z3::expr> all = abstracted;
    all.insert(all.end(), abstraction.lemmas().begin(), abstraction.lemmas().end());
    Clock::time_point now = Clock::now();
    Clock::time_point brief =
        std::min(deadline, now + std::max<Clock::duration>(kAbstractionSecondEngine,
                                                            (deadline - now) / 4));
    if (AskSecondEngine(ctx, all, brief, /*want_model=*/false).result == z3::unsat) return z3::unsat;
    return z3::unknown;
  }
  if (r != z3::sat) return r;
  // A model of the abstraction gives its functions any values: its inputs
  // and operands, fixed in the formulas, may satisfy them (a counterexample)
  // or not. Not: those operand values are excluded and the abstraction
  // asked again, a few times.
  for (int attempt = 0; attempt < kAbstractionAttempts; ++attempt) {
    z3::model found = solver.get_model();
    z3::solver pinned(ctx);
    for (const z3::expr& f : formulas) pinned.add(f);
    PinInputs(found, pinned, "fp_abstract!");
    z3::expr_vector other(ctx);
    for (const FloatAbstraction::Operand& o : abstraction.operands()) {
      z3::expr value = found.eval(o.abstracted, true);
      pinned.add(o.original == value);
      other.push_back(o.abstracted != value);
    }
    if (slice(pinned) == z3::sat) {
      if (model != nullptr) model->emplace(pinned.get_model());
      return z3::sat;
    }
    if (other.empty()) break;
    solver.add(z3::mk_or(other));
    if (slice(solver) != z3::sat) break;
  }
  return z3::unknown;
}

}  // namespace

SolveResult AskSecondEngine(z3::context& ctx, const std::vector<z3::expr>& formulas,
                            Clock::time_point deadline, bool want_model) {
  SolveResult out;
  if (SecondEnginePath().empty()) {
    out.why_unknown = "cvc5 is not installed or TRACESPEC_SECOND_SOLVER=off";
    return out;
  }
  Portfolio portfolio(ctx, formulas, deadline);
  portfolio.Finish();
  if (!portfolio.started()) {
    out.why_unknown = "the query uses operations SMT-LIB leaves unspecified; cvc5 not asked";
    return out;
  }
  std::string log;
  out.result = portfolio.Take(want_model ? &out.model : nullptr, &log);
  if (out.result == z3::unknown) out.why_unknown = log;
  return out;
}

SolveResult Solve(z3::context& ctx, const std::vector<z3::expr>& axioms, const z3::expr& query,
                  Clock::time_point deadline, bool want_model) {
  SolveResult out;
  if (JavaOps::IsFalse(query)) {
    out.result = z3::unsat;
    return out;
  }
  if (Clock::now() >= deadline) {
    out.why_unknown = "time limit reached";
    return out;
  }
  TermInfo info;
  Scan(query, info);
  std::vector<TermInfo> axiom_info(axioms.size());
  for (size_t i = 0; i < axioms.size(); ++i) Scan(axioms[i], axiom_info[i]);
  std::vector<bool> used(axioms.size(), false);
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t i = 0; i < axioms.size(); ++i) {
      if (used[i]) continue;
      bool shares = false;
      for (unsigned s : axiom_info[i].symbols) {
        if (info.symbols.count(s)) {
          shares = true;
          break;
        }
      }
      if (!shares) continue;
      used[i] = true;
      grew = true;
      info.Add(axiom_info[i]);
    }
  }
  std::vector<z3::expr> formulas;
  for (size_t i = 0; i < axioms.size(); ++i) {
    if (used[i]) formulas.push_back(axioms[i]);
  }
  formulas.push_back(query);
  auto begin = Clock::now();
  out.result = info.floats ? SolveWithFloatsAbstracted(ctx, formulas, deadline,
                                                       want_model ? &out.model : nullptr)
                           : z3::unknown;
  const bool abstracted = out.result != z3::unknown;
  std::string second;  // what the second engine answered, for the log
  if (!abstracted) {
    Portfolio portfolio(ctx, formulas, deadline);
    out.result = SolveOnce(ctx, formulas, info, deadline, want_model ? &out.model : nullptr,
                           &out.why_unknown, portfolio);
    if (out.result == z3::unknown) {
      // Z3 gave up, or the engine answered first: its answer (waiting for
      // it when Z3 gave up early).
      if (out.why_unknown != "time limit reached") portfolio.Finish();
      z3::check_result r = portfolio.Take(want_model ? &out.model : nullptr, &second);
      if (r != z3::unknown) {
        second = absl::StrCat(second, "; Z3: ", out.why_unknown);
        out.result = r;
        out.why_unknown.clear();
      } else if (!second.empty()) {
        absl::StrAppend(&out.why_unknown, "; ", second);
      }
    } else {
      second = portfolio.Beside();
    }
  }
  Debug(absl::StrCat("solver: ", out.result == z3::sat ? "sat" : out.result == z3::unsat ? "unsat"
                                                                                          : "unknown",
                     " in ", std::chrono::duration<double>(Clock::now() - begin).count(), " s (",
                     formulas.size() - 1, " of ", axioms.size(), " axioms, ", info.Theories(),
                     abstracted ? ", floating-point arithmetic abstracted" : "", ")",
                     out.result == z3::unknown ? absl::StrCat(": ", out.why_unknown)
                     : second.empty()          ? ""
                                               : absl::StrCat(": ", second)));
  if (out.result == z3::sat && want_model && formulas.size() - 1 < axioms.size()) {
    // A counterexample reads parts of the heap the query did not need: a
    // model of every axiom describes the whole state.
    z3::solver solver(ctx);  // the other axioms may use any theory
    for (const z3::expr& f : axioms) solver.add(f);
    solver.add(query);
    // Pin the inputs the first model chose so the second search is short.
    PinInputs(*out.model, solver);
    try {
      if (CheckUntil(ctx, solver, deadline) == z3::sat) out.model.emplace(solver.get_model());
    } catch (const z3::exception&) {  // the first model stands
    }
  }
  return out;
}

}  // namespace tracespec::symex

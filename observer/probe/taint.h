// The taint set: values the probe read from denied locations (denied
// fields, parameters and return values), kept in memory only, never
// written. Before an observation is written, every recorded value equal to
// a tainted value, and every string (or char[]/byte[] contents, or
// exception message) containing one, is replaced by `redacted`, wherever it
// sits: other fields, array and collection elements, arguments, results.
//
// What counts as tainted:
// - strings: any non-empty string; a recorded string equal to it is
//   redacted, and one containing it when it has at least
//   kMinContainedLength UTF-8 bytes (a two-letter secret would otherwise
//   redact most text);
// - numbers (byte, short, char, int, long, float, double): only values
//   distinctive enough to be secrets (common/distinctive.h: outside
//   [-1024, 1024]); a recorded number of any kind with the same value is
//   redacted, and a string containing its decimal digits;
// - booleans: never.
// Plain C++ over protobuf-lite, so that it is unit-tested without a JVM.
#ifndef TRACESPEC_OBSERVER_PROBE_TAINT_H_
#define TRACESPEC_OBSERVER_PROBE_TAINT_H_

#include <cstdint>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/distinctive.h"
#include "tracespec/v1/observation.pb.h"

namespace tracespec::probe {

inline constexpr size_t kMinContainedLength = 4;
// What RedactText puts in place of a tainted value.
inline constexpr char kRedactedText[] = "<redacted: denied value>";

// Thread-safe: adds take a writer lock only for a value not yet present.
class TaintSet {
 public:
  void AddString(const std::string& value);
  // Integral kinds go through here, floating kinds through AddFloating.
  void AddIntegral(int64_t value);
  void AddFloating(double value);

  // Whether `value` itself (not a string containing it) is tainted: a
  // string (UTF-8) equal to a tainted one, a tainted integral value.
  bool HoldsString(const std::string& value) const;
  bool HoldsIntegral(int64_t value) const;

  // Incremented by every value added; observations scrubbed at an older
  // generation may hold a value tainted since.
  uint64_t generation() const;
  bool empty() const;

  // Replaces tainted values in `observation` (arguments, receiver, pre and
  // post graphs, returned value, exception message); returns how many
  // values were replaced.
  int Scrub(v1::Observation* observation) const;

  // Replaces, in free text (the JVM's console output), every occurrence of
  // a tainted string of at least kMinContainedLength bytes and of the
  // decimal digits of a tainted number by kRedactedText, longest first;
  // returns how many were replaced. Shorter tainted strings are left: they
  // would redact most text.
  int RedactText(std::string* text) const;

  // The keys of the tainted values, for the egress gate
  // (ProbeStatus.denied_text_keys, denied_number_keys): strings of at least
  // kMinContainedLength UTF-8 bytes as (length, ConstantKey of the text,
  // RollingKey of it), integral numbers as ConstantKey of the value; each
  // sorted, no value itself.
  struct TextKey {
    uint32_t bytes = 0;
    uint64_t key = 0;
    uint32_t rolling = 0;
    bool operator<(const TextKey& o) const {
      return std::tie(bytes, key, rolling) < std::tie(o.bytes, o.key, o.rolling);
    }
  };
  struct Keys {
    std::vector<TextKey> texts;
    std::vector<uint64_t> numbers;
  };
  Keys DeniedKeys() const;

 private:
  bool TaintedString(const std::string& s) const;
  bool TaintedValue(const v1::Value& value) const;
  int ScrubValue(v1::Value* value) const;
  int ScrubStates(google::protobuf::RepeatedPtrField<v1::ObjectState>* states) const;

  mutable std::shared_mutex mutex_;
  uint64_t generation_ = 0;
  std::unordered_set<std::string> strings_;
  // Strings (and decimal renderings of numbers) searched for inside
  // recorded strings; ordered so that the scan is deterministic.
  std::set<std::string> contained_;
  std::unordered_set<int64_t> integrals_;
  std::unordered_set<double> floatings_;
};

}  // namespace tracespec::probe

#endif  // TRACESPEC_OBSERVER_PROBE_TAINT_H_

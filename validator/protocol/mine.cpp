// Mining class protocols from observations; see mine.h.
#include "validator/protocol/mine.h"

#include <algorithm>
#include <charconv>
#include <dirent.h>
#include <map>
#include <set>
#include <tuple>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "common/status.h"
#include "validator/ctl/kripke_io.h"

namespace tracespec::protocol {

namespace {

const v1::ObjectState* FindObject(const google::protobuf::RepeatedPtrField<v1::ObjectState>& graph, uint64_t id) {
  for (const v1::ObjectState& o : graph)
    if (o.id() == id) return &o;
  return nullptr;
}

const v1::Field* FindField(const v1::ObjectState& object, const std::string& name) {
  const v1::Field* found = nullptr;
  for (const v1::Field& f : object.fields()) {
    if (f.name() != name) continue;
    if (f.declaring_class().empty()) return &f;  // declared by the object's own class
    if (!found) found = &f;
  }
  return found;
}

std::string DoubleText(double d) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), d);
  return std::string(buffer, result.ptr);
}

// The abstract text of one value, or an error naming what it is.
absl::StatusOr<std::string> ValueText(const v1::Value& v,
                                      const google::protobuf::RepeatedPtrField<v1::ObjectState>& graph) {
  switch (v.kind_case()) {
    case v1::Value::kBoolValue: return std::string(v.bool_value() ? "true" : "false");
    case v1::Value::kByteValue: return absl::StrCat(v.byte_value());
    case v1::Value::kShortValue: return absl::StrCat(v.short_value());
    case v1::Value::kCharValue: return absl::StrCat(v.char_value());
    case v1::Value::kIntValue: return absl::StrCat(v.int_value());
    case v1::Value::kLongValue: return absl::StrCat(v.long_value());
    case v1::Value::kFloatValue: return DoubleText(v.float_value());
    case v1::Value::kDoubleValue: return DoubleText(v.double_value());
    case v1::Value::kStringValue: return v.string_value();
    case v1::Value::kNullValue: return std::string("null");
    case v1::Value::kRef: {
      const v1::ObjectState* o = FindObject(graph, v.ref());
      const v1::Field* name = o ? FindField(*o, "name") : nullptr;
      if (name && name->value().kind_case() == v1::Value::kStringValue) return name->value().string_value();
      return absl::InvalidArgumentError(absl::StrCat(
          "holds a reference to ", o ? o->class_name() : "an unrecorded object",
          " that is not an enum constant (only primitive, string and enum fields can be state fields)"));
    }
    case v1::Value::kRedacted:
      return absl::InvalidArgumentError("is redacted by the policy, so it cannot be part of the abstract state");
    case v1::Value::KIND_NOT_SET: break;
  }
  return absl::InvalidArgumentError("has no value");
}

struct Call {
  uint64_t sequence;
  bool constructor;
  std::string pre, post;  // abstract states (pre empty for constructors)
  std::string action;
  std::string call;  // how the call is shown: "lend(int)", "new Loan()"
  std::string where;
};

}  // namespace

absl::StatusOr<std::vector<v1::Observation>> ReadObservationsFrom(const std::string& path) {
  if (!IsDirectory(path)) return ReadObservations(path);
  std::vector<std::string> files;
  DIR* dir = opendir(path.c_str());
  if (!dir) return absl::NotFoundError(absl::StrCat("cannot read directory ", path));
  while (dirent* entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (absl::EndsWith(name, ".pb") || absl::EndsWith(name, ".jsonl")) files.push_back(path + "/" + name);
  }
  closedir(dir);
  std::sort(files.begin(), files.end());
  // `tracespec observe` writes the same observations twice, as X.pb and as
  // X.jsonl (a view for people): read the .pb only.
  const std::set<std::string> names(files.begin(), files.end());
  files.erase(std::remove_if(files.begin(), files.end(),
                             [&](const std::string& f) {
                               return absl::EndsWith(f, ".jsonl") &&
                                      names.count(f.substr(0, f.size() - 6) + ".pb");
                             }),
              files.end());
  if (files.empty()) return absl::NotFoundError(absl::StrCat("no .pb or .jsonl observation files in ", path));
  std::vector<v1::Observation> all;
  for (const std::string& file : files) {
    TS_ASSIGN_OR_RETURN(std::vector<v1::Observation> part, ReadObservations(file));
    for (v1::Observation& o : part) all.push_back(std::move(o));
  }
  return all;
}

absl::StatusOr<MinedProtocol> MineProtocol(const std::vector<v1::Observation>& observations,
                                           const MineOptions& options) {
  if (options.state_fields.empty()) return absl::InvalidArgumentError("no state fields named");
  MinedProtocol mined;
  std::set<std::string> fields_seen;
  ProtocolGraph& graph = mined.graph;
  graph.state_fields = options.state_fields;
  graph.domains = options.domains;
  std::map<std::string, std::vector<std::string>> values_of;  // state name -> field values
  // Abstract state of the receiver in one object graph; "" with a reason in
  // *missing when a field is not recorded.
  auto abstract = [&](const v1::ObjectState& object,
                      const google::protobuf::RepeatedPtrField<v1::ObjectState>& objects,
                      std::string* missing) -> absl::StatusOr<std::string> {
    std::vector<std::string> values;
    for (const std::string& field : options.state_fields) {
      const v1::Field* f = FindField(object, field);
      if (!f) {
        *missing = absl::StrCat("field '", field, "' not recorded");
        return std::string();
      }
      fields_seen.insert(field);
      absl::StatusOr<std::string> text = ValueText(f->value(), objects);
      if (!text.ok()) return absl::InvalidArgumentError(absl::StrCat("field '", field, "' ", text.status().message()));
      values.push_back(*std::move(text));
    }
    std::string name = graph.NameOf(values);
    values_of.emplace(name, std::move(values));
    return name;
  };

  std::map<std::pair<std::string, uint64_t>, std::vector<Call>> objects;
  int relevant = 0;
  for (size_t i = 0; i < observations.size(); ++i) {
    const v1::Observation& obs = observations[i];
    if (obs.method().is_static() || obs.receiver().kind_case() != v1::Value::kRef) continue;
    const uint64_t id = obs.receiver().ref();
    const v1::ObjectState* pre = FindObject(obs.pre(), id);
    const v1::ObjectState* post = FindObject(obs.post(), id);
    const bool of_class = obs.method().class_name() == options.class_name ||
                          (post && post->class_name() == options.class_name) ||
                          (pre && pre->class_name() == options.class_name);
    if (!of_class) continue;
    ++relevant;
    const std::string where = absl::StrCat(options.source, ": observation ", i + 1, " (",
                                           obs.method().class_name(), ".", obs.method().name(),
                                           obs.test_id().empty() ? "" : " in " + obs.test_id(), ")");
    Call call;
    call.sequence = obs.sequence();
    call.constructor = obs.method().name() == "<init>";
    call.where = where;
    call.action = obs.method().name();
    call.call = CallText(obs.method().class_name(), obs.method().name(), obs.method().jvm_descriptor());
    if (obs.outcome().kind_case() == v1::Outcome::kThrown)
      call.action = ExceptionalAction(call.action, obs.outcome().thrown().class_name());
    if (!post || (!call.constructor && !pre)) {
      mined.skipped.push_back(absl::StrCat(where, ": the receiver's state was not recorded"));
      continue;
    }
    std::string missing;
    auto post_state = abstract(*post, obs.post(), &missing);
    if (!post_state.ok()) return Annotate(post_state.status(), where);
    if (!call.constructor && missing.empty()) {
      auto pre_state = abstract(*pre, obs.pre(), &missing);
      if (!pre_state.ok()) return Annotate(pre_state.status(), where);
      call.pre = *pre_state;
    }
    if (!missing.empty()) {
      mined.skipped.push_back(absl::StrCat(where, ": ", missing));
      continue;
    }
    call.post = *post_state;
    objects[{obs.test_id(), id}].push_back(std::move(call));
  }
  if (relevant == 0)
    return absl::InvalidArgumentError(absl::StrCat("no observed calls on objects of class ", options.class_name,
                                                   " in ", options.source));
  for (const std::string& field : options.state_fields)
    if (!fields_seen.count(field))
      return absl::InvalidArgumentError(absl::StrCat(
          "field '", field, "' of ", options.class_name, " is not recorded in any of ", relevant,
          " observations of the class in ", options.source,
          " (check its name and the recording policy)"));

  std::set<std::string> tests;
  for (auto& [key, calls] : objects) {
    std::stable_sort(calls.begin(), calls.end(),
                     [](const Call& a, const Call& b) { return a.sequence < b.sequence; });
    tests.insert(key.first);
    ++mined.objects;
    bool constructed = false;
    const Call* previous = nullptr;
    for (const Call& call : calls) {
      if (call.constructor) {
        // The outermost constructor (entered first) gives the initial state;
        // this(...) / super(...) chains enter later.
        if (!constructed) graph.initial[call.post].insert(call.call);
        constructed = true;
        ++mined.constructions;
        previous = &call;
        continue;
      }
      if (!constructed && !previous) graph.initial[call.pre];
      if (previous && previous->post != call.pre)
        mined.gaps.push_back(absl::StrCat(call.where, ": starts in ", call.pre, " but the previous call on the object ended in ",
                                          previous->post));
      graph.transitions.insert({call.pre, call.post, call.action});
      graph.calls.emplace(call.action.substr(0, call.action.find('!')), call.call);
      ++mined.calls;
      previous = &call;
    }
  }
  mined.tests = static_cast<int>(tests.size());
  // The states: those of the transitions and the initial states.
  for (const Transition& t : graph.transitions) {
    graph.AddState(values_of[t.from]);
    graph.AddState(values_of[t.to]);
  }
  for (const auto& [state, constructors] : graph.initial) graph.AddState(values_of[state]);

  TS_ASSIGN_OR_RETURN(mined.model, BuildModel(graph, options.source));
  std::vector<std::string> header = {
      absl::StrCat("Protocol of ", options.class_name, " mined by tracespec from ", options.source),
      absl::StrCat(mined.calls, " calls and ", mined.constructions, " constructions on ", mined.objects,
                   " objects in ", mined.tests, " tests"),
      absl::StrCat("abstract state: (", absl::StrJoin(options.state_fields, ", "),
                   "); transitions are labelled with the methods seen to take them"),
  };
  mined.text = ctl::WriteKripkeText(mined.model, header);
  return mined;
}

}  // namespace tracespec::protocol

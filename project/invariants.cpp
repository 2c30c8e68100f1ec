// Object invariants of a project's classes; see invariants.h.
#include "project/invariants.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/status.h"
#include "validator/classfile/descriptors.h"

namespace tracespec::project {
namespace {

using classfile::ClassFile;
using classfile::Method;

bool IsIntegral(const std::string& descriptor) {
  return descriptor == "I" || descriptor == "J" || descriptor == "S" || descriptor == "B";
}
bool IsReference(const std::string& descriptor) {
  return !descriptor.empty() && (descriptor[0] == 'L' || descriptor[0] == '[');
}

// The fields of `cls` whose writes the proof sees: a putfield in a static
// method, or in a method that can hold an object of the class it did not
// get as its receiver or a parameter of the class's type (a `new`, a cast,
// a field, array element or call result of that type), writes an object the
// check does not follow.
std::set<std::string> FieldsWrittenOutOfSight(const ClassFile& cls,
                                             const std::vector<const ClassFile*>& nest) {
  const std::string own = absl::StrCat("L", cls.name, ";");
  std::set<std::string> out;
  auto scan = [&](const ClassFile& owner, const Method& m) {
    if (!m.code) return;
    std::set<std::string> written;
    // A synthetic method (a lambda's body) runs whenever its closure is
    // called, not within a method the proof checks.
    bool out_of_sight = m.is_static() || &owner != &cls || (m.access & classfile::kAccSynthetic);
    for (const classfile::Instruction& in : m.code->instructions) {
      switch (in.opcode) {
        case classfile::kPutfield: {
          classfile::MemberRef ref = owner.pool.Member(in.operand);
          if (ref.class_name == cls.name) written.insert(ref.name);
          break;
        }
        case classfile::kNew:
        case classfile::kCheckcast:
        case classfile::kAnewarray:
          if (owner.pool.ClassName(in.operand) == cls.name) out_of_sight = true;
          break;
        case classfile::kGetfield:
        case classfile::kGetstatic:
          if (absl::StrContains(owner.pool.Member(in.operand).descriptor, own)) out_of_sight = true;
          break;
        case classfile::kInvokevirtual:
        case classfile::kInvokespecial:
        case classfile::kInvokestatic:
        case classfile::kInvokeinterface: {
          const std::string& d = owner.pool.Member(in.operand).descriptor;
          if (absl::StrContains(d.substr(d.find(')') + 1), own)) out_of_sight = true;
          break;
        }
        case classfile::kAaload:
          out_of_sight = true;
          break;
        case classfile::kAstore:
        case classfile::kAstore0:
          // `this` replaced: later writes through slot 0 are to another object.
          if (in.operand == 0 && !m.is_static()) out_of_sight = true;
          break;
        default:
          break;
      }
    }
    if (out_of_sight) out.insert(written.begin(), written.end());
  };
  for (const Method& m : cls.methods) scan(cls, m);
  for (const ClassFile* member : nest) {
    for (const Method& m : member->methods) scan(*member, m);
  }
  return out;
}

// One recorded state of an object of the class: its fields' values, an
// array field's length (absent when null or not recorded).
struct State {
  std::map<std::string, const v1::Value*> fields;
  std::map<std::string, int64_t> lengths;
};

std::vector<State> StatesOf(const std::string& class_name,
                            const std::vector<v1::Observation>& observations) {
  std::vector<State> out;
  for (const v1::Observation& o : observations) {
    if (o.test_failed()) continue;
    for (const auto* side : {&o.pre(), &o.post()}) {
      std::map<uint64_t, const v1::ObjectState*> by_id;
      for (const v1::ObjectState& s : *side) by_id[s.id()] = &s;
      for (const v1::ObjectState& s : *side) {
        if (s.class_name() != class_name || s.truncated()) continue;
        State st;
        for (const v1::Field& f : s.fields()) {
          if (!f.declaring_class().empty()) continue;
          st.fields[f.name()] = &f.value();
          if (f.value().kind_case() != v1::Value::kRef) continue;
          auto it = by_id.find(f.value().ref());
          if (it != by_id.end() && it->second->has_array()) {
            st.lengths[f.name()] = it->second->array().length();
          }
        }
        out.push_back(std::move(st));
      }
    }
  }
  return out;
}

std::optional<int64_t> IntegralValue(const v1::Value& v) {
  switch (v.kind_case()) {
    case v1::Value::kIntValue: return v.int_value();
    case v1::Value::kLongValue: return v.long_value();
    case v1::Value::kShortValue: return v.short_value();
    case v1::Value::kByteValue: return v.byte_value();
    default: return std::nullopt;
  }
}

}  // namespace

std::map<std::string, std::string> FieldsBeyondTheProof(const ClassFile& cls,
                                                        const std::vector<const ClassFile*>& nest) {
  std::set<std::string> out_of_sight = FieldsWrittenOutOfSight(cls, nest);
  std::map<std::string, std::string> out;
  for (const classfile::Field& f : cls.fields) {
    if (f.is_static()) {
      out[f.name] = "a static field";
    } else if (!(f.access & classfile::kAccPrivate)) {
      out[f.name] = "not private: other classes may write it";
    } else if (out_of_sight.count(f.name)) {
      out[f.name] =
          "written by a static, synthetic or nested-class method, or through another object of "
          "the class, which the check does not follow";
    }
  }
  return out;
}

std::vector<InvariantCandidate> CandidateInvariants(
    const ClassFile& cls, const std::vector<const ClassFile*>& nest,
    const std::vector<v1::Observation>& observations) {
  std::vector<InvariantCandidate> out;
  std::vector<State> states = StatesOf(classfile::InternalToBinary(cls.name), observations);
  if (states.empty()) return out;
  std::map<std::string, std::string> beyond = FieldsBeyondTheProof(cls, nest);
  // The private instance fields the proof can follow, in declaration order.
  std::vector<const classfile::Field*> fields;
  for (const classfile::Field& f : cls.fields) {
    if (beyond.count(f.name)) continue;
    if (!IsIntegral(f.descriptor) && !IsReference(f.descriptor)) continue;
    fields.push_back(&f);
  }
  // Values of a field in every state (nullopt when some state lacks it or
  // holds something else: redacted, not recorded).
  auto integral = [&](const std::string& name) -> std::optional<std::vector<int64_t>> {
    std::vector<int64_t> values;
    for (const State& s : states) {
      auto it = s.fields.find(name);
      if (it == s.fields.end()) return std::nullopt;
      std::optional<int64_t> v = IntegralValue(*it->second);
      if (!v) return std::nullopt;
      values.push_back(*v);
    }
    return values;
  };
  auto never_null = [&](const std::string& name) {
    for (const State& s : states) {
      auto it = s.fields.find(name);
      if (it == s.fields.end() || it->second->kind_case() != v1::Value::kRef) return false;
    }
    return true;
  };
  auto add = [&](std::string text, int needs, int stronger_than) {
    out.push_back({std::move(text), needs, stronger_than});
    return static_cast<int>(out.size()) - 1;
  };
  // Array fields never null: `f != null` is not a candidate, since JML's
  // default makes every reference field non-null and the validator assumes
  // and checks it already; a count is compared with their lengths.
  std::map<std::string, int> not_null;  // array field -> the candidate it needs (none)
  for (const classfile::Field* f : fields) {
    if (f->descriptor[0] == '[' && never_null(f->name)) not_null[f->name] = -1;
  }
  for (const classfile::Field* f : fields) {
    if (!IsIntegral(f->descriptor)) continue;
    std::optional<std::vector<int64_t>> v = integral(f->name);
    if (!v) continue;
    bool non_negative = std::all_of(v->begin(), v->end(), [](int64_t x) { return x >= 0; });
    bool positive = std::all_of(v->begin(), v->end(), [](int64_t x) { return x > 0; });
    if (non_negative) {
      int weak = add(absl::StrCat(f->name, " >= 0"), -1, -1);
      if (positive) add(absl::StrCat(f->name, " > 0"), -1, weak);
    }
    // Within an array field's length.
    for (const auto& [array, needs] : not_null) {
      bool at_most = true, below = true, equal = true;
      for (size_t k = 0; k < states.size(); ++k) {
        auto len = states[k].lengths.find(array);
        if (len == states[k].lengths.end()) {
          at_most = below = equal = false;
          break;
        }
        at_most = at_most && (*v)[k] <= len->second;
        below = below && (*v)[k] < len->second;
        equal = equal && (*v)[k] == len->second;
      }
      if (at_most) {
        int weak = add(absl::StrCat(f->name, " <= ", array, ".length"), needs, -1);
        if (below) add(absl::StrCat(f->name, " < ", array, ".length"), needs, weak);
        if (equal) add(absl::StrCat(f->name, " == ", array, ".length"), needs, weak);
      }
    }
  }
  // One integral field never above another.
  for (size_t a = 0; a < fields.size(); ++a) {
    if (!IsIntegral(fields[a]->descriptor)) continue;
    std::optional<std::vector<int64_t>> x = integral(fields[a]->name);
    if (!x) continue;
    for (size_t b = a + 1; b < fields.size(); ++b) {
      if (!IsIntegral(fields[b]->descriptor)) continue;
      std::optional<std::vector<int64_t>> y = integral(fields[b]->name);
      if (!y) continue;
      bool le = true, ge = true;
      for (size_t k = 0; k < x->size(); ++k) {
        le = le && (*x)[k] <= (*y)[k];
        ge = ge && (*x)[k] >= (*y)[k];
      }
      const std::string& n = fields[a]->name;
      const std::string& m = fields[b]->name;
      if (le && ge) {
        add(absl::StrCat(n, " == ", m), -1, -1);
      } else if (le) {
        add(absl::StrCat(n, " <= ", m), -1, -1);
      } else if (ge) {
        add(absl::StrCat(m, " <= ", n), -1, -1);
      }
    }
  }
  return out;
}

std::vector<const Method*> MethodsKeepingInvariants(const ClassFile& cls) {
  std::vector<const Method*> out;
  for (const Method& m : cls.methods) {
    if (!m.code || m.is_static()) continue;
    if (m.name != "<init>" && (m.access & classfile::kAccPrivate)) continue;
    out.push_back(&m);
  }
  return out;
}

absl::StatusOr<check::CheckResult> CheckInvariantsOf(const ClassFile& cls, const Method& method,
                                                     const std::vector<std::string>& invariants,
                                                     const InvariantProofOptions& options) {
  check::ValidateRequest request;
  std::string class_name = classfile::InternalToBinary(cls.name);
  request.method = absl::StrCat(class_name, "#", method.name, method.descriptor);
  // JML's default case, written out: any pre-state the invariants admit,
  // any outcome; only the invariants are checked.
  request.contract = "public behavior\n  requires true;\n";
  request.contract_file = absl::StrCat("<invariants of ", class_name, ">");
  request.format = jml::ContractFormat::kSpecText;
  request.unwind = options.unwind;
  request.max_array = options.max_array;
  request.timeout_seconds = options.timeout_seconds;
  request.class_invariants = invariants;
  TS_ASSIGN_OR_RETURN(check::ValidationReport report, options.validator->Validate(request));
  return std::move(report.consistency);
}

absl::StatusOr<ClassInvariants> ProveClassInvariants(const ClassFile& cls,
                                                     std::vector<InvariantCandidate> candidates,
                                                     const InvariantProofOptions& options) {
  ClassInvariants out;
  out.class_name = classfile::InternalToBinary(cls.name);
  out.candidates = static_cast<int>(candidates.size());
  if (candidates.empty()) return out;
  std::vector<const Method*> methods = MethodsKeepingInvariants(cls);
  std::vector<bool> active(candidates.size(), true);
  std::vector<std::string> refuted_by(candidates.size());  // the first method that broke it
  for (size_t round = 0; round <= candidates.size(); ++round) {
    std::vector<std::string> texts;
    std::vector<size_t> index;  // texts[k] is candidates[index[k]]
    for (size_t i = 0; i < candidates.size(); ++i) {
      if (!active[i]) continue;
      texts.push_back(candidates[i].text);
      index.push_back(i);
    }
    if (index.empty()) break;
    std::set<size_t> refuted;
    for (const Method* m : methods) {
      TS_ASSIGN_OR_RETURN(check::CheckResult c, CheckInvariantsOf(cls, *m, texts, options));
      ++out.validations;
      if (c.status == check::CheckStatus::kPass) {
        out.within_bounds = out.within_bounds || !c.complete;
        continue;
      }
      bool attributed = c.status == check::CheckStatus::kFail;
      for (const check::Diagnostic& d : c.diagnostics) {
        if (d.kind != check::Diagnostic::Kind::kViolated) continue;
        if (d.given_invariant >= 0 && d.given_invariant < static_cast<int>(index.size())) {
          size_t i = index[d.given_invariant];
          refuted.insert(i);
          if (refuted_by[i].empty()) refuted_by[i] = m->name == "<init>" ? "a constructor" : m->name;
        } else {
          attributed = false;
        }
      }
      if (!attributed) {
        out.note = absl::StrCat(m->name, m->descriptor, ": consistency ",
                                check::CheckStatusName(c.status), " (", c.summary, ")");
        return out;  // not decided: nothing is kept
      }
    }
    if (refuted.empty()) {
      for (size_t i = 0; i < candidates.size(); ++i) {
        if (!active[i]) continue;
        // A proved stronger form makes the weaker one say nothing more.
        bool implied = false;
        for (size_t j = 0; j < candidates.size(); ++j) {
          implied = implied || (active[j] && candidates[j].stronger_than == static_cast<int>(i));
        }
        if (!implied) out.invariants.push_back(candidates[i].text);
      }
      return out;
    }
    for (size_t i : refuted) active[i] = false;
    // Those that need a refuted one go with it.
    for (size_t i = 0; i < candidates.size(); ++i) {
      int needs = candidates[i].needs;
      if (needs >= 0 && !active[needs]) active[i] = false;
    }
  }
  std::vector<std::string> named;
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (!refuted_by[i].empty()) named.push_back(absl::StrCat(candidates[i].text, " by ", refuted_by[i]));
  }
  out.note = absl::StrCat("refuted: ", absl::StrJoin(named, ", "));
  return out;
}

}  // namespace tracespec::project

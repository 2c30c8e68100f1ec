// Validator: finding the method and its specification, type-checking it
// against the class files, then the two checks; see validator.h.
#include "validator/check/validator.h"

#include <chrono>
#include <cstdlib>
#include <optional>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/method_id.h"
#include "common/status.h"
#include "validator/check/checks.h"
#include "validator/check/classfile_env.h"
#include "validator/classfile/class_path.h"
#include "validator/jml/clauses.h"
#include "validator/jml/type_checker.h"
#include "validator/symex/program.h"

namespace tracespec::check {

const char* CheckStatusName(CheckStatus status) {
  switch (status) {
    case CheckStatus::kPass: return "PASS";
    case CheckStatus::kFail: return "FAIL";
    case CheckStatus::kError: return "ERROR";
    case CheckStatus::kUnknown: return "UNKNOWN";
    case CheckStatus::kSkipped: return "SKIPPED";
  }
  return "?";
}

const char* DiagnosticKindName(Diagnostic::Kind kind) {
  switch (kind) {
    case Diagnostic::Kind::kViolated: return "violated";
    case Diagnostic::Kind::kWellDefinedness: return "well-definedness";
    case Diagnostic::Kind::kSyntax: return "syntax";
    case Diagnostic::Kind::kType: return "type";
    case Diagnostic::Kind::kUnsupported: return "unsupported";
    case Diagnostic::Kind::kNote: return "note";
    case Diagnostic::Kind::kUndecided: return "undecided";
  }
  return "?";
}

std::string ValidationReport::Bits() const {
  auto bit = [](const CheckResult& r) {
    return r.status == CheckStatus::kPass ? "1" : r.status == CheckStatus::kSkipped ? "-" : "0";
  };
  return absl::StrCat(bit(consistency), bit(coverage));
}

bool ValidationReport::Passed() const { return !absl::StrContains(Bits(), '0'); }

namespace {

// Splits "file:line:column: message" lines of a front-end status into
// diagnostics.
std::vector<Diagnostic> DiagnosticsOf(const absl::Status& status, Diagnostic::Kind kind,
                                      const std::string& file) {
  std::vector<Diagnostic> out;
  auto name = std::make_shared<const std::string>(file);
  for (absl::string_view line : absl::StrSplit(status.message(), '\n')) {
    if (line.empty()) continue;
    Diagnostic d;
    d.kind = kind;
    d.message = std::string(line);
    // Find ":<line>:<column>: ".
    for (size_t i = 0; i < line.size(); ++i) {
      if (line[i] != ':') continue;
      size_t j = i + 1, l = 0, c = 0;
      while (j < line.size() && isdigit(static_cast<unsigned char>(line[j]))) l = l * 10 + (line[j++] - '0');
      if (j == i + 1 || j >= line.size() || line[j] != ':') continue;
      size_t k = j + 1;
      while (k < line.size() && isdigit(static_cast<unsigned char>(line[k]))) c = c * 10 + (line[k++] - '0');
      if (k == j + 1) continue;
      d.span.file = std::make_shared<const std::string>(std::string(line.substr(0, i)));
      d.span.line = static_cast<int>(l);
      d.span.column = static_cast<int>(c);
      d.span.end_line = d.span.line;
      d.span.end_column = d.span.column;
      size_t rest = k < line.size() && line[k] == ':' ? k + 1 : k;
      while (rest < line.size() && line[rest] == ' ') ++rest;
      d.message = std::string(line.substr(rest));
      break;
    }
    if (!d.span.valid()) d.span.file = name;
    // The front end's message says "unsupported: ..."; the diagnostic's
    // kind says it once, where it is shown ("unsupported at ...: ...").
    absl::string_view message = d.message;
    if (kind == Diagnostic::Kind::kUnsupported && absl::ConsumePrefix(&message, "unsupported: ")) {
      d.message = std::string(message);
    }
    out.push_back(std::move(d));
  }
  return out;
}

// A report whose checks could not run because the contract is ill-formed
// or uses constructs the checker does not handle (both ERROR).
ValidationReport ContractProblem(ValidationReport report, const absl::Status& status,
                                 Diagnostic::Kind kind, const ValidateRequest& request) {
  // Valid JML the checker does not handle is UNKNOWN (naming the
  // construct); a syntax or type error is ERROR.
  CheckStatus st = kind == Diagnostic::Kind::kUnsupported ? CheckStatus::kUnknown
                                                          : CheckStatus::kError;
  std::vector<Diagnostic> diagnostics = DiagnosticsOf(status, kind, request.contract_file);
  std::string first = diagnostics.empty() ? std::string(status.message())
                                          : diagnostics[0].message;
  const char* what = kind == Diagnostic::Kind::kSyntax        ? "syntax error"
                     : kind == Diagnostic::Kind::kUnsupported ? "unsupported"
                                                              : "type error";
  std::string where = diagnostics.empty() || !diagnostics[0].span.valid()
                          ? ""
                          : absl::StrCat(" at ", diagnostics[0].span.ToString());
  for (CheckResult* r : {&report.consistency, &report.coverage}) {
    if (r == &report.coverage && !request.has_observations) continue;
    r->status = st;
    r->summary = absl::StrCat(what, where, ": ", first);
    r->diagnostics = diagnostics;
  }
  return report;
}

// In-body annotations the consistency check executes (see checks.h).
bool IsExecutedStatement(jml::BodyAnnotationKind kind) {
  return kind == jml::BodyAnnotationKind::kAssert || kind == jml::BodyAnnotationKind::kAssume ||
         kind == jml::BodyAnnotationKind::kGhostDecl || kind == jml::BodyAnnotationKind::kSet;
}

// Loop invariants and `decreases` belong to the loop they precede.
bool IsLoopAnnotation(const jml::BodyAnnotation& a) {
  return a.kind == jml::BodyAnnotationKind::kLoopInvariant ||
         a.kind == jml::BodyAnnotationKind::kDecreases;
}

// The head (the target of its back edges) of the loop `a` precedes: the
// first loop head at or after the first instruction of the loop
// statement's lines. Found by offset, not by line: the statement's first
// line may have no code (`while (true)`, `do`) or only the initialisation
// (`for (int i = 0;` with the condition on the next line). Nullopt when
// `a` does not precede a loop or none is found.
std::optional<uint32_t> LoopHeadOf(const classfile::Code& code, const jml::BodyAnnotation& a) {
  if (!IsLoopAnnotation(a) || !a.precedes_loop || a.next_code_line <= 0) return std::nullopt;
  std::optional<uint32_t> start;  // javac emits a statement's code after the lines before it
  for (const classfile::Instruction& ins : code.instructions) {
    if (static_cast<int>(code.LineOf(ins.pc)) >= a.next_code_line) {
      start = ins.pc;
      break;
    }
  }
  if (!start) return std::nullopt;
  for (const auto& [head, last] : code.LoopRanges()) {
    if (head >= *start) return head;
  }
  return std::nullopt;
}

// The locals of `method` live where an annotation takes effect, from the
// LocalVariableTable: at the head of its loop for loop annotations whose
// loop was found, else at the code of the line it precedes.
jml::LocalsAtLine LocalsAtLine(const symex::MethodInfo& method,
                               const std::vector<jml::BodyAnnotation>& annotations) {
  return [&method, &annotations](int line) {
    std::vector<std::pair<std::string, jml::Type>> out;
    if (!method.has_code()) return out;
    const classfile::Code& code = method.code();
    std::optional<uint32_t> head;
    for (const jml::BodyAnnotation& a : annotations) {
      if (a.span.line != line) continue;
      if (a.next_code_line > 0) line = a.next_code_line;
      head = LoopHeadOf(code, a);
      break;
    }
    for (const classfile::LocalVariable& lv : code.locals) {
      bool live = false;
      for (const classfile::Instruction& ins : code.instructions) {
        bool here = head ? ins.pc == *head : static_cast<int>(code.LineOf(ins.pc)) == line;
        if (here && ins.pc >= lv.start_pc && ins.pc < lv.start_pc + lv.length) {
          live = true;
          break;
        }
      }
      auto type = jml::Type::FromDescriptor(lv.descriptor);
      if (live && type.ok() && lv.name != "this") out.emplace_back(lv.name, *type);
    }
    return out;
  };
}

class ValidatorImpl : public Validator {
 public:
  explicit ValidatorImpl(std::string class_path) : class_path_(std::move(class_path)) {}

  absl::StatusOr<ValidationReport> Validate(const ValidateRequest& request) override {
    return Run(request, /*strength=*/false);
  }

  absl::StatusOr<ValidationReport> MeasureStrength(const ValidateRequest& request) override {
    TS_ASSIGN_OR_RETURN(ValidationReport report, Run(request, /*strength=*/true));
    if (!report.strength.measured && report.strength.note.empty()) {
      const CheckResult& why = report.coverage.status == CheckStatus::kSkipped
                                   ? report.consistency
                                   : report.coverage;
      report.strength.note = absl::StrCat("strength not measured: the contract does not check (",
                                          why.summary, ")");
    }
    return report;
  }

 private:
  // Validate, or with `strength` coverage and MeasureStrengthOf instead of
  // consistency.
  absl::StatusOr<ValidationReport> Run(const ValidateRequest& request, bool strength) {
    if (request.unwind < 1 || request.unwind > 1000000) {
      return absl::InvalidArgumentError(absl::StrCat("unwind ", request.unwind, " is outside 1..1000000"));
    }
    if (request.max_array < 0 || request.max_array > 4096) {
      return absl::InvalidArgumentError(absl::StrCat("max-array ", request.max_array, " is outside 0..4096"));
    }
    if (!(request.timeout_seconds > 0)) return absl::InvalidArgumentError("the timeout must be positive");
    TS_ASSIGN_OR_RETURN(jml::MethodSelector selector, jml::MethodSelector::Parse(request.method));
    if (program_ == nullptr) {
      TS_ASSIGN_OR_RETURN(classfile::ClassPath cp, classfile::ClassPath::Create(class_path_));
      TS_ASSIGN_OR_RETURN(program_, symex::Program::Load(std::move(cp)));
      class_env_ = std::make_unique<ClassFileTypeEnvironment>(&program_->class_path());
    }
    TS_RETURN_IF_ERROR(program_->NeededClass(classfile::BinaryToInternal(selector.class_name)));
    const symex::ClassInfo* cls =
        program_->FindClass(classfile::BinaryToInternal(selector.class_name));
    if (cls == nullptr || cls->origin != symex::ClassInfo::Origin::kClassPath) {
      return absl::NotFoundError(absl::StrCat("class ", selector.class_name,
                                              " not found on the class path ", class_path_));
    }
    std::vector<const symex::MethodInfo*> matches;
    for (const symex::MethodInfo* m : program_->FindMethodsByName(cls, selector.method_name)) {
      if (selector.Matches(m->descriptor)) matches.push_back(m);
    }
    if (matches.empty()) {
      return absl::NotFoundError(absl::StrCat("class ", selector.class_name, " has no method ",
                                              selector.method_name, selector.descriptor));
    }
    if (matches.size() > 1) {
      std::vector<std::string> options;
      for (const symex::MethodInfo* m : matches) options.push_back(absl::StrCat(m->name, m->descriptor));
      return absl::InvalidArgumentError(absl::StrCat(
          "method ", selector.method_name, " is overloaded in ", selector.class_name,
          "; give a descriptor: ", absl::StrJoin(options, ", ")));
    }
    const symex::MethodInfo& method = *matches[0];
    if (!method.has_code()) {
      return absl::InvalidArgumentError(absl::StrCat(method.DisplayName(),
                                                     " has no bytecode (abstract or native)"));
    }
    selector.descriptor = method.descriptor;
    ValidationReport report;
    report.method = absl::StrCat(selector.class_name, "#", method.name, method.descriptor);
    // The observations of this method (an observe run of several methods
    // records them all); none among some given is bad input.
    std::vector<v1::Observation> own_observations;
    const std::vector<v1::Observation>* observations = &request.observations;
    if (request.has_observations) {
      std::set<std::string> others;
      for (const v1::Observation& o : request.observations) {
        const v1::MethodRef& m = o.method();
        if (m.class_name() == selector.class_name && m.name() == method.name &&
            m.jvm_descriptor() == method.descriptor) {
          own_observations.push_back(o);
        } else {
          others.insert(MethodId::FromRef(m).Key());
        }
      }
      if (!others.empty() && own_observations.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat("no observation of ", report.method, " among the ",
                         request.observations.size(), " given (they are of ",
                         absl::StrJoin(others, ", "), ")"));
      }
      if (!others.empty()) observations = &own_observations;
    }
    // The contract.
    jml::LoadOptions load;
    load.classpath = class_env_.get();
    auto src = jml::ParseMethodSpecSource(request.contract, request.contract_file, request.format,
                                          selector, load);
    if (!src.ok()) {
      Diagnostic::Kind kind = src.status().code() == absl::StatusCode::kInvalidArgument
                                  ? Diagnostic::Kind::kSyntax
                                  : src.status().code() == absl::StatusCode::kUnimplemented
                                        ? Diagnostic::Kind::kUnsupported
                                        : Diagnostic::Kind::kType;
      return ContractProblem(std::move(report), src.status(), kind, request);
    }
    auto mctx = src->Context();
    if (!mctx.ok()) return ContractProblem(std::move(report), mctx.status(), Diagnostic::Kind::kType, request);
    // A .java/.jml file declares the class again: its JML members and
    // modifiers are laid over the class files, which keep the last word
    // on fields and types (the file need not declare them).
    std::unique_ptr<jml::OverlayTypeEnvironment> overlay;
    const jml::TypeEnvironment* env = &src->environment();
    if (src->env != nullptr) {
      overlay = std::make_unique<jml::OverlayTypeEnvironment>(*src->chain, *src->env);
      env = overlay.get();
    }
    jml::TypeChecker checker(*env);
    auto checked = checker.CheckMethodSpec(*src->spec, *mctx);
    if (!checked.ok()) {
      Diagnostic::Kind kind = checked.status().code() == absl::StatusCode::kUnimplemented
                                  ? Diagnostic::Kind::kUnsupported
                                  : Diagnostic::Kind::kType;
      return ContractProblem(std::move(report), checked.status(), kind, request);
    }
    for (const jml::CheckNote& n : checked->notes) {
      Diagnostic d;
      d.kind = Diagnostic::Kind::kNote;
      d.span = n.span;
      d.message = n.message;
      report.notes.push_back(std::move(d));
    }
    SpecUnderCheck spec;
    spec.context = &*mctx;
    spec.spec = src->spec;
    spec.cases = jml::FlattenSpecCases(*src->spec);
    spec.env = env;
    if (src->type_decl != nullptr && src->env != nullptr) {
      auto class_checked = checker.CheckClassDecl(*src->type_decl, *src->env);
      if (!class_checked.ok()) {
        Diagnostic::Kind kind = class_checked.status().code() == absl::StatusCode::kUnimplemented
                                    ? Diagnostic::Kind::kUnsupported
                                    : Diagnostic::Kind::kType;
        return ContractProblem(std::move(report), class_checked.status(), kind, request);
      }
      for (const jml::ClassClause& c : src->type_decl->clauses) {
        if (c.kind == jml::ClassClauseKind::kInvariant && c.pred && !c.mods.Has(jml::kModStatic)) {
          spec.invariants.push_back(&c);
        }
        if (c.kind == jml::ClassClauseKind::kRepresents && c.target && c.pred &&
            c.represents != jml::RepresentsKind::kSuchThat) {
          spec.represents[c.target->name] = c.pred.get();
        }
      }
      for (const jml::FieldDecl& f : src->type_decl->fields) {
        if (f.mods.Has(jml::kModGhost) && !f.mods.Has(jml::kModStatic)) {
          spec.ghost_fields.push_back(&f);
        }
      }
      spec.model_methods.owner = mctx->class_name;
      for (const jml::MethodDecl& m : src->type_decl->methods) {
        if (!m.mods.Has(jml::kModModel) || (m.has_body && !m.model_body)) continue;
        auto m_ctx = jml::MakeMethodContext(*src->env, *src->type_decl, m);
        if (!m_ctx.ok()) continue;  // reported by CheckClassDecl
        std::string key = absl::StrCat(m.name, m_ctx->method.descriptor);
        if (m.model_body) {
          spec.model_methods.bodies[key] = m.model_body.get();
        } else {
          spec.model_methods.contracts[key] = &m;
        }
      }
    }
    if (src->method_decl != nullptr && !src->method_decl->body_annotations.empty()) {
      std::vector<jml::BodyAnnotation>& annotations = src->method_decl->body_annotations;
      bool has_invariant = false, has_statement = false, has_other = false;
      for (const jml::BodyAnnotation& a : annotations) {
        bool invariant = a.kind == jml::BodyAnnotationKind::kLoopInvariant;
        bool statement = IsExecutedStatement(a.kind);
        has_invariant |= invariant;
        has_statement |= statement;
        has_other |= !invariant && !statement;
      }
      bool check_invariants = request.check_loop_invariants && has_invariant;
      if (check_invariants || has_statement) {
        auto body_checked = checker.CheckBodyAnnotations(annotations, *mctx,
                                                         LocalsAtLine(method, annotations));
        if (!body_checked.ok()) {
          absl::Status status = body_checked.status();
          if (status.code() == absl::StatusCode::kInvalidArgument && method.has_code() &&
              method.code().locals.empty()) {
            // Without a LocalVariableTable no local has a name: the
            // annotation may be right, the class file cannot tell.
            status = absl::UnimplementedError(absl::StrCat(
                status.message(), " (unsupported: the class file has no LocalVariableTable, so "
                                  "local variables in body annotations cannot be resolved; "
                                  "compile with javac -g)"));
          }
          Diagnostic::Kind kind = status.code() == absl::StatusCode::kUnimplemented
                                      ? Diagnostic::Kind::kUnsupported
                                      : Diagnostic::Kind::kType;
          return ContractProblem(std::move(report), status, kind, request);
        }
        for (const jml::BodyAnnotation& a : annotations) {
          if (check_invariants && a.kind == jml::BodyAnnotationKind::kLoopInvariant && a.expr) {
            spec.loop_invariants.push_back(&a);
            if (auto head = LoopHeadOf(method.code(), a)) spec.loop_heads[&a] = *head;
          }
          bool complete = a.kind == jml::BodyAnnotationKind::kGhostDecl ||
                          (a.expr && (a.kind != jml::BodyAnnotationKind::kSet || a.target));
          if (IsExecutedStatement(a.kind) && complete) spec.body_statements.push_back(&a);
        }
      }
      std::vector<std::string> ignored;
      if (has_invariant && !check_invariants) {
        ignored.push_back("loop invariants (skipped as asked)");
      }
      if (has_other) ignored.push_back("decreases, loop_assignable and debug statements");
      if (!ignored.empty()) {
        Diagnostic d;
        d.kind = Diagnostic::Kind::kNote;
        d.span = annotations[0].span;
        d.message = absl::StrCat("annotations in the method body: ", absl::StrJoin(ignored, "; "),
                                 " are ignored", has_statement ? "; assert, assume, ghost declarations and set statements are executed" : "");
        report.notes.push_back(std::move(d));
      }
    }
    // The invariants given with the request, as if the class declared them.
    std::vector<std::unique_ptr<jml::ClassClause>> given_invariants;
    if (!method.is_static()) {
      for (const std::string& text : request.class_invariants) {
        auto clause = std::make_unique<jml::ClassClause>();
        absl::StatusOr<jml::ExprPtr> pred = jml::ParseExpressionText(text, "<class invariant>");
        if (!pred.ok()) {
          return ContractProblem(std::move(report), pred.status(), Diagnostic::Kind::kSyntax, request);
        }
        // Of a constructor, read where it holds: at the exit.
        auto typed = checker.CheckExpression(**pred, *mctx,
                                             method.name == "<init>"
                                                 ? jml::TypeChecker::Position::kPostcondition
                                                 : jml::TypeChecker::Position::kPrecondition);
        if (!typed.ok()) {
          return ContractProblem(std::move(report), typed.status(), Diagnostic::Kind::kType, request);
        }
        clause->pred = *std::move(pred);
        spec.invariants.push_back(clause.get());
        spec.given_invariants.push_back(clause.get());
        given_invariants.push_back(std::move(clause));
      }
    }
    if (spec.cases.empty()) {
      Diagnostic d;
      d.kind = Diagnostic::Kind::kNote;
      if (spec.invariants.empty()) {
        d.message = "the contract has no specification case for this method (it allows everything)";
      } else {
        // JML's default specification (requires true; any outcome) still
        // asks the method to keep the class invariants: one case with no
        // clause checks that, and only that.
        jml::FlatCase only_invariants;
        only_invariants.behavior = jml::Behavior::kBehavior;
        only_invariants.label = "the default case (no specification: only the invariants)";
        spec.cases.push_back(std::move(only_invariants));
        d.message =
            "the contract has no specification case for this method: JML's default (requires "
            "true; any outcome) is checked, with the class invariants at entry and at exit";
      }
      report.notes.push_back(std::move(d));
    }
    if (request.has_observations) {
      report.coverage = CheckCoverage(*observations, spec);
    }
    if (strength) {
      if (!request.has_observations) {
        report.strength.note = "strength not measured: no observations";
        return report;
      }
      report.strength = MeasureStrengthOf(*program_, method, spec, *observations, request);
      return report;
    }
    if (request.coverage_only) return report;
    TS_ASSIGN_OR_RETURN(report.consistency, CheckConsistency(*program_, method, spec, request));
    return report;
  }

  std::string class_path_;
  std::unique_ptr<symex::Program> program_;
  std::unique_ptr<ClassFileTypeEnvironment> class_env_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Validator>> Validator::Create(const std::string& class_path) {
  // Fail early on a path that does not exist; classes load on first use.
  TS_RETURN_IF_ERROR(classfile::ClassPath::Create(class_path).status());
  return std::unique_ptr<Validator>(new ValidatorImpl(class_path));
}

absl::StatusOr<std::unique_ptr<Validator>> MakeValidator(const ValidatorFactory& factory,
                                                         const std::string& class_path) {
  return factory ? factory(class_path) : Validator::Create(class_path);
}

}  // namespace tracespec::check

// Locating a method's specification in a contract file; see spec_source.h.
#include "validator/jml/spec_source.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "common/status.h"

namespace tracespec::jml {

const TypeEnvironment& MethodSpecSource::environment() const {
  if (env) return *env;
  return *chain;
}

absl::StatusOr<MethodContext> MethodSpecSource::Context(const TypeCheckOptions& options) const {
  if (env && type_decl != nullptr && method_decl != nullptr) {
    return MakeMethodContext(*env, *type_decl, *method_decl, options);
  }
  // A specification text: the class must be known to the classpath.
  const TypeEnvironment& e = environment();
  const ClassInfo* cls = e.FindClass(selector.class_name);
  if (cls == nullptr) {
    return absl::NotFoundError(
        absl::StrCat(file, ": class ", selector.class_name,
                     " is not known; a specification text needs the class on the classpath"));
  }
  std::vector<const MethodInfo*> matches;
  for (const auto& m : cls->methods) {
    if (m.name == selector.method_name && selector.Matches(m.descriptor) &&
        (descriptor.empty() || m.descriptor == descriptor)) {
      matches.push_back(&m);
    }
  }
  if (matches.empty()) {
    return absl::NotFoundError(
        absl::StrCat(file, ": no method ", selector.ToString(), " in class ", selector.class_name));
  }
  if (matches.size() > 1) {
    std::vector<std::string> descs;
    for (const auto* m : matches) descs.push_back(absl::StrCat(m->name, m->descriptor));
    return absl::InvalidArgumentError(
        absl::StrCat(file, ": method ", selector.method_name, " is overloaded in ",
                     selector.class_name, "; give a descriptor: ", absl::StrJoin(descs, ", ")));
  }
  std::vector<std::string> names;
  if (method_decl != nullptr) {
    for (const auto& p : method_decl->params) names.push_back(p.name);
  }
  NameContext ctx;
  size_t dot = selector.class_name.rfind('.');
  if (dot != std::string::npos) ctx.package = selector.class_name.substr(0, dot);
  ctx.enclosing_class = selector.class_name;
  TS_ASSIGN_OR_RETURN(MethodContext out,
                      MakeMethodContext(e, selector.class_name, selector.method_name,
                                        matches[0]->descriptor, names, ctx, options));
  // The text's own declaration says which references may be null
  // (`void sort(/*@ nullable @*/ int[] values)`), as a .jml file's would.
  if (method_decl != nullptr) {
    for (size_t k = 0; k < method_decl->params.size() && k < out.param_nullity.size(); ++k) {
      Nullity declared = DeclaredNullity(method_decl->params[k].mods);
      if (declared != Nullity::kUnspecified && out.method.params[k].IsReference()) {
        out.param_nullity[k] = declared;
      }
    }
    Nullity declared = DeclaredNullity(method_decl->mods);
    if (declared != Nullity::kUnspecified && out.method.result.IsReference()) {
      out.result_nullity = declared;
    }
  }
  return out;
}

namespace {

// JML errors recorded on the declarations that a method's check depends on.
absl::Status CollectErrors(const CompilationUnit& unit, const TypeDecl& decl,
                           const MethodDecl* method) {
  std::vector<std::string> messages;
  auto add = [&](const std::vector<absl::Status>& errors) {
    for (const auto& e : errors) messages.emplace_back(e.message());
  };
  add(unit.errors);
  for (const TypeDecl* d = &decl; d != nullptr; d = d->outer) add(d->errors);
  if (method != nullptr) add(method->errors);
  if (messages.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrJoin(messages, "\n"));
}

std::string SimpleName(const std::string& binary) {
  size_t cut = binary.find_last_of(".$");
  return cut == std::string::npos ? binary : binary.substr(cut + 1);
}

}  // namespace

absl::StatusOr<MethodSpecSource> ParseMethodSpecSource(absl::string_view content,
                                                       const std::string& file,
                                                       ContractFormat format,
                                                       const MethodSelector& selector,
                                                       const LoadOptions& options) {
  if (format == ContractFormat::kAuto) {
    format = absl::EndsWith(file, ".java")  ? ContractFormat::kJava
             : absl::EndsWith(file, ".jml") ? ContractFormat::kJml
                                            : ContractFormat::kSpecText;
  }
  MethodSpecSource src;
  src.file = file;
  src.selector = selector;
  std::vector<const TypeEnvironment*> layers;
  if (options.classpath != nullptr) layers.push_back(options.classpath);
  layers.push_back(&JdkTypeEnvironment());
  src.chain = std::make_unique<ChainedTypeEnvironment>(std::move(layers));

  if (format == ContractFormat::kSpecText) {
    src.kind = SourceKind::kSpecText;
    TS_ASSIGN_OR_RETURN(SpecText text, ParseSpecText(content, file, options.parse));
    src.text = std::make_unique<SpecText>(std::move(text));
    src.spec = &src.text->spec;
    if (src.text->method) {
      MethodDecl& m = *src.text->method;
      src.method_decl = &m;
      bool is_ctor_selector = selector.method_name == "<init>";
      bool name_ok = m.is_constructor
                         ? (is_ctor_selector && m.name == SimpleName(selector.class_name))
                         : m.name == selector.method_name;
      if (!name_ok) {
        return ErrorAt(m.span, absl::StrCat("the specification is for '", m.name, "', not for ",
                                            selector.ToString()));
      }
      if (m.is_constructor) m.name = "<init>";
      // The header's descriptor, resolved as well as the classpath allows.
      NameContext ctx;
      size_t dot = selector.class_name.rfind('.');
      if (dot != std::string::npos) ctx.package = selector.class_name.substr(0, dot);
      ctx.enclosing_class = selector.class_name;
      for (const auto& tp : m.type_params) ctx.type_variables[tp.name] = tp.bounds;
      std::vector<Type> params;
      for (const auto& p : m.params)
        params.push_back(*ResolveType(*src.chain, ctx, p.type, /*guess=*/true));
      Type result =
          m.is_constructor ? Type::Void() : *ResolveType(*src.chain, ctx, m.return_type, true);
      src.descriptor = MakeMethodDescriptor(params, result);
      if (!selector.Matches(src.descriptor)) {
        return ErrorAt(m.span, absl::StrCat("the declaration has descriptor ", src.descriptor,
                                            ", not ", selector.descriptor));
      }
    }
    return src;
  }

  src.kind = format == ContractFormat::kJava ? SourceKind::kJava : SourceKind::kJmlFile;
  if (format == ContractFormat::kJava) {
    TS_ASSIGN_OR_RETURN(src.unit, ParseJavaSource(content, file, options.parse));
  } else {
    TS_ASSIGN_OR_RETURN(src.unit, ParseJmlFile(content, file, options.parse));
  }
  src.env = std::make_unique<SourceTypeEnvironment>(
      std::vector<const CompilationUnit*>{src.unit.get()}, src.chain.get());
  src.type_decl = src.unit->FindType(selector.class_name);
  if (src.type_decl == nullptr) {
    std::vector<std::string> declared;
    for (const auto& t : src.unit->types) declared.push_back(t->binary_name);
    return absl::NotFoundError(absl::StrCat(
        file, ": class ", selector.class_name, " is not declared here",
        declared.empty() ? ""
                         : absl::StrCat(" (it declares ", absl::StrJoin(declared, ", "), ")")));
  }
  std::vector<MethodDecl*> named;
  std::vector<MethodDecl*> matching;
  for (auto& m : src.type_decl->methods) {
    if (m.name != selector.method_name) continue;
    named.push_back(&m);
    const MethodInfo* info = src.env->InfoFor(*src.type_decl, m);
    if (info != nullptr && selector.Matches(info->descriptor)) matching.push_back(&m);
  }
  auto describe = [&](const std::vector<MethodDecl*>& ms) {
    std::vector<std::string> out;
    for (MethodDecl* m : ms) {
      const MethodInfo* info = src.env->InfoFor(*src.type_decl, *m);
      out.push_back(absl::StrCat(m->name, info != nullptr ? info->descriptor : "", " at line ",
                                 m->span.line));
    }
    return absl::StrJoin(out, ", ");
  };
  if (matching.empty()) {
    if (named.empty() && src.kind != SourceKind::kJmlFile) {
      return absl::NotFoundError(absl::StrCat(file, ": no method ", selector.method_name,
                                              " in class ", selector.class_name));
    }
    if (named.empty()) {
      // The class may well have the method: this file holds no contract of
      // it (a per-class .jml lists only the methods it specifies).
      std::vector<std::string> specified;
      for (const MethodDecl& m : src.type_decl->methods) {
        if (!m.jml && !m.spec.empty()) specified.push_back(m.name);
      }
      return absl::NotFoundError(absl::StrCat(
          file, ": no contract of ", selector.method_name, " here: the file declares no method ",
          selector.method_name, " in ", selector.class_name,
          specified.empty() ? " and specifies no method"
                            : absl::StrCat(" (it specifies ", absl::StrJoin(specified, ", "), ")")));
    }
    return absl::NotFoundError(
        absl::StrCat(file, ": no method ", selector.ToString(), "; declared: ", describe(named)));
  }
  if (matching.size() > 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        file, ": method ", selector.method_name, " is overloaded in ", selector.class_name,
        "; give a descriptor to choose one of ", describe(matching)));
  }
  src.method_decl = matching[0];
  src.spec = &src.method_decl->spec;
  src.descriptor = src.env->InfoFor(*src.type_decl, *src.method_decl)->descriptor;
  TS_RETURN_IF_ERROR(CollectErrors(*src.unit, *src.type_decl, src.method_decl));
  return src;
}

absl::StatusOr<MethodSpecSource> LoadMethodSpec(const std::string& path,
                                                const MethodSelector& selector,
                                                const LoadOptions& options) {
  TS_ASSIGN_OR_RETURN(std::string content, ReadFile(path));
  return ParseMethodSpecSource(content, path, ContractFormat::kAuto, selector, options);
}

SpecTextDeclaration SplitSpecTextDeclaration(absl::string_view text) {
  SpecTextDeclaration out;
  out.annotations = std::string(text);
  absl::StatusOr<SpecText> parsed = ParseSpecText(text, "<contract>");
  if (!parsed.ok() || parsed->method == nullptr || parsed->method->span.line <= 0) return out;
  const MethodDecl& m = *parsed->method;
  out.declared = true;
  for (const ParamDecl& p : m.params) out.params.push_back(DeclaredNullity(p.mods));
  out.result = DeclaredNullity(m.mods);
  // The declaration starts on its span's line and runs to the end.
  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  size_t keep = std::min(lines.size(), static_cast<size_t>(m.span.line - 1));
  out.annotations = absl::StrJoin(lines.begin(), lines.begin() + keep, "\n");
  if (!out.annotations.empty()) out.annotations += "\n";
  return out;
}

}  // namespace tracespec::jml

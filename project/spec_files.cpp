// Merged per-class .jml files; see spec_files.h.
#include "project/spec_files.h"

#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "agent/loop/refine.h"
#include "agent/prompt/signature.h"
#include "common/status.h"
#include "validator/classfile/class_file.h"
#include "validator/classfile/class_path.h"
#include "validator/classfile/descriptors.h"
#include "validator/jml/spec_source.h"

namespace tracespec::project {
namespace {

using classfile::ClassFile;
using classfile::ClassPath;

bool IsIdentStart(char c) { return absl::ascii_isalpha(c) || c == '_' || c == '$'; }
bool IsIdentPart(char c) { return absl::ascii_isalnum(c) || c == '_' || c == '$'; }

}  // namespace

std::vector<std::vector<std::string>> IdentifierChains(const std::string& text) {
  std::vector<std::vector<std::string>> chains;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < text.size() && text[j] != c) j += text[j] == '\\' ? 2 : 1;
      i = j + 1;
      continue;
    }
    if (c == '\\') {
      ++i;
      while (i < text.size() && IsIdentPart(text[i])) ++i;
      continue;
    }
    if (!IsIdentStart(c) || (i > 0 && IsIdentPart(text[i - 1]))) {
      ++i;
      continue;
    }
    bool after_dot = false;
    for (size_t k = i; k > 0;) {
      --k;
      if (text[k] == ' ') continue;
      after_dot = text[k] == '.' || text[k] == ')' || text[k] == ']';
      break;
    }
    std::vector<std::string> chain;
    while (i < text.size() && IsIdentStart(text[i])) {
      size_t j = i;
      while (j < text.size() && IsIdentPart(text[j])) ++j;
      chain.push_back(text.substr(i, j - i));
      i = j;
      if (i + 1 < text.size() && text[i] == '.' && IsIdentStart(text[i + 1])) {
        ++i;
      } else {
        break;
      }
    }
    if (!after_dot) chains.push_back(std::move(chain));
  }
  return chains;
}

namespace {

// A field found in `cls` or its superclasses (those on the class path).
struct FoundField {
  const ClassFile* owner = nullptr;
  const classfile::Field* field = nullptr;
};

FoundField FindField(ClassPath* path, const ClassFile* cls, const std::string& name) {
  for (int depth = 0; cls != nullptr && depth < 32; ++depth) {
    for (const classfile::Field& f : cls->fields) {
      if (f.name == name) return {cls, &f};
    }
    if (cls->super_name.empty()) break;
    absl::StatusOr<const ClassFile*> super = path->Load(cls->super_name);
    cls = super.ok() ? *super : nullptr;
  }
  return {};
}

const ClassFile* ClassOfDescriptor(ClassPath* path, const std::string& descriptor) {
  if (descriptor.size() < 3 || descriptor[0] != 'L') return nullptr;
  absl::StatusOr<const ClassFile*> cls =
      path->Load(descriptor.substr(1, descriptor.size() - 2));
  return cls.ok() ? *cls : nullptr;
}

std::string AccessWord(uint16_t access) {
  if (access & classfile::kAccPublic) return "public";
  if (access & classfile::kAccProtected) return "protected";
  if (access & classfile::kAccPrivate) return "private";
  return "";
}

std::string JoinWords(const std::vector<std::string>& words) {
  std::vector<std::string> nonempty;
  for (const std::string& w : words) {
    if (!w.empty()) nonempty.push_back(w);
  }
  return absl::StrJoin(nonempty, " ");
}

// A nested class's declaration takes its modifiers and simple name from
// its InnerClasses entry (the class's own access flags have no `static`
// or `private`).
std::string ClassHeader(const ClassFile& cls) {
  std::string binary = classfile::InternalToBinary(cls.name);
  std::string simple = binary.substr(binary.rfind('.') + 1);
  uint16_t access = cls.access;
  if (cls.nested) {
    simple = cls.nested->simple_name;
    access = cls.nested->access;
  }
  std::vector<std::string> words = {AccessWord(access)};
  if (cls.nested && (access & classfile::kAccStatic) && !cls.is_interface()) {
    words.push_back("static");
  }
  if (cls.is_abstract() && !cls.is_interface()) words.push_back("abstract");
  if (access & classfile::kAccFinal) words.push_back("final");
  words.push_back(cls.is_interface() ? "interface" : "class");
  words.push_back(simple);
  if (!cls.super_name.empty() && cls.super_name != "java/lang/Object") {
    words.push_back("extends");
    words.push_back(prompt::JavaTypeFromBinaryName(classfile::InternalToBinary(cls.super_name)));
  }
  std::string out = JoinWords(words);
  if (!cls.interfaces.empty()) {
    std::vector<std::string> names;
    for (const std::string& i : cls.interfaces) {
      names.push_back(prompt::JavaTypeFromBinaryName(classfile::InternalToBinary(i)));
    }
    absl::StrAppend(&out, cls.is_interface() ? " extends " : " implements ",
                    absl::StrJoin(names, ", "));
  }
  return out;
}

absl::StatusOr<std::string> FieldDeclaration(const classfile::Field& f) {
  TS_ASSIGN_OR_RETURN(std::string type, prompt::JavaTypeFromDescriptor(f.descriptor));
  std::vector<std::string> words = {AccessWord(f.access), "/*@ spec_public @*/"};
  if (f.is_static()) words.push_back("static");
  if (f.is_final()) words.push_back("final");
  if (f.access & classfile::kAccTransient) words.push_back("transient");
  if (f.access & classfile::kAccVolatile) words.push_back("volatile");
  words.push_back(type);
  words.push_back(f.name);
  return JoinWords(words) + ";";
}

// The method's declaration, and the contract's annotation lines (a
// declaration the contract ends with gives its nullity to this one).
struct MethodBlock {
  std::string declaration;
  std::string annotations;
};
absl::StatusOr<MethodBlock> MethodDeclaration(const ClassFile& cls, const classfile::Method& m,
                                              const std::string& contract) {
  TS_ASSIGN_OR_RETURN(prompt::MethodSignature from_class,
                      prompt::SignatureFromDescriptor(classfile::InternalToBinary(cls.name), m.name,
                                                      m.descriptor, /*is_static=*/false,
                                                      cls.ParameterNames(m)));
  loop::DeclaredContract declared = loop::SplitContractDeclaration(contract, from_class);
  prompt::MethodSignature& sig = declared.signature;
  sig.access.clear();
  std::vector<std::string> words = {AccessWord(m.access)};
  if (m.is_abstract()) words.push_back("abstract");
  if (m.is_static()) words.push_back("static");
  if (m.access & classfile::kAccFinal) words.push_back("final");
  if (m.access & classfile::kAccSynchronized) words.push_back("synchronized");
  if (m.is_native()) words.push_back("native");
  words.push_back(prompt::RenderDeclaration(sig));
  return MethodBlock{JoinWords(words) + ";", std::move(declared.annotations)};
}

std::string Indent(const std::string& text, const std::string& prefix) {
  std::string out;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    absl::StrAppend(&out, prefix, line, "\n");
  }
  return out;
}

struct ClassSpecs {
  const ClassFile* cls = nullptr;
  // Field name -> declaration, sorted by name.
  std::map<std::string, std::string> fields;
  // Method key (name + descriptor) -> its block.
  std::map<std::string, std::string> methods;
  const InvariantSpec* invariants = nullptr;
  // The binary names of the member classes declared in its body, sorted.
  std::set<std::string> members;
};

// The classes a .jml file declares `cls` in, outermost (the file's
// top-level class) first, ending with `cls` itself: a member class is
// declared in the body of the class it is a member of (InnerClasses). Empty
// when a class of the chain cannot be declared in a file: a local or
// anonymous class, or one whose enclosing class is not on the class path.
std::vector<const ClassFile*> DeclarationChain(ClassPath* path, const ClassFile* cls) {
  std::vector<const ClassFile*> chain = {cls};
  for (int depth = 0; chain.front()->nested; ++depth) {
    const ClassFile::NestedEntry& entry = *chain.front()->nested;
    if (depth >= 32 || entry.outer.empty() || entry.simple_name.empty()) return {};
    absl::StatusOr<const ClassFile*> outer = path->Load(entry.outer);
    if (!outer.ok()) return {};
    chain.insert(chain.begin(), *outer);
  }
  return chain;
}

// The body of `name`'s declaration in its file: its fields, invariants,
// methods and member classes, each line after `indent`.
void RenderClassBody(const std::map<std::string, ClassSpecs>& classes, const std::string& name,
                     const std::string& indent, std::string* text) {
  const ClassSpecs& specs = classes.at(name);
  for (const auto& [field, declaration] : specs.fields) {
    absl::StrAppend(text, indent, declaration, "\n");
  }
  bool first = specs.fields.empty();
  if (specs.invariants != nullptr) {
    if (!first) *text += "\n";
    first = false;
    absl::StrAppend(text, indent,
                    "// Object invariants: read off the observations, proved over every ",
                    "constructor and method of the class",
                    specs.invariants->within_bounds ? " (within bounds)" : "",
                    "; the contracts below assume them\n");
    for (const std::string& inv : specs.invariants->invariants) {
      absl::StrAppend(text, indent, "//@ public invariant ", inv, ";\n");
    }
  }
  for (const auto& [key, block] : specs.methods) {
    if (!first) *text += "\n";
    first = false;
    *text += Indent(block, indent);
  }
  for (const std::string& member : specs.members) {
    if (!first) *text += "\n";
    first = false;
    absl::StrAppend(text, indent, ClassHeader(*classes.at(member).cls), " {\n");
    RenderClassBody(classes, member, indent + "  ", text);
    absl::StrAppend(text, indent, "}\n");
  }
}

}  // namespace

absl::StatusOr<SpecFiles> RenderSpecFiles(const std::vector<MethodContract>& contracts,
                                          const std::string& classpath,
                                          const std::vector<std::string>& project_classes,
                                          const std::map<std::string, InvariantSpec>& invariants) {
  TS_ASSIGN_OR_RETURN(ClassPath path, ClassPath::Create(classpath));
  std::set<std::string> ours(project_classes.begin(), project_classes.end());
  std::map<std::string, ClassSpecs> classes;  // by binary name
  SpecFiles out;

  // Gives `cls` and the classes enclosing it an entry (a member class is
  // declared in its enclosing class's body); false when it cannot be
  // declared in a file (DeclarationChain).
  auto declare = [&](const ClassFile* cls) {
    std::vector<const ClassFile*> chain = DeclarationChain(&path, cls);
    for (size_t i = 0; i < chain.size(); ++i) {
      std::string name = classfile::InternalToBinary(chain[i]->name);
      classes[name].cls = chain[i];
      if (i > 0) {
        classes[classfile::InternalToBinary(chain[i - 1]->name)].members.insert(name);
      }
    }
    return !chain.empty();
  };

  auto mark_field = [&](const FoundField& found) -> absl::Status {
    if (found.field == nullptr || (found.field->access & classfile::kAccPublic)) {
      return absl::OkStatus();
    }
    std::string owner = classfile::InternalToBinary(found.owner->name);
    if (ours.count(owner) == 0 || !declare(found.owner)) return absl::OkStatus();
    ClassSpecs& specs = classes[owner];
    TS_ASSIGN_OR_RETURN(specs.fields[found.field->name], FieldDeclaration(*found.field));
    return absl::OkStatus();
  };

  for (const MethodContract& c : contracts) {
    TS_ASSIGN_OR_RETURN(jml::MethodSelector selector, jml::MethodSelector::Parse(c.method));
    TS_ASSIGN_OR_RETURN(const ClassFile* cls, path.Load(selector.class_name));
    std::vector<const ClassFile*> enclosing = DeclarationChain(&path, cls);
    if (enclosing.empty()) {
      out.skipped[c.method] =
          "a local or anonymous class, which a specification file cannot declare: its contract "
          "stays in the infer directory";
      continue;
    }
    if (enclosing.size() > 1 && selector.method_name == "<init>") {
      out.skipped[c.method] =
          "a constructor of a nested class: its contract stays in the infer directory";
      continue;
    }
    const classfile::Method* method = cls->FindMethod(selector.method_name, selector.descriptor);
    if (method == nullptr) {
      return absl::NotFoundError(absl::StrCat(c.method, ": no such method in the class files"));
    }
    std::vector<std::string> params = cls->ParameterNames(*method);
    TS_ASSIGN_OR_RETURN(classfile::MethodDescriptor descriptor,
                        classfile::ParseMethodDescriptor(method->descriptor));
    for (const std::vector<std::string>& chain : IdentifierChains(c.contract)) {
      const ClassFile* current = nullptr;
      size_t next = 1;
      if (chain[0] == "this") {
        current = cls;
      } else {
        bool is_param = false;
        for (size_t p = 0; p < params.size() && p < descriptor.params.size(); ++p) {
          if (params[p] == chain[0]) {
            current = ClassOfDescriptor(&path, descriptor.params[p]);
            is_param = true;
          }
        }
        if (!is_param) {
          FoundField found = FindField(&path, cls, chain[0]);
          if (found.field == nullptr) continue;
          TS_RETURN_IF_ERROR(mark_field(found));
          current = ClassOfDescriptor(&path, found.field->descriptor);
        }
      }
      for (; next < chain.size() && current != nullptr; ++next) {
        FoundField found = FindField(&path, current, chain[next]);
        if (found.field == nullptr) break;
        TS_RETURN_IF_ERROR(mark_field(found));
        current = ClassOfDescriptor(&path, found.field->descriptor);
      }
    }
    declare(cls);
    ClassSpecs& specs = classes[selector.class_name];
    TS_ASSIGN_OR_RETURN(MethodBlock block, MethodDeclaration(*cls, *method, c.contract));
    specs.methods[method->name + method->descriptor] =
        absl::StrCat(c.note.empty() ? "" : absl::StrCat("// ", c.note, "\n"), block.annotations,
                     block.annotations.empty() || block.annotations.back() == '\n' ? "" : "\n",
                     block.declaration, "\n");
    out.file_of[c.method] = absl::StrCat(enclosing.front()->name, ".jml");
  }

  // The invariants of the classes that have a file, and the fields they
  // read.
  for (const auto& [name, spec] : invariants) {
    auto it = classes.find(name);
    if (it == classes.end() || spec.invariants.empty()) continue;
    it->second.invariants = &spec;
    for (const std::string& inv : spec.invariants) {
      for (const std::vector<std::string>& chain : IdentifierChains(inv)) {
        TS_RETURN_IF_ERROR(mark_field(FindField(&path, it->second.cls, chain[0])));
      }
    }
  }

  for (const auto& [name, specs] : classes) {
    if (specs.cls->nested) continue;  // in its enclosing class's file
    std::string file = absl::StrCat(specs.cls->name, ".jml");
    size_t dot = name.rfind('.');
    std::string text = absl::StrCat("// ", name, ": specification written by tracespec run\n");
    if (dot != std::string::npos) absl::StrAppend(&text, "package ", name.substr(0, dot), ";\n");
    absl::StrAppend(&text, "\n", ClassHeader(*specs.cls), " {\n");
    RenderClassBody(classes, name, "  ", &text);
    text += "}\n";
    out.files[file] = std::move(text);
  }
  return out;
}

}  // namespace tracespec::project

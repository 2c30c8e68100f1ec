// The merged specification files of `tracespec run`: one .jml file per
// class under its package path (OUT/specs/bank/Account.jml) holding the
// contracts of all its methods, laid out for OpenJML's --specspath: the
// class and method declarations carry the modifiers of the class file
// (public, final, static, abstract, ...), and every non-public field a
// contract names (directly, through `this`, a parameter or a chain of
// fields) is declared `spec_public`, in its own class's file when it
// belongs to another class of the project.
#ifndef TRACESPEC_PROJECT_SPEC_FILES_H_
#define TRACESPEC_PROJECT_SPEC_FILES_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tracespec::project {

// The chains of identifiers joined by '.' in a JML text ("audit.entries"
// -> {"audit", "entries"}), skipping string and character literals and
// backslash keywords; a chain after a call or index (`f().x`) is left out.
std::vector<std::vector<std::string>> IdentifierChains(const std::string& text);

struct MethodContract {
  // Resolved selector, "bank.Account#deposit(I)V".
  std::string method;
  // Annotation lines ("//@ public normal_behavior", ...).
  std::string contract;
  // One comment line put in front of the method ("Success 11").
  std::string note;
};

// Renders the files: relative path ("bank/Account.jml") -> content.
// `classpath` holds the class files; only classes in `project_classes`
// (binary names) get files. A member class is declared, with its
// source modifiers (InnerClasses), in the body of the class it is a member
// of, in that top-level class's file; local and anonymous classes, and the
// constructors of nested classes, get none (their methods are listed in
// `skipped`, with the reason).
struct SpecFiles {
  std::map<std::string, std::string> files;
  // Method -> the file its contract is in.
  std::map<std::string, std::string> file_of;
  // Method -> why it is in no file.
  std::map<std::string, std::string> skipped;
};
// Proved object invariants of a class (project/invariants.h), put after
// its fields as `//@ public invariant P;` lines.
struct InvariantSpec {
  std::vector<std::string> invariants;
  bool within_bounds = false;  // some proof cut loops or input lengths
};
absl::StatusOr<SpecFiles> RenderSpecFiles(const std::vector<MethodContract>& contracts,
                                          const std::string& classpath,
                                          const std::vector<std::string>& project_classes,
                                          const std::map<std::string, InvariantSpec>& invariants = {});

}  // namespace tracespec::project

#endif  // TRACESPEC_PROJECT_SPEC_FILES_H_

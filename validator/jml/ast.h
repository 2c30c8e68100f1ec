// The JML abstract syntax tree: expressions, store references, method
// specification clauses and spec cases, class-level clauses, in-body
// annotations, and the Java declarations they are attached to. Every node
// has a SourceSpan. The type checker fills the `type` and `sym` fields of
// expressions in place; everything else is what the parser read.
#ifndef TRACESPEC_VALIDATOR_JML_AST_H_
#define TRACESPEC_VALIDATOR_JML_AST_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "validator/jml/span.h"
#include "validator/jml/types.h"

namespace tracespec::jml {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

// A type as written in the source: "int", "java.util.List<String>", "T[]",
// "\bigint". Generic arguments are kept for printing; the checker erases them.
struct TypeRef {
  SourceSpan span;
  std::string name;  // primitive keyword, \bigint/\real/\TYPE, or a (qualified) name
  std::vector<TypeRef> type_args;
  bool has_type_args = false;  // "<>" written (possibly empty, the diamond)
  int dims = 0;
  // Filled by the declaration resolver or the type checker.
  Type resolved;

  bool empty() const { return name.empty(); }
};

enum class LiteralKind { kNull, kBoolean, kInt, kLong, kFloat, kDouble, kChar, kString };

struct Literal {
  LiteralKind kind = LiteralKind::kNull;
  // kBoolean: 0/1; kInt/kLong: two's-complement bits (sign-extended for int);
  // kChar: the UTF-16 code unit.
  uint64_t bits = 0;
  float float_value = 0;
  double double_value = 0;
  std::u16string string_value;
};

enum class UnaryOp { kPlus, kMinus, kNot, kComplement };
enum class BinaryOp {
  kEquiv,           // <==>
  kInequiv,         // <=!=>
  kImplies,         // ==>
  kReverseImplies,  // <==
  kOr,              // ||
  kAnd,             // &&
  kBitOr,           // |
  kBitXor,          // ^
  kBitAnd,          // &
  kEq,              // ==
  kNe,              // !=
  kLt,
  kLe,
  kGt,
  kGe,
  kSubtype,  // <:
  kShl,
  kShr,
  kUshr,
  kAdd,
  kSub,
  kMul,
  kDiv,
  kRem,
};
const char* UnaryOpText(UnaryOp op);
const char* BinaryOpText(BinaryOp op);

enum class QuantifierKind { kForall, kExists, kSum, kProduct, kMax, kMin, kNumOf };
const char* QuantifierText(QuantifierKind q);  // "\\forall", ...

enum class ExprKind {
  kLiteral,
  kName,  // a simple name: parameter, local, bound variable, field, or (type checker) type
  kThis,
  kSuper,          // only as the object of a field access or method call
  kQualifiedThis,  // C.this; type_ref names C
  kFieldAccess,    // operands[0].name (also a.length and qualified names a.b.c)
  kArrayAccess,    // operands[0][operands[1]]
  kMethodCall,     // [operands[0].]name(args): see Receiver()/Arguments()
  kUnary,
  kBinary,
  kConditional,   // operands[0] ? operands[1] : operands[2]
  kCast,          // (type_ref) operands[0]
  kInstanceOf,    // operands[0] instanceof type_ref
  kQuantifier,    // (\forall type_ref bound_vars; [operands[0];] operands.back())
  kLet,           // (\let type_ref bound_vars[0] = operands[0]; operands[1]): one binding;
                  // (\let T x = e, U y = f; b) nests a kLet with flag set (a further
                  // binding of the same \let) as operands[1]; the names are kBoundVar
                  // with binder = this node and index 0
  kOld,           // \old(operands[0] [, name]) or \pre(operands[0])
  kResult,        // \result
  kJmlKeyword,    // \nothing \everything \not_specified \lockset \same (name without '\')
  kJmlCall,       // \fresh(..) \nonnullelements(..) \typeof(..) \elemtype(..) \type(T)
                  // \not_modified(..) \invariant_for(..) \reach(..) \max(..) ...:
                  // name without '\'; args in operands, or store_refs, or type_ref
  kLabeled,       // (\lblpos name operands[0]) / (\lblneg name operands[0])
  kInformal,      // (* text *), text in name
  kNewObject,     // new type_ref(operands)
  kNewArray,      // new type_ref[operands]..., or with an initializer (operands = elements)
  kArrayInit,     // { operands } nested inside an array initializer
  kClassLiteral,  // type_ref.class
};

// What a name, field access or call denotes, filled by the type checker.
enum class SymbolKind {
  kUnresolved,
  kParameter,    // index = parameter position (0-based, `this` not counted)
  kLocal,        // a local variable of the method body (in-body annotations)
  kGhostLocal,   // a ghost local declared by an in-body annotation
  kBoundVar,     // a quantifier's or \let's variable: binder + index
  kOldVar,       // a spec-case `old T x = e;` variable: index into SpecCase::vars
  kForallVar,    // a spec-case `forall T x;` variable: index into SpecCase::vars
  kSignalsVar,   // the exception variable of a signals clause
  kField,        // owner = declaring class, is_static
  kArrayLength,  // .length of an array
  kType,         // a name that denotes a class (owner = binary name)
  kPackage,      // a package prefix of a qualified name
  kMethod,       // owner, name, descriptor, is_static
};

struct Symbol {
  SymbolKind kind = SymbolKind::kUnresolved;
  std::string owner;       // class binary name for kField/kMethod/kType
  std::string descriptor;  // field or method descriptor
  bool is_static = false;
  bool is_ghost = false;  // ghost field or ghost local
  bool is_model = false;  // model field or model method
  bool is_enum_constant = false;  // kField: a constant of an enum (FieldInfo)
  int index = -1;
  const Expr* binder = nullptr;  // the quantifier for kBoundVar
};

struct BoundVar {
  std::string name;
  SourceSpan span;
};

struct StoreRef;

struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  SourceSpan span;
  Literal literal;       // kLiteral
  std::string name;      // see ExprKind
  SourceSpan name_span;  // span of `name` where it was written
  UnaryOp unary_op = UnaryOp::kPlus;
  BinaryOp binary_op = BinaryOp::kAdd;
  QuantifierKind quantifier = QuantifierKind::kForall;
  bool flag = false;  // kOld: \pre; kLabeled: \lblpos; kMethodCall: has receiver;
                      // kQuantifier: has a range; kNewArray: has initializer;
                      // kLet: a further binding of the enclosing \let
  std::vector<ExprPtr> operands;
  TypeRef type_ref;                  // cast, instanceof, quantifier variables, \type, new, .class
  std::vector<BoundVar> bound_vars;  // kQuantifier, kLet
  std::vector<StoreRef> store_refs;  // kJmlCall of \not_modified, \not_assigned, \only_*
  int height = 1;                    // tree height, bounded by the parser

  // Filled by the type checker.
  Type type;
  Symbol sym;

  Expr();
  ~Expr();
  Expr(Expr&&) noexcept;
  Expr& operator=(Expr&&) noexcept;
};

// Accessors for the operand conventions above.
const Expr* Receiver(const Expr& call);  // kMethodCall: nullptr when implicit
std::vector<const Expr*> Arguments(const Expr& call);
const Expr* QuantifierRange(const Expr& q);  // nullptr when absent
const Expr& QuantifierBody(const Expr& q);

// A location in assignable/accessible/captures clauses and \not_modified.
struct StoreRef {
  enum class Kind {
    kNothing,       // \nothing
    kEverything,    // \everything
    kNotSpecified,  // \not_specified
    kLocation,      // expr: a name, field access (x, this.f, o.f, C.f) or element a[i]
    kAllFields,     // expr.*
    kAllElements,   // expr[*]
    kArrayRange,    // expr[lo..hi]
    kInformal,      // (* text *)
  };
  Kind kind = Kind::kNothing;
  SourceSpan span;
  ExprPtr expr;
  ExprPtr lo, hi;
  std::string informal;

  StoreRef();
  ~StoreRef();
  StoreRef(StoreRef&&) noexcept;
  StoreRef& operator=(StoreRef&&) noexcept;
};

enum class ClauseKind {
  kRequires,
  kEnsures,
  kSignals,
  kSignalsOnly,
  kAssignable,
  kAccessible,
  kCaptures,
  kCallable,
  kDiverges,
  kWhen,
  kWorkingSpace,
  kDuration,
  kMeasuredBy,
};
// Canonical keyword ("requires", "assignable", ...).
const char* ClauseKeyword(ClauseKind kind);

// A method named in callable clauses and constraint `for` lists.
struct MethodRef {
  std::string name;  // possibly qualified, or "this"/"super"
  bool has_params = false;
  std::vector<TypeRef> params;
  SourceSpan span;
};

struct Clause {
  ClauseKind kind = ClauseKind::kRequires;
  bool redundant = false;  // the *_redundantly form
  SourceSpan span;         // keyword to ';'
  // Written without its final ';' (the last one of an annotation may be;
  // the type checker notes it).
  bool semicolon_omitted = false;
  // requires/ensures/signals/diverges/when: the predicate;
  // working_space/duration/measured_by: the value. \not_specified and \same
  // appear as kJmlKeyword expressions.
  ExprPtr pred;
  ExprPtr condition;  // the `if` part of working_space/duration/measured_by
  // signals (exception_type [exception_var]) pred
  TypeRef exception_type;
  std::string exception_var;
  SourceSpan exception_var_span;
  // signals_only: types (empty with `nothing` for \nothing)
  std::vector<TypeRef> types;
  bool nothing = false;
  // assignable/accessible/captures
  std::vector<StoreRef> store_refs;
  // callable: methods, or one of \nothing/\everything/\not_specified in keyword
  std::vector<MethodRef> methods;
  std::string keyword;  // callable's \nothing, \everything, \not_specified (without '\')
};

// `forall T x;` and `old T x = e;` at the head of a spec case.
struct SpecVarDecl {
  bool is_old = false;
  TypeRef type;
  std::string name;
  SourceSpan span;
  ExprPtr init;  // old only
};

enum class Behavior {
  kLightweight,
  kBehavior,
  kNormal,
  kExceptional,
  kExample,
  kNormalExample,
  kExceptionalExample,
};
const char* BehaviorKeyword(Behavior b);  // "" for lightweight
// The behavior of a case nested (in `{| |}`) in a case of behavior `outer`
// that names `inner` itself (kLightweight when it names none): the more
// specific of the two — a normal or exceptional kind wins over the generic
// `behavior`/`example` and over a lightweight header. The parser rejects a
// normal kind nested in an exceptional one and the reverse.
Behavior NestedBehavior(Behavior outer, Behavior inner);

enum class Visibility { kPackage, kPublic, kProtected, kPrivate };
const char* VisibilityKeyword(Visibility v);  // "" for package

struct SpecCase {
  Behavior behavior = Behavior::kLightweight;
  Visibility visibility = Visibility::kPackage;  // as written (heavyweight only)
  bool code = false;                             // the `code` modifier
  SourceSpan span;
  std::vector<SpecVarDecl> vars;
  std::vector<Clause> clauses;
  // {| case also case |}; clauses above are the shared header. A nested
  // case may name its own visibility and behavior (see NestedBehavior).
  std::vector<SpecCase> nested;
};

struct MethodSpec {
  bool extending = false;  // starts with `also` (adds to an inherited specification)
  std::vector<SpecCase> cases;
  std::vector<SpecCase> implies_that;  // redundant specification (parsed, not checked)
  std::vector<SpecCase> examples;      // for_example (parsed, not checked)
  SourceSpan span;
  bool empty() const { return cases.empty() && implies_that.empty() && examples.empty(); }
};

// Java and JML modifiers.
enum Modifier : uint64_t {
  kModPublic = 1ull << 0,
  kModProtected = 1ull << 1,
  kModPrivate = 1ull << 2,
  kModStatic = 1ull << 3,
  kModFinal = 1ull << 4,
  kModAbstract = 1ull << 5,
  kModNative = 1ull << 6,
  kModSynchronized = 1ull << 7,
  kModTransient = 1ull << 8,
  kModVolatile = 1ull << 9,
  kModStrictfp = 1ull << 10,
  kModDefault = 1ull << 11,
  kModSealed = 1ull << 12,
  kModNonSealed = 1ull << 13,
  // JML
  kModPure = 1ull << 20,
  kModHelper = 1ull << 21,
  kModSpecPublic = 1ull << 22,
  kModSpecProtected = 1ull << 23,
  kModNullable = 1ull << 24,
  kModNonNull = 1ull << 25,
  kModModel = 1ull << 26,
  kModGhost = 1ull << 27,
  kModInstance = 1ull << 28,
  kModNullableByDefault = 1ull << 29,
  kModNonNullByDefault = 1ull << 30,
  kModSpecJavaMath = 1ull << 31,
  kModSpecSafeMath = 1ull << 32,
  kModSpecBigintMath = 1ull << 33,
  kModCodeJavaMath = 1ull << 34,
  kModCodeSafeMath = 1ull << 35,
  kModCodeBigintMath = 1ull << 36,
  kModUninitialized = 1ull << 37,
  kModMonitored = 1ull << 38,
  kModQuery = 1ull << 39,
  kModSecret = 1ull << 40,
  kModStrictlyPure = 1ull << 41,
  kModExtract = 1ull << 42,
  kModPeer = 1ull << 43,
  kModRep = 1ull << 44,
  kModReadonly = 1ull << 45,
  kModCodeContract = 1ull << 46,
  // OpenJML: the result depends on the arguments only (with pure: no heap).
  kModFunction = 1ull << 47,
};
// The modifier bit of a keyword, 0 when `word` is not a modifier. JML
// modifiers count only when `jml` is true.
uint64_t ModifierBit(const std::string& word, bool jml);
// Keywords of the set bits, in declaration order ("public static pure").
std::string ModifierText(uint64_t bits);

struct Modifiers {
  uint64_t bits = 0;
  std::vector<std::string>
      annotations;  // Java annotations, simple names as written ("Override", "Pure")
  SourceSpan span;
  bool Has(uint64_t m) const { return (bits & m) != 0; }
  Visibility visibility() const;
};

enum class ClassClauseKind {
  kInvariant,
  kConstraint,
  kInitially,
  kAxiom,
  kRepresents,
  kReadable,
  kWritable,
  kMonitorsFor,
  kIn,
  kMaps,
};
const char* ClassClauseKeyword(ClassClauseKind kind);

enum class RepresentsKind { kEquals, kArrow, kSuchThat };

struct ClassClause {
  ClassClauseKind kind = ClassClauseKind::kInvariant;
  Modifiers mods;
  bool redundant = false;
  SourceSpan span;
  // Written without its final ';' (the last one of an annotation may be;
  // the type checker notes it).
  bool semicolon_omitted = false;
  ExprPtr pred;    // invariant/constraint/initially/axiom/readable/writable predicate;
                   // represents value (= / <-) or predicate (\such_that)
  ExprPtr target;  // represents/readable/writable/monitors_for: the field
  RepresentsKind represents = RepresentsKind::kEquals;
  bool for_everything = false;         // constraint ... for \everything
  std::vector<MethodRef> for_methods;  // constraint ... for m1, m2
  std::vector<ExprPtr> exprs;          // monitors_for list
  std::vector<std::string> groups;     // in / maps ... \into groups
  std::vector<StoreRef> maps_refs;     // maps x.f \into g
};

enum class BodyAnnotationKind {
  kAssert,
  kAssume,
  kLoopInvariant,
  kDecreases,
  kLoopAssignable,  // loop_modifies / loop_assigns / loop_writes (OpenJML)
  kGhostDecl,
  kSet,
  kDebug,
  kUnreachable,
  kReachable,
  kHenceBy,
};
const char* BodyAnnotationKeyword(BodyAnnotationKind kind);

struct BodyAnnotation {
  BodyAnnotationKind kind = BodyAnnotationKind::kAssert;
  bool redundant = false;
  SourceSpan span;
  // Written without its final ';' (the last one of an annotation may be;
  // the type checker notes it).
  bool semicolon_omitted = false;
  int next_code_line = 0;  // line of the first Java token after the annotation (0: none)
  bool precedes_loop = false;  // that token starts a for, while or do statement (maybe labelled)
  ExprPtr expr;            // the predicate / value / `set` right-hand side / ghost initializer
  ExprPtr message;         // assert P : message
  ExprPtr target;          // set target
  TypeRef ghost_type;      // ghost declarations
  std::string ghost_name;
  Modifiers mods;
  std::vector<StoreRef> store_refs;  // loop_assignable
};

// ---- Java declarations (the light declaration scanner's model) ----

struct TypeParam {
  std::string name;
  std::vector<TypeRef> bounds;
};

struct FieldDecl {
  Modifiers mods;
  TypeRef type;
  std::string name;
  SourceSpan span;   // the name
  bool jml = false;  // declared inside an annotation (ghost or model)
  bool enum_constant = false;  // a constant of the enum that declares it
  ExprPtr init;      // JML initializer of a ghost field (Java initializers are skipped)
  std::vector<std::string> in_groups;
};

struct ParamDecl {
  Modifiers mods;
  TypeRef type;  // varargs already counted in dims
  std::string name;
  SourceSpan span;
  bool varargs = false;
};

struct MethodDecl {
  Modifiers mods;
  std::vector<TypeParam> type_params;
  TypeRef return_type;  // empty for constructors
  bool is_constructor = false;
  std::string name;  // "<init>" for constructors
  SourceSpan span;   // the name
  std::vector<ParamDecl> params;
  std::vector<TypeRef> throws;
  bool jml = false;  // declared inside an annotation (model method)
  bool has_body = false;
  int body_begin_line = 0, body_end_line = 0;
  MethodSpec spec;
  std::vector<BodyAnnotation> body_annotations;
  ExprPtr model_body;  // `return e;` of a model method whose body is just that
  // JML errors belonging to this method (its specification or body annotations).
  std::vector<absl::Status> errors;
};

enum class TypeDeclKind { kClass, kInterface, kEnum, kRecord, kAnnotation };

struct TypeDecl {
  TypeDeclKind kind = TypeDeclKind::kClass;
  Modifiers mods;
  std::string name;         // simple name
  std::string binary_name;  // pkg.Outer$Inner
  SourceSpan span;
  std::vector<TypeParam> type_params;
  TypeRef extends;  // classes; interfaces put theirs in `implements`
  std::vector<TypeRef> implements;
  std::vector<FieldDecl> fields;
  std::vector<MethodDecl> methods;
  std::vector<ClassClause> clauses;
  const TypeDecl* outer = nullptr;
  // JML errors at class level (class clauses, ghost/model declarations, a
  // specification not followed by a method).
  std::vector<absl::Status> errors;
};

struct ImportDecl {
  std::string name;  // "java.util.List", "java.util" (on demand), "java.lang.Math.max" (static)
  bool is_static = false;
  bool on_demand = false;
  bool model = false;  // `//@ model import`
  SourceSpan span;
};

enum class SourceKind { kJava, kJmlFile, kSpecText };

struct CompilationUnit {
  std::shared_ptr<const std::string> file;
  SourceKind kind = SourceKind::kJava;
  std::string package;
  std::vector<ImportDecl> imports;
  // Every type declared in the file, nested ones included (outer first).
  std::vector<std::unique_ptr<TypeDecl>> types;
  // Errors not attributable to a declaration (e.g. JML before the package).
  std::vector<absl::Status> errors;

  const TypeDecl* FindType(const std::string& binary_name) const;
  TypeDecl* FindType(const std::string& binary_name);
};

// ---- Utilities ----

// Deep copies (types and symbols filled by the checker are copied too).
ExprPtr CloneExpr(const Expr& e);
TypeRef CloneTypeRef(const TypeRef& t);
StoreRef CloneStoreRef(const StoreRef& r);
Clause CloneClause(const Clause& c);
SpecCase CloneSpecCase(const SpecCase& c);
MethodSpec CloneMethodSpec(const MethodSpec& s);

// Structural equality, ignoring spans, heights, checker annotations and
// keyword spellings (pre/requires): what the round-trip property compares.
bool SameExpr(const Expr& a, const Expr& b);
bool SameTypeRef(const TypeRef& a, const TypeRef& b);
bool SameStoreRef(const StoreRef& a, const StoreRef& b);
bool SameClause(const Clause& a, const Clause& b);
bool SameSpecCase(const SpecCase& a, const SpecCase& b);
bool SameMethodSpec(const MethodSpec& a, const MethodSpec& b);
bool SameClassClause(const ClassClause& a, const ClassClause& b);
bool SameBodyAnnotation(const BodyAnnotation& a, const BodyAnnotation& b);

}  // namespace tracespec::jml

#endif  // TRACESPEC_VALIDATOR_JML_AST_H_

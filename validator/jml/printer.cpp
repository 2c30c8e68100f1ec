// Canonical JML printing; see printer.h.
#include "validator/jml/printer.h"

#include <charconv>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "validator/jml/lexer.h"

namespace tracespec::jml {
namespace {

// Precedence levels, loosest first.
constexpr int kPrecConditional = 1;
constexpr int kPrecEquivalence = 2;
constexpr int kPrecImplication = 3;
constexpr int kPrecRelational = 10;
constexpr int kPrecUnary = 14;
constexpr int kPrecPrimary = 15;

int BinaryPrecedence(BinaryOp op) {
  switch (op) {
    case BinaryOp::kEquiv:
    case BinaryOp::kInequiv:
      return kPrecEquivalence;
    case BinaryOp::kImplies:
    case BinaryOp::kReverseImplies:
      return kPrecImplication;
    case BinaryOp::kOr:
      return 4;
    case BinaryOp::kAnd:
      return 5;
    case BinaryOp::kBitOr:
      return 6;
    case BinaryOp::kBitXor:
      return 7;
    case BinaryOp::kBitAnd:
      return 8;
    case BinaryOp::kEq:
    case BinaryOp::kNe:
      return 9;
    case BinaryOp::kLt:
    case BinaryOp::kLe:
    case BinaryOp::kGt:
    case BinaryOp::kGe:
    case BinaryOp::kSubtype:
      return kPrecRelational;
    case BinaryOp::kShl:
    case BinaryOp::kShr:
    case BinaryOp::kUshr:
      return 11;
    case BinaryOp::kAdd:
    case BinaryOp::kSub:
      return 12;
    case BinaryOp::kMul:
    case BinaryOp::kDiv:
    case BinaryOp::kRem:
      return 13;
  }
  return kPrecPrimary;
}

bool IsNegativeLiteral(const Expr& e) {
  if (e.kind != ExprKind::kLiteral) return false;
  const Literal& l = e.literal;
  switch (l.kind) {
    case LiteralKind::kInt:
      return static_cast<int32_t>(l.bits) < 0;
    case LiteralKind::kLong:
      return static_cast<int64_t>(l.bits) < 0;
    case LiteralKind::kFloat:
      return std::signbit(l.float_value);
    case LiteralKind::kDouble:
      return std::signbit(l.double_value);
    default:
      return false;
  }
}

int Precedence(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kBinary:
      return BinaryPrecedence(e.binary_op);
    case ExprKind::kConditional:
      return kPrecConditional;
    case ExprKind::kInstanceOf:
      return kPrecRelational;
    case ExprKind::kUnary:
    case ExprKind::kCast:
      return kPrecUnary;
    case ExprKind::kLiteral:
      return IsNegativeLiteral(e) ? kPrecUnary : kPrecPrimary;
    default:
      return kPrecPrimary;
  }
}

void AppendEscaped(char16_t c, char quote, std::string* out) {
  switch (c) {
    case u'\b':
      *out += "\\b";
      return;
    case u'\t':
      *out += "\\t";
      return;
    case u'\n':
      *out += "\\n";
      return;
    case u'\f':
      *out += "\\f";
      return;
    case u'\r':
      *out += "\\r";
      return;
    case u'\\':
      *out += "\\\\";
      return;
    default:
      break;
  }
  if (c == static_cast<char16_t>(quote)) {
    *out += '\\';
    *out += quote;
    return;
  }
  if (c >= 0x20 && c < 0x7F) {
    *out += static_cast<char>(c);
    return;
  }
  char buf[8];
  std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned>(c));
  *out += buf;
}

template <typename T>
std::string ShortestFloat(T value) {
  if (std::isnan(value)) return std::is_same_v<T, float> ? "Float.NaN" : "Double.NaN";
  if (std::isinf(value)) {
    std::string cls = std::is_same_v<T, float> ? "Float" : "Double";
    return value > 0 ? cls + ".POSITIVE_INFINITY" : cls + ".NEGATIVE_INFINITY";
  }
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof(buf), value);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  if (std::is_same_v<T, float>) s += "f";
  return s;
}

class ExprPrinter {
 public:
  std::string Print(const Expr& e, int min_prec) {
    std::string s = Raw(e);
    if (Precedence(e) < min_prec) return absl::StrCat("(", s, ")");
    return s;
  }

 private:
  // The object before '.': numbers are parenthesized so that "1.f" is not
  // read as a float literal.
  std::string ReceiverText(const Expr& e) {
    bool number = e.kind == ExprKind::kLiteral && e.literal.kind != LiteralKind::kString &&
                  e.literal.kind != LiteralKind::kChar && e.literal.kind != LiteralKind::kNull &&
                  e.literal.kind != LiteralKind::kBoolean;
    return number ? absl::StrCat("(", Raw(e), ")") : Print(e, kPrecPrimary);
  }

  std::string Args(const Expr& e, size_t from) {
    std::vector<std::string> parts;
    for (size_t i = from; i < e.operands.size(); ++i)
      parts.push_back(Print(*e.operands[i], kPrecConditional));
    return absl::StrJoin(parts, ", ");
  }

  std::string Raw(const Expr& e) {
    switch (e.kind) {
      case ExprKind::kLiteral:
        return PrintLiteral(e.literal);
      case ExprKind::kName:
        return e.name;
      case ExprKind::kThis:
        return "this";
      case ExprKind::kSuper:
        return "super";
      case ExprKind::kQualifiedThis:
        return absl::StrCat(PrintTypeRef(e.type_ref), ".this");
      case ExprKind::kClassLiteral:
        return absl::StrCat(PrintTypeRef(e.type_ref), ".class");
      case ExprKind::kFieldAccess:
        return absl::StrCat(ReceiverText(*e.operands[0]), ".", e.name);
      case ExprKind::kArrayAccess: {
        // new int[n][i] would read as a two-dimensional creation.
        const Expr& array = *e.operands[0];
        std::string base = array.kind == ExprKind::kNewArray && !array.flag
                               ? absl::StrCat("(", Raw(array), ")")
                               : Print(array, kPrecPrimary);
        return absl::StrCat(base, "[", Print(*e.operands[1], kPrecConditional), "]");
      }
      case ExprKind::kMethodCall:
        if (e.flag) {
          return absl::StrCat(ReceiverText(*e.operands[0]), ".", e.name, "(", Args(e, 1), ")");
        }
        return absl::StrCat(e.name, "(", Args(e, 0), ")");
      case ExprKind::kUnary: {
        std::string operand = Print(*e.operands[0], kPrecUnary);
        const char* op = UnaryOpText(e.unary_op);
        // "- -x" and "+ +x", never the decrement/increment tokens.
        bool space = (e.unary_op == UnaryOp::kMinus || e.unary_op == UnaryOp::kPlus) &&
                     !operand.empty() && operand[0] == op[0];
        return absl::StrCat(op, space ? " " : "", operand);
      }
      case ExprKind::kBinary: {
        int p = BinaryPrecedence(e.binary_op);
        const Expr& l = *e.operands[0];
        const Expr& r = *e.operands[1];
        int lp = p, rp = p + 1;
        if (e.binary_op == BinaryOp::kImplies) {
          lp = p + 1;
          rp = p;
        }
        if (p == kPrecRelational) lp = p + 1;  // a < b < c would read as a chained comparison
        std::string ls = Print(l, lp);
        std::string rs = Print(r, rp);
        // ==> and <== do not mix without parentheses.
        if (e.binary_op == BinaryOp::kImplies && r.kind == ExprKind::kBinary &&
            r.binary_op == BinaryOp::kReverseImplies) {
          rs = absl::StrCat("(", Raw(r), ")");
        }
        if (e.binary_op == BinaryOp::kReverseImplies && l.kind == ExprKind::kBinary &&
            l.binary_op == BinaryOp::kImplies) {
          ls = absl::StrCat("(", Raw(l), ")");
        }
        return absl::StrCat(ls, " ", BinaryOpText(e.binary_op), " ", rs);
      }
      case ExprKind::kConditional:
        return absl::StrCat(Print(*e.operands[0], kPrecEquivalence), " ? ",
                            Print(*e.operands[1], kPrecConditional), " : ",
                            Print(*e.operands[2], kPrecConditional));
      case ExprKind::kCast: {
        const Expr& operand = *e.operands[0];
        bool primitive =
            e.type_ref.dims == 0 &&
            (Type::FromKeyword(e.type_ref.name).IsPrimitive() || e.type_ref.name[0] == '\\');
        std::string s = Print(operand, kPrecUnary);
        if (!primitive && (s[0] == '-' || s[0] == '+')) s = absl::StrCat("(", s, ")");
        return absl::StrCat("(", PrintTypeRef(e.type_ref), ") ", s);
      }
      case ExprKind::kInstanceOf:
        return absl::StrCat(Print(*e.operands[0], kPrecRelational + 1), " instanceof ",
                            PrintTypeRef(e.type_ref));
      case ExprKind::kQuantifier: {
        std::vector<std::string> names;
        for (const auto& v : e.bound_vars) names.push_back(v.name);
        std::string out =
            absl::StrCat("(", QuantifierText(e.quantifier), " ", PrintTypeRef(e.type_ref), " ",
                         absl::StrJoin(names, ", "), "; ");
        if (e.flag) absl::StrAppend(&out, Print(*e.operands[0], kPrecConditional), "; ");
        absl::StrAppend(&out, Print(*e.operands.back(), kPrecConditional), ")");
        return out;
      }
      case ExprKind::kLet: {
        // The bindings of one \let, then its body.
        std::string out = "(\\let ";
        const Expr* b = &e;
        while (true) {
          absl::StrAppend(&out, PrintTypeRef(b->type_ref), " ", b->bound_vars[0].name, " = ",
                          Print(*b->operands[0], kPrecConditional));
          const Expr& next = *b->operands[1];
          if (next.kind != ExprKind::kLet || !next.flag) break;
          absl::StrAppend(&out, ", ");
          b = &next;
        }
        absl::StrAppend(&out, "; ", Print(*b->operands[1], kPrecConditional), ")");
        return out;
      }
      case ExprKind::kOld:
        if (e.flag) return absl::StrCat("\\pre(", Print(*e.operands[0], kPrecConditional), ")");
        if (!e.name.empty())
          return absl::StrCat("\\old(", Print(*e.operands[0], kPrecConditional), ", ", e.name, ")");
        return absl::StrCat("\\old(", Print(*e.operands[0], kPrecConditional), ")");
      case ExprKind::kResult:
        return "\\result";
      case ExprKind::kJmlKeyword:
        return absl::StrCat("\\", e.name);
      case ExprKind::kJmlCall: {
        std::string args;
        if (!e.type_ref.empty()) {
          args = PrintTypeRef(e.type_ref);
        } else if (!e.store_refs.empty()) {
          std::vector<std::string> parts;
          for (const auto& r : e.store_refs) parts.push_back(PrintStoreRef(r));
          args = absl::StrJoin(parts, ", ");
        } else {
          args = Args(e, 0);
        }
        return absl::StrCat("\\", e.name, "(", args, ")");
      }
      case ExprKind::kLabeled:
        return absl::StrCat("(", e.flag ? "\\lblpos " : "\\lblneg ", e.name, " ",
                            Print(*e.operands[0], kPrecConditional), ")");
      case ExprKind::kInformal:
        return absl::StrCat("(* ", e.name, " *)");
      case ExprKind::kNewObject:
        return absl::StrCat("new ", PrintTypeRef(e.type_ref), "(", Args(e, 0), ")");
      case ExprKind::kNewArray: {
        TypeRef element = e.type_ref;
        element.dims = 0;
        std::string out = absl::StrCat("new ", PrintTypeRef(element));
        if (e.flag) {
          for (int i = 0; i < e.type_ref.dims; ++i) out += "[]";
          absl::StrAppend(&out, " {", Args(e, 0), "}");
          return out;
        }
        for (const auto& d : e.operands)
          absl::StrAppend(&out, "[", Print(*d, kPrecConditional), "]");
        for (int i = static_cast<int>(e.operands.size()); i < e.type_ref.dims; ++i) out += "[]";
        return out;
      }
      case ExprKind::kArrayInit:
        return absl::StrCat("{", Args(e, 0), "}");
    }
    return "?";
  }
};

std::string Pred(const ExprPtr& e) { return e ? PrintExpr(*e) : ""; }

std::string Redundantly(bool redundant) { return redundant ? "_redundantly" : ""; }

}  // namespace

std::string PrintLiteral(const Literal& l) {
  switch (l.kind) {
    case LiteralKind::kNull:
      return "null";
    case LiteralKind::kBoolean:
      return l.bits != 0 ? "true" : "false";
    case LiteralKind::kInt:
      return absl::StrCat(static_cast<int32_t>(l.bits));
    case LiteralKind::kLong:
      return absl::StrCat(static_cast<int64_t>(l.bits), "L");
    case LiteralKind::kFloat:
      return ShortestFloat(l.float_value);
    case LiteralKind::kDouble:
      return ShortestFloat(l.double_value);
    case LiteralKind::kChar: {
      std::string out = "'";
      AppendEscaped(static_cast<char16_t>(l.bits), '\'', &out);
      return out + "'";
    }
    case LiteralKind::kString: {
      std::string out = "\"";
      for (char16_t c : l.string_value) AppendEscaped(c, '"', &out);
      return out + "\"";
    }
  }
  return "?";
}

std::string PrintExpr(const Expr& e) { return ExprPrinter().Print(e, kPrecConditional); }

std::string PrintTypeRef(const TypeRef& t) {
  std::string out = t.name;
  if (absl::StartsWith(t.name, "?")) {
    if (!t.type_args.empty()) absl::StrAppend(&out, " ", PrintTypeRef(t.type_args[0]));
    return out;
  }
  if (t.has_type_args) {
    std::vector<std::string> args;
    for (const auto& a : t.type_args) args.push_back(PrintTypeRef(a));
    absl::StrAppend(&out, "<", absl::StrJoin(args, ", "), ">");
  }
  for (int i = 0; i < t.dims; ++i) out += "[]";
  return out;
}

std::string PrintStoreRef(const StoreRef& r) {
  switch (r.kind) {
    case StoreRef::Kind::kNothing:
      return "\\nothing";
    case StoreRef::Kind::kEverything:
      return "\\everything";
    case StoreRef::Kind::kNotSpecified:
      return "\\not_specified";
    case StoreRef::Kind::kLocation:
      return PrintExpr(*r.expr);
    case StoreRef::Kind::kAllFields:
      return absl::StrCat(PrintExpr(*r.expr), ".*");
    case StoreRef::Kind::kAllElements:
      return absl::StrCat(PrintExpr(*r.expr), "[*]");
    case StoreRef::Kind::kArrayRange:
      return absl::StrCat(PrintExpr(*r.expr), "[", PrintExpr(*r.lo), " .. ", PrintExpr(*r.hi), "]");
    case StoreRef::Kind::kInformal:
      return absl::StrCat("(* ", r.informal, " *)");
  }
  return "?";
}

std::string PrintMethodRef(const MethodRef& m) {
  if (!m.has_params) return m.name;
  std::vector<std::string> params;
  for (const auto& p : m.params) params.push_back(PrintTypeRef(p));
  return absl::StrCat(m.name, "(", absl::StrJoin(params, ", "), ")");
}

std::string PrintClause(const Clause& c) {
  std::string out = absl::StrCat(ClauseKeyword(c.kind), Redundantly(c.redundant));
  switch (c.kind) {
    case ClauseKind::kSignals:
      absl::StrAppend(&out, " (", PrintTypeRef(c.exception_type));
      if (!c.exception_var.empty()) absl::StrAppend(&out, " ", c.exception_var);
      out += ")";
      if (c.pred) absl::StrAppend(&out, " ", PrintExpr(*c.pred));
      break;
    case ClauseKind::kSignalsOnly: {
      if (c.nothing) {
        out += " \\nothing";
        break;
      }
      std::vector<std::string> types;
      for (const auto& t : c.types) types.push_back(PrintTypeRef(t));
      absl::StrAppend(&out, " ", absl::StrJoin(types, ", "));
      break;
    }
    case ClauseKind::kAssignable:
    case ClauseKind::kAccessible:
    case ClauseKind::kCaptures: {
      std::vector<std::string> refs;
      for (const auto& r : c.store_refs) refs.push_back(PrintStoreRef(r));
      absl::StrAppend(&out, " ", absl::StrJoin(refs, ", "));
      break;
    }
    case ClauseKind::kCallable: {
      if (!c.keyword.empty()) {
        absl::StrAppend(&out, " \\", c.keyword);
        break;
      }
      std::vector<std::string> refs;
      for (const auto& m : c.methods) refs.push_back(PrintMethodRef(m));
      absl::StrAppend(&out, " ", absl::StrJoin(refs, ", "));
      break;
    }
    default:
      absl::StrAppend(&out, " ", Pred(c.pred));
      if (c.condition) absl::StrAppend(&out, " if ", PrintExpr(*c.condition));
      break;
  }
  return out + ";";
}

namespace {

void AppendCaseBody(const SpecCase& c, const std::string& indent, std::string* out) {
  for (const auto& v : c.vars) {
    if (v.is_old) {
      absl::StrAppend(out, indent, "old ", PrintTypeRef(v.type), " ", v.name, " = ", Pred(v.init),
                      ";\n");
    } else {
      absl::StrAppend(out, indent, "forall ", PrintTypeRef(v.type), " ", v.name, ";\n");
    }
  }
  for (const auto& clause : c.clauses) absl::StrAppend(out, indent, PrintClause(clause), "\n");
  if (!c.nested.empty()) {
    absl::StrAppend(out, indent, "{|\n");
    for (size_t i = 0; i < c.nested.size(); ++i) {
      if (i > 0) absl::StrAppend(out, indent, "also\n");
      absl::StrAppend(out, PrintSpecCase(c.nested[i], indent + "  "));
    }
    absl::StrAppend(out, indent, "|}\n");
  }
}

void AppendCases(const std::vector<SpecCase>& cases, std::string* out) {
  for (size_t i = 0; i < cases.size(); ++i) {
    if (i > 0) *out += "also\n";
    *out += PrintSpecCase(cases[i]);
  }
}

}  // namespace

std::string PrintSpecCase(const SpecCase& c, absl::string_view indent) {
  std::string out;
  std::string body_indent(indent);
  if (c.behavior != Behavior::kLightweight) {
    std::vector<std::string> head;
    if (c.visibility != Visibility::kPackage) head.push_back(VisibilityKeyword(c.visibility));
    if (c.code) head.push_back("code");
    head.push_back(BehaviorKeyword(c.behavior));
    absl::StrAppend(&out, indent, absl::StrJoin(head, " "), "\n");
    body_indent += "  ";
  }
  AppendCaseBody(c, body_indent, &out);
  return out;
}

std::string PrintMethodSpec(const MethodSpec& spec) {
  std::string out;
  if (spec.extending) out += "also\n";
  AppendCases(spec.cases, &out);
  if (!spec.implies_that.empty()) {
    out += "implies_that\n";
    AppendCases(spec.implies_that, &out);
  }
  if (!spec.examples.empty()) {
    out += "for_example\n";
    AppendCases(spec.examples, &out);
  }
  return out;
}

std::string PrintAsAnnotationComments(const MethodSpec& spec, absl::string_view indent) {
  std::string out;
  for (absl::string_view line : absl::StrSplit(PrintMethodSpec(spec), '\n', absl::SkipEmpty())) {
    absl::StrAppend(&out, indent, "//@ ", line, "\n");
  }
  return out;
}

std::string PrintClassClause(const ClassClause& c) {
  std::string out;
  std::string mods = ModifierText(c.mods.bits);
  if (!mods.empty()) absl::StrAppend(&out, mods, " ");
  absl::StrAppend(&out, ClassClauseKeyword(c.kind), Redundantly(c.redundant));
  switch (c.kind) {
    case ClassClauseKind::kRepresents:
      absl::StrAppend(&out, " ", Pred(c.target),
                      c.represents == RepresentsKind::kSuchThat ? " \\such_that "
                      : c.represents == RepresentsKind::kArrow  ? " <- "
                                                                : " = ",
                      Pred(c.pred));
      break;
    case ClassClauseKind::kReadable:
    case ClassClauseKind::kWritable:
      absl::StrAppend(&out, " ", Pred(c.target), " if ", Pred(c.pred));
      break;
    case ClassClauseKind::kMonitorsFor: {
      std::vector<std::string> parts;
      for (const auto& e : c.exprs) parts.push_back(Pred(e));
      absl::StrAppend(&out, " ", Pred(c.target), " = ", absl::StrJoin(parts, ", "));
      break;
    }
    case ClassClauseKind::kIn:
      absl::StrAppend(&out, " ", absl::StrJoin(c.groups, ", "));
      break;
    case ClassClauseKind::kMaps: {
      std::vector<std::string> refs;
      for (const auto& r : c.maps_refs) refs.push_back(PrintStoreRef(r));
      absl::StrAppend(&out, " ", absl::StrJoin(refs, ", "), " \\into ",
                      absl::StrJoin(c.groups, ", "));
      break;
    }
    case ClassClauseKind::kConstraint:
      absl::StrAppend(&out, " ", Pred(c.pred));
      if (c.for_everything) {
        out += " for \\everything";
      } else if (!c.for_methods.empty()) {
        std::vector<std::string> refs;
        for (const auto& m : c.for_methods) refs.push_back(PrintMethodRef(m));
        absl::StrAppend(&out, " for ", absl::StrJoin(refs, ", "));
      }
      break;
    default:
      absl::StrAppend(&out, " ", Pred(c.pred));
      break;
  }
  return out + ";";
}

std::string PrintBodyAnnotation(const BodyAnnotation& a) {
  std::string out;
  switch (a.kind) {
    case BodyAnnotationKind::kGhostDecl: {
      std::string mods = ModifierText(a.mods.bits);
      out = absl::StrCat(mods, " ", PrintTypeRef(a.ghost_type), " ", a.ghost_name);
      if (a.expr) absl::StrAppend(&out, " = ", PrintExpr(*a.expr));
      break;
    }
    case BodyAnnotationKind::kSet:
      out = absl::StrCat("set ", Pred(a.target), " = ", Pred(a.expr));
      break;
    case BodyAnnotationKind::kLoopAssignable: {
      std::vector<std::string> refs;
      for (const auto& r : a.store_refs) refs.push_back(PrintStoreRef(r));
      out = absl::StrCat("loop_modifies", Redundantly(a.redundant), " ", absl::StrJoin(refs, ", "));
      break;
    }
    case BodyAnnotationKind::kUnreachable:
      out = "unreachable";
      break;
    default:
      out = absl::StrCat(BodyAnnotationKeyword(a.kind), Redundantly(a.redundant));
      if (a.expr) absl::StrAppend(&out, " ", PrintExpr(*a.expr));
      if (a.message) absl::StrAppend(&out, " : ", PrintExpr(*a.message));
      break;
  }
  return out + ";";
}

}  // namespace tracespec::jml

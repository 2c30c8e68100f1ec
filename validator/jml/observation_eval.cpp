// Evaluating JML over one observation; see observation_eval.h. Arithmetic
// follows JLS §15 (wrap-around, truncating division, masked shifts, IEEE
// floating point) and the JVM's conversions (JVMS §2.8, d2i/f2l saturate,
// NaN -> 0).
#include "validator/jml/observation_eval.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <tuple>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "common/utf8.h"
#include "validator/jml/printer.h"

namespace tracespec::jml {

// ---- Truth ----

const char* TruthName(Truth t) {
  switch (t) {
    case Truth::kFalse:
      return "false";
    case Truth::kTrue:
      return "true";
    case Truth::kUnknown:
      return "unknown";
  }
  return "unknown";
}

Truth TruthOf(bool b) { return b ? Truth::kTrue : Truth::kFalse; }

Truth TruthNot(Truth a) {
  if (a == Truth::kUnknown) return a;
  return a == Truth::kTrue ? Truth::kFalse : Truth::kTrue;
}

Truth TruthAnd(Truth a, Truth b) {
  if (a == Truth::kFalse || b == Truth::kFalse) return Truth::kFalse;
  if (a == Truth::kTrue && b == Truth::kTrue) return Truth::kTrue;
  return Truth::kUnknown;
}

Truth TruthOr(Truth a, Truth b) {
  if (a == Truth::kTrue || b == Truth::kTrue) return Truth::kTrue;
  if (a == Truth::kFalse && b == Truth::kFalse) return Truth::kFalse;
  return Truth::kUnknown;
}

Truth TruthImplies(Truth a, Truth b) { return TruthOr(TruthNot(a), b); }

// ---- Values ----

namespace {

constexpr __int128 kInt128Max = static_cast<__int128>(~static_cast<unsigned __int128>(0) >> 1);
constexpr __int128 kInt128Min = -kInt128Max - 1;

std::string Int128Text(__int128 v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  unsigned __int128 u = neg ? static_cast<unsigned __int128>(0) - static_cast<unsigned __int128>(v)
                            : static_cast<unsigned __int128>(v);
  std::string out;
  while (u > 0) {
    out.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (neg) out.push_back('-');
  std::reverse(out.begin(), out.end());
  return out;
}

std::string Utf16ToAscii(const std::u16string& s) {
  std::string out;
  for (char16_t c : s) {
    if (c >= 0x20 && c < 0x7F) {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    }
  }
  return out;
}

int32_t Wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }

// JVM d2i / d2l / f2i / f2l.
template <typename I, typename F>
I Saturate(F v) {
  if (std::isnan(v)) return 0;
  if (v >= static_cast<F>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  if (v <= static_cast<F>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  return static_cast<I>(v);
}

int64_t NarrowInt(int64_t v, Type::Kind kind) {
  switch (kind) {
    case Type::Kind::kByte:
      return static_cast<int8_t>(static_cast<uint8_t>(v));
    case Type::Kind::kShort:
      return static_cast<int16_t>(static_cast<uint16_t>(v));
    case Type::Kind::kChar:
      return static_cast<uint16_t>(v);
    default:
      return Wrap32(v);
  }
}

}  // namespace

namespace {
EvalValue OfKind(EvalValue::Kind kind) {
  EvalValue v;
  v.kind = kind;
  return v;
}
}  // namespace

EvalValue EvalValue::Unknown(std::string why) {
  EvalValue v;
  v.reason = std::move(why);
  return v;
}
EvalValue EvalValue::Bool(bool b) {
  EvalValue v = OfKind(Kind::kBoolean);
  v.i = b ? 1 : 0;
  return v;
}
EvalValue EvalValue::Int(int32_t x, Type::Kind type) {
  EvalValue v = OfKind(Kind::kInt);
  v.int_type = type;
  v.i = x;
  return v;
}
EvalValue EvalValue::Long(int64_t x) {
  EvalValue v = OfKind(Kind::kLong);
  v.i = x;
  return v;
}
EvalValue EvalValue::Float(float x) {
  EvalValue v = OfKind(Kind::kFloat);
  v.f = x;
  return v;
}
EvalValue EvalValue::Double(double x) {
  EvalValue v = OfKind(Kind::kDouble);
  v.d = x;
  return v;
}
EvalValue EvalValue::Bigint(__int128 x) {
  EvalValue v = OfKind(Kind::kBigint);
  v.big = x;
  return v;
}
EvalValue EvalValue::Null() { return OfKind(Kind::kNull); }
EvalValue EvalValue::Ref(uint64_t id) {
  EvalValue v = OfKind(Kind::kRef);
  v.ref = id;
  return v;
}
EvalValue EvalValue::String(std::u16string s) {
  EvalValue v = OfKind(Kind::kString);
  v.str = std::move(s);
  return v;
}

Truth EvalValue::truth() const {
  if (kind != Kind::kBoolean) return Truth::kUnknown;
  return i != 0 ? Truth::kTrue : Truth::kFalse;
}

bool EvalValue::AsInteger(__int128* out) const {
  switch (kind) {
    case Kind::kInt:
    case Kind::kLong:
      *out = i;
      return true;
    case Kind::kBigint:
      *out = big;
      return true;
    default:
      return false;
  }
}

std::string EvalValue::ToJml() const {
  Literal lit;
  switch (kind) {
    case Kind::kBoolean:
      return i != 0 ? "true" : "false";
    case Kind::kInt:
      if (int_type == Type::Kind::kChar) {
        lit.kind = LiteralKind::kChar;
        lit.bits = static_cast<uint64_t>(i);
        return PrintLiteral(lit);
      }
      if (i == std::numeric_limits<int32_t>::min()) return "Integer.MIN_VALUE";
      if (i == std::numeric_limits<int32_t>::max()) return "Integer.MAX_VALUE";
      {
        std::string text = absl::StrCat(i);
        if (int_type == Type::Kind::kByte) return absl::StrCat("(byte) ", i < 0 ? "(" : "", text,
                                                               i < 0 ? ")" : "");
        if (int_type == Type::Kind::kShort) return absl::StrCat("(short) ", i < 0 ? "(" : "",
                                                                text, i < 0 ? ")" : "");
        return text;
      }
    case Kind::kLong:
      if (i == std::numeric_limits<int64_t>::min()) return "Long.MIN_VALUE";
      if (i == std::numeric_limits<int64_t>::max()) return "Long.MAX_VALUE";
      return absl::StrCat(i, "L");
    case Kind::kFloat:
      if (f == std::numeric_limits<float>::max()) return "Float.MAX_VALUE";
      if (f == std::numeric_limits<float>::denorm_min()) return "Float.MIN_VALUE";
      lit.kind = LiteralKind::kFloat;
      lit.float_value = f;
      return PrintLiteral(lit);
    case Kind::kDouble:
      if (d == std::numeric_limits<double>::max()) return "Double.MAX_VALUE";
      if (d == std::numeric_limits<double>::denorm_min()) return "Double.MIN_VALUE";
      lit.kind = LiteralKind::kDouble;
      lit.double_value = d;
      return PrintLiteral(lit);
    case Kind::kNull:
      return "null";
    case Kind::kString:
      lit.kind = LiteralKind::kString;
      lit.string_value = str;
      return PrintLiteral(lit);
    default:
      return "";
  }
}

std::string EvalValue::DebugString() const {
  switch (kind) {
    case Kind::kUnknown:
      return absl::StrCat("unknown (", reason, ")");
    case Kind::kBoolean:
      return i != 0 ? "true" : "false";
    case Kind::kInt:
      return absl::StrCat([&] {
        switch (int_type) {
          case Type::Kind::kByte:
            return "byte ";
          case Type::Kind::kShort:
            return "short ";
          case Type::Kind::kChar:
            return "char ";
          default:
            return "int ";
        }
      }(), i);
    case Kind::kLong:
      return absl::StrCat("long ", i);
    case Kind::kFloat:
      return absl::StrCat("float ", ToJml());
    case Kind::kDouble:
      return absl::StrCat("double ", ToJml());
    case Kind::kBigint:
      return absl::StrCat("\\bigint ", Int128Text(big));
    case Kind::kNull:
      return "null";
    case Kind::kRef:
      return absl::StrCat("ref #", ref);
    case Kind::kString:
      return absl::StrCat("\"", Utf16ToAscii(str), "\"");
    case Kind::kType:
      return absl::StrCat("\\type(", type.ToString(), ")");
    case Kind::kThrown:
      return absl::StrCat("thrown ", class_name);
  }
  return "?";
}

bool EvalValue::Identical(const EvalValue& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case Kind::kUnknown:
      return false;
    case Kind::kBoolean:
    case Kind::kLong:
      return i == o.i;
    case Kind::kInt:
      return i == o.i && int_type == o.int_type;
    case Kind::kFloat:
      return std::memcmp(&f, &o.f, sizeof f) == 0 || (std::isnan(f) && std::isnan(o.f));
    case Kind::kDouble:
      return std::memcmp(&d, &o.d, sizeof d) == 0 || (std::isnan(d) && std::isnan(o.d));
    case Kind::kBigint:
      return big == o.big;
    case Kind::kNull:
      return true;
    case Kind::kRef:
      return ref == o.ref;
    case Kind::kString:
      return str == o.str;
    case Kind::kType:
      return type == o.type;
    case Kind::kThrown:
      return class_name == o.class_name;
  }
  return false;
}

EvalValue FromProto(const v1::Value& value) {
  switch (value.kind_case()) {
    case v1::Value::kBoolValue:
      return EvalValue::Bool(value.bool_value());
    case v1::Value::kByteValue:
      return EvalValue::Int(static_cast<int8_t>(value.byte_value()), Type::Kind::kByte);
    case v1::Value::kShortValue:
      return EvalValue::Int(static_cast<int16_t>(value.short_value()), Type::Kind::kShort);
    case v1::Value::kCharValue:
      return EvalValue::Int(static_cast<uint16_t>(value.char_value()), Type::Kind::kChar);
    case v1::Value::kIntValue:
      return EvalValue::Int(value.int_value());
    case v1::Value::kLongValue:
      return EvalValue::Long(value.long_value());
    case v1::Value::kFloatValue:
      return EvalValue::Float(value.float_value());
    case v1::Value::kDoubleValue:
      return EvalValue::Double(value.double_value());
    case v1::Value::kStringValue: {
      std::u16string text = Utf8ToUtf16(value.string_value());
      // The recorder writes an unpaired surrogate as U+FFFD (UTF-8 has no
      // form for it): such a string's characters are not known.
      if (text.find(u'\uFFFD') != std::u16string::npos) {
        return EvalValue::Unknown(
            "a recorded string holds U+FFFD, which may stand for an unpaired surrogate");
      }
      return EvalValue::String(std::move(text));
    }
    case v1::Value::kNullValue:
      return EvalValue::Null();
    case v1::Value::kRef:
      return EvalValue::Ref(value.ref());
    case v1::Value::kRedacted:
      return EvalValue::Unknown("the value is redacted");
    case v1::Value::KIND_NOT_SET:
      break;
  }
  return EvalValue::Unknown("the value was not recorded");
}

// ---- Numeric helpers ----

namespace {

using K = EvalValue::Kind;

// Rank for binary numeric promotion: int < long < float < double; \bigint
// apart.
int Rank(const EvalValue& v) {
  switch (v.kind) {
    case K::kInt:
      return 1;
    case K::kLong:
      return 2;
    case K::kFloat:
      return 3;
    case K::kDouble:
      return 4;
    case K::kBigint:
      return 5;
    default:
      return 0;
  }
}

bool IsNumeric(const EvalValue& v) { return Rank(v) > 0; }

double ToDouble(const EvalValue& v) {
  switch (v.kind) {
    case K::kInt:
    case K::kLong:
      return static_cast<double>(v.i);
    case K::kFloat:
      return static_cast<double>(v.f);
    case K::kDouble:
      return v.d;
    default:
      return 0;
  }
}

float ToFloat(const EvalValue& v) {
  switch (v.kind) {
    case K::kInt:
    case K::kLong:
      return static_cast<float>(v.i);
    case K::kFloat:
      return v.f;
    case K::kDouble:
      return static_cast<float>(v.d);
    default:
      return 0;
  }
}

// Converts a known primitive/\bigint value to a primitive/\bigint type
// (JLS §5.1.2-§5.1.4 and casts); unknown for \real and impossible cases.
EvalValue ConvertTo(const EvalValue& v, const Type& t) {
  if (!v.known()) return v;
  Type target = t;
  if (t.IsClass()) {
    Type unboxed = UnboxedType(t);
    if (unboxed.IsError()) return v;  // a reference type: unchanged
    target = unboxed;
  }
  if (target.IsArray()) return v;
  switch (target.element_kind()) {
    case Type::Kind::kBoolean:
      return v.kind == K::kBoolean ? v : EvalValue::Unknown("not a boolean");
    case Type::Kind::kByte:
    case Type::Kind::kShort:
    case Type::Kind::kChar:
    case Type::Kind::kInt: {
      int64_t x;
      switch (v.kind) {
        case K::kInt:
        case K::kLong:
          x = v.i;
          break;
        case K::kBigint:
          x = static_cast<int64_t>(static_cast<uint64_t>(static_cast<unsigned __int128>(v.big)));
          break;
        case K::kFloat:
          x = Saturate<int32_t>(v.f);
          break;
        case K::kDouble:
          x = Saturate<int32_t>(v.d);
          break;
        default:
          return EvalValue::Unknown(absl::StrCat("cannot convert ", v.DebugString(), " to ",
                                                 target.ToString()));
      }
      return EvalValue::Int(static_cast<int32_t>(NarrowInt(x, target.element_kind())),
                            target.element_kind());
    }
    case Type::Kind::kLong:
      switch (v.kind) {
        case K::kInt:
        case K::kLong:
          return EvalValue::Long(v.i);
        case K::kBigint:
          return EvalValue::Long(
              static_cast<int64_t>(static_cast<uint64_t>(static_cast<unsigned __int128>(v.big))));
        case K::kFloat:
          return EvalValue::Long(Saturate<int64_t>(v.f));
        case K::kDouble:
          return EvalValue::Long(Saturate<int64_t>(v.d));
        default:
          break;
      }
      break;
    case Type::Kind::kFloat:
      if (v.kind == K::kBigint) {
        if (v.big > std::numeric_limits<int64_t>::max() ||
            v.big < std::numeric_limits<int64_t>::min()) {
          return EvalValue::Unknown("\\bigint too large to convert exactly");
        }
        return EvalValue::Float(static_cast<float>(static_cast<int64_t>(v.big)));
      }
      if (IsNumeric(v)) return EvalValue::Float(ToFloat(v));
      break;
    case Type::Kind::kDouble:
      if (v.kind == K::kBigint) {
        if (v.big > std::numeric_limits<int64_t>::max() ||
            v.big < std::numeric_limits<int64_t>::min()) {
          return EvalValue::Unknown("\\bigint too large to convert exactly");
        }
        return EvalValue::Double(static_cast<double>(static_cast<int64_t>(v.big)));
      }
      if (IsNumeric(v)) return EvalValue::Double(ToDouble(v));
      break;
    case Type::Kind::kBigint:
      if (v.kind == K::kInt || v.kind == K::kLong) return EvalValue::Bigint(v.i);
      if (v.kind == K::kBigint) return v;
      return EvalValue::Unknown("conversion of a floating-point value to \\bigint");
    case Type::Kind::kReal:
      return EvalValue::Unknown("\\real arithmetic is not evaluated");
    default:
      break;
  }
  return EvalValue::Unknown(
      absl::StrCat("cannot convert ", v.DebugString(), " to ", target.ToString()));
}

// The promoted type of two numeric values (JLS §5.6.2 with \bigint).
Type PromotedType(const EvalValue& a, const EvalValue& b) {
  int r = std::max(Rank(a), Rank(b));
  if (r == 5) {
    if (a.kind == K::kFloat || a.kind == K::kDouble || b.kind == K::kFloat ||
        b.kind == K::kDouble) {
      return Type::Real();
    }
    return Type::Bigint();
  }
  switch (r) {
    case 1:
      return Type::Int();
    case 2:
      return Type::Long();
    case 3:
      return Type::Float();
    case 4:
      return Type::Double();
  }
  return Type::Error();
}

EvalValue Undefined(const std::string& what) { return EvalValue::Unknown(what); }

// Integer arithmetic on values already converted to `t` (int, long,
// \bigint).
EvalValue IntegerArith(BinaryOp op, const EvalValue& a, const EvalValue& b, const Type& t) {
  if (t.IsBigint()) {
    __int128 x = a.big, y = b.big, r = 0;
    switch (op) {
      case BinaryOp::kAdd:
        if (__builtin_add_overflow(x, y, &r)) return EvalValue::Unknown("\\bigint overflow");
        return EvalValue::Bigint(r);
      case BinaryOp::kSub:
        if (__builtin_sub_overflow(x, y, &r)) return EvalValue::Unknown("\\bigint overflow");
        return EvalValue::Bigint(r);
      case BinaryOp::kMul:
        if (__builtin_mul_overflow(x, y, &r)) return EvalValue::Unknown("\\bigint overflow");
        return EvalValue::Bigint(r);
      case BinaryOp::kDiv:
        if (y == 0) return Undefined("division by zero");
        if (x == kInt128Min && y == -1) return EvalValue::Unknown("\\bigint overflow");
        return EvalValue::Bigint(x / y);
      case BinaryOp::kRem:
        if (y == 0) return Undefined("remainder by zero");
        if (y == -1) return EvalValue::Bigint(0);
        return EvalValue::Bigint(x % y);
      case BinaryOp::kBitAnd:
        return EvalValue::Bigint(x & y);
      case BinaryOp::kBitOr:
        return EvalValue::Bigint(x | y);
      case BinaryOp::kBitXor:
        return EvalValue::Bigint(x ^ y);
      default:
        return EvalValue::Unknown("operator not defined on \\bigint");
    }
  }
  bool is_long = t.Is(Type::Kind::kLong);
  uint64_t x = static_cast<uint64_t>(a.i), y = static_cast<uint64_t>(b.i);
  auto make = [&](uint64_t r) {
    return is_long ? EvalValue::Long(static_cast<int64_t>(r)) : EvalValue::Int(Wrap32(r));
  };
  switch (op) {
    case BinaryOp::kAdd:
      return make(x + y);
    case BinaryOp::kSub:
      return make(x - y);
    case BinaryOp::kMul:
      return make(x * y);
    case BinaryOp::kDiv:
    case BinaryOp::kRem: {
      if (b.i == 0) return Undefined(op == BinaryOp::kDiv ? "division by zero" : "remainder by zero");
      if (b.i == -1) {
        // MIN / -1 overflows to MIN; MIN % -1 is 0 (JLS §15.17.2-3).
        return op == BinaryOp::kDiv ? make(0 - x) : make(0);
      }
      return op == BinaryOp::kDiv ? make(static_cast<uint64_t>(a.i / b.i))
                                  : make(static_cast<uint64_t>(a.i % b.i));
    }
    case BinaryOp::kBitAnd:
      return make(x & y);
    case BinaryOp::kBitOr:
      return make(x | y);
    case BinaryOp::kBitXor:
      return make(x ^ y);
    default:
      return EvalValue::Unknown("not an arithmetic operator");
  }
}

template <typename F>
F FloatingOp(BinaryOp op, F x, F y, bool* ok) {
  *ok = true;
  switch (op) {
    case BinaryOp::kAdd:
      return x + y;
    case BinaryOp::kSub:
      return x - y;
    case BinaryOp::kMul:
      return x * y;
    case BinaryOp::kDiv:
      return x / y;
    case BinaryOp::kRem:
      return std::fmod(x, y);  // Java's % on floating point truncates like fmod
    default:
      *ok = false;
      return 0;
  }
}

// a op b in type t (the checker's type of the expression).
EvalValue Arith(BinaryOp op, const EvalValue& a0, const EvalValue& b0, const Type& t) {
  if (!a0.known()) return a0;
  if (!b0.known()) return b0;
  EvalValue a = ConvertTo(a0, t), b = ConvertTo(b0, t);
  if (!a.known()) return a;
  if (!b.known()) return b;
  if (t.Is(Type::Kind::kFloat)) {
    bool ok;
    float r = FloatingOp(op, a.f, b.f, &ok);
    return ok ? EvalValue::Float(r) : EvalValue::Unknown("operator not defined on float");
  }
  if (t.Is(Type::Kind::kDouble)) {
    bool ok;
    double r = FloatingOp(op, a.d, b.d, &ok);
    return ok ? EvalValue::Double(r) : EvalValue::Unknown("operator not defined on double");
  }
  if (t.Is(Type::Kind::kInt) || t.Is(Type::Kind::kLong) || t.IsBigint()) {
    return IntegerArith(op, a, b, t);
  }
  return EvalValue::Unknown(absl::StrCat("arithmetic in ", t.ToString(), " is not evaluated"));
}

// Numeric comparison after promotion; unknown if either is unknown.
Truth CompareNumbers(BinaryOp op, const EvalValue& a0, const EvalValue& b0) {
  Type t = PromotedType(a0, b0);
  if (t.IsError() || t.IsReal()) return Truth::kUnknown;
  EvalValue a = ConvertTo(a0, t), b = ConvertTo(b0, t);
  if (!a.known() || !b.known()) return Truth::kUnknown;
  auto cmp = [op](auto x, auto y) {
    switch (op) {
      case BinaryOp::kEq:
        return x == y;
      case BinaryOp::kNe:
        return x != y;
      case BinaryOp::kLt:
        return x < y;
      case BinaryOp::kLe:
        return x <= y;
      case BinaryOp::kGt:
        return x > y;
      case BinaryOp::kGe:
        return x >= y;
      default:
        return false;
    }
  };
  switch (a.kind) {
    case K::kInt:
    case K::kLong:
      return TruthOf(cmp(a.i, b.i));
    case K::kFloat:
      return TruthOf(cmp(a.f, b.f));
    case K::kDouble:
      return TruthOf(cmp(a.d, b.d));
    case K::kBigint:
      return TruthOf(cmp(a.big, b.big));
    default:
      return Truth::kUnknown;
  }
}

Type TypeOfValue(const EvalValue& v) {
  switch (v.kind) {
    case K::kBoolean:
      return Type::Boolean();
    case K::kInt:
      switch (v.int_type) {
        case Type::Kind::kByte:
          return Type::Byte();
        case Type::Kind::kShort:
          return Type::Short();
        case Type::Kind::kChar:
          return Type::Char();
        default:
          return Type::Int();
      }
    case K::kLong:
      return Type::Long();
    case K::kFloat:
      return Type::Float();
    case K::kDouble:
      return Type::Double();
    case K::kBigint:
      return Type::Bigint();
    case K::kString:
      return Type::String();
    case K::kNull:
      return Type::Null();
    default:
      return Type::Error();
  }
}

// Java's String.valueOf for the kinds whose text is exact; false otherwise.
bool JavaStringOf(const EvalValue& v, std::u16string* out) {
  std::string ascii;
  switch (v.kind) {
    case K::kString:
      *out = v.str;
      return true;
    case K::kNull:
      ascii = "null";
      break;
    case K::kBoolean:
      ascii = v.i != 0 ? "true" : "false";
      break;
    case K::kInt:
      if (v.int_type == Type::Kind::kChar) {
        *out = std::u16string(1, static_cast<char16_t>(v.i));
        return true;
      }
      ascii = absl::StrCat(v.i);
      break;
    case K::kLong:
      ascii = absl::StrCat(v.i);
      break;
    default:
      return false;
  }
  *out = std::u16string(ascii.begin(), ascii.end());
  return true;
}

const v1::Field* FindField(const v1::ObjectState& state, const std::string& name,
                           const std::string& owner) {
  const v1::Field* any = nullptr;
  int count = 0;
  for (const v1::Field& f : state.fields()) {
    if (f.name() != name) continue;
    const std::string& declaring = f.declaring_class().empty() ? state.class_name()
                                                               : f.declaring_class();
    if (!owner.empty() && declaring == owner) return &f;
    any = &f;
    ++count;
  }
  return count == 1 || owner.empty() ? any : nullptr;
}

// Constants of the built-in JDK classes (jdk_env.cpp).
EvalValue JdkConstant(const std::string& owner, const std::string& name) {
  auto ints = [&](int64_t min, int64_t max, int size, Type::Kind kind) -> EvalValue {
    if (name == "MIN_VALUE") {
      return kind == Type::Kind::kLong ? EvalValue::Long(min)
                                       : EvalValue::Int(static_cast<int32_t>(min), kind);
    }
    if (name == "MAX_VALUE") {
      return kind == Type::Kind::kLong ? EvalValue::Long(max)
                                       : EvalValue::Int(static_cast<int32_t>(max), kind);
    }
    if (name == "SIZE") return EvalValue::Int(size);
    if (name == "BYTES") return EvalValue::Int(size / 8);
    return EvalValue::Unknown(absl::StrCat("static field ", owner, ".", name, " is not modelled"));
  };
  if (owner == "java.lang.Integer")
    return ints(std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(), 32,
                Type::Kind::kInt);
  if (owner == "java.lang.Long")
    return ints(std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), 64,
                Type::Kind::kLong);
  if (owner == "java.lang.Short") return ints(-32768, 32767, 16, Type::Kind::kShort);
  if (owner == "java.lang.Byte") return ints(-128, 127, 8, Type::Kind::kByte);
  if (owner == "java.lang.Character") return ints(0, 65535, 16, Type::Kind::kChar);
  if (owner == "java.lang.Boolean") {
    if (name == "TRUE") return EvalValue::Bool(true);
    if (name == "FALSE") return EvalValue::Bool(false);
  }
  if (owner == "java.lang.Float") {
    using L = std::numeric_limits<float>;
    if (name == "MIN_VALUE") return EvalValue::Float(L::denorm_min());
    if (name == "MAX_VALUE") return EvalValue::Float(L::max());
    if (name == "MIN_NORMAL") return EvalValue::Float(L::min());
    if (name == "POSITIVE_INFINITY") return EvalValue::Float(L::infinity());
    if (name == "NEGATIVE_INFINITY") return EvalValue::Float(-L::infinity());
    if (name == "NaN") return EvalValue::Float(L::quiet_NaN());
    if (name == "SIZE") return EvalValue::Int(32);
    if (name == "BYTES") return EvalValue::Int(4);
  }
  if (owner == "java.lang.Double") {
    using L = std::numeric_limits<double>;
    if (name == "MIN_VALUE") return EvalValue::Double(L::denorm_min());
    if (name == "MAX_VALUE") return EvalValue::Double(L::max());
    if (name == "MIN_NORMAL") return EvalValue::Double(L::min());
    if (name == "POSITIVE_INFINITY") return EvalValue::Double(L::infinity());
    if (name == "NEGATIVE_INFINITY") return EvalValue::Double(-L::infinity());
    if (name == "NaN") return EvalValue::Double(L::quiet_NaN());
    if (name == "SIZE") return EvalValue::Int(64);
    if (name == "BYTES") return EvalValue::Int(8);
  }
  if (owner == "java.lang.Math") {
    if (name == "PI") return EvalValue::Double(3.141592653589793);
    if (name == "E") return EvalValue::Double(2.718281828459045);
  }
  return EvalValue::Unknown(
      absl::StrCat("static field ", owner, ".", name, " is not recorded in observations"));
}

// A bound of a quantified variable: v + offset (<|<=) value or the reverse.
struct RawBound {
  bool lower = false;
  bool inclusive = false;
  const Expr* expr = nullptr;
  int64_t offset = 0;  // the conjunct reads (v + offset) op expr
};

bool IsBoundVarOf(const Expr& e, const Expr* binder, int index) {
  return e.kind == ExprKind::kName && e.sym.kind == SymbolKind::kBoundVar &&
         e.sym.binder == binder && e.sym.index == index;
}

bool IntLiteral(const Expr& e, int64_t* out) {
  if (e.kind == ExprKind::kLiteral &&
      (e.literal.kind == LiteralKind::kInt || e.literal.kind == LiteralKind::kLong)) {
    *out = e.literal.kind == LiteralKind::kInt ? static_cast<int32_t>(e.literal.bits)
                                               : static_cast<int64_t>(e.literal.bits);
    return true;
  }
  if (e.kind == ExprKind::kUnary && e.unary_op == UnaryOp::kMinus &&
      IntLiteral(*e.operands[0], out)) {
    *out = -*out;
    return true;
  }
  return false;
}

// Whether `e` is v, v + c, c + v or v - c; sets the offset c.
bool LinearInVar(const Expr& e, const Expr* binder, int index, int64_t* offset) {
  if (IsBoundVarOf(e, binder, index)) {
    *offset = 0;
    return true;
  }
  if (e.kind != ExprKind::kBinary) return false;
  int64_t c;
  if (e.binary_op == BinaryOp::kAdd) {
    if (IsBoundVarOf(*e.operands[0], binder, index) && IntLiteral(*e.operands[1], &c)) {
      *offset = c;
      return true;
    }
    if (IsBoundVarOf(*e.operands[1], binder, index) && IntLiteral(*e.operands[0], &c)) {
      *offset = c;
      return true;
    }
  }
  if (e.binary_op == BinaryOp::kSub && IsBoundVarOf(*e.operands[0], binder, index) &&
      IntLiteral(*e.operands[1], &c)) {
    *offset = -c;
    return true;
  }
  return false;
}

bool MentionsVar(const Expr& e, const Expr* binder, int index) {
  if (IsBoundVarOf(e, binder, index)) return true;
  for (const auto& op : e.operands) {
    if (MentionsVar(*op, binder, index)) return true;
  }
  return false;
}

std::vector<RawBound> BoundsOf(const std::vector<const Expr*>& conjuncts, const Expr* binder,
                               int index) {
  std::vector<RawBound> out;
  for (const Expr* c : conjuncts) {
    if (c->kind != ExprKind::kBinary) continue;
    BinaryOp op = c->binary_op;
    const Expr* l = c->operands[0].get();
    const Expr* r = c->operands[1].get();
    if (op == BinaryOp::kEq) {
      int64_t off;
      for (int side = 0; side < 2; ++side) {
        const Expr* v = side == 0 ? l : r;
        const Expr* other = side == 0 ? r : l;
        if (LinearInVar(*v, binder, index, &off) && !MentionsVar(*other, binder, index)) {
          out.push_back(RawBound{true, true, other, off});
          out.push_back(RawBound{false, true, other, off});
        }
      }
      continue;
    }
    if (op != BinaryOp::kLt && op != BinaryOp::kLe && op != BinaryOp::kGt && op != BinaryOp::kGe)
      continue;
    bool inclusive = op == BinaryOp::kLe || op == BinaryOp::kGe;
    if (op == BinaryOp::kGt || op == BinaryOp::kGe) std::swap(l, r);  // now l < r / l <= r
    int64_t off;
    if (LinearInVar(*l, binder, index, &off) && !MentionsVar(*r, binder, index)) {
      out.push_back(RawBound{false, inclusive, r, off});  // v + off < r
    } else if (LinearInVar(*r, binder, index, &off) && !MentionsVar(*l, binder, index)) {
      out.push_back(RawBound{true, inclusive, l, off});  // l < v + off
    }
  }
  return out;
}

__int128 TypeMin(const Type& t) {
  switch (t.element_kind()) {
    case Type::Kind::kByte:
      return -128;
    case Type::Kind::kShort:
      return -32768;
    case Type::Kind::kChar:
      return 0;
    case Type::Kind::kInt:
      return std::numeric_limits<int32_t>::min();
    case Type::Kind::kLong:
      return std::numeric_limits<int64_t>::min();
    default:
      return kInt128Min;
  }
}

__int128 TypeMax(const Type& t) {
  switch (t.element_kind()) {
    case Type::Kind::kByte:
      return 127;
    case Type::Kind::kShort:
      return 32767;
    case Type::Kind::kChar:
      return 65535;
    case Type::Kind::kInt:
      return std::numeric_limits<int32_t>::max();
    case Type::Kind::kLong:
      return std::numeric_limits<int64_t>::max();
    default:
      return kInt128Max;
  }
}

EvalValue IntegerOfType(__int128 v, const Type& t) {
  if (t.IsBigint()) return EvalValue::Bigint(v);
  if (t.Is(Type::Kind::kLong)) return EvalValue::Long(static_cast<int64_t>(v));
  return EvalValue::Int(static_cast<int32_t>(v), t.element_kind());
}

bool IsPrimitiveOrBig(const Type& t) { return t.IsPrimitive() || t.IsBigint() || t.IsReal(); }

// Characters whose Character.isWhitespace/isDigit/... answer we know (ASCII).
bool AsciiChar(const EvalValue& v) { return v.kind == K::kInt && v.i >= 0 && v.i < 128; }

int32_t JavaStringHash(const std::u16string& s) {
  uint32_t h = 0;
  for (char16_t c : s) h = 31 * h + c;
  return static_cast<int32_t>(h);
}

int32_t CompareUtf16(const std::u16string& a, const std::u16string& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t k = 0; k < n; ++k) {
    if (a[k] != b[k]) return static_cast<int32_t>(a[k]) - static_cast<int32_t>(b[k]);
  }
  return static_cast<int32_t>(a.size()) - static_cast<int32_t>(b.size());
}

// Math.max/min for floating point (JLS: NaN wins; -0.0 < 0.0).
template <typename F>
F JavaMax(F a, F b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<F>::quiet_NaN();
  if (a == 0 && b == 0) return std::signbit(a) ? b : a;
  return a >= b ? a : b;
}
template <typename F>
F JavaMin(F a, F b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<F>::quiet_NaN();
  if (a == 0 && b == 0) return std::signbit(a) ? a : b;
  return a <= b ? a : b;
}

// Double.compare / Float.compare: -0.0 < 0.0, NaN above everything and
// equal to itself.
template <typename F>
int32_t JavaCompare(F a, F b) {
  if (a < b) return -1;
  if (a > b) return 1;
  bool an = std::isnan(a), bn = std::isnan(b);
  if (an || bn) return an == bn ? 0 : (an ? 1 : -1);
  bool as = std::signbit(a), bs = std::signbit(b);
  return as == bs ? 0 : (as ? -1 : 1);
}

int32_t Signum(int64_t v) { return v > 0 ? 1 : (v < 0 ? -1 : 0); }

}  // namespace

// ---- The evaluator ----

ObservationEvaluator::ObservationEvaluator(const v1::Observation& observation,
                                           const MethodContext& ctx, EvalOptions options)
    : obs_(observation), ctx_(ctx), options_(options) {
  for (const v1::ObjectState& s : obs_.pre()) pre_.emplace(s.id(), &s);
  for (const v1::ObjectState& s : obs_.post()) post_.emplace(s.id(), &s);
  // Created arrays take ids above every recorded one (and in the upper half,
  // away from ids a reference may hold to an object left unrecorded).
  next_created_ = uint64_t{1} << 63;
  for (const auto* states : {&pre_, &post_}) {
    if (!states->empty()) next_created_ = std::max(next_created_, states->rbegin()->first + 1);
  }
}

bool ObservationEvaluator::Step() { return ++steps_ <= options_.max_steps; }

const v1::ObjectState* ObservationEvaluator::Object(uint64_t id, EvalState at) const {
  const auto& states = at == EvalState::kPre ? pre_ : post_;
  auto it = states.find(id);
  if (it != states.end()) return it->second;
  auto created = created_.find(id);
  return created == created_.end() ? nullptr : &created->second;
}

EvalValue ObservationEvaluator::Evaluate(const Expr& e, EvalState at) {
  steps_ = 0;
  bindings_.clear();
  created_.clear();
  created_elements_ = 0;
  depth_ = 0;
  return Eval(e, at);
}

Truth ObservationEvaluator::Holds(const Expr& pred, EvalState at) {
  EvalValue v = Evaluate(pred, at);
  return v.truth();
}

EvalValue ObservationEvaluator::Eval(const Expr& e, EvalState at) {
  if (!Step()) return EvalValue::Unknown("evaluation budget exhausted");
  if (depth_ > 200) return EvalValue::Unknown("expression nested too deeply");
  ++depth_;
  EvalValue v = EvalImpl(e, at);
  --depth_;
  // Boxed values used where a primitive is expected are unboxed by the
  // operators; a value of a primitive static type is a primitive.
  if (v.kind == K::kRef && IsPrimitiveOrBig(e.type)) v = Unbox(v, at);
  return v;
}

EvalValue ObservationEvaluator::Unbox(const EvalValue& v, EvalState at) {
  if (v.kind != K::kRef) {
    if (v.kind == K::kNull) return Undefined("unboxing null");
    return v;
  }
  const v1::ObjectState* s = Object(v.ref, at);
  if (s == nullptr) s = Object(v.ref, at == EvalState::kPre ? EvalState::kPost : EvalState::kPre);
  if (s == nullptr) return EvalValue::Unknown(absl::StrCat("object #", v.ref, " not recorded"));
  if (UnboxedType(Type::Class(s->class_name())).IsError()) {
    return EvalValue::Unknown(absl::StrCat("object #", v.ref, " of ", s->class_name(),
                                           " is not a box"));
  }
  const v1::Field* f = FindField(*s, "value", "");
  if (f == nullptr) return EvalValue::Unknown(absl::StrCat("boxed value of #", v.ref, " not recorded"));
  return FromProto(f->value());
}

EvalValue ObservationEvaluator::ReadField(const EvalValue& object, const std::string& name,
                                          const std::string& owner, EvalState at) {
  switch (object.kind) {
    case K::kUnknown:
      return object;
    case K::kNull:
      return Undefined(absl::StrCat("field '", name, "' of null"));
    case K::kRef:
      break;
    default:
      return EvalValue::Unknown(absl::StrCat("field '", name, "' of a ", object.DebugString()));
  }
  const v1::ObjectState* s = Object(object.ref, at);
  const char* state = at == EvalState::kPre ? "pre" : "post";
  if (s == nullptr) {
    return EvalValue::Unknown(
        absl::StrCat("object #", object.ref, " is not recorded in the ", state, "-state"));
  }
  if (s->truncated()) {
    return EvalValue::Unknown(absl::StrCat("object #", object.ref, " (", s->class_name(),
                                           ") was truncated in the ", state, "-state"));
  }
  const v1::Field* f = FindField(*s, name, owner);
  if (f == nullptr) {
    return EvalValue::Unknown(absl::StrCat("field '", name, "' of ", s->class_name(),
                                           " is not recorded in the ", state, "-state"));
  }
  EvalValue v = FromProto(f->value());
  if (!v.known()) v.reason = absl::StrCat("field '", name, "': ", v.reason);
  return v;
}

EvalValue ObservationEvaluator::EvalName(const Expr& e, EvalState at) {
  switch (e.sym.kind) {
    case SymbolKind::kParameter: {
      if (e.sym.index < 0 || e.sym.index >= obs_.args_size())
        return EvalValue::Unknown(absl::StrCat("argument '", e.name, "' not recorded"));
      EvalValue v = FromProto(obs_.args(e.sym.index));
      if (!v.known()) v.reason = absl::StrCat("argument '", e.name, "': ", v.reason);
      return v;
    }
    case SymbolKind::kField: {
      if (e.sym.is_enum_constant) return EnumConstant(e.sym.owner, e.name);
      if (e.sym.is_static) return JdkConstant(e.sym.owner, e.name);
      if (!obs_.has_receiver() || obs_.receiver().kind_case() != v1::Value::kRef)
        return EvalValue::Unknown("the receiver is not recorded");
      return ReadField(EvalValue::Ref(obs_.receiver().ref()), e.name, e.sym.owner, at);
    }
    case SymbolKind::kBoundVar:
      for (auto it = bindings_.rbegin(); it != bindings_.rend(); ++it) {
        if (it->binder == e.sym.binder && it->index == e.sym.index) return it->value;
      }
      return EvalValue::Unknown(absl::StrCat("bound variable '", e.name, "' has no value"));
    case SymbolKind::kOldVar:
    case SymbolKind::kSignalsVar:
    case SymbolKind::kForallVar:
      for (auto it = bindings_.rbegin(); it != bindings_.rend(); ++it) {
        if (it->binder == nullptr && it->name == e.name) return it->value;
      }
      return EvalValue::Unknown(absl::StrCat("variable '", e.name, "' has no value"));
    default:
      return EvalValue::Unknown(absl::StrCat("'", e.name, "' is not evaluated"));
  }
}

// Whether a recorded object of class `class_name` may be a constant of the
// enum `owner`: the enum itself, or the class of a constant with a body
// (owner$1, owner$2, ...).
static bool OfEnumClass(absl::string_view class_name, absl::string_view owner) {
  if (!absl::ConsumePrefix(&class_name, owner)) return false;
  if (class_name.empty()) return true;
  if (!absl::ConsumePrefix(&class_name, "$") || class_name.empty()) return false;
  return std::all_of(class_name.begin(), class_name.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

EvalValue ObservationEvaluator::EnumConstant(const std::string& owner, const std::string& name) {
  bool unnamed = false;
  for (const auto* states : {&pre_, &post_}) {
    for (const auto& [id, state] : *states) {
      if (!OfEnumClass(state->class_name(), owner)) continue;
      const v1::Value* constant_name = nullptr;
      for (const v1::Field& f : state->fields()) {
        if (f.name() == "name" && f.declaring_class() == "java.lang.Enum") constant_name = &f.value();
      }
      if (constant_name == nullptr || constant_name->kind_case() != v1::Value::kStringValue) {
        unnamed = true;
        continue;
      }
      if (constant_name->string_value() == name) {
        EvalValue v = EvalValue::Ref(id);
        v.class_name = state->class_name();
        return v;
      }
    }
  }
  if (unnamed) {
    return EvalValue::Unknown(absl::StrCat("an object of ", owner,
                                           " whose constant is not recorded (", owner, ".", name,
                                           ")"));
  }
  // No recorded object is this constant: a reference of its own, equal to
  // itself and to no recorded object.
  auto [it, added] = enum_constants_.try_emplace(absl::StrCat(owner, ".", name),
                                                 kEnumConstantRefs + enum_constants_.size());
  EvalValue v = EvalValue::Ref(it->second);
  v.class_name = owner;
  return v;
}

EvalValue ObservationEvaluator::EvalFieldAccess(const Expr& e, EvalState at) {
  if (e.sym.kind == SymbolKind::kArrayLength) {
    EvalValue a = Eval(*e.operands[0], at);
    if (a.kind == K::kNull) return Undefined("length of null");
    if (a.kind != K::kRef) {
      return a.known() ? EvalValue::Unknown("length of a non-array") : a;
    }
    const v1::ObjectState* s = Object(a.ref, at);
    if (s == nullptr) s = Object(a.ref, at == EvalState::kPre ? EvalState::kPost : EvalState::kPre);
    if (s == nullptr || !s->has_array()) {
      return EvalValue::Unknown(absl::StrCat("array #", a.ref, " is not recorded"));
    }
    return EvalValue::Int(s->array().length());
  }
  if (e.sym.kind == SymbolKind::kField) {
    if (e.sym.is_enum_constant) return EnumConstant(e.sym.owner, e.name);
    if (e.sym.is_static) return JdkConstant(e.sym.owner, e.name);
    EvalValue object = Eval(*e.operands[0], at);
    return ReadField(object, e.name, e.sym.owner, at);
  }
  return EvalValue::Unknown(absl::StrCat("'", PrintExpr(e), "' is not a value"));
}

EvalValue ObservationEvaluator::EvalArrayAccess(const Expr& e, EvalState at) {
  EvalValue a = Eval(*e.operands[0], at);
  EvalValue index = Eval(*e.operands[1], at);
  if (a.kind == K::kNull) return Undefined("element of null");
  if (!a.known()) return a;
  if (a.kind != K::kRef) return EvalValue::Unknown("element of a non-array");
  const v1::ObjectState* s = Object(a.ref, at);
  const char* state = at == EvalState::kPre ? "pre" : "post";
  if (s == nullptr || !s->has_array()) {
    return EvalValue::Unknown(
        absl::StrCat("array #", a.ref, " is not recorded in the ", state, "-state"));
  }
  __int128 i;
  if (!index.AsInteger(&i)) return index.known() ? EvalValue::Unknown("non-integral index") : index;
  if (i < 0 || i >= s->array().length()) {
    return Undefined(absl::StrCat("index ", Int128Text(i), " out of bounds for length ",
                                  s->array().length()));
  }
  if (i >= s->array().elements_size()) {
    return EvalValue::Unknown(absl::StrCat("element ", Int128Text(i), " of array #", a.ref,
                                           " was not recorded"));
  }
  EvalValue v = FromProto(s->array().elements(static_cast<int>(i)));
  return v;
}

EvalValue ObservationEvaluator::EvalUnary(const Expr& e, EvalState at) {
  EvalValue v = Eval(*e.operands[0], at);
  if (!v.known()) return v;
  switch (e.unary_op) {
    case UnaryOp::kNot: {
      Truth t = v.truth();
      if (t == Truth::kUnknown) return EvalValue::Unknown("not a boolean");
      return EvalValue::Bool(t == Truth::kFalse);
    }
    case UnaryOp::kPlus:
      return ConvertTo(v, e.type);
    case UnaryOp::kMinus: {
      EvalValue x = ConvertTo(v, e.type);
      if (!x.known()) return x;
      switch (x.kind) {
        case K::kInt:
          return EvalValue::Int(Wrap32(0 - static_cast<uint64_t>(x.i)));
        case K::kLong:
          return EvalValue::Long(static_cast<int64_t>(0 - static_cast<uint64_t>(x.i)));
        case K::kFloat:
          return EvalValue::Float(-x.f);
        case K::kDouble:
          return EvalValue::Double(-x.d);
        case K::kBigint:
          if (x.big == kInt128Min) return EvalValue::Unknown("\\bigint overflow");
          return EvalValue::Bigint(-x.big);
        default:
          return EvalValue::Unknown("operand of '-'");
      }
    }
    case UnaryOp::kComplement: {
      EvalValue x = ConvertTo(v, e.type);
      if (x.kind == K::kInt) return EvalValue::Int(static_cast<int32_t>(~x.i));
      if (x.kind == K::kLong) return EvalValue::Long(~x.i);
      if (x.kind == K::kBigint) return EvalValue::Bigint(~x.big);
      return EvalValue::Unknown("operand of '~'");
    }
  }
  return EvalValue::Unknown("unary operator");
}

EvalValue ObservationEvaluator::EvalBinary(const Expr& e, EvalState at) {
  BinaryOp op = e.binary_op;
  const Expr& le = *e.operands[0];
  const Expr& re = *e.operands[1];
  // Logical operators: short-circuit like Java, Kleene for unknowns.
  switch (op) {
    case BinaryOp::kAnd:
    case BinaryOp::kOr:
    case BinaryOp::kImplies:
    case BinaryOp::kReverseImplies: {
      EvalValue lv = Eval(le, at);
      Truth l = lv.truth();
      if (op == BinaryOp::kAnd && l == Truth::kFalse) return EvalValue::Bool(false);
      if (op == BinaryOp::kOr && l == Truth::kTrue) return EvalValue::Bool(true);
      if (op == BinaryOp::kImplies && l == Truth::kFalse) return EvalValue::Bool(true);
      if (op == BinaryOp::kReverseImplies && l == Truth::kTrue) return EvalValue::Bool(true);
      EvalValue rv = Eval(re, at);
      Truth r = rv.truth();
      Truth t;
      switch (op) {
        case BinaryOp::kAnd:
          t = TruthAnd(l, r);
          break;
        case BinaryOp::kOr:
          t = TruthOr(l, r);
          break;
        case BinaryOp::kImplies:
          t = TruthImplies(l, r);
          break;
        default:
          t = TruthImplies(r, l);
          break;
      }
      if (t != Truth::kUnknown) return EvalValue::Bool(t == Truth::kTrue);
      return EvalValue::Unknown(l == Truth::kUnknown ? lv.reason : rv.reason);
    }
    default:
      break;
  }
  EvalValue lv = Eval(le, at);
  EvalValue rv = Eval(re, at);
  switch (op) {
    case BinaryOp::kEquiv:
    case BinaryOp::kInequiv: {
      Truth l = lv.truth(), r = rv.truth();
      if (l == Truth::kUnknown) return lv.known() ? EvalValue::Unknown("not a boolean") : lv;
      if (r == Truth::kUnknown) return rv.known() ? EvalValue::Unknown("not a boolean") : rv;
      return EvalValue::Bool((l == r) == (op == BinaryOp::kEquiv));
    }
    case BinaryOp::kBitAnd:
    case BinaryOp::kBitOr:
    case BinaryOp::kBitXor:
      if (e.type.IsBoolean()) {
        Truth l = lv.truth(), r = rv.truth();
        Truth t = op == BinaryOp::kBitAnd  ? TruthAnd(l, r)
                  : op == BinaryOp::kBitOr ? TruthOr(l, r)
                  : (l == Truth::kUnknown || r == Truth::kUnknown)
                      ? Truth::kUnknown
                      : TruthOf(l != r);
        if (t != Truth::kUnknown) return EvalValue::Bool(t == Truth::kTrue);
        return EvalValue::Unknown(!lv.known() ? lv.reason : rv.reason);
      }
      return Arith(op, lv, rv, e.type);
    case BinaryOp::kEq:
    case BinaryOp::kNe: {
      bool eq = op == BinaryOp::kEq;
      const Type& lt = le.type;
      const Type& rt = re.type;
      bool references = lt.IsReference() && rt.IsReference();
      if (!lv.known()) return lv;
      if (!rv.known()) return rv;
      if (references) {
        // Reference comparison (strings have no recorded identity).
        auto is_nullish = [](const EvalValue& v) { return v.kind == K::kNull; };
        if (is_nullish(lv) || is_nullish(rv)) {
          return EvalValue::Bool((is_nullish(lv) && is_nullish(rv)) == eq);
        }
        if (lv.kind == K::kRef && rv.kind == K::kRef) return EvalValue::Bool((lv.ref == rv.ref) == eq);
        if (lv.kind == K::kType && rv.kind == K::kType)
          return EvalValue::Bool((lv.type == rv.type) == eq);
        if ((lv.kind == K::kString) != (rv.kind == K::kString) &&
            (lv.kind == K::kRef || rv.kind == K::kRef)) {
          return EvalValue::Bool(!eq);  // strings are never recorded as objects
        }
        if (lv.kind == K::kThrown || rv.kind == K::kThrown)
          return EvalValue::Unknown("identity of the exception");
        return EvalValue::Unknown("identity of strings is not recorded");
      }
      if (lt.IsTypeOfType()) {
        if (lv.kind == K::kType && rv.kind == K::kType)
          return EvalValue::Bool((lv.type == rv.type) == eq);
        return EvalValue::Unknown("\\TYPE comparison");
      }
      EvalValue a = lv.kind == K::kRef ? Unbox(lv, at) : lv;
      EvalValue b = rv.kind == K::kRef ? Unbox(rv, at) : rv;
      if (!a.known()) return a;
      if (!b.known()) return b;
      if (a.kind == K::kBoolean || b.kind == K::kBoolean) {
        if (a.kind != b.kind) return EvalValue::Unknown("comparing a boolean with a non-boolean");
        return EvalValue::Bool((a.i == b.i) == eq);
      }
      Truth t = CompareNumbers(op, a, b);
      if (t == Truth::kUnknown) return EvalValue::Unknown("numeric comparison not evaluated");
      return EvalValue::Bool(t == Truth::kTrue);
    }
    case BinaryOp::kLt:
    case BinaryOp::kLe:
    case BinaryOp::kGt:
    case BinaryOp::kGe: {
      EvalValue a = lv.kind == K::kRef ? Unbox(lv, at) : lv;
      EvalValue b = rv.kind == K::kRef ? Unbox(rv, at) : rv;
      if (!a.known()) return a;
      if (!b.known()) return b;
      Truth t = CompareNumbers(op, a, b);
      if (t == Truth::kUnknown) return EvalValue::Unknown("numeric comparison not evaluated");
      return EvalValue::Bool(t == Truth::kTrue);
    }
    case BinaryOp::kSubtype: {
      if (lv.kind != K::kType || rv.kind != K::kType) {
        return !lv.known() ? lv : (!rv.known() ? rv : EvalValue::Unknown("'<:' on non-types"));
      }
      if (lv.type == rv.type) return EvalValue::Bool(true);
      if (lv.type.IsClass() && rv.type.IsClass()) {
        Truth t = IsSubtype(lv.type.class_name(), rv.type);
        if (t != Truth::kUnknown) return EvalValue::Bool(t == Truth::kTrue);
      }
      return EvalValue::Unknown("subtyping not decided");
    }
    case BinaryOp::kShl:
    case BinaryOp::kShr:
    case BinaryOp::kUshr: {
      EvalValue a = ConvertTo(lv, e.type);
      if (!a.known()) return a;
      if (!rv.known()) return rv;
      __int128 dist;
      EvalValue r = rv.kind == K::kRef ? Unbox(rv, at) : rv;
      if (!r.AsInteger(&dist)) return EvalValue::Unknown("shift distance");
      if (a.kind == K::kInt) {
        int s = static_cast<int>(dist & 31);
        uint32_t x = static_cast<uint32_t>(a.i);
        if (op == BinaryOp::kShl) return EvalValue::Int(static_cast<int32_t>(x << s));
        if (op == BinaryOp::kShr) return EvalValue::Int(static_cast<int32_t>(a.i) >> s);
        return EvalValue::Int(static_cast<int32_t>(x >> s));
      }
      if (a.kind == K::kLong) {
        int s = static_cast<int>(dist & 63);
        uint64_t x = static_cast<uint64_t>(a.i);
        if (op == BinaryOp::kShl) return EvalValue::Long(static_cast<int64_t>(x << s));
        if (op == BinaryOp::kShr) return EvalValue::Long(a.i >> s);
        return EvalValue::Long(static_cast<int64_t>(x >> s));
      }
      return EvalValue::Unknown("shift operand");
    }
    case BinaryOp::kAdd:
      if (e.type.IsClass() && e.type.class_name() == "java.lang.String") {
        if (!lv.known()) return lv;
        if (!rv.known()) return rv;
        std::u16string a, b;
        if (!JavaStringOf(lv, &a) || !JavaStringOf(rv, &b))
          return EvalValue::Unknown("string conversion of this value is not evaluated");
        return EvalValue::String(a + b);
      }
      [[fallthrough]];
    case BinaryOp::kSub:
    case BinaryOp::kMul:
    case BinaryOp::kDiv:
    case BinaryOp::kRem: {
      EvalValue a = lv.kind == K::kRef ? Unbox(lv, at) : lv;
      EvalValue b = rv.kind == K::kRef ? Unbox(rv, at) : rv;
      return Arith(op, a, b, e.type);
    }
    default:
      break;
  }
  return EvalValue::Unknown(absl::StrCat("operator ", BinaryOpText(op), " is not evaluated"));
}

EvalValue ObservationEvaluator::EvalQuantifier(const Expr& e, EvalState at) {
  const Type& vt = e.type_ref.resolved;
  const int n = static_cast<int>(e.bound_vars.size());
  const Expr* range = QuantifierRange(e);
  const Expr& body = QuantifierBody(e);
  QuantifierKind q = e.quantifier;
  // Where the bounds come from.
  std::vector<const Expr*> conjuncts;
  if (range != nullptr) {
    CollectConjuncts(*range, &conjuncts);
  } else if (q == QuantifierKind::kForall && body.kind == ExprKind::kBinary &&
             body.binary_op == BinaryOp::kImplies) {
    CollectConjuncts(*body.operands[0], &conjuncts);
  } else if (q == QuantifierKind::kExists || q == QuantifierKind::kNumOf) {
    CollectConjuncts(body, &conjuncts);
  }
  bool boolean_vars = vt.IsBoolean();
  if (!boolean_vars && !(vt.IsIntegral() && !vt.IsArray())) {
    return EvalValue::Unknown(
        absl::StrCat("quantification over ", vt.ToString(), " is not evaluated"));
  }
  std::vector<std::vector<RawBound>> bounds(n);
  for (int k = 0; k < n; ++k) bounds[k] = BoundsOf(conjuncts, &e, k);

  // Aggregation state.
  Truth logical = q == QuantifierKind::kForall ? Truth::kTrue : Truth::kFalse;
  std::string unknown_reason;
  bool have_acc = false;
  EvalValue acc;
  int64_t count = 0;
  bool aggregate_unknown = false;
  bool done = false;

  std::vector<bool> bound(n, false);
  size_t mark = bindings_.size();

  // Evaluates one complete assignment.
  auto visit = [&]() {
    EvalValue rv = range != nullptr ? Eval(*range, at) : EvalValue::Bool(true);
    Truth r = rv.truth();
    if (r == Truth::kFalse) return;
    switch (q) {
      case QuantifierKind::kForall:
      case QuantifierKind::kExists: {
        EvalValue bv = Eval(body, at);
        Truth b = bv.truth();
        Truth c = q == QuantifierKind::kForall ? TruthImplies(r, b) : TruthAnd(r, b);
        if (c == Truth::kUnknown && unknown_reason.empty())
          unknown_reason = r == Truth::kUnknown ? rv.reason : bv.reason;
        logical = q == QuantifierKind::kForall ? TruthAnd(logical, c) : TruthOr(logical, c);
        if ((q == QuantifierKind::kForall && logical == Truth::kFalse) ||
            (q == QuantifierKind::kExists && logical == Truth::kTrue)) {
          done = true;
        }
        return;
      }
      case QuantifierKind::kNumOf: {
        EvalValue bv = Eval(body, at);
        Truth c = TruthAnd(r, bv.truth());
        if (c == Truth::kUnknown) {
          aggregate_unknown = true;
          if (unknown_reason.empty()) unknown_reason = r == Truth::kUnknown ? rv.reason : bv.reason;
          done = true;
        } else if (c == Truth::kTrue) {
          ++count;
        }
        return;
      }
      default: {
        if (r == Truth::kUnknown) {
          aggregate_unknown = true;
          unknown_reason = rv.reason;
          done = true;
          return;
        }
        EvalValue bv = ConvertTo(Eval(body, at), e.type);
        if (!bv.known()) {
          aggregate_unknown = true;
          unknown_reason = bv.reason;
          done = true;
          return;
        }
        if (!have_acc) {
          acc = bv;
          have_acc = true;
          return;
        }
        if (q == QuantifierKind::kSum) {
          acc = Arith(BinaryOp::kAdd, acc, bv, e.type);
        } else if (q == QuantifierKind::kProduct) {
          acc = Arith(BinaryOp::kMul, acc, bv, e.type);
        } else {
          if ((bv.kind == K::kFloat && std::isnan(bv.f)) ||
              (bv.kind == K::kDouble && std::isnan(bv.d))) {
            acc = EvalValue::Unknown("NaN in \\max/\\min");
          } else {
            Truth gt = CompareNumbers(q == QuantifierKind::kMax ? BinaryOp::kGt : BinaryOp::kLt,
                                      bv, acc);
            if (gt == Truth::kTrue) acc = bv;
          }
        }
        if (!acc.known()) {
          aggregate_unknown = true;
          unknown_reason = acc.reason;
          done = true;
        }
        return;
      }
    }
  };

  // The interval of variable k given the variables bound so far; false
  // when some bound cannot be computed.
  // Why a bound had no value (a.length with a null a): the range is
  // undefined then, not merely out of the evaluator's reach.
  std::string bound_reason;
  std::function<bool(int, bool, int, __int128*)> bound_of;
  bound_of = [&](int k, bool lower, int hops, __int128* out) -> bool {
    bool found = false;
    __int128 best = lower ? TypeMin(vt) : TypeMax(vt);
    for (const RawBound& b : bounds[k]) {
      if (b.lower != lower) continue;
      __int128 value;
      // A bound that is exactly another unbound variable: use that
      // variable's own bound (an over-approximation; the range is
      // re-checked for every value).
      int other = -1;
      for (int j = 0; j < n; ++j) {
        if (!bound[j] && j != k && MentionsVar(*b.expr, &e, j)) {
          other = j;
          break;
        }
      }
      if (other >= 0) {
        if (hops == 0 || !IsBoundVarOf(*b.expr, &e, other)) continue;
        if (!bound_of(other, lower, hops - 1, &value)) continue;
      } else {
        EvalValue v = Eval(*b.expr, at);
        if (v.kind == K::kRef) v = Unbox(v, at);
        if (!v.known() && bound_reason.empty()) bound_reason = v.reason;
        if (!v.AsInteger(&value)) continue;
      }
      // (v + offset) < value  =>  v <= value - offset - 1
      value -= b.offset;
      if (!b.inclusive) value += lower ? 1 : -1;
      best = lower ? std::max(best, value) : std::min(best, value);
      found = true;
    }
    if (!found && !vt.IsBigint() && (vt.element_kind() == Type::Kind::kByte ||
                                     vt.element_kind() == Type::Kind::kShort ||
                                     vt.element_kind() == Type::Kind::kChar)) {
      found = true;  // small types are bounded by themselves
    }
    *out = best;
    return found;
  };

  std::function<void(int)> enumerate;
  enumerate = [&](int remaining) {
    if (done) return;
    if (remaining == 0) {
      visit();
      return;
    }
    // Pick the first unbound variable with computable bounds.
    int pick = -1;
    __int128 lo = 0, hi = -1;
    for (int k = 0; k < n && pick < 0; ++k) {
      if (bound[k]) continue;
      if (boolean_vars) {
        pick = k;
        lo = 0;
        hi = 1;
        break;
      }
      __int128 l, h;
      if (bound_of(k, true, 2, &l) && bound_of(k, false, 2, &h)) {
        pick = k;
        lo = l;
        hi = h;
      }
    }
    if (pick < 0) {
      logical = Truth::kUnknown;
      aggregate_unknown = true;
      unknown_reason = bound_reason.empty() ? "a quantified variable has no computable bounds"
                                            : bound_reason;
      done = true;
      return;
    }
    bound[pick] = true;
    // `v + c` in a bound wraps for the c values at the end of the type
    // (0 <= i && i + 1 < a.length holds for i = Integer.MAX_VALUE): those
    // values are candidates too, checked against the range like the others.
    std::vector<__int128> values;
    if (!boolean_vars && (vt.Is(Type::Kind::kInt) || vt.Is(Type::Kind::kLong))) {
      for (const RawBound& b : bounds[pick]) {
        if (b.offset == 0 || b.offset > 16 || b.offset < -16) continue;
        __int128 from = b.offset > 0 ? TypeMax(vt) - b.offset + 1 : TypeMin(vt);
        __int128 to = b.offset > 0 ? TypeMax(vt) : TypeMin(vt) - b.offset - 1;
        for (__int128 v = from; v <= to; ++v) {
          if ((v < lo || v > hi) && std::find(values.begin(), values.end(), v) == values.end()) {
            values.push_back(v);
          }
        }
      }
    }
    std::sort(values.begin(), values.end());
    __int128 span = hi >= lo ? hi - lo + 1 : 0;
    for (__int128 k = 0; k < span + static_cast<__int128>(values.size()) && !done; ++k) {
      __int128 v = k < span ? lo + k : values[static_cast<size_t>(k - span)];  // then the wrapping ones
      if (!Step()) {
        logical = Truth::kUnknown;
        aggregate_unknown = true;
        unknown_reason = "evaluation budget exhausted";
        done = true;
        break;
      }
      Binding b;
      b.binder = &e;
      b.index = pick;
      b.value = boolean_vars ? EvalValue::Bool(v != 0) : IntegerOfType(v, vt);
      bindings_.push_back(std::move(b));
      enumerate(remaining - 1);
      bindings_.pop_back();
    }
    bound[pick] = false;
  };
  enumerate(n);
  bindings_.resize(mark);

  switch (q) {
    case QuantifierKind::kForall:
    case QuantifierKind::kExists:
      if (logical == Truth::kUnknown) return EvalValue::Unknown(unknown_reason);
      return EvalValue::Bool(logical == Truth::kTrue);
    case QuantifierKind::kNumOf:
      if (aggregate_unknown) return EvalValue::Unknown(unknown_reason);
      return e.type.IsBigint() ? EvalValue::Bigint(count) : EvalValue::Long(count);
    default:
      if (aggregate_unknown) return EvalValue::Unknown(unknown_reason);
      if (!have_acc) {
        if (q == QuantifierKind::kSum) return ConvertTo(EvalValue::Int(0), e.type);
        if (q == QuantifierKind::kProduct) return ConvertTo(EvalValue::Int(1), e.type);
        return Undefined(absl::StrCat(QuantifierText(q), " over an empty range has no value"));
      }
      return acc;
  }
}

Truth ObservationEvaluator::IsSubtype(const std::string& sub, const Type& super) const {
  if (!super.IsClass()) return Truth::kUnknown;
  if (sub == super.class_name() || super.class_name() == "java.lang.Object") return Truth::kTrue;
  if (options_.env == nullptr || options_.env->FindClass(sub) == nullptr) return Truth::kUnknown;
  return TruthOf(IsSubclassOf(*options_.env, sub, super.class_name()));
}

Truth ObservationEvaluator::ThrownIsA(const std::string& thrown, const Type& type) const {
  return IsSubtype(thrown, type);
}

EvalValue ObservationEvaluator::EvalInstanceOf(const EvalValue& v, const Type& target,
                                               EvalState at) {
  switch (v.kind) {
    case K::kUnknown:
      return v;
    case K::kNull:
      return EvalValue::Bool(false);
    case K::kString: {
      if (!target.IsClass()) return EvalValue::Bool(false);
      const std::string& n = target.class_name();
      return EvalValue::Bool(n == "java.lang.String" || n == "java.lang.Object" ||
                             n == "java.lang.CharSequence" || n == "java.lang.Comparable" ||
                             n == "java.io.Serializable");
    }
    case K::kThrown: {
      Truth t = ThrownIsA(v.class_name, target);
      return t == Truth::kUnknown ? EvalValue::Unknown("subtyping of the exception not decided")
                                  : EvalValue::Bool(t == Truth::kTrue);
    }
    case K::kRef: {
      const v1::ObjectState* s = Object(v.ref, at);
      if (s == nullptr)
        s = Object(v.ref, at == EvalState::kPre ? EvalState::kPost : EvalState::kPre);
      if (s == nullptr) return EvalValue::Unknown(absl::StrCat("class of #", v.ref, " unknown"));
      if (s->has_array() || (!s->class_name().empty() && s->class_name()[0] == '[')) {
        absl::StatusOr<Type> t = Type::FromDescriptor(s->class_name());
        if (!t.ok()) return EvalValue::Unknown("array class");
        if (*t == target) return EvalValue::Bool(true);
        if (target.IsClass() && (target.class_name() == "java.lang.Object" ||
                                 target.class_name() == "java.lang.Cloneable" ||
                                 target.class_name() == "java.io.Serializable")) {
          return EvalValue::Bool(true);
        }
        if (!target.IsArray()) return EvalValue::Bool(false);
        return EvalValue::Unknown("array subtyping not decided");
      }
      if (target.IsArray()) return EvalValue::Bool(false);
      Truth t = IsSubtype(s->class_name(), target);
      return t == Truth::kUnknown ? EvalValue::Unknown("subtyping not decided")
                                  : EvalValue::Bool(t == Truth::kTrue);
    }
    default:
      return EvalValue::Unknown("instanceof on a primitive");
  }
}

// ---- Array creation ----

namespace {

// Most elements the arrays created in one top-level call may hold
// together: past it a creation is not evaluated.
constexpr int64_t kMaxCreatedElements = int64_t{1} << 16;

// The default value of an element of type `t` (0, false, null) as recorded.
v1::Value DefaultElement(const Type& t) {
  v1::Value out;
  switch (t.IsPrimitive() ? t.element_kind() : Type::Kind::kClass) {
    case Type::Kind::kBoolean: out.set_bool_value(false); break;
    case Type::Kind::kByte: out.set_byte_value(0); break;
    case Type::Kind::kShort: out.set_short_value(0); break;
    case Type::Kind::kChar: out.set_char_value(0); break;
    case Type::Kind::kInt: out.set_int_value(0); break;
    case Type::Kind::kLong: out.set_long_value(0); break;
    case Type::Kind::kFloat: out.set_float_value(0); break;
    case Type::Kind::kDouble: out.set_double_value(0); break;
    default: out.mutable_null_value(); break;
  }
  return out;
}

// An array of `type` and `length` with no elements yet.
v1::ObjectState EmptyArray(const Type& type, int32_t length) {
  v1::ObjectState s;
  s.set_class_name(type.Descriptor());
  s.mutable_array()->set_element_descriptor(type.ElementType().Descriptor());
  s.mutable_array()->set_length(length);
  return s;
}

// `v` stored in an array of element type `t`, as the observation records a
// value; false when it has no such form here (boxing into an Integer[],
// \bigint elements).
bool ElementToProto(const EvalValue& value, const Type& t, v1::Value* out) {
  if (t.IsPrimitive()) {
    EvalValue v = ConvertTo(value, t);
    switch (t.element_kind()) {
      case Type::Kind::kBoolean:
        if (v.kind != K::kBoolean) return false;
        out->set_bool_value(v.i != 0);
        return true;
      case Type::Kind::kByte: out->set_byte_value(static_cast<int32_t>(v.i)); break;
      case Type::Kind::kShort: out->set_short_value(static_cast<int32_t>(v.i)); break;
      case Type::Kind::kChar: out->set_char_value(static_cast<int32_t>(v.i)); break;
      case Type::Kind::kInt: out->set_int_value(static_cast<int32_t>(v.i)); break;
      case Type::Kind::kLong: out->set_long_value(v.i); break;
      case Type::Kind::kFloat: out->set_float_value(v.f); return v.kind == K::kFloat;
      case Type::Kind::kDouble: out->set_double_value(v.d); return v.kind == K::kDouble;
      default: return false;
    }
    return v.kind == K::kInt || v.kind == K::kLong;
  }
  switch (value.kind) {
    case K::kNull: out->mutable_null_value(); return true;
    case K::kRef: out->set_ref(value.ref); return true;
    case K::kString: out->set_string_value(Utf16ToUtf8KeepingSurrogates(value.str)); return true;
    default: return false;
  }
}

}  // namespace

// `new T[n]...` or `new T[]{...}`: a fresh array (of fresh arrays), held in
// created_ so the rest of the clause reads it as a recorded one.
EvalValue ObservationEvaluator::EvalNewArray(const Expr& e, EvalState at) {
  if (!e.type.IsArray()) return EvalValue::Unknown("array creation of a non-array type");
  if (e.flag) return CreateInitializedArray(e.type, e.operands, at);
  // Every dimension is evaluated before any is checked (JLS §15.10.2).
  std::vector<int32_t> lengths;
  bool negative = false;
  for (const ExprPtr& op : e.operands) {
    EvalValue n = Eval(*op, at);
    if (n.kind == K::kRef) n = Unbox(n, at);
    if (!n.known()) return n;
    if (n.kind != K::kInt) return EvalValue::Unknown("array length is not an int");
    negative = negative || n.i < 0;
    lengths.push_back(static_cast<int32_t>(n.i));
  }
  if (negative) return Undefined("negative array size (NegativeArraySizeException)");
  return CreateArray(e.type, lengths, 0);
}

// Counts `elements` more created elements; false past the bound.
bool ObservationEvaluator::CountCreated(int64_t elements) {
  created_elements_ += elements;
  return created_elements_ <= kMaxCreatedElements;
}

EvalValue ObservationEvaluator::CreateArray(const Type& type, const std::vector<int32_t>& lengths,
                                            size_t dim) {
  int32_t length = lengths[dim];
  if (!CountCreated(length)) {
    return EvalValue::Unknown(absl::StrCat("array creation of more than ", kMaxCreatedElements,
                                           " elements (all the arrays one evaluation creates) is not evaluated"));
  }
  Type element = type.ElementType();
  v1::ObjectState s = EmptyArray(type, length);
  v1::ArrayContents* a = s.mutable_array();
  for (int32_t k = 0; k < length; ++k) {
    if (!Step()) return EvalValue::Unknown("evaluation budget exhausted");
    if (dim + 1 < lengths.size()) {
      EvalValue inner = CreateArray(element, lengths, dim + 1);
      if (!inner.known()) return inner;
      a->add_elements()->set_ref(inner.ref);
    } else {
      *a->add_elements() = DefaultElement(element);
    }
  }
  return Created(std::move(s));
}

EvalValue ObservationEvaluator::CreateInitializedArray(const Type& type,
                                                       const std::vector<ExprPtr>& elements,
                                                       EvalState at) {
  if (!CountCreated(static_cast<int64_t>(elements.size()))) {
    return EvalValue::Unknown(absl::StrCat("array creation of more than ", kMaxCreatedElements,
                                           " elements (all the arrays one evaluation creates) is not evaluated"));
  }
  Type element = type.ElementType();
  v1::ObjectState s = EmptyArray(type, static_cast<int32_t>(elements.size()));
  v1::ArrayContents* a = s.mutable_array();
  for (const ExprPtr& op : elements) {
    EvalValue v = op->kind == ExprKind::kArrayInit && element.IsArray()
                      ? CreateInitializedArray(element, op->operands, at)
                      : Eval(*op, at);
    if (!v.known()) return v;
    if (!ElementToProto(v, element, a->add_elements())) {
      return EvalValue::Unknown(absl::StrCat("a ", v.DebugString(), " as an element of ",
                                             type.ToString(), " is not evaluated"));
    }
  }
  return Created(std::move(s));
}

// Holds a created array under a new id.
EvalValue ObservationEvaluator::Created(v1::ObjectState array) {
  uint64_t id = next_created_++;
  array.set_id(id);
  created_.emplace(id, std::move(array));
  return EvalValue::Ref(id);
}

// java.util.Arrays.equals(a, b) on two arrays of one element type: both
// null, or the same length and equal elements (floating point by bits, as
// Double.doubleToLongBits compares; objects by Objects.equals, decided here
// for null, the same object and strings). A recorded difference decides
// false even where other elements are not recorded.
EvalValue ObservationEvaluator::ArraysEquals(const EvalValue& a, const EvalValue& b,
                                             EvalState at) {
  if (a.kind == K::kNull || b.kind == K::kNull) return EvalValue::Bool(a.kind == b.kind);
  if (a.kind != K::kRef || b.kind != K::kRef) {
    return EvalValue::Unknown("java.util.Arrays.equals of a non-array");
  }
  if (a.ref == b.ref) return EvalValue::Bool(true);
  const v1::ObjectState* x = Object(a.ref, at);
  const v1::ObjectState* y = Object(b.ref, at);
  const char* state = at == EvalState::kPre ? "pre" : "post";
  for (const auto& [s, id] : {std::pair{x, a.ref}, std::pair{y, b.ref}}) {
    if (s == nullptr || !s->has_array()) {
      return EvalValue::Unknown(
          absl::StrCat("array #", id, " is not recorded in the ", state, "-state"));
    }
  }
  if (x->array().length() != y->array().length()) return EvalValue::Bool(false);
  std::string why;
  for (int k = 0; k < x->array().length(); ++k) {
    if (!Step()) return EvalValue::Unknown("evaluation budget exhausted");
    if (k >= x->array().elements_size() || k >= y->array().elements_size()) {
      if (why.empty()) why = absl::StrCat("element ", k, " was not recorded");
      continue;
    }
    EvalValue p = FromProto(x->array().elements(k));
    EvalValue q = FromProto(y->array().elements(k));
    Truth same = Truth::kUnknown;
    if (!p.known() || !q.known()) {
      if (why.empty()) why = absl::StrCat("element ", k, ": ", !p.known() ? p.reason : q.reason);
      continue;
    }
    if (p.kind == K::kNull || q.kind == K::kNull) {
      same = TruthOf(p.kind == q.kind);
    } else if (p.kind == K::kString && q.kind == K::kString) {
      same = TruthOf(p.str == q.str);
    } else if (p.kind == K::kRef && q.kind == K::kRef && p.ref == q.ref) {
      same = Truth::kTrue;
    } else if (p.kind != K::kRef && p.kind != K::kString && q.kind != K::kRef &&
               q.kind != K::kString) {
      same = TruthOf(p.Identical(q));
    }
    if (same == Truth::kFalse) return EvalValue::Bool(false);
    if (same == Truth::kUnknown && why.empty()) {
      why = absl::StrCat("equals of elements ", k, " (", p.DebugString(), ", ", q.DebugString(),
                         ") is not evaluated");
    }
  }
  if (!why.empty()) return EvalValue::Unknown(absl::StrCat("java.util.Arrays.equals: ", why));
  return EvalValue::Bool(true);
}

EvalValue ObservationEvaluator::EvalCall(const Expr& e, EvalState at) {
  const std::string& owner = e.sym.owner;
  const std::string key = absl::StrCat(e.name, e.sym.descriptor);
  std::vector<EvalValue> args;
  for (const Expr* a : Arguments(e)) {
    EvalValue v = Eval(*a, at);
    if (!v.known()) return v;
    args.push_back(std::move(v));
  }
  EvalValue self;
  bool has_self = !e.sym.is_static;
  if (has_self) {
    const Expr* recv = Receiver(e);
    if (recv == nullptr) {
      if (!obs_.has_receiver()) return EvalValue::Unknown("no receiver");
      self = FromProto(obs_.receiver());
    } else {
      self = Eval(*recv, at);
    }
    if (!self.known()) return self;
    if (self.kind == K::kNull) return Undefined(absl::StrCat("call of ", e.name, " on null"));
  }
  auto unsupported = [&]() {
    return EvalValue::Unknown(
        absl::StrCat("call of ", owner, ".", e.name, e.sym.descriptor, " is not evaluated"));
  };
  auto I = [&](size_t k) { return static_cast<int32_t>(args[k].i); };

  // Boxes and numbers: xxxValue() on a boxed receiver.
  if (has_self && self.kind == K::kRef &&
      (key == "intValue()I" || key == "longValue()J" || key == "doubleValue()D" ||
       key == "floatValue()F" || key == "shortValue()S" || key == "byteValue()B" ||
       key == "charValue()C" || key == "booleanValue()Z")) {
    EvalValue v = Unbox(self, at);
    return ConvertTo(v, e.type);
  }
  if (owner == "java.lang.Math") {
    const EvalValue& a = args[0];
    if (e.name == "abs") {
      switch (a.kind) {
        case K::kInt:
          return EvalValue::Int(a.i < 0 ? Wrap32(0 - static_cast<uint64_t>(a.i)) : I(0));
        case K::kLong:
          return EvalValue::Long(a.i < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(a.i))
                                         : a.i);
        case K::kFloat:
          return EvalValue::Float(std::fabs(a.f));
        case K::kDouble:
          return EvalValue::Double(std::fabs(a.d));
        default:
          return unsupported();
      }
    }
    if ((e.name == "max" || e.name == "min") && args.size() == 2) {
      Type t = e.type;
      EvalValue x = ConvertTo(args[0], t), y = ConvertTo(args[1], t);
      bool mx = e.name == "max";
      if (x.kind == K::kInt)
        return EvalValue::Int(static_cast<int32_t>(mx ? std::max(x.i, y.i) : std::min(x.i, y.i)));
      if (x.kind == K::kLong) return EvalValue::Long(mx ? std::max(x.i, y.i) : std::min(x.i, y.i));
      if (x.kind == K::kFloat) return EvalValue::Float(mx ? JavaMax(x.f, y.f) : JavaMin(x.f, y.f));
      if (x.kind == K::kDouble)
        return EvalValue::Double(mx ? JavaMax(x.d, y.d) : JavaMin(x.d, y.d));
      return unsupported();
    }
    if ((e.name == "floorDiv" || e.name == "floorMod") && args.size() == 2) {
      // In the arguments' promoted type (floorMod(long, int) computes in
      // long and returns an int), through IntegerArith, which knows
      // MIN / -1 (a raw `%` on MIN and -1 traps): the quotient is rounded
      // down when the truncated remainder's sign differs from the divisor's.
      Type t = PromotedType(args[0], args[1]);
      EvalValue x = ConvertTo(args[0], t), y = ConvertTo(args[1], t);
      if (y.i == 0) return Undefined("division by zero");
      EvalValue q = IntegerArith(BinaryOp::kDiv, x, y, t);
      EvalValue r = IntegerArith(BinaryOp::kRem, x, y, t);
      bool round = r.i != 0 && ((r.i < 0) != (y.i < 0));
      if (e.name == "floorDiv") {
        if (round) q = IntegerArith(BinaryOp::kSub, q, ConvertTo(EvalValue::Int(1), t), t);
        return ConvertTo(q, e.type);
      }
      if (round) r = IntegerArith(BinaryOp::kAdd, r, y, t);
      return ConvertTo(r, e.type);
    }
    if (e.name == "signum") {
      if (a.kind == K::kDouble) {
        if (std::isnan(a.d) || a.d == 0) return a;
        return EvalValue::Double(a.d > 0 ? 1.0 : -1.0);
      }
      if (a.kind == K::kFloat) {
        if (std::isnan(a.f) || a.f == 0) return a;
        return EvalValue::Float(a.f > 0 ? 1.0f : -1.0f);
      }
    }
    if (e.name == "sqrt" && a.kind == K::kDouble) return EvalValue::Double(std::sqrt(a.d));
    if (absl::EndsWith(e.name, "Exact")) {
      // The exact result, or ArithmeticException when it does not fit the
      // result type: the clause is then undefined, as in the lowering.
      bool to_long = ConvertTo(EvalValue::Int(0), e.type).kind == K::kLong;
      __int128 x = e.name == "toIntExact" ? a.i : ConvertTo(a, e.type).i;
      __int128 y = args.size() > 1 ? ConvertTo(args[1], e.type).i : 0;
      __int128 v;
      if (e.name == "addExact") {
        v = x + y;
      } else if (e.name == "subtractExact") {
        v = x - y;
      } else if (e.name == "multiplyExact") {
        v = x * y;
      } else if (e.name == "negateExact") {
        v = -x;
      } else if (e.name == "incrementExact") {
        v = x + 1;
      } else if (e.name == "decrementExact") {
        v = x - 1;
      } else if (e.name == "absExact") {
        v = x < 0 ? -x : x;
      } else if (e.name == "toIntExact") {
        v = x;
      } else {
        return unsupported();
      }
      __int128 lo = to_long ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int32_t>::min();
      __int128 hi = to_long ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int32_t>::max();
      if (v < lo || v > hi) {
        return Undefined(absl::StrCat("Math.", e.name, " overflows (ArithmeticException)"));
      }
      return to_long ? EvalValue::Long(static_cast<int64_t>(v))
                     : EvalValue::Int(static_cast<int32_t>(v));
    }
    return unsupported();
  }
  if (owner == "java.lang.Integer" || owner == "java.lang.Long" || owner == "java.lang.Short" ||
      owner == "java.lang.Byte" || owner == "java.lang.Character" ||
      owner == "java.lang.Boolean") {
    if (e.name == "compare" && args.size() == 2) {
      if (args[0].kind == K::kBoolean) return EvalValue::Int(static_cast<int32_t>(args[0].i - args[1].i));
      return EvalValue::Int(args[0].i < args[1].i ? -1 : (args[0].i == args[1].i ? 0 : 1));
    }
    if (e.name == "signum" && args.size() == 1) return EvalValue::Int(Signum(args[0].i));
    if (e.name == "bitCount" && args.size() == 1) {
      uint64_t bits = args[0].kind == K::kInt ? static_cast<uint32_t>(args[0].i)
                                              : static_cast<uint64_t>(args[0].i);
      return EvalValue::Int(__builtin_popcountll(bits));
    }
    if ((e.name == "max" || e.name == "min" || e.name == "sum") && args.size() == 2) {
      if (e.name == "sum") return Arith(BinaryOp::kAdd, args[0], args[1], e.type);
      bool mx = e.name == "max";
      int64_t r = mx ? std::max(args[0].i, args[1].i) : std::min(args[0].i, args[1].i);
      return e.type.Is(Type::Kind::kLong) ? EvalValue::Long(r)
                                          : EvalValue::Int(static_cast<int32_t>(r));
    }
    if (e.name == "valueOf" && args.size() == 1) return args[0];
    if (e.name == "hashCode" && args.size() == 1 && args[0].kind == K::kInt)
      return EvalValue::Int(I(0));
    if (owner == "java.lang.Character" && args.size() == 1 && args[0].kind == K::kInt) {
      if (!AsciiChar(args[0])) return unsupported();
      char c = static_cast<char>(args[0].i);
      if (e.name == "isDigit") return EvalValue::Bool(c >= '0' && c <= '9');
      if (e.name == "isLetter") return EvalValue::Bool(std::isalpha(static_cast<unsigned char>(c)));
      if (e.name == "isLetterOrDigit")
        return EvalValue::Bool(std::isalnum(static_cast<unsigned char>(c)));
      if (e.name == "isWhitespace")
        return EvalValue::Bool(c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31));
      if (e.name == "isUpperCase") return EvalValue::Bool(c >= 'A' && c <= 'Z');
      if (e.name == "isLowerCase") return EvalValue::Bool(c >= 'a' && c <= 'z');
      if (e.name == "toUpperCase")
        return EvalValue::Int(c >= 'a' && c <= 'z' ? c - 32 : c, Type::Kind::kChar);
      if (e.name == "toLowerCase")
        return EvalValue::Int(c >= 'A' && c <= 'Z' ? c + 32 : c, Type::Kind::kChar);
    }
    if (has_self && e.name == "equals" && args.size() == 1) {
      EvalValue a = Unbox(self, at);
      EvalValue b = args[0].kind == K::kRef ? Unbox(args[0], at) : args[0];
      if (args[0].kind == K::kNull) return EvalValue::Bool(false);
      if (!a.known() || !b.known()) return !a.known() ? a : b;
      return EvalValue::Bool(a.kind == b.kind && a.int_type == b.int_type && a.i == b.i);
    }
    if (has_self && e.name == "compareTo" && args.size() == 1) {
      EvalValue a = Unbox(self, at);
      EvalValue b = args[0].kind == K::kRef ? Unbox(args[0], at) : args[0];
      if (!a.known() || !b.known()) return !a.known() ? a : b;
      return EvalValue::Int(a.i < b.i ? -1 : (a.i == b.i ? 0 : 1));
    }
    if (has_self && e.name == "hashCode" && args.empty()) {
      EvalValue a = Unbox(self, at);
      if (a.kind == K::kInt) return EvalValue::Int(static_cast<int32_t>(a.i));
      if (a.kind == K::kLong)
        return EvalValue::Int(static_cast<int32_t>(a.i ^ static_cast<int64_t>(
                                                             static_cast<uint64_t>(a.i) >> 32)));
    }
    return unsupported();
  }
  if (owner == "java.lang.Double" || owner == "java.lang.Float") {
    EvalValue x = has_self ? Unbox(self, at) : (args.empty() ? EvalValue() : args[0]);
    if (!x.known()) return x;
    double v = ToDouble(x);
    if (e.name == "isNaN") return EvalValue::Bool(std::isnan(v));
    if (e.name == "isInfinite") return EvalValue::Bool(std::isinf(v));
    if (e.name == "isFinite") return EvalValue::Bool(std::isfinite(v));
    if (e.name == "compare" && args.size() == 2) {
      if (owner == "java.lang.Float") return EvalValue::Int(JavaCompare(args[0].f, args[1].f));
      return EvalValue::Int(JavaCompare(args[0].d, args[1].d));
    }
    return unsupported();
  }
  if (has_self && self.kind == K::kString) {
    const std::u16string& s = self.str;
    auto str_arg = [&](size_t k, std::u16string* out) {
      if (k >= args.size() || args[k].kind != K::kString) return false;
      *out = args[k].str;
      return true;
    };
    std::u16string t;
    if (key == "length()I") return EvalValue::Int(static_cast<int32_t>(s.size()));
    if (key == "isEmpty()Z") return EvalValue::Bool(s.empty());
    if (key == "charAt(I)C") {
      if (args[0].i < 0 || args[0].i >= static_cast<int64_t>(s.size()))
        return Undefined("charAt index out of bounds");
      return EvalValue::Int(s[static_cast<size_t>(args[0].i)], Type::Kind::kChar);
    }
    if (key == "equals(Ljava/lang/Object;)Z") {
      if (args[0].kind == K::kString) return EvalValue::Bool(s == args[0].str);
      if (args[0].kind == K::kNull || args[0].kind == K::kRef) return EvalValue::Bool(false);
      return unsupported();
    }
    if (key == "hashCode()I") return EvalValue::Int(JavaStringHash(s));
    if (key == "toString()Ljava/lang/String;") return self;
    if ((key == "compareTo(Ljava/lang/String;)I" || key == "compareTo(Ljava/lang/Object;)I") &&
        str_arg(0, &t)) {
      return EvalValue::Int(CompareUtf16(s, t));
    }
    if (key == "indexOf(I)I" || key == "indexOf(II)I") {
      int64_t from = args.size() > 1 ? std::max<int64_t>(0, args[1].i) : 0;
      if (args[0].i < 0 || args[0].i > 0xFFFF) return unsupported();
      for (size_t k = static_cast<size_t>(from); k < s.size(); ++k) {
        if (s[k] == args[0].i) return EvalValue::Int(static_cast<int32_t>(k));
      }
      return EvalValue::Int(-1);
    }
    if (key == "lastIndexOf(I)I") {
      if (args[0].i < 0 || args[0].i > 0xFFFF) return unsupported();
      for (size_t k = s.size(); k > 0; --k) {
        if (s[k - 1] == args[0].i) return EvalValue::Int(static_cast<int32_t>(k - 1));
      }
      return EvalValue::Int(-1);
    }
    if (key == "indexOf(Ljava/lang/String;)I" && str_arg(0, &t)) {
      size_t p = s.find(t);
      return EvalValue::Int(p == std::u16string::npos ? -1 : static_cast<int32_t>(p));
    }
    if (key == "lastIndexOf(Ljava/lang/String;)I" && str_arg(0, &t)) {
      size_t p = s.rfind(t);
      return EvalValue::Int(p == std::u16string::npos ? -1 : static_cast<int32_t>(p));
    }
    if (key == "contains(Ljava/lang/CharSequence;)Z" && str_arg(0, &t))
      return EvalValue::Bool(s.find(t) != std::u16string::npos);
    if (key == "startsWith(Ljava/lang/String;)Z" && str_arg(0, &t))
      return EvalValue::Bool(s.compare(0, t.size(), t) == 0 && s.size() >= t.size());
    if (key == "endsWith(Ljava/lang/String;)Z" && str_arg(0, &t))
      return EvalValue::Bool(s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0);
    if (key == "substring(I)Ljava/lang/String;" || key == "substring(II)Ljava/lang/String;") {
      int64_t b = args[0].i;
      int64_t end = args.size() > 1 ? args[1].i : static_cast<int64_t>(s.size());
      if (b < 0 || end > static_cast<int64_t>(s.size()) || b > end)
        return Undefined("substring bounds");
      return EvalValue::String(s.substr(static_cast<size_t>(b), static_cast<size_t>(end - b)));
    }
    if (key == "equalsIgnoreCase(Ljava/lang/String;)Z") {
      if (args[0].kind == K::kNull) return EvalValue::Bool(false);
      if (!str_arg(0, &t)) return unsupported();
      if (s.size() != t.size()) return EvalValue::Bool(false);
      for (size_t k = 0; k < s.size(); ++k) {
        if (s[k] >= 128 || t[k] >= 128) return unsupported();
        if (std::tolower(s[k]) != std::tolower(t[k])) return EvalValue::Bool(false);
      }
      return EvalValue::Bool(true);
    }
    if (key == "isBlank()Z") {
      for (char16_t c : s) {
        if (c >= 128) return unsupported();
        if (!(c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31))) return EvalValue::Bool(false);
      }
      return EvalValue::Bool(true);
    }
    return unsupported();
  }
  if (owner == "java.lang.String" && e.sym.is_static && e.name == "valueOf" && args.size() == 1) {
    std::u16string out;
    if (args[0].kind == K::kRef) return unsupported();
    if (JavaStringOf(args[0], &out)) return EvalValue::String(out);
    return unsupported();
  }
  if (has_self && self.kind == K::kRef && e.name == "equals" && args.size() == 1 &&
      args[0].kind == K::kNull) {
    return EvalValue::Bool(false);  // Object.equals contract: x.equals(null) is false
  }
  if (owner == "java.util.Arrays" && e.name == "equals" && args.size() == 2) {
    return ArraysEquals(args[0], args[1], at);
  }
  // An array's equals is Object's: identity.
  if (has_self && self.kind == K::kRef && key == "equals(Ljava/lang/Object;)Z") {
    const Expr* recv = Receiver(e);
    if (recv != nullptr && recv->type.IsArray()) {
      return EvalValue::Bool(args[0].kind == K::kRef && args[0].ref == self.ref);
    }
  }
  return unsupported();
}

EvalValue ObservationEvaluator::EvalJmlCall(const Expr& e, EvalState at) {
  const std::string& n = e.name;
  if (n == "fresh") {
    Truth all = Truth::kTrue;
    std::string why;
    for (const auto& op : e.operands) {
      EvalValue v = Eval(*op, EvalState::kPost);
      Truth t;
      if (v.kind == K::kNull) {
        t = Truth::kFalse;
      } else if (v.kind == K::kRef) {
        // pre_, not Object(): an array the specification created is not
        // one the method allocated.
        t = pre_.count(v.ref) != 0 ? Truth::kFalse : Truth::kUnknown;
        if (t == Truth::kUnknown) {
          why = created_.count(v.ref) != 0
                    ? "\\fresh of an array the specification creates is not evaluated"
                    : "an object missing from the pre-state may be fresh or unrecorded";
        }
      } else {
        t = Truth::kUnknown;
        why = v.known() ? "\\fresh of a non-object" : v.reason;
      }
      all = TruthAnd(all, t);
    }
    if (all == Truth::kUnknown) return EvalValue::Unknown(why);
    return EvalValue::Bool(all == Truth::kTrue);
  }
  if (n == "nonnullelements") {
    EvalValue a = Eval(*e.operands[0], at);
    if (a.kind == K::kNull) return EvalValue::Bool(false);
    if (a.kind != K::kRef) return a.known() ? EvalValue::Unknown("not an array") : a;
    const v1::ObjectState* s = Object(a.ref, at);
    if (s == nullptr || !s->has_array()) return EvalValue::Unknown("array not recorded");
    bool unknown = s->array().elements_size() < s->array().length();
    for (const v1::Value& el : s->array().elements()) {
      EvalValue v = FromProto(el);
      if (v.kind == K::kNull) return EvalValue::Bool(false);
      if (!v.known()) unknown = true;
    }
    if (unknown) return EvalValue::Unknown("array elements not all recorded");
    return EvalValue::Bool(true);
  }
  if (n == "typeof") {
    EvalValue v = Eval(*e.operands[0], at);
    EvalValue out;
    out.kind = K::kType;
    if (v.kind == K::kRef) {
      const v1::ObjectState* s = Object(v.ref, at);
      if (s == nullptr)
        s = Object(v.ref, at == EvalState::kPre ? EvalState::kPost : EvalState::kPre);
      if (s == nullptr) return EvalValue::Unknown("class of the object not recorded");
      if (!s->class_name().empty() && s->class_name()[0] == '[') {
        absl::StatusOr<Type> t = Type::FromDescriptor(s->class_name());
        if (!t.ok()) return EvalValue::Unknown("array class");
        out.type = *t;
      } else {
        out.type = Type::Class(s->class_name());
      }
      return out;
    }
    if (v.kind == K::kThrown) {
      out.type = Type::Class(v.class_name);
      return out;
    }
    if (v.kind == K::kNull) return Undefined("\\typeof(null)");
    if (!v.known()) return v;
    out.type = TypeOfValue(v);
    return out;
  }
  if (n == "type") {
    EvalValue out;
    out.kind = K::kType;
    out.type = e.type_ref.resolved;
    return out;
  }
  if (n == "elemtype") {
    EvalValue v = Eval(*e.operands[0], at);
    if (v.kind != K::kType) return v.known() ? EvalValue::Unknown("not a type") : v;
    if (!v.type.IsArray()) return Undefined("\\elemtype of a non-array type");
    v.type = v.type.ElementType();
    return v;
  }
  if (n == "not_modified") {
    Truth all = Truth::kTrue;
    std::string why;
    for (const StoreRef& r : e.store_refs) {
      if (r.kind != StoreRef::Kind::kLocation) {
        all = TruthAnd(all, Truth::kUnknown);
        why = "\\not_modified of a location set is not evaluated";
        continue;
      }
      EvalValue before = Eval(*r.expr, EvalState::kPre);
      EvalValue after = Eval(*r.expr, EvalState::kPost);
      if (!before.known() || !after.known()) {
        all = TruthAnd(all, Truth::kUnknown);
        why = !before.known() ? before.reason : after.reason;
        continue;
      }
      all = TruthAnd(all, TruthOf(before.Identical(after)));
    }
    if (all == Truth::kUnknown) return EvalValue::Unknown(why);
    return EvalValue::Bool(all == Truth::kTrue);
  }
  return EvalValue::Unknown(absl::StrCat("\\", n, " is not evaluated"));
}

EvalValue ObservationEvaluator::EvalImpl(const Expr& e, EvalState at) {
  switch (e.kind) {
    case ExprKind::kLiteral: {
      const Literal& l = e.literal;
      switch (l.kind) {
        case LiteralKind::kNull:
          return EvalValue::Null();
        case LiteralKind::kBoolean:
          return EvalValue::Bool(l.bits != 0);
        case LiteralKind::kInt:
          return EvalValue::Int(static_cast<int32_t>(l.bits));
        case LiteralKind::kLong:
          return EvalValue::Long(static_cast<int64_t>(l.bits));
        case LiteralKind::kFloat:
          return EvalValue::Float(l.float_value);
        case LiteralKind::kDouble:
          return EvalValue::Double(l.double_value);
        case LiteralKind::kChar:
          return EvalValue::Int(static_cast<int32_t>(l.bits), Type::Kind::kChar);
        case LiteralKind::kString:
          return EvalValue::String(l.string_value);
      }
      return EvalValue::Unknown("literal");
    }
    case ExprKind::kName:
      return EvalName(e, at);
    case ExprKind::kThis:
      if (!obs_.has_receiver() || obs_.receiver().kind_case() != v1::Value::kRef)
        return EvalValue::Unknown("the receiver is not recorded");
      return EvalValue::Ref(obs_.receiver().ref());
    case ExprKind::kFieldAccess:
      return EvalFieldAccess(e, at);
    case ExprKind::kArrayAccess:
      return EvalArrayAccess(e, at);
    case ExprKind::kMethodCall:
      return EvalCall(e, at);
    case ExprKind::kUnary:
      return EvalUnary(e, at);
    case ExprKind::kBinary:
      return EvalBinary(e, at);
    case ExprKind::kConditional: {
      EvalValue c = Eval(*e.operands[0], at);
      Truth t = c.truth();
      if (t == Truth::kTrue) return ConvertTo(Eval(*e.operands[1], at), e.type);
      if (t == Truth::kFalse) return ConvertTo(Eval(*e.operands[2], at), e.type);
      EvalValue a = ConvertTo(Eval(*e.operands[1], at), e.type);
      EvalValue b = ConvertTo(Eval(*e.operands[2], at), e.type);
      if (a.known() && a.Identical(b)) return a;
      return c.known() ? EvalValue::Unknown("condition is not a boolean") : c;
    }
    case ExprKind::kCast: {
      EvalValue v = Eval(*e.operands[0], at);
      const Type& t = e.type_ref.resolved;
      if (IsPrimitiveOrBig(t)) {
        if (v.kind == K::kRef) v = Unbox(v, at);
        return ConvertTo(v, t);
      }
      return v;
    }
    case ExprKind::kInstanceOf:
      return EvalInstanceOf(Eval(*e.operands[0], at), e.type_ref.resolved, at);
    case ExprKind::kQuantifier:
      return EvalQuantifier(e, at);
    case ExprKind::kLet: {
      // The initializer's value, converted to the variable's type, is bound
      // while the body is evaluated.
      EvalValue v = Eval(*e.operands[0], at);
      const Type& t = e.type_ref.resolved;
      if (v.known() && IsPrimitiveOrBig(t)) {
        if (v.kind == K::kRef) v = Unbox(v, at);
        if (v.known()) v = ConvertTo(v, t);
      }
      Binding b;
      b.binder = &e;
      b.index = 0;
      b.value = std::move(v);
      size_t mark = bindings_.size();
      bindings_.push_back(std::move(b));
      EvalValue r = Eval(*e.operands[1], at);
      bindings_.resize(mark);
      return r;
    }
    case ExprKind::kOld:
      return Eval(*e.operands[0], e.name == "Here" ? at : EvalState::kPre);
    case ExprKind::kResult:
      if (obs_.outcome().has_returned()) {
        EvalValue v = FromProto(obs_.outcome().returned());
        if (!v.known()) v.reason = absl::StrCat("\\result: ", v.reason);
        return v;
      }
      return EvalValue::Unknown("the call did not return a value");
    case ExprKind::kJmlCall:
      return EvalJmlCall(e, at);
    case ExprKind::kNewArray:
      return EvalNewArray(e, at);
    case ExprKind::kLabeled:
      return Eval(*e.operands[0], at);
    default:
      return EvalValue::Unknown(absl::StrCat("'", PrintExpr(e), "' is not evaluated"));
  }
}

// ---- Frames ----

std::vector<ChangedLocation> ObservationEvaluator::ChangedLocations() const {
  std::vector<ChangedLocation> out;
  for (const auto& [id, before] : pre_) {
    auto it = post_.find(id);
    if (it == post_.end()) continue;
    const v1::ObjectState* after = it->second;
    if (before->truncated() || after->truncated()) continue;
    if (before->has_array() || after->has_array()) {
      const v1::ArrayContents& a = before->array();
      const v1::ArrayContents& b = after->array();
      int common = std::min(a.elements_size(), b.elements_size());
      for (int k = 0; k < common; ++k) {
        EvalValue x = FromProto(a.elements(k)), y = FromProto(b.elements(k));
        if (x.known() && y.known()) {
          if (!x.Identical(y)) out.push_back(ChangedLocation{id, "", k, true});
        } else {
          out.push_back(ChangedLocation{id, "", k, false});
        }
      }
      int length = std::max(a.length(), b.length());
      if (common < length) out.push_back(ChangedLocation{id, "", common, false});
      continue;
    }
    for (const v1::Field& f : before->fields()) {
      const v1::Field* g = nullptr;
      for (const v1::Field& h : after->fields()) {
        if (h.name() == f.name() && h.declaring_class() == f.declaring_class()) {
          g = &h;
          break;
        }
      }
      if (g == nullptr) continue;
      EvalValue x = FromProto(f.value()), y = FromProto(g->value());
      if (x.known() && y.known()) {
        if (!x.Identical(y)) out.push_back(ChangedLocation{id, f.name(), -1, true});
      } else {
        out.push_back(ChangedLocation{id, f.name(), -1, false});
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const ChangedLocation& a, const ChangedLocation& b) {
    return std::tie(a.object, a.field, a.index) < std::tie(b.object, b.field, b.index);
  });
  return out;
}

Truth ObservationEvaluator::FrameHolds(const std::vector<const Clause*>& assignable,
                                       std::string* why) {
  struct Cover {
    bool all_objects = false;  // field name on an object we could not evaluate
    uint64_t object = 0;
    std::string field;        // "" with all_fields/elements
    bool all_fields = false;  // o.*
    bool elements = false;    // a[*] / a[lo..hi] / a[i]
    int64_t lo = 0, hi = -1;  // element range (inclusive)
    bool unknown_range = false;
  };
  std::vector<Cover> covers;
  steps_ = 0;
  bindings_.clear();
  created_.clear();
  created_elements_ = 0;
  for (const Clause* c : assignable) {
    for (const StoreRef& r : c->store_refs) {
      switch (r.kind) {
        case StoreRef::Kind::kNothing:
          break;
        case StoreRef::Kind::kEverything:
        case StoreRef::Kind::kNotSpecified:
          return Truth::kTrue;
        case StoreRef::Kind::kInformal:
          if (why) *why = "informal location";
          return Truth::kUnknown;
        case StoreRef::Kind::kLocation: {
          const Expr& e = *r.expr;
          Cover cv;
          if (e.kind == ExprKind::kArrayAccess) {
            EvalValue a = Eval(*e.operands[0], EvalState::kPre);
            EvalValue i = Eval(*e.operands[1], EvalState::kPre);
            cv.elements = true;
            __int128 idx;
            if (a.kind != K::kRef) {
              cv.all_objects = true;
            } else {
              cv.object = a.ref;
            }
            if (i.AsInteger(&idx)) {
              cv.lo = cv.hi = static_cast<int64_t>(idx);
            } else {
              cv.unknown_range = true;
            }
            covers.push_back(cv);
            break;
          }
          if (e.sym.kind != SymbolKind::kField || e.sym.is_static) break;
          cv.field = e.name;
          if (e.kind == ExprKind::kName) {
            if (obs_.has_receiver() && obs_.receiver().kind_case() == v1::Value::kRef) {
              cv.object = obs_.receiver().ref();
            } else {
              cv.all_objects = true;
            }
          } else {
            EvalValue o = Eval(*e.operands[0], EvalState::kPre);
            if (o.kind == K::kRef) {
              cv.object = o.ref;
            } else {
              cv.all_objects = true;
            }
          }
          covers.push_back(cv);
          break;
        }
        case StoreRef::Kind::kAllFields: {
          Cover cv;
          cv.all_fields = true;
          const Expr& e = *r.expr;
          if (e.sym.kind == SymbolKind::kType) break;  // C.*: static fields
          EvalValue o = Eval(e, EvalState::kPre);
          if (o.kind == K::kRef) {
            cv.object = o.ref;
          } else {
            cv.all_objects = true;
          }
          covers.push_back(cv);
          break;
        }
        case StoreRef::Kind::kAllElements:
        case StoreRef::Kind::kArrayRange: {
          Cover cv;
          cv.elements = true;
          EvalValue a = Eval(*r.expr, EvalState::kPre);
          if (a.kind == K::kRef) {
            cv.object = a.ref;
          } else {
            cv.all_objects = true;
          }
          cv.lo = 0;
          cv.hi = std::numeric_limits<int64_t>::max();
          if (r.kind == StoreRef::Kind::kArrayRange) {
            __int128 lo, hi;
            EvalValue l = r.lo ? Eval(*r.lo, EvalState::kPre) : EvalValue::Int(0);
            EvalValue h = r.hi ? Eval(*r.hi, EvalState::kPre)
                               : EvalValue::Long(std::numeric_limits<int64_t>::max());
            if (l.AsInteger(&lo) && h.AsInteger(&hi)) {
              cv.lo = static_cast<int64_t>(lo);
              cv.hi = static_cast<int64_t>(hi);
            } else {
              cv.unknown_range = true;
            }
          }
          covers.push_back(cv);
          break;
        }
      }
    }
  }
  Truth result = Truth::kTrue;
  for (const ChangedLocation& ch : ChangedLocations()) {
    Truth covered = Truth::kFalse;
    for (const Cover& cv : covers) {
      Truth t = Truth::kFalse;
      bool is_element = ch.field.empty();
      if (is_element != cv.elements && !(cv.all_fields && !is_element)) continue;
      if (!cv.all_objects && cv.object != ch.object) continue;
      if (cv.all_fields) {
        t = Truth::kTrue;
      } else if (!is_element) {
        t = cv.field == ch.field ? Truth::kTrue : Truth::kFalse;
      } else if (cv.unknown_range) {
        t = Truth::kUnknown;
      } else if (ch.certain) {
        t = TruthOf(ch.index >= cv.lo && ch.index <= cv.hi);
      } else {
        // Unrecorded elements from ch.index on: covered for sure only by a
        // range reaching the end.
        t = ch.index >= cv.lo && cv.hi == std::numeric_limits<int64_t>::max() ? Truth::kTrue
                                                                             : Truth::kUnknown;
      }
      if (cv.all_objects && t == Truth::kTrue) t = Truth::kUnknown;
      covered = TruthOr(covered, t);
    }
    if (covered == Truth::kTrue) continue;
    std::string where = ch.field.empty() ? absl::StrCat("element ", ch.index, " of array #", ch.object)
                                         : absl::StrCat("field '", ch.field, "' of #", ch.object);
    if (covered == Truth::kFalse && ch.certain) {
      if (why) *why = absl::StrCat(where, " changed but is not assignable");
      return Truth::kFalse;
    }
    if (result == Truth::kTrue && why) {
      *why = absl::StrCat(where, ch.certain ? " changed; coverage by the assignable clause unknown"
                                            : " may have changed (not recorded)");
    }
    result = Truth::kUnknown;
  }
  return result;
}

// ---- Spec cases ----

CaseEval ObservationEvaluator::EvaluateCase(const FlatCase& c) {
  CaseEval r;
  r.label = c.label;
  steps_ = 0;
  bindings_.clear();
  created_.clear();
  created_elements_ = 0;
  depth_ = 0;
  // Spec-case variables.
  for (const SpecVarDecl* v : c.vars) {
    Binding b;
    b.name = v->name;
    b.value = v->is_old && v->init ? ConvertTo(Eval(*v->init, EvalState::kPre), v->type.resolved)
                                   : EvalValue::Unknown("forall variable");
    bindings_.push_back(std::move(b));
  }
  size_t case_mark = bindings_.size();
  auto note = [&](std::string* why, const std::string& text) {
    if (why->empty()) *why = text;
  };
  // Pre.
  Truth pre = Truth::kTrue;
  if (options_.implicit_nullity) {
    for (size_t k = 0; k < ctx_.param_nullity.size() && k < static_cast<size_t>(obs_.args_size());
         ++k) {
      if (ctx_.param_nullity[k] != Nullity::kNonNull) continue;
      EvalValue v = FromProto(obs_.args(static_cast<int>(k)));
      Truth t = v.kind == K::kNull ? Truth::kFalse : (v.known() ? Truth::kTrue : Truth::kUnknown);
      if (t != Truth::kTrue) {
        std::string name = k < ctx_.param_names.size() ? ctx_.param_names[k] : "?";
        note(&r.why, absl::StrCat("implicit requires ", name, " != null (non_null): ",
                                  TruthName(t)));
      }
      pre = TruthAnd(pre, t);
    }
  }
  for (const Clause* cl : c.clauses) {
    if (cl->kind != ClauseKind::kRequires || !cl->pred) continue;
    if (cl->pred->kind == ExprKind::kJmlKeyword) continue;  // \not_specified, \same
    EvalValue v = Eval(*cl->pred, EvalState::kPre);
    Truth t = v.truth();
    if (t != Truth::kTrue) {
      note(&r.why, absl::StrCat(PrintClause(*cl), " ", TruthName(t),
                                t == Truth::kUnknown ? absl::StrCat(" (", v.reason, ")") : ""));
    }
    pre = TruthAnd(pre, t);
  }
  r.pre = pre;
  if (pre == Truth::kFalse) {
    r.post = Truth::kUnknown;
    return r;
  }
  std::string post_why;
  Truth post = Truth::kTrue;
  const v1::Outcome& outcome = obs_.outcome();
  bool exceptional_case =
      c.behavior == Behavior::kExceptional || c.behavior == Behavior::kExceptionalExample;
  bool normal_case = c.behavior == Behavior::kNormal || c.behavior == Behavior::kNormalExample;
  std::vector<const Clause*> assignable;
  for (const Clause* cl : c.clauses) {
    if (cl->kind == ClauseKind::kAssignable) assignable.push_back(cl);
  }
  if (outcome.has_returned() || outcome.has_returned_void()) {
    if (exceptional_case) {
      post = Truth::kFalse;
      note(&post_why, "exceptional_behavior case, but the call returned normally");
    }
    if (options_.implicit_nullity && ctx_.result_nullity == Nullity::kNonNull &&
        outcome.has_returned() && outcome.returned().kind_case() == v1::Value::kNullValue) {
      post = Truth::kFalse;
      note(&post_why, "implicit ensures \\result != null (non_null): false");
    }
    for (const Clause* cl : c.clauses) {
      if (cl->kind != ClauseKind::kEnsures || !cl->pred || post == Truth::kFalse) continue;
      if (cl->pred->kind == ExprKind::kJmlKeyword) continue;
      EvalValue v = Eval(*cl->pred, EvalState::kPost);
      Truth t = v.truth();
      if (t != Truth::kTrue) {
        note(&post_why, absl::StrCat(PrintClause(*cl), " ", TruthName(t),
                                     t == Truth::kUnknown ? absl::StrCat(" (", v.reason, ")") : ""));
      }
      post = TruthAnd(post, t);
    }
  } else if (outcome.has_thrown()) {
    const std::string& thrown = outcome.thrown().class_name();
    if (normal_case) {
      post = Truth::kFalse;
      note(&post_why, absl::StrCat("normal_behavior case, but the call threw ", thrown));
    }
    // signals_only (or its default).
    std::vector<Type> allowed;
    bool has_only = false;
    for (const Clause* cl : c.clauses) {
      if (cl->kind != ClauseKind::kSignalsOnly) continue;
      has_only = true;
      for (const TypeRef& t : cl->types) allowed.push_back(t.resolved);
    }
    if (!has_only) {
      for (const std::string& ex : ctx_.method.exceptions) allowed.push_back(Type::Class(ex));
      allowed.push_back(Type::Class("java.lang.RuntimeException"));
    }
    Truth only = Truth::kFalse;
    for (const Type& t : allowed) only = TruthOr(only, ThrownIsA(thrown, t));
    if (only != Truth::kTrue && post != Truth::kFalse) {
      note(&post_why, absl::StrCat(has_only ? "signals_only" : "default signals_only", " ",
                                   TruthName(only), " for ", thrown));
    }
    post = TruthAnd(post, only);
    if (RestrictsImplicitExceptions(c) && post != Truth::kFalse) {
      // An implicit runtime exception no clause mentions (see clauses.h).
      Truth implicit = Truth::kFalse;
      for (const std::string& name : ImplicitRuntimeExceptions()) {
        implicit = TruthOr(implicit, ThrownIsA(thrown, Type::Class(name)));
      }
      Truth mentioned = Truth::kFalse;
      for (const Type& t : MentionedExceptionTypes(c)) mentioned = TruthOr(mentioned, ThrownIsA(thrown, t));
      for (const std::string& ex : ctx_.method.exceptions) {
        mentioned = TruthOr(mentioned, ThrownIsA(thrown, Type::Class(ex)));
      }
      Truth allowed = TruthImplies(implicit, mentioned);
      if (allowed != Truth::kTrue) {
        note(&post_why, absl::StrCat("lightweight case: ", thrown, " is an implicit runtime "
                                     "exception that no clause mentions"));
      }
      post = TruthAnd(post, allowed);
    }
    EvalValue ex;
    ex.kind = K::kThrown;
    ex.class_name = thrown;
    ex.message = outcome.thrown().message();
    ex.has_message = outcome.thrown().has_message();
    for (const Clause* cl : c.clauses) {
      if (cl->kind != ClauseKind::kSignals || post == Truth::kFalse) continue;
      Truth isa = ThrownIsA(thrown, cl->exception_type.resolved);
      if (isa == Truth::kFalse) continue;
      Truth t = Truth::kTrue;
      std::string reason;
      if (cl->pred && cl->pred->kind != ExprKind::kJmlKeyword) {
        if (!cl->exception_var.empty()) {
          Binding b;
          b.name = cl->exception_var;
          b.value = ex;
          bindings_.push_back(std::move(b));
        }
        EvalValue v = Eval(*cl->pred, EvalState::kPost);
        bindings_.resize(case_mark);
        t = v.truth();
        reason = v.reason;
      }
      Truth contribution = TruthImplies(isa, t);
      if (contribution != Truth::kTrue) {
        note(&post_why, absl::StrCat(PrintClause(*cl), " ", TruthName(contribution),
                                     reason.empty() ? "" : absl::StrCat(" (", reason, ")")));
      }
      post = TruthAnd(post, contribution);
    }
  } else {
    post = Truth::kUnknown;
    note(&post_why, "the outcome was not recorded");
  }
  if (post != Truth::kFalse && !assignable.empty()) {
    std::string why;
    Truth frame = FrameHolds(assignable, &why);
    if (frame != Truth::kTrue) note(&post_why, absl::StrCat("assignable: ", why));
    post = TruthAnd(post, frame);
  }
  r.post = post;
  if (r.why.empty()) r.why = post_why;
  return r;
}

SpecEval ObservationEvaluator::EvaluateSpec(const MethodSpec& spec) {
  SpecEval out;
  Truth some = Truth::kFalse;
  Truth every = Truth::kTrue;
  for (const FlatCase& c : FlattenSpecCases(spec)) {
    CaseEval ce = EvaluateCase(c);
    some = TruthOr(some, TruthAnd(ce.pre, ce.post));
    every = TruthAnd(every, TruthImplies(ce.pre, ce.post));
    out.cases.push_back(std::move(ce));
  }
  out.admitted = TruthAnd(some, every);
  return out;
}

}  // namespace tracespec::jml

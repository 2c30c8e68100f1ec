// Which recorded values hold text, and what the text is: the one place
// that knows how the JDK keeps text inside its objects, so that the
// disclosure rule (disclosure.h) applies to every holder alike.
//
// Holders: a String value; a char[]; a StringBuilder/StringBuffer (its
// `value` byte[] read with `coder` — 0 Latin-1, 1 UTF-16 little-endian —
// or a char[] before JDK 9, and `count`); a byte[] of at least
// kMinByteText bytes that, trailing zero bytes left off, decodes as
// printable UTF-8 or Latin-1, as a whole or after a binary prefix of at
// most kMaxBinaryPrefix bytes (a length, a type tag: the text is what
// follows it); a heap ByteBuffer whose window of its `hb` byte[]
// (`offset`, `capacity`) does so; a UUID (`mostSigBits`,
// `leastSigBits`) as its canonical text; a BigInteger (`signum`, `mag`)
// and a BigDecimal (`intCompact` or `intVal`, `scale`) as their plain
// decimal text; an Inet4Address (`holder` → `address` int) and an
// Inet6Address (`holder6` → `ipaddress` byte[16], scope) as the text of
// their address (host names are Strings of their own; an address shown
// by shape shows none of its fields).
#ifndef TRACESPEC_AGENT_PROMPT_TEXT_HOLDERS_H_
#define TRACESPEC_AGENT_PROMPT_TEXT_HOLDERS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "tracespec/v1/observation.pb.h"

namespace tracespec::prompt {

// A byte[] shorter than this is never taken for text.
inline constexpr int kMinByteText = 4;
// The longest binary header (a length, a tag) before text in a byte[].
inline constexpr int kMaxBinaryPrefix = 8;

struct HeldText {
  // The alias family (disclosure.h): 's' String and the string builders,
  // 'c' char[], 'b' byte[] and ByteBuffer, 'u' UUID, 'n'
  // BigInteger/BigDecimal, 'a' Inet4Address/Inet6Address.
  char kind = 's';
  // As a prompt names it: "String", "StringBuilder", "char[]", "UUID", ...
  std::string type;
  // The text, UTF-8: what toString() (new String(bytes) for a byte[] or
  // a ByteBuffer's bytes, after their binary prefix if any) gives; BigDecimal as toPlainString(), an address
  // as getHostAddress().
  std::string text;
  // False when part of the holder was not recorded (capped, withheld, or
  // an unexpected layout): `text` is then partial and never shown.
  bool complete = true;
  // The size a shape discloses: UTF-16 chars, bytes (a byte[]'s length, a
  // ByteBuffer's capacity) or digits (`unit`); 0 with an empty unit for a
  // UUID or an address (their size is fixed).
  int size = 0;
  std::string unit;
};

// The object of `id` in the same observation graph, or null.
using ObjectLookup = std::function<const v1::ObjectState*(uint64_t id)>;

// The text of a String value (kind 's', size in UTF-16 units).
HeldText StringText(const std::string& value);

// The text `state` holds when it is one of the holders above; nullopt for
// any other object or array (including a byte[] that is not text).
std::optional<HeldText> TextHeldBy(const v1::ObjectState& state, const ObjectLookup& lookup);

}  // namespace tracespec::prompt

#endif  // TRACESPEC_AGENT_PROMPT_TEXT_HOLDERS_H_

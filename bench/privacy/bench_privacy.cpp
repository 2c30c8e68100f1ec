// bench_privacy: does a planted secret leave? Runs the real `tracespec run`
// on the small Java projects under cases/ (one JUnit 5 class each), with a
// remote model that is the fake chat-completions server of tests/agent on
// loopback, which records every byte it receives. For an adversarial case
// the bench then searches everything that arrived for the case's secret in
// every encoding it knows (the text, reversed, hex, base64, code points,
// UTF-8/UTF-16 bytes, packed longs, XOR with the case's constants, Java's
// hash codes, a UUID's longs, an IPv4 address as an int, a number and its
// neighbours) and for the case's verbatim needles: LEAK or OK. For a clean
// case it checks that requests went out (none blocked) and carry what the
// tests disclose, with nothing redacted or withheld: OK, BLOCKED or ALTERED.
// Each case runs in two modes: `plain` (`observe_noninterference: false`,
// the tests run once) and `ni` (`observe_noninterference: true`, the
// default); both are written out, so that any build measures the same.
//
//   bench_privacy [--case NAME]... [--mode plain|ni|both] [--jobs N]
//                 [--tracespec BIN] [--cases DIR] [--work DIR] [--keep] [--json]
//   bench_privacy --self-test
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "agent/loop/run_dir.h"
#include "bench/common/runs.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "common/status.h"
#include "common/subprocess.h"
#include "common/utf8.h"
#include "rapidjson/document.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"
#include "tracespec/v1/run.pb.h"
#include "tracespec/v1/summary.pb.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;
namespace v1 = tracespec::v1;

// One case: cases/NAME/case.txt plus its src/ and test/ trees.
struct Case {
  std::string name;
  std::string dir;
  std::string kind;  // adversarial | clean
  std::string what;
  std::string tests;
  std::vector<std::string> methods;
  std::string release = "8";
  std::vector<std::string> answer;  // JML lines after `//@ public normal_behavior`
  std::vector<std::string> text_secrets;
  std::vector<int64_t> int_secrets;
  std::vector<int> xor_keys;
  std::vector<std::string> needles;    // verbatim strings that must not leave
  std::vector<std::string> disclosed;  // clean: strings that must leave
  // A hostile endpoint's probe: the answer's `@C@` becomes each of these
  // characters in turn (one run each); the feedback must not differ.
  std::vector<std::string> probe;
  std::string policy;  // redaction policy, relative to the bench dir ("" = the default)
};

absl::StatusOr<Case> LoadCase(const std::string& bench_dir, const std::string& name) {
  Case c;
  c.name = name;
  c.dir = absl::StrCat(bench_dir, "/cases/", name);
  const std::string file = c.dir + "/case.txt";
  TS_ASSIGN_OR_RETURN(std::string text, tracespec::ReadFile(file));
  int line_no = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_no;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    std::pair<std::string, std::string> kv = absl::StrSplit(line, absl::MaxSplits(' ', 1));
    const std::string& key = kv.first;
    std::string value(absl::StripAsciiWhitespace(kv.second));
    auto bad = [&](const std::string& why) {
      return absl::InvalidArgumentError(absl::StrCat(file, ":", line_no, ": ", why));
    };
    int64_t number = 0;
    if (key == "kind") {
      if (value != "adversarial" && value != "clean") return bad("kind is adversarial or clean");
      c.kind = value;
    } else if (key == "what") {
      c.what = value;
    } else if (key == "tests") {
      c.tests = value;
    } else if (key == "method") {
      c.methods.push_back(value);
    } else if (key == "release") {
      c.release = value;
    } else if (key == "answer") {
      c.answer.push_back(value);
    } else if (key == "secret") {
      c.text_secrets.push_back(value);
    } else if (key == "secret-int") {
      if (!absl::SimpleAtoi(value, &number)) return bad("secret-int takes an integer");
      c.int_secrets.push_back(number);
    } else if (key == "xor") {
      if (!absl::SimpleAtoi(value, &number)) return bad("xor takes an integer");
      c.xor_keys.push_back(static_cast<int>(number));
    } else if (key == "needle") {
      c.needles.push_back(value);
    } else if (key == "probe") {
      c.probe = absl::StrSplit(value, ' ', absl::SkipEmpty());
      if (c.probe.size() != 2) return bad("probe takes two characters");
    } else if (key == "disclosed") {
      c.disclosed.push_back(value);
    } else if (key == "policy") {
      c.policy = "cases/" + name + "/" + value;
    } else {
      return bad("unknown key '" + key + "'");
    }
  }
  if (c.kind.empty() || c.tests.empty() || c.methods.empty()) {
    return absl::InvalidArgumentError(file + ": kind, tests and method are required");
  }
  if (c.kind == "adversarial" && c.text_secrets.empty() && c.int_secrets.empty() &&
      c.needles.empty()) {
    return absl::InvalidArgumentError(file + ": an adversarial case needs a secret or a needle");
  }
  if (c.answer.empty()) c.answer.push_back("ensures true;");
  return c;
}

absl::StatusOr<std::vector<Case>> LoadCases(const std::string& bench_dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(bench_dir + "/cases", ec)) {
    if (e.is_directory()) names.push_back(e.path().filename().string());
  }
  if (ec) return absl::NotFoundError(absl::StrCat(bench_dir, "/cases: ", ec.message()));
  std::sort(names.begin(), names.end());
  std::vector<Case> cases;
  for (const std::string& name : names) {
    TS_ASSIGN_OR_RETURN(Case c, LoadCase(bench_dir, name));
    cases.push_back(std::move(c));
  }
  return cases;
}

// ---------------------------------------------------------------------------
// What to look for: a secret's encodings.

// A text needle is searched as a substring; a numeric one as a run of
// numbers in the text (a single number: that number as a whole token).
struct Needle {
  std::string label;
  std::string text;
  bool ignore_case = false;
  std::vector<int64_t> numbers;
};

std::vector<int64_t> Bytes(const std::string& s) {
  std::vector<int64_t> out;
  for (unsigned char ch : s) out.push_back(static_cast<int8_t>(ch));
  return out;
}

// UTF-16 code units of UTF-8 text, as Java holds it.
std::vector<uint16_t> Utf16(const std::string& s) {
  std::u16string units = tracespec::Utf8ToUtf16(s);
  return std::vector<uint16_t>(units.begin(), units.end());
}

int32_t JavaHash(const std::string& s) {
  uint32_t h = 0;
  for (uint16_t u : Utf16(s)) h = 31 * h + u;
  return static_cast<int32_t>(h);
}

std::vector<int64_t> PackLongs(const std::string& s, bool big_endian) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < s.size(); i += 8) {
    uint64_t v = 0;
    for (size_t k = 0; k < 8; ++k) {
      uint64_t byte = i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0;
      v |= byte << (big_endian ? 8 * (7 - k) : 8 * k);
    }
    out.push_back(static_cast<int64_t>(v));
  }
  return out;
}

// The bytes as an unsigned big-endian number: its decimal digits, and its
// 32-bit words as BigInteger's `mag` holds them (the first word takes the
// leading bytes left over).
std::string BigDecimalText(const std::string& s) {
  std::vector<uint8_t> n(s.begin(), s.end());
  std::string digits;
  while (std::any_of(n.begin(), n.end(), [](uint8_t b) { return b != 0; })) {
    unsigned rem = 0;
    for (uint8_t& b : n) {
      unsigned cur = rem * 256 + b;
      b = static_cast<uint8_t>(cur / 10);
      rem = cur % 10;
    }
    digits.push_back(static_cast<char>('0' + rem));
  }
  return std::string(digits.rbegin(), digits.rend());
}

std::vector<int64_t> MagWords(const std::string& s) {
  std::string padded = std::string((4 - s.size() % 4) % 4, '\0') + s;
  std::vector<int64_t> out;
  for (size_t i = 0; i < padded.size(); i += 4) {
    uint32_t w = 0;
    for (size_t k = 0; k < 4; ++k) w = (w << 8) | static_cast<unsigned char>(padded[i + k]);
    out.push_back(static_cast<int32_t>(w));
  }
  return out;
}

bool ParseUuid(const std::string& s, int64_t* msb, int64_t* lsb) {
  static const std::regex kUuid(
      "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  if (!std::regex_match(s, kUuid)) return false;
  std::string hex = absl::StrReplaceAll(s, {{"-", ""}});
  *msb = static_cast<int64_t>(std::stoull(hex.substr(0, 16), nullptr, 16));
  *lsb = static_cast<int64_t>(std::stoull(hex.substr(16), nullptr, 16));
  return true;
}

bool ParseIpv4(const std::string& s, int64_t* value) {
  std::vector<std::string> parts = absl::StrSplit(s, '.');
  if (parts.size() != 4) return false;
  uint32_t v = 0;
  for (const std::string& p : parts) {
    int octet = 0;
    if (!absl::SimpleAtoi(p, &octet) || octet < 0 || octet > 255) return false;
    v = (v << 8) | static_cast<uint32_t>(octet);
  }
  *value = static_cast<int32_t>(v);
  return true;
}

std::vector<Needle> NeedlesOf(const Case& c) {
  std::vector<Needle> out;
  auto text = [&](std::string label, std::string t, bool ignore_case = false) {
    out.push_back({std::move(label), std::move(t), ignore_case, {}});
  };
  // An encoding equal to an earlier one (an ASCII text's code points and
  // UTF-8 bytes) is searched once, under both names.
  auto numbers = [&](std::string label, std::vector<int64_t> n) {
    for (Needle& e : out) {
      if (e.numbers == n) {
        absl::StrAppend(&e.label, " = ", label);
        return;
      }
    }
    out.push_back({std::move(label), "", false, std::move(n)});
  };
  for (const std::string& s : c.text_secrets) {
    text("plain", s);
    text("reversed", std::string(s.rbegin(), s.rend()));
    text("hex", absl::BytesToHexString(s), /*ignore_case=*/true);
    // Base64 of the whole groups only, so a padded or continued encoding
    // matches too.
    std::string b64 = absl::Base64Escape(s).substr(0, s.size() / 3 * 4);
    std::string web = absl::WebSafeBase64Escape(s).substr(0, s.size() / 3 * 4);
    text("base64", b64);
    if (web != b64) text("base64url", web);
    std::vector<int64_t> cps;
    for (uint16_t u : Utf16(s)) cps.push_back(u);
    numbers("code points", cps);
    numbers("UTF-8 bytes", Bytes(s));
    std::vector<int64_t> le, be;
    for (uint16_t u : Utf16(s)) {
      le.insert(le.end(), {static_cast<int8_t>(u & 0xFF), static_cast<int8_t>(u >> 8)});
      be.insert(be.end(), {static_cast<int8_t>(u >> 8), static_cast<int8_t>(u & 0xFF)});
    }
    numbers("UTF-16LE bytes", le);
    numbers("UTF-16BE bytes", be);
    text("as a BigInteger", BigDecimalText(s));
    numbers("BigInteger words", MagWords(s));
    numbers("longs (big-endian)", PackLongs(s, true));
    numbers("longs (little-endian)", PackLongs(s, false));
    for (int key : c.xor_keys) {
      std::vector<int64_t> x;
      std::string xs;
      for (uint16_t u : Utf16(s)) {
        x.push_back(u ^ key);
        xs.push_back(static_cast<char>((u ^ key) & 0xFF));
      }
      numbers(absl::StrCat("XOR ", key), x);
      text(absl::StrCat("XOR ", key, " hex"), absl::BytesToHexString(xs), true);
    }
    int32_t h = JavaHash(s);
    numbers("hashCode", {h});
    numbers("HashMap hash", {h ^ static_cast<int32_t>(static_cast<uint32_t>(h) >> 16)});
    int64_t msb = 0, lsb = 0, ip = 0;
    if (ParseUuid(s, &msb, &lsb)) {
      numbers("UUID high long", {msb});
      numbers("UUID low long", {lsb});
    }
    if (ParseIpv4(s, &ip)) numbers("IPv4 as int", {ip});
  }
  for (int64_t n : c.int_secrets) {
    numbers("number", {n});
    numbers("number + 1", {n + 1});
    numbers("number - 1", {n - 1});
  }
  for (const std::string& n : c.needles) text("verbatim: " + n, n);
  return out;
}

// ---------------------------------------------------------------------------
// Views of what left.

void CollectStrings(const rapidjson::Value& v, std::string* out) {
  if (v.IsString()) {
    absl::StrAppend(out, absl::string_view(v.GetString(), v.GetStringLength()), "\n");
  } else if (v.IsArray()) {
    for (const auto& e : v.GetArray()) CollectStrings(e, out);
  } else if (v.IsObject()) {
    for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) CollectStrings(it->value, out);
  }
}

// The request bodies' string values (the prompt text, JSON escapes gone).
std::string Decoded(const std::vector<std::string>& bodies) {
  std::string out;
  for (const std::string& body : bodies) {
    rapidjson::Document doc;
    doc.Parse(body.data(), body.size());
    if (doc.HasParseError()) {
      absl::StrAppend(&out, body, "\n");
    } else {
      CollectStrings(doc, &out);
    }
  }
  return out;
}

// The text as javac would read its literals: unicode and octal escapes
// resolved, a text block's line continuations joined, and the quotes of
// concatenated literals ("ab" + 'c' + "de") taken out, so a secret spelled
// in pieces reads as one.
std::string JavaFolded(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == 'u') {
      size_t j = i + 1;
      while (j < text.size() && text[j] == 'u') ++j;
      uint32_t cp = 0;
      if (j + 4 <= text.size() && absl::SimpleHexAtoi(text.substr(j, 4), &cp)) {
        tracespec::AppendUtf8(cp, &out);
        i = j + 3;
        continue;
      }
    }
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '7') {
      size_t j = i + 1;
      int v = 0;
      while (j < text.size() && j < i + 4 && text[j] >= '0' && text[j] <= '7' &&
             v * 8 + (text[j] - '0') <= 0377) {
        v = v * 8 + (text[j] - '0');
        ++j;
      }
      out.push_back(static_cast<char>(v));
      i = j - 1;
      continue;
    }
    out.push_back(text[i]);
  }
  static const std::regex kJoin(R"re(["']\s*\+\s*["']|\\\n[ \t]*)re");
  return std::regex_replace(out, kJoin, "");
}

// The char literals of the text ('a', '\''), joined: a text recorded
// character by character (a List<Character>) reads as one.
std::string CharLiterals(const std::string& text) {
  static const std::regex kChar(R"re('(\\.|[^'\\])')re");
  std::string out;
  for (std::sregex_iterator it(text.begin(), text.end(), kChar), end; it != end; ++it) {
    std::string c = (*it)[1].str();
    out += c.size() == 2 ? c.substr(1) : c;
  }
  return out;
}

// Every integer in the text, in order ("-5" is minus five when the minus
// does not follow a letter, digit or closing bracket).
std::vector<int64_t> Numbers(const std::string& text) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < text.size();) {
    if (!absl::ascii_isdigit(text[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && absl::ascii_isdigit(text[j])) ++j;
    bool negative = i > 0 && text[i - 1] == '-' &&
                    (i < 2 || !(absl::ascii_isalnum(text[i - 2]) || text[i - 2] == ')' ||
                                text[i - 2] == ']'));
    bool in_word = i > 0 && (absl::ascii_isalpha(text[i - 1]) || text[i - 1] == '_');
    uint64_t v = 0;
    if (!in_word && absl::SimpleAtoi(text.substr(i, j - i), &v)) {
      out.push_back(negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v));
    }
    i = j;
  }
  return out;
}

// Neighbouring elements of an encoding may have this many other numbers
// between them (indices such as `codes.elementData[3].value=`).
constexpr int kMaxGap = 3;
// A run of this many elements (or the whole encoding when shorter) counts.
constexpr size_t kMinRun = 8;

bool HasRun(const std::vector<int64_t>& tokens, const std::vector<int64_t>& seq) {
  if (seq.size() == 1) return std::find(tokens.begin(), tokens.end(), seq[0]) != tokens.end();
  const size_t need = std::min(seq.size(), kMinRun);
  for (size_t start = 0; start + need <= seq.size(); ++start) {
    for (size_t t = 0; t < tokens.size(); ++t) {
      if (tokens[t] != seq[start]) continue;
      size_t k = start + 1, pos = t;
      while (k < seq.size() && k - start < need) {
        size_t found = tokens.size();
        for (size_t p = pos + 1; p < tokens.size() && p <= pos + 1 + kMaxGap; ++p) {
          if (tokens[p] == seq[k]) {
            found = p;
            break;
          }
        }
        if (found == tokens.size()) break;
        pos = found;
        ++k;
      }
      if (k - start >= need) return true;
    }
  }
  return false;
}

// The labels of the needles found in what left.
std::vector<std::string> Find(const std::vector<Needle>& needles, const std::string& raw,
                              const std::string& decoded) {
  const std::string folded = JavaFolded(decoded);
  const std::string chars = CharLiterals(decoded);
  const std::string lower = absl::AsciiStrToLower(raw + "\n" + decoded);
  const std::vector<int64_t> tokens = Numbers(decoded);
  std::vector<std::string> found;
  for (const Needle& n : needles) {
    bool hit = false;
    if (!n.numbers.empty()) {
      hit = HasRun(tokens, n.numbers);
    } else if (n.ignore_case) {
      hit = absl::StrContains(lower, absl::AsciiStrToLower(n.text));
    } else {
      hit = absl::StrContains(raw, n.text) || absl::StrContains(decoded, n.text) ||
            absl::StrContains(folded, n.text) || absl::StrContains(chars, n.text);
    }
    if (hit) found.push_back(n.label);
  }
  return found;
}

// The search's own check (--self-test): every encoding of every case's
// secret, written into a request the way the prompt renders values (a
// string, an inline array, elements with their paths, a char list, the
// test source spelled with escapes, char operands and a text-block
// continuation), must be found under its own label, and a request without
// the secret must give nothing. Returns the failures.
std::vector<std::string> SelfTest(const std::vector<Case>& cases) {
  std::vector<std::string> failures;
  auto body = [](const std::string& content) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
    w.StartObject();
    w.Key("messages");
    w.StartArray();
    w.StartObject();
    w.Key("content");
    w.String(content.c_str());
    w.EndObject();
    w.EndArray();
    w.EndObject();
    return std::string(buffer.GetString());
  };
  auto expect = [&](const Case& c, const std::vector<Needle>& needles, const std::string& label,
                    const std::string& content, bool found) {
    std::string b = body("o1 [t.T#m]: x=3 -> returns 2; after: " + content);
    std::vector<std::string> hits = Find(needles, b, Decoded({b}));
    bool hit = std::find(hits.begin(), hits.end(), label) != hits.end();
    if (hit != found) {
      failures.push_back(absl::StrCat(c.name, ": ", label, found ? " not found in: " : " found in: ",
                                      content.substr(0, 160)));
    }
  };
  for (const Case& c : cases) {
    std::vector<Needle> needles = NeedlesOf(c);
    for (const Needle& n : needles) {
      if (n.numbers.empty()) {
        expect(c, needles, n.label, "this.f=\"" + n.text + "\"", true);
        continue;
      }
      std::vector<std::string> inline_form, path_form;
      for (size_t i = 0; i < n.numbers.size(); ++i) {
        inline_form.push_back(absl::StrCat(n.numbers[i]));
        path_form.push_back(absl::StrCat("this.f.elementData[", i, "].value=", n.numbers[i]));
      }
      expect(c, needles, n.label, "this.f=[" + absl::StrJoin(inline_form, ", ") + "]", true);
      expect(c, needles, n.label, absl::StrJoin(path_form, ", "), true);
    }
    for (const std::string& secret : c.text_secrets) {
      std::string escaped, concat, chars;
      for (size_t i = 0; i < secret.size(); ++i) {
        escaped += i % 3 == 0 ? absl::StrFormat("\\u%04x", secret[i]) : secret.substr(i, 1);
        concat += i % 4 == 1 ? absl::StrCat("\" + '", secret.substr(i, 1), "' + \"")
                             : secret.substr(i, 1);
        chars += absl::StrCat(i ? ", " : "", "this.q.elementData[", i, "].value='",
                              secret.substr(i, 1), "'");
      }
      std::string split = absl::StrCat(secret.substr(0, secret.size() / 2), "\\\n        ",
                                       secret.substr(secret.size() / 2));
      for (const std::string& spelling : {escaped, "\"" + concat + "\"", chars, split}) {
        expect(c, needles, "plain", spelling, true);
      }
    }
    // Nothing of the secret: the same frames with other values.
    std::vector<std::string> hits;
    std::string clean = body(
        "o1 [t.T#m]: a=[3, 9, 42, 77], key=42 -> returns 2; after: this.f=<s1: String, 17 "
        "chars>, this.n=7, this.g=[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]");
    hits = Find(needles, clean, Decoded({clean}));
    if (!hits.empty()) {
      failures.push_back(absl::StrCat(c.name, ": found in a request without the secret: ",
                                      absl::StrJoin(hits, ", ")));
    }
  }
  return failures;
}

// ---------------------------------------------------------------------------
// The fake model server (tests/agent/fake_llm_server.py).

class FakeServer {
 public:
  FakeServer(const std::string& script_path, const std::string& dir, const std::string& answer) {
    record_ = dir + "/record.jsonl";
    std::string script = dir + "/script.json";
    std::string port_file = dir + "/port";
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
    w.String(answer.data(), static_cast<rapidjson::SizeType>(answer.size()));
    if (!tracespec::WriteFileAtomic(script, absl::StrCat("{\"responses\":[{\"status\":200,"
                                                         "\"content\":",
                                                         buffer.GetString(), "}]}"))
             .ok()) {
      return;
    }
    std::vector<std::string> args = {"python3", script_path, "--script", script,
                                     "--record", record_,    "--port-file", port_file};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawnp(&pid_, "python3", nullptr, nullptr, argv.data(), environ) != 0) {
      pid_ = -1;
      return;
    }
    for (int i = 0; i < 500; ++i) {
      auto text = tracespec::ReadFile(port_file);
      if (text.ok() && absl::SimpleAtoi(*text, &port_) && port_ > 0) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    port_ = 0;
  }
  ~FakeServer() {
    if (pid_ <= 0) return;
    kill(pid_, SIGTERM);
    int status = 0;
    for (int i = 0; i < 200; ++i) {
      if (waitpid(pid_, &status, WNOHANG) == pid_) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, &status, 0);
  }
  int port() const { return port_; }
  // The exact bodies received, in order.
  std::vector<std::string> Bodies() const {
    std::vector<std::string> out;
    std::string text = tracespec::ReadFile(record_).value_or("");
    for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
      rapidjson::Document doc;
      doc.Parse(line.data(), line.size());
      if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("body_base64")) continue;
      std::string body;
      absl::Base64Unescape(doc["body_base64"].GetString(), &body);
      out.push_back(std::move(body));
    }
    return out;
  }

 private:
  std::string record_;
  pid_t pid_ = -1;
  int port_ = 0;
};

// ---------------------------------------------------------------------------
// One run of a case in one mode.

struct Row {
  std::string name, kind, mode;
  std::string result;  // LEAK, OK, BLOCKED, ALTERED, ERROR
  std::vector<std::string> found;
  std::string note;
  int requests = 0;
  int blocked = 0;
  double seconds = 0;
};

absl::Status CopyCase(const Case& c, const std::string& to) {
  TS_RETURN_IF_ERROR(tracespec::RemoveAll(to));
  TS_RETURN_IF_ERROR(tracespec::MakeDirs(to));
  std::error_code ec;
  for (const char* sub : {"src", "test"}) {
    fs::copy(fs::path(c.dir) / sub, fs::path(to) / sub, fs::copy_options::recursive, ec);
    if (ec) return absl::InternalError(absl::StrCat("copying ", c.dir, ": ", ec.message()));
  }
  return absl::OkStatus();
}

std::string Quoted(const std::string& s) { return "\"" + absl::CEscape(s) + "\""; }

std::string ProjectConfig(const Case& c, const std::string& bench_dir, int port, bool ni,
                          const std::string& egress_policy) {
  std::string out = absl::StrCat(
      "# written by bench_privacy for case ", c.name, "\n",
      "build: ",
      Quoted(absl::StrCat("rm -rf target && mkdir -p target/classes && javac "
                          "-J-XX:TieredStopAtLevel=1 -nowarn -g --release ",
                          c.release,
                          " -cp $TRACESPEC_JUNIT_JAR -d target/classes $(find src test -name "
                          "'*.java' | LC_ALL=C sort)")),
      "\nclasses: \"target/classes\"\ntest_classes: \"target/classes\"\n",
      "tests: ", Quoted(c.tests), "\ntests_src: \"test\"\nsources: \"src\"\n");
  if (!c.policy.empty()) {
    absl::StrAppend(&out, "redaction_policy: ", Quoted(bench_dir + "/" + c.policy), "\n");
  }
  for (const std::string& m : c.methods) absl::StrAppend(&out, "methods: ", Quoted(m), "\n");
  absl::StrAppend(&out, "model { endpoint { url: ",
                  Quoted(absl::StrCat("http://127.0.0.1:", port, "/v1")),
                  " model: \"fake-model\" egress_policy: ", Quoted(egress_policy), " } }\n");
  absl::StrAppend(&out, "observe_noninterference: ", ni ? "true" : "false", "\n");
  return out;
}

std::string Answer(const Case& c, const std::string& probe) {
  std::string contract = "//@ public normal_behavior\n";
  for (const std::string& line : c.answer) {
    absl::StrAppend(&contract, "//@   ", absl::StrReplaceAll(line, {{"@C@", probe}}), "\n");
  }
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("contract");
  w.String(contract.c_str());
  w.Key("hypotheses");
  w.StartArray();
  w.EndArray();
  w.EndObject();
  return buffer.GetString();
}

// What the run says about itself: method outcomes, blocked requests,
// excluded and withheld counts.
std::string RunNote(const std::string& out_dir, int* blocked) {
  std::vector<std::string> parts;
  v1::RunSummary summary;
  std::string json = tracespec::ReadFile(out_dir + "/run.json").value_or("");
  if (!json.empty() && tracespec::FromJson(json, &summary).ok()) {
    for (const v1::MethodRun& m : summary.methods()) {
      std::string status = m.status() == v1::METHOD_RUN_INFERRED
                               ? tracespec::loop::InferStatusName(m.infer_status())
                               : v1::MethodRunStatus_Name(m.status());
      parts.push_back(absl::StrCat(status, m.history().empty() ? "" : " ", m.history()));
    }
  }
  std::string audit = tracespec::ReadFile(out_dir + "/infer/audit.jsonl").value_or("");
  *blocked = 0;
  std::set<std::string> rules;
  static const std::regex kRule("\"rule\":\"([^\"]*)\"");
  for (absl::string_view line : absl::StrSplit(audit, '\n', absl::SkipEmpty())) {
    if (absl::StrContains(line, "\"BLOCKED\"") || absl::StrContains(line, "VERDICT_BLOCKED")) {
      ++*blocked;
      std::smatch rule;
      std::string text(line);
      if (std::regex_search(text, rule, kRule)) rules.insert(rule[1].str());
    }
  }
  if (!rules.empty()) parts.push_back("blocked by " + absl::StrJoin(rules, ", "));
  v1::ObserveSummary observed;
  std::string osum = tracespec::ReadFile(out_dir + "/observations/summary.json").value_or("");
  if (!osum.empty() && tracespec::FromJson(osum, &observed).ok()) {
    if (observed.tests_excluded() > 0) {
      parts.push_back(absl::StrCat(observed.tests_excluded(), " test(s) excluded"));
    }
    int64_t withheld = observed.withheld_dependent() + observed.withheld_nondeterministic();
    if (withheld > 0) parts.push_back(absl::StrCat(withheld, " withheld"));
  }
  return absl::StrJoin(parts, "; ");
}

// Markers of a value the request does not show as recorded.
constexpr const char* kAlterations[] = {"redacted", "withheld", "depends on a denied value"};

// One `tracespec run` of a case against a fresh fake server.
struct Attempt {
  std::string error;  // the run could not be made at all
  bool succeeded = false;
  std::vector<std::string> bodies;
  std::string note;
  int blocked = 0;
  double seconds = 0;
};

Attempt RunOnce(const Case& c, bool ni, const std::string& base, const std::string& answer,
                const std::string& bench_dir, const std::string& tracespec,
                const std::string& server_script, const std::string& egress_policy) {
  Attempt a;
  const std::string project = base + "/project";
  const std::string side = base + "/side";  // server files, audit key, witness
  // A fresh directory: a stale port file or record of an earlier run in a
  // kept --work directory must not be read.
  absl::Status made = tracespec::RemoveAll(base);
  if (made.ok()) made = CopyCase(c, project);
  if (made.ok()) made = tracespec::MakeDirs(side);
  if (!made.ok()) {
    a.error = std::string(made.message());
    return a;
  }
  FakeServer server(server_script, side, answer);
  if (server.port() <= 0) {
    a.error = "the fake model server did not start";
    return a;
  }
  absl::Status wrote = tracespec::WriteFileAtomic(
      project + "/tracespec.textproto",
      ProjectConfig(c, bench_dir, server.port(), ni, egress_policy));
  if (!wrote.ok()) {
    a.error = std::string(wrote.message());
    return a;
  }
  tracespec::SubprocessOptions options;
  options.stdout_path = base + "/run.log";
  options.stderr_path = base + "/run.log";
  options.timeout_seconds = 900;
  options.env = {{"TRACESPEC_AUDIT_KEY", side + "/audit-key.pem"},
                 {"TRACESPEC_AUDIT_WITNESS_DIR", side + "/witness"}};
  auto run = tracespec::RunSubprocess({tracespec, "run", project}, options);
  if (!run.ok()) {
    a.error = std::string(run.status().message());
    return a;
  }
  a.seconds = run->seconds;
  a.succeeded = run->Succeeded();
  a.bodies = server.Bodies();
  a.note = RunNote(project + "/tracespec-out", &a.blocked);
  if (!a.succeeded) {
    std::string log = tracespec::ReadFile(base + "/run.log").value_or("");
    std::vector<absl::string_view> lines = absl::StrSplit(log, '\n', absl::SkipWhitespace());
    a.note = absl::StrCat("tracespec run: ", run->Describe(),
                          lines.empty() ? "" : ": " + std::string(lines.back()));
  }
  return a;
}

// The feedback of a probe's run: the requests after the first, with the
// probed character in its quotes made one, so that two probes' runs
// compare equal unless the feedback itself differs.
std::string ProbeFeedback(const Attempt& a, const std::string& probe) {
  std::vector<std::string> later(a.bodies.size() > 1 ? a.bodies.begin() + 1 : a.bodies.end(),
                                 a.bodies.end());
  return absl::StrReplaceAll(Decoded(later), {{"'" + probe + "'", "'?'"}});
}

Row RunCase(const Case& c, bool ni, const std::string& bench_dir, const std::string& work_dir,
            const std::string& tracespec, const std::string& server_script,
            const std::string& egress_policy) {
  Row row;
  row.name = c.name;
  row.kind = c.kind;
  row.mode = ni ? "ni" : "plain";
  const std::string base = absl::StrCat(work_dir, "/", c.name, "-", row.mode);
  std::vector<std::string> probes = c.probe.empty() ? std::vector<std::string>{""} : c.probe;
  std::vector<Attempt> attempts;
  for (size_t i = 0; i < probes.size(); ++i) {
    attempts.push_back(RunOnce(c, ni, probes.size() > 1 ? absl::StrCat(base, "/probe-", i) : base,
                               Answer(c, probes[i]), bench_dir, tracespec, server_script,
                               egress_policy));
    const Attempt& a = attempts.back();
    if (!a.error.empty()) {
      row.result = "ERROR";
      row.note = a.error;
      return row;
    }
    row.seconds += a.seconds;
    row.requests += static_cast<int>(a.bodies.size());
    row.blocked += a.blocked;
  }
  const Attempt& first = attempts.front();
  row.note = first.note;
  bool succeeded = std::all_of(attempts.begin(), attempts.end(),
                               [](const Attempt& a) { return a.succeeded; });
  std::vector<std::string> bodies;
  for (const Attempt& a : attempts) bodies.insert(bodies.end(), a.bodies.begin(), a.bodies.end());
  std::string raw = absl::StrJoin(bodies, "\n");
  std::string decoded = Decoded(bodies);

  if (c.kind == "adversarial") {
    row.found = Find(NeedlesOf(c), raw, decoded);
    if (probes.size() > 1 &&
        ProbeFeedback(attempts[0], probes[0]) != ProbeFeedback(attempts[1], probes[1])) {
      row.found.push_back("feedback differs between probes " + absl::StrJoin(probes, "/"));
    }
    row.result = !row.found.empty() ? "LEAK" : succeeded ? "OK" : "ERROR";
    return row;
  }
  if (!succeeded) {
    row.result = "ERROR";
  } else if (row.blocked > 0 || row.requests == 0) {
    row.result = "BLOCKED";
  } else {
    for (const char* marker : kAlterations) {
      if (absl::StrContains(decoded, marker)) row.found.push_back(marker);
    }
    for (const std::string& d : c.disclosed) {
      if (!absl::StrContains(decoded, d)) row.found.push_back("missing: " + d);
    }
    row.result = row.found.empty() ? "OK" : "ALTERED";
  }
  return row;
}

// ---------------------------------------------------------------------------
// Output.

void PrintTable(const std::vector<Row>& rows, double seconds) {
  std::printf("%-24s %-11s %-5s %-8s %8s %7s %8s  %s\n", "case", "kind", "mode", "result",
              "requests", "blocked", "seconds", "found / note");
  for (const Row& r : rows) {
    std::string found = absl::StrJoin(r.found, ", ");
    std::string detail = found.empty() ? r.note
                         : r.note.empty() ? found
                                          : absl::StrCat(found, " | ", r.note);
    std::printf("%-24s %-11s %-5s %-8s %8d %7d %8.1f  %s\n", r.name.c_str(), r.kind.c_str(),
                r.mode.c_str(), r.result.c_str(), r.requests, r.blocked, r.seconds,
                detail.c_str());
  }
  std::map<std::string, std::map<std::string, int>> counts;  // kind/mode -> result -> n
  for (const Row& r : rows) ++counts[r.kind + " " + r.mode][r.result];
  std::printf("\n");
  for (const auto& [key, by_result] : counts) {
    int total = 0;
    std::vector<std::string> parts;
    for (const auto& [result, n] : by_result) {
      total += n;
      parts.push_back(absl::StrCat(result, " ", n));
    }
    std::printf("%-18s %2d runs: %s\n", key.c_str(), total, absl::StrJoin(parts, ", ").c_str());
  }
  std::printf("whole bench %.1f s\n", seconds);
}

void PrintJson(const std::vector<Row>& rows, double seconds) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("rows");
  w.StartArray();
  for (const Row& r : rows) {
    w.StartObject();
    w.Key("case");
    w.String(r.name.c_str());
    w.Key("kind");
    w.String(r.kind.c_str());
    w.Key("mode");
    w.String(r.mode.c_str());
    w.Key("result");
    w.String(r.result.c_str());
    w.Key("found");
    w.StartArray();
    for (const std::string& f : r.found) w.String(f.c_str());
    w.EndArray();
    w.Key("requests");
    w.Int(r.requests);
    w.Key("blocked");
    w.Int(r.blocked);
    w.Key("seconds");
    w.Double(r.seconds);
    w.Key("note");
    w.String(r.note.c_str());
    w.EndObject();
  }
  w.EndArray();
  w.Key("seconds");
  w.Double(seconds);
  w.EndObject();
  std::printf("%s\n", buffer.GetString());
}

void Usage() {
  std::fprintf(stderr,
               "usage: bench_privacy [--case NAME]... [--mode plain|ni|both] [--jobs N]\n"
               "                     [--tracespec BIN] [--cases DIR] [--work DIR] [--keep] "
               "[--json]\n"
               "  --case NAME     run only this case (repeatable; a directory under cases/)\n"
               "  --mode M        plain (observe_noninterference: false), ni (true, the\n"
               "                  default),\n"
               "                  or both (default)\n"
               "  --jobs N        runs at once (default 1)\n"
               "  --tracespec BIN the tracespec binary (default: the one built with this bench)\n"
               "  --cases DIR     the bench directory holding cases/\n"
               "                  (default: the source tree's bench/privacy)\n"
               "  --work DIR      where the projects run (default: a fresh temporary directory,\n"
               "                  removed at the end unless --keep)\n"
               "  --json          print the rows as one JSON document\n"
               "  --self-test     check the search itself on synthetic requests (no run)\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::string bench_dir = TRACESPEC_BENCH_PRIVACY_DIR;
  std::string tracespec = TRACESPEC_BENCH_BINARY;
  std::string work_dir;
  std::string mode = "both";
  bool keep = false, json = false, self_test = false;
  int jobs = 1;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    std::string v;
    if (arg == "--case" && value(&v)) {
      only.push_back(v);
    } else if (arg == "--mode" && value(&mode) &&
               (mode == "plain" || mode == "ni" || mode == "both")) {
    } else if (arg == "--jobs" && value(&v) && absl::SimpleAtoi(v, &jobs) && jobs >= 1) {
    } else if (arg == "--tracespec" && value(&tracespec)) {
    } else if (arg == "--cases" && value(&bench_dir)) {
    } else if (arg == "--work" && value(&work_dir)) {
    } else if (arg == "--keep") {
      keep = true;
    } else if (arg == "--self-test") {
      self_test = true;
    } else if (arg == "--json") {
      json = true;
    } else {
      Usage();
      return 2;
    }
  }
  absl::StatusOr<std::vector<Case>> all = LoadCases(bench_dir);
  if (!all.ok()) {
    std::fprintf(stderr, "bench_privacy: %s\n", std::string(all.status().message()).c_str());
    return 3;
  }
  if (self_test) {
    std::vector<std::string> failures = SelfTest(*all);
    for (const std::string& f : failures) std::printf("FAIL %s\n", f.c_str());
    std::printf("self-test: %zu case(s), %zu failure(s)\n", all->size(), failures.size());
    return failures.empty() ? 0 : 1;
  }
  for (const std::string& name : only) {
    if (std::none_of(all->begin(), all->end(), [&](const Case& c) { return c.name == name; })) {
      std::fprintf(stderr, "bench_privacy: no case '%s' under %s/cases\n", name.c_str(),
                   bench_dir.c_str());
      return 2;
    }
  }
  // Runs in case order, plain before ni.
  std::vector<std::pair<const Case*, bool>> runs;
  for (const Case& c : *all) {
    if (!only.empty() && std::find(only.begin(), only.end(), c.name) == only.end()) continue;
    if (mode != "ni") runs.push_back({&c, false});
    if (mode != "plain") runs.push_back({&c, true});
  }

  bool temporary = false;
  absl::StatusOr<std::string> dir =
      tracespec::bench::OpenWorkDir(work_dir, "tracespec-bench-privacy-", &temporary);
  if (!dir.ok()) {
    std::fprintf(stderr, "bench_privacy: %s\n", std::string(dir.status().message()).c_str());
    return 4;
  }
  work_dir = *dir;
  // The loopback server must not go through a proxy.
  setenv("NO_PROXY", "127.0.0.1,localhost", 1);
  setenv("no_proxy", "127.0.0.1,localhost", 1);

  std::vector<Row> rows(runs.size());
  auto start = std::chrono::steady_clock::now();
  tracespec::bench::RunInOrder(
      runs.size(), jobs,
      [&](size_t i) {
        rows[i] = RunCase(*runs[i].first, runs[i].second, bench_dir, work_dir, tracespec,
                          TRACESPEC_BENCH_FAKE_SERVER, TRACESPEC_BENCH_EGRESS_POLICY);
      },
      [&](size_t i, int n) {
        std::fprintf(stderr, "bench_privacy: [%d/%zu] %s %s: %s (%.1fs)\n", n, runs.size(),
                     rows[i].name.c_str(), rows[i].mode.c_str(), rows[i].result.c_str(),
                     rows[i].seconds);
      });
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (json) {
    PrintJson(rows, seconds);
  } else {
    PrintTable(rows, seconds);
  }
  if (temporary && !keep) {
    (void)tracespec::RemoveAll(work_dir);
  } else {
    std::fprintf(stderr, "bench_privacy: projects, logs and received requests in %s\n",
                 work_dir.c_str());
  }
  bool met = std::all_of(rows.begin(), rows.end(), [](const Row& r) { return r.result == "OK"; });
  return met ? 0 : 1;
}

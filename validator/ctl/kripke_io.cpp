// Readers (text, JSON, Aldebaran) and writers (text, DOT) of Kripke
// structures; formats in kripke_io.h.
#include "validator/ctl/kripke_io.h"

#include <algorithm>
#include <map>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "common/status.h"
#include "rapidjson/error/en.h"
#include "rapidjson/reader.h"

namespace tracespec::ctl {

namespace {

// ---------------------------------------------------------------- text ----

struct Token {
  enum Kind { kName, kArrow, kColon, kAction } kind;
  std::string text;
  int column;
  bool quoted = false;
};

struct Line {
  int number;
  std::vector<Token> tokens;
};

absl::Status Tokenize(absl::string_view line, int number, const std::string& source,
                      std::vector<Token>* out) {
  size_t i = 0;
  while (i < line.size()) {
    const char c = line[i];
    const int column = static_cast<int>(i) + 1;
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
    } else if (c == '#') {
      break;
    } else if (c == '-' && i + 1 < line.size() && line[i + 1] == '>') {
      out->push_back({Token::kArrow, "->", column});
      i += 2;
    } else if (c == ':') {
      out->push_back({Token::kColon, ":", column});
      ++i;
    } else if (c == '[') {
      // Brackets nest, so actions such as `new C(int[])` need no quoting.
      size_t close = i + 1;
      for (int depth = 1; close < line.size(); ++close) {
        if (line[close] == '[') ++depth;
        if (line[close] == ']' && --depth == 0) break;
      }
      if (close >= line.size())
        return InputError(source, number, column, "action '[' without closing ']'");
      out->push_back({Token::kAction,
                      std::string(absl::StripAsciiWhitespace(line.substr(i + 1, close - i - 1))),
                      column});
      i = close + 1;
    } else if (c == '"') {
      std::string text;
      ++i;
      while (i < line.size() && line[i] != '"') {
        if (line[i] == '\\' && i + 1 < line.size()) ++i;
        text += line[i++];
      }
      if (i >= line.size()) return InputError(source, number, column, "unterminated quoted name");
      ++i;
      out->push_back({Token::kName, std::move(text), column, /*quoted=*/true});
    } else if (IsNameChar(c)) {
      const size_t start = i;
      while (i < line.size() && IsNameChar(line[i]) &&
             !(line[i] == '-' && i + 1 < line.size() && line[i + 1] == '>'))
        ++i;
      out->push_back({Token::kName, std::string(line.substr(start, i - start)), column});
    } else {
      return InputError(source, number, column,
                        absl::StrCat("unexpected character '", std::string(1, c),
                                     "' (quote names that use it)"));
    }
  }
  return absl::OkStatus();
}

bool IsKeywordToken(const Token& t, absl::string_view word) {
  return t.kind == Token::kName && !t.quoted && t.text == word;
}

absl::StatusOr<uint32_t> Resolve(const KripkeBuilder& b, const Token& t, int line) {
  if (t.kind != Token::kName)
    return InputError(b.source(), line, t.column, absl::StrCat("expected a state name, found '", t.text, "'"));
  std::optional<uint32_t> s = b.FindState(t.text);
  if (!s)
    return InputError(b.source(), line, t.column,
                      absl::StrCat("unknown state '", t.text, "' (not declared by a `states` line)"));
  return *s;
}

// ---------------------------------------------------------------- JSON ----

// A JSON value with the byte offset where it ended, so that semantic errors
// can name a line.
struct JNode {
  enum Type { kNull, kBool, kNumber, kString, kArray, kObject } type = kNull;
  std::string str;
  std::vector<JNode> items;
  std::vector<std::string> keys;  // for objects, parallel to items
  size_t offset = 0;
};

JNode MakeNode(JNode::Type type) {
  JNode n;
  n.type = type;
  return n;
}

class TreeHandler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, TreeHandler> {
 public:
  explicit TreeHandler(const rapidjson::StringStream* stream) : stream_(stream) {}
  JNode root;

  bool Null() { return Add(MakeNode(JNode::kNull)); }
  bool Bool(bool b) {
    JNode n = MakeNode(JNode::kBool);
    n.str = b ? "true" : "false";
    return Add(std::move(n));
  }
  bool RawNumber(const char* s, rapidjson::SizeType len, bool) {
    JNode n = MakeNode(JNode::kNumber);
    n.str.assign(s, len);
    return Add(std::move(n));
  }
  bool String(const char* s, rapidjson::SizeType len, bool) {
    JNode n = MakeNode(JNode::kString);
    n.str.assign(s, len);
    return Add(std::move(n));
  }
  bool Key(const char* s, rapidjson::SizeType len, bool) {
    key_.assign(s, len);
    return true;
  }
  bool StartObject() { return Start(JNode::kObject); }
  bool EndObject(rapidjson::SizeType) { return End(); }
  bool StartArray() { return Start(JNode::kArray); }
  bool EndArray(rapidjson::SizeType) { return End(); }

 private:
  bool Start(JNode::Type type) {
    JNode n = MakeNode(type);
    n.offset = stream_->Tell();
    pending_keys_.push_back(key_);
    stack_.push_back(std::move(n));
    return true;
  }
  bool End() {
    JNode n = std::move(stack_.back());
    stack_.pop_back();
    key_ = pending_keys_.back();
    pending_keys_.pop_back();
    return Add(std::move(n), /*keep_offset=*/true);
  }
  bool Add(JNode n, bool keep_offset = false) {
    if (!keep_offset) n.offset = stream_->Tell();
    if (stack_.empty()) {
      root = std::move(n);
      return true;
    }
    JNode& parent = stack_.back();
    if (parent.type == JNode::kObject) parent.keys.push_back(key_);
    parent.items.push_back(std::move(n));
    return true;
  }

  const rapidjson::StringStream* stream_;
  std::vector<JNode> stack_;
  std::vector<std::string> pending_keys_;
  std::string key_;
};

struct OffsetMapper {
  absl::string_view text;
  std::pair<int, int> LineColumn(size_t offset) const {
    int line = 1, column = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return {line, column};
  }
};

// ----------------------------------------------------------------- DOT ----

std::string DotQuote(absl::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
  return out;
}

}  // namespace

absl::StatusOr<Kripke> ParseKripkeText(absl::string_view text, const std::string& source,
                                       DeadlockPolicy policy) {
  std::vector<Line> lines;
  int number = 0;
  for (absl::string_view raw : absl::StrSplit(text, '\n')) {
    ++number;
    Line line{number, {}};
    TS_RETURN_IF_ERROR(Tokenize(raw, number, source, &line.tokens));
    if (!line.tokens.empty()) lines.push_back(std::move(line));
  }
  KripkeBuilder b(source);
  for (const Line& line : lines) {
    if (!IsKeywordToken(line.tokens[0], "states")) continue;
    for (size_t i = 1; i < line.tokens.size(); ++i) {
      const Token& t = line.tokens[i];
      if (t.kind != Token::kName)
        return InputError(source, line.number, t.column,
                          absl::StrCat("expected a state name, found '", t.text, "'"));
      TS_RETURN_IF_ERROR(b.AddState(t.text, line.number).status());
    }
  }
  for (const Line& line : lines) {
    const std::vector<Token>& t = line.tokens;
    const int n = line.number;
    if (IsKeywordToken(t[0], "states")) continue;
    if (IsKeywordToken(t[0], "init")) {
      size_t end = t.size();
      std::string action;
      if (t.back().kind == Token::kAction) {
        action = t.back().text;
        --end;
      }
      if (end < 2) return InputError(source, n, t[0].column, "`init` needs at least one state");
      for (size_t i = 1; i < end; ++i) {
        TS_ASSIGN_OR_RETURN(uint32_t s, Resolve(b, t[i], n));
        b.AddInitial(s, action);
      }
      continue;
    }
    if (IsKeywordToken(t[0], "label")) {
      if (t.size() < 3 || t[1].kind != Token::kName || t[2].kind != Token::kColon)
        return InputError(source, n, t[0].column, "expected `label PROPOSITION: STATE...`");
      TS_RETURN_IF_ERROR(b.DeclareLabel(t[1].text, n));
      for (size_t i = 3; i < t.size(); ++i) {
        TS_ASSIGN_OR_RETURN(uint32_t s, Resolve(b, t[i], n));
        TS_RETURN_IF_ERROR(b.AddLabel(t[1].text, s, n));
      }
      continue;
    }
    if (t.size() >= 2 && t[0].kind == Token::kName && t[1].kind == Token::kArrow) {
      TS_ASSIGN_OR_RETURN(uint32_t from, Resolve(b, t[0], n));
      size_t end = t.size();
      int32_t action = -1;
      if (t.back().kind == Token::kAction) {
        action = b.InternAction(t.back().text);
        --end;
      }
      if (end <= 2) return InputError(source, n, t[1].column, "`->` needs at least one target state");
      for (size_t i = 2; i < end; ++i) {
        TS_ASSIGN_OR_RETURN(uint32_t to, Resolve(b, t[i], n));
        b.AddTransition(from, to, action);
      }
      continue;
    }
    return InputError(source, n, t[0].column,
                      "expected `states ...`, `init ...`, `label p: ...` or `s -> t ...`");
  }
  return std::move(b).Build(policy);
}

absl::StatusOr<Kripke> ParseKripkeJson(absl::string_view text, const std::string& source,
                                       DeadlockPolicy policy) {
  const std::string copy(text);
  rapidjson::StringStream stream(copy.c_str());
  TreeHandler handler(&stream);
  rapidjson::Reader reader;
  OffsetMapper mapper{text};
  rapidjson::ParseResult ok = reader.Parse<rapidjson::kParseNumbersAsStringsFlag>(stream, handler);
  if (!ok) {
    auto [line, column] = mapper.LineColumn(ok.Offset());
    return InputError(source, line, column,
                      absl::StrCat("invalid JSON: ", rapidjson::GetParseError_En(ok.Code())));
  }
  auto error = [&](const JNode& at, absl::string_view message) {
    auto [line, column] = mapper.LineColumn(at.offset);
    return InputError(source, line, column, message);
  };
  const JNode& root = handler.root;
  if (root.type != JNode::kObject) return error(root, "the model must be a JSON object");
  const JNode* states = nullptr;
  const JNode* init = nullptr;
  const JNode* labels = nullptr;
  const JNode* transitions = nullptr;
  for (size_t i = 0; i < root.items.size(); ++i) {
    const std::string& key = root.keys[i];
    if (key == "states") states = &root.items[i];
    else if (key == "init") init = &root.items[i];
    else if (key == "labels") labels = &root.items[i];
    else if (key == "transitions") transitions = &root.items[i];
    else return error(root.items[i], absl::StrCat("unknown member \"", key, "\""));
  }
  if (!states || states->type != JNode::kArray)
    return error(states ? *states : root, "\"states\" must be an array of names");
  KripkeBuilder b(source);
  for (const JNode& s : states->items) {
    if (s.type != JNode::kString) return error(s, "a state name must be a string");
    TS_RETURN_IF_ERROR(b.AddState(s.str, mapper.LineColumn(s.offset).first).status());
  }
  auto resolve = [&](const JNode& s) -> absl::StatusOr<uint32_t> {
    if (s.type != JNode::kString) return error(s, "a state name must be a string");
    std::optional<uint32_t> id = b.FindState(s.str);
    if (!id) return error(s, absl::StrCat("unknown state '", s.str, "' (not in \"states\")"));
    return *id;
  };
  if (!init) return error(root, "missing \"init\"");
  if (init->type == JNode::kString) {
    TS_ASSIGN_OR_RETURN(uint32_t s, resolve(*init));
    b.AddInitial(s);
  } else if (init->type == JNode::kArray) {
    for (const JNode& s : init->items) {
      TS_ASSIGN_OR_RETURN(uint32_t id, resolve(s));
      b.AddInitial(id);
    }
  } else {
    return error(*init, "\"init\" must be a state name or an array of names");
  }
  if (labels) {
    if (labels->type != JNode::kObject) return error(*labels, "\"labels\" must be an object");
    for (size_t i = 0; i < labels->items.size(); ++i) {
      const JNode& list = labels->items[i];
      const int line = mapper.LineColumn(list.offset).first;
      if (list.type != JNode::kArray) return error(list, "a label maps to an array of state names");
      TS_RETURN_IF_ERROR(b.DeclareLabel(labels->keys[i], line));
      for (const JNode& s : list.items) {
        TS_ASSIGN_OR_RETURN(uint32_t id, resolve(s));
        TS_RETURN_IF_ERROR(b.AddLabel(labels->keys[i], id, line));
      }
    }
  }
  if (transitions) {
    if (transitions->type != JNode::kArray) return error(*transitions, "\"transitions\" must be an array");
    for (const JNode& t : transitions->items) {
      const JNode* from = nullptr;
      const JNode* to = nullptr;
      const JNode* action = nullptr;
      if (t.type == JNode::kArray && (t.items.size() == 2 || t.items.size() == 3)) {
        from = &t.items[0];
        to = &t.items[1];
        if (t.items.size() == 3) action = &t.items[2];
      } else if (t.type == JNode::kObject) {
        for (size_t i = 0; i < t.items.size(); ++i) {
          if (t.keys[i] == "from") from = &t.items[i];
          else if (t.keys[i] == "to") to = &t.items[i];
          else if (t.keys[i] == "action") action = &t.items[i];
          else return error(t.items[i], absl::StrCat("unknown member \"", t.keys[i], "\" of a transition"));
        }
      }
      if (!from || !to)
        return error(t, "a transition is [from, to], [from, to, action] or {\"from\", \"to\", \"action\"}");
      TS_ASSIGN_OR_RETURN(uint32_t f, resolve(*from));
      TS_ASSIGN_OR_RETURN(uint32_t d, resolve(*to));
      int32_t a = -1;
      if (action) {
        if (action->type != JNode::kString) return error(*action, "an action must be a string");
        a = b.InternAction(action->str);
      }
      b.AddTransition(f, d, a);
    }
  }
  return std::move(b).Build(policy);
}

absl::StatusOr<Kripke> ParseAldebaran(absl::string_view text, const std::string& source,
                                      DeadlockPolicy policy) {
  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  size_t i = 0;
  while (i < lines.size() && absl::StripAsciiWhitespace(lines[i]).empty()) ++i;
  if (i == lines.size()) return InputError(source, 1, 0, "empty file: expected `des (first, ntransitions, nstates)`");
  const int header_line = static_cast<int>(i) + 1;
  absl::string_view header = absl::StripAsciiWhitespace(lines[i]);
  uint64_t first = 0, ntrans = 0, nstates = 0;
  {
    const size_t open = header.find('('), close = header.rfind(')');
    std::vector<absl::string_view> parts;
    if (absl::StartsWith(header, "des") && open != absl::string_view::npos &&
        close != absl::string_view::npos && close > open)
      parts = absl::StrSplit(header.substr(open + 1, close - open - 1), ',');
    if (parts.size() != 3 || !absl::SimpleAtoi(absl::StripAsciiWhitespace(parts[0]), &first) ||
        !absl::SimpleAtoi(absl::StripAsciiWhitespace(parts[1]), &ntrans) ||
        !absl::SimpleAtoi(absl::StripAsciiWhitespace(parts[2]), &nstates))
      return InputError(source, header_line, 1, "expected `des (first, ntransitions, nstates)`");
    if (nstates == 0 || nstates >= (uint64_t{1} << 31) || first >= nstates)
      return InputError(source, header_line, 1, "the initial state must be below the number of states");
  }
  KripkeBuilder b(source);
  for (uint64_t s = 0; s < nstates; ++s)
    TS_RETURN_IF_ERROR(b.AddState(absl::StrCat("s", s), header_line).status());
  b.AddInitial(static_cast<uint32_t>(first));
  uint64_t count = 0;
  for (++i; i < lines.size(); ++i) {
    const int n = static_cast<int>(i) + 1;
    absl::string_view line = absl::StripAsciiWhitespace(lines[i]);
    if (line.empty()) continue;
    const size_t first_comma = line.find(','), last_comma = line.rfind(',');
    if (line.front() != '(' || line.back() != ')' || first_comma == absl::string_view::npos ||
        first_comma == last_comma)
      return InputError(source, n, 1, "expected `(from, \"action\", to)`");
    uint64_t from = 0, to = 0;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(line.substr(1, first_comma - 1)), &from) ||
        !absl::SimpleAtoi(absl::StripAsciiWhitespace(line.substr(last_comma + 1, line.size() - last_comma - 2)), &to))
      return InputError(source, n, 1, "expected state numbers in `(from, \"action\", to)`");
    if (from >= nstates || to >= nstates)
      return InputError(source, n, 1,
                        absl::StrCat("unknown state ", from >= nstates ? from : to, " (the header declares ",
                                     nstates, " states)"));
    std::string action(absl::StripAsciiWhitespace(line.substr(first_comma + 1, last_comma - first_comma - 1)));
    if (action.size() >= 2 && action.front() == '"' && action.back() == '"')
      action = action.substr(1, action.size() - 2);
    const std::string middle = absl::StrCat("s", from, ".", action, ".s", to);
    ++count;
    if (b.FindState(middle)) continue;  // the same transition twice
    TS_ASSIGN_OR_RETURN(uint32_t m, b.AddState(middle, n));
    TS_RETURN_IF_ERROR(b.AddLabel(action, m, n));
    b.AddTransition(static_cast<uint32_t>(from), m, b.InternAction(action));
    b.AddTransition(m, static_cast<uint32_t>(to));
  }
  if (count != ntrans)
    return InputError(source, header_line, 1,
                      absl::StrCat("the header declares ", ntrans, " transitions, the file has ", count));
  return std::move(b).Build(policy);
}

absl::StatusOr<Kripke> ReadKripkeFile(const std::string& path, DeadlockPolicy policy) {
  TS_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  if (absl::EndsWith(path, ".json")) return ParseKripkeJson(text, path, policy);
  if (absl::EndsWith(path, ".aut")) return ParseAldebaran(text, path, policy);
  return ParseKripkeText(text, path, policy);
}

std::string WriteKripkeText(const Kripke& model, const std::vector<std::string>& header) {
  std::string out;
  for (const std::string& h : header) absl::StrAppend(&out, "# ", h, "\n");
  const uint32_t n = model.num_states();
  for (uint32_t s = 0; s < n; s += 16) {
    out += "states";
    for (uint32_t i = s; i < n && i < s + 16; ++i) absl::StrAppend(&out, " ", QuoteName(model.StateName(i)));
    out += "\n";
  }
  // Initial states grouped by the action that creates them.
  std::map<std::string, std::vector<uint32_t>> init_by_action;
  for (uint32_t s : model.initial_states()) init_by_action[model.InitialAction(s)].push_back(s);
  for (const auto& [action, states] : init_by_action) {
    out += "init";
    for (uint32_t s : states) absl::StrAppend(&out, " ", QuoteName(model.StateName(s)));
    if (!action.empty()) absl::StrAppend(&out, " [", action, "]");
    out += "\n";
  }
  for (size_t l = 0; l < model.num_labels(); ++l) {
    absl::StrAppend(&out, "label ", QuoteName(model.label_name(l)), ":");
    model.label_states(l).ForEach(
        [&](uint32_t s) { absl::StrAppend(&out, " ", QuoteName(model.StateName(s))); });
    out += "\n";
  }
  StateSet looped(n);
  for (uint32_t s : model.self_loops_added()) looped.Insert(s);
  if (!model.self_loops_added().empty()) {
    out += "# without successors (the self-loop deadlock policy adds s -> s):";
    for (uint32_t s : model.self_loops_added()) absl::StrAppend(&out, " ", QuoteName(model.StateName(s)));
    out += "\n";
  }
  for (uint32_t s = 0; s < n; ++s) {
    if (looped.Contains(s)) continue;
    std::map<std::string, std::vector<uint32_t>> by_action;
    for (const uint32_t* t = model.SuccBegin(s); t != model.SuccEnd(s); ++t)
      by_action[model.Action(s, *t)].push_back(*t);
    for (const auto& [action, targets] : by_action) {
      absl::StrAppend(&out, QuoteName(model.StateName(s)), " ->");
      for (uint32_t t : targets) absl::StrAppend(&out, " ", QuoteName(model.StateName(t)));
      if (!action.empty()) absl::StrAppend(&out, " [", action, "]");
      out += "\n";
    }
  }
  return out;
}

std::string ToDot(const Kripke& model, const DotView& view) {
  const uint32_t n = model.num_states();
  StateSet shown = view.states.size() == n ? view.states : StateSet(n, /*full=*/true);
  StateSet looped(n);
  for (uint32_t s : model.self_loops_added()) looped.Insert(s);
  std::string out = "digraph kripke {\n  rankdir=LR;\n  node [shape=ellipse, fontname=\"Helvetica\"];\n";
  if (!view.title.empty()) absl::StrAppend(&out, "  label=", DotQuote(view.title), ";\n  labelloc=t;\n");
  int init_index = 0;
  for (uint32_t s : model.initial_states()) {
    if (!shown.Contains(s)) continue;
    const std::string action = model.InitialAction(s);
    absl::StrAppend(&out, "  __init", init_index, " [shape=point];\n  __init", init_index, " -> ",
                    DotQuote(model.StateName(s)),
                    action.empty() ? "" : absl::StrCat(" [label=", DotQuote(action), "]"), ";\n");
    ++init_index;
  }
  shown.ForEach([&](uint32_t s) {
    std::vector<std::string> props;
    for (size_t l = 0; l < model.num_labels(); ++l)
      if (model.label_states(l).Contains(s)) props.push_back(model.label_name(l));
    std::string label = model.StateName(s);
    if (!props.empty()) absl::StrAppend(&label, "\n{", absl::StrJoin(props, ", "), "}");
    absl::StrAppend(&out, "  ", DotQuote(model.StateName(s)), " [label=", DotQuote(label), "];\n");
  });
  std::map<std::pair<uint32_t, uint32_t>, std::vector<std::string>> highlighted;
  for (const auto& [from, to, label] : view.highlight) highlighted[{from, to}].push_back(label);
  shown.ForEach([&](uint32_t s) {
    for (const uint32_t* t = model.SuccBegin(s); t != model.SuccEnd(s); ++t) {
      if (!shown.Contains(*t)) continue;
      std::vector<std::string> attrs;
      const std::string action = model.Action(s, *t);
      auto it = highlighted.find({s, *t});
      std::string label = action;
      if (it != highlighted.end()) {
        label = absl::StrJoin(it->second, "; ") + (action.empty() ? "" : absl::StrCat(" (", action, ")"));
        attrs.push_back("color=red");
        attrs.push_back("penwidth=2");
      } else if (looped.Contains(s) && *t == s) {
        attrs.push_back("style=dashed");
      } else if (!view.highlight.empty()) {
        attrs.push_back("color=gray");
      }
      if (!label.empty()) attrs.push_back("label=" + DotQuote(label));
      absl::StrAppend(&out, "  ", DotQuote(model.StateName(s)), " -> ", DotQuote(model.StateName(*t)),
                      attrs.empty() ? "" : absl::StrCat(" [", absl::StrJoin(attrs, ", "), "]"), ";\n");
    }
  });
  out += "}\n";
  return out;
}

}  // namespace tracespec::ctl

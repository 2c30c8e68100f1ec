// Tests for the model readers (text, JSON, Aldebaran) and writers (text, DOT),
// including the messages for bad input.
#include "validator/ctl/kripke_io.h"

#include "gtest/gtest.h"

namespace tracespec::ctl {
namespace {

constexpr char kLoan[] = R"(# loan
states s0 s1 s2
states s3 s4   # second line
init s0
label g: s3
label bad: s4
s0 -> s1 [submit]
s1 -> s2
s2 -> s1 s3
s3 -> s3
s4 -> s4
)";

std::string ErrorOf(absl::StatusOr<Kripke> model) {
  EXPECT_FALSE(model.ok());
  return model.ok() ? "" : std::string(model.status().message());
}

TEST(KripkeText, ReadsStatesLabelsTransitionsAndActions) {
  auto m = ParseKripkeText(kLoan, "loan.kripke", DeadlockPolicy::kError);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->num_states(), 5u);
  EXPECT_EQ(m->num_transitions(), 6u);
  ASSERT_EQ(m->initial_states().size(), 1u);
  EXPECT_EQ(m->StateName(m->initial_states()[0]), "s0");
  EXPECT_TRUE(m->HasTransition(*m->FindState("s2"), *m->FindState("s1")));
  EXPECT_FALSE(m->HasTransition(*m->FindState("s1"), *m->FindState("s0")));
  EXPECT_EQ(m->Action(0, 1), "submit");
  EXPECT_EQ(m->Action(1, 2), "");
  auto g = m->Proposition("g");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->Count(), 1u);
  EXPECT_TRUE(g->Contains(3));
  auto s2 = m->Proposition("s2");  // state names are propositions
  ASSERT_TRUE(s2);
  EXPECT_TRUE(s2->Contains(2));
  EXPECT_EQ(s2->Count(), 1u);
  EXPECT_FALSE(m->Proposition("nope"));
  const uint32_t s2_id = *m->FindState("s2");
  EXPECT_EQ(std::vector<uint32_t>(m->PredBegin(s2_id), m->PredEnd(s2_id)), std::vector<uint32_t>({1}));
  StateSet reach = m->Reachable();
  EXPECT_FALSE(reach.Contains(4));
  EXPECT_EQ(reach.Count(), 4u);
}

TEST(KripkeText, RoundTripsThroughTheWriter) {
  auto m = ParseKripkeText(kLoan, "loan.kripke", DeadlockPolicy::kError);
  ASSERT_TRUE(m.ok());
  const std::string text = WriteKripkeText(*m, {"header"});
  EXPECT_NE(text.find("# header\n"), std::string::npos);
  EXPECT_NE(text.find("s0 -> s1 [submit]\n"), std::string::npos);
  EXPECT_NE(text.find("s2 -> s1 s3\n"), std::string::npos);
  auto again = ParseKripkeText(text, "again", DeadlockPolicy::kError);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(WriteKripkeText(*again, {"header"}), text);
}

TEST(KripkeText, QuotedNamesRoundTrip) {
  auto m = ParseKripkeText("states \"a b\" c\ninit \"a b\"\nlabel \"x y\": c\n\"a b\" -> c\nc -> c\n", "q",
                           DeadlockPolicy::kError);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(m->FindState("a b"));
  const std::string text = WriteKripkeText(*m);
  EXPECT_NE(text.find("\"a b\" -> c"), std::string::npos);
  EXPECT_TRUE(ParseKripkeText(text, "q2", DeadlockPolicy::kError).ok());
}

TEST(KripkeText, InitialStatesCarryTheActionThatCreatesThem) {
  constexpr char kText[] = "states a b c\ninit a [new C(int[])]\ninit b [new C()]\ninit a [new C()]\ninit c\n"
                           "a -> b [m(int[][])]\nb -> c\nc -> a\n";
  auto m = ParseKripkeText(kText, "init.kripke", DeadlockPolicy::kError);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->InitialAction(0), "new C(), new C(int[])");  // brackets nest
  EXPECT_EQ(m->InitialAction(1), "new C()");
  EXPECT_EQ(m->InitialAction(2), "");
  EXPECT_EQ(m->Action(0, 1), "m(int[][])");
  const std::string written = WriteKripkeText(*m);
  EXPECT_NE(written.find("init c\ninit b [new C()]\ninit a [new C(), new C(int[])]\n"), std::string::npos) << written;
  auto again = ParseKripkeText(written, "again", DeadlockPolicy::kError);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(WriteKripkeText(*again), written);
  EXPECT_NE(ToDot(*m).find("[label=\"new C()\"]"), std::string::npos);
}

TEST(KripkeText, BadInputNamesLineAndColumn) {
  EXPECT_EQ(ErrorOf(ParseKripkeText("states a b\ninit a\na -> b\nb -> c\n", "m.kripke", DeadlockPolicy::kError)),
            "m.kripke:4:6: unknown state 'c' (not declared by a `states` line)");
  EXPECT_EQ(ErrorOf(ParseKripkeText("states a\nstates a\ninit a\na -> a\n", "m", DeadlockPolicy::kError)),
            "m:2: state 'a' declared twice (first on line 1)");
  EXPECT_EQ(ErrorOf(ParseKripkeText("states a\ninit a\nlabel p a\n", "m", DeadlockPolicy::kError)),
            "m:3:1: expected `label PROPOSITION: STATE...`");
  EXPECT_EQ(ErrorOf(ParseKripkeText("states a\ninit a\na ->\n", "m", DeadlockPolicy::kError)),
            "m:3:3: `->` needs at least one target state");
  EXPECT_EQ(ErrorOf(ParseKripkeText("states a\ninit a\na -> a ; b\n", "m", DeadlockPolicy::kError)),
            "m:3:8: unexpected character ';' (quote names that use it)");
  EXPECT_EQ(ErrorOf(ParseKripkeText("states a\na -> a\n", "m", DeadlockPolicy::kError)),
            "m: the model has no initial state");
  EXPECT_EQ(ErrorOf(ParseKripkeText("states a b\ninit a\nlabel a: b\na -> b\nb -> a\n", "m", DeadlockPolicy::kError)),
            "m:3: proposition 'a' is also a state's name (a state's name already holds exactly in that state)");
  EXPECT_EQ(ErrorOf(ParseKripkeText("states a b\ninit a\nfoo bar\n", "m", DeadlockPolicy::kError)),
            "m:3:1: expected `states ...`, `init ...`, `label p: ...` or `s -> t ...`");
}

TEST(KripkeText, DeadlocksAreErrorsOrSelfLoops) {
  const char* text = "states a\nstates b c\ninit a\na -> b c\n";
  EXPECT_EQ(ErrorOf(ParseKripkeText(text, "m.kripke", DeadlockPolicy::kError)),
            "m.kripke:2: states 'b', 'c' have no successor (deadlock); CTL needs every state to have one: "
            "add a transition, or choose the self-loop deadlock policy");
  auto m = ParseKripkeText(text, "m.kripke", DeadlockPolicy::kSelfLoop);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->self_loops_added(), std::vector<uint32_t>({1, 2}));
  EXPECT_TRUE(m->HasTransition(1, 1));
  const std::string written = WriteKripkeText(*m);
  EXPECT_EQ(written.find("b -> b"), std::string::npos);
  EXPECT_NE(written.find("# without successors (the self-loop deadlock policy adds s -> s): b c"),
            std::string::npos);
}

TEST(KripkeJson, ReadsTheSameModel) {
  const char* json = R"({
  "states": ["s0", "s1", "s2"],
  "init": "s0",
  "labels": {"g": ["s2"], "never": []},
  "transitions": [["s0", "s1", "go"], {"from": "s1", "to": "s2"}, ["s2", "s2"], ["s1", "s0"]]
})";
  auto m = ParseKripkeJson(json, "m.json", DeadlockPolicy::kError);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->num_states(), 3u);
  EXPECT_EQ(m->num_transitions(), 4u);
  EXPECT_EQ(m->Action(0, 1), "go");
  EXPECT_TRUE(m->Proposition("never"));
  EXPECT_TRUE(m->Proposition("never")->Empty());
  EXPECT_TRUE(m->Proposition("g")->Contains(2));
}

TEST(KripkeJson, ErrorsNameTheLine) {
  EXPECT_EQ(ErrorOf(ParseKripkeJson("{\"states\": [\"a\"],\n \"init\": \"a\",\n \"transitions\": [[\"a\", \"b\"]]}", "m.json",
                                    DeadlockPolicy::kError)),
            "m.json:3:24: unknown state 'b' (not in \"states\")");
  EXPECT_EQ(ErrorOf(ParseKripkeJson("{\"states\": [\"a\"],\n \"init\": }", "m.json", DeadlockPolicy::kError)),
            "m.json:2:10: invalid JSON: Invalid value.");
  EXPECT_EQ(ErrorOf(ParseKripkeJson("{\"states\": [\"a\"], \"init\": \"a\", \"edges\": []}", "m.json",
                                    DeadlockPolicy::kError)),
            "m.json:1:42: unknown member \"edges\"");
}

TEST(Aldebaran, ActionsBecomeIntermediateStates) {
  const char* aut = "des (0, 3, 3)\n(0, \"submit\", 1)\n(1, approve, 2)\n(2, \"i\", 2)\n";
  auto m = ParseAldebaran(aut, "m.aut", DeadlockPolicy::kError);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->num_states(), 6u);
  EXPECT_EQ(m->num_transitions(), 6u);
  auto mid = m->FindState("s0.submit.s1");
  ASSERT_TRUE(mid);
  EXPECT_TRUE(m->HasTransition(*m->FindState("s0"), *mid));
  EXPECT_TRUE(m->HasTransition(*mid, *m->FindState("s1")));
  EXPECT_TRUE(m->Proposition("approve")->Contains(*m->FindState("s1.approve.s2")));
  EXPECT_EQ(m->Action(*m->FindState("s0"), *mid), "submit");
  EXPECT_EQ(m->initial_states(), std::vector<uint32_t>({*m->FindState("s0")}));
}

TEST(Aldebaran, BadInput) {
  EXPECT_EQ(ErrorOf(ParseAldebaran("des (0, 1, 2)\n(0, \"a\", 5)\n", "m.aut", DeadlockPolicy::kError)),
            "m.aut:2:1: unknown state 5 (the header declares 2 states)");
  EXPECT_EQ(ErrorOf(ParseAldebaran("des (0, 2, 2)\n(0, \"a\", 1)\n(1, \"a\", 1)\n(1, \"b\", 0)\n", "m.aut",
                                   DeadlockPolicy::kError)),
            "m.aut:1:1: the header declares 2 transitions, the file has 3");
  EXPECT_EQ(ErrorOf(ParseAldebaran("hello\n", "m.aut", DeadlockPolicy::kError)),
            "m.aut:1:1: expected `des (first, ntransitions, nstates)`");
  EXPECT_EQ(ErrorOf(ParseAldebaran("des (0, 1, 2)\n(0, \"a\", 1)\n", "m.aut", DeadlockPolicy::kError)).substr(0, 30),
            "m.aut:1: state 's1' has no suc");
}

TEST(Dot, DrawsStatesPropositionsAndHighlights) {
  auto m = ParseKripkeText(kLoan, "loan.kripke", DeadlockPolicy::kError);
  ASSERT_TRUE(m.ok());
  const std::string all = ToDot(*m);
  EXPECT_NE(all.find("\"s3\" [label=\"s3\\n{g}\"]"), std::string::npos) << all;
  EXPECT_NE(all.find("__init0 -> \"s0\""), std::string::npos);
  EXPECT_NE(all.find("\"s0\" -> \"s1\" [label=\"submit\"]"), std::string::npos);
  DotView view;
  view.states = StateSet(m->num_states());
  view.states.Insert(0);
  view.states.Insert(1);
  view.highlight.emplace_back(0, 1, "f1.1");
  const std::string part = ToDot(*m, view);
  EXPECT_EQ(part.find("\"s3\""), std::string::npos);
  EXPECT_NE(part.find("\"s0\" -> \"s1\" [color=red, penwidth=2, label=\"f1.1 (submit)\"]"), std::string::npos)
      << part;
}

}  // namespace
}  // namespace tracespec::ctl

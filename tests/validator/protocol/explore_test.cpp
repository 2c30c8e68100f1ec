// Exploring protocols from bytecode: classes compiled with the real javac,
// executed symbolically on the real Z3. Checks the exact transition graphs,
// the value domains, exceptional exits, free arguments and enum arguments,
// deepening loop bounds, unbounded fields, comparisons with mined graphs and
// traces rendered as calls.
#include "validator/protocol/explore.h"

#include <set>

#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"
#include "validator/ctl/check.h"
#include "validator/protocol/compare.h"
#include "validator/protocol/report.h"

namespace tracespec::protocol {
namespace {

using ::testing::HasSubstr;

const char* kDoor = R"java(
package p;

public class Door {
  public enum State { OPEN, CLOSED, LOCKED }
  private State state = State.CLOSED;
  private int code;
  private boolean alarm;

  public Door(int code) {
    if (code < 0) throw new IllegalArgumentException("code");
    this.code = code;
  }
  public Door() { this(0); }

  public void open() {
    if (state != State.CLOSED) throw new IllegalStateException("not closed");
    state = State.OPEN;
  }
  public void close() {
    if (state == State.OPEN) state = State.CLOSED;
  }
  public void lock(int key) {
    if (state != State.CLOSED) throw new IllegalStateException("not closed");
    if (key != code) { alarm = true; return; }
    state = State.LOCKED;
  }
  public void unlock(int key) {
    if (state == State.LOCKED && key == code) state = State.CLOSED;
  }
  // Changes the state, then throws: the exit heap keeps the change.
  public void kick() {
    if (state == State.LOCKED) {
      alarm = true;
      state = State.CLOSED;
      throw new UnsupportedOperationException("broken");
    }
  }
  public State getState() { return state; }
  public boolean alarmed() { return alarm; }
  static void helper() {}
  private void secret() { state = State.OPEN; }
}
)java";

const char* kMisc = R"java(
package p;

public class Misc {
  public enum Mode { A, B }
  private Mode mode = Mode.A;
  private boolean flag;
  private int phase;
  private int count;
  private String name = "x";
  private double level;
  private static int shared;
  private int[] data;

  public void set(boolean b) { flag = b; }
  public void mode(Mode m) { mode = m; }
  public void step() { phase = (phase + 1) % 3; }
  public void inc() { count++; }
  public void fixedLoop() {
    int sum = 0;
    for (int i = 0; i < 5; i++) sum += i;
    if (sum == 10) flag = !flag;
  }
  public void freeLoop(int n) {
    for (int i = 0; i < n; i++) phase = 0;
  }
  public void any(int v) { count = v; }
}
)java";

const char* kInherited = R"java(
package p;

public class Switch {
  protected boolean on;
  public void toggle() { on = !on; }
  public void reset() { on = true; }
}
)java";

const char* kDerived = R"java(
package p;

public class QuietSwitch extends Switch {
  @Override public void reset() { on = false; }
  public boolean isOn() { return on; }
}
)java";

class ExploreTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    classes_ = new std::string(testing::CompileJava(*dir_, {{"p/Door.java", kDoor}, {"p/Misc.java", kMisc}, {"p/Switch.java", kInherited},
                                                      {"p/QuietSwitch.java", kDerived}}, {"-g"}));
  }
  static void TearDownTestSuite() {
    delete classes_;
    delete dir_;
  }

  static ExploreOptions Options(const std::string& cls, std::vector<std::string> fields) {
    ExploreOptions o;
    o.class_path = *classes_;
    o.class_name = cls;
    o.state_fields = std::move(fields);
    o.timeout_seconds = 120;
    return o;
  }
  static std::vector<std::string> Transitions(const ExploredProtocol& e) {
    std::vector<std::string> out;
    for (const Transition& t : e.graph.transitions) out.push_back(TransitionText(t));
    return out;
  }

  static testing::TempDir* dir_;
  static std::string* classes_;
};

testing::TempDir* ExploreTest::dir_ = nullptr;
std::string* ExploreTest::classes_ = nullptr;

TEST_F(ExploreTest, EnumStateGivesTheExactGraphWithExceptionalExits) {
  auto e = ExploreProtocol(Options("p.Door", {"state"}));
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_TRUE(e->incomplete.empty()) << absl::StrJoin(e->incomplete, "\n");
  EXPECT_THAT(e->constructors, ::testing::UnorderedElementsAre("new Door(int)", "new Door()"));
  // Public instance methods only: not the static helper, not the private one.
  EXPECT_THAT(e->methods, ::testing::UnorderedElementsAre("open()", "close()", "lock(int)", "unlock(int)", "kick()",
                                                          "getState()", "alarmed()"));
  ASSERT_EQ(e->graph.initial.size(), 1u);
  EXPECT_EQ(e->graph.initial.begin()->first, "state=CLOSED");
  EXPECT_THAT(e->graph.initial.begin()->second, ::testing::ElementsAre("new Door()", "new Door(int)"));
  EXPECT_THAT(e->notes, ::testing::ElementsAre(
                            "new Door(int) throws java.lang.IllegalArgumentException for some arguments (no object "
                            "is created then)"));
  EXPECT_THAT(Transitions(*e),
              ::testing::UnorderedElementsAre(
                  "state=CLOSED -[open]-> state=OPEN", "state=CLOSED -[close]-> state=CLOSED",
                  "state=CLOSED -[lock]-> state=CLOSED", "state=CLOSED -[lock]-> state=LOCKED",
                  "state=CLOSED -[unlock]-> state=CLOSED", "state=CLOSED -[kick]-> state=CLOSED",
                  "state=CLOSED -[getState]-> state=CLOSED", "state=CLOSED -[alarmed]-> state=CLOSED",
                  "state=OPEN -[open!IllegalStateException]-> state=OPEN", "state=OPEN -[close]-> state=CLOSED",
                  "state=OPEN -[lock!IllegalStateException]-> state=OPEN", "state=OPEN -[unlock]-> state=OPEN",
                  "state=OPEN -[kick]-> state=OPEN", "state=OPEN -[getState]-> state=OPEN",
                  "state=OPEN -[alarmed]-> state=OPEN",
                  "state=LOCKED -[open!IllegalStateException]-> state=LOCKED",
                  "state=LOCKED -[close]-> state=LOCKED",
                  "state=LOCKED -[lock!IllegalStateException]-> state=LOCKED",
                  "state=LOCKED -[unlock]-> state=LOCKED", "state=LOCKED -[unlock]-> state=CLOSED",
                  "state=LOCKED -[kick!UnsupportedOperationException]-> state=CLOSED",
                  "state=LOCKED -[getState]-> state=LOCKED", "state=LOCKED -[alarmed]-> state=LOCKED"));
  // The enum's other values are propositions even where no state has them.
  EXPECT_TRUE(e->model.Proposition("state=null").has_value());
  EXPECT_EQ(e->model.Proposition("state=null")->Count(), 0u);
  EXPECT_THAT(e->text, HasSubstr("init state=CLOSED [new Door(), new Door(int)]\n"));
  EXPECT_THAT(e->text, HasSubstr("label state=null:\n"));
}

TEST_F(ExploreTest, TwoFieldsAndFreeArguments) {
  auto e = ExploreProtocol(Options("p.Door", {"state", "alarm"}));
  ASSERT_TRUE(e.ok()) << e.status();
  // alarm starts false; a wrong key raises it; kicking a locked door too.
  EXPECT_THAT(Transitions(*e), ::testing::IsSupersetOf({
                                   "state=CLOSED,alarm=false -[lock]-> state=CLOSED,alarm=true",
                                   "state=CLOSED,alarm=false -[lock]-> state=LOCKED,alarm=false",
                                   "state=LOCKED,alarm=false -[kick!UnsupportedOperationException]-> "
                                   "state=CLOSED,alarm=true",
                               }));
  EXPECT_EQ(e->graph.states.size(), 6u);  // {OPEN, CLOSED, LOCKED} x {false, true}
  auto report = ctl::CheckFormulas(e->model, {"AG (alarm=true -> AG alarm=true)", "EF state=LOCKED"}, {});
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->results[0].holds);
  EXPECT_TRUE(report->results[1].holds);
}

TEST_F(ExploreTest, BooleansBoundedIntsAndLoops) {
  ExploreOptions o = Options("p.Misc", {"flag", "phase"});
  o.methods = {"set", "step", "fixedLoop"};
  auto e = ExploreProtocol(o);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_TRUE(e->incomplete.empty()) << absl::StrJoin(e->incomplete, "\n");
  EXPECT_EQ(e->graph.states.size(), 6u);  // 2 flags x 3 phases
  EXPECT_THAT(Transitions(*e), ::testing::IsSupersetOf({
                                   "flag=false,phase=0 -[set]-> flag=true,phase=0",
                                   "flag=false,phase=0 -[set]-> flag=false,phase=0",
                                   "flag=false,phase=2 -[step]-> flag=false,phase=0",
                                   // The loop needs 5 iterations: the bound grows from 2 to 8.
                                   "flag=false,phase=0 -[fixedLoop]-> flag=true,phase=0",
                               }));
  EXPECT_EQ(e->graph.transitions.size(), 6u * 4);  // set: 2 targets, step and fixedLoop: 1
}

TEST_F(ExploreTest, EnumArgumentsAreConstantsOrNull) {
  ExploreOptions o = Options("p.Misc", {"mode"});
  o.methods = {"mode"};
  auto e = ExploreProtocol(o);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->graph.states.size(), 3u);
  EXPECT_THAT(Transitions(*e), ::testing::IsSupersetOf({"mode=A -[mode]-> mode=B", "mode=A -[mode]-> mode=null",
                                                        "mode=null -[mode]-> mode=A"}));
  EXPECT_EQ(e->graph.transitions.size(), 9u);
}

TEST_F(ExploreTest, ALoopOverAnArgumentIsReportedIncomplete) {
  ExploreOptions o = Options("p.Misc", {"flag"});
  o.methods = {"freeLoop"};
  o.max_unwind = 4;
  auto e = ExploreProtocol(o);
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_FALSE(e->incomplete.empty());
  EXPECT_THAT(e->incomplete[0], HasSubstr("freeLoop(int) from flag=false (loop bound 4): unwinding at"));
  EXPECT_THAT(e->text, HasSubstr("INCOMPLETE"));
}

TEST_F(ExploreTest, UnboundedValuesAreReported) {
  ExploreOptions o = Options("p.Misc", {"count"});
  o.methods = {"inc"};
  o.max_states = 10;
  auto e = ExploreProtocol(o);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(e.status().message(), HasSubstr("more than 10 abstract states are reachable (the last: count=10)"));
  o.methods = {"any"};
  e = ExploreProtocol(o);
  ASSERT_FALSE(e.ok());
  EXPECT_THAT(e.status().message(),
              HasSubstr("any(int) from count=0 can leave the object in more than 16 abstract states"));
}

TEST_F(ExploreTest, FieldsThatCannotBeStateFields) {
  auto message = [&](const std::string& field) {
    return std::string(ExploreProtocol(Options("p.Misc", {field})).status().message());
  };
  EXPECT_THAT(message("name"), HasSubstr("state field 'name' of p.Misc has type java.lang.String: only boolean, enum "
                                         "and integral fields"));
  EXPECT_THAT(message("level"), HasSubstr("has type double"));
  EXPECT_THAT(message("data"), HasSubstr("has type int[]"));
  EXPECT_THAT(message("shared"), HasSubstr("a static field cannot be part of an object's state"));
  EXPECT_THAT(message("nope"), HasSubstr("state field 'nope' of p.Misc: no such instance field (fields: "));
  EXPECT_THAT(std::string(ExploreProtocol(Options("p.Nope", {"x"})).status().message()),
              HasSubstr("class p.Nope not found on the class path"));
  ExploreOptions o = Options("p.Misc", {"flag"});
  o.methods = {"fly"};
  EXPECT_THAT(std::string(ExploreProtocol(o).status().message()), HasSubstr("p.Misc has no public instance method 'fly'"));
}

TEST_F(ExploreTest, InheritedMethodsAndFieldsUnlessOverridden) {
  auto e = ExploreProtocol(Options("p.QuietSwitch", {"on"}));
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_THAT(e->methods, ::testing::UnorderedElementsAre("reset()", "isOn()", "toggle()"));
  EXPECT_THAT(Transitions(*e), ::testing::UnorderedElementsAre(
                                   "on=false -[toggle]-> on=true", "on=true -[toggle]-> on=false",
                                   "on=false -[reset]-> on=false", "on=true -[reset]-> on=false",
                                   "on=false -[isOn]-> on=false", "on=true -[isOn]-> on=true"));
}

TEST_F(ExploreTest, ComparisonWithAMinedGraphAndCallSequences) {
  auto e = ExploreProtocol(Options("p.Door", {"state"}));
  ASSERT_TRUE(e.ok()) << e.status();
  ProtocolGraph mined;
  mined.state_fields = {"state"};
  mined.AddState({"CLOSED"});
  mined.AddState({"OPEN"});
  mined.initial["state=CLOSED"].insert("new Door()");
  mined.transitions.insert({"state=CLOSED", "state=OPEN", "open"});
  mined.transitions.insert({"state=OPEN", "state=CLOSED", "close"});
  mined.transitions.insert({"state=OPEN", "state=OPEN", "fly"});  // not in the class
  ProtocolComparison c = CompareProtocols(e->graph, mined);
  std::vector<std::string> untested;
  for (const Transition& t : c.untested) untested.push_back(TransitionText(t));
  EXPECT_THAT(untested, ::testing::Contains("state=OPEN -[open!IllegalStateException]-> state=OPEN"));
  EXPECT_THAT(untested, ::testing::Not(::testing::Contains("state=CLOSED -[open]-> state=OPEN")));
  std::vector<std::string> unobserved;
  for (const Transition& t : c.untested_unobserved_method) unobserved.push_back(TransitionText(t));
  EXPECT_THAT(unobserved, ::testing::Contains("state=CLOSED -[lock]-> state=LOCKED"));
  EXPECT_THAT(c.unobserved_methods, ::testing::ElementsAre("alarmed", "getState", "kick", "lock", "unlock"));
  ASSERT_EQ(c.unexplained.size(), 1u);
  EXPECT_EQ(TransitionText(c.unexplained[0]), "state=OPEN -[fly]-> state=OPEN");
  EXPECT_THAT(c.unvisited_states, ::testing::ElementsAre("state=LOCKED"));

  auto check = CheckProtocol(e->model, e->graph, {"AG !state=LOCKED", "EF state=OPEN"}, {});
  ASSERT_TRUE(check.ok()) << check.status();
  EXPECT_FALSE(check->report.results[0].holds);
  EXPECT_EQ(check->calls[0], "new Door() ; lock(int)");
  EXPECT_EQ(check->calls[1], "new Door() ; open()");
  const std::string text = RenderCheckText(e->model, *check);
  EXPECT_THAT(text, HasSubstr("path: [new Door(), new Door(int)] state=CLOSED -[lock]-> state=LOCKED"));
  EXPECT_THAT(text, HasSubstr("AG !state=LOCKED (FAILS, counterexample): new Door() ; lock(int)"));
}

}  // namespace
}  // namespace tracespec::protocol

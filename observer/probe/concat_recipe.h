// The literals of a string concatenation's recipe. javac 9 and later
// compiles `"id " + 98765 + " for " + name` into an invokedynamic of
// StringConcatFactory.makeConcatWithConstants whose recipe (a String
// bootstrap argument, ClassFile::ConcatRecipes) is "id 98765 for \1": the
// literals written into the concatenation — texts, and numbers as their
// decimal digits — are folded into the recipe's text between the markers
// \1 (an argument) and \2 (a constant bootstrap argument), not held as
// constants of their own. So that `observe --noninterference` substitutes a
// secret written there where it loads, as it does a constant of the pool,
// run A treats each piece and each number written in a piece as a
// constant, and the substituted run rewrites the pieces and numbers whose
// key (ConstantKey) it was given.
// Plain C++ without dependencies, so that it is unit-tested on its own.
#ifndef TRACESPEC_OBSERVER_PROBE_CONCAT_RECIPE_H_
#define TRACESPEC_OBSERVER_PROBE_CONCAT_RECIPE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracespec::probe {

// The pieces of `recipe` (modified UTF-8): the non-empty texts between its
// markers, in order.
std::vector<std::string> RecipePieces(std::string_view recipe);

// The numbers written in `piece`: each maximal run of decimal digits that
// fits in a long, and, when a '-' stands before the run, its negative too
// (the '-' may be a sign or a dash), in order.
std::vector<int64_t> RecipeNumbers(std::string_view piece);

// A maximal run of decimal digits of a text, [begin, end), and what it
// reads as: `value`, the digits alone, when they fit in a long; `negative`,
// when a '-' stands before the run (a sign or a dash) and the negative
// fits. RecipeNumbers, SubstituteRecipe and the egress gate's denied-value
// rule read numbers so.
struct DecimalRun {
  size_t begin = 0;
  size_t end = 0;
  std::optional<int64_t> value;
  std::optional<int64_t> negative;
};
void ForEachDecimalRun(std::string_view text, const std::function<void(const DecimalRun&)>& run);

// Another number with the same sign and count of decimal digits,
// deterministic in (seed, value); for one digit, another digit.
int64_t SubstituteDecimal(uint64_t seed, int64_t value);

struct RecipeSubstitution {
  // The recipe with the substitutes in place (modified UTF-8), the markers
  // and the other text as they were.
  std::string recipe;
  // The substitutes put in, texts (modified UTF-8) and numbers: what the
  // substituted run must not take for a secret again.
  std::vector<std::string> texts;
  std::vector<int64_t> numbers;
  bool changed() const { return !texts.empty() || !numbers.empty(); }
};

// `recipe` with its denied literals substituted: a piece that `denied_text`
// holds (as modified UTF-8) becomes SubstituteModifiedUtf8 of it; in the
// other pieces, each number that `denied_number` holds is written as
// SubstituteDecimal of it, with as many digits (leading zeros kept) and its
// sign. The signed reading of "-123" is asked first, then the digits alone.
RecipeSubstitution SubstituteRecipe(uint64_t seed, std::string_view recipe,
                                    const std::function<bool(std::string_view)>& denied_text,
                                    const std::function<bool(int64_t)>& denied_number);

}  // namespace tracespec::probe

#endif  // TRACESPEC_OBSERVER_PROBE_CONCAT_RECIPE_H_

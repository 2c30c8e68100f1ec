// The literals of a concatenation recipe; see concat_recipe.h.
#include "observer/probe/concat_recipe.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "observer/probe/substitute_value.h"

namespace tracespec::probe {
namespace {

bool IsMarker(char c) { return c == '\1' || c == '\2'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

constexpr uint64_t kLongMagnitude = uint64_t{1} << 63;  // of Long.MIN_VALUE

// The value of decimal `digits`; false when above `limit`.
bool Magnitude(std::string_view digits, uint64_t limit, uint64_t* out) {
  uint64_t value = 0;
  for (char c : digits) {
    auto digit = static_cast<uint64_t>(c - '0');
    if (value > (limit - digit) / 10) return false;
    value = value * 10 + digit;
  }
  *out = value;
  return true;
}

// Calls `run(begin, end)` for each maximal run of digits of `piece`.
template <typename Run>
void ForEachDigitRun(std::string_view piece, const Run& run) {
  for (size_t i = 0; i < piece.size();) {
    if (!IsDigit(piece[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < piece.size() && IsDigit(piece[end])) ++end;
    run(i, end);
    i = end;
  }
}

// `magnitude` in decimal, with leading zeros up to `width` digits.
std::string Digits(uint64_t magnitude, size_t width) {
  std::string out = std::to_string(magnitude);
  if (out.size() < width) out.insert(0, width - out.size(), '0');
  return out;
}

// Appends `piece` with its denied literals substituted (SubstituteRecipe).
void SubstitutePiece(uint64_t seed, std::string_view piece,
                     const std::function<bool(std::string_view)>& denied_text,
                     const std::function<bool(int64_t)>& denied_number, RecipeSubstitution* out) {
  if (denied_text(piece)) {
    std::string substitute = SubstituteModifiedUtf8(seed, std::string(piece));
    out->recipe.append(substitute);
    out->texts.push_back(std::move(substitute));
    return;
  }
  size_t done = 0;
  ForEachDigitRun(piece, [&](size_t begin, size_t end) {
    std::string_view digits = piece.substr(begin, end - begin);
    out->recipe.append(piece.substr(done, begin - done));
    done = end;
    uint64_t magnitude = 0;
    bool signed_run = begin > 0 && piece[begin - 1] == '-';
    int64_t value = 0;
    bool denied = false;
    if (signed_run && Magnitude(digits, kLongMagnitude, &magnitude)) {
      value = static_cast<int64_t>(0 - magnitude);
      denied = denied_number(value);
    }
    if (!denied && Magnitude(digits, std::numeric_limits<int64_t>::max(), &magnitude)) {
      value = static_cast<int64_t>(magnitude);
      denied = denied_number(value);
    }
    if (!denied) {
      out->recipe.append(digits);
      return;
    }
    int64_t substitute = SubstituteDecimal(seed, value);
    uint64_t written = substitute < 0 ? 0 - static_cast<uint64_t>(substitute)
                                      : static_cast<uint64_t>(substitute);
    out->recipe.append(Digits(written, digits.size()));
    out->numbers.push_back(substitute);
  });
  out->recipe.append(piece.substr(done));
}

}  // namespace

std::vector<std::string> RecipePieces(std::string_view recipe) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= recipe.size(); ++i) {
    if (i < recipe.size() && !IsMarker(recipe[i])) continue;
    if (i > start) out.emplace_back(recipe.substr(start, i - start));
    start = i + 1;
  }
  return out;
}

std::vector<int64_t> RecipeNumbers(std::string_view piece) {
  std::vector<int64_t> out;
  ForEachDigitRun(piece, [&](size_t begin, size_t end) {
    std::string_view digits = piece.substr(begin, end - begin);
    uint64_t magnitude = 0;
    if (Magnitude(digits, std::numeric_limits<int64_t>::max(), &magnitude)) {
      out.push_back(static_cast<int64_t>(magnitude));
    }
    if (begin > 0 && piece[begin - 1] == '-' && Magnitude(digits, kLongMagnitude, &magnitude)) {
      out.push_back(static_cast<int64_t>(0 - magnitude));
    }
  });
  return out;
}

int64_t SubstituteDecimal(uint64_t seed, int64_t value) {
  const bool negative = value < 0;
  const uint64_t magnitude =
      negative ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  // The magnitudes with as many digits: [low, high).
  uint64_t low = 1;
  while (magnitude / low >= 10) low *= 10;
  uint64_t high = low <= std::numeric_limits<uint64_t>::max() / 10
                      ? low * 10
                      : std::numeric_limits<uint64_t>::max();
  high = std::min(high, negative ? kLongMagnitude + 1 : kLongMagnitude);
  if (low == 1) low = negative ? 1 : 0;  // one digit; a negative stays negative
  // Uniform over the others of [low, high).
  uint64_t pick = low + SubstituteHash(seed, &value, sizeof value) % (high - low - 1);
  if (pick >= magnitude) ++pick;
  return negative ? static_cast<int64_t>(0 - pick) : static_cast<int64_t>(pick);
}

RecipeSubstitution SubstituteRecipe(uint64_t seed, std::string_view recipe,
                                    const std::function<bool(std::string_view)>& denied_text,
                                    const std::function<bool(int64_t)>& denied_number) {
  RecipeSubstitution out;
  size_t start = 0;
  for (size_t i = 0; i <= recipe.size(); ++i) {
    if (i < recipe.size() && !IsMarker(recipe[i])) continue;
    if (i > start) {
      SubstitutePiece(seed, recipe.substr(start, i - start), denied_text, denied_number, &out);
    }
    if (i < recipe.size()) out.recipe.push_back(recipe[i]);
    start = i + 1;
  }
  return out;
}

}  // namespace tracespec::probe

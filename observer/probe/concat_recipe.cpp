// The literals of a concatenation recipe; see concat_recipe.h.
#include "observer/probe/concat_recipe.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>

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

// Calls `piece(text)` for each non-empty text between the markers of
// `recipe` and `marker(c)` for each marker, in order.
template <typename Piece, typename Marker>
void ForEachPiece(std::string_view recipe, const Piece& piece, const Marker& marker) {
  size_t start = 0;
  for (size_t i = 0; i <= recipe.size(); ++i) {
    if (i < recipe.size() && !IsMarker(recipe[i])) continue;
    if (i > start) piece(recipe.substr(start, i - start));
    if (i < recipe.size()) marker(recipe[i]);
    start = i + 1;
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
  ForEachDecimalRun(piece, [&](const DecimalRun& run) {
    std::string_view digits = piece.substr(run.begin, run.end - run.begin);
    out->recipe.append(piece.substr(done, run.begin - done));
    done = run.end;
    // The signed reading first, then the digits alone.
    std::optional<int64_t> value;
    if (run.negative.has_value() && denied_number(*run.negative)) {
      value = run.negative;
    } else if (run.value.has_value() && denied_number(*run.value)) {
      value = run.value;
    }
    if (!value.has_value()) {
      out->recipe.append(digits);
      return;
    }
    int64_t substitute = SubstituteDecimal(seed, *value);
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
  ForEachPiece(
      recipe, [&](std::string_view piece) { out.emplace_back(piece); }, [](char) {});
  return out;
}

void ForEachDecimalRun(std::string_view text, const std::function<void(const DecimalRun&)>& run) {
  for (size_t i = 0; i < text.size();) {
    if (!IsDigit(text[i])) {
      ++i;
      continue;
    }
    DecimalRun r;
    r.begin = i;
    r.end = i;
    while (r.end < text.size() && IsDigit(text[r.end])) ++r.end;
    std::string_view digits = text.substr(r.begin, r.end - r.begin);
    uint64_t magnitude = 0;
    if (Magnitude(digits, std::numeric_limits<int64_t>::max(), &magnitude)) {
      r.value = static_cast<int64_t>(magnitude);
    }
    if (r.begin > 0 && text[r.begin - 1] == '-' && Magnitude(digits, kLongMagnitude, &magnitude)) {
      r.negative = static_cast<int64_t>(0 - magnitude);
    }
    run(r);
    i = r.end;
  }
}

std::vector<int64_t> RecipeNumbers(std::string_view piece) {
  std::vector<int64_t> out;
  ForEachDecimalRun(piece, [&](const DecimalRun& run) {
    if (run.value.has_value()) out.push_back(*run.value);
    if (run.negative.has_value()) out.push_back(*run.negative);
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
  ForEachPiece(
      recipe,
      [&](std::string_view piece) {
        SubstitutePiece(seed, piece, denied_text, denied_number, &out);
      },
      [&](char marker) { out.recipe.push_back(marker); });
  return out;
}

}  // namespace tracespec::probe

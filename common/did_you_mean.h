// "did you mean" suggestions for a misspelt name: the closest of the names
// that exist, if it is close enough to be a likely typo.
#ifndef TRACESPEC_COMMON_DID_YOU_MEAN_H_
#define TRACESPEC_COMMON_DID_YOU_MEAN_H_

#include <cstddef>
#include <string>
#include <vector>

namespace tracespec {

// Levenshtein distance (insertions, deletions, substitutions).
size_t EditDistance(const std::string& a, const std::string& b);

// The candidate closest to `name` (not `name` itself) within an edit
// distance of a third of its length (at least 1, at most 2); "" if none.
std::string ClosestName(const std::string& name, const std::vector<std::string>& candidates);

// " (did you mean 'x'?)" for ClosestName, or "" when there is none.
std::string DidYouMean(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace tracespec

#endif  // TRACESPEC_COMMON_DID_YOU_MEAN_H_

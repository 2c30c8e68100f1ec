// Plain-text tables: rows of cells, each column padded to its widest cell
// plus two spaces, the last column unpadded, one line per row.
#ifndef TRACESPEC_COMMON_TABLE_H_
#define TRACESPEC_COMMON_TABLE_H_

#include <algorithm>
#include <string>
#include <vector>

namespace tracespec {

inline std::string AlignColumns(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width;
  for (const auto& row : rows) {
    if (width.size() < row.size()) width.resize(row.size(), 0);
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) {
      out += row[i];
      if (i + 1 < row.size()) out.append(width[i] - row[i].size() + 2, ' ');
    }
    out += '\n';
  }
  return out;
}

}  // namespace tracespec

#endif  // TRACESPEC_COMMON_TABLE_H_

// diff.h: cell-by-cell comparison of two decision tables.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "enumerate/table.h"

namespace accord::enumerate {

/// One cell whose class differs: where it is in table A, its description and both classes.
struct CellDiff {
  std::uint64_t cell_a = 0;
  std::string where;  ///< `axis=label ...` of the cell
  std::string class_a, class_b;
};

struct TableDiff {
  std::uint64_t compared = 0;      ///< cells present in both tables
  std::uint64_t only_a = 0, only_b = 0;
  std::uint64_t differing = 0;
  std::vector<CellDiff> cells;     ///< the first `limit` differing cells, in A's order
  std::map<std::pair<std::string, std::string>, std::uint64_t> by_pair;  ///< (class A, class B) -> cells
};

/// Compares by index when both tables enumerate the same domain exhaustively; otherwise matches
/// cells by their axis labels (`axis=label` for every axis, so tables over different domains or
/// covering arrays compare on the cells they share).
TableDiff diff_tables(const Table& a, const Table& b, std::size_t limit);

}  // namespace accord::enumerate

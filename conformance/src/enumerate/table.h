// table.h: the decision table file written by `accord enumerate` and read by `accord diff-table`.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "enumerate/domain.h"

namespace accord::enumerate {

/// A decision table: the domain, the cells (every cell of the product, or the rows of a covering
/// array), and per cell the index of its outcome class.
///
/// File layout: the line `ACCORD-DECISION-TABLE 1`, one line of header JSON (domain, mode, t,
/// cells, encoding, impl, profile, classes, counts, timing), then binary data: for a covering array
/// the rows (cells x axes little-endian uint16 value indices), then the cells' class indices in cell
/// order as runs: (class index, run length) pairs, each an unsigned LEB128 varint ("rle-varint").
struct Table {
  nlohmann::json header;
  Domain domain;
  bool exhaustive = true;
  std::vector<std::vector<std::uint16_t>> rows;  ///< covering arrays only
  std::vector<std::uint32_t> ids;                ///< class index per cell
  std::vector<std::string> classes;
  /// Axis value indices of cell `k`.
  std::vector<std::uint32_t> digits(std::uint64_t k) const;
};

/// Writes `t` (header fields `classes`, `counts`, `cells`, `encoding`, `mode` are filled in here).
bool write_table(const std::string& path, Table& t, std::string* error);
/// Reads a table; false with `error` naming the file and what is wrong.
bool read_table(const std::string& path, Table* t, std::string* error);

}  // namespace accord::enumerate

// covering.h: t-wise covering arrays (IPOG, Lei et al. 2007) for `accord enumerate --t`.
#pragma once

#include <cstdint>
#include <vector>

namespace accord::enumerate {

/// A t-wise covering array over axes of the given sizes: every combination of values of every t
/// axes appears in at least one row. Greedy IPOG (horizontal then vertical growth), deterministic.
/// With t >= the number of axes it is the full product. Sizes must be >= 1; t must be >= 1.
std::vector<std::vector<std::uint16_t>> covering_array(const std::vector<std::uint32_t>& sizes, int t);

/// True when `rows` covers every t-tuple of values of every t axes (for tests and --check).
bool covers(const std::vector<std::vector<std::uint16_t>>& rows, const std::vector<std::uint32_t>& sizes, int t);

}  // namespace accord::enumerate

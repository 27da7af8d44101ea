// covering.cc: IPOG for t-wise covering arrays (in-parameter-order growth).
#include "enumerate/covering.h"

#include <algorithm>
#include <numeric>

namespace accord::enumerate {
namespace {

using Row = std::vector<int>;  // -1 = don't care (until the final fill)

/// Every k-subset of {0..n-1}, in lexicographic order.
std::vector<std::vector<int>> subsets(int n, int k) {
  std::vector<std::vector<int>> out;
  if (k > n) return out;
  std::vector<int> s(static_cast<std::size_t>(k));
  std::iota(s.begin(), s.end(), 0);
  for (;;) {
    out.push_back(s);
    int i = k - 1;
    while (i >= 0 && s[static_cast<std::size_t>(i)] == n - k + i) --i;
    if (i < 0) return out;
    ++s[static_cast<std::size_t>(i)];
    for (int j = i + 1; j < k; ++j) s[static_cast<std::size_t>(j)] = s[static_cast<std::size_t>(j - 1)] + 1;
  }
}

/// The uncovered (t-1)-tuples of earlier axes, paired with each value of the new axis.
struct Pending {
  std::vector<std::vector<int>> combos;     // (t-1)-subsets of the earlier axes
  std::vector<std::vector<bool>> uncovered;  // per combo: index = radix(values) * size_new + v
  const std::vector<int>* sizes;
  int axis;

  long index(std::size_t c, const Row& r, int v) const {
    long idx = 0;
    for (int a : combos[c]) {
      int x = r[static_cast<std::size_t>(a)];
      if (x < 0) return -1;
      idx = idx * (*sizes)[static_cast<std::size_t>(a)] + x;
    }
    return idx * (*sizes)[static_cast<std::size_t>(axis)] + v;
  }
  int gain(const Row& r, int v) const {
    int g = 0;
    for (std::size_t c = 0; c < combos.size(); ++c) {
      long i = index(c, r, v);
      if (i >= 0 && uncovered[c][static_cast<std::size_t>(i)]) ++g;
    }
    return g;
  }
  void cover(const Row& r) {
    for (std::size_t c = 0; c < combos.size(); ++c) {
      long i = index(c, r, r[static_cast<std::size_t>(axis)]);
      if (i >= 0) uncovered[c][static_cast<std::size_t>(i)] = false;
    }
  }
};

Pending pending_for(const std::vector<int>& sizes, int axis, int t) {
  Pending p{subsets(axis, t - 1), {}, &sizes, axis};
  for (const auto& combo : p.combos) {
    std::size_t n = static_cast<std::size_t>(sizes[static_cast<std::size_t>(axis)]);
    for (int a : combo) n *= static_cast<std::size_t>(sizes[static_cast<std::size_t>(a)]);
    p.uncovered.emplace_back(n, true);
  }
  return p;
}

/// Vertical growth: one uncovered tuple goes into a compatible row with don't-cares, or a new row.
void place(std::vector<Row>& rows, std::vector<std::size_t>& open, Pending& p, std::size_t c, std::size_t idx, int n) {
  const auto& sizes = *p.sizes;
  Row want(static_cast<std::size_t>(n), -1);
  want[static_cast<std::size_t>(p.axis)] = static_cast<int>(idx % static_cast<std::size_t>(sizes[static_cast<std::size_t>(p.axis)]));
  idx /= static_cast<std::size_t>(sizes[static_cast<std::size_t>(p.axis)]);
  for (std::size_t k = p.combos[c].size(); k-- > 0;) {
    int a = p.combos[c][k];
    want[static_cast<std::size_t>(a)] = static_cast<int>(idx % static_cast<std::size_t>(sizes[static_cast<std::size_t>(a)]));
    idx /= static_cast<std::size_t>(sizes[static_cast<std::size_t>(a)]);
  }
  for (std::size_t r : open) {
    Row& row = rows[r];
    bool fits = true;
    for (int a = 0; a <= p.axis && fits; ++a) {
      int w = want[static_cast<std::size_t>(a)], x = row[static_cast<std::size_t>(a)];
      fits = w < 0 || x < 0 || w == x;
    }
    if (!fits) continue;
    for (int a = 0; a <= p.axis; ++a)
      if (want[static_cast<std::size_t>(a)] >= 0) row[static_cast<std::size_t>(a)] = want[static_cast<std::size_t>(a)];
    p.cover(row);
    return;
  }
  open.push_back(rows.size());
  rows.push_back(want);
  p.cover(rows.back());
}

void grow(std::vector<Row>& rows, std::vector<std::size_t>& open, const std::vector<int>& sizes, int axis, int t) {
  Pending p = pending_for(sizes, axis, t);
  for (auto& row : rows) {  // horizontal growth: the value covering most new tuples
    int best = 0, best_gain = -1;
    for (int v = 0; v < sizes[static_cast<std::size_t>(axis)]; ++v) {
      int g = p.gain(row, v);
      if (g > best_gain) best = v, best_gain = g;
    }
    row[static_cast<std::size_t>(axis)] = best;
    p.cover(row);
  }
  for (std::size_t c = 0; c < p.combos.size(); ++c)
    for (std::size_t i = 0; i < p.uncovered[c].size(); ++i)
      if (p.uncovered[c][i]) place(rows, open, p, c, i, static_cast<int>(sizes.size()));
}

}  // namespace

std::vector<std::vector<std::uint16_t>> covering_array(const std::vector<std::uint32_t>& sizes_in, int t) {
  int n = static_cast<int>(sizes_in.size());
  t = std::max(1, std::min(t, n));
  // Largest axes first: IPOG's arrays are smaller when the initial product is the biggest one.
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return sizes_in[static_cast<std::size_t>(a)] > sizes_in[static_cast<std::size_t>(b)]; });
  std::vector<int> sizes;
  for (int a : order) sizes.push_back(static_cast<int>(sizes_in[static_cast<std::size_t>(a)]));
  std::vector<Row> rows(1, Row(static_cast<std::size_t>(n), -1));
  for (int a = 0; a < t; ++a) {  // the full product of the first t axes
    std::vector<Row> next;
    for (const auto& r : rows)
      for (int v = 0; v < sizes[static_cast<std::size_t>(a)]; ++v) {
        next.push_back(r);
        next.back()[static_cast<std::size_t>(a)] = v;
      }
    rows = std::move(next);
  }
  std::vector<std::size_t> open;
  for (int a = t; a < n; ++a) grow(rows, open, sizes, a, t);
  std::vector<std::vector<std::uint16_t>> out;
  for (const auto& r : rows) {
    std::vector<std::uint16_t> row(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) {
      const auto i = static_cast<std::size_t>(k);
      row[static_cast<std::size_t>(order[i])] = static_cast<std::uint16_t>(std::max(0, r[i]));
    }
    out.push_back(std::move(row));
  }
  return out;
}

bool covers(const std::vector<std::vector<std::uint16_t>>& rows, const std::vector<std::uint32_t>& sizes, int t) {
  int n = static_cast<int>(sizes.size());
  t = std::max(1, std::min(t, n));
  for (const auto& combo : subsets(n, t)) {
    std::size_t total = 1;
    for (int a : combo) total *= sizes[static_cast<std::size_t>(a)];
    std::vector<bool> seen(total, false);
    for (const auto& r : rows) {
      std::size_t idx = 0;
      for (int a : combo) idx = idx * sizes[static_cast<std::size_t>(a)] + r[static_cast<std::size_t>(a)];
      seen[idx] = true;
    }
    if (std::find(seen.begin(), seen.end(), false) != seen.end()) return false;
  }
  return true;
}

}  // namespace accord::enumerate

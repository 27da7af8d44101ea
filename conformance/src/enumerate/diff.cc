// diff.cc: comparing decision tables by index, or by axis labels when their cells differ.
#include "enumerate/diff.h"

#include <algorithm>
#include <unordered_map>

namespace accord::enumerate {
namespace {

/// `axis=label` pairs sorted by axis name: the identity of a cell across tables.
std::string key_of(const Table& t, std::uint64_t k) {
  auto d = t.digits(k);
  std::vector<std::string> parts;
  for (std::size_t a = 0; a < t.domain.axes.size(); ++a)
    parts.push_back(t.domain.axes[a].name + "=" + t.domain.axes[a].values[d[a]].label);
  std::sort(parts.begin(), parts.end());
  std::string key;
  for (const auto& p : parts) key += p + '\x1f';
  return key;
}

void record(TableDiff& out, const Table& a, std::uint64_t k, const std::string& ca, const std::string& cb, std::size_t limit) {
  ++out.differing;
  ++out.by_pair[{ca, cb}];
  if (out.cells.size() < limit) out.cells.push_back({k, a.domain.describe(a.digits(k)), ca, cb});
}

}  // namespace

TableDiff diff_tables(const Table& a, const Table& b, std::size_t limit) {
  TableDiff out;
  if (a.exhaustive && b.exhaustive && a.domain.source == b.domain.source) {
    out.compared = a.ids.size();
    for (std::uint64_t k = 0; k < a.ids.size(); ++k) {
      const auto& ca = a.classes[a.ids[k]];
      const auto& cb = b.classes[b.ids[k]];
      if (ca != cb) record(out, a, k, ca, cb, limit);
    }
    return out;
  }
  std::unordered_map<std::string, std::uint32_t> in_b;
  for (std::uint64_t k = 0; k < b.ids.size(); ++k) in_b.emplace(key_of(b, k), b.ids[k]);
  std::uint64_t matched_b = 0;
  for (std::uint64_t k = 0; k < a.ids.size(); ++k) {
    auto it = in_b.find(key_of(a, k));
    if (it == in_b.end()) {
      ++out.only_a;
      continue;
    }
    ++out.compared;
    ++matched_b;
    const auto& ca = a.classes[a.ids[k]];
    const auto& cb = b.classes[it->second];
    if (ca != cb) record(out, a, k, ca, cb, limit);
  }
  out.only_b = in_b.size() - std::min<std::uint64_t>(matched_b, in_b.size());
  return out;
}

}  // namespace accord::enumerate

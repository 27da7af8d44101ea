// probes.cc: deciding whether a pairwise cell is possible by resolving a generated probe set for it.
//
// A probe fixes the cell's two dimensions to each of their variants and takes the other dimensions from a
// small "free" set (representative values: no strategy or 'ddp', default precision, no cluster, no legacy
// flag, devices absent/1/2/8/-1, one or two nodes). Accelerator and hardware are chosen together so that a
// free one never makes a probe fail only because the hardware is missing. Every optional package is
// installed. A probe whose inputs leave the cell (a variant overrode the other) is skipped.
#include <algorithm>
#include <map>

#include "accord/coverage/analysis.h"
#include "accord/reference/resolve.h"
#include "accord/reference/rules.h"

namespace accord::coverage {
namespace {
using reference::Case;
using reference::PyValue;

int idx(Dim d, const char* value) {
  const auto& v = dim_values(d);
  return static_cast<int>(std::find(v.begin(), v.end(), value) - v.begin());
}

/// The first variant of each listed value (free dimensions use one representative per value).
std::vector<Variant> firsts(Dim d, const std::vector<int>& values) {
  std::vector<Variant> out;
  for (int v : values) out.push_back(variants(d, v).front());
  return out;
}

Variant combine(const Variant& a, const Variant& b) {
  return {a.label + ", " + b.label, [a, b](Case& c) {
            a.apply(c);
            b.apply(c);
          }};
}

/// Accelerator and hardware as one axis: fixed values use every variant, free ones only compatible pairs.
std::vector<Variant> platform_axis(const std::map<Dim, int>& fixed) {
  auto fa = fixed.find(Dim::kAccelerator), fh = fixed.find(Dim::kHardware);
  int na = static_cast<int>(dim_values(Dim::kAccelerator).size()), nh = static_cast<int>(dim_values(Dim::kHardware).size());
  std::vector<Variant> out;
  for (int a = 0; a < na; ++a) {
    if (fa != fixed.end() && fa->second != a) continue;
    for (int h = 0; h < nh; ++h) {
      if (fh != fixed.end() && fh->second != h) continue;
      bool both_fixed = fa != fixed.end() && fh != fixed.end();
      if (!both_fixed && !compatible(a, h)) continue;
      auto av = fa != fixed.end() ? variants(Dim::kAccelerator, a) : firsts(Dim::kAccelerator, {a});
      for (const auto& x : av)
        for (const auto& y : variants(Dim::kHardware, h)) out.push_back(combine(y, x));
    }
  }
  return out;
}

std::vector<Variant> axis(Dim d, const std::map<Dim, int>& fixed) {
  auto f = fixed.find(d);
  if (f != fixed.end()) return variants(d, f->second);
  switch (d) {
    case Dim::kStrategy: return firsts(d, {idx(d, "None"), idx(d, "ddp")});
    case Dim::kPrecision: return firsts(d, {idx(d, "default")});
    case Dim::kClusterEnv: return firsts(d, {idx(d, "none")});
    case Dim::kLegacy: return firsts(d, {idx(d, "none")});
    case Dim::kDevicesForm: {
      auto out = firsts(d, {idx(d, "absent"), idx(d, "-1")});
      for (const auto& v : variants(d, idx(d, "int"))) out.push_back(v);
      return out;
    }
    case Dim::kAccelerator:
    case Dim::kHardware: break;  // platform_axis
  }
  return {};  // LCOV_EXCL_LINE unreachable: the platform dimensions are never asked for here
}

std::vector<Variant> nodes_axis() {
  return {{"num_nodes=<default>", [](Case& c) { c.flags.num_nodes = PyValue::absent(); }},
          {"num_nodes=2", [](Case& c) { c.flags.num_nodes = PyValue::integer(2); }}};
}

}  // namespace

void add_error(std::map<std::string, CellError>& errors, const reference::Outcome& out, bool probe) {
  std::string key = reference::wire_id(out.error().code);
  if (!out.trace.empty()) key += std::string(" (") + reference::rule_wire(out.trace.back()) + ")";
  CellError& e = errors[key];
  e.error = key;
  ++e.count;
  e.probe_count += probe;
  // rules.def lists the rules in stage order: the last rule's position says how far the run got.
  if (!out.trace.empty()) e.depth = std::max(e.depth, 1 + static_cast<int>(out.trace.back()));
}

bool probe_cell(Dim rows, int row, Dim cols, int col, reference::Profile p, CellResult& cell) {
  std::map<Dim, int> fixed = {{rows, row}, {cols, col}};
  // Application order matters: legacy before the devices form, which writes into the legacy flag.
  std::vector<std::vector<Variant>> axes = {platform_axis(fixed),          axis(Dim::kStrategy, fixed),
                                            axis(Dim::kPrecision, fixed),  axis(Dim::kClusterEnv, fixed),
                                            axis(Dim::kLegacy, fixed),     axis(Dim::kDevicesForm, fixed),
                                            nodes_axis()};
  for (const auto& a : axes)
    if (a.empty()) return false;
  std::map<std::string, CellError> errors;
  std::vector<size_t> at(axes.size(), 0);
  for (;;) {
    Case probe;
    for (size_t k = 0; k < axes.size(); ++k) axes[k][at[k]].apply(probe);
    if (classify(probe, rows) == row && classify(probe, cols) == col) {
      ++cell.probes;
      auto out = reference::resolve(probe, p);
      if (out.ok()) {
        std::string label;
        for (size_t k = 0; k < axes.size(); ++k) label += (k ? "; " : "") + axes[k][at[k]].label;
        cell.witness = label;
        return true;
      }
      add_error(errors, out, true);
    }
    size_t k = 0;
    while (k < axes.size() && ++at[k] == axes[k].size()) at[k++] = 0;
    if (k == axes.size()) break;
  }
  for (const auto& e : errors) cell.errors.push_back(e.second);
  return false;
}

}  // namespace accord::coverage

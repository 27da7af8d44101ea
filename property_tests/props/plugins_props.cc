// plugins_props.cc: the order of the plugins list does not matter (plugins of distinct kinds).
//
// With duplicates the order is visible by design (err_plugins_duplicate lists kinds in order of first
// appearance; the first invalid plugin is the one named), so the lists here hold valid plugins of
// pairwise distinct kinds, at most one of them a strategy. The result (plan or error) must be the same
// for every permutation; notes are compared only for plans, since resolution stops at the first error
// and a deprecation note for a strategy plugin is emitted only if that plugin came before the error.
#include <algorithm>
#include <numeric>

#include "prop_util.h"

namespace accord::prop {
namespace {
using nlohmann::json;
using reference::Case;
using reference::Profile;
using reference::PyValue;

void plugin_order(Case c, Profile p) {
  c.flags.plugins = *gen_distinct_plugins();
  const auto items = c.flags.plugins.list;
  RC_CLASSIFY(items.size() >= 2, "permuted");
  auto base = reference::resolve(c, p);
  RC_TAG(outcome_tag(base));
  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  while (std::next_permutation(order.begin(), order.end())) {
    Case perm = c;
    perm.flags.plugins.list.clear();
    for (auto k : order) perm.flags.plugins.list.push_back(items[k]);
    auto o = reference::resolve(perm, p);
    // Whether it resolves, and the plan, never depend on the order. When several plugins are wrong at
    // once, which error comes first does (Lightning checks them in order; user constructors run in order).
    RC_ASSERT(o.ok() == base.ok());
    if (base.ok()) {
      RC_ASSERT(result_only(o).dump() == result_only(base).dump());
      RC_ASSERT(note_codes(o) == note_codes(base));
    }
  }
}

}  // namespace

ACCORD_PROP_EVERY_PROFILE(PluginOrder, plugin_order)

}  // namespace accord::prop

// flags.h: generators for the Trainer flags (valid and invalid values, weighted towards the vocabularies).
#pragma once

#include <rapidcheck.h>

#include <string>

#include "accord/reference/inputs.h"

namespace accord::prop {

/// accelerator: "auto", every registered name, instances, wrong case, strategy names, unknown, bad types.
rc::Gen<reference::PyValue> gen_accelerator_flag();
/// strategy: every registered name and alias, any case, instances with components, unknown, bad types.
rc::Gen<reference::PyValue> gen_strategy_flag();
/// A strategy instance of a known class with a random subset of component and parameter args.
rc::Gen<reference::PyValue> gen_strategy_instance();
rc::Gen<reference::PyValue> gen_devices_flag();
rc::Gen<reference::PyValue> gen_num_nodes_flag();
/// precision: every spelling PROTOCOL.md lists, plus values no profile accepts.
rc::Gen<reference::PyValue> gen_precision_flag();
rc::Gen<reference::PyValue> gen_plugins_flag();
/// One plugin: a precision plugin, checkpoint io, cluster environment, layer sync, a strategy, or junk.
rc::Gen<reference::PyValue> gen_plugin();
/// A list of valid plugins of pairwise distinct kinds (at most one strategy), in generated order.
rc::Gen<reference::PyValue> gen_distinct_plugins();
rc::Gen<reference::PyValue> gen_deterministic_flag();
rc::Gen<reference::PyValue> gen_benchmark_flag();
/// Flags that are each valid on their own (registered names, accepted spellings, few legacy flags), so
/// that about half the cases resolve to a plan; combinations may still conflict.
rc::Gen<reference::UserFlags> gen_plausible_flags();
/// A registered strategy name with a random mix of upper and lower case.
rc::Gen<std::string> gen_recased_strategy_name();
/// A registered accelerator name (or "auto") with at least one upper-case letter.
rc::Gen<std::string> gen_wrong_case_accelerator_name();

}  // namespace accord::prop

namespace rc {
/// Every Trainer flag; each one absent (the Trainer default) with a flag-specific probability.
template <>
struct Arbitrary<accord::reference::UserFlags> {
  static Gen<accord::reference::UserFlags> arbitrary();
};
}  // namespace rc

// env.h: generators for the environment variables of every cluster environment the connector detects.
#pragma once

#include <rapidcheck.h>

#include <ostream>
#include <string>
#include <vector>

#include "accord/reference/inputs.h"

namespace accord::prop {

/// A generated environment: the preset it was built from (for RC_TAG) and its variables.
struct EnvPreset {
  std::string name;  ///< none, slurm, torchelastic, kubeflow, lsf, bagua, horovod, lightning, mixed
  reference::EnvVars vars;
};

/// The variables of one cluster environment with consistent ranks: `nodes` x `local` processes,
/// this process at (`node`, `local_rank`). Names: slurm, torchelastic, kubeflow, lsf, bagua, horovod,
/// lightning; anything else gives no variables.
reference::EnvVars preset_vars(const std::string& name, int nodes, int local, int node, int local_rank);
/// Disturbs a preset: kind 0 none, 1 drops a variable, 2 makes one non-decimal, 3 adds preset `other`,
/// 4 marks a SLURM interactive job (`bash`), 5 sets a SLURM task count that matches nothing.
reference::EnvVars disturb_env(reference::EnvVars v, int kind, std::size_t pick, const std::string& other);
/// The preset names preset_vars() knows, "none" first.
const std::vector<std::string>& preset_names();
void showValue(const EnvPreset& e, std::ostream& os);

}  // namespace accord::prop

namespace rc {
/// A preset with consistent ranks, sometimes disturbed: a variable dropped, made non-numeric, a second
/// preset mixed in, or SLURM's interactive job name. Shrinks towards no variables.
template <>
struct Arbitrary<accord::prop::EnvPreset> {
  static Gen<accord::prop::EnvPreset> arbitrary();
};
}  // namespace rc

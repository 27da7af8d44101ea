// ranks_props.cc: ranks and world size agree with the cluster environment and the process layout.
//
// - LightningEnvironment with a world-ranking strategy (set_world_ranks: the DDP and spawn families,
//   DeepSpeed, Bagua, HPU parallel, TPU spawn): world_size = num_nodes x num_processes and
//   global_rank = node_rank x num_processes + local_rank, with local_rank = LOCAL_RANK (default 0) and
//   node_rank = NODE_RANK, else GROUP_RANK (default 0); so 0 <= global_rank < world_size whenever
//   local_rank < num_processes and node_rank < num_nodes. DDP2 runs one process per node: world =
//   num_nodes, global = node_rank. Without world ranks: world 1, rank 0.
// - Environments that read their ranks (SLURM, TorchElastic, Kubeflow, LSF, Bagua) report exactly
//   the values of their variables (PL 1.6.5 plugins/environments/*.py).
// - SLURM managing the tasks with a world-ranking strategy: SLURM_NTASKS = num_nodes x num_processes
//   (when world_size is readable: the managing check accepts "0x2", the world size reader does not).
// - An environment that creates processes externally never gets the subprocess launcher.
// - At least one process, except for IPU/HPU device counts that 1.6.5 passes through unchecked
//   (devices=-1 gives range(-1) = no devices: IPUAccelerator/HPUAccelerator.get_parallel_devices; the spec profile is silent, so it agrees).
#include <map>

#include "prop_util.h"

#include "accord/reference/registry.h"

namespace accord::prop {
namespace {
using reference::Case;
using reference::Profile;

struct RankVars { const char* world; const char* global; const char* local; const char* node; };
const std::map<std::string, RankVars>& reading_envs() {
  static const std::map<std::string, RankVars> m = {
      {"SLURMEnvironment", {"SLURM_NTASKS", "SLURM_PROCID", "SLURM_LOCALID", "SLURM_NODEID"}},
      {"TorchElasticEnvironment", {"WORLD_SIZE", "RANK", "LOCAL_RANK", "GROUP_RANK"}},
      {"KubeflowEnvironment", {"WORLD_SIZE", "RANK", nullptr, "RANK"}},
      {"LSFEnvironment", {"JSM_NAMESPACE_SIZE", "JSM_NAMESPACE_RANK", "JSM_NAMESPACE_LOCAL_RANK", nullptr}},
      {"BaguaEnvironment", {"WORLD_SIZE", "RANK", "LOCAL_RANK", "NODE_RANK"}},
  };
  return m;
}

std::optional<long long> env_int(const Case& c, const char* name) {
  if (!name) return std::nullopt;
  auto it = c.env.find(name);
  if (it == c.env.end()) return std::nullopt;
  return reference::py_int_from_str(it->second);
}

bool world_ranking(const reference::Plan& plan) {
  auto ci = reference::class_by_name(std::string(plan.strategy.cls));
  return ci && reference::row(static_cast<reference::StrategyClass>(ci->id)).world_ranks;
}

void check_lightning(const Case& c, const reference::Plan& plan) {
  const auto& ce = plan.cluster_environment;
  long long local = env_int(c, "LOCAL_RANK").value_or(0);
  auto node_var = env_int(c, "NODE_RANK");
  long long node = node_var ? *node_var : env_int(c, "GROUP_RANK").value_or(0);
  if (!world_ranking(plan)) {
    RC_ASSERT(ce.world_size == 1LL);
    RC_ASSERT(ce.global_rank == 0LL);
    return;
  }
  // DDP2 runs one process per node (PL 1.6.5 ddp2.py set_world_ranks): ranks count nodes.
  bool per_node = plan.strategy.cls == "DDP2Strategy";
  long long per = per_node ? 1 : plan.num_processes;
  RC_ASSERT(ce.world_size == plan.num_nodes * per);
  // The spawn family ranks by process index, 0 before spawning (PL 1.6.5 ddp_spawn.py set_world_ranks).
  bool spawn = plan.launcher.kind == "spawn";
  RC_ASSERT(ce.global_rank == node * per + (per_node || spawn ? 0 : local));
  if ((per_node || (local >= 0 && local < plan.num_processes)) && node >= 0 && node < plan.num_nodes) {
    RC_ASSERT(*ce.global_rank >= 0);
    RC_ASSERT(*ce.global_rank < *ce.world_size);
  }
}

void check_reading(const Case& c, const reference::Plan& plan, const RankVars& v) {
  const auto& ce = plan.cluster_environment;
  auto same = [&](const std::optional<long long>& got, const char* var) {
    auto want = env_int(c, var);
    if (got && want) RC_ASSERT(*got == *want);
    if (want && world_ranking(plan)) RC_ASSERT(got.has_value());
  };
  same(ce.world_size, v.world);
  same(ce.global_rank, v.global);
  same(ce.local_rank, v.local);
  same(ce.node_rank, v.node);
}

void ranks(const Case& c, Profile p) {
  auto o = reference::resolve(c, p);
  RC_PRE(o.ok());
  const auto& plan = o.plan();
  const auto& ce = plan.cluster_environment;
  RC_TAG(ce.cls, world_ranking(plan) ? "world-ranking" : "single");
  // IPU/HPU pass a negative count through (get_parallel_devices: range(-1) is empty): no devices, no processes.
  RC_CLASSIFY(plan.parallel_devices.empty(), "no parallel devices (IPU/HPU negative count)");
  if (!plan.parallel_devices.empty()) RC_ASSERT(plan.num_processes >= 1);
  if (ce.creates_processes_externally) RC_ASSERT(plan.launcher.kind != "subprocess_script");
  if (ce.cls == "LightningEnvironment") return check_lightning(c, plan);
  auto it = reading_envs().find(std::string(ce.cls));
  RC_ASSERT(it != reading_envs().end());
  check_reading(c, plan, it->second);
  bool managing = false;
  for (const auto& n : o.notes) managing = managing || n.code == reference::DiagCode::kSlurmManaging;
  // The managing check reads SLURM_NTASKS with int(x, 0), world_size with int(x): "0x2" manages
  // the tasks but leaves world_size unreadable (null).
  if (managing && world_ranking(plan) && plan.strategy.cls != "DDP2Strategy" && ce.world_size)
    RC_ASSERT(ce.world_size == plan.num_nodes * plan.num_processes);
}

}  // namespace

// The 1.6.5 connector's behaviour (lightning-2.2 differs by design: PL 2.2.5 _AcceleratorConnector; its corpus and
// the differential run against the real 2.2.5 check it instead).
ACCORD_PROP_PROFILES_WHERE(Ranks, ranks,
                           [](const reference::Policy& pol) { return pol.connector_release == reference::ConnectorRelease::kLightning16; })

}  // namespace accord::prop

// realize.cc: stage 3: lazy strategy completion (checkpoint io, cluster env, devices, layer sync,
// world ranks, launcher), the interactive check, the late TPU/HPU check, and the plan itself.
#include <array>

#include "../context.h"

namespace accord::reference::detail {
namespace {

/// The rank variables of one cell of a cluster environment row (`A|B?`), split once per program.
struct EnvCell {
  struct Name { std::string name; bool optional; };
  std::vector<Name> names;
  bool all_optional = true;
};
enum class RankColumn { kWorld, kGlobal, kLocal, kNode };

const EnvCell& env_cell(ClusterEnvId id, RankColumn column) {
  static const std::vector<std::array<EnvCell, 4>> cells = [] {
    std::vector<std::array<EnvCell, 4>> out;
    for (const auto& r : cluster_envs()) {
      auto& row_cells = out.emplace_back();
      const char* texts[4] = {r.world, r.global, r.local, r.node};
      for (size_t k = 0; k < 4; ++k) {
        for (auto& n : split_cell(texts[k])) {
          bool optional = !n.empty() && n.back() == '?';
          if (optional) n.pop_back();
          row_cells[k].names.push_back({n, optional});
          row_cells[k].all_optional = row_cells[k].all_optional && optional;
        }
      }
    }
    return out;
  }();
  return cells[static_cast<size_t>(id)][static_cast<size_t>(column)];
}

/// Reads one rank variable of a cluster environment row cell. Strict reads fail on a missing variable (Python
/// KeyError); optional names (`?`) default to 0.
bool read_env_value(Resolution& c, const ClusterEnvRow& env, RankColumn column, bool strict, std::optional<long long>& out) {
  const EnvCell& cell = env_cell(env.id, column);
  if (cell.names.empty()) return true;
  for (const auto& n : cell.names) {
    if (const std::string* v = c.env_var(n.name)) {
      auto value = py_int_from_str(*v);
      if (!value) {
        if (!strict) return true;
        return c.fail(DiagCode::kEnvInvalid, {fld("variable", n.name), fld("value", *v)});
      }
      out = *value;
      return true;
    }
  }
  if (cell.all_optional) { out = 0; return true; }
  if (!strict) return true;
  return c.fail(DiagCode::kEnvMissing, {fld("environment", env.cls), fld("variable", cell.names[0].name)});
}

}  // namespace

// Strategy.set_world_ranks and the cluster environment getters. set_world_ranks reads the node, local and
// global rank but never world_size(), so the world size is reported when readable and never fails.
bool world_ranks(Resolution& c, const Selection& sel, Plan& plan) {
  const auto& env = row(*sel.cluster_env);
  const auto& cls = row(*sel.strategy_cls);
  auto& ce = plan.cluster_environment;
  bool strict = cls.world_ranks;
  // The spawn family sets its local rank to the process index (0 before spawning) instead of reading it
  // (PL 1.6.5 ddp_spawn.py set_world_ranks(process_idx=0)).
  bool spawn = cls.launcher == LauncherKind::kSpawn;
  c.fire(RuleId::kWorldRanks);
  // set_world_ranks reads node_rank(), then local_rank(), then global_rank() (PL 1.6.5 ddp.py).
  // DDP2 (one process per node) reads only node_rank() (PL 1.6.5 ddp2.py set_world_ranks).
  if (!read_env_value(c, env, RankColumn::kNode, strict, ce.node_rank) ||
      !read_env_value(c, env, RankColumn::kLocal, strict && !spawn && !cls.per_node, ce.local_rank) ||
      !read_env_value(c, env, RankColumn::kWorld, false, ce.world_size) ||
      !read_env_value(c, env, RankColumn::kGlobal, strict && !cls.per_node, ce.global_rank))
    return false;
  if (env.id == ClusterEnvId::kKubeflow) ce.local_rank = 0;
  if (env.settable) {
    ce.world_size = 1;
    ce.global_rank = 0;
    if (strict) {
      // DDP2 runs one process per node: global rank = node rank, world size = num_nodes (ddp2.py).
      long long per = cls.per_node ? 1 : plan.num_processes;
      ce.global_rank = ce.node_rank.value_or(0) * per + (cls.per_node || spawn ? 0 : ce.local_rank.value_or(0));
      ce.world_size = plan.num_nodes * per;
    }
  }
  // The root device of a parallel strategy (column Root): parallel_devices[local_rank] for the DDP family (None
  // past the end: Python's IndexError), parallel_devices[0] for DDP2, DP, Horovod and the spawn family before it
  // spawns (ddp2.py, dp.py, ddp_spawn.py), None for IPUStrategy.
  if (cls.root == RootDevice::kFirst || cls.root == RootDevice::kLocalRank) {
    long long k = cls.root == RootDevice::kFirst ? 0 : ce.local_rank.value_or(0);
    if (k >= 0 && k < static_cast<long long>(plan.parallel_devices.size()))
      plan.strategy.root_device = plan.parallel_devices[static_cast<size_t>(k)];
  }
  return true;
}

namespace {

bool launcher(Resolution& c, const Selection& sel, Plan& plan) {
  const auto& cls = row(*sel.strategy_cls);
  LauncherKind kind = cls.launcher;
  if (kind == LauncherKind::kSubprocessScript && plan.cluster_environment.creates_processes_externally) {
    c.fire(RuleId::kLauncherExternal);
    kind = LauncherKind::kNone;
  }
  c.fire(RuleId::kLauncher);
  const auto& l = row(kind);
  plan.launcher.kind = l.name;
  plan.launcher.cls = l.cls16;
  plan.launcher.start_method = l.start_method;
  bool cuda_root = plan.strategy.root_device.rfind("cuda", 0) == 0;
  plan.launcher.interactive_compatible = l.interactive == InteractiveRule::kAlways ||
                                         (l.interactive == InteractiveRule::kForkOnly && plan.launcher.start_method == "fork" && !cuda_root);
  if (!c.in.interactive) return true;
  c.fire(RuleId::kInteractive);
  if (plan.launcher.interactive_compatible) return true;
  return c.fail(DiagCode::kInteractiveIncompatible,
                {fld("strategy", PyValue::string(std::string(cls.name))), fld("compatible", registered_names(c.pol, true))});
}

}  // namespace

bool exclusive_late(Resolution& c, const Selection& sel) {
  StrategyGroup need = row(sel.accelerator).exclusive;
  if (c.pol.exclusive_strategy_check != ExclusiveStrategyCheck::kAtRealize || need == StrategyGroup::kAny ||
      row(*sel.strategy_cls).group == need)
    return true;
  c.fire(RuleId::kExclusiveLate);
  return c.fail(DiagCode::kAcceleratorStrategyMismatch, {fld("accelerator_class", row(sel.accelerator).cls), fld("allowed", group_allowed(need, c.pol)),
                                                         fld("strategy_class", row(*sel.strategy_cls).cls), fld("accelerator", sel.accelerator_flag_repr()),
                                                         fld("strategy", c.release22() ? sel.kept_strategy_flag(c)
                                                                         : c.in.flags.strategy.is_none()
                                                                             ? PyValue::string(std::string(sel.strategy_name))
                                                                             : c.in.flags.strategy)});
}

namespace {

}  // namespace

bool realize(Resolution& c, const FinalFlags& flags, Selection&& sel, Plan& plan) {
  const auto& cls = row(*sel.strategy_cls);
  const auto& acc = row(sel.accelerator);
  plan.accelerator = acc.name;
  plan.accelerator_class = acc.cls;
  plan.devices = std::move(sel.parsed_devices);
  plan.num_nodes = flags.num_nodes;
  c.fire(RuleId::kCheckpointIO);
  // The strategy keeps whatever checkpoint_io it was given; the plan names its type (`str` for a string).
  plan.checkpoint_io = flags.checkpoint_io_flag ? py_type_name(*flags.checkpoint_io_flag) : cls.checkpoint_io;
  c.fire(RuleId::kParallelDevices);
  // The plan takes over the selection from here on (the steps after this one read the plan).
  plan.parallel_devices = std::move(sel.parallel_devices);
  // `num_processes` exists on the DDP and DDP-spawn families only (ddp.py, ddp_spawn.py); DP, Horovod, IPU and
  // the single-device strategies run one process. Those families are the classes with a launcher.
  plan.num_processes = cls.launcher != LauncherKind::kNone ? static_cast<long long>(plan.parallel_devices.size()) : 1;
  plan.strategy = {sel.strategy_name, cls.cls, cls.name, std::move(sel.strategy_params), std::move(sel.root_device)};
  if (cls.parallel) {
    c.fire(RuleId::kClusterEnv);
    c.fire(RuleId::kLayerSync);
    plan.layer_sync = flags.layer_sync;
  }
  const auto& env = row(*sel.cluster_env);
  plan.cluster_environment.cls = env.cls;
  plan.cluster_environment.creates_processes_externally =
      env.external == ExternalRule::kAlways ||
      (env.external == ExternalRule::kIfLocalRank && c.env_var("LOCAL_RANK") != nullptr);
  if (!world_ranks(c, sel, plan) || !launcher(c, sel, plan) || !exclusive_late(c, sel)) return false;
  c.fire(RuleId::kIsDistributed);
  plan.is_distributed = cls.distributed;
  plan.precision = std::move(sel.precision_plan);
  return true;
}

}  // namespace accord::reference::detail

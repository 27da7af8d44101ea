// realize22.cc: stage 3 of the Lightning 2.2.5 connector: _lazy_init_strategy (the strategy's setters, the cluster
// environment it keeps, devices, layer sync, world ranks, the launcher), the interactive and XLA checks, the plan.
#include "../context.h"

namespace accord::reference::detail {
namespace {

/// The strategy's `start_method` (DDPStrategy and its subclasses; "popen" by default), from its parameters.
std::string_view start_method(const Plan& plan) {
  for (const auto& [k, v] : plan.strategy.params)
    if (k == "start_method" && v.size() >= 2 && v.front() == '"') return std::string_view(v).substr(1, v.size() - 2);
  return "popen";
}

// PL 2.2.5 strategies/*.py _configure_launcher and the launchers' is_interactive_compatible.
bool launcher(Resolution& c, const Selection& sel, Plan& plan) {
  const auto& cls = row(*sel.strategy_cls);
  LauncherKind kind = cls.launcher;
  std::string_view method;
  if (kind == LauncherKind::kSubprocessScript && cls.amp != AmpGroup::kFullySharded) {
    method = start_method(plan);  // DDPStrategy and DeepSpeedStrategy: popen -> the script launcher, else multiprocessing
    if (method != "popen") kind = LauncherKind::kSpawn;
  } else if (kind == LauncherKind::kSubprocessScript && plan.cluster_environment.creates_processes_externally) {
    c.fire(RuleId::kLauncherExternal);  // FSDPStrategy skips the launcher when the cluster creates the processes
    kind = LauncherKind::kNone;
  } else if (kind == LauncherKind::kXla) {
    method = "fork";  // _XLALauncher is a _MultiProcessingLauncher with start_method="fork"
  }
  c.fire(RuleId::kLauncher);
  // _MultiProcessingLauncher.__init__ checks its start method against mp.get_all_start_methods(): spawn everywhere, fork
  // and forkserver where the platform forks; any other name (`""`, a typo) is not available either. The Trainer's
  // _XLALauncher is one, Fabric's is not.
  if (kind == LauncherKind::kSpawn || (kind == LauncherKind::kXla && !c.fabric())) {
    c.fire(RuleId::kStartMethod);
    const bool forks = c.in.hardware.fork;
    if (method != "spawn" && !(forks && (method == "fork" || method == "forkserver")))
      return c.fail(DiagCode::kStartMethodUnavailable,
                    {fld("start_method", std::string(method)), fld("available", forks ? "fork, spawn, forkserver" : "spawn")});
  }
  const auto& l = row(kind);
  plan.launcher.kind = l.name;
  plan.launcher.cls = l.cls22;
    // DDPStrategy has no strategy_name of its own: the family is named after its start method (ddp, ddp_spawn, ...).
  static constexpr std::string_view kMethods[] = {"spawn", "fork", "forkserver"};
  static constexpr std::string_view kFamilies[] = {"ddp_spawn", "ddp_fork", "ddp_forkserver"};
  for (size_t k = 0; k < 3; ++k) {
    if (method != kMethods[k]) continue;
    plan.launcher.start_method = kMethods[k];
    if (cls.launcher == LauncherKind::kSubprocessScript && plan.strategy.family == "ddp") plan.strategy.family = kFamilies[k];
  }
  if (sel.strategy_is_instance) plan.strategy.name = plan.strategy.family;  // an instance is named after its family
  plan.launcher.interactive_compatible = kind == LauncherKind::kNone || kind == LauncherKind::kXla ||
                                         (kind == LauncherKind::kSpawn && method == "fork");
  if (!c.in.interactive || kind == LauncherKind::kNone) return true;
  c.fire(RuleId::kInteractive);
  if (plan.launcher.interactive_compatible) return true;
  const PyValue flag = sel.kept_strategy_flag(c);  // `self._strategy_flag`: lower-cased, after the default and fallbacks
  return c.fail(DiagCode::kInteractiveIncompatible,
                {fld("strategy", flag), fld("compatible", c.fabric() ? "`Fabric(strategy='dp'|'ddp_notebook')`" : "`Trainer(strategy='ddp_notebook')`")});
}


/// The strategy's family name: the class's `strategy_name`. Fabric's classes have none: the name its registry gives
/// the class without init parameters (single_xla, dp, xla_fsdp), else the Trainer's class's (single_device, ddp).
Name family(const Resolution& c, const StrategyClassRow& cls) {
  if (c.fabric())
    for (const auto& r : strategies())
      if (r.cls == cls.id && !*r.params && in_profile(r, c.pol)) return r.name;
  return cls.name;
}

}  // namespace

bool realize22(Resolution& c, const FinalFlags& flags, Selection&& sel, Plan& plan) {
  const auto& cls = row(*sel.strategy_cls);
  const auto& acc = row(sel.accelerator);
  plan.accelerator = acc.name;
  plan.accelerator_class = acc.cls;
  plan.devices = std::move(sel.parsed_devices);
  plan.num_nodes = flags.num_nodes;
  // `self.strategy.precision_plugin = ...` and `self.strategy.checkpoint_io = ...`: the setters' class checks.
  c.fire(RuleId::kStrategyPluginClass);
  if (*cls.needs_precision && sel.precision_plan.plugin != cls.needs_precision)
    return c.fail(DiagCode::kStrategyPluginMismatch, {fld("strategy", precision_setter_label(cls)),
                                                      fld("expected", cls.needs_precision), fld("plugin", std::string(sel.precision_plan.plugin) + "()")});
  if (flags.checkpoint_io_flag && cls.checkpoint_io.empty())  // Fabric's FSDPStrategy: its setter raises NotImplementedError
    return c.fail(DiagCode::kCheckpointIOUnsupported, {fld("strategy_class", cls.cls), fld("plugin", repr(*flags.checkpoint_io_flag))});
  if (flags.checkpoint_io_flag && !checkpoint_io_accepted(c, cls, *flags.checkpoint_io_flag))
    return c.fail(DiagCode::kStrategyPluginMismatch, {fld("strategy", "XLA"), fld("expected", cls.needs_checkpoint_io),
                                                      fld("plugin", repr(*flags.checkpoint_io_flag))});
  c.fire(RuleId::kCheckpointIO);
  plan.checkpoint_io = flags.checkpoint_io_flag ? py_type_name(*flags.checkpoint_io_flag) : cls.checkpoint_io;
  if (cls.parallel && !cls.keeps_cluster_env) {  // XLAStrategy brings its XLAEnvironment, which the connector adopts
    c.fire(RuleId::kClusterEnvKept);
    sel.cluster_env = ClusterEnvId::kXla;
  }
  c.fire(RuleId::kParallelDevices);
  plan.parallel_devices = std::move(sel.parallel_devices);
  // One process per device where a launcher starts them; Fabric's DataParallelStrategy (no launcher) is one process.
  plan.num_processes = cls.parallel && cls.launcher != LauncherKind::kNone ? static_cast<long long>(plan.parallel_devices.size()) : 1;
  plan.strategy = {sel.strategy_name, cls.cls, family(c, cls), std::move(sel.strategy_params), std::move(sel.root_device)};
  if (cls.parallel && !c.fabric()) {  // Fabric has no layer sync
    c.fire(RuleId::kLayerSync);
    plan.layer_sync = flags.layer_sync;
  }
  const auto& env = row(*sel.cluster_env);
  plan.cluster_environment.cls = env.cls;
  plan.cluster_environment.creates_processes_externally =
      env.external == ExternalRule::kAlways || (env.external == ExternalRule::kIfLocalRank && c.env_var("LOCAL_RANK") != nullptr);
  if (!world_ranks(c, sel, plan)) return false;
  if (env.id == ClusterEnvId::kXla) {
    // XLAEnvironment asks the torch_xla runtime (fabric/plugins/environments/xla.py): before the XLA launcher spawns,
    // one process of rank 0. Its host_index is not read here (null).
    plan.cluster_environment.world_size = 1;
    plan.cluster_environment.global_rank = 0;
    plan.cluster_environment.local_rank = 0;
  }
  if (!launcher(c, sel, plan) || !exclusive_late(c, sel)) return false;
  plan.trainer_state = !c.fabric();  // Fabric's connector has no is_distributed, layer sync or determinism
  if (plan.trainer_state) {
    c.fire(RuleId::kIsDistributed);
    plan.is_distributed = cls.distributed;
  }
  plan.precision = std::move(sel.precision_plan);
  return true;
}

}  // namespace accord::reference::detail

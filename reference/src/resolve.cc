// resolve.cc: the single entry point; the stage order of each connector release lives here and only here.
#include "accord/reference/resolve.h"

#include "context.h"

namespace accord::reference {

namespace {

// PL 1.6.5 AcceleratorConnector.__init__. Stage 1: check the flags and set final flags. Stage 2: choose accelerator,
// devices, cluster environment, strategy, precision. Stage 3: complete the strategy and apply determinism. Each stage
// reads the results before it as const values and fills its own.
bool run_lightning16(detail::Resolution& c, detail::FinalFlags& flags, detail::Selection& sel, Plan& plan) {
  return detail::construct_instances(c) && detail::check_keywords(c) && detail::check_determinism_flags(c) &&
         detail::validate_flags(c, flags) && detail::validate_plugins(c, flags) && detail::validate_amp(c, flags) &&
         detail::validate_devices(c, flags) && detail::select_accelerator(c, flags, sel) &&
         detail::select_cluster_env(c, flags, sel) && detail::select_strategy(c, flags, sel) &&
         detail::select_precision(c, flags, sel) && detail::realize(c, flags, std::move(sel), plan);
}

// PL 2.2.5 _AcceleratorConnector.__init__: _set_torch_flags first, then _check_config_and_set_final_flags; the
// accelerator is resolved before the device flags are checked (select22_accelerator), then the cluster environment,
// the strategy, the precision and _lazy_init_strategy.
bool run_lightning22(detail::Resolution& c, detail::FinalFlags& flags, detail::Selection& sel, Plan& plan) {
  return detail::construct_instances(c) && detail::check_keywords(c) && detail::check_determinism_flags(c) &&
         detail::validate22_flags(c, flags) && detail::validate22_plugins(c, flags) &&
         detail::select22_accelerator_flag(c, flags, sel) && detail::check22_device_config(c, flags, sel) &&
         detail::select22_accelerator(c, flags, sel) && detail::select22_cluster_env(c, flags, sel) &&
         detail::select22_strategy(c, flags, sel) && detail::select22_precision(c, flags, sel) &&
         detail::realize22(c, flags, std::move(sel), plan);
}

// PL 2.2.5 fabric/connector.py _Connector.__init__, after fabric_arguments: the Trainer's 2.2.5 steps, except that
// num_nodes and devices are checked before the accelerator flag is resolved; no torch flags (Fabric has none). Then
// the rest of Fabric.__init__ that can fail: its own read of LT_CLI_USED.
bool run_fabric22(detail::Resolution& c, detail::FinalFlags& flags, detail::Selection& sel, Plan& plan) {
  return detail::validate22_flags(c, flags) && detail::validate22_plugins(c, flags) &&
         detail::check22_device_config(c, flags, sel) && detail::select22_accelerator_flag(c, flags, sel) &&
         detail::select22_accelerator(c, flags, sel) && detail::select22_cluster_env(c, flags, sel) &&
         detail::select22_strategy(c, flags, sel) && detail::select22_precision(c, flags, sel) &&
         detail::realize22(c, flags, std::move(sel), plan) && detail::fabric_cli_used(c);
}

/// `to` takes `from`'s storage, emptied; `from` takes `to`'s (none, so nothing is freed when it is assigned again).
template <typename T>
void lend(T& from, T& to) {
  from.swap(to);
  to.clear();
}

/// A default plan in `out`: the plan of the last resolution into `out` (or the one it left when it failed), reset in
/// place, field by field, keeping its storage: the lists the selection fills and hands over at realize
/// (parallel devices, parsed device list, strategy params) are lent to `sel`; strings are cleared, keeping their room.
/// Each field of Plan is reset here (reuse_test and the batch md5s compare a reused outcome with a fresh one).
Plan& fresh_plan(Outcome& out, detail::Selection& sel) {
  out.failure.reset();
  Plan* p = &out.plan_room;
  lend(p->parallel_devices, sel.parallel_devices);
  lend(p->devices.list, sel.parsed_devices.list);
  lend(p->strategy.params, sel.strategy_params);
  p->accelerator = p->accelerator_class = {};
  p->devices.reset();
  p->num_nodes = p->num_processes = 1;
  p->cluster_environment = {};
  p->strategy.name = p->strategy.cls = p->strategy.family = {};
  p->strategy.root_device.clear();
  p->launcher = {};
  p->precision.value.clear();
  p->precision.plugin = p->precision.amp_backend = {};
  p->precision.amp_level.clear();
  p->precision.device.clear();
  p->checkpoint_io.clear();
  p->layer_sync.clear();
  p->is_distributed = false;
  auto& d = p->determinism;
  d.use_deterministic_algorithms = d.warn_only = d.cudnn_benchmark = d.cudnn_deterministic = false;
  d.env.clear();
  p->trainer_state = true;
  return *p;
}

/// The outcome of a finished resolution: its plan (already in `out`) or its error, its notes and trace.
void finish(detail::Resolution& c, Outcome& out, bool ok) {
  c.end_notes();
  if (!ok) out.failure = std::move(c.error);
  if (c.fabric()) {  // the messages name the class the user constructs
    if (!ok) out.failure->connector = c.connector_name();
    for (auto& n : c.notes) n.connector = c.connector_name();
  }
  out.notes = std::move(c.notes);
  out.trace = std::move(c.trace);
}

// Fabric(...) binds its keywords (user code has built the instances) before _Connector reads LT_*: those steps run on
// the case as given, the connector's on the case with the LT_* arguments; one journal goes through both.
void resolve_fabric(const Case& given, Profile profile, Outcome& out) {
  detail::Resolution pre(given, profile, out);
  std::optional<Case> replaced;
  bool ok = detail::construct_instances(pre) && detail::check_keywords(pre) && detail::fabric_arguments(pre, replaced);
  auto run = [&](detail::Resolution& c) {
    detail::FinalFlags flags;
    detail::Selection sel;
    Plan& plan = fresh_plan(out, sel);
    finish(c, out, ok && run_fabric22(c, flags, sel, plan));
  };
  if (!replaced) return run(pre);  // no LT_* argument and an int num_nodes: the case as given
  detail::Resolution c(*replaced, profile);
  static_cast<detail::Journal&>(c) = std::move(static_cast<detail::Journal&>(pre));
  run(c);
}

// The Trainer's connectors: the PL_TRAINER_* defaults first, then each release's steps and the determinism block.
void resolve_trainer(const Case& given, Profile profile, Outcome& out) {
  std::optional<Case> with_env_defaults = detail::trainer_env_defaults(given, profile);
  const Case& in = with_env_defaults ? *with_env_defaults : given;
  detail::Resolution c(in, profile, out);  // the read-only input and the journal every stage appends to
  if (with_env_defaults) c.fire(RuleId::kTrainerEnvDefaults);
  detail::FinalFlags flags;
  detail::Selection sel;
  Plan& plan = fresh_plan(out, sel);
  bool ok = c.pol.connector_release == ConnectorRelease::kLightning22 ? run_lightning22(c, flags, sel, plan)
                                                                       : run_lightning16(c, flags, sel, plan);
  if (ok) detail::realize_determinism(c, plan);
  finish(c, out, ok);
}

}  // namespace

void resolve(const Case& given, Profile profile, Outcome& out) {
  if (policy(profile).connector_release == ConnectorRelease::kFabric22)
    resolve_fabric(given, profile, out);
  else
    resolve_trainer(given, profile, out);
}

Outcome resolve(const Case& given, Profile profile) {
  Outcome out;  // one object, returned in place
  resolve(given, profile, out);
  return out;
}

}  // namespace accord::reference

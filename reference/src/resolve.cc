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
         detail::select22_accelerator(c, flags, sel) && detail::select22_cluster_env(c, flags, sel) &&
         detail::select22_strategy(c, flags, sel) && detail::select22_precision(c, flags, sel) &&
         detail::realize22(c, flags, std::move(sel), plan);
}

}  // namespace

Outcome resolve(const Case& given, Profile profile) {
  std::optional<Case> with_env_defaults = detail::trainer_env_defaults(given, profile);
  const Case& in = with_env_defaults ? *with_env_defaults : given;
  detail::Resolution c(in, profile);  // the read-only input and the journal every stage appends to
  if (with_env_defaults) c.fire(RuleId::kTrainerEnvDefaults);
  Outcome out;
  Plan& plan = out.result.emplace<Plan>();  // built in place; replaced by the error when a stage fails
  detail::FinalFlags flags;
  detail::Selection sel;
  bool ok = c.pol.connector_release == ConnectorRelease::kLightning22 ? run_lightning22(c, flags, sel, plan)
                                                                       : run_lightning16(c, flags, sel, plan);
  if (ok)
    detail::realize_determinism(c, plan);
  else
    out.result = std::move(*c.error);
  out.notes = std::move(c.notes);
  out.trace = std::move(c.trace);
  return out;
}

}  // namespace accord::reference

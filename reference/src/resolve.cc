// resolve.cc: the single entry point; the stage order lives here and only here.
#include "accord/reference/resolve.h"

#include "context.h"

namespace accord::reference {

Outcome resolve(const Case& given, Profile profile) {
  std::optional<Case> with_env_defaults = detail::trainer_env_defaults(given);
  const Case& in = with_env_defaults ? *with_env_defaults : given;
  detail::Resolution c(in, profile);  // the read-only input and the journal every stage appends to
  if (with_env_defaults) c.fire(RuleId::kTrainerEnvDefaults);
  Outcome out;
  Plan& plan = out.result.emplace<Plan>();  // built in place; replaced by the error when a stage fails
  // Stage 1: check the flags and set final flags. Stage 2: choose accelerator, devices, cluster
  // environment, strategy, precision. Stage 3: complete the strategy and apply determinism. Each stage reads the
  // results before it as const values and fills its own.
  detail::FinalFlags flags;
  detail::Selection sel;
  bool ok = detail::construct_instances(c) && detail::check_determinism_flags(c) && detail::validate_flags(c, flags) &&
            detail::validate_plugins(c, flags) && detail::validate_amp(c, flags) && detail::validate_devices(c, flags) &&
            detail::select_accelerator(c, flags, sel) && detail::select_cluster_env(c, flags, sel) &&
            detail::select_strategy(c, flags, sel) && detail::select_precision(c, flags, sel) &&
            detail::realize(c, flags, std::move(sel), plan);
  if (ok)
    detail::realize_determinism(c, plan);
  else
    out.result = std::move(*c.error);
  out.notes = std::move(c.notes);
  out.trace = std::move(c.trace);
  return out;
}

}  // namespace accord::reference

// determinism_flags_props.cc: the plan's torch determinism settings agree with the flags.
//
// spec (decision 10): deterministic None leaves the algorithms alone (off, not warn-only, cudnn
// deterministic untouched); True/"warn" turn them on ("warn": warn-only) and cudnn.deterministic on;
// False turns both off. benchmark None keeps the process-wide cudnn.benchmark unless deterministic is
// truthy (then off); True/False are taken as given; True with deterministic truthy warns.
// CUBLAS_WORKSPACE_CONFIG=":4096:8" iff deterministic is truthy; HOROVOD_FUSION_THRESHOLD="0" iff
// also the strategy is horovod.
// lightning-1.6 (1.6.5 __init__ and _init_deterministic): the same, except that "warn" is invalid, cudnn.deterministic is never
// set, and HOROVOD_FUSION_THRESHOLD comes with every truthy deterministic.
// Any other value of either flag is an error naming it.
#include <algorithm>
#include "prop_util.h"

namespace accord::prop {
namespace {
using reference::Case;
using reference::DiagCode;
using reference::Profile;
using reference::PyValue;

bool valid_deterministic(const PyValue& d, Profile p) {
  return d.is_none() || d.kind == PyValue::Kind::kBool || (reference::policy(p).deterministic_warn_mode && d.is_str() && d.str == "warn");
}

void determinism_flags(Case c, Profile p) {
  c.flags.deterministic = *gen_deterministic_flag();
  c.flags.benchmark = *gen_benchmark_flag();
  const PyValue& d = c.flags.deterministic;
  const PyValue& b = c.flags.benchmark;
  auto o = reference::resolve(c, p);
  RC_TAG(reference::repr(d), reference::repr(b));
  // User code builds plugin/strategy instances before the Trainer runs, so their constructor errors come
  // before the determinism flags are looked at.
  if (!o.ok() && !o.trace.empty() &&
      (o.trace.back() == reference::RuleId::kInstanceConstructors || o.trace.back() == reference::RuleId::kInstanceArguments))
    return;
  // 1.6.5 writes cudnn.benchmark before use_deterministic_algorithms, so a bad benchmark is reported first.
  if (!(b.is_none() || b.kind == PyValue::Kind::kBool)) {
    RC_ASSERT(!o.ok());
    RC_ASSERT(o.error().code == DiagCode::kFlagType);
    RC_ASSERT(o.error().field("flag") == std::string("benchmark"));
    return;
  }
  if (!valid_deterministic(d, p)) {
    RC_ASSERT(!o.ok());
    RC_ASSERT(o.error().code == DiagCode::kDeterministicInvalid);
    RC_ASSERT(o.error().field("deterministic") == reference::repr(d));
    return;
  }
  bool det = d.truthy();
  bool warned = false;
  for (const auto& n : o.notes) warned = warned || n.code == DiagCode::kBenchmarkWithDeterministic;
  // lightning-1.6 drops rank_zero_* notes on a non-zero rank (rank_zero.py _get_rank); the trace says when it did.
  bool gated = std::find(o.trace.begin(), o.trace.end(), reference::RuleId::kRankZeroOnly) != o.trace.end();
  if (!gated) RC_ASSERT(warned == (det && b.truthy()));
  RC_PRE(o.ok());
  const auto& m = o.plan().determinism;
  RC_ASSERT(m.use_deterministic_algorithms == det);
  RC_ASSERT(m.warn_only == (d.is_str() && d.str == "warn"));
  bool bench = b.is_none() ? (det ? false : c.hardware.cudnn_benchmark) : b.b;
  RC_ASSERT(m.cudnn_benchmark == bench);
  RC_ASSERT(m.cudnn_deterministic == (reference::policy(p).cudnn_deterministic && det));
  RC_ASSERT((m.env.count("CUBLAS_WORKSPACE_CONFIG") == 1) == det);
  if (det) RC_ASSERT(m.env.at("CUBLAS_WORKSPACE_CONFIG") == ":4096:8");
  bool horovod = o.plan().strategy.cls == "HorovodStrategy";
  bool fusion = det && (!reference::policy(p).horovod_env_only_with_horovod || horovod);
  RC_ASSERT((m.env.count("HOROVOD_FUSION_THRESHOLD") == 1) == fusion);
  RC_ASSERT(m.env.size() == static_cast<std::size_t>(det) + static_cast<std::size_t>(fusion));
}

}  // namespace

// The 1.6.5 connector's behaviour (lightning-2.2 differs by design: PL 2.2.5 _AcceleratorConnector; its corpus and
// the differential run against the real 2.2.5 check it instead).
ACCORD_PROP_PROFILES_WHERE(DeterminismFlags, determinism_flags,
                           [](const reference::Policy& pol) { return pol.connector_release == reference::ConnectorRelease::kLightning16; })

}  // namespace accord::prop

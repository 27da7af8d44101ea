// determinism.cc: deterministic / benchmark values and the torch state they ask for (decision 10).
#include "../context.h"

namespace accord::reference::detail {

// PL 1.6.5 AcceleratorConnector.__init__ order: the benchmark-with-deterministic warning, then cudnn.benchmark is written (torch rejects a non-bool),
// then use_deterministic_algorithms(deterministic) (torch rejects a non-bool).
bool check_determinism_flags(Resolution& c) {
  const PyValue& d = c.in.flags.deterministic;
  const PyValue& b = c.in.flags.benchmark;
  if (d.truthy() && b.truthy()) {
    c.fire(RuleId::kBenchmarkWithDeterministic);
    c.note(DiagCode::kBenchmarkWithDeterministic, {fld("deterministic", d)});
  }
  c.fire(RuleId::kBenchmarkValue);
  if (!(b.is_none() || b.kind == PyValue::Kind::kBool))
    return c.fail(DiagCode::kFlagType, {fld("flag", "benchmark"), fld("value", repr(b)), fld("expected", "True, False or None")});
  if (c.pol.deterministic_unchecked) return true;
  c.fire(RuleId::kDeterministicValue);
  bool warn_ok = c.pol.deterministic_warn_mode && py_eq_str(d, "warn");
  if (!(d.is_none() || d.kind == PyValue::Kind::kBool || warn_ok))
    return c.fail(DiagCode::kDeterministicInvalid,
                  {fld("deterministic", d), fld("allowed", c.pol.deterministic_warn_mode ? "True, False, 'warn' or None" : "True, False or None")});
  return true;
}

// PL 1.6.4 #13154 _init_deterministic and __init__; spec per decision 10.
void realize_determinism(Resolution& c, Plan& plan) {
  const PyValue& d = c.in.flags.deterministic;
  const PyValue& b = c.in.flags.benchmark;
  auto& out = plan.determinism;
  bool det = d.truthy();
  // use_deterministic_algorithms is called with a bool or 'warn' (any value where deterministic_warn_mode does not
  // hold, which rejected the others; a non-bool under deterministic_unchecked is never passed to it).
  bool called = c.pol.deterministic_warn_mode ? d.kind == PyValue::Kind::kBool || py_eq_str(d, "warn") : true;
  if (called) {
    c.fire(RuleId::kDeterministic);
    out.use_deterministic_algorithms = det;
  }
  if (py_eq_str(d, "warn")) {
    c.fire(RuleId::kDeterministicWarn);
    out.warn_only = true;
  }
  std::optional<bool> bench;
  if (!b.is_none()) bench = b.b;
  if (det && !bench) {
    c.fire(RuleId::kBenchmarkDefault);
    bench = false;
  }
  if (!bench) c.fire(RuleId::kBenchmarkUntouched);
  out.cudnn_benchmark = bench.value_or(c.in.hardware.cudnn_benchmark);
  if (c.pol.cudnn_deterministic && !d.is_none()) {
    c.fire(RuleId::kCudnnDeterministic);
    out.cudnn_deterministic = det;
  }
  if (!det) return;
  c.fire(RuleId::kCublasWorkspace);
  out.env.emplace("CUBLAS_WORKSPACE_CONFIG", ":4096:8");
  bool horovod = plan.strategy.cls == row(StrategyClass::kHorovod).cls;
  if (!c.pol.horovod_env_only_with_horovod || horovod) {
    c.fire(RuleId::kHorovodFusion);
    out.env.emplace("HOROVOD_FUSION_THRESHOLD", "0");
  }
}

}  // namespace accord::reference::detail

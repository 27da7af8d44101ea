// context.h: the working state shared by the stages of one resolution (internal).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accord/reference/inputs.h"
#include "accord/reference/plan.h"
#include "accord/reference/registry.h"

namespace accord::reference::detail {

/// The accelerator flag after intake: unset, "auto", a registered name, or an instance of a class.
struct AcceleratorFlag {
  /// kText: a string that names no accelerator as written, kept until the registry lookup (lightning-1.6: a
  /// strategy instance's `accelerator`, which no flag check sees; `GPU`, `cuda`, `foo`).
  enum class Kind { kUnset, kAuto, kName, kInstance, kText };
  Kind kind = Kind::kUnset;
  AcceleratorId id = AcceleratorId::kNone;
  std::string text;  ///< kText only
  AcceleratorFlag() = default;
  AcceleratorFlag(Kind k, AcceleratorId a = AcceleratorId::kNone, std::string t = {}) : kind(k), id(a), text(std::move(t)) {}
  /// Python repr of the flag as Lightning holds it (`'gpu'`, `'auto'`, `None`, `GPUAccelerator()`).
  std::string repr() const;
  /// True when the flag is the string `name` (Lightning's `flag == "gpu"` comparisons).
  bool is_name(AcceleratorId a) const { return kind == Kind::kName && id == a; }
};

/// `['auto', 'cpu', 'gpu', ...]`: what an accelerator string may be (err_accelerator_unknown's `allowed`).
std::string accelerator_names_with_auto();

/// SLURM's verdict: managing the tasks, or why not ("" reason when SLURM_NTASKS is absent).
struct SlurmVerdict { bool managing = false; std::string reason; };

/// The state every stage reads and writes. Stages return false after fail().
struct Ctx {
  Ctx(const Case& c, Profile p) : in(c), profile(p), pol(policy(p)) { trace.reserve(48); }  // one allocation per case
  const Case& in;
  Profile profile;
  const Policy& pol;
  std::vector<Diagnostic> notes;
  std::vector<RuleId> trace;
  std::optional<Diagnostic> error;

  // stage 1: final flags
  std::vector<PyValue> plugins;
  PyValue strategy_flag;  ///< lower-cased string, instance, or another value; absent = None
  AcceleratorFlag accel;
  PyValue precision;      ///< None when absent in 1.6 is 32; spec normalises spellings
  std::string_view amp_type;  ///< "native", "apex", "" (None)
  PyValue amp_level;
  std::optional<PyValue> precision_plugin, checkpoint_io, cluster_env;
  std::string layer_sync;  ///< class name, "" = none
  std::vector<std::string> strategy_parallel_devices;
  PyValue devices_flag;
  long long num_nodes = 1;
  const char* legacy_source = nullptr;  ///< the legacy flag that set the devices, if any

  // stage 2: selection
  AcceleratorId accelerator = AcceleratorId::kNone;
  bool accelerator_is_instance = false;
  PyValue parsed_devices;
  std::vector<std::string> parallel_devices;
  std::optional<ClusterEnvId> env;
  std::optional<StrategyClass> strategy_cls;
  std::string_view strategy_name;  ///< registered name or class strategy_name (table storage)
  std::vector<std::pair<std::string, std::string>> strategy_params;
  bool strategy_is_instance = false;
  std::string root_device;
  PrecisionPlan precision_plan;
  /// SLURM's verdict once the devices are counted (the cluster environment and the strategy fallback both ask).
  std::optional<SlurmVerdict> slurm;

  // helpers
  void fire(RuleId r) { trace.push_back(r); }
  /// Records a note; under `rank_zero_gating` a rank_zero_* note is dropped off rank 0 (realize.rank-zero-only).
  void note(DiagCode c, std::vector<Field> f = {});
  bool fail(DiagCode c, std::vector<Field> f = {}) {
    error = Diagnostic{c, std::move(f)};
    return false;
  }
  /// The env variable, or nullptr. A scan of the (small, sorted) environment: no string is built for a literal
  /// name or a piece of a table cell.
  const std::string* env_var(std::string_view k) const {
    for (const auto& [name, value] : in.env) {
      if (name[0] != k[0]) {  // the first letter usually decides (name[0] is '\0' for an empty name)
        if (static_cast<unsigned char>(name[0]) > static_cast<unsigned char>(k[0])) break;
        continue;
      }
      int order = name.compare(k);
      if (order == 0) return &value;
      if (order > 0) break;
    }
    return nullptr;
  }
  /// The class a user's instance names, among the classes this profile's Lightning has (policy
  /// the class's Gate column: HalfPrecisionPlugin exists where classes_from_2x holds).
  std::optional<ClassInfo> class_of(const Instance& inst) const;
  /// Whether the accelerator (flag or instance, per policy) is `a`.
  bool accel_is(AcceleratorId a) const;
};

/// The table row of `v` when it is an instance of a known class of kind `k`, as Python's `isinstance(v, <base
/// class>)` decides; nullopt for absent, for any other value and for instances of other kinds. PL 1.6.5 takes a
/// strategy instance's components unchecked and tests them with isinstance where it uses them.
inline std::optional<int> instance_row(const std::optional<PyValue>& v, ClassKind k) {
  if (!v || !v->is_instance()) return std::nullopt;
  const auto& ci = v->inst->known;
  if (!ci || ci->kind != k) return std::nullopt;
  return ci->id;
}

/// `Trainer(flag=value)` field helpers.
inline Field fld(const std::string& k, const PyValue& v) { return {k, repr(v)}; }
inline Field fld(const std::string& k, const std::string& v) { return {k, v}; }

/// PL 1.6.5 _is_slurm_managing_tasks, worked out once per case (Ctx::slurm); nullptr after fail() on an unreadable
/// SLURM_NTASKS.
const SlurmVerdict* slurm_verdict(Ctx& c);
bool detect_torchelastic(const Ctx& c);
bool detect_kubeflow(const Ctx& c);
/// "a `SingleTPUStrategy` or `TPUSpawnStrategy`": the strategy classes of a group, for messages.
std::string group_allowed(StrategyGroup g);

// Stage entry points, in the order resolve() calls them.
bool validate_flags(Ctx& c);          // stages/validate_flags.cc
bool validate_amp(Ctx& c);            // stages/validate_flags.cc
bool validate_plugins(Ctx& c);        // stages/validate_plugins.cc
bool validate_devices(Ctx& c);        // stages/validate_devices.cc
bool select_accelerator(Ctx& c);      // stages/select_accelerator.cc
bool select_cluster_env(Ctx& c);      // stages/select_cluster_env.cc
bool select_strategy(Ctx& c);         // stages/select_strategy.cc
bool select_precision(Ctx& c);        // stages/select_precision.cc
bool realize(Ctx& c, Plan& plan);     // stages/realize.cc
/// The case with `PL_TRAINER_<FLAG>` environment defaults applied to the flags it does not pass; nullopt when
/// none applies (validate.trainer-env-defaults).
std::optional<Case> trainer_env_defaults(const Case& in);  // stages/validate_flags.cc
bool construct_instances(Ctx& c);     // stages/validate_plugins.cc
bool check_determinism_flags(Ctx& c);        // stages/determinism.cc
void realize_determinism(Ctx& c, Plan& plan);  // stages/determinism.cc

}  // namespace accord::reference::detail

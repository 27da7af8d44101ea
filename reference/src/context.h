// context.h: what the stages of one resolution share (input, journal) and the result each stage produces (internal).
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
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
  /// Python str() of the flag as Lightning holds it (`gpu`, `auto`, `None`, `GPUAccelerator()`).
  std::string str() const;
  /// True when the flag is the string `name` (Lightning's `flag == "gpu"` comparisons).
  bool is_name(AcceleratorId a) const { return kind == Kind::kName && id == a; }
  /// Whether the flag is `a`: the name, or (under policy instances_match_by_kind) an instance of its class.
  bool is(AcceleratorId a, const Policy& pol) const;
};

/// The text `make()` builds for `key`, built once per key and thread and then shared: a list of names that a message
/// shows. Each caller passes its own lambda, so each list has its own store (a deque: a text once built never moves).
template <typename Key, typename Make>
const std::string& once_per_thread(const Key& key, Make make) {
  thread_local std::deque<std::pair<Key, std::string>> done;
  for (const auto& [k, text] : done)
    if (k == key) return text;
  return done.emplace_back(key, make()).second;
}

/// `['auto', 'cpu', 'gpu', ...]`: what an accelerator string may be (err_accelerator_unknown's `allowed`); built once
/// per profile and thread.
const std::string& accelerator_names_with_auto(const Policy& p);

/// A str value for a literal, built once and shared by reference: a flag's default (`"auto"`) or the strategy name
/// a default choice or a fallback puts in the flag's place costs no string and no value per resolution.
template <const char* kText>
const PyValue& str_value() {
  static const PyValue v = PyValue::string(kText);
  return v;
}

/// The absent value (a flag not passed), shared: what a borrowed flag points at before a step sets it.
inline const PyValue& absent_value() {
  static const PyValue v;
  return v;
}
/// None and an int for a literal, built once and shared by reference as str_value is.
inline const PyValue& none_value() {
  static const PyValue v = PyValue::none();
  return v;
}
template <std::int64_t kN>
const PyValue& int_value() {
  static const PyValue v = PyValue::integer(kN);
  return v;
}

/// A flag's value as the steps leave it: borrowed (the case's own value, a table's, a shared constant: each outlives
/// the resolution) or, once a step rewrites it, a copy of its own. A flag taken as given costs no copy. It may point
/// into itself, so it is neither copied nor moved.
class FlagValue {
 public:
  FlagValue() = default;
  FlagValue(const FlagValue&) = delete;
  FlagValue& operator=(const FlagValue&) = delete;
  const PyValue& operator*() const { return *at_; }
  const PyValue* operator->() const { return at_; }
  /// Reads `v` from now on; `v` outlives the resolution.
  void borrow(const PyValue& v) { at_ = &v; }
  /// Keeps `v` as its own value.
  void keep(PyValue v) { at_ = &own_.emplace(std::move(v)); }
  /// Its own value to rewrite in place: a copy of the value read until now, made on the first call.
  PyValue& own() {
    if (!own_ || at_ != &*own_) at_ = &own_.emplace(*at_);
    return *own_;
  }

 private:
  const PyValue* at_ = &absent_value();
  std::optional<PyValue> own_;
};

/// A str flag lower-cased (ASCII, as Python's str.lower() on the registered names): copied only when it has an
/// upper-case letter.
inline void lower_in_place(FlagValue& f) {
  for (char ch : f->str)
    if (ch >= 'A' && ch <= 'Z') {
      for (auto& c : f.own().str)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      return;
    }
}

/// `SingleDeviceStrategy(device=...)` and its kin as a default choice: built once per (class, device) and thread, then
/// shared by reference (select_strategy.cc).
const PyValue& single_device_strategy(StrategyClass cls, std::string_view device);

/// SLURM's verdict: managing the tasks, or why not ("" reason when SLURM_NTASKS is absent).
struct SlurmVerdict { bool managing = false; std::string reason; };

// What the stages share, and what each produces.
//
// A resolution runs three stages in the order of resolve.cc (SPEC.md "Stage order"); each gets the read-only Input and
// appends to the Journal (together: Resolution), reads the results of the stages before it as const values and fills
// its own result, its only output: validate fills FinalFlags, select fills Selection, realize fills the Plan (and
// consumes the Selection, moving its values into the plan). Within a stage the steps build the stage's result in
// sequence (one owner: the stage), a later step completing or revising what an earlier one set; the comment of each
// field names the steps that write it. Where a later stage revises an earlier stage's value, it records the value as
// its own field: the accelerator flag of FinalFlags is resolved (IPU strategy, registry lookup, auto, default) into
// Selection::accelerator, and the strategy flag's default and fallbacks are local to select_strategy.

/// The read-only input of one resolution: the case after the `PL_TRAINER_<FLAG>` defaults, the profile, its policies.
struct Input {
  Input(const Case& c, Profile p) : in(c), profile(p), pol(policy(p)) {}
  const Case& in;
  const Profile profile;
  const Policy& pol;

  /// The env variable, or nullptr. A scan of the (small, sorted) environment: no string is built for a literal
  /// name or a piece of a table cell.
  const std::string* env_var(std::string_view k) const {
    if (in.env.empty()) return nullptr;  // most cases: no iterator is made
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
  /// The 2.2.5 classes and shared steps (the Trainer's connector or Fabric's; policy connector_release).
  bool release22() const { return pol.connector_release != ConnectorRelease::kLightning16; }
  /// Lightning Fabric's connector (connector_release = fabric22): its argument names and its own steps.
  bool fabric() const { return pol.connector_release == ConnectorRelease::kFabric22; }
  /// The class users construct: `Trainer` or `Fabric` (messages, err_unexpected_keyword's owner).
  const char* connector_name() const { return fabric() ? "Fabric" : "Trainer"; }
  /// A strategy's precision-plugin constructor argument: Fabric's strategies take `precision`.
  const char* precision_arg() const { return fabric() ? "precision" : "precision_plugin"; }
  /// The class a user's instance names, among the classes this profile's Lightning has (policy
  /// the class's Gate column: HalfPrecisionPlugin exists where classes_from_2x holds).
  std::optional<ClassInfo> class_of(const Instance& inst) const;
};

/// The resolution's log, which every stage appends to: the rules that fired, the notes, the one error. Not stage
/// state: no stage decides anything from it.
struct Journal {
  /// The notes: [0, noted) this resolution's; past them, those of the last resolution into the same outcome, each
  /// overwritten in turn by a new note (its field list's storage kept) and the rest dropped when the resolution ends.
  std::vector<Diagnostic> notes;
  std::size_t noted = 0;
  std::vector<RuleId> trace;
  std::optional<Diagnostic> error;
  void fire(RuleId r) { trace.push_back(r); }
  /// Records the error; a stage returns false after it.
  bool fail(DiagCode c, std::vector<Field> f = {}) {
    error = Diagnostic{c, std::move(f)};
    return false;
  }
  /// The same for fields written as a braced list (`{fld(...), fld(...)}`): each is moved into the diagnostic, where
  /// a std::initializer_list would copy every key and value.
  template <std::size_t N>
  bool fail(DiagCode c, Field (&&f)[N]) {
    return fail(c, moved_fields(std::move(f)));
  }
  template <std::size_t N>
  static std::vector<Field> moved_fields(Field (&&f)[N]) {
    std::vector<Field> out;
    out.reserve(N);
    for (Field& x : f) out.push_back(std::move(x));
    return out;
  }
};

/// What every step of every stage receives: the input (read only) and the journal. It holds no stage's result.
struct Resolution : Input, Journal {
  /// `room`: an outcome whose trace and notes storage this resolution reuses (the trace emptied here, the notes kept
  /// for their field lists: Journal::notes); a caller resolving case after case into one Outcome allocates no trace.
  Resolution(const Case& c, Profile p, Outcome& room) : Input(c, p) {
    trace.swap(room.trace), notes.swap(room.notes);
    trace.clear();
    trace.reserve(48);
  }
  Resolution(const Case& c, Profile p) : Input(c, p) {}  // takes its journal from another resolution
  /// Records a note with no fields; under `rank_zero_gating` a rank_zero_* note is dropped off rank 0
  /// (realize.rank-zero-only).
  void note(DiagCode c) { next_note(c); }
  /// The same with fields written as a braced list, each moved (Journal::fail) into the field list of a kept note.
  template <std::size_t N>
  void note(DiagCode c, Field (&&f)[N]) {
    note(c, f, N);
  }
  void note(DiagCode c, Field* f, std::size_t n);  ///< the braced list's n fields, each moved
  /// The note to write, its fields empty (a kept one, or a new one at the end); nullptr when the note is dropped.
  Diagnostic* next_note(DiagCode c);
  /// Drops the kept notes past this resolution's.
  void end_notes() { notes.erase(notes.begin() + static_cast<std::ptrdiff_t>(noted), notes.end()); }
};

/// Stage 1 (validate): the flags after their checks, as PL 1.6.5 _check_config_and_set_final_flags and
/// _map_deprecated_devices_specfic_info_to_accelerator_and_device_flag leave them. Its steps run in the order
/// validate_flags, validate_plugins, validate_amp, validate_devices (construct_instances and check_determinism_flags
/// before them write no field); each field names the steps that write it.
struct FinalFlags {
  /// validate_flags: the plugins flag as a list (the case's own values, which outlive the resolution).
  struct Plugins {
    const PyValue* first = nullptr;
    size_t n = 0;
    const PyValue* begin() const { return first; }
    const PyValue* end() const { return first + n; }
    size_t size() const { return n; }
  } plugins;
  /// validate_flags (`strategy=`, `accelerator=<strategy>`), validate_plugins (a strategy plugin): lower-cased
  /// string, instance, or another value; absent = None.
  FlagValue strategy_flag;
  /// validate_flags (`accelerator=`), validate_plugins (a strategy instance's `accelerator` and parallel devices),
  /// validate_devices (a legacy device flag).
  AcceleratorFlag accelerator_flag;
  FlagValue precision;        ///< validate_flags: None when absent in 1.6 is 32; spec normalises spellings
  std::string_view amp_type;  ///< validate_amp: "native", "apex", "" (None)
  FlagValue amp_level;        ///< validate_amp
  /// validate_plugins: the plugins given, or the strategy instance's own (taken unchecked, so any value).
  std::optional<PyValue> precision_plugin_flag, checkpoint_io_flag, cluster_env_flag;
  std::string_view layer_sync;  ///< validate_plugins: class name (static or the case's instance), "" = none
  std::vector<std::string> strategy_parallel_devices;  ///< validate_plugins: the strategy instance's parallel_devices
  FlagValue devices_flag;     ///< validate_devices (`devices=` or the legacy flag)
  long long num_nodes = 1;                ///< validate_devices
  const char* legacy_source = nullptr;    ///< validate_devices: the legacy flag that set the devices, if any
};

/// Stage 2 (select): what is chosen. Its steps run in the order select_accelerator, select_cluster_env,
/// select_strategy, select_precision; each field names the steps that write it. Two fields are revised by a later
/// step of the stage: the accelerator (select_strategy's ddp_cpu fallback turns GPU into CPU, PL 1.6.5
/// _check_strategy_and_fallback) and the parallel devices (select_strategy's Horovod step, PL 1.6.5 _handle_horovod).
struct Selection {
  /// select_accelerator (the accelerator flag resolved), select_strategy (the ddp_cpu fallback).
  AcceleratorId accelerator = AcceleratorId::kNone;
  bool accelerator_is_instance = false;  ///< as accelerator: the flag was an Accelerator instance
  PyValue parsed_devices;                ///< select_accelerator
  std::vector<std::string> parallel_devices;  ///< select_accelerator, select_strategy (Horovod)
  /// slurm_verdict, asked by select_cluster_env or select_strategy once the devices are counted.
  std::optional<SlurmVerdict> slurm;
  std::optional<ClusterEnvId> cluster_env;  ///< select_cluster_env
  // select_strategy
  std::optional<StrategyClass> strategy_cls;
  std::string_view strategy_name;  ///< registered name or class strategy_name (table storage)
  std::vector<std::pair<std::string, std::string>> strategy_params;
  bool strategy_is_instance = false;
  std::string root_device;
  PrecisionPlan precision_plan;  ///< select_precision

  /// Lightning's `accelerator_flag == "<name>"` once the flag is chosen (a name, or an instance that matches by kind
  /// under policy instances_match_by_kind).
  bool accelerator_flag_is(AcceleratorId a, const Policy& pol) const {
    return accelerator == a && (!accelerator_is_instance || pol.instances_match_by_kind);
  }
  /// The strategy flag as Lightning 2.2.5 keeps it after its default and fallbacks (`self._strategy_flag`, named by
  /// the interactive and XLA errors): the instance given, else the registered name chosen (lower-cased). Built only
  /// for a message.
  PyValue kept_strategy_flag(const Input& c) const {
    return strategy_is_instance ? c.in.flags.strategy : PyValue::string(std::string(strategy_name));
  }
  /// Python repr of the chosen accelerator flag (`'gpu'`, `GPUAccelerator()`).
  std::string accelerator_flag_repr() const { return AcceleratorFlag(flag_kind(), accelerator).repr(); }

 private:
  AcceleratorFlag::Kind flag_kind() const {
    return accelerator_is_instance ? AcceleratorFlag::Kind::kInstance : AcceleratorFlag::Kind::kName;
  }
};

/// The table row of `v` when it is an instance of a class of kind `k` that this profile's Lightning has, as Python's
/// `isinstance(v, <base class>)` decides; nullopt for absent, for any other value, for instances of other kinds and
/// for classes of another release (a 2.x MPIEnvironment on lightning-1.6 is no ClusterEnvironment there). PL 1.6.5
/// takes a strategy instance's components unchecked and tests them with isinstance where it uses them.
inline std::optional<int> instance_row(const Input& c, const std::optional<PyValue>& v, ClassKind k) {
  if (!v || !v->is_instance()) return std::nullopt;
  const auto ci = c.class_of(*v->inst);
  if (!ci || ci->kind != k) return std::nullopt;
  return ci->id;
}

/// How a strategy's precision setter names it in its TypeError ("The XLA strategy can only work with ..."): XLA, FSDP,
/// and Fabric's XLAFSDPStrategy "XLA FSDP" (its checkpoint io setter says XLA). PL 2.2.5 strategies/*.py setters.
inline const char* precision_setter_label(const StrategyClassRow& cls) {
  if (cls.id == StrategyClass::kXlaFsdp) return "XLA FSDP";
  return cls.group == StrategyGroup::kTpu ? "XLA" : "FSDP";
}

/// The class whose constructor fails when a strategy's package is missing: the strategy's own, except Fabric's
/// XLAStrategy, whose __init__ checks nothing itself and builds its XLAEnvironment first (PL 2.2.5
/// fabric/strategies/xla.py XLAStrategy.__init__; the Trainer's checks _XLA_AVAILABLE before).
inline std::string_view package_component(const Input& c, const StrategyClassRow& cls) {
  return c.fabric() && cls.id == StrategyClass::kXla ? row(ClusterEnvId::kXla).cls : std::string_view(cls.cls);
}

/// Whether a strategy's checkpoint io setter takes `io`: any CheckpointIO where the class insists on none, else its class;
/// the Trainer's XLA setters also take a wrapping checkpoint io (tables/other_classes.def, column Wraps), Fabric's do
/// not (PL 2.2.5 pytorch/strategies/xla.py and single_xla.py, fabric/strategies/xla*.py checkpoint_io setters).
inline bool checkpoint_io_accepted(const Input& c, const StrategyClassRow& cls, const PyValue& io) {
  if (!*cls.needs_checkpoint_io) return true;
  if (!io.is_instance()) return false;
  if (io.inst->cls == cls.needs_checkpoint_io) return true;
  auto ci = c.fabric() ? std::nullopt : c.class_of(*io.inst);
  return ci && ci->kind == ClassKind::kCheckpointIO && ci->wraps;
}

/// `Trainer(flag=value)` field helpers: the key and the value each become the field's string once (a string built
/// for the value, `"devices=" + repr(v)`, is moved in; a literal's length is known where it is written).
inline Field fld(std::string_view k, const PyValue& v) { return {std::string(k), repr(v)}; }
inline Field fld(std::string_view k, std::string_view v) { return {std::string(k), std::string(v)}; }
template <typename S, std::enable_if_t<std::is_same_v<S, std::string>, int> = 0>  // a std::string rvalue alone
inline Field fld(std::string_view k, S&& v) { return {std::string(k), std::move(v)}; }

/// PL 1.6.5 _is_slurm_managing_tasks, worked out once per case (Selection::slurm, a step of stage 2); nullptr after
/// fail() on an unreadable SLURM_NTASKS.
const SlurmVerdict* slurm_verdict(Resolution& c, const FinalFlags& flags, Selection& sel);
bool detect_torchelastic(const Input& c);
bool detect_kubeflow(const Input& c);
bool detect_lsf(const Input& c);
/// "a `SingleTPUStrategy` or `TPUSpawnStrategy`": the strategy classes of a group, for messages; worked out once per
/// group, profile and thread.
const std::string& group_allowed(StrategyGroup g, const Policy& p);
/// "bagua, ddp, ...": every name the profile registers, or (interactive_only) those whose launcher is always
/// interactive-compatible, sorted by name (`allowed` of strategy-unknown, `compatible` of the interactive error;
/// realize.interactive-check); worked out once per profile and thread.
const std::string& registered_names(const Policy& p, bool interactive_only = false);  // stages/select_strategy.cc

// Stage entry points, in the order resolve() calls them. Each writes only its own stage's result.
/// The case with `PL_TRAINER_<FLAG>` environment defaults applied to the flags it does not pass; nullopt when
/// none applies (validate.trainer-env-defaults). Builds the Input, before stage 1; the Trainer's only (Fabric reads
/// LT_* variables instead, fabric_arguments).
std::optional<Case> trainer_env_defaults(const Case& in, Profile p);  // stages/validate_flags.cc
/// A flag the profile's Trainer.__init__ does not take (tables/flags.def, column Accepted): Python's TypeError.
bool check_keywords(Resolution& c);  // stages/validate_flags.cc
/// The amp backend as the messages show it: the flag, or 1.6.5's default "native" when it is not passed.
const PyValue& amp_backend_shown(const Input& c);  // stages/select_precision.cc
// Stage 1: validate, filling FinalFlags.
/// err_plugins_duplicate for the plugin kinds given more than once, named in first-seen order ("PrecisionPlugin,
/// CheckpointIO"); true when none is.
bool check_duplicates(Resolution& c, const std::vector<std::string_view>& kinds);  // stages/validate_plugins.cc
bool construct_instances(Resolution& c);                         // stages/validate_plugins.cc
bool check_determinism_flags(Resolution& c);                     // stages/determinism.cc
bool validate_flags(Resolution& c, FinalFlags& flags);           // stages/validate_flags.cc
bool validate_plugins(Resolution& c, FinalFlags& flags);         // stages/validate_plugins.cc
bool validate_amp(Resolution& c, FinalFlags& flags);             // stages/validate_flags.cc
bool validate_devices(Resolution& c, FinalFlags& flags);         // stages/validate_devices.cc
// Stage 2: select, filling Selection from the final flags.
bool select_accelerator(Resolution& c, const FinalFlags& flags, Selection& sel);  // stages/select_accelerator.cc
bool select_cluster_env(Resolution& c, const FinalFlags& flags, Selection& sel);  // stages/select_cluster_env.cc
bool select_strategy(Resolution& c, const FinalFlags& flags, Selection& sel);     // stages/select_strategy.cc
bool select_precision(Resolution& c, const FinalFlags& flags, Selection& sel);    // stages/select_precision.cc
// Stage 3: realize, filling the Plan; it consumes the selection (moves its values into the plan).
bool realize(Resolution& c, const FinalFlags& flags, Selection&& sel, Plan& plan);  // stages/realize.cc
void realize_determinism(Resolution& c, Plan& plan);                                // stages/determinism.cc

// The Lightning 2.2.5 connectors (policy connector_release = lightning22, the Trainer's; fabric22, Fabric's, whose
// steps are these with its own differences read from the policy): in resolve.cc's order for each.
bool validate22_flags(Resolution& c, FinalFlags& flags);                            // stages/validate22.cc
bool validate22_plugins(Resolution& c, FinalFlags& flags);                          // stages/validate22.cc
/// `auto` and `gpu` resolved to an accelerator (_choose_auto_accelerator, _choose_gpu_accelerator_backend).
bool select22_accelerator_flag(Resolution& c, const FinalFlags& flags, Selection& sel);  // stages/select22_accelerator.cc
/// _check_device_config_and_set_final_flags: num_nodes and devices=0 (the Trainer after the accelerator flag is
/// resolved, Fabric before: the message names the flag as it then is).
bool check22_device_config(Resolution& c, const FinalFlags& flags, const Selection& sel);  // stages/select22_accelerator.cc
/// The accelerator built and available, then its devices (_set_parallel_devices_and_init_accelerator).
bool select22_accelerator(Resolution& c, const FinalFlags& flags, Selection& sel);  // stages/select22_accelerator.cc
bool select22_cluster_env(Resolution& c, const FinalFlags& flags, Selection& sel);  // stages/select22_accelerator.cc
bool select22_strategy(Resolution& c, const FinalFlags& flags, Selection& sel);     // stages/select22_strategy.cc
bool select22_precision(Resolution& c, const FinalFlags& flags, Selection& sel);    // stages/select22_strategy.cc
bool realize22(Resolution& c, const FinalFlags& flags, Selection&& sel, Plan& plan);  // stages/realize22.cc
/// Lightning Fabric 2.2.5 (connector_release = fabric22), before its stage 1: LT_* arguments replace the flags and
/// num_nodes goes through int(); `replaced` is the case with them, unset when nothing changed.
bool fabric_arguments(Resolution& c, std::optional<Case>& replaced);  // stages/fabric_arguments.cc
/// Fabric.__init__ after its connector: an LT_CLI_USED that int() cannot read is an error (`_is_using_cli`).
bool fabric_cli_used(Resolution& c);  // stages/fabric_arguments.cc
/// The cluster environment's constructor checks (LSF's rank file; 2.2.5 SLURM's --ntasks, MPI's and XLA's packages).
bool construct_cluster_env(Resolution& c, ClusterEnvId id);  // stages/validate_plugins.cc
/// The accelerator's constructor checks (2.2.5 XLAAccelerator needs torch_xla).
bool accelerator_constructible(Resolution& c, AcceleratorId id);  // stages/validate_plugins.cc

// Steps both connectors share.
/// A strategy flag (a registered name or an instance) instantiated: class, name, params, root device, and the
/// constructor's package, hardware and device checks (select.strategy-registry, select.strategy-constructor).
bool instantiate_strategy(Resolution& c, Selection& sel, const PyValue& flag);  // stages/select_strategy.cc
struct ParsedDevices;  // normalize/devices.h
struct DeviceRoom;     // normalize/devices.h
/// The parsed devices into the selection, or the strategy instance's own (select.devices-gpu-torchelastic,
/// select.parallel-devices-from-strategy; both releases).
void adopt_devices(Resolution& c, const FinalFlags& flags, const AcceleratorRow& acc, ParsedDevices&& p, Selection& sel);  // stages/select_accelerator.cc
DeviceRoom device_room(Selection& sel);  // stages/select_accelerator.cc
/// TPU/HPU (XLA) accelerator with a strategy of another group: the late check of _lazy_init_strategy
/// (realize.accelerator-strategy-exclusive; both releases).
bool exclusive_late(Resolution& c, const Selection& sel);  // stages/realize.cc
/// Strategy.set_world_ranks and the cluster environment getters into the plan (realize.world-ranks).
bool world_ranks(Resolution& c, const Selection& sel, Plan& plan);  // stages/realize.cc

}  // namespace accord::reference::detail

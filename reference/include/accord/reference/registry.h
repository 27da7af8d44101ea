// registry.h: typed views of the rule tables (accelerators, strategies, launchers, plugins, envs).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accord/reference/gate.h"

namespace accord::reference {

enum class DeviceParser { kCpu, kGpu, kHpu, kIpu, kTpu, kMps, kXla };
enum class StrategyGroup { kAny, kTpu, kHpu };
enum class AmpGroup { kPlain, kSharded, kFullySharded, kDeepSpeed };
enum class InteractiveRule { kAlways, kNever, kForkOnly };
enum class ExternalRule { kAlways, kIfLocalRank, kNever };
/// Where a strategy class's `root_device` comes from (strategy_classes.def, column Root).
enum class RootDevice { kArg, kLocalRank, kFirst, kNone };
enum class ClassKind { kAccelerator, kStrategy, kPrecisionPlugin, kClusterEnvironment, kCheckpointIO, kLayerSync };

enum class AcceleratorId {
  kNone = -1,
#define ACCORD_ACCELERATOR(Id, Name, Class, DeviceType, AutoCount, Parser, Exclusive, Gate) k##Id,
#include "../../../tables/accelerators.def"
};
enum class StrategyClass {
#define ACCORD_STRATEGY_CLASS(Id, Class, Name, Launcher, Parallel, WorldRanks, PerNode, Distributed, Group, Amp, NeedsGpu, Package, Hardware, Ckpt, \
                              Root, DeviceDefault, KeepsClusterEnv, NeedsPrecision, NeedsCheckpointIO, Gate) k##Id,
#include "../../../tables/strategy_classes.def"
};
enum class StrategyId {
#define ACCORD_STRATEGY(Id, Name, Class, Params, Gate) k##Id,
#include "../../../tables/strategies.def"
};
enum class LauncherKind {
#define ACCORD_LAUNCHER(Id, Name, StartMethod, Interactive, Class16, Class22) k##Id,
#include "../../../tables/launchers.def"
};
enum class PrecisionPluginId {
#define ACCORD_PRECISION_PLUGIN(Id, Class, Accepts, Package, TpuOk, Default, Gate) k##Id,
#include "../../../tables/precision_plugins.def"
};
enum class ClusterEnvId {
#define ACCORD_CLUSTER_ENV(Id, Class, External, Settable, World, Global, Local, Node, Gate) k##Id,
#include "../../../tables/cluster_envs.def"
};

struct AcceleratorRow {
  AcceleratorId id; std::string_view name; std::string_view cls; const char* device_type; int auto_count;
  DeviceParser parser; StrategyGroup exclusive;
  PolicyGate gate;  ///< the profiles whose registry has it
};
struct StrategyClassRow {
  StrategyClass id; std::string_view cls; std::string_view name; LauncherKind launcher; bool parallel; bool world_ranks;
  bool per_node; bool distributed; StrategyGroup group; AmpGroup amp; bool needs_gpu; std::string_view package;
  AcceleratorId hardware; std::string_view checkpoint_io; RootDevice root; std::string_view device_default; bool keeps_cluster_env;
  const char* needs_precision; const char* needs_checkpoint_io;  ///< "" any; else the class the setters insist on
  PolicyGate gate;  ///< the profiles whose Lightning has the class
};
struct StrategyRow {
  StrategyId id; std::string_view name; StrategyClass cls; const char* params;
  PolicyGate gate;  ///< the profiles whose registry has the name
};
struct LauncherRow {
  LauncherKind id; std::string_view name; std::string_view start_method; InteractiveRule interactive;
  std::string_view cls16; std::string_view cls22;  ///< the class in Lightning 1.6.5 / 2.2.5 ("" for no launcher)
};
struct PrecisionPluginRow {
  PrecisionPluginId id; std::string_view cls; const char* accepts; const char* package; bool tpu_ok; const char* default_precision;
  PolicyGate gate;  ///< the profiles in which the class exists
};
struct ClusterEnvRow {
  ClusterEnvId id; std::string_view cls; ExternalRule external; bool settable;
  const char* world; const char* global; const char* local; const char* node;
  PolicyGate gate;  ///< the profiles whose Lightning has the class
};

/// The rows of one table, in table order (a view of constant storage: `for (const auto& r : strategies())`).
template <typename Row>
struct Rows {
  const Row* first;
  const Row* last;
  const Row* begin() const { return first; }
  const Row* end() const { return last; }
  size_t size() const { return static_cast<size_t>(last - first); }
};
Rows<AcceleratorRow> accelerators();
Rows<StrategyClassRow> strategy_classes();
Rows<StrategyRow> strategies();
Rows<LauncherRow> launchers();
Rows<PrecisionPluginRow> precision_plugins();
Rows<ClusterEnvRow> cluster_envs();

const AcceleratorRow& row(AcceleratorId id);
const StrategyClassRow& row(StrategyClass id);
const StrategyRow& row(StrategyId id);
const LauncherRow& row(LauncherKind id);
const PrecisionPluginRow& row(PrecisionPluginId id);
const ClusterEnvRow& row(ClusterEnvId id);

/// Whether a row is in the tables of the profile whose policies are `p` (its Gate column holds).
template <typename Row>
bool in_profile(const Row& r, const Policy& p) {
  return r.gate.holds(p);
}

/// The accelerator registered under the exact name in the profile whose policies are `p`.
std::optional<AcceleratorId> accelerator_by_name(std::string_view name, const Policy& p);
/// The strategy registered under the exact (already lower-cased) name in the profile whose policies are `p`.
std::optional<StrategyId> strategy_by_name(std::string_view name, const Policy& p);

/// What a class name denotes when written as an instance.
struct ClassInfo {
  ClassKind kind;
  int id = -1;          ///< the row id in the kind's table (-1 for checkpoint io / layer sync)
  bool native = true;   ///< layer sync: the built-in NativeSyncBatchNorm
  bool wraps = false;   ///< checkpoint io: a _WrappingCheckpointIO (tables/other_classes.def, column Wraps)
};
/// Looks a class name up over every table (exact case), in any profile (the first row of that name); nullopt for
/// unknown classes.
std::optional<ClassInfo> class_by_name(std::string_view cls);
/// The class of that name in the profile whose policies are `p` (the first row of that name whose gate holds).
std::optional<ClassInfo> class_by_name(std::string_view cls, const Policy& p);
/// The first class row of that name over every table (-1: none), for class_at: what an instance looks up once.
int class_row(std::string_view cls);
/// class_by_name(cls, p) from the first row of the name (class_row(cls)): no name is hashed or compared.
std::optional<ClassInfo> class_at(int first_row, const Policy& p);
/// class_by_name(cls) from the first row of the name: that row's class, in any profile.
std::optional<ClassInfo> class_at(int first_row);
/// The keyword arguments the constructor of `cls` takes (tables/constructor_args.def): `*` for any (**kwargs),
/// else `|`-separated names ("" for none); nullptr for a class without a row.
const char* constructor_args(std::string_view cls);
/// The arguments in the profile whose policies are `p` (a class whose signature changed between releases has a row each).
const char* constructor_args(std::string_view cls, const Policy& p);
/// A class a release keeps only as a stub that raises in its constructor: it moved to an external package
/// (tables/moved_classes.def).
struct MovedClassRow {
  std::string_view cls;
  const char* package;  ///< `pip install <package>`
  const char* module;   ///< `from <module> import <cls>`
  const char* url;
};
/// The row of `cls` in the profile whose policies are `p`; null when the class did not move there.
const MovedClassRow* moved_class(std::string_view cls, const Policy& p);
/// Whether a constructor whose arguments are `args` (a constructor_args cell) takes the keyword `name`.
bool takes_argument(const char* args, std::string_view name);
/// Every known class name, sorted (each once).
std::vector<std::string> class_names();
/// The class names of the profile whose policies are `p`, sorted.
std::vector<std::string> class_names(const Policy& p);

/// Splits a `|`-separated table cell.
std::vector<std::string> split_cell(const std::string& cell, char sep = '|');

}  // namespace accord::reference

// registry.cc: the rule tables as vectors of rows, and name lookups over them.
#include "accord/reference/registry.h"

#include <algorithm>
#include <unordered_map>

namespace accord::reference {


const std::vector<AcceleratorRow>& accelerators() {
  static const std::vector<AcceleratorRow> rows = {
#define ACCORD_ACCELERATOR(Id, Name, Class, DeviceType, AutoCount, Parser, Exclusive) \
  {AcceleratorId::k##Id, Name, Class, DeviceType, AutoCount, DeviceParser::Parser, StrategyGroup::Exclusive},
#include "../tables/accelerators.def"
  };
  return rows;
}

const std::vector<StrategyClassRow>& strategy_classes() {
  static const std::vector<StrategyClassRow> rows = {
#define ACCORD_STRATEGY_CLASS(Id, Class, Name, Launcher, Parallel, WorldRanks, PerNode, Distributed, Group, Amp, NeedsGpu, Package, Hardware, Ckpt, \
                              Root, DeviceDefault, KeepsClusterEnv)                                                                   \
  {StrategyClass::k##Id, Class, Name, LauncherKind::Launcher, Parallel, WorldRanks, PerNode, Distributed, StrategyGroup::Group, AmpGroup::Amp, \
   NeedsGpu, Package, AcceleratorId::Hardware, Ckpt, RootDevice::Root, DeviceDefault, KeepsClusterEnv},
#include "../tables/strategy_classes.def"
  };
  return rows;
}

const std::vector<StrategyRow>& strategies() {
  static const std::vector<StrategyRow> rows = {
#define ACCORD_STRATEGY(Id, Name, Class, Params) {StrategyId::k##Id, Name, StrategyClass::k##Class, Params},
#include "../tables/strategies.def"
  };
  return rows;
}

const std::vector<LauncherRow>& launchers() {
  static const std::vector<LauncherRow> rows = {
#define ACCORD_LAUNCHER(Id, Name, StartMethod, Interactive) {LauncherKind::k##Id, Name, StartMethod, InteractiveRule::Interactive},
#include "../tables/launchers.def"
  };
  return rows;
}

const std::vector<PrecisionPluginRow>& precision_plugins() {
  static const std::vector<PrecisionPluginRow> rows = {
#define ACCORD_PRECISION_PLUGIN(Id, Class, Accepts, Package, TpuOk, Default, Lightning2x) \
  {PrecisionPluginId::k##Id, Class, Accepts, Package, TpuOk, Default, Lightning2x},
#include "../tables/precision_plugins.def"
  };
  return rows;
}

const std::vector<ClusterEnvRow>& cluster_envs() {
  static const std::vector<ClusterEnvRow> rows = {
#define ACCORD_CLUSTER_ENV(Id, Class, External, Settable, World, Global, Local, Node) \
  {ClusterEnvId::k##Id, Class, ExternalRule::External, Settable, World, Global, Local, Node},
#include "../tables/cluster_envs.def"
  };
  return rows;
}

const AcceleratorRow& row(AcceleratorId id) { return accelerators().at(static_cast<size_t>(id)); }
const StrategyClassRow& row(StrategyClass id) { return strategy_classes().at(static_cast<size_t>(id)); }
const StrategyRow& row(StrategyId id) { return strategies().at(static_cast<size_t>(id)); }
const LauncherRow& row(LauncherKind id) { return launchers().at(static_cast<size_t>(id)); }
const PrecisionPluginRow& row(PrecisionPluginId id) { return precision_plugins().at(static_cast<size_t>(id)); }
const ClusterEnvRow& row(ClusterEnvId id) { return cluster_envs().at(static_cast<size_t>(id)); }

std::optional<AcceleratorId> accelerator_by_name(const std::string& name) {
  for (const auto& r : accelerators())
    if (name == r.name) return r.id;
  return std::nullopt;
}

std::optional<StrategyId> strategy_by_name(const std::string& name) {
  // A hash index over the table, built once: the resolver looks names up several times per case.
  static const std::unordered_map<std::string, StrategyId> index = [] {
    std::unordered_map<std::string, StrategyId> m;
    for (const auto& r : strategies()) m.emplace(r.name, r.id);
    return m;
  }();
  auto it = index.find(name);
  if (it == index.end()) return std::nullopt;
  return it->second;
}

namespace {
struct OtherClass { const char* cls; ClassKind kind; bool native; };
const std::vector<OtherClass>& other_classes() {
  static const std::vector<OtherClass> rows = {
#define ACCORD_OTHER_CLASS(Class, Kind, Native) {Class, ClassKind::Kind, Native},
#include "../tables/other_classes.def"
  };
  return rows;
}
}  // namespace

namespace {
std::optional<ClassInfo> scan_classes(const std::string& cls) {
  for (const auto& r : accelerators())
    if (cls == r.cls) return ClassInfo{ClassKind::kAccelerator, static_cast<int>(r.id), true};
  for (const auto& r : strategy_classes())
    if (cls == r.cls) return ClassInfo{ClassKind::kStrategy, static_cast<int>(r.id), true};
  for (const auto& r : precision_plugins())
    if (cls == r.cls) return ClassInfo{ClassKind::kPrecisionPlugin, static_cast<int>(r.id), true};
  for (const auto& r : cluster_envs())
    if (cls == r.cls) return ClassInfo{ClassKind::kClusterEnvironment, static_cast<int>(r.id), true};
  for (const auto& r : other_classes())
    if (cls == r.cls) return ClassInfo{r.kind, -1, r.native};
  return std::nullopt;
}
}  // namespace

std::optional<ClassInfo> class_by_name(const std::string& cls) {
  // A hash index over every table, built once from scan_classes (so the first table still wins).
  static const std::unordered_map<std::string, ClassInfo> index = [] {
    std::unordered_map<std::string, ClassInfo> m;
    for (const auto& name : class_names()) m.emplace(name, *scan_classes(name));
    return m;
  }();
  auto it = index.find(cls);
  if (it == index.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> class_names() {
  std::vector<std::string> out;
  for (const auto& r : accelerators()) out.push_back(r.cls);
  for (const auto& r : strategy_classes()) out.push_back(r.cls);
  for (const auto& r : precision_plugins()) out.push_back(r.cls);
  for (const auto& r : cluster_envs()) out.push_back(r.cls);
  for (const auto& r : other_classes()) out.push_back(r.cls);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> split_cell(const std::string& cell, char sep) {
  std::vector<std::string> out;
  if (cell.empty()) return out;
  size_t start = 0;
  for (;;) {
    auto pos = cell.find(sep, start);
    out.push_back(cell.substr(start, pos == std::string::npos ? std::string::npos : pos - start));
    if (pos == std::string::npos) break;
    start = pos + 1;
  }
  return out;
}

}  // namespace accord::reference

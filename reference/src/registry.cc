// registry.cc: the rule tables as constant arrays of rows, and name lookups over them.
#include "accord/reference/registry.h"

#include "accord/reference/profiles.h"

#include <algorithm>
#include <cassert>
#include <iterator>

namespace accord::reference {


namespace {
/// A text column of a table as a std::string_view whose length the compiler counts: GCC leaves a table whose
/// string_view columns are built from `const char*` (a strlen at run time) to dynamic initialisation, and a look-up
/// made while another file's statics are initialised (accord_bench parses its cases then) would see empty rows.
template <std::size_t N>
constexpr std::string_view lit(const char (&text)[N]) {
  return {text, N - 1};
}

// Constant-initialised: no guard on each access, and row() below indexes it directly.
const AcceleratorRow kAccelerators[] = {
#include "gate_macros.h"
#define ACCORD_ACCELERATOR(Id, Name, Class, DeviceType, AutoCount, Parser, Exclusive, Gate) \
  {AcceleratorId::k##Id, lit(Name), lit(Class), DeviceType, AutoCount, DeviceParser::Parser, StrategyGroup::Exclusive, Gate},
#include "../tables/accelerators.def"
#include "gate_macros_end.h"
};
}  // namespace

Rows<AcceleratorRow> accelerators() { return {std::begin(kAccelerators), std::end(kAccelerators)}; }

namespace {
// Constant-initialised: no guard on each access, and row() below indexes it directly.
const StrategyClassRow kStrategyClasses[] = {
#include "gate_macros.h"
#define ACCORD_STRATEGY_CLASS(Id, Class, Name, Launcher, Parallel, WorldRanks, PerNode, Distributed, Group, Amp, NeedsGpu, Package, Hardware, Ckpt, \
                              Root, DeviceDefault, KeepsClusterEnv, NeedsPrecision, NeedsCheckpointIO, Gate)                         \
  {StrategyClass::k##Id, lit(Class), lit(Name), LauncherKind::Launcher, Parallel, WorldRanks, PerNode, Distributed, StrategyGroup::Group, \
   AmpGroup::Amp, NeedsGpu, lit(Package), AcceleratorId::Hardware, lit(Ckpt), RootDevice::Root, lit(DeviceDefault), KeepsClusterEnv,       \
   NeedsPrecision, NeedsCheckpointIO, Gate},
#include "../tables/strategy_classes.def"
#include "gate_macros_end.h"
};
}  // namespace

Rows<StrategyClassRow> strategy_classes() { return {std::begin(kStrategyClasses), std::end(kStrategyClasses)}; }

namespace {
// Constant-initialised: no guard on each access, and row() below indexes it directly.
const StrategyRow kStrategies[] = {
#include "gate_macros.h"
#define ACCORD_STRATEGY(Id, Name, Class, Params, Gate) {StrategyId::k##Id, lit(Name), StrategyClass::k##Class, Params, Gate},
#include "../tables/strategies.def"
#include "gate_macros_end.h"
};
}  // namespace

Rows<StrategyRow> strategies() { return {std::begin(kStrategies), std::end(kStrategies)}; }

namespace {
// Constant-initialised: no guard on each access, and row() below indexes it directly.
const LauncherRow kLaunchers[] = {
#define ACCORD_LAUNCHER(Id, Name, StartMethod, Interactive, Class16, Class22) \
  {LauncherKind::k##Id, lit(Name), lit(StartMethod), InteractiveRule::Interactive, lit(Class16), lit(Class22)},
#include "../tables/launchers.def"
};
}  // namespace

Rows<LauncherRow> launchers() { return {std::begin(kLaunchers), std::end(kLaunchers)}; }

namespace {
// Constant-initialised: no guard on each access, and row() below indexes it directly.
const PrecisionPluginRow kPrecisionPlugins[] = {
#include "gate_macros.h"
#define ACCORD_PRECISION_PLUGIN(Id, Class, Accepts, Package, TpuOk, Default, Gate) \
  {PrecisionPluginId::k##Id, lit(Class), Accepts, Package, TpuOk, Default, Gate},
#include "../tables/precision_plugins.def"
#include "gate_macros_end.h"
};
}  // namespace

Rows<PrecisionPluginRow> precision_plugins() { return {std::begin(kPrecisionPlugins), std::end(kPrecisionPlugins)}; }

namespace {
// Constant-initialised: no guard on each access, and row() below indexes it directly.
const ClusterEnvRow kClusterEnvs[] = {
#include "gate_macros.h"
#define ACCORD_CLUSTER_ENV(Id, Class, External, Settable, World, Global, Local, Node, Gate) \
  {ClusterEnvId::k##Id, lit(Class), ExternalRule::External, Settable, World, Global, Local, Node, Gate},
#include "../tables/cluster_envs.def"
#include "gate_macros_end.h"
};
}  // namespace

Rows<ClusterEnvRow> cluster_envs() { return {std::begin(kClusterEnvs), std::end(kClusterEnvs)}; }

namespace {
// Every id is an enumerator generated from the same table as the array, so it is in range; debug builds (the
// sanitizer job) check it.
template <typename Row, size_t N, typename Id>
const Row& at(const Row (&rows)[N], Id id) {
  assert(static_cast<size_t>(id) < N);
  return rows[static_cast<size_t>(id)];
}
}  // namespace

const AcceleratorRow& row(AcceleratorId id) { return at(kAccelerators, id); }
const StrategyClassRow& row(StrategyClass id) { return at(kStrategyClasses, id); }
const StrategyRow& row(StrategyId id) { return at(kStrategies, id); }
const LauncherRow& row(LauncherKind id) { return at(kLaunchers, id); }
const PrecisionPluginRow& row(PrecisionPluginId id) { return at(kPrecisionPlugins, id); }
const ClusterEnvRow& row(ClusterEnvId id) { return at(kClusterEnvs, id); }

namespace {
/// A name -> value index over a table, built once: open addressing on a cheap hash of the length and three
/// characters, then one comparison. No string is built and no byte loop runs per lookup (the resolver looks names up
/// several times per case; std::hash reads every byte).
template <typename V>
class NameIndex {
 public:
  void add(std::string_view name, V v) { entries_.push_back({name, v}); }
  void seal() {
    size_t n = 16;
    while (n < entries_.size() * 4) n *= 2;
    slots_.assign(n, -1);
    for (size_t k = 0; k < entries_.size(); ++k) {
      if (find(entries_[k].name)) continue;  // a repeated name: the first entry wins
      size_t h = hash(entries_[k].name) & (n - 1);
      while (slots_[h] >= 0) h = (h + 1) & (n - 1);
      slots_[h] = static_cast<int>(k);
    }
  }
  std::optional<V> find(std::string_view name) const {
    if (slots_.empty()) return std::nullopt;
    size_t mask = slots_.size() - 1;
    for (size_t h = hash(name) & mask; slots_[h] >= 0; h = (h + 1) & mask)
      if (entries_[static_cast<size_t>(slots_[h])].name == name) return entries_[static_cast<size_t>(slots_[h])].value;
    return std::nullopt;
  }

 private:
  struct Entry { std::string_view name; V value; };
  static size_t hash(std::string_view s) {
    if (s.empty()) return 0;
    auto at = [&](size_t k) { return static_cast<size_t>(static_cast<unsigned char>(s[k])); };
    return s.size() * 0x9E3779B1u ^ at(0) * 0x85EBCA77u ^ at(s.size() / 2) * 0xC2B2AE3Du ^ at(s.size() - 1) * 0x27D4EB2Fu;
  }
  std::vector<Entry> entries_;
  std::vector<int> slots_;
};
}  // namespace

std::optional<AcceleratorId> accelerator_by_name(std::string_view name, const Policy& p) {
  for (const auto& r : accelerators())  // eight rows: the first letter decides
    if (!name.empty() && name[0] == r.name[0] && name == r.name && r.gate.holds(p)) return r.id;
  return std::nullopt;
}

std::optional<StrategyId> strategy_by_name(std::string_view name, const Policy& p) {
  // Each name, then the next row of the same name: a name registered in two releases with different rows.
  struct Index { NameIndex<int> first; std::vector<int> next; };
  static const Index index = [] {
    Index m;
    const size_t n = strategies().size();
    m.next.assign(n, -1);
    for (size_t k = 0; k < n; ++k) {
      m.first.add(strategies().begin()[k].name, static_cast<int>(k));
      for (size_t j = k + 1; j < n; ++j)
        if (std::string_view(strategies().begin()[j].name) == strategies().begin()[k].name) { m.next[k] = static_cast<int>(j); break; }
    }
    m.first.seal();
    return m;
  }();
  for (int k = index.first.find(name).value_or(-1); k >= 0; k = index.next[static_cast<size_t>(k)])
    if (strategies().begin()[k].gate.holds(p)) return strategies().begin()[k].id;
  return std::nullopt;
}

namespace {
struct OtherClass { const char* cls; ClassKind kind; bool native; bool wraps; PolicyGate gate; };
const OtherClass kOtherClasses[] = {
#include "gate_macros.h"
#define ACCORD_OTHER_CLASS(Class, Kind, Native, Wraps, Gate) {Class, ClassKind::Kind, Native, Wraps, Gate},
#include "../tables/other_classes.def"
#include "gate_macros_end.h"
};
Rows<OtherClass> other_classes() { return {std::begin(kOtherClasses), std::end(kOtherClasses)}; }

/// Every class row of every table, in table order, with the next row of the same name (-1: none).
struct ClassRow { std::string_view name; ClassInfo info; PolicyGate gate; int next; };
struct ClassRows {
  std::vector<ClassRow> rows;
  NameIndex<int> first;  ///< name -> the first row of that name
};
const ClassRows& class_rows() {
  static const ClassRows all = [] {
    ClassRows out;
    auto add = [&](std::string_view name, ClassInfo info, PolicyGate gate) { out.rows.push_back({name, info, gate, -1}); };
    for (const auto& r : accelerators()) add(r.cls, {ClassKind::kAccelerator, static_cast<int>(r.id), true}, r.gate);
    for (const auto& r : strategy_classes()) add(r.cls, {ClassKind::kStrategy, static_cast<int>(r.id), true}, r.gate);
    for (const auto& r : precision_plugins()) add(r.cls, {ClassKind::kPrecisionPlugin, static_cast<int>(r.id), true}, r.gate);
    for (const auto& r : cluster_envs()) add(r.cls, {ClassKind::kClusterEnvironment, static_cast<int>(r.id), true}, r.gate);
    for (const auto& r : other_classes()) add(r.cls, {r.kind, -1, r.native, r.wraps}, r.gate);
    for (size_t k = out.rows.size(); k-- > 0;) {  // chain each row to the next of its name
      for (size_t j = k + 1; j < out.rows.size(); ++j)
        if (out.rows[j].name == out.rows[k].name) { out.rows[k].next = static_cast<int>(j); break; }
    }
    for (size_t k = 0; k < out.rows.size(); ++k) out.first.add(out.rows[k].name, static_cast<int>(k));
    out.first.seal();
    return out;
  }();
  return all;
}
}  // namespace

int class_row(std::string_view cls) { return class_rows().first.find(cls).value_or(-1); }

std::optional<ClassInfo> class_at(int first_row, const Policy& p) {
  const ClassRows& all = class_rows();
  for (auto k = first_row; k >= 0; k = all.rows[static_cast<size_t>(k)].next)
    if (all.rows[static_cast<size_t>(k)].gate.holds(p)) return all.rows[static_cast<size_t>(k)].info;
  return std::nullopt;
}

std::optional<ClassInfo> class_by_name(std::string_view cls, const Policy& p) { return class_at(class_row(cls), p); }

std::optional<ClassInfo> class_at(int first_row) {
  if (first_row < 0) return std::nullopt;
  return class_rows().rows[static_cast<size_t>(first_row)].info;
}

std::optional<ClassInfo> class_by_name(std::string_view cls) { return class_at(class_row(cls)); }

namespace {
struct MovedClass { MovedClassRow row; PolicyGate gate; };
const MovedClass kMovedClasses[] = {
#include "gate_macros.h"
#define ACCORD_MOVED_CLASS(Class, Package, Module, Url, Gate) {{lit(Class), Package, Module, Url}, Gate},
#include "../tables/moved_classes.def"
#include "gate_macros_end.h"
};
}  // namespace

const MovedClassRow* moved_class(std::string_view cls, const Policy& p) {
  for (const auto& r : kMovedClasses)
    if (cls == r.row.cls && r.gate.holds(p)) return &r.row;
  return nullptr;
}

namespace {
struct ConstructorArgs { std::string_view cls; const char* args; PolicyGate gate; };
const ConstructorArgs kConstructorArgs[] = {
#include "gate_macros.h"
#define ACCORD_CONSTRUCTOR_ARGS(Class, Args, Gate) {lit(Class), Args, Gate},
#include "../tables/constructor_args.def"
#include "gate_macros_end.h"
};
}  // namespace

const char* constructor_args(std::string_view cls) {
  for (const auto& r : kConstructorArgs)
    if (cls == r.cls) return r.args;
  return nullptr;
}

const char* constructor_args(std::string_view cls, const Policy& p) {
  for (const auto& r : kConstructorArgs)
    if (cls == r.cls && r.gate.holds(p)) return r.args;
  return nullptr;
}

bool takes_argument(const char* args, std::string_view name) {
  std::string_view cell(args);
  if (cell == "*") return true;
  while (!cell.empty()) {
    size_t bar = cell.find('|');
    if (cell.substr(0, bar) == name) return true;
    if (bar == std::string_view::npos) break;
    cell.remove_prefix(bar + 1);
  }
  return false;
}

std::vector<std::string> class_names() {
  std::vector<std::string> out;
  for (const auto& r : accelerators()) out.emplace_back(r.cls);
  for (const auto& r : strategy_classes()) out.emplace_back(r.cls);
  for (const auto& r : precision_plugins()) out.emplace_back(r.cls);
  for (const auto& r : cluster_envs()) out.emplace_back(r.cls);
  for (const auto& r : other_classes()) out.push_back(r.cls);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());  // a class of two releases has two rows
  return out;
}

std::vector<std::string> class_names(const Policy& p) {
  std::vector<std::string> out;
  for (const auto& name : class_names())
    if (class_by_name(name, p)) out.push_back(name);
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

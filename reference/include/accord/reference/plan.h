// plan.h: the output model: a resolved plan or exactly one error, plus notes and the rule trace.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "accord/reference/diagnostic.h"
#include "accord/reference/rules.h"
#include "accord/reference/value.h"

namespace accord::reference {

/// A name taken from the rule tables (an accelerator, a class, a launcher): it views the table's static storage,
/// so it stays valid for the life of the program and costs nothing to set or copy.
using Name = std::string_view;

/// Cluster environment with the ranks it reports after the strategy set them. nullopt = not readable.
struct ClusterEnvPlan {
  Name cls;
  bool creates_processes_externally = false;
  std::optional<long long> world_size, global_rank, local_rank, node_rank;
};

struct StrategyPlan {
  Name name;    ///< the class's strategy_name (or the registered name it came from)
  Name cls;
  Name family;  ///< strategy_name of the class
  std::vector<std::pair<std::string, std::string>> params;  ///< key -> JSON literal, in key order
  std::string root_device;
};

struct LauncherPlan {
  Name kind;          ///< "" = no launcher
  Name cls;           ///< the launcher's Lightning class (`_SubprocessScriptLauncher`); "" = no launcher
  Name start_method;  ///< "" = n/a
  bool interactive_compatible = true;
};

struct PrecisionPlan {
  std::string value;  ///< "16", "bf16", "32", "64", "16-true", "bf16-true", or the raw repr
  Name plugin;
  Name amp_backend;  ///< "" = None
  std::string amp_level;    ///< "" = None
  std::string device;       ///< "" = n/a
};

/// The final torch state the plan asks for (assuming torch's defaults before the connector).
struct DeterminismPlan {
  bool use_deterministic_algorithms = false;
  bool warn_only = false;
  bool cudnn_benchmark = false;
  bool cudnn_deterministic = false;
  std::map<Name, Name> env;  ///< variables the plan sets (names and values from the rules)
};

/// A new field is reset in fresh_plan (reference/src/resolve.cc) too, where an outcome is reused.
struct Plan {
  Name accelerator;
  Name accelerator_class;
  PyValue devices;  ///< parsed devices
  std::vector<std::string> parallel_devices;
  long long num_nodes = 1;
  long long num_processes = 1;
  ClusterEnvPlan cluster_environment;
  StrategyPlan strategy;
  LauncherPlan launcher;
  PrecisionPlan precision;
  std::string checkpoint_io;  ///< "" = None (Fabric's FSDPStrategy has none)
  std::string layer_sync;  ///< "" = None
  bool is_distributed = false;
  DeterminismPlan determinism;
  /// The Trainer's connector: layer_sync, is_distributed and determinism exist. Fabric's has none of them (false):
  /// they are absent from its plan on the wire.
  bool trainer_state = true;
};

/// The result of resolve(): a plan or one error; notes (warnings, deprecations, infos); the trace.
struct Outcome {
  std::vector<Diagnostic> notes;
  std::vector<RuleId> trace;
  bool ok() const { return !failure.has_value(); }
  /// The plan when ok(); std::bad_variant_access otherwise.
  const Plan& plan() const {
    if (failure) throw std::bad_variant_access();
    return plan_room;
  }
  /// The error when !ok(); std::bad_variant_access otherwise.
  const Diagnostic& error() const {
    if (!failure) throw std::bad_variant_access();
    return *failure;
  }

  // What plan() and error() read, written by resolve() (reference/src/resolve.cc). A resolution that fails leaves
  // the plan it was filling in `plan_room`, partly filled and not part of the result: the next resolution into this
  // outcome resets it in place and fills it again, keeping its storage, whatever the one before ended with.
  std::optional<Diagnostic> failure;
  Plan plan_room;
};

}  // namespace accord::reference

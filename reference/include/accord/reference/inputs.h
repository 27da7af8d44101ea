// inputs.h: the typed input model of the connector: user flags, environment, hardware facts.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <boost/container/flat_map.hpp>
#include <boost/container/flat_set.hpp>

#include "accord/reference/profiles.h"
#include "accord/reference/value.h"

namespace accord::reference {

/// The environment variables of a case, by name in sorted order. A sorted vector (Boost.Container's flat_map) rather
/// than a tree: a case holds a few variables, read in order or by name, and a reader that fills case after case reuses
/// one block of storage instead of a node a variable. Names are looked up as string_views without building a string.
using EnvVars = boost::container::flat_map<std::string, std::string, std::less<>>;
/// A sorted set of names or ids, kept the same way (the installed packages, the busy GPU ids).
template <typename T>
using SortedSet = boost::container::flat_set<T, std::less<>>;

/// The Trainer keyword arguments the connector reads, exactly as the user wrote them: one member per row of
/// tables/flags.def (include/accord/reference/flags.h has the rows). An absent value means "not passed" (the
/// Trainer default applies).
struct UserFlags {
#define ACCORD_FLAG(Name, Instances, PyType, Accepted, Lacking, Description) PyValue Name;
#include "../../../tables/flags.def"
};

/// Hardware and installation facts (what Lightning's own tests mock).
struct HardwareFacts {
  int cuda_devices = 0;
  bool mps = false;
  bool tpu = false;
  bool ipu = false;
  bool hpu = false;
  int tpu_cores = 8;               ///< TPU devices XLAAccelerator.auto_device_count reports (Lightning 2.x; 1.6 assumes 8)
  bool fork = true;                ///< the platform supports the fork start method
  bool torch_distributed = true;   ///< torch.distributed is available (TorchElasticEnvironment.detect, 1.6.4)
  bool cudnn_benchmark = false;    ///< process-wide cudnn.benchmark before the connector runs (AcceleratorConnector.__init__, 1.6.4 #13154)
  SortedSet<std::string> packages;  ///< installed optional packages (deepspeed, fairscale, horovod, apex, bagua)
  SortedSet<int> gpu_busy;           ///< GPU ids auto_select_gpus finds unusable
  /// A TPU machine has torch_xla (the XLA accelerator needs it to report devices). A scan of the few names, in their
  /// order, to the first not before `p`: no string is built for the name asked about.
  bool has_package(std::string_view p) const {
    for (const std::string& installed : packages) {
      const int order = std::string_view(installed).compare(p);
      if (order == 0) return true;
      if (order > 0) break;
    }
    return tpu && p == "torch_xla";
  }
};

/// One resolution request: flags, environment variables, hardware, interactive session.
struct Case {
  UserFlags flags;
  EnvVars env;
  HardwareFacts hardware;
  bool interactive = false;
};

}  // namespace accord::reference

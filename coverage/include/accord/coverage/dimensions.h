// dimensions.h: the decision-space dimensions of `accord coverage`, how a case falls into them, and the
// inputs (variants) that put a generated probe into a given value of a dimension.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "accord/reference/inputs.h"

namespace accord::coverage {

/// One axis of the decision space. Cases are classified by their inputs (what the user asked for), not by
/// the outcome, so error cases and generated probes fall into cells the same way.
enum class Dim {
  kAccelerator,  ///< the accelerator flag: None, auto, or a registered accelerator (name or instance)
  kStrategy,     ///< the strategy flag: None or a strategy class (by any registered name or as an instance)
  kPrecision,    ///< the precision flag, spellings folded (16 / "16" / "16-mixed" are one value)
  kClusterEnv,   ///< the cluster environment the inputs point at (explicit plugin or environment variables)
  kHardware,     ///< the hardware class: cpu-only, 1-gpu, multi-gpu, tpu, ipu, hpu
  kLegacy,       ///< which legacy device flag is given (gpus, tpu_cores, ipus, num_processes, several)
  kDevicesForm,  ///< the form of the device request (the legacy flag's value when one is given, else devices)
};
constexpr int kDimCount = 7;

/// Stable id used in JSON and in HTML element ids (`accelerator`, `cluster-env`, ...).
const char* dim_id(Dim d);
/// Human title (`accelerator flag`).
const char* dim_title(Dim d);
/// The values of the dimension, in display order.
const std::vector<std::string>& dim_values(Dim d);
/// The value index the case falls into, or -1 when it falls outside the dimension (an unknown strategy
/// name, an accelerator flag that is a strategy, precision "mixed", ...).
int classify(const reference::Case& c, Dim d);

/// One way of putting a probe into a value: a label (`devices='0,1'`) and the edit it makes to a case.
struct Variant {
  std::string label;
  std::function<void(reference::Case&)> apply;
};
/// Every variant of value `v` of dimension `d`. Device-form variants write the legacy flag(s) when one is
/// given, so apply them after the legacy variants.
std::vector<Variant> variants(Dim d, int v);
/// Whether accelerator value `a` can run on hardware class `h` (None and auto run anywhere).
bool compatible(int accelerator_value, int hardware_value);

}  // namespace accord::coverage

// devices.h: Lightning 1.6.5's device parsers (device_parser.py) as pure functions over Python values.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accord/reference/diagnostic.h"
#include "accord/reference/value.h"

namespace accord::reference::detail {

/// Largest device count or index the model materialises (Python would exhaust memory beyond it).
constexpr long long kMaxDevices = 1000000;
/// The `expected` field of err_value_out_of_range past that bound.
constexpr const char* kMaxDevicesExpected = "at most 1000000 devices";

/// What a parser produced: parsed devices and the parallel device strings, or one diagnostic.
struct ParsedDevices {
  PyValue parsed;
  std::vector<std::string> parallel;
  bool no_gpus = false;  ///< the GPU parser's early "no GPUs" (None) result
  std::optional<Diagnostic> error;
};

/// Facts the GPU parser reads.
struct GpuFacts { int cuda_devices; bool torchelastic; };

/// Empty lists whose storage a parser writes its result into (a reused selection's, so that a resolution into a kept
/// outcome allocates no list).
struct DeviceRoom {
  std::vector<std::string> parallel;
  std::vector<PyValue> ids;
};

/// `flag` names the Trainer argument the value came from (devices or a legacy flag).
ParsedDevices parse_cpu(const PyValue& v, std::string_view flag, DeviceRoom&& room = {});
ParsedDevices parse_gpu(const PyValue& v, std::string_view flag, const GpuFacts& facts, DeviceRoom&& room = {});
ParsedDevices parse_tpu(const PyValue& v, std::string_view flag, DeviceRoom&& room = {});
ParsedDevices parse_hpu(const PyValue& v, std::string_view flag, DeviceRoom&& room = {});
ParsedDevices parse_ipu(const PyValue& v, std::string_view flag, DeviceRoom&& room = {});
/// PL 2.2.5 fabric/utilities/device_parser.py _check_data_type: None, a bool, another type, or a list with an element
/// whose type is not exactly int is err_devices_type (nullopt: the type is fine).
std::optional<Diagnostic> check_device_type22(const PyValue& v, std::string_view flag);
/// PL 2.2.5 fabric/accelerators/xla.py _parse_tpu_devices and XLAAccelerator.get_parallel_devices, with `count`
/// devices (auto_device_count).
ParsedDevices parse_xla(const PyValue& v, std::string_view flag, int count, DeviceRoom&& room = {});

}  // namespace accord::reference::detail

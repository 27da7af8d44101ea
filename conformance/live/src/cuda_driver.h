// cuda_driver.h: what the CUDA driver says about this machine, read through dlopen (never linked).
#pragma once

#include <string>
#include <vector>

namespace accord::conformance::live {

/// The CUDA driver's view of the machine.
struct CudaDriverInfo {
  bool loaded = false;             ///< libcuda.so.1 could be opened
  std::string error;               ///< why not, or why cuInit failed; empty when all went well
  int driver_version = 0;          ///< e.g. 13000 for CUDA 13.0; 0 when unknown
  int device_count = 0;            ///< visible devices (respects CUDA_VISIBLE_DEVICES)
  std::vector<std::string> names;  ///< one name per visible device
};

/// Opens libcuda.so.1 with dlopen and asks it for the driver version, device count and names.
/// Never throws; a machine without a driver gives `loaded == false` and the dlopen message.
[[nodiscard]] CudaDriverInfo probe_cuda_driver();

}  // namespace accord::conformance::live

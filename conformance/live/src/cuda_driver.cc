// cuda_driver.cc: the CUDA driver API through dlopen, so binaries start on machines without a driver.
#include "cuda_driver.h"

#include <dlfcn.h>

namespace accord::conformance::live {
namespace {

// The few driver entry points used here; their C signatures are stable since CUDA 2.x.
using CuInit = int (*)(unsigned int);
using CuDriverGetVersion = int (*)(int*);
using CuDeviceGetCount = int (*)(int*);
using CuDeviceGet = int (*)(int*, int);
using CuDeviceGetName = int (*)(char*, int, int);
using CuGetErrorString = int (*)(int, const char**);

template <typename Fn>
Fn symbol(void* handle, const char* name) {
  return reinterpret_cast<Fn>(dlsym(handle, name));
}

std::string describe(void* handle, int rc) {
  auto error_string = symbol<CuGetErrorString>(handle, "cuGetErrorString");
  const char* text = nullptr;
  if (error_string != nullptr && error_string(rc, &text) == 0 && text != nullptr) {
    return std::string(text) + " (CUresult " + std::to_string(rc) + ")";
  }
  return "CUresult " + std::to_string(rc);
}

}  // namespace

CudaDriverInfo probe_cuda_driver() {
  CudaDriverInfo info;
  // The handle is kept open on purpose: torch may use the same driver later in this process.
  void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    info.error = why != nullptr ? why : "dlopen(libcuda.so.1) failed";
    return info;
  }
  info.loaded = true;
  auto init = symbol<CuInit>(handle, "cuInit");
  auto version = symbol<CuDriverGetVersion>(handle, "cuDriverGetVersion");
  auto count = symbol<CuDeviceGetCount>(handle, "cuDeviceGetCount");
  auto get = symbol<CuDeviceGet>(handle, "cuDeviceGet");
  auto name = symbol<CuDeviceGetName>(handle, "cuDeviceGetName");
  if (init == nullptr || version == nullptr || count == nullptr || get == nullptr || name == nullptr) {
    info.error = "libcuda.so.1 lacks a driver API entry point";
    return info;
  }
  version(&info.driver_version);
  if (const int rc = init(0); rc != 0) {
    info.error = "cuInit: " + describe(handle, rc);
    return info;
  }
  int n = 0;
  if (const int rc = count(&n); rc != 0) {
    info.error = "cuDeviceGetCount: " + describe(handle, rc);
    return info;
  }
  info.device_count = n;
  for (int i = 0; i < n; ++i) {
    int device = 0;
    char buffer[256] = {};
    if (get(&device, i) == 0 && name(buffer, sizeof buffer - 1, device) == 0) {
      info.names.emplace_back(buffer);
    } else {
      info.names.emplace_back("unknown");
    }
  }
  return info;
}

}  // namespace accord::conformance::live

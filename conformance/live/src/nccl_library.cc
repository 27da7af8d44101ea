// nccl_library.cc: loads NCCL with dlopen; torch's copy first, so one process never mixes two NCCLs.
#include "nccl_library.h"

#include <dlfcn.h>

#include <array>

namespace accord::conformance::live {
namespace {

void* open_nccl(std::string& which, std::string& error) {
  constexpr std::array kNames = {"libnccl.so.2", "libnccl.so"};
  for (const char* name : kNames) {
    if (void* h = dlopen(name, RTLD_NOW | RTLD_NOLOAD)) {
      which = std::string(name) + " (already loaded)";
      return h;
    }
  }
  for (const char* name : kNames) {
    if (void* h = dlopen(name, RTLD_NOW | RTLD_GLOBAL)) {
      which = name;
      return h;
    }
    const char* why = dlerror();
    error = why != nullptr ? why : "dlopen failed";
  }
  return nullptr;
}

template <typename Fn>
void bind_symbol(void* handle, const char* name, Fn& slot, std::string& error) {
  slot = reinterpret_cast<Fn>(dlsym(handle, name));
  if (slot == nullptr && error.empty()) error = std::string("NCCL lacks ") + name;
}

NcclApi load() {
  NcclApi api;
  void* h = open_nccl(api.library, api.error);
  if (h == nullptr) return api;
  api.error.clear();
  bind_symbol(h, "ncclGetVersion", api.get_version, api.error);
  bind_symbol(h, "ncclGetUniqueId", api.get_unique_id, api.error);
  bind_symbol(h, "ncclCommInitRank", api.comm_init_rank, api.error);
  bind_symbol(h, "ncclAllReduce", api.all_reduce, api.error);
  bind_symbol(h, "ncclCommDestroy", api.comm_destroy, api.error);
  bind_symbol(h, "ncclGetErrorString", api.get_error_string, api.error);
  return api;
}

}  // namespace

const NcclApi& nccl_api() {
  static const NcclApi api = load();
  return api;
}

std::string nccl_version_string(int code) {
  // NCCL_VERSION(X,Y,Z) is X*10000+Y*100+Z from 2.9 on, X*1000+Y*100+Z before.
  const bool wide = code >= 10000;
  const int major = wide ? code / 10000 : code / 1000;
  const int minor = wide ? (code % 10000) / 100 : (code % 1000) / 100;
  const int patch = code % 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::string nccl_version() {
  const NcclApi& api = nccl_api();
  int code = 0;
  if (api.get_version == nullptr || api.get_version(&code) != 0 || code <= 0) return "";
  return nccl_version_string(code);
}

}  // namespace accord::conformance::live

// nccl_library.h: NCCL's C API through dlopen (the copy torch already loaded, else the system one).
#pragma once

#include <cstddef>
#include <string>

namespace accord::conformance::live {

/// Layout-compatible with NCCL's `ncclUniqueId` (128 opaque bytes, passed by value).
struct NcclUniqueId {
  char internal[128];
};

/// NCCL constants used here; their values are fixed by NCCL's public ABI.
inline constexpr int kNcclFloat32 = 7;
inline constexpr int kNcclSum = 0;

/// The NCCL entry points, or an error saying why they are missing.
struct NcclApi {
  std::string library;  ///< the soname that was opened
  std::string error;    ///< empty when every entry point was found
  int (*get_version)(int*) = nullptr;
  int (*get_unique_id)(NcclUniqueId*) = nullptr;
  int (*comm_init_rank)(void** comm, int nranks, NcclUniqueId id, int rank) = nullptr;
  int (*all_reduce)(const void* send, void* recv, std::size_t count, int dtype, int op, void* comm,
                    void* stream) = nullptr;
  int (*comm_destroy)(void* comm) = nullptr;
  const char* (*get_error_string)(int result) = nullptr;

  /// True when the library and every entry point were found.
  [[nodiscard]] bool ok() const { return error.empty(); }
};

/// Opens NCCL once per process (RTLD_NOLOAD first, so torch's own copy wins) and returns it.
[[nodiscard]] const NcclApi& nccl_api();

/// "2.28.9" for NCCL_VERSION_CODE 22809 (and "2.7.8" for the pre-2.9 code 2708).
[[nodiscard]] std::string nccl_version_string(int code);

/// The version of the NCCL that nccl_api() opened, or "" when none.
[[nodiscard]] std::string nccl_version();

}  // namespace accord::conformance::live

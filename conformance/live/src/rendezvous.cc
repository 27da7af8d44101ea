// rendezvous.cc: TCPStore setup with error classification, and the check-out barrier.
#include "rendezvous.h"

#include <algorithm>
#include <cctype>
#include <thread>

#include <torch/csrc/distributed/c10d/TCPStore.hpp>

namespace accord::conformance::live {
namespace {

bool mentions(std::string text, const std::initializer_list<const char*>& needles) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return std::any_of(needles.begin(), needles.end(), [&](const char* n) { return text.find(n) != std::string::npos; });
}

std::string first_line(const char* what) {
  const std::string text(what);
  const std::size_t nl = text.find('\n');
  return nl == std::string::npos ? text : text.substr(0, nl);
}

std::vector<Field> where(const CollectiveSpec& spec, const std::string& detail) {
  return {{"address", spec.rank.master_addr},
          {"port", std::to_string(spec.rank.master_port)},
          {"rank", std::to_string(spec.rank.global_rank)},
          {"timeout_s", std::to_string(spec.timeout_s)},
          {"backend", std::string(backend_name(spec.backend))},
          {"device", spec.device},
          {"detail", detail}};
}

}  // namespace

std::chrono::milliseconds timeout_ms(const CollectiveSpec& spec) {
  return std::chrono::milliseconds(static_cast<long long>(spec.timeout_s * 1000));
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

LiveFailure from_c10d(const std::exception& e, LiveCode code, const CollectiveSpec& spec) {
  const std::string detail = first_line(e.what());
  const bool rendezvous = code == LiveCode::kStoreFailed || code == LiveCode::kGroupFailed;
  if (rendezvous && mentions(detail, {"timed out", "timeout"})) return LiveFailure({LiveCode::kStoreTimeout, where(spec, detail)});
  return LiveFailure({code, where(spec, detail)});
}

c10::intrusive_ptr<c10d::Store> connect_store(const CollectiveSpec& spec) {
  c10d::TCPStoreOptions opts;
  opts.port = static_cast<std::uint16_t>(spec.rank.master_port);
  opts.isServer = spec.rank.global_rank == 0;
  opts.numWorkers = static_cast<std::size_t>(spec.rank.world_size);
  opts.waitWorkers = true;
  opts.timeout = timeout_ms(spec);
  try {
    return c10::make_intrusive<c10d::TCPStore>(spec.rank.master_addr, opts);
  } catch (const std::exception& e) {
    const std::string detail = first_line(e.what());
    if (mentions(detail, {"address already in use", "eaddrinuse", "errno: 98"})) {
      throw LiveFailure({LiveCode::kPortInUse, where(spec, detail)});
    }
    throw from_c10d(e, LiveCode::kStoreFailed, spec);
  }
}

bool check_out(c10d::Store& store, const CollectiveSpec& spec) {
  const std::string key = "accord/checked_out";
  const auto deadline = std::chrono::steady_clock::now() + timeout_ms(spec);
  try {
    std::int64_t n = store.add(key, 1);
    if (spec.rank.global_rank != 0) return true;
    while (n < spec.rank.world_size && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      n = store.add(key, 0);
    }
    return n >= spec.rank.world_size;
  } catch (const std::exception&) {
    return false;  // the collective already succeeded; a late store error only costs the barrier
  }
}

}  // namespace accord::conformance::live

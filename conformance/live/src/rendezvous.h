// rendezvous.h: the c10d TCPStore every backend meets through (internal; includes c10d headers).
#pragma once

#include <chrono>
#include <exception>

#include <torch/csrc/distributed/c10d/Store.hpp>

#include "collective.h"
#include "live_error.h"

namespace accord::conformance::live {

/// Connects to (rank 0: serves) the TCPStore at MASTER_ADDR:MASTER_PORT, waiting for all ranks
/// at most `spec.timeout_s`. Throws LiveFailure (PortInUse, StoreTimeout, StoreFailed).
[[nodiscard]] c10::intrusive_ptr<c10d::Store> connect_store(const CollectiveSpec& spec);

/// Check-out barrier: every rank counts itself out; rank 0 (the store server) waits until all
/// did, so no client loses the server while still talking to it. Bounded by `spec.timeout_s`.
/// Returns true when every rank checked out in time.
bool check_out(c10d::Store& store, const CollectiveSpec& spec);

/// A LiveFailure for an exception from c10d: a timeout while meeting the others (`code`
/// StoreFailed or GroupFailed) becomes StoreTimeout; anything else `code`, with the rank,
/// backend, device and first line of the message as fields.
[[nodiscard]] LiveFailure from_c10d(const std::exception& e, LiveCode code, const CollectiveSpec& spec);

/// Milliseconds of `spec.timeout_s`.
[[nodiscard]] std::chrono::milliseconds timeout_ms(const CollectiveSpec& spec);

/// Seconds since `t0`, for the timings in the report.
[[nodiscard]] double seconds_since(std::chrono::steady_clock::time_point t0);

}  // namespace accord::conformance::live

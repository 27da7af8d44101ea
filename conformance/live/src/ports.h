// ports.h: TCP port helpers for the rendezvous (pick a free port, tell whether one is taken).
#pragma once

namespace accord::conformance::live {

/// A port the kernel reports free right now (bind to port 0); 0 when even that fails.
[[nodiscard]] int pick_free_port();

/// True when a listening socket could not be bound to `port` on all IPv4 addresses, which is
/// what the c10d TCPStore server will try (with SO_REUSEADDR, as it does).
[[nodiscard]] bool port_in_use(int port);

}  // namespace accord::conformance::live

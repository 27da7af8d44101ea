// ports.cc: bind()-based port probes.
#include "ports.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace accord::conformance::live {
namespace {

// Binds a TCP socket to 0.0.0.0:port; returns the bound port, or -errno.
int try_bind(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -errno;
  const int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_ANY);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  int result = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || listen(fd, 1) != 0) {
    result = -errno;
  } else {
    socklen_t len = sizeof addr;
    result = getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0 ? ntohs(addr.sin_port) : -errno;
  }
  close(fd);
  return result;
}

}  // namespace

int pick_free_port() {
  const int port = try_bind(0);
  return port > 0 ? port : 0;
}

bool port_in_use(int port) { return try_bind(port) == -EADDRINUSE; }

}  // namespace accord::conformance::live

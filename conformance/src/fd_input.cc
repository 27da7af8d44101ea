// fd_input.cc: InterruptibleInput, a streambuf over a descriptor that a signal ends.
#include "accord/conformance/fd_input.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

#include "accord/conformance/interrupt.h"

namespace accord::conformance {

std::streambuf::int_type InterruptibleInput::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  for (;;) {
    if (interrupt_signal()) return traits_type::eof();
    pollfd fds[2] = {{fd_, POLLIN, 0}, {interrupt_fd(), POLLIN, 0}};
    int r = ::poll(fds, interrupt_fd() >= 0 ? 2 : 1, -1);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return traits_type::eof();
    if (fds[1].revents) continue;  // the signal: said at the top
    ssize_t n = ::read(fd_, buf_.data(), buf_.size());
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return traits_type::eof();
    setg(buf_.data(), buf_.data(), buf_.data() + n);
    return traits_type::to_int_type(*gptr());
  }
}

std::streamsize InterruptibleInput::showmanyc() {
  pollfd fd = {fd_, POLLIN, 0};
  return ::poll(&fd, 1, 0) > 0 ? 1 : 0;
}

}  // namespace accord::conformance

// fd_input.h: an input stream over a file descriptor that ends when SIGINT or SIGTERM comes (interrupt.h), for the
// commands that read requests from stdin (`serve`).
#pragma once

#include <streambuf>
#include <vector>

namespace accord::conformance {

/// Reads `fd` in blocks; a block waits in poll() on the descriptor and on interrupt_fd(), and the stream ends (EOF)
/// when the signal comes.
class InterruptibleInput : public std::streambuf {
 public:
  explicit InterruptibleInput(int fd, std::size_t block = 1 << 16) : fd_(fd), buf_(block) {}

 protected:
  int_type underflow() override;
  /// 1 when a read would not wait (input, or its end, is there), else 0: in_avail() past the buffer, so a reader can
  /// take what has arrived without waiting for more.
  std::streamsize showmanyc() override;

 private:
  int fd_;
  std::vector<char> buf_;
};

}  // namespace accord::conformance

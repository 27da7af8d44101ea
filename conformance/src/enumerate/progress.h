// progress.h: a progress bar with rate and ETA for long runs (stderr).
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace accord::enumerate {

/// Draws `label [#####.....]  45.2%  4.5M/10.0M  210k/s  ETA 25s` in place on a terminal; elsewhere
/// (a pipe, a CI log) prints one such line every `log_every_s` seconds and one at the end.
class ProgressBar {
 public:
  ProgressBar(std::ostream& os, std::string label, bool tty, double log_every_s = 5.0);
  void update(std::uint64_t done, std::uint64_t total);
  /// Ends the bar with a newline (idempotent).
  void finish();

 private:
  std::string line(std::uint64_t done, std::uint64_t total, double seconds) const;
  std::ostream& os_;
  std::string label_;
  bool tty_;
  double log_every_s_;
  double last_log_ = -1;
  bool finished_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

/// 12.3M, 456k, 789: counts for humans.
std::string human_count(double n);

}  // namespace accord::enumerate

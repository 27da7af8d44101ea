// progress.cc: the progress bar of `accord enumerate` and `accord differential`.
#include "enumerate/progress.h"

#include <cstdio>

namespace accord::enumerate {

std::string human_count(double n) {
  char buf[32];
  if (n >= 1e6) std::snprintf(buf, sizeof buf, "%.1fM", n / 1e6);
  else if (n >= 1e4) std::snprintf(buf, sizeof buf, "%.0fk", n / 1e3);
  else std::snprintf(buf, sizeof buf, "%.0f", n);
  return buf;
}

ProgressBar::ProgressBar(std::ostream& os, std::string label, bool tty, double log_every_s)
    : os_(os), label_(std::move(label)), tty_(tty), log_every_s_(log_every_s) {}

std::string ProgressBar::line(std::uint64_t done, std::uint64_t total, double seconds) const {
  constexpr int kWidth = 30;
  double frac = total ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
  int filled = static_cast<int>(frac * kWidth);
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.append(static_cast<std::size_t>(kWidth - filled), '.');
  double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
  double eta = rate > 0 ? static_cast<double>(total - done) / rate : 0;
  char tail[96];
  std::snprintf(tail, sizeof tail, " %5.1f%%  %s/%s  %s/s  %s %.0fs", frac * 100, human_count(static_cast<double>(done)).c_str(),
                human_count(static_cast<double>(total)).c_str(), human_count(rate).c_str(), done < total ? "ETA" : "in",
                done < total ? eta : seconds);
  return label_ + " [" + bar + "]" + tail;
}

void ProgressBar::update(std::uint64_t done, std::uint64_t total) {
  if (finished_) return;
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (tty_) {
    os_ << '\r' << line(done, total, s) << "\x1b[K" << std::flush;
  } else if (done >= total || last_log_ < 0 || s - last_log_ >= log_every_s_) {
    os_ << line(done, total, s) << '\n' << std::flush;
    last_log_ = s;
  }
  if (done >= total) finish();
}

void ProgressBar::finish() {
  if (finished_) return;
  finished_ = true;
  if (tty_) os_ << '\n' << std::flush;
}

}  // namespace accord::enumerate

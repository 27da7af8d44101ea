// test_util.h: helpers shared by the live tests (taken ports, expected LiveFailure codes, child runs).
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "live_error.h"
#include "process_supervisor.h"
#include "report_io.h"

namespace accord::conformance::testing {

/// Holds a listening socket on a free port for the lifetime of the object.
class TakenPort {
 public:
  TakenPort() {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_ANY);
    socklen_t len = sizeof addr;
    if (bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 && listen(fd_, 4) == 0 &&
        getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
      port_ = ntohs(addr.sin_port);
    }
  }
  ~TakenPort() { close(fd_); }
  TakenPort(const TakenPort&) = delete;
  TakenPort& operator=(const TakenPort&) = delete;
  [[nodiscard]] int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

/// The wire id of the LiveFailure `fn` throws, or "no failure".
template <typename Fn>
std::string failure_code(Fn&& fn) {
  try {
    fn();
  } catch (const live::LiveFailure& f) {
    return std::string(live::wire_id(f.error().code));
  }
  return "no failure";
}

/// The report's error code, or "" when it has none.
inline std::string error_code(const nlohmann::json& report) {
  return report.contains("error") ? report["error"].value("code", "") : "";
}

/// Runs `/proc/self/exe launch --plan <plan> ...` once per entry of `envs` (each with that extra
/// environment) at the same time, and returns each process's report (null when it wrote none).
inline std::vector<nlohmann::json> launch_as_cluster(const nlohmann::json& plan,
                                                     const std::vector<std::map<std::string, std::string>>& envs,
                                                     double timeout_s = 30) {
  live::ScratchDir dir;
  live::write_json_file(dir.file("plan.json"), plan);
  std::vector<live::ChildSpec> children;
  for (std::size_t i = 0; i < envs.size(); ++i) {
    live::ChildSpec c;
    c.argv = {"/proc/self/exe", "launch", "--plan", dir.file("plan.json"), "--timeout", std::to_string(timeout_s),
              "--compact", "--output", dir.file("out-" + std::to_string(i) + ".json")};
    c.env = envs[i];
    c.log_path = dir.file("log-" + std::to_string(i) + ".txt");
    children.push_back(c);
  }
  const auto results = live::run_children(children, {timeout_s + 10, 5.0});
  std::vector<nlohmann::json> reports;
  for (std::size_t i = 0; i < envs.size(); ++i) {
    auto r = live::read_json_file(dir.file("out-" + std::to_string(i) + ".json"));
    if (!r) ADD_FAILURE() << "process " << i << " " << live::describe_end(results[i]) << ":\n"
                          << live::file_tail(dir.file("log-" + std::to_string(i) + ".txt"));
    reports.push_back(r ? *r : nlohmann::json());
  }
  return reports;
}

}  // namespace accord::conformance::testing

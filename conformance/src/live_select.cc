// live_select.cc: picks the live expectation of each case for the probed hardware class.
#include "accord/conformance/live_select.h"

namespace accord::conformance {

std::string hardware_class(const nlohmann::json& hardware) {
  long long n = 0;
  if (hardware.is_object() && hardware.contains("cuda_devices") && hardware["cuda_devices"].is_number_integer())
    n = hardware["cuda_devices"].get<long long>();
  return n <= 0 ? "no-gpu" : n == 1 ? "one-gpu" : "multi-gpu";
}

std::vector<Fixture> select_live(const std::vector<Fixture>& fixtures, const nlohmann::json& hardware,
                                 const std::string& hw_class, std::size_t* dropped) {
  // Only the keys a case's `hardware` may hold (PROTOCOL.md); probe details stay out of the case.
  static const char* kKeys[] = {"cuda_devices", "mps", "tpu", "ipu", "hpu", "fork", "torch_distributed", "cudnn_benchmark"};
  nlohmann::json hw = nlohmann::json::object();
  for (const char* k : kKeys)
    if (hardware.contains(k)) hw[k] = hardware[k];
  std::vector<Fixture> out;
  *dropped = 0;
  for (const auto& f : fixtures) {
    auto it = f.expect_live.find(hw_class);
    if (it == f.expect_live.end()) {
      ++*dropped;
      continue;
    }
    Fixture live = f;
    live.given["hardware"] = hw;
    live.expect = it->second;
    live.has_expect = true;
    live.expect_by_profile.clear();
    out.push_back(std::move(live));
  }
  return out;
}

}  // namespace accord::conformance

// determinism.cc: applies a plan's `determinism` block through LibTorch and checks that it holds.
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <ATen/Context.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/zeros.h>
#include <c10/util/Exception.h>
#include <torch/version.h>

#include "accord/conformance/live.h"

namespace accord::conformance {
namespace {

using nlohmann::json;

// c10 renamed its warning API in 2.0 (namespace Warning -> class Warning + WarningUtils).
#if TORCH_VERSION_MAJOR >= 2
using HandlerGuard = c10::WarningUtils::WarningHandlerGuard;
#else
using HandlerGuard = c10::Warning::WarningHandlerGuard;
#endif

/// Collects warnings instead of printing them, so "warned" can be observed.
class CapturingHandler : public c10::WarningHandler {
 public:
#if TORCH_VERSION_MAJOR >= 2
  void process(const c10::Warning& warning) override { messages.push_back(warning.msg()); }
#else
  void process(const c10::SourceLocation&, const std::string& msg, const bool) override {
    messages.push_back(msg);
  }
#endif
  std::vector<std::string> messages;
};

std::optional<bool> get_bool(const json& block, const char* key) {
  if (!block.contains(key) || block.at(key).is_null()) return std::nullopt;
  if (!block.at(key).is_boolean()) {
    throw std::invalid_argument(std::string("determinism.") + key + " must be a bool or null, got " +
                                block.at(key).dump());
  }
  return block.at(key).get<bool>();
}

// The `env` map: name -> value; a null map or a null value leaves that variable untouched.
std::vector<std::pair<std::string, std::string>> get_env(const json& block) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!block.contains("env") || block.at("env").is_null()) return out;
  if (!block.at("env").is_object()) throw std::invalid_argument("determinism.env must be an object or null");
  for (const auto& [name, value] : block.at("env").items()) {
    if (value.is_null()) continue;
    if (!value.is_string()) throw std::invalid_argument("determinism.env." + name + " must be a string");
    out.emplace_back(name, value.get<std::string>());
  }
  return out;
}

void require_object(const json& block) {
  if (!block.is_null() && !block.is_object()) {
    throw std::invalid_argument("determinism must be an object or null, got " + block.dump());
  }
}

json check_row(const std::string& setting, const json& expected, const json& actual) {
  return {{"setting", setting}, {"expected", expected}, {"actual", actual}, {"ok", expected == actual}};
}

// What torch must do with a nondeterministic op in the state it is in now.
std::string expected_alert() {
  const at::Context& ctx = at::globalContext();
  if (!ctx.deterministicAlgorithms()) return "silent";
  return ctx.deterministicAlgorithmsWarnOnly() ? "warned" : "raised";
}

// put_ with duplicate indices: torch alerts for accumulate=false on every device (the write
// order decides the result) and for accumulate=true on CUDA only (atomicAdd order).
json run_put(const std::string& device, bool accumulate, bool required) {
  json row = {{"op", accumulate ? "Tensor.put_(accumulate=True)" : "Tensor.put_(accumulate=False)"},
              {"device", device},
              {"required", required},
              {"expected", expected_alert()}};
  CapturingHandler handler;
  std::string observed = "error";
  std::string message;
  try {
    const at::Device dev(device);
    at::Tensor target = at::zeros({4}, at::TensorOptions().device(dev));
    const at::Tensor index = at::zeros({2}, at::TensorOptions().dtype(at::kLong).device(dev));
    const at::Tensor source = at::ones({2}, at::TensorOptions().device(dev));
    HandlerGuard guard(&handler);
    try {
      target.put_(index, source, accumulate);
      observed = "silent";
    } catch (const c10::Error& e) {
      message = e.what_without_backtrace();
      if (message.find("deterministic") != std::string::npos) observed = "raised";
    }
  } catch (const c10::Error& e) {  // the device or the tensors could not be set up
    message = e.what_without_backtrace();
  } catch (const std::exception& e) {
    message = e.what();
  }
  for (const std::string& m : handler.messages) {
    if (observed != "silent" || m.find("deterministic") == std::string::npos) continue;  // other warnings
    observed = "warned";
    message = m;
  }
  row["observed"] = observed;
  row["message"] = message;
  row["ok"] = observed == row["expected"];
  return row;
}

}  // namespace

json apply_determinism(const json& determinism) {
  require_object(determinism);
  json applied = json::object();
  if (determinism.is_null()) return {{"applied", applied}};
  at::Context& ctx = at::globalContext();
  const auto algorithms = get_bool(determinism, "use_deterministic_algorithms");
  const auto warn_only = get_bool(determinism, "warn_only");
  const auto benchmark = get_bool(determinism, "cudnn_benchmark");
  const auto cudnn_deterministic = get_bool(determinism, "cudnn_deterministic");
  const auto env = get_env(determinism);
  if (algorithms || warn_only) {
    const bool mode = algorithms.value_or(ctx.deterministicAlgorithms());
    const bool only_warn = warn_only.value_or(algorithms ? false : ctx.deterministicAlgorithmsWarnOnly());
    ctx.setDeterministicAlgorithms(mode, only_warn);
    applied["use_deterministic_algorithms"] = mode;
    applied["warn_only"] = only_warn;
  }
  if (benchmark) {
    ctx.setBenchmarkCuDNN(*benchmark);
    applied["cudnn_benchmark"] = *benchmark;
  }
  if (cudnn_deterministic) {
    ctx.setDeterministicCuDNN(*cudnn_deterministic);
    applied["cudnn_deterministic"] = *cudnn_deterministic;
  }
  for (const auto& [name, value] : env) {
    setenv(name.c_str(), value.c_str(), 1);
    applied["env"][name] = value;
  }
  return {{"applied", applied}};
}

json check_determinism(const json& determinism, const std::string& device) {
  json checks = json::array();
  try {
    require_object(determinism);
    const at::Context& ctx = at::globalContext();
    const json block = determinism.is_null() ? json::object() : determinism;
    const auto algorithms = get_bool(block, "use_deterministic_algorithms");
    const auto warn_only = get_bool(block, "warn_only");
    const auto benchmark = get_bool(block, "cudnn_benchmark");
    const auto cudnn_deterministic = get_bool(block, "cudnn_deterministic");
    if (algorithms) checks.push_back(check_row("use_deterministic_algorithms", *algorithms, ctx.deterministicAlgorithms()));
    if (warn_only) checks.push_back(check_row("warn_only", *warn_only, ctx.deterministicAlgorithmsWarnOnly()));
    if (benchmark) checks.push_back(check_row("cudnn_benchmark", *benchmark, ctx.benchmarkCuDNN()));
    if (cudnn_deterministic) {
      checks.push_back(check_row("cudnn_deterministic", *cudnn_deterministic, ctx.deterministicCuDNN()));
    }
    for (const auto& [name, value] : get_env(block)) {
      const char* actual = std::getenv(name.c_str());
      checks.push_back(check_row("env." + name, value, actual != nullptr ? json(actual) : json()));
    }
  } catch (const std::exception& e) {
    return {{"ok", false}, {"checks", checks}, {"ops", json::array()}, {"error", e.what()}};
  }
  json ops = json::array({run_put(device, false, true)});
  if (device.rfind("cuda", 0) == 0) ops.push_back(run_put(device, true, false));
  bool ok = true;
  for (const json& c : checks) ok = ok && c["ok"].get<bool>();
  for (const json& o : ops) ok = ok && (o["ok"].get<bool>() || !o["required"].get<bool>());
  return {{"ok", ok}, {"checks", checks}, {"ops", ops}};
}

}  // namespace accord::conformance

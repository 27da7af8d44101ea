// mutant_adapter.cc: the reference plus three known mistakes (see mutant_adapter.h).
#include "mutant/mutant_adapter.h"

namespace accord::conformance::testing {
namespace {
using nlohmann::json;

class MutantAdapter : public Adapter {
 public:
  MutantAdapter() : inner_(make_reference_adapter()) {}
  bool start(std::string* error) override {
    if (!inner_->start(error)) return false;
    info_ = inner_->info();
    info_.name = "accord-mutant";
    info_.version = "0.0.1";
    return true;
  }
  const ImplementationInfo& info() const override { return info_; }
  AdapterResult resolve(const std::string& id, const std::string& profile, const json& c) override {
    AdapterResult r = inner_->resolve(id, profile, c);
    if (r.status == ResultStatus::kOk) r.outcome = mutate(std::move(r.outcome));
    return r;
  }
  void stop() override { inner_->stop(); }

 private:
  std::unique_ptr<Adapter> inner_;
  ImplementationInfo info_;
};

}  // namespace

json mutate(json o) {
  if (o.contains("plan") && o["plan"].contains("strategy") && o["plan"]["strategy"].value("name", "") == "ddp_spawn")
    o["plan"]["strategy"]["name"] = "ddp";
  if (o.contains("diagnostics") && o["diagnostics"].is_array()) {
    json kept = json::array();
    for (auto& d : o["diagnostics"])
      if (d.value("code", "") != "warn_benchmark_with_deterministic") kept.push_back(d);
    o["diagnostics"] = kept;
  }
  if (o.contains("error") && o["error"].value("code", "") == "err_strategy_ddp_cpu") o["error"]["code"] = "err_strategy_unknown";
  return o;
}

std::unique_ptr<Adapter> make_mutant_adapter() { return std::make_unique<MutantAdapter>(); }

}  // namespace accord::conformance::testing

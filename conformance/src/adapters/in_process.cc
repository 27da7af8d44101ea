// in_process.cc: the reference connector as an adapter, called directly (its outcomes written by outcome_text.cc).
#include <chrono>
#include "accord/reference/diagnostic.h"
#include "accord/reference/flags.h"
#include "accord/reference/inputs.h"
#include "accord/reference/json_io.h"
#include "accord/reference/resolve.h"
#include "accord/reference/rules.h"
#include "accord/conformance/adapter.h"
#include "accord/conformance/protocol.h"
#include "accord/reference/big_int_json.h"
#include "accord/conformance/outcome_text.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>

namespace accord::conformance {
namespace {
namespace ref = accord::reference;
using nlohmann::json;

class ReferenceAdapter : public Adapter {
 public:
  ReferenceAdapter() {
    info_.name = "accord-reference";
    info_.version = "0.1.0";
    info_.language = "c++";
    info_.capabilities.insert(known_capabilities().begin(), known_capabilities().end());
  }
  bool start(std::string*) override { return true; }
  const ImplementationInfo& info() const override { return info_; }
  AdapterResult resolve(const std::string&, const std::string& profile, const json& case_json) override {
    ref::Profile p;
    if (!ref::parse_profile(profile, &p)) return unsupported(profile);
    ref::Case c;
    std::string err;
    if (!ref::case_from_json(case_json, &c, &err)) return {ResultStatus::kErrored, nullptr, "cannot read the case: " + err};
    AdapterResult r{ResultStatus::kOk, nullptr, ""};
    r.outcome = ref::outcome_to_json(timed(c, p, r));
    return r;
  }
  AdapterResult resolve_text(const std::string&, const std::string& profile, const json& case_json,
                             std::string* outcome_text) override {
    ref::Profile p;
    if (!ref::parse_profile(profile, &p)) return unsupported(profile);
    ref::Case c;
    std::string err;
    if (!ref::case_from_json(case_json, &c, &err)) return {ResultStatus::kErrored, nullptr, "cannot read the case: " + err};
    AdapterResult r{ResultStatus::kOk, nullptr, ""};
    write_outcome_text(outcome_text, timed(c, p, r));
    return r;
  }
  std::optional<AdapterResult> resolve_case_text(const std::string& profile, const ref::Case& c,
                                                 std::string* outcome_text) override {
    ref::Profile p;
    if (!ref::parse_profile(profile, &p)) return unsupported(profile);
    AdapterResult r{ResultStatus::kOk, nullptr, ""};
    write_outcome_text(outcome_text, timed(c, p, r));
    return r;
  }
  void stop() override {}

 private:
  /// resolve() into one outcome per thread (its storage reused request after request), timed into r.elapsed_ns in
  /// the timing mode (the resolution alone: no reading or writing).
  const ref::Outcome& timed(const ref::Case& c, ref::Profile p, AdapterResult& r) const {
    thread_local ref::Outcome o;
    if (!timing()) return ref::resolve(c, p, o), o;
    auto t0 = std::chrono::steady_clock::now();
    ref::resolve(c, p, o);
    r.elapsed_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
    return o;
  }
  static AdapterResult unsupported(const std::string& profile) {
    return {ResultStatus::kSkipped, nullptr, "unsupported profile '" + profile + "'"};
  }
  ImplementationInfo info_;
};

Vocabulary make_vocabulary() {
  Vocabulary v;
  v.is_rule = [](const std::string& s) { return ref::rule_from_wire(s).has_value(); };
  v.is_code = [](const std::string& s) { return ref::diag_from_wire(s).has_value(); };
  v.is_profile = [](const std::string& s) {
    ref::Profile p;
    return ref::parse_profile(s, &p);
  };
  v.is_capability = [](const std::string& s) {
    const auto& caps = known_capabilities();
    return std::find(caps.begin(), caps.end(), s) != caps.end();
  };
  v.check_case = [](const json& j) {
    ref::Case c;
    std::string err;
    return ref::case_from_json(j, &c, &err) ? std::string() : err;
  };
  v.profile_names = [] {
    std::vector<std::string> names;
    for (const auto& p : ref::profiles()) names.push_back(p.name);
    return names;
  };
  v.code_flag_fields = [](const std::string& s) {
    std::vector<std::string> out;
    if (auto c = ref::diag_from_wire(s))
      for (const auto& f : ref::template_fields(*c))
        if (f == "flag" || ref::flag_row(f)) out.push_back(f);
    return out;
  };
  return v;
}

}  // namespace

std::unique_ptr<Adapter> make_reference_adapter() { return std::make_unique<ReferenceAdapter>(); }

const Vocabulary& reference_vocabulary() {
  static const Vocabulary v = make_vocabulary();
  return v;
}

}  // namespace accord::conformance

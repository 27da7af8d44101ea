// case.cc: the whole-case generator and the RapidCheck printers.
#include "case.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "accord/reference/json_io.h"
#include "accord/reference/registry.h"
#include "choice.h"

namespace accord::reference {

void showValue(const Case& c, std::ostream& os) { os << case_to_json(c).dump(); }
void showValue(const UserFlags& f, std::ostream& os) {
  Case c;
  c.flags = f;
  os << case_to_json(c)["flags"].dump();
}
void showValue(const HardwareFacts& h, std::ostream& os) {
  Case c;
  c.hardware = h;
  os << case_to_json(c)["hardware"].dump();
}
void showValue(const PyValue& v, std::ostream& os) { os << repr(v); }
void showValue(Profile p, std::ostream& os) { os << profile_name(p); }

}  // namespace accord::reference

namespace rc {
using accord::reference::Case;
using accord::reference::Profile;

namespace {

using accord::reference::HardwareFacts;
using accord::reference::PyValue;
using accord::reference::UserFlags;

/// The accelerator the flags ask for by name or legacy flag (kNone: none or auto).
accord::reference::AcceleratorId wanted_accelerator(const UserFlags& f) {
  using accord::reference::AcceleratorId;
  if (f.accelerator.is_str())
    if (auto id = accord::reference::accelerator_by_name(f.accelerator.str, accord::reference::policy(accord::reference::default_profile()))) return *id;
  if (f.gpus.truthy()) return AcceleratorId::kGpu;
  if (f.tpu_cores.truthy()) return AcceleratorId::kTpu;
  if (f.ipus.truthy()) return AcceleratorId::kIpu;
  return AcceleratorId::kNone;
}

/// Hardware on which, most of the time, the requested accelerator exists and the named strategy's
/// package is installed.
HardwareFacts fit(HardwareFacts h, const UserFlags& f, bool honour) {
  if (!honour) return h;
  using accord::reference::AcceleratorId;
  switch (wanted_accelerator(f)) {
    case AcceleratorId::kGpu: h.cuda_devices = std::max(h.cuda_devices, 2); break;
    case AcceleratorId::kTpu: h.tpu = true; break;
    case AcceleratorId::kIpu: h.ipu = true; break;
    case AcceleratorId::kHpu: h.hpu = true; break;
    case AcceleratorId::kCpu:
    case AcceleratorId::kNone:
    case AcceleratorId::kCuda:  // the 2.x rows: the generators speak the default profile's vocabulary
    case AcceleratorId::kMps:
    case AcceleratorId::kXla: break;
  }
  if (f.strategy.is_str()) {
    std::string s = accord::reference::ascii_lower(f.strategy.str);
    for (const char* pkg : {"deepspeed", "horovod", "bagua"})
      if (s.rfind(pkg, 0) == 0) h.packages.insert(pkg);
    if (s.find("sharded") != std::string::npos) h.packages.insert("fairscale");
    if (s.rfind("hpu", 0) == 0) h.hpu = true;
    if (s.rfind("ipu", 0) == 0) h.ipu = true;
  }
  return h;
}

}  // namespace

Gen<Case> Arbitrary<Case>::arbitrary() {
  namespace p = accord::prop;
  auto env = gen::map(gen::arbitrary<p::EnvPreset>(), [](p::EnvPreset e) { return e.vars; });
  auto interactive = p::weighted_choice<bool>({{4, gen::just(false)}, {1, gen::just(true)}});
  auto plausible = gen::mapcat(p::gen_plausible_flags(), [env](const UserFlags& f) {
    auto hw = gen::apply([f](HardwareFacts h, bool honour) { return fit(h, f, honour); }, gen::arbitrary<HardwareFacts>(),
                         p::weighted_choice<bool>({{5, gen::just(true)}, {1, gen::just(false)}}));
    return gen::build<Case>(gen::set(&Case::flags, gen::just(f)), gen::set(&Case::env, env), gen::set(&Case::hardware, hw),
                            gen::set(&Case::interactive, p::weighted_choice<bool>({{9, gen::just(false)}, {1, gen::just(true)}})));
  });
  auto anything = gen::build<Case>(gen::set(&Case::flags), gen::set(&Case::env, env), gen::set(&Case::hardware),
                                   gen::set(&Case::interactive, interactive));
  return p::weighted_choice<Case>({{2, plausible}, {1, anything}});
}

Gen<Profile> Arbitrary<Profile>::arbitrary() {
  std::vector<Profile> all;
  for (const auto& p : accord::reference::profiles()) all.push_back(p.profile);
  return gen::elementOf(all);
}

}  // namespace rc

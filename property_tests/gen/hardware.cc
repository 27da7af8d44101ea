// hardware.cc: generator for HardwareFacts (what Lightning's own tests mock).
#include "hardware.h"

#include "choice.h"
#include "vocab.h"

namespace rc {
using accord::reference::HardwareFacts;
using accord::reference::SortedSet;

namespace {

/// true with probability percent/100; shrinks to `usual`.
Gen<bool> flag(std::size_t percent, bool usual) {
  return accord::prop::weighted_choice<bool>({{100 - percent, gen::just(usual)}, {percent, gen::just(!usual)}});
}

Gen<SortedSet<std::string>> packages() {
  return gen::map(gen::container<std::vector<bool>>(accord::prop::package_names().size(), flag(30, false)),
                  [](const std::vector<bool>& on) {
                    SortedSet<std::string> out;
                    for (std::size_t k = 0; k < on.size(); ++k)
                      if (on[k]) out.insert(accord::prop::package_names()[k]);
                    return out;
                  });
}

/// A subset of GPU ids 0..7, each busy with probability 1/2.
Gen<SortedSet<int>> busy_gpus() {
  return gen::map(gen::container<std::vector<bool>>(8, flag(50, false)), [](const std::vector<bool>& on) {
    SortedSet<int> out;
    for (int k = 0; k < 8; ++k)
      if (on[static_cast<std::size_t>(k)]) out.insert(k);
    return out;
  });
}

}  // namespace

Gen<HardwareFacts> Arbitrary<HardwareFacts>::arbitrary() {
  namespace p = accord::prop;
  auto cuda = p::weighted_choice<int>({{4, gen::just(0)}, {2, gen::just(1)}, {3, gen::just(2)}, {2, gen::just(4)}, {1, gen::just(8)}});
  auto busy = p::weighted_choice<SortedSet<int>>({{6, gen::just(SortedSet<int>{})}, {1, busy_gpus()}});
  return gen::build<HardwareFacts>(gen::set(&HardwareFacts::cuda_devices, cuda), gen::set(&HardwareFacts::mps, flag(10, false)),
                                   gen::set(&HardwareFacts::tpu, flag(10, false)), gen::set(&HardwareFacts::ipu, flag(10, false)),
                                   gen::set(&HardwareFacts::hpu, flag(10, false)), gen::set(&HardwareFacts::fork, flag(10, true)),
                                   gen::set(&HardwareFacts::torch_distributed, flag(10, true)),
                                   gen::set(&HardwareFacts::cudnn_benchmark, flag(20, false)),
                                   gen::set(&HardwareFacts::packages, packages()), gen::set(&HardwareFacts::gpu_busy, busy));
}

}  // namespace rc

// hardware.h: generator for the hardware and installation facts of a case.
#pragma once

#include <rapidcheck.h>

#include "accord/reference/inputs.h"

namespace rc {
/// CUDA counts 0/1/2/4/8 (0 most often), occasional TPU/IPU/HPU/MPS, fork and torch.distributed
/// usually available, a random subset of the optional packages and of busy GPUs.
template <>
struct Arbitrary<accord::reference::HardwareFacts> {
  static Gen<accord::reference::HardwareFacts> arbitrary();
};
}  // namespace rc

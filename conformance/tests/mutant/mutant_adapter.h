// mutant_adapter.h: a deliberately wrong implementation: the reference with a known set of mistakes.
#pragma once

#include <memory>

#include "accord/conformance/adapter.h"

namespace accord::conformance::testing {

/// The mutant's mistakes, applied to a reference outcome:
///  1. it answers strategy name `ddp` where the reference says `ddp_spawn` (class and family kept);
///  2. it drops the warning `warn_benchmark_with_deterministic`;
///  3. it reports `err_strategy_ddp_cpu` as `err_strategy_unknown`.
nlohmann::json mutate(nlohmann::json outcome);

/// The reference adapter with mutate() applied to every outcome; handshake name `accord-mutant`.
std::unique_ptr<Adapter> make_mutant_adapter();

}  // namespace accord::conformance::testing

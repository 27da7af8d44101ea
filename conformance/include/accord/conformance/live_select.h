// live_select.h: `accord conform --live`: run the corpus against the hardware this machine really has.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "accord/conformance/fixture.h"

namespace accord::conformance {

/// The hardware class of a PROTOCOL.md `hardware` object: "no-gpu", "one-gpu" or "multi-gpu".
std::string hardware_class(const nlohmann::json& hardware);

/// The cases that carry an expectation for `hw_class` (`expect_live`), rewritten to run on the probed
/// hardware: `given.hardware` replaced by `hardware`, and that expectation made the only one for every
/// profile. Cases without `expect_live` are not returned; `dropped` counts them.
std::vector<Fixture> select_live(const std::vector<Fixture>& fixtures, const nlohmann::json& hardware,
                                 const std::string& hw_class, std::size_t* dropped);

}  // namespace accord::conformance

// case.h: generators for whole cases and profiles, and how RapidCheck prints them.
#pragma once

#include <rapidcheck.h>

#include <ostream>

#include "accord/reference/inputs.h"
#include "env.h"
#include "flags.h"
#include "hardware.h"

namespace accord::reference {
/// Counterexamples print as the case's wire JSON, ready to paste into a fixture's `given`.
void showValue(const Case& c, std::ostream& os);
void showValue(const UserFlags& f, std::ostream& os);
void showValue(const HardwareFacts& h, std::ostream& os);
void showValue(const PyValue& v, std::ostream& os);
void showValue(Profile p, std::ostream& os);
}  // namespace accord::reference

namespace rc {
/// Flags, an environment preset, hardware facts and (one case in five) an interactive session.
template <>
struct Arbitrary<accord::reference::Case> {
  static Gen<accord::reference::Case> arbitrary();
};
/// Either profile.
template <>
struct Arbitrary<accord::reference::Profile> {
  static Gen<accord::reference::Profile> arbitrary();
};
}  // namespace rc

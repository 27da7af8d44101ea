// demo_profile.h: adds the test-only profile of data/demo_profile.def (once per process) and returns it.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "accord/reference/profiles.h"

namespace accord::reference::testing {

inline Profile demo_profile() {
  static const Profile added = [] {
    std::string name, parent, release, description, error;
    Connector connector = Connector::kTrainer;
    bool default_cases = false, inherit_cases = false;
    std::vector<PolicyOverride> overrides;
#define ACCORD_TEST_PROFILE(Wire, Parent, Conn, Release, DefaultCases, InheritCases, Description) \
  name = Wire, parent = Parent, connector = Connector::Conn, release = Release, default_cases = DefaultCases,      \
  inherit_cases = InheritCases, description = Description;
#define ACCORD_TEST_POLICY_OVERRIDE(Wire, Name, Value, Reason) overrides.push_back({#Name, #Value, Reason});
#include "data/demo_profile.def"
    Profile p;
    if (!add_profile(name, parent, connector, release, default_cases, inherit_cases, description, overrides, &p, &error))
      throw std::runtime_error(error);
    return p;
  }();
  return added;
}

/// The demo profile's wire name, without adding it (a test that must see only the shipped profiles leaves it out, as
/// it is there when an earlier test of the same process added it).
inline std::string demo_profile_name() {
  std::string name;
#define ACCORD_TEST_PROFILE(Wire, Parent, Conn, Release, DefaultCases, InheritCases, Description) name = Wire;
#define ACCORD_TEST_POLICY_OVERRIDE(Wire, Name, Value, Reason)
#include "data/demo_profile.def"
  return name;
}

}  // namespace accord::reference::testing

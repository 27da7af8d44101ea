// context.cc: profile policies (tables/policies.def columns) and small context helpers.
#include "context.h"

namespace accord::reference {

const char* profile_name(Profile p) {
  switch (p) {
    case Profile::kSpec: return "spec";
    case Profile::kLightning16: return "lightning-1.6";
  }
  return "spec";  // LCOV_EXCL_LINE unreachable: every profile returns above
}

bool parse_profile(const std::string& name, Profile* out) {
  if (name == "spec") { *out = Profile::kSpec; return true; }
  if (name == "lightning-1.6") { *out = Profile::kLightning16; return true; }
  return false;
}

namespace detail {

const Policy& policy_for(Profile p) {
  static const Policy l16 = {
#define ACCORD_POLICY(Name, L16, Spec, Source) L16,
#include "../tables/policies.def"
  };
  static const Policy spec = {
#define ACCORD_POLICY(Name, L16, Spec, Source) Spec,
#include "../tables/policies.def"
  };
  return p == Profile::kSpec ? spec : l16;
}

std::string AcceleratorFlag::repr() const {
  switch (kind) {
    case Kind::kUnset: return "None";
    case Kind::kAuto: return "'auto'";
    case Kind::kName: return std::string("'") + row(id).name + "'";
    case Kind::kInstance: return std::string(row(id).cls) + "()";
  }
  return "None";  // LCOV_EXCL_LINE unreachable: every kind returns above
}

bool Ctx::accel_is(AcceleratorId a) const {
  if (accel.kind == AcceleratorFlag::Kind::kName) return accel.id == a;
  if (accel.kind == AcceleratorFlag::Kind::kInstance) return pol.instances_match_by_kind && accel.id == a;
  return false;
}

}  // namespace detail
}  // namespace accord::reference

// rules.cc: the rule table (IDs, profiles, sources) as data.
#include "accord/reference/rules.h"

#include <vector>

namespace accord::reference {
namespace {
struct RuleRow { RuleId id; const char* wire; const char* source; };
const std::vector<RuleRow>& rule_rows() {
  static const std::vector<RuleRow> rows = {
#define ACCORD_RULE(Id, Wire, Gate, Source) {RuleId::k##Id, Wire, Source},
#include "../tables/rules.def"
  };
  return rows;
}
}  // namespace

const char* rule_wire(RuleId r) { return rule_rows().at(static_cast<size_t>(r)).wire; }
const char* rule_source(RuleId r) { return rule_rows().at(static_cast<size_t>(r)).source; }
int rule_count() { return static_cast<int>(rule_rows().size()); }
std::optional<RuleId> rule_from_wire(const std::string& wire) {
  for (const auto& r : rule_rows())
    if (wire == r.wire) return r.id;
  return std::nullopt;
}

}  // namespace accord::reference

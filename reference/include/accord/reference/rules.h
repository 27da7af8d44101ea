// rules.h: stable rule IDs; the resolver's trace lists the ones that fired, in order.
#pragma once

#include <optional>
#include <string>

namespace accord::reference {

/// Every rule of SPEC.md, generated from tables/rules.def.
enum class RuleId {
#define ACCORD_RULE(Id, Wire, Gate, Source) k##Id,
#include "../../../tables/rules.def"
};

/// Wire id (`validate.strategy-lowercase`).
const char* rule_wire(RuleId r);
/// Where the rule comes from (Lightning function or seed item).
const char* rule_source(RuleId r);
std::optional<RuleId> rule_from_wire(const std::string& wire);
int rule_count();

}  // namespace accord::reference

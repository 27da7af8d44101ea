// spec_test.cc: SPEC.md lists exactly the rule IDs of rules.def and every diagnostic code, and its profile tables,
// gate cells and vocabulary tables match the tables.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "accord/reference/diagnostic.h"
#include "accord/reference/flags.h"
#include "accord/reference/profiles.h"
#include "accord/reference/rules.h"

namespace accord::reference {
namespace {

std::string spec_text() {
  std::ifstream f(ACCORD_SPEC_MD);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(Spec, RuleIdsInSpecAndCodeAreTheSameSet) {
  std::string text = spec_text();
  ASSERT_FALSE(text.empty()) << "cannot read " << ACCORD_SPEC_MD;
  std::set<std::string> in_spec, in_code;
  const std::regex row("\\n\\| `((validate|select|realize)\\.[a-z0-9-]+)` \\|");
  for (std::sregex_iterator it(text.begin(), text.end(), row), end; it != end; ++it) in_spec.insert((*it)[1]);
  for (int k = 0; k < rule_count(); ++k) in_code.insert(rule_wire(static_cast<RuleId>(k)));
  EXPECT_EQ(in_spec, in_code);
}

TEST(Spec, EveryDiagnosticCodeIsCatalogued) {
  std::string text = spec_text();
  for (int k = 0; k < diag_count(); ++k) {
    std::string w = wire_id(static_cast<DiagCode>(k));
    EXPECT_NE(text.find("| `" + w + "` |"), std::string::npos) << w << " missing from the SPEC.md catalogue";
  }
}

TEST(Spec, RuleWireIdsAreStableShape) {
  const std::regex shape("^(validate|select|realize)\\.[a-z0-9]+(-[a-z0-9]+)*$");
  for (int k = 0; k < rule_count(); ++k) {
    auto r = static_cast<RuleId>(k);
    EXPECT_TRUE(std::regex_match(std::string(rule_wire(r)), shape)) << rule_wire(r);
    EXPECT_EQ(rule_from_wire(rule_wire(r)), r);
    EXPECT_GT(std::string(rule_source(r)).size(), 5u);
  }
}

// The profile, policy and override tables of SPEC.md's "Profiles" section and the gate column of its rule tables
// say what profiles.def, policies.def, policy_overrides.def and rules.def say, cell for cell.
std::string cell(std::string s) {  // a markdown cell: `|` escaped
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}
std::string code(const std::string& s) { return "`" + s + "`"; }
const char* flag(bool b) { return b ? "true" : "false"; }

/// Checks that `block` (consecutive lines) appears in SPEC.md; on failure prints it, ready to paste.
void expect_block(const std::string& text, const std::string& what, const std::string& block) {
  EXPECT_NE(text.find(block), std::string::npos) << "SPEC.md's " << what << " table differs from the tables; it should read:\n"
                                                 << block;
}

/// `a` or `b`: a gate's set of values (`a|b`), each as code (a `|` would split the Markdown table cell).
std::string values_cell(const std::string& values) {
  std::string out;
  for (size_t start = 0;;) {
    size_t bar = values.find('|', start);
    out += (out.empty() ? "" : " or ") + code(values.substr(start, bar == std::string::npos ? std::string::npos : bar - start));
    if (bar == std::string::npos) return out;
    start = bar + 1;
  }
}

std::string gate_cell(const std::optional<RuleGate>& g) {
  if (!g) return "all";
  std::string release = g->release.empty() ? "" : code("connector_release") + " = " + values_cell(g->release) + ", ";
  if (g->value == "true") return release + code(g->policy);
  if (g->value == "false") return release + "not " + code(g->policy);
  return release + code(g->policy) + " = " + values_cell(g->value);
}
std::string gate_cell(const PolicyGate& g) {
  if (!g.policy) return gate_cell(std::nullopt);
  return gate_cell(RuleGate{g.policy, gate_value_names(g.policy, g.values), ""});
}

TEST(SpecTables, ProfilesTable) {
  std::string t = "| profile | parent | connector | release | description |\n|---|---|---|---|---|\n";
  for (const auto& p : profiles())
    t += "| " + code(p.name) + " | " + (p.parent ? code(profile_name(*p.parent)) : "-") + " | " +
         (p.connector == Connector::kFabric ? "Fabric" : "Trainer") + " | " + cell(p.release) + " | " + cell(p.description) + " |\n";
  expect_block(spec_text(), "profiles", t + "\n");
}

TEST(SpecTables, PolicyTable) {
  std::string t = "| policy |", rule = "|---|";
  for (const auto& p : profiles()) t += " " + code(p.name) + " |", rule += "---|";
  t += " what it decides |\n" + rule + "---|\n";
  for (const auto& name : policy_names()) {
    t += "| " + code(name) + " |";
    for (const auto& p : profiles()) t += " " + *policy_value(p.policy, name) + " |";
    t += " " + cell(policy_description(name)) + " |\n";
  }
  expect_block(spec_text(), "policy", t + "\n");
}

TEST(SpecTables, OverrideTable) {
  std::string t = "| profile | policy | value | reason |\n|---|---|---|---|\n";
  for (const auto& p : profiles())
    for (const auto& o : p.overrides)
      t += "| " + code(p.name) + " | " + code(o.policy) + " | " + o.value + " | " + cell(o.reason) + " |\n";
  expect_block(spec_text(), "override", t + "\n");
}

TEST(SpecTables, RuleGates) {
  std::string text = spec_text();
  for (int k = 0; k < rule_count(); ++k) {
    auto r = static_cast<RuleId>(k);
    std::string gate = gate_cell(rule_gate(r));
    std::string row = "\n| " + code(rule_wire(r)) + " | " + gate + " | ";
    EXPECT_NE(text.find(row), std::string::npos) << rule_wire(r) << ": SPEC.md's gate cell should be " << gate;
  }
}

// SPEC.md's "Vocabularies": the flag table is tables/flags.def, the precision table tables/precisions.def.
TEST(SpecTables, FlagTable) {
  std::string t = "| flag | Python type | instances | accepted by | where not accepted | description |\n"
                  "|---|---|---|---|---|---|\n";
  for (const auto& f : flags())
    t += "| " + code(f.name) + " | " + code(f.py_type) + " | " + flag(f.instances) + " | " + gate_cell(f.gate) + " | " +
         code(lacking_name(f.lacking)) + " | " + cell(f.description) + " |\n";
  expect_block(spec_text(), "flag", t + "\n");
}

TEST(SpecTables, PrecisionTable) {
  std::string t = "| spelling | group | `precision_normalize` | not `precision_normalize` | description |\n"
                  "|---|---|---|---|---|\n";
  const std::string invalid = code("err_precision_invalid");
  for (const auto& s : precision_spellings())
    t += "| " + code(repr(s.value)) + " | " + group_name(s.group) + " | " +
         (s.normalize ? code(repr(precision_spelling(*s.normalize).value)) : invalid) + " | " +
         (s.whitelist ? code(repr(s.value)) : invalid) + " | " + cell(s.description) + " |\n";
  expect_block(spec_text(), "precision", t + "\n");
}

// precision_reading(s, p) is SPEC.md's precision table read for the profile: its `precision_normalize` column for
// spec (the policy holds), the other column for lightning-1.6 (it does not).
TEST(SpecTables, PrecisionReadingIsTheTablesColumnForTheProfile) {
  const std::string spec = spec_text();
  std::size_t rows = 0;
  for (const auto& s : precision_spellings()) {
    const std::string row_start = "| `" + repr(s.value) + "` | " + group_name(s.group) + " | ";
    const std::size_t at = spec.find(row_start);
    ASSERT_NE(at, std::string::npos) << repr(s.value);
    std::smatch m;
    const std::string row = spec.substr(at, spec.find('\n', at) - at);
    ASSERT_TRUE(std::regex_search(row, m, std::regex(R"(^\| `[^`]*` \| [^|]* \| `([^`]*)` \| `([^`]*)` \|)"))) << row;
    auto shown = [](const PyValue* v) { return v ? repr(*v) : std::string("err_precision_invalid"); };
    EXPECT_EQ(shown(precision_reading(s, Profile::kSpec)), m[1].str()) << row;
    EXPECT_EQ(shown(precision_reading(s, Profile::kLightning16)), m[2].str()) << row;
    ++rows;
  }
  EXPECT_GT(rows, 10u);
}

// err_precision_invalid's `allowed` under precision_normalize: the spellings SPEC.md's validate.precision-normalize
// accepts, in its order (the ints, then the 1.x strings, then the 2.x spellings), as Python prints a tuple of them.
TEST(SpecTables, NormalizedPrecisionsShownAreTheRulesList) {
  EXPECT_EQ(normalized_precisions_shown(),
            "(16, 32, 64, '16', '32', '64', 'bf16', '16-mixed', 'bf16-mixed', '32-true', '64-true', '16-true', 'bf16-true')");
  const std::string rule = spec_text().substr(spec_text().find("| `validate.precision-normalize` |"));
  for (const char* spelling : {"16-mixed", "bf16-mixed", "32-true", "64-true", "16-true", "bf16-true", "\"bf16\""})
    EXPECT_LT(rule.find(spelling), rule.find('\n')) << spelling << " is not in the rule's row";
}

}  // namespace
}  // namespace accord::reference

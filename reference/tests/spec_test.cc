// spec_test.cc: SPEC.md lists exactly the rule IDs of rules.def and every diagnostic code.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "accord/reference/diagnostic.h"
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

}  // namespace
}  // namespace accord::reference

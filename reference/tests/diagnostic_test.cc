// diagnostic_test.cc: the diagnostics catalogue and message rendering.
#include "accord/reference/diagnostic.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>

namespace accord::reference {
namespace {

TEST(Diagnostic, WireIdsAreUniqueAndPrefixedBySeverity) {
  std::set<std::string> seen;
  const std::regex shape("^(err|warn|dep|info)_[a-z0-9_]+$");
  for (int k = 0; k < diag_count(); ++k) {
    auto c = static_cast<DiagCode>(k);
    std::string w = wire_id(c);
    EXPECT_TRUE(std::regex_match(w, shape)) << w;
    EXPECT_TRUE(seen.insert(w).second) << w;
    std::string prefix = w.substr(0, w.find('_'));
    const char* expected = severity(c) == Severity::kError ? "err" : severity(c) == Severity::kWarning ? "warn"
                           : severity(c) == Severity::kDeprecation ? "dep" : "info";
    EXPECT_EQ(prefix, expected) << w;
    EXPECT_EQ(diag_from_wire(w), c);
  }
  EXPECT_FALSE(diag_from_wire("err_nope"));
}

TEST(Diagnostic, RenderFillsFieldsAndMarksMissingOnes) {
  Diagnostic d{DiagCode::kStrategyNeedsGpu, {{"strategy", "'dp'"}, {"accelerator", "'cpu'"}}};
  std::string m = render(d);
  EXPECT_NE(m.find("`Trainer(strategy='dp')`"), std::string::npos) << m;
  EXPECT_NE(m.find("accelerator='cpu'"), std::string::npos) << m;
  Diagnostic missing{DiagCode::kStrategyNeedsGpu, {}};
  EXPECT_NE(render(missing).find("<?>"), std::string::npos);
  std::ostringstream os;
  os << d;
  EXPECT_EQ(os.str(), "err_strategy_needs_gpu{strategy='dp', accelerator='cpu'}");
}

}  // namespace
}  // namespace accord::reference

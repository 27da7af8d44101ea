// diagnostic_test.cc: the diagnostics catalogue and message rendering.
#include "accord/reference/diagnostic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>
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

// template_fields(c): the {name} placeholders of the code's template, in order, each once, without {connector}
// (diagnostic.h), checked against a second reading of every template with std::regex.
TEST(Diagnostic, TemplateFieldsAreThePlaceholdersInOrderOnce) {
  const std::regex placeholder(R"(\{([^{}]*)\})");
  for (int k = 0; k < diag_count(); ++k) {
    auto c = static_cast<DiagCode>(k);
    const std::string t = message_template(c);
    std::vector<std::string> expected;
    for (auto m = std::sregex_iterator(t.begin(), t.end(), placeholder); m != std::sregex_iterator(); ++m) {
      std::string key = (*m)[1];
      if (key != "connector" && std::find(expected.begin(), expected.end(), key) == expected.end()) expected.push_back(key);
    }
    EXPECT_EQ(template_fields(c), expected) << wire_id(c) << ": " << t;
  }
  EXPECT_EQ(template_fields(DiagCode::kPackageMissing), (std::vector<std::string>{"component", "package"}));
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

// message_pieces cuts each template once: text runs and placeholders alternate as in the template, no text run is
// empty, and writing each placeholder back in braces gives the template again. A template with a lone '{' keeps it as
// text.
TEST(Diagnostic, MessagePiecesAreTheTemplateWithoutEmptyRuns) {
  for (int k = 0; k < diag_count(); ++k) {
    const auto c = static_cast<DiagCode>(k);
    std::string again;
    for (const MessagePiece& p : message_pieces(c)) {
      if (p.placeholder) {
        again += "{" + std::string(p.text) + "}";
      } else {
        EXPECT_FALSE(p.text.empty()) << wire_id(c);
        again += p.text;
      }
    }
    EXPECT_EQ(again, message_template(c)) << wire_id(c);
  }
}

}  // namespace
}  // namespace accord::reference

// report_test.cc: the JSON, markdown and HTML renderings of a decision-coverage report.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "accord/coverage/report.h"
#include "accord/reference/json_io.h"

namespace accord::coverage {
namespace {
using reference::Profile;

/// Built once: analysing a corpus probes every cell of both profiles.
const Report& small_report() {
  static const Report report = [] {
  CorpusCase c{"r/<cpu & 'ddp'>", "f.json", {Profile::kSpec, Profile::kLightning16}, {}, {}};
  std::string err;
  EXPECT_TRUE(reference::case_from_json(nlohmann::json::parse(R"({"flags": {"accelerator": "cpu", "strategy": "ddp"}})"), &c.given, &err));
  Report r = analyze({c}, {Profile::kSpec, Profile::kLightning16});
  r.corpus = "fixtures";
  return r;
  }();
  return report;
}

const std::vector<std::string> kIds = {
    "m-spec-accelerator-x-strategy",         "m-spec-strategy-x-precision",         "m-spec-accelerator-x-precision",
    "m-spec-cluster-env-x-strategy",         "m-spec-hardware-x-accelerator",       "m-spec-legacy-x-devices-form",
    "m-lightning-1.6-accelerator-x-strategy", "m-lightning-1.6-strategy-x-precision", "m-lightning-1.6-accelerator-x-precision",
    "m-lightning-1.6-cluster-env-x-strategy", "m-lightning-1.6-hardware-x-accelerator", "m-lightning-1.6-legacy-x-devices-form"};

TEST(Report, JsonHasEveryMatrixAndCell) {
  const Report& r = small_report();
  nlohmann::json j = to_json(r);
  EXPECT_EQ(j["cases"], 1);
  EXPECT_EQ(j["gate"]["ok"], false);
  std::vector<std::string> ids;
  for (const auto& p : j["profiles"])
    for (const auto& m : p["matrices"]) {
      ids.push_back(m["id"]);
      EXPECT_EQ(m["cells"].size(), m["rows"]["values"].size() * m["cols"]["values"].size());
      int sum = 0;
      for (const auto& [k, n] : m["summary"].items()) sum += n.get<int>();
      EXPECT_EQ(sum, static_cast<int>(m["cells"].size()));
    }
  EXPECT_EQ(ids, kIds);
  const auto& cells = j["profiles"][0]["matrices"][0]["cells"];
  bool found = false;
  for (const auto& c : cells)
    if (c["row"] == "cpu" && c["col"] == "ddp") {
      found = true;
      EXPECT_EQ(c["status"], "covered");
      EXPECT_EQ(c["case_ids"][0], "r/<cpu & 'ddp'>");
    }
  EXPECT_TRUE(found);
}

TEST(Report, MarkdownHasTheGateAndATablePerMatrix) {
  std::string md = to_markdown(small_report());
  EXPECT_NE(md.find("Gate: **FAIL**"), std::string::npos);
  for (const auto& id : kIds) EXPECT_NE(md.find("(`" + id + "`)"), std::string::npos) << id;
  EXPECT_NE(md.find("| **cpu** |"), std::string::npos);
}

TEST(Report, HtmlIsSelfContainedAndEscaped) {
  std::string html = to_html(small_report());
  for (const auto& id : kIds) EXPECT_NE(html.find("id=\"" + id + "\""), std::string::npos) << id;
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_NE(html.find("r/&lt;cpu &amp; &#39;ddp&#39;&gt;"), std::string::npos);
  EXPECT_EQ(html.find("r/<cpu"), std::string::npos);
}

}  // namespace
}  // namespace accord::coverage

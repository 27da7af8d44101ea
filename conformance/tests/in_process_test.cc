// in_process_test.cc: the reference adapter; its fast text writer is byte-identical to the JSON form.
#include <gtest/gtest.h>

#include "accord/conformance/adapter.h"
#include "accord/conformance/loader.h"
#include "accord/conformance/outcome_text.h"
#include "accord/reference/json_io.h"
#include "accord/reference/profiles.h"
#include "accord/reference/resolve.h"
#include "test_support.h"

namespace accord::conformance {
namespace {
using nlohmann::json;
namespace ref = accord::reference;

TEST(InProcess, DeclaresEveryCapability) {
  auto a = make_reference_adapter();
  std::string err;
  ASSERT_TRUE(a->start(&err));
  EXPECT_EQ(a->info().name, "accord-reference");
  EXPECT_EQ(a->info().capabilities.size(), known_capabilities().size());
  EXPECT_TRUE(a->info().capabilities.count("trace"));
}

TEST(InProcess, UnknownProfileIsSkippedAndBadCaseErrored) {
  auto a = make_reference_adapter();
  EXPECT_EQ(a->resolve("x", "lightning-2.0", json::object()).status, ResultStatus::kSkipped);
  AdapterResult r = a->resolve("x", "spec", {{"flags", {{"no_such_flag", 1}}}});
  EXPECT_EQ(r.status, ResultStatus::kErrored);
  EXPECT_NE(r.message.find("/flags/no_such_flag"), std::string::npos);
}

/// Every case of the corpus and of the self-test data, both profiles: the direct writer used by
/// `accord serve` must give exactly the text of the reference's own outcome_to_json().dump().
TEST(InProcess, TextWriterMatchesTheJsonFormByteForByte) {
  auto a = make_reference_adapter();
  std::vector<Fixture> all;
  for (const std::string& dir : {std::string(ACCORD_FIXTURES_DIR), testing::data_dir("mutant")}) {
    Corpus c = load_corpus(dir);
    all.insert(all.end(), c.fixtures.begin(), c.fixtures.end());
  }
  ASSERT_FALSE(all.empty());
  std::size_t compared = 0;
  for (const auto& f : all) {
    for (const char* profile : {"spec", "lightning-1.6"}) {
      AdapterResult tree = a->resolve(f.id, profile, f.given);
      std::string text;
      AdapterResult fast = a->resolve_text(f.id, profile, f.given, &text);
      ASSERT_EQ(fast.status, tree.status) << f.id;
      if (tree.status != ResultStatus::kOk) continue;
      ASSERT_EQ(text, tree.outcome.dump()) << f.id << " (" << profile << ")";
      ++compared;
    }
  }
  EXPECT_GT(compared, all.size());
}

/// A strategy instance's arguments become the plan's params, JSON literals the text writer copies when dumping them
/// would give the same text and otherwise parses and dumps as the reference does: every kind of literal, on every
/// profile, matches outcome_to_json().dump().
TEST(InProcess, TextWriterMatchesTheJsonFormForEveryKindOfParam) {
  const std::vector<json> values = {true, false, nullptr, 0, 7, -12, 123456789012345678LL, 1234567890123456789LL,
                                    json::parse("18446744073709551615"), 1.5, -0.0, "cpu", "with \"quote\"",
                                    "back\\slash", "tab\there", "\x01", "caf\xc3\xa9", "", json::array({1, "a"}),
                                    json::array(), json::object({{"class", "LightningEnvironment"}})};
  std::size_t compared = 0;
  for (const json& v : values) {
    for (const char* key : {"find_unused_parameters", "zeta", "k\xc3\xa9y", "a\"b"}) {
      json args = {{key, v}, {"timeout", 30}, {"aaa", "first"}};
      json given = {{"flags", {{"accelerator", "cpu"}, {"devices", 2}, {"strategy", {{"class", "DDPStrategy"}, {"args", args}}}}}};
      ref::Case c;
      std::string err;
      ASSERT_TRUE(ref::case_from_json(given, &c, &err)) << err;
      for (const auto& p : ref::profiles()) {
        const ref::Outcome o = ref::resolve(c, p.profile);
        std::string text;
        write_outcome_text(&text, o, OutcomeParts::kWhole);
        ASSERT_EQ(text, ref::outcome_to_json(o).dump()) << v.dump() << " as " << key << " (" << p.name << ")";
        compared += o.ok() && !o.plan().strategy.params.empty();
      }
    }
  }
  EXPECT_GT(compared, values.size() * 4);  // most of them are plans with params
}

/// `resolve --batch --plan-only`: the outcome's JSON form without its notes and trace, its error without message and
/// severity, byte for byte, for every corpus case on every profile.
TEST(InProcess, PlanOnlyTextIsTheOutcomeWithoutNotesTraceAndMessages) {
  std::size_t ok = 0, errors = 0;
  for (const auto& f : load_corpus(ACCORD_FIXTURES_DIR).fixtures) {
    ref::Case c;
    std::string err;
    if (!ref::case_from_json(f.given, &c, &err)) continue;
    for (const auto& p : ref::profiles()) {
      const ref::Outcome o = ref::resolve(c, p.profile);
      json expected = ref::outcome_to_json(o);
      expected.erase("diagnostics"), expected.erase("trace");
      if (!o.ok()) expected["error"].erase("message"), expected["error"].erase("severity");
      std::string text;
      write_outcome_text(&text, o, OutcomeParts::kPlanOnly);
      ASSERT_EQ(text, expected.dump()) << f.id << " (" << p.name << ")";
      (o.ok() ? ok : errors) += 1;
    }
  }
  EXPECT_GT(ok, 1000u);
  EXPECT_GT(errors, 1000u);
}

TEST(InProcess, TextWriterEscapesLikeNlohmann) {
  auto a = make_reference_adapter();
  json c = {{"flags", {{"accelerator", "we\"ird\\\n\t\x01\u00e9"}, {"strategy", "Odd\x1f"}}}};
  for (const char* profile : {"spec", "lightning-1.6"}) {
    std::string text;
    a->resolve_text("x", profile, c, &text);
    EXPECT_EQ(text, a->resolve("x", profile, c).outcome.dump()) << profile;
  }
}

}  // namespace
}  // namespace accord::conformance

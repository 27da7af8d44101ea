// loader_test.cc: finding, parsing and schema-checking fixture files; errors carry file + pointer.
#include <gtest/gtest.h>

#include <algorithm>

#include "accord/conformance/loader.h"
#include "accord/reference/json_io.h"
#include "test_support.h"

namespace accord::conformance {
namespace {
using testing::TempDir;

const char* kCase = R"({"cases": [{"id": "strategy/a", "title": "t", "origin": "regression-snapshot",
  "given": {"flags": {"accelerator": "cpu"}}, "expect": {"plan": {"accelerator": "cpu"}}}]})";

TEST(Loader, ReadsTheSampleCorpusInPathOrder) {
  Corpus c = load_corpus(testing::data_dir("mutant"));
  ASSERT_TRUE(c.errors.empty()) << to_string(c.errors.front());
  ASSERT_EQ(c.files.size(), 2u);
  ASSERT_EQ(c.fixtures.size(), 10u);
  EXPECT_EQ(c.fixtures[0].id, "determinism/benchmark-warns");  // cases/determinism sorts before cases/strategy
  EXPECT_EQ(c.fixtures[4].id, "strategy/ddp-spawn-named");
  EXPECT_EQ(c.fixtures[4].pointer, "/cases/0");
  const Fixture& split = c.fixtures[8];
  EXPECT_EQ(split.id, "strategy/ddp-spawn-profile-split");
  EXPECT_FALSE(split.has_expect);
  ASSERT_NE(split.expectation_for("spec"), nullptr);
  EXPECT_EQ(split.expectation_for("spec")->pointer, "/cases/4/expect_by_profile/spec");
}

TEST(Loader, TellsItsProgressAfterEachFile) {
  std::vector<std::pair<std::size_t, std::size_t>> told;
  Corpus c = load_corpus(testing::data_dir("mutant"), [&](std::size_t done, std::size_t files) { told.emplace_back(done, files); });
  EXPECT_EQ(told, (std::vector<std::pair<std::size_t, std::size_t>>{{1, 2}, {2, 2}}));
  EXPECT_EQ(c.fixtures.size(), 10u);
}

// The whole corpus, packed: each case unpacks to the Fixture the loader reads (its input, expectations and place),
// and its selection facts are the Fixture's.
TEST(Loader, PackedCasesUnpackToTheFixturesOfTheCorpus) {
  Corpus fixtures = load_corpus(ACCORD_FIXTURES_DIR);
  Corpus packed = load_corpus(ACCORD_FIXTURES_DIR, nullptr, LoadAs::kPacked);
  ASSERT_TRUE(fixtures.errors.empty() && packed.errors.empty());
  EXPECT_TRUE(packed.fixtures.empty());
  ASSERT_EQ(packed.packed.size(), fixtures.fixtures.size());
  ASSERT_GT(packed.packed.size(), 1000u);
  EXPECT_EQ(packed.files, fixtures.files);
  for (std::size_t k = 0; k < packed.packed.size(); ++k) {
    const Fixture& want = fixtures.fixtures[k];
    const PackedCase& p = packed.packed[k];
    EXPECT_EQ(p.id, want.id);
    EXPECT_EQ(p.profiles, want.profiles);
    EXPECT_EQ(p.profiles_except, want.profiles_except);
    Fixture got;
    std::string error;
    ASSERT_TRUE(unpack(packed, p, &got, &error)) << error;
    EXPECT_EQ(got.file, want.file);
    EXPECT_EQ(got.pointer, want.pointer);
    EXPECT_EQ(got.given, want.given) << want.id;
    EXPECT_EQ(got.covers, want.covers);
    EXPECT_EQ(got.requires_, want.requires_);
    EXPECT_EQ(got.has_expect, want.has_expect);
    EXPECT_EQ(got.expect.plan, want.expect.plan) << want.id;
    EXPECT_EQ(got.expect.error.code, want.expect.error.code);
    EXPECT_EQ(got.expect.diagnostics, want.expect.diagnostics);
    EXPECT_EQ(got.expect_by_profile.size(), want.expect_by_profile.size());
  }
}

TEST(Loader, APackedCaseThatNoLongerReadsSaysSo) {
  Corpus c;
  c.as = LoadAs::kPacked;
  c.files = {"x.json"};
  PackedCase p{"strategy/a", {}, {}, 0, 0, "{\"id\": "};
  Fixture f;
  std::string error;
  EXPECT_FALSE(unpack(c, p, &f, &error));
  EXPECT_NE(error.find("x.json: packed case strategy/a: "), std::string::npos) << error;
}

TEST(Loader, CompiledSchemaIsThePublishedFile) {
  std::string published = testing::read_file(std::string(ACCORD_FIXTURES_DIR) + "/schema/fixture.schema.json");
  EXPECT_EQ(nlohmann::json::parse(published), nlohmann::json::parse(fixture_schema_text()));
}

// The schema is published for readers in any language, so it spells the flags out; they are the rows of
// reference/tables/flags.def, in table order.
TEST(Loader, SchemaFlagsAreTheFlagTable) {
  auto schema = nlohmann::json::parse(fixture_schema_text());
  std::vector<std::string> in_schema;
  for (const auto& [name, _] : schema["definitions"]["given"]["properties"]["flags"]["properties"].items()) in_schema.push_back(name);
  std::vector<std::string> in_table = reference::flag_names();
  std::sort(in_table.begin(), in_table.end());  // nlohmann keeps object keys sorted
  EXPECT_EQ(in_schema, in_table);
}

TEST(Loader, SkipsTheSchemaFolderAndNonJsonFiles) {
  TempDir d;
  d.write("schema/fixture.schema.json", "{\"not\": \"a fixture\"}");
  d.write("cases/strategy/a.json", kCase);
  d.write("cases/strategy/notes.md", "# not a fixture");
  Corpus c = load_corpus(d.path());
  EXPECT_TRUE(c.errors.empty());
  EXPECT_EQ(c.fixtures.size(), 1u);
}

TEST(Loader, InvalidJsonNamesTheFileAndPosition) {
  TempDir d;
  d.write("cases/x/bad.json", "{\"cases\": [\n  1,\n");
  Corpus c = load_corpus(d.path());
  ASSERT_EQ(c.errors.size(), 1u);
  EXPECT_EQ(c.errors[0].file, d.path() + "/cases/x/bad.json");
  EXPECT_EQ(c.errors[0].pointer, "");
  EXPECT_NE(c.errors[0].message.find("line 3"), std::string::npos) << c.errors[0].message;
}

TEST(Loader, SchemaErrorsPointAtTheBadValue) {
  TempDir d;
  nlohmann::json doc = nlohmann::json::parse(kCase);
  doc["cases"][0]["given"]["hardware"] = {{"cuda_devices", -2}};
  d.write("cases/strategy/a.json", doc.dump());
  Corpus c = load_corpus(d.path());
  ASSERT_EQ(c.errors.size(), 1u);
  EXPECT_EQ(c.errors[0].pointer, "/cases/0/given/hardware/cuda_devices");
  EXPECT_NE(c.errors[0].message.find("(value: -2)"), std::string::npos) << c.errors[0].message;
  EXPECT_TRUE(c.fixtures.empty());
}

TEST(Loader, BothExpectationsMissingIsASchemaError) {
  TempDir d;
  nlohmann::json doc = nlohmann::json::parse(kCase);
  doc["cases"][0].erase("expect");
  d.write("cases/strategy/a.json", doc.dump());
  Corpus c = load_corpus(d.path());
  ASSERT_EQ(c.errors.size(), 1u);
  EXPECT_EQ(c.errors[0].pointer, "/cases/0");
  EXPECT_NE(c.errors[0].message.find("expect"), std::string::npos);
}

TEST(Loader, ExpectationWithTwoKindsIsASchemaError) {
  TempDir d;
  nlohmann::json doc = nlohmann::json::parse(kCase);
  doc["cases"][0]["expect"]["error"] = {{"code", "err_flag_conflict"}};
  d.write("cases/strategy/a.json", doc.dump());
  Corpus c = load_corpus(d.path());
  ASSERT_EQ(c.errors.size(), 1u);
  EXPECT_EQ(c.errors[0].pointer, "/cases/0/expect");
}

TEST(Loader, MissingDirectoryIsAnErrorNotAThrow) {
  Corpus c = load_corpus("/nonexistent/accord/corpus");
  ASSERT_EQ(c.errors.size(), 1u);
  EXPECT_EQ(c.errors[0].message, "not a directory");
  EXPECT_EQ(to_string(c.errors[0]), "/nonexistent/accord/corpus: /: not a directory");
}

}  // namespace
}  // namespace accord::conformance

// case_needs_test.cc: the capability tags read off a case's input, and agreement with the corpus's own `requires`.
#include "accord/conformance/case_needs.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "accord/conformance/loader.h"
#include "accord/reference/json_io.h"

namespace accord::conformance {
namespace {
using nlohmann::json;
namespace ref = accord::reference;

std::vector<std::string> needs(const char* text) {
  ref::Case c;
  std::string err;
  EXPECT_TRUE(ref::case_from_json(json::parse(text), &c, &err)) << err;
  return case_needs(c);
}

TEST(CaseNeeds, ReadOffTheInput) {
  EXPECT_TRUE(needs("{}").empty());
  EXPECT_EQ(needs(R"({"flags": {"accelerator": "tpu", "gpus": 2, "strategy": {"class": "DDPStrategy"}}})"),
            (std::vector<std::string>{"accelerator:tpu", "flag:accelerator", "flag:gpus", "flag:legacy_devices", "flag:strategy", "instances"}));
  EXPECT_EQ(needs(R"({"flags": {"accelerator": "auto"}, "env": {"SLURM_NTASKS": "2", "LSB_JOBID": "1", "X": "y"}})"),
            (std::vector<std::string>{"env", "env:lsf", "env:slurm", "flag:accelerator"}));  // `auto` names no accelerator
  EXPECT_EQ(needs(R"({"hardware": {"mps": true, "ipu": true, "fork": false, "torch_distributed": false, "gpu_busy": [1],
                      "packages": ["horovod"]}, "interactive": true})"),
            (std::vector<std::string>{"accelerator:ipu", "hardware:gpu_busy", "hardware:mps", "hardware:no_distributed", "hardware:no_fork",
                                      "interactive", "package:horovod"}));
}

/// The tags whose use shows in the input alone. A fixture's `requires` may say more (`accelerator:gpu` for a case
/// on a GPU machine, `accelerator:ipu` for an IPU strategy on a CPU box): what its author judged it exercises.
bool input_evident(const std::string& tag) {
  for (const char* kind : {"env", "package:", "hardware:", "flag:legacy_devices", "interactive"})
    if (tag.rfind(kind, 0) == 0) return true;
  return false;
}

TEST(CaseNeeds, CoverWhatTheCorpusRequiresOfItsInput) {
  Corpus corpus = load_corpus(ACCORD_FIXTURES_DIR);
  ASSERT_TRUE(corpus.errors.empty());
  std::size_t checked = 0;
  for (const auto& f : corpus.fixtures) {
    ref::Case c;
    std::string err;
    ASSERT_TRUE(ref::case_from_json(f.given, &c, &err)) << f.id << ": " << err;
    auto derived = case_needs(c);
    for (const auto& tag : f.requires_) {
      if (!input_evident(tag) || tag == "hardware:mps") continue;  // mps: also stated for accelerator="mps" on a box without
      EXPECT_TRUE(std::count(derived.begin(), derived.end(), tag)) << f.id << " requires " << tag << ", not read off its input";
      ++checked;
    }
  }
  EXPECT_GT(checked, 300u);
}

}  // namespace
}  // namespace accord::conformance

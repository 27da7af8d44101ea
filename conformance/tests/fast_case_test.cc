// fast_case_test.cc: FastCaseReader (the simdjson fast path of serve and resolve --batch) accepts exactly what
// case_from_json accepts, reads it to the same case, and declines the forms it does not read the same way.
#include <gtest/gtest.h>

#include "accord/conformance/fast_case.h"
#include "accord/conformance/json_input.h"
#include "accord/conformance/loader.h"
#include "accord/reference/json_io.h"
#include "test_support.h"

namespace accord::conformance {
namespace {
using nlohmann::json;
namespace ref = accord::reference;

/// The tree reader's result on `text`: the case's wire form, or nullopt when it rejects the text.
std::optional<json> tree_read(const std::string& text) {
  json j = json::parse(text, nullptr, false);
  ref::Case c;
  std::string error;
  if (j.is_discarded() || !ref::case_from_json(j, &c, &error)) return std::nullopt;
  return ref::case_to_json(c);
}

std::optional<json> fast_read(const std::string& text) {
  FastCaseReader reader;
  ref::Case c;
  if (!reader.read_case(text, &c)) return std::nullopt;
  return ref::case_to_json(c);
}

/// Every fixture's `given` of the corpus and the self-test data: both readers accept it and read the same case.
TEST(FastCase, ReadsEveryCorpusCaseLikeTheTreeReader) {
  std::size_t n = 0;
  for (const std::string& dir : {std::string(ACCORD_FIXTURES_DIR), testing::data_dir("mutant")})
    for (const auto& f : load_corpus(dir).fixtures) {
      const std::string text = f.given.dump();
      std::optional<json> tree = tree_read(text), fast = fast_read(text);
      ASSERT_EQ(fast.has_value(), tree.has_value()) << f.id << ": " << text;
      if (!tree) continue;
      ASSERT_EQ(*fast, *tree) << f.id;
      ++n;
    }
  EXPECT_GT(n, 1000u);
}

/// The way resolve --batch and serve read: one reader and one case for every text in turn, the case cleared by the
/// reader; each text (valid or declined) leaves nothing behind for the next (every corpus case after every other).
TEST(FastCase, OneCaseReusedReadsEachTextAsAFreshOne) {
  FastCaseReader reader;
  ref::Case reused;
  std::size_t n = 0;
  for (const auto& f : load_corpus(ACCORD_FIXTURES_DIR).fixtures) {
    const std::string text = f.given.dump();
    std::optional<json> fresh = fast_read(text);
    ASSERT_EQ(reader.read_case(text, &reused), fresh.has_value()) << f.id;
    if (fresh) {
      ASSERT_EQ(ref::case_to_json(reused), *fresh) << f.id << " (read after the case before it)";
    }
    n += fresh.has_value();
    ASSERT_FALSE(reader.read_case(R"({"flags":{"devices":1,"devices":2}})", &reused));  // declined half-way
    // declined inside a value: the list is left half read
    ASSERT_FALSE(reader.read_case(R"({"flags":{"plugins":["x",{"class":"X","other":1}]}})", &reused));
  }
  EXPECT_GT(n, 1000u);
}

/// The reader resets the flags its last read wrote when it is given that case again, and every set flag of another
/// case: two cases read in turn by one reader each hold only what their own last text set.
TEST(FastCase, TwoCasesReadInTurnHoldTheirOwnTexts) {
  FastCaseReader reader;
  ref::Case a, b;
  const std::string with_flags = R"({"flags":{"accelerator":"gpu","devices":[0,1],"precision":16},"env":{"RANK":"0"}})";
  const std::string other = R"({"flags":{"num_nodes":2}})", without = R"({"flags":{"strategy":"ddp"}})";
  ASSERT_TRUE(reader.read_case(with_flags, &a));
  ASSERT_TRUE(reader.read_case(other, &b));
  ASSERT_TRUE(reader.read_case(without, &a));  // `a` was not the last case written: every set flag is reset
  EXPECT_EQ(ref::case_to_json(a), *fast_read(without));
  ASSERT_TRUE(reader.read_case(without, &b));
  EXPECT_EQ(ref::case_to_json(b), *fast_read(without));
  b.flags.num_nodes = ref::PyValue::integer(2);  // set by the caller, not by a read
  ASSERT_TRUE(reader.read_case(without, &a));
  ASSERT_TRUE(reader.read_case(without, &b));  // `b` again, but not the last case written
  EXPECT_EQ(ref::case_to_json(b), *fast_read(without));
}

/// The fast reader never reads nesting past kMaxJsonDepth (256), which check_json_depth refuses: simdjson's limit is
/// set to 256, and it counts a value inside the innermost list as one level more (such a text of exactly 256 levels
/// is declined, and the tree reader reads it).
TEST(FastCase, NestingPastTheDepthLimitIsDeclined) {
  auto nested = [](int levels, const char* innermost) {  // the case object and flags are the first two levels
    const auto lists = static_cast<std::size_t>(levels - 2);
    return R"({"flags":{"devices":)" + std::string(lists, '[') + innermost + std::string(lists, ']') + "}}";
  };
  std::string error;
  for (const char* innermost : {"1", ""}) {
    ASSERT_TRUE(check_json_depth(nested(256, innermost), &error));
    ASSERT_FALSE(check_json_depth(nested(257, innermost), &error));
    EXPECT_TRUE(fast_read(nested(255, innermost)).has_value()) << innermost;
    EXPECT_FALSE(fast_read(nested(257, innermost)).has_value()) << innermost;
    EXPECT_TRUE(tree_read(nested(256, innermost)).has_value()) << innermost;
  }
  EXPECT_TRUE(fast_read(nested(256, "")).has_value());
}

struct Agreement {
  const char* text;
  const char* why;
};

// Valid cases the fast reader reads, each to the tree reader's case.
const Agreement kRead[] = {
    {R"({})", "the empty case"},
    {R"({"flags":{"strategy":{"class":"DDPStrategy","args":{"find_unused_parameters":false,"x":[1,"DDPStrategy"]}},
        "plugins":["DeepSpeedStrategy",{"class":"LightningEnvironment"}],"devices":"0, 1","precision":16.5,
        "accelerator":null,"benchmark":true,"num_nodes":-3}})",
     "instances, lists, strings naming classes, floats, null, negative integers"},
    {R"({"hardware":{"tpu_cores":8,"tpu":false}})", "tpu_cores decides over tpu written after it (sorted key order)"},
    {R"({"hardware":{"tpu":true,"tpu_cores":0}})", "tpu_cores decides over tpu written before it"},
    {R"({"hardware":{"cuda_devices":4096,"gpu_busy":[3,-1,3],"packages":["deepspeed","apex"],"mps":true,
        "probe":{"anything":[1]},"cuda_names":["A100"],"nccl_version":"2.18"}})",
     "every hardware key, informational keys ignored"},
    {R"({"env":{"SLURM_NTASKS":"4","X":"\u00e9\n\u0000"},"interactive":true})", "environment with escapes"},
    {R"({"env":{"WORLD_SIZE":"2","RANK":"1","LOCAL_RANK":"1"}})", "environment variables out of order"},
    {R"({"hardware":{"packages":["horovod","apex","deepspeed","apex"],"gpu_busy":[7,0,7,2]}})",
     "package names and GPU ids out of order and repeated (a set: each once)"},
    {R"({"flags":{"devices":9223372036854775807,"num_nodes":-9223372036854775808}})", "the ends of int64"},
    {R"({"flags":{"devices":18446744073709551615,"gpus":9223372036854775808}})", "past int64: kept as decimal text"},
    {R"({"flags":{"devices":-0,"num_nodes":-0.0,"gpus":1E2,"ipus":0.1}})", "-0 is the integer 0, -0.0 a float"},
};

// Valid or invalid texts the fast reader declines (the tree reader then decides).
const Agreement kDeclined[] = {
    {R"({"flags":{"devices":1,"devices":2}})", "a repeated flag (nlohmann keeps the last)"},
    {R"({"env":{"A":"1","A":"2"}})", "a repeated environment variable"},
    {R"({"env":{"A":"1","B":"2","A":"3"}})", "a repeated environment variable, not next to the first"},
    {R"({"hardware":{"mps":true,"mps":false}})", "a repeated hardware switch"},
    {R"({"hardware":{"packages":["a"],"packages":["b"]}})", "a repeated package list"},
    {R"({"interactive":true,"interactive":false})", "a repeated case key"},
    {R"({"flags":{"strategy":{"class":"DDPStrategy","class":"DDPSpawnStrategy"}}})", "a repeated instance key"},
    {R"({"flags":{"strategy":{"class":"DDPStrategy","args":{"a":1,"a":2}}}})", "a repeated instance argument"},
    {R"({"flags":{"devices":1e400}})", "a float past double (simdjson refuses it)"},
    {R"({"flags":{"devices":18446744073709551616}})", "an integer past uint64 (the tree reader keeps its digits)"},
    {R"({"hardware":{"gpu_busy":[4294967297]}})", "a GPU id past int"},
    {R"({"hardware":{"cuda_devices":4097}})", "cuda_devices out of range (an error)"},
    {R"({"hardware":{"tpu_cores":-1}})", "negative tpu_cores (an error)"},
    {R"({"flags":{"no_such_flag":1}})", "an unknown flag (an error)"},
    {R"({"flags":{"strategy":{"args":{}}}})", "an instance without a class (an error)"},
    {R"({"flags":[]})", "flags not an object (an error)"},
    {R"({"env":{"A":1}})", "a non-string environment value (an error)"},
    {R"({"hardware":{"mps":1}})", "a non-boolean switch (an error)"},
    {R"({"colour":"blue"})", "an unknown case key (an error)"},
    {R"([])", "not an object (an error)"},
    {R"({"flags":)", "not JSON"},
};

TEST(FastCase, ReadsValidCasesLikeTheTreeReader) {
  for (const auto& [text, why] : kRead) {
    std::optional<json> tree = tree_read(text), fast = fast_read(text);
    ASSERT_TRUE(tree.has_value()) << why;
    ASSERT_TRUE(fast.has_value()) << why;
    EXPECT_EQ(*fast, *tree) << why;
  }
}

/// The environment, the packages and the busy GPU ids are sorted vectors, which the resolver scans in order (a JSON
/// object sorts its keys whatever order the vector has, so the wire forms above cannot show this): the fast reader
/// leaves them in the tree reader's order, also when the text does not, and when the room it writes over held more.
TEST(FastCase, SortedContainersHoldTheTreeReadersOrder) {
  FastCaseReader reader;
  ref::Case fast;
  for (const auto& [text, why] : kRead) {
    ref::Case tree;
    std::string error;
    ASSERT_TRUE(ref::case_from_json(json::parse(text), &tree, &error)) << why;
    ASSERT_TRUE(reader.read_case(R"({"env":{"A":"1","B":"2","C":"3","D":"4","E":"5"},"hardware":{"gpu_busy":[9,8,7,6],
                                   "packages":["x","y","z","zz"]}})", &fast));
    ASSERT_TRUE(reader.read_case(text, &fast)) << why;
    EXPECT_EQ(fast.env, tree.env) << why;
    EXPECT_EQ(fast.hardware.packages, tree.hardware.packages) << why;
    EXPECT_EQ(fast.hardware.gpu_busy, tree.hardware.gpu_busy) << why;
  }
}

TEST(FastCase, DeclinesWhatItDoesNotReadTheSameWay) {
  for (const auto& [text, why] : kDeclined) EXPECT_FALSE(fast_read(text).has_value()) << why;
}

TEST(FastCase, ReadsResolveRequests) {
  FastCaseReader reader;
  std::string id;
  std::optional<std::string> profile;
  ref::Case c;
  ASSERT_TRUE(reader.read_request(R"({"cmd":"resolve","id":"a\"b","profile":"","case":{"interactive":true},"x":1})", &id,
                                  &profile, &c));
  EXPECT_EQ(id, "a\"b");
  EXPECT_EQ(profile, std::optional<std::string>(""));  // an empty profile is a profile (unsupported), not the default
  EXPECT_TRUE(c.interactive);
  ASSERT_TRUE(reader.read_request(R"({"id":"b","cmd":"resolve"})", &id, &profile, &c));
  EXPECT_EQ(profile, std::nullopt);
  EXPECT_FALSE(c.interactive);
  ASSERT_TRUE(reader.read_request(R"({"id":"c","cmd":"resolve","case":null})", &id, &profile, &c));
  for (const char* declined : {
           R"({"cmd":"resolve","id":7,"case":{}})",                    // a non-string id is echoed as written
           R"({"cmd":"start","protocol":1})",                          // not a resolve request
           R"({"cmd":"resolve","cmd":"stop","id":"x"})",               // repeated cmd: nlohmann keeps "stop"
           R"({"cmd":"resolve","id":"x","profile":3})",                // a non-string profile
           R"({"cmd":"resolve","id":"x","case":{"flags":{"x":1}}})",   // a case the tree reader rejects
           R"({"cmd":"resolve","id":"x","case":{},"case":{}})",        // repeated case
           R"({"cmd":"resolve"})",                                     // no id
           R"(not json)"})
    EXPECT_FALSE(reader.read_request(declined, &id, &profile, &c)) << declined;
}

}  // namespace
}  // namespace accord::conformance

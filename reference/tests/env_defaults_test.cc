// env_defaults_test.cc: PL_TRAINER_<FLAG> defaults (SPEC validate.trainer-env-defaults;
// PL 1.6.5 utilities/argparse.py _defaults_from_env_vars): which flags the environment fills, and how a value is read as a Python literal.
#include <algorithm>

#include "test_util.h"

namespace accord::reference::testing {
namespace {
using nlohmann::json;

bool fired(const Outcome& o, RuleId r) { return std::find(o.trace.begin(), o.trace.end(), r) != o.trace.end(); }

/// Resolves `flags` (JSON object text) with `env` on `p`.
Outcome with_env(const std::string& flags, const std::map<std::string, std::string>& env, Profile p = Profile::kSpec) {
  return run(json{{"flags", json::parse(flags)}, {"env", env}}.dump(), p);
}

/// What `precision` became when PL_TRAINER_PRECISION is `text` (spec, accelerator='cpu'): the value as
/// the invalid-precision error prints it (Python repr), or "plan:<precision value>" when it is accepted.
std::string precision_from_env(const std::string& text) {
  Outcome o = with_env(R"({"accelerator": "cpu"})", {{"PL_TRAINER_PRECISION", text}});
  EXPECT_TRUE(fired(o, RuleId::kTrainerEnvDefaults)) << text;
  if (o.ok()) return "plan:" + o.plan().precision.value;
  EXPECT_EQ(o.error().code, DiagCode::kPrecisionInvalid) << text;
  return o.error().field("precision").value_or("<no precision field>");
}

// ast.literal_eval: None/True/False, ints in every base, floats, quoted strings, lists (with a trailing
// comma and any spacing), nested lists. spec accepts 64, 'bf16' and None (-> 32) as a precision.
TEST(EnvDefaults, ValuesAreReadAsPythonLiterals) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"64", "plan:64"},           {" 64 ", "plan:64"},        {"\t64\n", "plan:64"},
      {"+64", "plan:64"},          {"0x40", "plan:64"},        {"0o100", "plan:64"},
      {"0b1000000", "plan:64"},    {"'bf16'", "plan:bf16"},    {"\"bf16\"", "plan:bf16"},
      {"None", "plan:32"},         {"True", "True"},           {"False", "False"},
      {"-0x10", "-16"},            {"00", "0"},                {"1.5", "1.5"},
      {"1e1", "10.0"},             {"1E1", "10.0"},            {".5", "0.5"},
      {"1.", "1.0"},               {"2.5e-3", "0.0025"},       {"1e-1", "0.1"},
      {"[]", "[]"},                {"[16, 'a']", "[16, 'a']"}, {"[ 16 , ]", "[16]"},
      {"[[16], [], ['x']]", "[[16], [], ['x']]"},
  };
  for (const auto& [text, seen] : cases) EXPECT_EQ(precision_from_env(text), seen) << "PL_TRAINER_PRECISION=" << text;
}

// Anything literal_eval rejects (a SyntaxError or a non-literal expression) is kept as the string.
TEST(EnvDefaults, TextThatIsNoLiteralStaysAString) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"abc", "'abc'"},        {"016", "'016'"},          {"1e", "'1e'"},           {"1-1", "'1-1'"},
      {"1.5.2", "'1.5.2'"},    {"0x", "'0x'"},            {"0b12", "'0b12'"},       {"[16", "'[16'"},
      {"[16 32]", "'[16 32]'"}, {"[16,,]", "'[16,,]'"},   {"[,]", "'[,]'"},         {"[16]]", "'[16]]'"},
      {"'bf16", "\"'bf16\""},  {"'bf16' x", "\"'bf16' x\""},
      {"bf16-mixed", "plan:bf16"},  // kept as the string 'bf16-mixed', a spelling spec accepts
  };
  for (const auto& [text, seen] : cases) EXPECT_EQ(precision_from_env(text), seen) << "PL_TRAINER_PRECISION=" << text;
}

TEST(EnvDefaults, DeeplyNestedListsDoNotCrash) {
  std::string deep = std::string(40, '[') + std::string(40, ']');
  Outcome o = with_env(R"({"accelerator": "cpu"})", {{"PL_TRAINER_PRECISION", deep}});
  EXPECT_THAT(o, FailsWith(DiagCode::kPrecisionInvalid, std::vector<std::string>{"precision"}));
}

TEST(EnvDefaults, FlagsTheCasePassesWinEvenWhenNone) {
  // Trainer(precision=None) with PL_TRAINER_PRECISION=64: the explicit None wins; spec reads None as 32.
  Outcome o = with_env(R"({"accelerator": "cpu", "precision": null})", {{"PL_TRAINER_PRECISION", "64"}});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.plan().precision.value, "32");
  EXPECT_FALSE(fired(o, RuleId::kTrainerEnvDefaults));
}

TEST(EnvDefaults, OneFlagFromTheEnvironmentAndOnePassed) {
  Outcome o = with_env(R"({"devices": 1})", {{"PL_TRAINER_DEVICES", "2"}, {"PL_TRAINER_ACCELERATOR", "cpu"}});
  ASSERT_TRUE(o.ok());
  EXPECT_TRUE(fired(o, RuleId::kTrainerEnvDefaults));
  EXPECT_EQ(o.plan().parallel_devices, std::vector<std::string>{"cpu"});
}

TEST(EnvDefaults, EmptyUnknownAndOtherVariablesFillNothing) {
  // An empty value counts as unset (parse_env_variables skips ""); PL_TRAINER_MAX_EPOCHS is no connector
  // flag; RANK and SLURM_* are not PL_TRAINER_ variables at all.
  const std::vector<std::map<std::string, std::string>> envs = {
      {{"PL_TRAINER_DEVICES", ""}}, {{"PL_TRAINER_MAX_EPOCHS", "3"}}, {{"RANK", "0"}}, {{"SLURM_X", "1"}}, {}};
  for (const auto& env : envs) {
    Outcome o = with_env(R"({"accelerator": "cpu"})", env);
    ASSERT_TRUE(o.ok());
    EXPECT_FALSE(fired(o, RuleId::kTrainerEnvDefaults)) << json(env).dump();
    EXPECT_EQ(o.plan().parallel_devices, std::vector<std::string>{"cpu"}) << json(env).dump();
  }
}

TEST(EnvDefaults, EveryConnectorFlagHasAVariable) {
  // Each PL_TRAINER_<FLAG> reaches its flag: a value the flag rejects proves it was read.
  struct Row { const char* var; const char* value; DiagCode code; };
  const Row rows[] = {
      {"PL_TRAINER_STRATEGY", "ddp_cpu", DiagCode::kStrategyDdpCpu},
      {"PL_TRAINER_NUM_NODES", "'x'", DiagCode::kNumNodesInvalid},
      {"PL_TRAINER_AMP_BACKEND", "'nope'", DiagCode::kAmpBackendInvalid},
      {"PL_TRAINER_DETERMINISTIC", "'yes'", DiagCode::kDeterministicInvalid},
      {"PL_TRAINER_BENCHMARK", "'yes'", DiagCode::kFlagType},
  };
  for (const auto& r : rows) {
    Outcome o = with_env(R"({"accelerator": "cpu"})", {{r.var, r.value}});
    EXPECT_TRUE(fired(o, RuleId::kTrainerEnvDefaults)) << r.var;
    ASSERT_FALSE(o.ok()) << r.var;
    EXPECT_EQ(o.error().code, r.code) << r.var;
  }
}

}  // namespace
}  // namespace accord::reference::testing

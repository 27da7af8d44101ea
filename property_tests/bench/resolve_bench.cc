// resolve_bench.cc: how fast the reference resolves: single cases, JSON in and out, generated batches.
#include <benchmark/benchmark.h>

#include <algorithm>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "accord/reference/json_io.h"
#include "accord/reference/resolve.h"
#include "gen/case.h"

namespace {
using nlohmann::json;
namespace ref = accord::reference;

struct Named { const char* name; const char* text; const char* text22; };

// Representative cases: defaults, the common DDP setups, a managed cluster, TPU, legacy flags, errors. `text22` is the
// same setup in Lightning 2.x vocabulary, for the profiles of the 2.2.5 connectors, Trainer and Fabric ("" = the same text).
const std::vector<Named>& cases() {
  static const std::vector<Named> v = {
      {"default", R"({})", ""},
      {"cpu_ddp_2", R"({"flags": {"strategy": "ddp", "accelerator": "cpu", "devices": 2}})", ""},
      {"gpu_16_spawn_4", R"({"flags": {"accelerator": "gpu", "devices": 4, "precision": 16}, "hardware": {"cuda_devices": 4}})",
       R"({"flags": {"accelerator": "cuda", "devices": 4, "precision": "16-mixed"}, "hardware": {"cuda_devices": 4}})"},
      {"slurm_ddp_spawn", R"({"flags": {"strategy": "ddp_spawn", "accelerator": "cpu", "devices": 2},
                           "env": {"SLURM_NTASKS": "2", "SLURM_PROCID": "0", "SLURM_LOCALID": "0", "SLURM_NODEID": "0"}})",
       R"({"flags": {"strategy": "ddp_spawn", "accelerator": "cpu", "devices": 2},
           "env": {"SLURM_NTASKS": "2", "SLURM_NTASKS_PER_NODE": "2", "SLURM_PROCID": "0", "SLURM_LOCALID": "0", "SLURM_NODEID": "0"}})"},
      {"tpu_8_bf16", R"({"flags": {"accelerator": "tpu", "devices": 8, "precision": "bf16"}, "hardware": {"tpu": true}})",
       R"({"flags": {"accelerator": "tpu", "devices": 8, "precision": "bf16-true"}, "hardware": {"tpu": true}})"},
      {"legacy_gpus_deterministic", R"({"flags": {"gpus": "0,1", "deterministic": true, "benchmark": true}, "hardware": {"cuda_devices": 2}})",
       R"({"flags": {"accelerator": "cuda", "devices": "0,1", "deterministic": true, "benchmark": true}, "hardware": {"cuda_devices": 2}})"},
      {"deepspeed_plugins", R"({"flags": {"strategy": "deepspeed_stage_2", "accelerator": "gpu", "devices": 2, "num_nodes": 2,
                             "plugins": ["LightningEnvironment", "TorchCheckpointIO"]}, "hardware": {"cuda_devices": 2, "packages": ["deepspeed"]}})", ""},
      {"error_unknown_strategy", R"({"flags": {"strategy": "foo"}})", ""},
  };
  return v;
}

ref::Case parse_case(const char* text) {
  ref::Case c;
  std::string error;
  if (!ref::case_from_json(json::parse(text), &c, &error)) throw std::runtime_error(error);
  return c;
}

/// One case resolved again and again into one outcome, its storage reused, as `resolve --batch` and `serve` do.
void resolve_one(benchmark::State& state, ref::Case c, ref::Profile p) {
  ref::Outcome o;
  for (auto _ : state) {
    ref::resolve(c, p, o);
    benchmark::DoNotOptimize(o);
  }
  state.SetItemsProcessed(state.iterations());
}

/// The same through `resolve(case, profile) -> Outcome`: a new outcome built and destroyed each time.
void resolve_fresh(benchmark::State& state, ref::Case c, ref::Profile p) {
  for (auto _ : state) {
    auto o = ref::resolve(c, p);
    benchmark::DoNotOptimize(o);
  }
  state.SetItemsProcessed(state.iterations());
}

void json_round_trip(benchmark::State& state, std::string text, ref::Profile p) {
  std::size_t bytes = 0;
  for (auto _ : state) {
    ref::Case c;
    std::string error;
    ref::case_from_json(json::parse(text), &c, &error);
    std::string out = ref::outcome_to_json(ref::resolve(c, p)).dump();
    bytes += out.size();
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}

/// 10,000 generated cases (Arbitrary<Case>, fixed seed): about a third plans, two thirds errors.
const std::vector<ref::Case>& batch() {
  static const std::vector<ref::Case> v = [] {
    std::vector<ref::Case> out;
    auto gen = rc::gen::arbitrary<ref::Case>();
    rc::Random r(20240601);
    for (int k = 0; k < 10000; ++k) out.push_back(gen(r.split(), k % 101).value());
    return out;
  }();
  return v;
}

/// The first `n` generated cases, resolved in turn. n = 10,000 is the cold mix: 10,000 cases (about 20 MB of
/// values, maps and strings) do not stay in the caches, so memory traffic dominates. n = 256 is the same mix hot:
/// the cases stay in cache, as one case resolved on its own does.
void resolve_batch(benchmark::State& state, ref::Profile p) {
  const auto& all = batch();
  const std::vector<ref::Case> hot(all.begin(), all.begin() + std::min<std::ptrdiff_t>(state.range(0), static_cast<std::ptrdiff_t>(all.size())));
  const auto& cs = state.range(0) >= static_cast<std::int64_t>(all.size()) ? all : hot;
  ref::Outcome o;
  for (auto _ : state)
    for (const auto& c : cs) {
      ref::resolve(c, p, o);
      benchmark::DoNotOptimize(o);
    }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(cs.size()));
}

void batch_json(benchmark::State& state, ref::Profile p) {
  std::vector<std::string> lines;
  for (const auto& c : batch()) lines.push_back(ref::case_to_json(c).dump());
  for (auto _ : state)
    for (const auto& l : lines) {
      ref::Case c;
      std::string error;
      ref::case_from_json(json::parse(l), &c, &error);
      std::string out = ref::outcome_to_json(ref::resolve(c, p)).dump();
      benchmark::DoNotOptimize(out);
    }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(lines.size()));
}

const int kRegistered = [] {
  for (const auto& info : ref::profiles()) {
    ref::Profile p = info.profile;
    std::string prof = info.name;
    bool v22 = ref::policy(p).connector_release != ref::ConnectorRelease::kLightning16;  // both 2.2.5 connectors
    for (const auto& n : cases()) {
      const char* text = v22 && *n.text22 ? n.text22 : n.text;
      benchmark::RegisterBenchmark(("resolve/" + prof + "/" + n.name).c_str(), resolve_one, parse_case(text), p);
      benchmark::RegisterBenchmark(("resolve_fresh/" + prof + "/" + n.name).c_str(), resolve_fresh, parse_case(text), p);
      benchmark::RegisterBenchmark(("json_round_trip/" + prof + "/" + n.name).c_str(), json_round_trip, std::string(text), p);
    }
    benchmark::RegisterBenchmark(("batch_generated/" + prof).c_str(), resolve_batch, p)->Arg(10000)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("batch_generated_hot/" + prof).c_str(), resolve_batch, p)->Arg(256)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("batch_generated_json/" + prof).c_str(), batch_json, p)->Unit(benchmark::kMillisecond);
  }
  return 0;
}();

}  // namespace

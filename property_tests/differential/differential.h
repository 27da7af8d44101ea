// differential.h: `accord differential`: generated cases through two implementations, differences
// shrunk to minimal cases and written as fixtures for review.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <rapidcheck.h>
#include <string>
#include <vector>

#include "accord/conformance/adapter.h"
#include "accord/reference/inputs.h"
#include "gen/case.h"  // Arbitrary<Case>

namespace accord::differential {

/// How two outcomes differ, as a stable key: `status:ok/error`, `error:<code A>/<code B>`,
/// `plan:<field path>`, `diagnostics:+<codes only in B>-<codes only in A>`, or `fault:<status>`
/// when one side failed the case. Empty when they agree. Shrinking keeps the key.
std::string difference_kind(const conformance::AdapterResult& a, const conformance::AdapterResult& b);

/// The generated cases of a seed, in order: case k is Arbitrary<Case> at size k % 101 on the k-th split of
/// the seed's random stream. `accord differential` and `accord generate` read the same stream.
class CaseStream {
 public:
  /// `without_packages`: every case declares no optional package (deepspeed, fairscale, horovod, apex, bagua), so an
  /// implementation that cannot fake installed packages (the Lightning oracle skips such cases) answers them all.
  explicit CaseStream(std::uint64_t seed, bool without_packages = false)
      : gen_(without_packages ? rc::gen::map(rc::gen::arbitrary<reference::Case>(), without_packages_of)
                              : rc::gen::arbitrary<reference::Case>()),
        random_(seed) {}
  /// The next case with its shrink tree.
  rc::Shrinkable<reference::Case> next() { return gen_(random_.split(), k_++ % 101); }

 private:
  static reference::Case without_packages_of(reference::Case c) {
    c.hardware.packages.clear();
    return c;
  }
  rc::Gen<reference::Case> gen_;
  rc::Random random_;
  int k_ = 0;
};

/// One implementation and the profile it is asked for.
struct Side {
  conformance::Adapter* adapter;
  std::string profile;
  std::string label;  ///< for messages (`reference`, the command)
};

struct Options {
  int cases = 1000;
  std::uint64_t seed = 1;
  int max_shrink_steps = 2000;  ///< resolutions spent shrinking one difference
  bool without_packages = false;  ///< CaseStream's option
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
  /// Asked before each case and after its two resolutions: true ends the run there (SIGINT/SIGTERM), the case in
  /// hand not counted. A shrink cut short keeps the smallest example found before (a killed side is another kind).
  std::function<bool()> stop;
};

/// One kind of difference: how often it occurred and its shrunk example.
struct Finding {
  std::string kind;
  int occurrences = 0;
  int first_case = 0;      ///< index of the first generated case showing it
  int shrink_steps = 0;    ///< accepted shrinks
  nlohmann::json given;    ///< the shrunk case, minimal wire form
  conformance::AdapterResult baseline, other;
};

struct Report {
  bool stopped = false;  ///< Options::stop ended the run early
  int cases = 0;         ///< cases resolved on both sides (skipped ones not counted)
  int differing = 0;
  int skipped = 0;       ///< generated cases not asked: they use a capability a side does not declare (case_needs.h)
  std::map<std::string, int> skipped_by;  ///< per missing capability tag (a case counts under each it lacks)
  std::vector<Finding> findings;  ///< one per kind, in order of first appearance
  /// The timing mode (Adapter::ask_timing): each side's own time for the cases both sides timed, in case order
  /// (shrinking's resolutions left out).
  std::vector<std::int64_t> elapsed_baseline, elapsed_other;
};

/// Generates `cases` cases from Arbitrary<Case> (seeded), resolves each on both sides, and shrinks
/// the first case of every kind of difference with RapidCheck's shrink tree.
Report run(Side& baseline, Side& other, const Options& opt);

/// The case's wire form without default values (no empty env, only non-default hardware keys).
nlohmann::json minimal_case_json(const nlohmann::json& full_case);

/// An outcome as a fixture expectation: the error (code, field names and string values) or the core of the plan
/// (accelerator, devices, num_processes, strategy name, precision value, cluster environment class) plus the plan
/// field at `also_pointer` when given; the diagnostic codes, exact, either way.
nlohmann::json snapshot_expectation(const nlohmann::json& outcome, const std::string& also_pointer = "");

/// Where a finding's fixture takes its expectation from.
struct ExpectationSource {
  bool from_impl = false;                      ///< the implementation's outcome (else the baseline's)
  std::string origin = "regression-snapshot";  ///< the fixture's `origin` (an oracle's name when from_impl)
};

/// A fixture file entry for a finding: id `regressions/<slug>`, the differential run named in `comment`,
/// expectation without any_of, taken from the side `src` names. The default (the baseline's outcome, origin
/// `regression-snapshot`) is not an independent source; an oracle implementation's outcome is, when `src.origin`
/// names it. Null when that side gave no outcome (skipped, crashed, timed out).
nlohmann::json fixture_for(const Finding& f, const std::string& profile, const std::string& impl_label, std::uint64_t seed,
                           const ExpectationSource& src = {});

}  // namespace accord::differential

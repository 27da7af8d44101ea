// cmd_differential.cc: `accord differential`: the reference (or another implementation) against a
// protocol implementation on RapidCheck-generated cases; each kind of difference shrunk to a fixture.
// `accord generate` prints the same case stream.
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "accord/conformance/adapter.h"
#include "accord/conformance/interrupt.h"
#include "accord/reference/inputs.h"
#include "accord/reference/profiles.h"
#include "accord/reference/json_io.h"
#include "commands.h"
#include "differential/differential.h"
#include "enumerate/progress.h"
#include "accord/reference/big_int_json.h"

namespace accord::cli {
namespace {
using nlohmann::json;
namespace cf = accord::conformance;
namespace df = accord::differential;

struct DifferentialOptions {
  std::string impl, against = "reference", profile = reference::profile_name(reference::default_profile()), impl_profile,
      against_profile, out, expect_from = "against", origin = "regression-snapshot";
  int cases = 1000;
  std::uint64_t seed = 1;
  double timeout = 10;
  int shrink_steps = 2000;
  bool without_packages = false;
  bool timing = false;
};

std::unique_ptr<cf::Adapter> start(const std::string& impl, double timeout, bool timing, std::string* error) {
  auto a = impl == "reference" ? cf::make_reference_adapter() : cf::make_subprocess_adapter(impl, timeout);
  a->ask_timing(timing);
  if (!a->start(error)) return nullptr;
  return a;
}

bool known_profile(const std::string& p) {
  reference::Profile unused;
  return reference::parse_profile(p, &unused);
}

/// The q-quantile (0..1) of sorted values, nearest rank.
double quantile(const std::vector<std::int64_t>& sorted, double q) {
  return static_cast<double>(sorted[static_cast<size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5)]);
}

/// `--timing`: each side's own time per case (the reply's elapsed_ns), median and 10th/90th percentiles, and the
/// ratio of the medians, over the cases both sides timed.
void print_timing(const df::Report& r, const DifferentialOptions& o) {
  if (r.elapsed_baseline.empty()) {
    std::cout << "# timing: no case was timed by both sides (an implementation that does not report elapsed_ns: PROTOCOL.md, "
                 "\"Timing mode\")\n";
    return;
  }
  auto line = [](const std::string& who, std::vector<std::int64_t> v) {
    std::sort(v.begin(), v.end());
    std::ostringstream s;
    s << std::fixed << std::setprecision(2) << "#   " << who << ": median " << quantile(v, 0.5) / 1000 << " us (10th-90th percentile "
      << quantile(v, 0.1) / 1000 << "-" << quantile(v, 0.9) / 1000 << " us)\n";
    std::cout << s.str();
    return quantile(v, 0.5);
  };
  std::cout << "# timing: each side's own time per case, over the " << r.elapsed_baseline.size() << " cases both timed\n";
  double a = line(o.against + " [" + o.against_profile + "]", r.elapsed_baseline);
  double b = line(o.impl + " [" + o.impl_profile + "]", r.elapsed_other);
  std::ostringstream ratio;
  ratio << std::fixed << std::setprecision(1) << (a > 0 ? b / a : 0.0);
  std::cout << "#   ratio of the medians (impl / against): " << ratio.str() << "\n";
}

int run_differential(DifferentialOptions o) {
  if (o.impl_profile.empty()) o.impl_profile = o.profile;
  if (o.against_profile.empty()) o.against_profile = o.profile;
  for (const auto& p : {o.profile, o.impl_profile, o.against_profile})
    if (!known_profile(p)) {
      std::cerr << "accord differential: unknown profile '" << p << "' (expected one of " << reference::profile_names() << ")\n";
      return 2;
    }
  std::string error;
  cf::install_interrupt_handlers();
  auto base = start(o.against, o.timeout, o.timing, &error);
  if (!base) return std::cerr << "accord differential: cannot start '" << o.against << "': " << error << "\n", 2;
  auto other = start(o.impl, o.timeout, o.timing, &error);
  if (!other) return std::cerr << "accord differential: cannot start '" << o.impl << "': " << error << "\n", 2;
  df::Side a{base.get(), o.against_profile, o.against};
  df::Side b{other.get(), o.impl_profile, o.impl};
  enumerate::ProgressBar bar(std::cerr, "differential", isatty(2) != 0);
  df::Options opt;
  opt.cases = o.cases;
  opt.seed = o.seed;
  opt.max_shrink_steps = o.shrink_steps;
  opt.without_packages = o.without_packages;
  opt.progress = [&bar](std::uint64_t done, std::uint64_t total) { bar.update(done, total); };
  opt.stop = [] { return cf::interrupt_signal() != 0; };
  df::Report r = df::run(a, b, opt);
  base->stop();
  other->stop();
  std::cout << "# " << r.differing << " of " << r.cases << " cases differ (" << o.against << " [" << o.against_profile << "] vs "
            << o.impl << " [" << o.impl_profile << "], seed " << o.seed << "); " << r.findings.size() << " kinds\n";
  if (r.skipped > 0) {
    std::cout << "# " << r.skipped << " generated cases not asked: they use a capability a side does not declare (";
    const char* sep = "";
    for (const auto& [tag, n] : r.skipped_by) std::cout << sep << tag << " " << n, sep = ", ";
    std::cout << ")\n";
  }
  if (r.stopped) std::cout << "# " << cf::interrupt_text() << " after " << r.cases << " of " << o.cases << " cases\n";
  if (o.timing) print_timing(r, o);
  json file = {{"description", "accord differential findings: review every expectation before committing (origin regression-snapshot)."},
               {"cases", json::array()}};
  std::set<std::string> ids;
  for (const auto& f : r.findings) {
    std::cout << "# " << f.kind << ": " << f.occurrences << " cases, first #" << f.first_case << ", shrunk in " << f.shrink_steps
              << " steps\n#   given: " << reference::json_text(f.given) << "\n";
    df::ExpectationSource src{o.expect_from == "impl", o.origin};
    json fixture = df::fixture_for(f, src.from_impl ? o.impl_profile : o.against_profile, o.impl, o.seed, src);
    if (fixture.is_null()) {
      std::cout << "#   no fixture: " << (src.from_impl ? o.impl : o.against) << " gave no outcome for it\n";
      continue;
    }
    std::string id = fixture["id"].get<std::string>();
    for (int n = 2; !ids.insert(id).second; ++n) id = fixture["id"].get<std::string>() + "-" + std::to_string(n);
    fixture["id"] = id;  // kinds can slug alike (`+a-` and `+-a`)
    file["cases"].push_back(fixture);
  }
  if (!r.findings.empty()) std::cout << file.dump(2) << "\n";
  if (!o.out.empty() && !r.findings.empty()) {
    std::ofstream out(o.out);
    if (!(out << file.dump(2) << "\n")) return std::cerr << "accord differential: cannot write '" << o.out << "'\n", 2;
    std::cout << "# fixtures written to " << o.out << "\n";
  }
  if (r.stopped) return std::cerr << "accord differential: " << cf::interrupt_text() << "\n", cf::interrupt_exit_status();
  return r.differing ? 1 : 0;
}

/// `accord generate`: the differential's case stream as JSON lines (the input of `resolve --batch` and the
/// throughput measurements in the README).
int run_generate(int cases, std::uint64_t seed, bool full, bool without_packages) {
  df::CaseStream stream(seed, without_packages);
  for (int k = 0; k < cases; ++k) {
    json c = reference::case_to_json(stream.next().value());
    std::cout << (full ? c : df::minimal_case_json(c)).dump() << "\n";
  }
  std::cout.flush();
  return std::cout ? 0 : 2;
}

}  // namespace

void register_differential(CLI::App& app) {
  auto o = std::make_shared<DifferentialOptions>();
  auto* cmd = app.add_subcommand("differential",
                                 "Compare the reference (or --against) with an implementation on generated cases; "
                                 "print shrunk differences as fixtures");
  cmd->add_option("--impl", o->impl, "shell command speaking the protocol (or `reference`)")->required();
  cmd->add_option("--against", o->against, "baseline: `reference` (in-process) or a shell command")->capture_default_str();
  cmd->add_option("--profile", o->profile, "profile of the baseline (and of the implementation unless --impl-profile)")->capture_default_str();
  cmd->add_option("--impl-profile", o->impl_profile, "profile the implementation is asked for (default: --profile)");
  cmd->add_option("--against-profile", o->against_profile, "profile the baseline is asked for (default: --profile)");
  cmd->add_option("--cases", o->cases, "generated cases")->capture_default_str()->check(CLI::Range(1, 100000000));
  cmd->add_option("--seed", o->seed, "RapidCheck seed of the case stream")->capture_default_str();
  cmd->add_option("--timeout", o->timeout, "seconds per case for a subprocess")->capture_default_str();
  cmd->add_option("--out", o->out, "also write the findings as a fixture file");
  cmd->add_option("--expect-from", o->expect_from, "whose outcome the written fixtures expect: `against` (a regression snapshot) or `impl` (an oracle)")
      ->capture_default_str()->check(CLI::IsMember({"against", "impl"}));
  cmd->add_option("--origin", o->origin, "the written fixtures' origin (name the oracle with --expect-from impl, e.g. lightning-1.6.5)")
      ->capture_default_str();
  cmd->add_option("--shrink-steps", o->shrink_steps, "resolutions spent shrinking each kind of difference")->capture_default_str();
  cmd->add_flag("--timing", o->timing,
                "ask both sides for their own time per case (PROTOCOL.md, \"Timing mode\") and print the medians and their ratio");
  cmd->add_flag("--without-packages", o->without_packages,
                "generated cases declare no optional packages: an oracle that cannot fake installed packages (the Lightning adapter) "
                "then answers every case instead of skipping most");
  cmd->callback([o] { set_status(run_differential(*o)); });

  struct GenerateOptions {
    int cases = 1000, per_file = 1000;
    std::uint64_t seed = 1;
    bool full = false, without_packages = false;
    std::string corpus, profile = reference::profile_name(reference::default_profile());
  };
  auto g = std::make_shared<GenerateOptions>();
  auto* gen = app.add_subcommand("generate", "Print generated cases (the differential's case stream) as JSON lines, or write "
                                             "them as a corpus expecting the reference's outcomes (--corpus)");
  gen->add_option("--cases", g->cases, "how many")->capture_default_str()->check(CLI::Range(1, 100000000));
  gen->add_option("--seed", g->seed, "RapidCheck seed of the case stream")->capture_default_str();
  gen->add_flag("--full", g->full, "every field (case_to_json); default: defaults left out, as fixtures write them");
  gen->add_flag("--without-packages", g->without_packages, "cases declare no optional packages (as differential --without-packages)");
  auto* corpus = gen->add_option("--corpus", g->corpus,
                                 "write a corpus into this folder instead: each case expects the reference's outcome on --profile "
                                 "(origin regression-snapshot), for measuring size and speed");
  gen->add_option("--per-file", g->per_file, "cases per file of --corpus")->capture_default_str()->check(CLI::Range(1, 100000000))
      ->needs(corpus);
  gen->add_option("--profile", g->profile, "profile whose outcomes --corpus expects")->capture_default_str()->needs(corpus);
  gen->callback([g] {
    if (g->corpus.empty()) return set_status(run_generate(g->cases, g->seed, g->full, g->without_packages));
    if (!known_profile(g->profile)) {
      std::cerr << "accord generate: unknown profile '" << g->profile << "' (expected one of " << reference::profile_names() << ")\n";
      return set_status(2);
    }
    set_status(run_generate_corpus({g->corpus, g->profile, g->cases, g->per_file, g->seed, g->without_packages}));
  });
}

}  // namespace accord::cli

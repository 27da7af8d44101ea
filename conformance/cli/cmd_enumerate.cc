// cmd_enumerate.cc: `accord enumerate` (resolve every cell of a bounded domain, or a t-wise covering
// array of it, into a decision table) and `accord diff-table` (compare two tables cell by cell).
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "accord/conformance/adapter.h"
#include "accord/conformance/json_input.h"
#include "accord/reference/json_io.h"
#include "commands.h"
#include "enumerate/covering.h"
#include "enumerate/diff.h"
#include "enumerate/outcome_class.h"
#include "enumerate/progress.h"
#include "enumerate/run.h"
#include "enumerate/table.h"

namespace accord::cli {
namespace {
using nlohmann::json;
namespace en = accord::enumerate;
namespace cf = accord::conformance;
namespace ref = accord::reference;

struct EnumerateOptions {
  std::string domain, impl = "reference", profile = ref::profile_name(ref::default_profile()), out;
  int t = 0;
  int jobs = 0;
  double timeout = 10;
  std::size_t top = 15;
};

/// An implementation behind the protocol adapter: one subprocess per worker thread.
class AdapterClassifier : public en::Classifier {
 public:
  AdapterClassifier(std::unique_ptr<cf::Adapter> a, std::string profile, bool started, std::string start_error)
      : adapter_(std::move(a)), profile_(std::move(profile)), started_(started), start_error_(std::move(start_error)) {}
  ~AdapterClassifier() override { adapter_->stop(); }
  void classify(const ref::Case& c, std::string* out) override {
    if (!started_) {
      *out = "!not-started";
      return;
    }
    auto r = adapter_->resolve(std::to_string(++n_), profile_, ref::case_to_json(c));
    *out = r.status == cf::ResultStatus::kOk ? en::outcome_class(r.outcome) : std::string("!") + cf::status_name(r.status);
  }

 private:
  std::unique_ptr<cf::Adapter> adapter_;
  std::string profile_;
  bool started_;
  std::string start_error_;
  long n_ = 0;
};

bool load_domain_file(const std::string& path, en::Domain* d) {
  std::string text, error;
  if (!cf::read_input_file(path, &text, &error)) {
    std::cerr << "accord enumerate: " << error << "\n";
    return false;
  }
  json j;
  if (!cf::parse_json(text, &j, &error)) {
    std::cerr << "accord enumerate: " << path << ": not valid JSON: " << error << "\n";
    return false;
  }
  bool loaded = false;
  try {
    loaded = en::load_domain(j, d, &error);
  } catch (const json::exception& e) {  // a value of an unexpected type deep in an axis
    error = std::string(": ") + cf::quoted_text(e.what(), 240);
  }
  if (!loaded) {
    std::cerr << "accord enumerate: " << path << (error.rfind('/', 0) == 0 ? "#" : "") << error << "\n";
    return false;
  }
  return true;
}

en::ClassifierFactory classifier_factory(const EnumerateOptions& o, ref::Profile profile) {
  if (o.impl == "reference") return [profile] { return en::reference_classifier(profile); };
  return [o] {
    auto a = cf::make_subprocess_adapter(o.impl, o.timeout);
    std::string error;
    bool ok = a->start(&error);
    if (!ok) std::cerr << "accord enumerate: cannot start '" << o.impl << "': " << error << "\n";
    return std::make_unique<AdapterClassifier>(std::move(a), o.profile, ok, error);
  };
}

void print_summary(const en::Table& t, double seconds, std::size_t top) {
  std::vector<std::pair<std::uint64_t, std::string>> counts;
  std::vector<std::uint64_t> n(t.classes.size(), 0);
  for (auto id : t.ids) ++n[id];
  for (std::size_t k = 0; k < n.size(); ++k) counts.emplace_back(n[k], t.classes[k]);
  std::sort(counts.rbegin(), counts.rend());
  double rate = seconds > 0 ? static_cast<double>(t.ids.size()) / seconds : 0;
  std::cout << t.ids.size() << " cells, " << t.classes.size() << " outcome classes, " << seconds << " s, "
            << static_cast<long long>(rate) << " cells/s\n";
  for (std::size_t k = 0; k < counts.size() && k < top; ++k)
    std::cout << "  " << counts[k].first << "\t" << counts[k].second << "\n";
  if (counts.size() > top) std::cout << "  ... " << counts.size() - top << " more classes\n";
}

int run_enumerate(EnumerateOptions o) {
  ref::Profile profile;
  if (!ref::parse_profile(o.profile, &profile)) {
    std::cerr << "accord enumerate: unknown --profile '" << o.profile << "' (expected one of " << ref::profile_names() << ")\n";
    return 2;
  }
  en::Table t;
  if (!load_domain_file(o.domain, &t.domain)) return 2;
  if (o.jobs <= 0) o.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  t.exhaustive = o.t <= 0;
  if (!t.exhaustive) {
    std::vector<std::uint32_t> sizes;
    for (const auto& a : t.domain.axes) sizes.push_back(static_cast<std::uint32_t>(a.values.size()));
    t.rows = en::covering_array(sizes, o.t);
    std::cerr << "accord enumerate: " << o.t << "-wise covering array: " << t.rows.size() << " rows (product: "
              << t.domain.cells() << " cells)\n";
  } else if (t.domain.cells() > (1ull << 33)) {
    std::cerr << "accord enumerate: " << o.domain << ": " << t.domain.cells() << " cells is too many to enumerate; use --t 2 or 3\n";
    return 2;
  }
  en::ProgressBar bar(std::cerr, "enumerate", isatty(2) != 0);
  en::RunOptions ro;
  ro.jobs = o.jobs;
  ro.chunk = o.impl == "reference" ? 4096 : 64;
  ro.progress = [&bar](std::uint64_t done, std::uint64_t total) { bar.update(done, total); };
  auto r = en::run_cells(t.domain, t.exhaustive ? nullptr : &t.rows, classifier_factory(o, profile), ro);
  t.ids = std::move(r.ids);
  t.classes = std::move(r.classes);
  t.header = {{"domain", t.domain.source}, {"t", o.t}, {"impl", o.impl}, {"profile", o.profile}, {"jobs", o.jobs},
              {"seconds", r.seconds}, {"cells_per_second", r.seconds > 0 ? static_cast<double>(t.ids.size()) / r.seconds : 0}};
  print_summary(t, r.seconds, o.top);
  if (!o.out.empty()) {
    std::string error;
    if (!en::write_table(o.out, t, &error)) {
      std::cerr << "accord enumerate: " << error << "\n";
      return 2;
    }
    std::cout << "table: " << o.out << "\n";
  }
  return 0;
}

int run_diff(const std::string& a_path, const std::string& b_path, std::size_t limit) {
  en::Table a, b;
  std::string error;
  for (const auto& path : {a_path, b_path})
    if (std::ifstream in; !cf::open_input(path, &in, &error)) return std::cerr << "accord diff-table: " << error << "\n", 2;
  if (!en::read_table(a_path, &a, &error) || !en::read_table(b_path, &b, &error)) {
    std::cerr << "accord diff-table: " << error << "\n";
    return 2;
  }
  auto d = en::diff_tables(a, b, limit);
  std::cout << "compared " << d.compared << " cells: " << d.differing << " differ";
  if (d.only_a || d.only_b) std::cout << " (" << d.only_a << " only in A, " << d.only_b << " only in B)";
  std::cout << "\nA: " << a_path << " (" << a.header.value("impl", "?") << ", " << a.header.value("profile", "?") << ")\nB: "
            << b_path << " (" << b.header.value("impl", "?") << ", " << b.header.value("profile", "?") << ")\n";
  std::vector<std::pair<std::uint64_t, std::pair<std::string, std::string>>> pairs;
  for (const auto& [k, n] : d.by_pair) pairs.push_back({n, k});
  std::sort(pairs.rbegin(), pairs.rend());
  if (!pairs.empty()) std::cout << "\nby class (cells: A -> B):\n";
  for (std::size_t k = 0; k < pairs.size() && k < limit; ++k)
    std::cout << "  " << pairs[k].first << "\t" << pairs[k].second.first << "  ->  " << pairs[k].second.second << "\n";
  if (!d.cells.empty()) std::cout << "\ncells (first " << d.cells.size() << "):\n";
  for (const auto& c : d.cells) std::cout << "  " << c.where << "\n      A: " << c.class_a << "\n      B: " << c.class_b << "\n";
  return d.differing ? 1 : 0;
}

}  // namespace

void register_enumerate(CLI::App& app) {
  auto o = std::make_shared<EnumerateOptions>();
  auto* cmd = app.add_subcommand("enumerate", "Resolve every cell of a bounded domain (or a t-wise covering array) into a decision table");
  cmd->add_option("--domain", o->domain, "domain file (JSON axes; property_tests/domains/default.json)")->required();
  cmd->add_option("--impl", o->impl, "`reference` (in-process) or a shell command speaking the protocol")->capture_default_str();
  cmd->add_option("--profile", o->profile, "the profile: " + ref::profile_names(" | "))->capture_default_str();
  cmd->add_option("--t", o->t, "t-wise covering array instead of every cell (2 or 3; 0 = exhaustive)")->check(CLI::Range(0, 6));
  cmd->add_option("--out", o->out, "decision table file to write");
  cmd->add_option("--jobs,-j", o->jobs, "worker threads (default: every core)")->check(CLI::Range(0, 256));
  cmd->add_option("--timeout", o->timeout, "seconds per case for a subprocess implementation")->capture_default_str();
  cmd->add_option("--top", o->top, "outcome classes to list")->capture_default_str();
  cmd->callback([o] { set_status(run_enumerate(*o)); });

  auto files = std::make_shared<std::vector<std::string>>();
  auto limit = std::make_shared<std::size_t>(50);
  auto* diff = app.add_subcommand("diff-table", "Compare two decision tables cell by cell (exit 1 when they differ)");
  diff->add_option("tables", *files, "table A and table B")->required()->expected(2);
  diff->add_option("--limit", *limit, "differing cells and class pairs to list")->capture_default_str();
  diff->callback([files, limit] { set_status(run_diff((*files)[0], (*files)[1], *limit)); });
}

}  // namespace accord::cli

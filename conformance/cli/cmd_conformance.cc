// cmd_conformance.cc: `accord lint`, `accord serve`, `accord conform` and `accord compare`.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <thread>

#include "accord/conformance/adapter.h"
#include "accord/conformance/comparison.h"
#include "accord/conformance/fd_input.h"
#include "accord/conformance/interrupt.h"
#include "accord/conformance/json_input.h"
#include "accord/conformance/lint.h"
#include "accord/conformance/live_select.h"
#include "accord/conformance/loader.h"
#include "accord/conformance/protocol.h"
#include "accord/conformance/report.h"
#include "accord/conformance/runner.h"
#include "accord/reference/profiles.h"
#include "commands.h"
#include "enumerate/progress.h"

namespace accord::cli {
namespace {
namespace cf = accord::conformance;
namespace ref = accord::reference;
namespace fs = std::filesystem;

struct RunArgs {
  std::string dir = "fixtures";
  std::string impl = "reference";
  std::vector<std::string> impls;
  std::string profile = ref::profile_name(ref::default_profile());
  std::string filter;
  int jobs = 1;
  bool fail_fast = false;
  double timeout = 10;
  double startup_timeout = 60;  ///< the handshake (an adapter importing torch and Lightning takes seconds)
  int max_restarts = 5;
  std::string report, out, divergences;
  std::string legacy_report;  ///< `--report FORMAT`, the old spelling of --format (one more release)
  bool live = false;
  std::string live_hardware;  ///< a saved `accord probe` output, instead of probing
  std::vector<std::string> impl_profiles, labels;  ///< compare: per --impl, in order
  bool list_all = false;                           ///< compare --all
};

/// What an --impl names: `reference` (in-process), `reference:PROFILE` (the same, under that profile), or a shell
/// command; `profile` is the profile its cases are asked under.
struct ImplChoice {
  std::string command, profile;
};

/// Reads `--impl TEXT` with `profile` as the default; false (after a message) on an unknown profile.
bool choose_impl(const std::string& cmd, const std::string& text, const std::string& profile, ImplChoice* out) {
  *out = {text, profile};
  if (text.rfind("reference:", 0) != 0) return true;
  out->command = "reference", out->profile = text.substr(10);
  auto names = cf::reference_vocabulary().profile_names();
  if (std::find(names.begin(), names.end(), out->profile) != names.end()) return true;
  std::cerr << "accord " << cmd << ": --impl " << text << ": unknown profile '" << out->profile << "' (profiles: " << ref::profile_names(", ")
            << ")\n";
  return false;
}

cf::AdapterFactory factory_for(const std::string& impl, const RunArgs& a) {
  if (impl == "reference") return [] { return cf::make_reference_adapter(); };
  cf::SubprocessOptions o;
  o.timeout_seconds = a.timeout, o.startup_timeout_seconds = a.startup_timeout, o.max_restarts = a.max_restarts;
  return [impl, o] { return cf::make_subprocess_adapter(impl, o); };
}

/// The exit status of a run that a signal cut short (130, 143), else `status`.
int unless_interrupted(int status) { return cf::interrupt_signal() ? cf::interrupt_exit_status() : status; }

/// A corpus directory named on the command line: false with "cannot read 'DIR': no such file or directory" / "not a directory".
bool readable_dir(const std::string& dir, std::string* error) {
  std::error_code ec;
  fs::file_status st = fs::status(dir, ec);
  if (fs::is_directory(st)) return true;
  *error = "cannot read '" + dir + "': " +
           (st.type() == fs::file_type::not_found ? "no such file or directory" : fs::exists(st) ? "not a directory" : ec.message());
  return false;
}

/// Loads the corpus; prints every load error and returns false when there is one or ids repeat.
bool load(const std::string& cmd, const std::string& dir, cf::Corpus* c, cf::LoadAs as = cf::LoadAs::kFixtures) {
  if (std::string error; !readable_dir(dir, &error)) return std::cerr << "accord " << cmd << ": " << error << "\n", false;
  std::optional<enumerate::ProgressBar> bar;  // on a terminal only: a report or log gets no loading lines
  if (isatty(2)) bar.emplace(std::cerr, "loading " + dir, true);
  *c = cf::load_corpus(
      dir,
      [&bar](std::size_t done, std::size_t files) {
        if (bar) bar->update(done, files);
      },
      as);
  if (bar) bar->finish();
  std::set<std::string> ids;
  for (const auto& f : c->fixtures)
    if (!ids.insert(f.id).second) c->errors.push_back({f.file, f.pointer + "/id", "duplicate id '" + f.id + "'"});
  for (const auto& p : c->packed)
    if (!ids.insert(p.id).second)
      c->errors.push_back({c->files[p.file], "/cases/" + std::to_string(p.index) + "/id", "duplicate id '" + p.id + "'"});
  for (const auto& e : c->errors) std::cerr << "accord " << cmd << ": " << cf::to_string(e) << "\n";
  if (!c->errors.empty()) std::cerr << "accord " << cmd << ": the corpus has errors; run `accord lint " << dir << "`\n";
  return c->errors.empty();
}

/// The divergence file: --divergences, else conformance/implementations/<name>.json next to the
/// working directory or next to the corpus, when it exists. False on a bad file.
bool divergences_for(const std::string& cmd, const RunArgs& a, const std::string& name, cf::Divergences* out) {
  std::string path = a.divergences, err;
  bool safe = !name.empty() && name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == std::string::npos;
  if (path.empty() && safe) {
    std::error_code ec;
    fs::path rel = fs::path("conformance") / "implementations" / (name + ".json");
    for (const fs::path& base : {fs::path("."), fs::path(a.dir).parent_path()})
      if (path.empty() && fs::is_regular_file(base / rel, ec)) path = (base / rel).lexically_normal().string();
  }
  if (path.empty()) return true;
  if (cf::load_divergences(path, out, &err)) return true;
  std::cerr << "accord " << cmd << ": " << err << "\n";
  return false;
}

bool options_for(const RunArgs& a, cf::RunOptions* o) {
  o->profile = a.profile;
  o->jobs = a.jobs;
  o->fail_fast = a.fail_fast;
  if (a.filter.empty()) return true;
  try {
    o->filter.emplace(a.filter, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    std::cerr << "accord: --filter '" << a.filter << "' is not a valid regex: " << e.what() << "\n";
    return false;
  }
  return true;
}

std::unique_ptr<cf::ResultSink> report_sink(const RunArgs& a) {
  if (a.report.empty()) return nullptr;
  std::string err;
  auto sink = cf::make_file_reporter(a.report, a.out, &err);
  if (!sink) std::cerr << "accord: " << err << "\n";
  return sink;
}

/// --live / --live-hardware: keep the cases with an expectation for this machine's hardware class and
/// run them on its probed hardware. False (after a message) when no hardware facts can be had.
bool go_live(const RunArgs& a, cf::Corpus* corpus) {
  nlohmann::json probe;
  if (!a.live_hardware.empty()) {
    std::string text, error;
    if (!cf::read_input_file(a.live_hardware, &text, &error)) return std::cerr << "accord conform: " << error << "\n", false;
    if (!cf::parse_json(text, &probe, &error)) return std::cerr << "accord conform: " << a.live_hardware << ": not valid JSON: " << error << "\n", false;
    if (!probe.is_object()) return std::cerr << "accord conform: " << a.live_hardware << ": not a JSON `accord probe` output\n", false;
  } else if (live_probe) {
    probe = live_probe();
    if (probe.is_null()) return false;  // the live library could not be opened (said on stderr)
  } else {
    std::cerr << "accord conform --live: this accord was built without LibTorch; pass --live-hardware FILE (an `accord probe` output)\n";
    return false;
  }
  nlohmann::json hw = probe.contains("hardware") ? probe["hardware"] : probe;
  std::string cls = cf::hardware_class(hw);
  std::size_t dropped = 0;
  corpus->fixtures = cf::select_live(corpus->fixtures, hw, cls, &dropped);
  std::cerr << "accord conform --live: hardware class " << cls << " (" << hw.dump() << "); " << corpus->fixtures.size()
            << " cases carry a live expectation, " << dropped << " do not and are left out\n";
  return true;
}

/// The report of a run whose implementation never answered the handshake: the header names the command, the footer
/// says why, and every selected case is listed as not run.
void write_unstarted_report(const RunArgs& a, const cf::Corpus& corpus, const cf::RunOptions& opts, const std::string& why) {
  auto file = report_sink(a);
  if (!file) return;
  cf::ImplementationInfo info;
  info.name = a.impl;
  cf::Summary s;
  s.not_run_ids = cf::selected_ids(corpus, opts);
  s.selected = s.not_run = s.not_run_ids.size();
  file->begin({info, opts.profile, a.dir, "", s.selected, ""});
  s.stopped = why;
  file->end(s);
}

int run_conform(const RunArgs& a) {
  cf::Corpus corpus;
  cf::RunOptions opts;
  // Cases stay packed (about their size on disk) until they run; a live run picks cases by their live expectations.
  const bool live = a.live || !a.live_hardware.empty();
  if (!load("conform", a.dir, &corpus, live ? cf::LoadAs::kFixtures : cf::LoadAs::kPacked) || !options_for(a, &opts)) return 2;
  const double loaded = command_seconds();
  if (live && !go_live(a, &corpus)) return 2;
  ImplChoice choice;
  if (!choose_impl("conform", a.impl, a.profile, &choice)) return 2;
  const std::string& impl = choice.command;
  opts.profile = choice.profile;
  opts.impl_command = a.impl;
  opts.lint = &cf::reference_vocabulary();  // a case lint rejects is an error here too
  cf::install_interrupt_handlers();
  cf::Runner runner(factory_for(impl, a), opts);
  std::string err;
  if (!runner.start(&err)) {
    std::string why = cf::interrupt_signal() ? std::string(cf::interrupt_text()) : "cannot start implementation '" + impl + "': " + err;
    std::cerr << "accord conform: " << why << "\n";
    if (!a.report.empty()) write_unstarted_report(a, corpus, opts, why);  // the report says so, every case not run
    return unless_interrupted(2);
  }
  if (!divergences_for("conform", a, runner.info().name, &runner.options().divergences)) return 2;
  cf::MultiSink sinks;
  sinks.add(cf::make_text_reporter(std::cout));
  sinks.add(cf::make_progress_reporter(std::cerr, isatty(2) != 0));
  if (!a.report.empty()) {
    auto file = report_sink(a);
    if (!file) return 2;
    sinks.add(std::move(file));
  }
  const double started = command_seconds();
  cf::Summary s = runner.run(corpus, a.dir, sinks);  // its sinks finish the reports after s.seconds
  std::cout << timing_line("conform", {{"loading", loaded}, {"starting", started - loaded}, {"running", s.seconds},
                                       {"reporting", command_seconds() - started - s.seconds}})
            << "\n";
  if (cf::interrupt_signal()) return std::cerr << "accord conform: " << cf::interrupt_text() << "\n", cf::interrupt_exit_status();
  if (s.selected == 0) {
    std::cerr << "accord conform: no case selected (profile " << opts.profile << (a.filter.empty() ? "" : ", filter " + a.filter) << ")\n";
    return 1;
  }
  return s.ok() ? 0 : 1;
}

int run_compare(const RunArgs& a) {
  cf::Corpus corpus;
  cf::RunOptions opts;
  if (!load("compare", a.dir, &corpus) || !options_for(a, &opts)) return 2;
  if (a.impl_profiles.size() > a.impls.size() || a.labels.size() > a.impls.size())
    return std::cerr << "accord compare: more --impl-profile or --label than --impl (each goes with the --impl in the same place)\n", 2;
  std::vector<ImplChoice> choices(a.impls.size());
  for (std::size_t k = 0; k < a.impls.size(); ++k) {
    if (!choose_impl("compare", a.impls[k], a.profile, &choices[k])) return 2;
    if (k < a.impl_profiles.size() && a.impl_profiles[k] != "-") choices[k].profile = a.impl_profiles[k];
  }
  const double loaded = command_seconds();
  std::vector<cf::ComparedImplementation> impls;
  std::vector<std::vector<cf::CaseResult>> runs;
  std::string not_started;  ///< why an implementation could not start: the table so far is still written, said partial
  cf::install_interrupt_handlers();
  for (std::size_t k = 0; k < a.impls.size(); ++k) {
    if (cf::interrupt_signal()) break;
    cf::RunOptions mine = opts;
    mine.profile = choices[k].profile, mine.impl_command = a.impls[k];
    cf::Runner runner(factory_for(choices[k].command, a), mine);
    std::string err;
    if (!runner.start(&err)) {
      if (cf::interrupt_signal()) break;
      not_started = "cannot start implementation '" + a.impls[k] + "': " + err;
      std::cerr << "accord compare: " << not_started << "\n";
      break;
    }
    std::string name = k < a.labels.size() ? a.labels[k] : runner.info().name + " (" + mine.profile + ")";
    for (const auto& i : impls)
      if (i.name == name) name += "#" + std::to_string(impls.size() + 1);
    if (!divergences_for("compare", a, runner.info().name, &runner.options().divergences)) return 2;
    cf::CollectingSink collect;
    cf::MultiSink sinks;
    sinks.add(&collect);
    sinks.add(cf::make_progress_reporter(std::cerr, isatty(2) != 0));
    runner.run(corpus.fixtures, a.dir, sinks);
    impls.push_back({name, a.impls[k], mine.profile});
    runs.push_back(std::move(collect.results));
  }
  std::size_t ran_impls = impls.size();
  cf::ComparisonTable t = cf::build_comparison(std::move(impls), corpus.fixtures, runs);
  t.corpus = a.dir, t.list_all = a.list_all;
  if (cf::interrupt_signal()) {  // what ran so far, said to be partial
    t.stopped = std::string(cf::interrupt_text()) + ": " + std::to_string(ran_impls) + " of " + std::to_string(a.impls.size()) +
                " implementations ran (the last one possibly in part)";
    std::cerr << "accord compare: " << t.stopped << "\n";
  } else if (!not_started.empty()) {
    t.stopped = not_started + " (" + std::to_string(ran_impls) + " of " + std::to_string(a.impls.size()) + " implementations ran)";
  }
  const double ran = command_seconds();
  const std::string format = a.report.empty() ? "text" : a.report;
  std::cout << cf::render_comparison(t, a.out.empty() ? format : "text");  // the table on the terminal; --format F alone: F
  if (!a.out.empty()) {
    std::ofstream f(a.out, std::ios::trunc);
    f << cf::render_comparison(t, format);
    if (!f.flush()) return std::cerr << "accord compare: " << a.out << ": cannot write the report\n", 2;
  }
  if (format == "text" || !a.out.empty())  // not into a markdown, JSON or HTML document on stdout
    std::cout << timing_line("compare", {{"loading", loaded}, {"running " + std::to_string(ran_impls) + " implementations", ran - loaded},
                                         {"reporting", command_seconds() - ran}})
              << "\n";
  return unless_interrupted(!not_started.empty() ? 2 : t.differing() ? 1 : 0);
}

struct LintArgs {
  std::string dir = "fixtures";
  std::string format = "text";
  std::string out;  ///< empty: stdout
};

/// `--format json`: {"corpus", "files", "cases", "problems": [{"file", "pointer", "message"}], "ok"}.
std::string lint_json(const std::string& dir, const cf::LintResult& r) {
  nlohmann::json problems = nlohmann::json::array();
  for (const auto& p : r.problems) problems.push_back({{"file", p.file}, {"pointer", p.pointer}, {"message", p.message}});
  nlohmann::json j = {{"corpus", dir}, {"files", r.files}, {"cases", r.cases}, {"problems", problems}, {"ok", r.problems.empty()}};
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

int run_lint(const LintArgs& a) {
  if (std::string error; !readable_dir(a.dir, &error)) return std::cerr << "accord lint: " << error << "\n", 2;
  cf::LintResult r = cf::lint_corpus(a.dir, cf::reference_vocabulary());
  std::string text;
  if (a.format == "json") {
    text = lint_json(a.dir, r);
  } else {
    for (const auto& p : r.problems) text += cf::to_string(p) + "\n";
    text += "accord lint: " + a.dir + ": " + std::to_string(r.files) + " files, " + std::to_string(r.cases) + " cases, " +
            std::to_string(r.problems.size()) + " problems\n";
  }
  if (a.out.empty()) {
    std::cout << text;
  } else {
    std::ofstream f(a.out, std::ios::trunc);
    if (!(f << text) || !f.flush()) return std::cerr << "accord lint: " << a.out << ": cannot write the report\n", 2;
    std::cerr << "accord lint: " << r.problems.size() << " problems; report written to " << a.out << "\n";
  }
  return r.problems.empty() ? 0 : 1;
}

int run_serve(const std::string& profile, int jobs) {
  std::ios::sync_with_stdio(false);  // buffered stdin/stdout: one flush per batch of replies
  std::cin.tie(nullptr);
  if (!cf::reference_vocabulary().is_profile(profile)) {
    std::cerr << "accord serve: unknown --profile '" << profile << "' (expected one of " << ref::profile_names() << ")\n";
    return 2;
  }
  std::vector<std::unique_ptr<cf::Adapter>> owned;
  std::vector<cf::Adapter*> impls;
  std::string err;
  for (int k = 0; k < jobs; ++k) {
    owned.push_back(cf::make_reference_adapter());
    owned.back()->start(&err);
    impls.push_back(owned.back().get());
  }
  cf::install_interrupt_handlers();
  // Ends at SIGINT/SIGTERM (a plain std::cin read would be retried). A batch is what one read brought (in_avail):
  // 1 MiB reads make batches of thousands of requests when they stream in, so threads start once per batch.
  cf::InterruptibleInput stdin_buf(0, 1 << 20);
  std::istream in(&stdin_buf);
  int status = cf::serve(in, std::cout, impls, profile);
  return unless_interrupted(status);
}

std::vector<std::string> profile_or_dash() {
  std::vector<std::string> v = cf::reference_vocabulary().profile_names();
  v.push_back("-");
  return v;
}

void add_run_options(CLI::App* cmd, RunArgs* a) {
  cmd->add_option("dir", a->dir, "corpus directory")->capture_default_str();
  cmd->add_option("--profile", a->profile, "the profile: " + ref::profile_names(" | ") + " (accord list profiles)")->capture_default_str()
      ->check(CLI::IsMember(cf::reference_vocabulary().profile_names()));
  cmd->add_option("--filter", a->filter, "only cases whose id matches this regex (ECMAScript, searched)");
  cmd->add_option("--jobs,-j", a->jobs, "adapter instances in parallel")->capture_default_str()->check(CLI::Range(1, 256));
  cmd->add_option("--timeout", a->timeout, "seconds per case for a subprocess implementation")->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--startup-timeout", a->startup_timeout, "seconds for a subprocess implementation's handshake, at start and each restart")
      ->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--max-restarts", a->max_restarts, "restarts in a row without a reply after which the run ends (a crash loop)")
      ->capture_default_str()->check(CLI::Range(0, 1000000));
  cmd->add_option("--divergences", a->divergences, "expected-divergence file (default: conformance/implementations/<name>.json)");
}

/// `--format F` and `--out FILE`, the one spelling of every command that writes a report (the old `--report F` of
/// conform and compare still works, with a note on stderr).
void add_report_options(CLI::App* cmd, std::string* format, std::string* out, std::string* legacy,
                        const std::vector<std::string>& formats, const std::string& out_help) {
  std::string names;
  for (const auto& f : formats) names += (names.empty() ? "" : " | ") + f;
  cmd->add_option("--format", *format, "report format: " + names)->check(CLI::IsMember(formats));
  cmd->add_option("--out", *out, out_help);
  if (legacy) cmd->add_option("--report", *legacy, "old spelling of --format")->check(CLI::IsMember(formats))->group("");
}

/// After parsing: the old `--report` spelling, and --format/--out given together when `both` is required.
/// False (after a message) on a usage error.
bool settle_report_options(const std::string& cmd, std::string* format, const std::string& out, const std::string& legacy,
                           bool both) {
  if (!legacy.empty()) {
    std::cerr << "accord " << cmd << ": note: --report is the old spelling of --format and will be removed in accord 0.3\n";
    if (format->empty()) *format = legacy;
  }
  if (both && format->empty() != out.empty()) {
    std::cerr << "accord " << cmd << ": " << (out.empty() ? "--format needs --out FILE (the terminal report stays on stdout)"
                                                          : "--out needs --format (" + cmd + " --help lists the formats)")
              << "\n";
    return false;
  }
  return true;
}

}  // namespace

void register_conformance(CLI::App& app) {
  auto l = std::make_shared<LintArgs>();
  auto* lint = app.add_subcommand("lint", "Check a fixture corpus: schema, ids, folders, rule IDs, codes, profiles, capabilities");
  lint->add_option("dir", l->dir, "corpus directory")->capture_default_str();
  add_report_options(lint, &l->format, &l->out, nullptr, {"text", "json"}, "report file (default: stdout)");
  lint->callback([l] { set_status(run_lint(*l)); });

  auto profile = std::make_shared<std::string>(ref::profile_name(ref::default_profile()));
  auto serve_jobs = std::make_shared<int>(static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 8u)));
  auto* serve = app.add_subcommand("serve", "Speak the JSON-lines protocol (conformance/PROTOCOL.md) for the reference on stdin/stdout");
  serve->add_option("--profile", *profile, "profile for requests that name none")->capture_default_str();
  serve->add_option("--jobs,-j", *serve_jobs, "threads answering large batches of buffered requests")
      ->capture_default_str()->check(CLI::Range(1, 256));
  serve->callback([profile, serve_jobs] { set_status(run_serve(*profile, *serve_jobs)); });

  auto c = std::make_shared<RunArgs>();
  auto* conform = app.add_subcommand("conform", "Run the corpus against an implementation and report every case");
  add_run_options(conform, c.get());
  conform->add_option("--impl", c->impl, "`reference` (in-process), `reference:PROFILE` or a shell command speaking the protocol")
      ->capture_default_str();
  conform->add_flag("--fail-fast", c->fail_fast, "stop after the first case that does not pass");
  conform->add_flag("--live", c->live, "resolve with this machine's probed hardware; check each case's expect_live for its hardware class");
  conform->add_option("--live-hardware", c->live_hardware, "like --live, with hardware from a saved `accord probe` output");
  add_report_options(conform, &c->report, &c->out, &c->legacy_report, cf::report_formats(), "report file (written as the run goes)");
  conform->callback([c] {
    set_status(settle_report_options("conform", &c->report, c->out, c->legacy_report, true) ? run_conform(*c) : 2);
  });

  auto m = std::make_shared<RunArgs>();
  auto* compare = app.add_subcommand("compare", "Run the corpus on several implementations; one table, differing cases first");
  add_run_options(compare, m.get());
  compare->add_option("--impl", m->impls, "`reference`, `reference:PROFILE` or a shell command; give two or more")
      ->required()->expected(1)->take_all();
  compare->add_option("--impl-profile", m->impl_profiles, "the profile of the --impl in the same place (`-`: --profile)")
      ->expected(1)->take_all()->check(CLI::IsMember(profile_or_dash()));
  compare->add_option("--label", m->labels, "a name for the --impl in the same place (default: handshake name and profile)")
      ->expected(1)->take_all();
  compare->add_flag("--all", m->list_all, "list every case (default: the differing ones and those not compared)");
  add_report_options(compare, &m->report, &m->out, &m->legacy_report, {"text", "markdown", "json", "html"},
                     "report file (default: stdout)");
  compare->callback([m] {
    if (!settle_report_options("compare", &m->report, m->out, m->legacy_report, false)) return set_status(2);
    if (m->impls.size() < 2) {
      std::cerr << "accord compare: give at least two --impl\n";
      return set_status(2);
    }
    set_status(run_compare(*m));
  });
}

}  // namespace accord::cli

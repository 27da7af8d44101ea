// cmd_coverage.cc: `accord coverage`: decision-space coverage of the fixture corpus on the reference.
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "accord/coverage/corpus.h"
#include "accord/coverage/report.h"
#include "commands.h"

namespace accord::cli {
namespace {
namespace ref = accord::reference;

struct CoverageOptions {
  std::string dir = "fixtures";
  std::string profile = "all";
  std::string format = "markdown";
  std::string out;
};

int run_coverage(const CoverageOptions& o) {
  std::vector<ref::Profile> profiles;
  if (o.profile == "all" || o.profile == "both") {  // "both": the spelling of the two-profile releases
    for (const auto& p : ref::profiles()) profiles.push_back(p.profile);
  } else {
    ref::Profile p;
    if (!ref::parse_profile(o.profile, &p)) {
      std::cerr << "accord coverage: unknown --profile '" << o.profile << "' (expected all or one of " << ref::profile_names() << ")\n";
      return 2;
    }
    profiles = {p};
  }
  std::vector<std::string> errors;
  auto corpus = coverage::load_corpus(o.dir, &errors);
  coverage::Report report = coverage::analyze(corpus, profiles);
  report.corpus = o.dir;
  report.load_errors = errors;
  std::string text = o.format == "json" ? coverage::to_json(report).dump(2) + "\n"
                     : o.format == "html" ? coverage::to_html(report)
                                          : coverage::to_markdown(report);
  if (o.out.empty()) {
    std::cout << text;
  } else {
    std::ofstream f(o.out, std::ios::binary);
    if (!(f << text)) {
      std::cerr << "accord coverage: cannot write '" << o.out << "'\n";
      return 2;
    }
  }
  for (const auto& e : errors) std::cerr << "accord coverage: " << e << "\n";
  for (const auto& p : report.profiles)
    if (!p.missing_rules.empty())
      std::cerr << "accord coverage: " << p.missing_rules.size() << " rule(s) of " << ref::profile_name(p.profile)
                << " have no case (first: " << p.missing_rules.front() << ")\n";
  if (!report.missing_codes.empty())
    std::cerr << "accord coverage: " << report.missing_codes.size() << " diagnostic code(s) have no case (first: "
              << report.missing_codes.front() << ")\n";
  for (const auto& m : report.covers_mismatch) std::cerr << "accord coverage: " << m << "\n";
  std::cerr << "accord coverage: " << report.corpus_cases << " cases; gate " << (report.ok() ? "PASS" : "FAIL") << "\n";
  return report.ok() ? 0 : 1;
}

}  // namespace

void register_coverage(CLI::App& app) {
  auto o = std::make_shared<CoverageOptions>();
  auto* cmd = app.add_subcommand("coverage",
                                 "Decision coverage of a fixture corpus on the reference: rule IDs and diagnostic codes "
                                 "exercised, pairwise cells covered/uncovered/impossible. Exit 1 when a rule or code has no case, "
                                 "or a case's `covers` names a rule that does not fire for it");
  cmd->add_option("dir", o->dir, "fixture directory")->capture_default_str();
  cmd->add_option("--profile", o->profile, "all, or one profile: " + ref::profile_names(" | "))->capture_default_str();
  cmd->add_option("--format", o->format, "json, markdown or html")
      ->capture_default_str()
      ->check(CLI::IsMember({"json", "markdown", "html"}));
  cmd->add_option("--out", o->out, "write the report here instead of stdout");
  cmd->callback([o] { set_status(run_coverage(*o)); });
}

}  // namespace accord::cli

// cmd_output_mutants.cc: `accord output-mutants`: plays each class of wrong implementation (tables/output_mutants.def)
// on an implementation's own passing answers and reports, per class and profile, how many of the changed outcomes
// the corpus catches; a floors file turns it into a gate.
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "accord/conformance/adapter.h"
#include "accord/conformance/json_input.h"
#include "accord/conformance/loader.h"
#include "accord/conformance/output_mutants.h"
#include "accord/reference/profiles.h"
#include "commands.h"

namespace accord::cli {
namespace {
using nlohmann::json;
namespace cf = accord::conformance;

struct Options {
  std::string dir = "fixtures", impl = "reference", profile = "all", format = "text", out, floors;
  double timeout = 10;
  int missed = 5;
};

/// The floors file (`{"floors": {"<class>": {"<profile>": percent}}}`) against the report: 0 when every share reaches its
/// floor, 1 (after naming each that does not) when one falls short, 2 when the file cannot be used.
int floors_status(const std::string& path, const cf::OutputMutantReport& r) {
  std::string text, error;
  json j;
  std::vector<std::string> shortfalls;
  if (!cf::read_input_file(path, &text, &error) || !cf::parse_json(text, &j, &error) ||
      !cf::check_output_mutant_floors(r, j, &shortfalls, &error))
    return std::cerr << "accord output-mutants: " << path << ": " << error << "\n", 2;
  for (const auto& line : shortfalls) std::cerr << "accord output-mutants: " << line << "\n";
  return shortfalls.empty() ? 0 : 1;
}

int run(const Options& o) {
  std::vector<std::string> profiles;
  if (!profiles_named("output-mutants", o.profile, &profiles)) return 2;
  cf::Corpus corpus = cf::load_corpus(o.dir);
  for (const auto& e : corpus.errors) std::cerr << "accord output-mutants: " << cf::to_string(e) << "\n";
  if (!corpus.errors.empty()) return std::cerr << "accord output-mutants: the corpus has errors; run `accord lint " << o.dir << "`\n", 2;
  auto impl = o.impl == "reference" ? cf::make_reference_adapter() : cf::make_subprocess_adapter(o.impl, o.timeout);
  std::string error;
  if (!impl->start(&error)) return std::cerr << "accord output-mutants: cannot start '" << o.impl << "': " << error << "\n", 2;
  cf::OutputMutantReport r = cf::measure_output_mutants(corpus.fixtures, *impl, profiles);
  impl->stop();
  r.corpus = o.dir;
  std::string text = cf::render_output_mutants(r, o.format, o.missed);
  if (o.out.empty()) {
    std::cout << text;
  } else if (std::ofstream f(o.out, std::ios::binary); !(f << text)) {
    return std::cerr << "accord output-mutants: cannot write '" << o.out << "'\n", 2;
  }
  return o.floors.empty() ? 0 : floors_status(o.floors, r);
}

}  // namespace

void register_output_mutants(CLI::App& app) {
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("output-mutants",
                                 "Play each class of wrong implementation on an implementation's passing answers; report how "
                                 "much of what each changes the corpus catches");
  cmd->add_option("dir", o->dir, "fixture directory")->capture_default_str();
  cmd->add_option("--impl", o->impl, "`reference` (in-process) or a shell command speaking the protocol")->capture_default_str();
  cmd->add_option("--profile", o->profile, "all, or one profile: " + reference::profile_names(" | "))->capture_default_str();
  cmd->add_option("--format", o->format, "text, markdown or json")->capture_default_str()->check(CLI::IsMember({"text", "markdown", "json"}));
  cmd->add_option("--out", o->out, "write the report here instead of stdout");
  cmd->add_option("--floors", o->floors, "JSON {\"floors\": {CLASS: {PROFILE: percent}}}: exit 1 when a share is below its floor");
  cmd->add_option("--missed", o->missed, "missed case ids listed per class and profile")->capture_default_str()->check(CLI::Range(0, 1000000));
  cmd->add_option("--timeout", o->timeout, "seconds per case for a subprocess")->capture_default_str();
  cmd->callback([o] { set_status(run(*o)); });
}

}  // namespace accord::cli

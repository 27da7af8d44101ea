// cmd_output_mutants.cc: `accord output-mutants`: plays each class of wrong implementation (tables/output_mutants.def)
// on an implementation's own passing answers and reports, per class and profile, how many of the changed outcomes
// the corpus catches; a floors file turns it into a gate.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

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

std::string percent(double share) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", share * 100);
  return buf;
}

std::vector<std::string> first(const std::vector<std::string>& ids, int n) {
  return {ids.begin(), ids.begin() + std::min<std::ptrdiff_t>(n, static_cast<std::ptrdiff_t>(ids.size()))};
}

json to_json(const cf::OutputMutantReport& r, int missed) {
  json bases = json::array(), rows = json::array();
  for (const auto& b : r.bases)
    bases.push_back({{"profile", b.profile}, {"cases", b.cases}, {"not_passing", b.not_passing},
                     {"not_passing_ids", first(b.not_passing_ids, missed)}});
  for (const auto& t : r.tallies)
    rows.push_back({{"mutant", cf::output_mutant_name(t.mutant)}, {"profile", t.profile}, {"changed", t.changed},
                    {"caught", t.caught}, {"share", t.share()}, {"missed", t.missed.size()}, {"missed_ids", first(t.missed, missed)}});
  return {{"implementation", r.implementation}, {"corpus", r.corpus}, {"profiles", bases}, {"mutants", rows}};
}

/// One table: a row per class, a column per profile, each cell `caught/changed (share)`; then what each class
/// does and the first cases each misses.
std::string to_table(const cf::OutputMutantReport& r, bool markdown, int missed) {
  std::ostringstream os;
  std::size_t np = r.bases.size();
  if (markdown) os << "# Output mutants: " << r.implementation << " on `" << r.corpus << "`\n\n";
  else os << "accord output-mutants: " << r.corpus << " on " << r.implementation << "\n";
  for (const auto& b : r.bases)
    os << (markdown ? "- " : "  ") << b.profile << ": " << b.cases << " cases, " << b.not_passing
       << " left out (the implementation's own outcome does not pass)\n";
  auto cell = [markdown](const std::string& text, std::size_t width) {
    return markdown ? " " + text + " |" : "  " + text + std::string(width > text.size() ? width - text.size() : 0, ' ');
  };
  os << "\n" << (markdown ? "| class |" : std::string(20, ' ').replace(0, 5, "class"));
  for (const auto& b : r.bases) os << cell(b.profile, 22);
  os << "\n";
  if (markdown) {
    os << "|---|";
    for (std::size_t k = 0; k < np; ++k) os << "---|";
    os << "\n";
  }
  for (std::size_t m = 0; m < cf::output_mutants().size(); ++m) {
    std::string name = cf::output_mutant_name(cf::output_mutants()[m]);
    os << (markdown ? "| `" + name + "` |" : name + std::string(name.size() < 20 ? 20 - name.size() : 0, ' '));
    for (std::size_t p = 0; p < np; ++p) {
      const auto& t = r.tallies[m * np + p];
      os << cell(std::to_string(t.caught) + "/" + std::to_string(t.changed) + " (" + percent(t.share()) + ")", 22);
    }
    os << "\n";
  }
  os << "\n" << (markdown ? "## What each class answers, and the first cases that miss it\n\n" : "");
  for (std::size_t m = 0; m < cf::output_mutants().size(); ++m) {
    auto mutant = cf::output_mutants()[m];
    os << (markdown ? "- `" : "") << cf::output_mutant_name(mutant) << (markdown ? "`: " : ": ") << cf::output_mutant_meaning(mutant) << "\n";
    for (std::size_t p = 0; p < np; ++p) {
      const auto& t = r.tallies[m * np + p];
      if (t.missed.empty() || missed == 0) continue;
      os << "    missed on " << t.profile << ":";
      for (const auto& id : first(t.missed, missed)) os << " " << id;
      if (t.missed.size() > static_cast<std::size_t>(missed)) os << " (and " << t.missed.size() - missed << " more)";
      os << "\n";
    }
  }
  std::string text = os.str(), trimmed;  // no padding left at the end of a line
  for (std::size_t at = 0, nl; at < text.size(); at = nl + 1) {
    nl = text.find('\n', at);
    std::string line = text.substr(at, nl - at);
    line.erase(line.find_last_not_of(' ') + 1);
    trimmed += line + "\n";
  }
  return trimmed;
}

/// `{"floors": {"<class>": {"<profile>": percent}}}`: every share must reach its floor. False (after saying which)
/// when one does not; `bad` set when the file cannot be used.
bool floors_hold(const std::string& path, const cf::OutputMutantReport& r, bool* bad) {
  std::string text, error;
  json j;
  if (!cf::read_input_file(path, &text, &error) || !cf::parse_json(text, &j, &error))
    return std::cerr << "accord output-mutants: " << path << ": " << error << "\n", *bad = true, false;
  if (!j.is_object() || !j.contains("floors") || !j["floors"].is_object())
    return std::cerr << "accord output-mutants: " << path << ": /floors: expected an object of classes\n", *bad = true, false;
  bool ok = true;
  for (const auto& [cls, per_profile] : j["floors"].items()) {
    auto m = cf::parse_output_mutant(cls);
    if (!m || !per_profile.is_object())
      return std::cerr << "accord output-mutants: " << path << ": /floors/" << cls << ": unknown class or not an object\n",
             *bad = true, false;
    for (const auto& [profile, floor] : per_profile.items()) {
      if (!floor.is_number())
        return std::cerr << "accord output-mutants: " << path << ": /floors/" << cls << "/" << profile << ": not a number\n",
               *bad = true, false;
      for (const auto& t : r.tallies)
        if (t.mutant == *m && t.profile == profile && t.share() * 100 + 1e-9 < floor.get<double>()) {
          std::cerr << "accord output-mutants: " << cls << " on " << profile << ": caught " << t.caught << " of " << t.changed
                    << " (" << percent(t.share()) << "), below the floor " << floor.get<double>() << "%\n";
          ok = false;
        }
    }
  }
  return ok;
}

int run(const Options& o) {
  std::vector<std::string> profiles;
  if (o.profile == "all") {
    for (const auto& p : reference::profiles()) profiles.push_back(p.name);
  } else if (reference::Profile p; reference::parse_profile(o.profile, &p)) {
    profiles = {o.profile};
  } else {
    std::cerr << "accord output-mutants: unknown --profile '" << o.profile << "' (expected all or one of "
              << reference::profile_names() << ")\n";
    return 2;
  }
  cf::Corpus corpus = cf::load_corpus(o.dir);
  for (const auto& e : corpus.errors) std::cerr << "accord output-mutants: " << cf::to_string(e) << "\n";
  if (!corpus.errors.empty()) return std::cerr << "accord output-mutants: the corpus has errors; run `accord lint " << o.dir << "`\n", 2;
  auto impl = o.impl == "reference" ? cf::make_reference_adapter() : cf::make_subprocess_adapter(o.impl, o.timeout);
  std::string error;
  if (!impl->start(&error)) return std::cerr << "accord output-mutants: cannot start '" << o.impl << "': " << error << "\n", 2;
  cf::OutputMutantReport r = cf::measure_output_mutants(corpus.fixtures, *impl, profiles);
  impl->stop();
  r.corpus = o.dir;
  std::string text = o.format == "json" ? to_json(r, o.missed).dump(2) + "\n" : to_table(r, o.format == "markdown", o.missed);
  if (o.out.empty()) {
    std::cout << text;
  } else if (std::ofstream f(o.out, std::ios::binary); !(f << text)) {
    return std::cerr << "accord output-mutants: cannot write '" << o.out << "'\n", 2;
  }
  if (o.floors.empty()) return 0;
  bool bad = false;
  bool ok = floors_hold(o.floors, r, &bad);
  return bad ? 2 : ok ? 0 : 1;
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

// cli.cc: the `accord` command line: registers every subcommand and runs the chosen one (run(), called by main.cc
// and by the fuzz target fuzz_cli).
//
// Exit status, for every command (conformance/README.md, "Command-line conventions"): 0 success, 1 the check ran
// and found failures (or differences), 2 usage or input error. CLI11's own parse errors (its codes 105-114) are
// mapped to 2 here. The live commands run in the LibTorch library, opened only for them (live_plugin.h).
#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>

#include "commands.h"

#include "accord/reference/profiles.h"

#include "live_plugin.h"

#ifndef ACCORD_VERSION
#define ACCORD_VERSION "unknown"
#endif

namespace accord::cli {
std::function<nlohmann::json()> live_probe;

namespace {

int g_status = 0;  ///< set_status(): the status of the command that ran
std::chrono::steady_clock::time_point g_started = std::chrono::steady_clock::now();  ///< run() began

/// The names of the registered subcommands, `a | b | c`, for the unknown-command message.
std::string command_names(CLI::App& app) {
  std::string names;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App* s) { return !s->get_group().empty(); }))
    names += (names.empty() ? "" : ", ") + sub->get_name();
  return names;
}

/// `accord bogus ...`: CLI11 would answer "A subcommand is required"; name the word and the commands instead.
bool unknown_command(CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return false;
  for (const CLI::App* sub : app.get_subcommands({}))
    if (sub->check_name(argv[1])) return false;
  std::cerr << "accord: '" << argv[1] << "' is not a command (commands: " << command_names(app) << "; see accord --help)\n";
  return true;
}

}  // namespace

void set_status(int status) { g_status = status; }

bool profiles_named(const std::string& cmd, const std::string& value, std::vector<std::string>* names) {
  if (value == "all") {
    for (const auto& p : reference::profiles()) names->push_back(p.name);
  } else if (reference::Profile p; reference::parse_profile(value, &p)) {
    names->push_back(value);
  } else {
    std::cerr << "accord " << cmd << ": unknown --profile '" << value << "' (expected all or one of " << reference::profile_names() << ")\n";
    return false;
  }
  return true;
}

double command_seconds() { return std::chrono::duration<double>(std::chrono::steady_clock::now() - g_started).count(); }

std::string timing_line(const std::string& cmd, const std::vector<std::pair<std::string, double>>& parts) {
  auto secs = [](double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f s", s);
    return std::string(buf);
  };
  std::string line = "accord " + cmd + ": " + secs(command_seconds()) + " in all";
  const char* sep = ": ";
  for (const auto& [name, s] : parts) line += sep + name + " " + secs(s), sep = ", ";
  return line;
}

int run(int argc, char** argv) {
  g_status = 0;
  g_started = std::chrono::steady_clock::now();
  CLI::App app{"accord: reference accelerator connector and conformance suite"};
  app.set_version_flag("--version", std::string("accord ") + ACCORD_VERSION);
  app.require_subcommand(1);
  register_resolve(app);
  register_conformance(app);
  register_coverage(app);
  register_enumerate(app);
  register_output_mutants(app);
  register_mutant_run(app);
#ifdef ACCORD_HAVE_GENERATORS
  register_differential(app);
#endif
#ifdef ACCORD_HAVE_LIVE
  if (argc > 1 && is_live_command(argv[1])) return run_live_command(argc, argv);
  register_live_entries(app);
  live_probe = live_probe_json;
#endif
  if (unknown_command(app, argc, argv)) return 2;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int status = app.exit(e);  // prints help / version (status 0) or the usage error
    return status == 0 ? 0 : 2;
  } catch (const std::exception& e) {
    std::cerr << "accord: " << e.what() << "\n";
    return 2;
  }
  return g_status;
}

}  // namespace accord::cli


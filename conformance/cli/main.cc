// main.cc: the `accord` command line: registers every subcommand and runs the chosen one.
#include "commands.h"

#ifdef ACCORD_HAVE_LIVE
#include "accord/conformance/live.h"
#endif

namespace accord::cli {
std::function<nlohmann::json()> live_probe;
}  // namespace accord::cli

int main(int argc, char** argv) {
  CLI::App app{"accord: reference accelerator connector and conformance suite"};
  app.require_subcommand(1);
  accord::cli::register_resolve(app);
  accord::cli::register_conformance(app);
  accord::cli::register_coverage(app);
  accord::cli::register_enumerate(app);
  accord::cli::register_differential(app);
#ifdef ACCORD_HAVE_LIVE
  accord::conformance::register_live_commands(app);
  accord::cli::live_probe = [] { return accord::conformance::to_json(accord::conformance::probe_hardware()); };
#endif
  CLI11_PARSE(app, argc, argv);
  return 0;
}

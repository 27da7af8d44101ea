// main.cc: the `accord` command line: registers every subcommand and runs the chosen one.
#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"accord: reference accelerator connector and conformance suite"};
  app.require_subcommand(1);
  accord::cli::register_resolve(app);
  CLI11_PARSE(app, argc, argv);
  return 0;
}

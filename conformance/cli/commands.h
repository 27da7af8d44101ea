// commands.h: each `accord` subcommand registers itself on the CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

namespace accord::cli {

/// `accord resolve [FILE|-] [--profile P] [--batch]` and `accord list rules|codes|strategies|classes|...`.
void register_resolve(CLI::App& app);

}  // namespace accord::cli

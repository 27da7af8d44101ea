// live_plugin.h: the live commands of `accord`, from the LibTorch library opened on first use
// (accord/conformance/live_plugin.h), so that every other command starts without loading LibTorch.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace accord::cli {

/// `probe`, `launch` or the hidden `launch-worker`.
bool is_live_command(const char* word);

/// Runs argv (`accord probe ...`) in the live library; 2 (after a message naming the library) when it cannot be
/// opened.
int run_live_command(int argc, char** argv);

/// This machine's `accord probe` output, or null (after a message) when the live library cannot be opened.
nlohmann::json live_probe_json();

/// The live subcommands as entries of `accord --help` (they run through run_live_command, before CLI11 parses).
void register_live_entries(CLI::App& app);

}  // namespace accord::cli

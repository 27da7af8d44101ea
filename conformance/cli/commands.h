// commands.h: each `accord` subcommand registers itself on the CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>
#include <nlohmann/json.hpp>

namespace accord::cli {

/// The exit status of the command that ran: each subcommand's callback records it here (never std::exit, so that
/// run() returns and the CLI fuzz target can call it again); run() returns it.
void set_status(int status);

/// The whole command line: registers every subcommand, parses argv, runs the chosen command, and maps every
/// failure to an exit status (CLI11's parse errors and any std::exception that escapes a command: 2). main() and
/// the fuzz target fuzz_cli both go through it.
int run(int argc, char** argv);

/// Seconds since run() began: the command's own wall time, for the timing lines of conform and compare.
double command_seconds();
/// `accord CMD: 1.23 s in all: loading 0.10 s, starting 0.05 s, running 1.00 s, reporting 0.08 s` (parts named
/// in order, each with its seconds; what the parts leave of the whole is not shown).
std::string timing_line(const std::string& cmd, const std::vector<std::pair<std::string, double>>& parts);

/// `--profile all` (every profile of `accord list profiles`, in order) or one profile's name, into `names`; false after
/// `accord CMD: unknown --profile 'X' (expected all or one of ...)` on stderr.
bool profiles_named(const std::string& cmd, const std::string& value, std::vector<std::string>* names);

/// Probes this machine's hardware (set by main.cc when the LibTorch live checks are built; else empty).
extern std::function<nlohmann::json()> live_probe;

/// `accord resolve [FILE|-] [--profile P] [--batch]` and `accord list rules|codes|strategies|classes|...`.
void register_resolve(CLI::App& app);
/// `accord lint`, `accord serve`, `accord conform` and `accord compare` (the conformance harness).
void register_conformance(CLI::App& app);
/// `accord coverage [DIR] [--profile P|both] [--format json|markdown|html] [--out FILE]` (decision coverage).
void register_coverage(CLI::App& app);
/// `accord enumerate --domain FILE [--impl I] [--profile P] [--t N] [--out TABLE] [--jobs N]` and
/// `accord diff-table A B` (decision tables over a bounded domain).
void register_enumerate(CLI::App& app);
/// `accord output-mutants [DIR] [--impl I] [--profile P|all] [--format text|markdown|json] [--floors FILE]`.
void register_output_mutants(CLI::App& app);
/// `accord mutant-run [DIR] [--profile P|all] [--jobs J] [--timeout S]`, mutant numbers on stdin (coverage/mutate).
void register_mutant_run(CLI::App& app);
/// `accord differential --impl CMD [--against CMD2] --profile P --cases N --seed S` (shrunk differences) and
/// `accord generate --cases N --seed S [--full]` (the generated case stream as JSON lines).
void register_differential(CLI::App& app);

/// `accord generate --corpus DIR`: `cases` generated cases of `seed`, `per_file` to a file (part-00001.json, ...),
/// each expecting the reference's outcome on `profile` (origin regression-snapshot).
struct GenerateCorpusOptions {
  std::string dir, profile;
  int cases = 1000, per_file = 1000;
  std::uint64_t seed = 1;
  bool without_packages = false;
};
int run_generate_corpus(const GenerateCorpusOptions& o);

}  // namespace accord::cli

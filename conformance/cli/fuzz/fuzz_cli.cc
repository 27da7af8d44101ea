// fuzz_cli.cc: libFuzzer target: the command line itself (accord::cli::run, the function main() calls), with its
// argument handling, file reading and top-level error handling. An exception the command line would not catch, an
// abort or a sanitizer report is a crash here too.
//
// Input: the first line is the argument list, words separated by tabs; the rest is the content of one input, written
// to {file} and to {corpus}/cases/strategy/x.json. Placeholders {file}, {corpus}, {dir}, {missing} name those paths.
// Only commands that read input and write nothing but stdout/stderr run (resolve, lint, conform, compare, diff-table,
// list), and only with options from an allow-list: no --impl other than `reference`, no --out, no paths outside the
// scratch folder (a word with '/' is refused), so no input can start a program or write a file.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "commands.h"

namespace {
namespace fs = std::filesystem;

const std::set<std::string>& allowed_commands() {
  static const std::set<std::string> s = {"resolve", "lint", "conform", "compare", "diff-table", "list"};
  return s;
}

/// The options an input may give, each with the values it may take next (empty: any word, or none for a flag).
const std::map<std::string, std::set<std::string>>& allowed_options() {
  static const std::map<std::string, std::set<std::string>> s = {
      {"--batch", {}},  {"--pretty", {}}, {"--profile", {}}, {"--filter", {}},      {"--format", {}},
      {"--fail-fast", {}}, {"--help", {}}, {"--version", {}}, {"--report", {}},
      {"--impl", {"reference"}},  // never a program
      {"--jobs", {"1", "2"}},     {"-j", {"1", "2"}}};
  return s;
}

/// The scratch folder of this process: {file}, {corpus}/cases/strategy/x.json.
const fs::path& scratch() {
  static const fs::path p = [] {
    fs::path d = fs::temp_directory_path() / ("accord-fuzz-cli-" + std::to_string(::getpid()));
    fs::create_directories(d / "corpus" / "cases" / "strategy");
    return d;
  }();
  static const bool cleanup = [] {  // registered after `p` exists, so it runs before `p` is destroyed
    return std::atexit([] {
             std::error_code ec;
             fs::remove_all(scratch(), ec);
           }) == 0;
  }();
  (void)cleanup;
  return p;
}

/// The argument list of the input, placeholders replaced; false when it holds anything not allowed.
bool arguments(const std::string& line, std::vector<std::string>* out) {
  std::vector<std::string> words;
  for (std::size_t at = 0; at <= line.size();) {
    std::size_t tab = line.find('\t', at);
    words.push_back(line.substr(at, tab == std::string::npos ? std::string::npos : tab - at));
    at = tab == std::string::npos ? line.size() + 1 : tab + 1;
  }
  if (words.empty() || !allowed_commands().count(words[0]) || words.size() > 12) return false;
  const std::map<std::string, std::string> places = {{"{file}", (scratch() / "input.json").string()},
                                                     {"{corpus}", (scratch() / "corpus").string()},
                                                     {"{dir}", scratch().string()},
                                                     {"{missing}", (scratch() / "missing.json").string()}};
  for (std::size_t k = 0; k < words.size(); ++k) {
    const std::string& w = words[k];
    if (w.find('\0') != std::string::npos) return false;
    if (auto p = places.find(w); p != places.end()) {
      out->push_back(p->second);
      continue;
    }
    if (w.find('/') != std::string::npos || w.find('=') != std::string::npos) return false;  // paths; --opt=value
    if (!w.empty() && w[0] == '-') {
      auto option = allowed_options().find(w);
      if (option == allowed_options().end()) return false;
      const auto& values = option->second;
      if (!values.empty() && (k + 1 >= words.size() || !values.count(words[k + 1]))) return false;
    }
    out->push_back(w);
  }
  return true;
}

/// Runs `argv` with stdout and stderr sent to /dev/null (the fuzzer's own output stays readable).
int run_quietly(std::vector<std::string>& args) {
  std::vector<char*> argv;
  static char name[] = "accord";
  argv.push_back(name);
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout), std::fflush(stderr);
  int out = ::dup(1), err = ::dup(2);
  std::FILE* null = std::fopen("/dev/null", "w");
  ::dup2(::fileno(null), 1), ::dup2(::fileno(null), 2);
  int status = accord::cli::run(static_cast<int>(argv.size()) - 1, argv.data());
  std::cout.flush(), std::cerr.flush(), std::fflush(stdout), std::fflush(stderr);
  ::dup2(out, 1), ::dup2(err, 2), ::close(out), ::close(err), std::fclose(null);
  std::cin.clear();
  if (std::getenv("ACCORD_FUZZ_CLI_SHOW")) {  // what ran and how it ended, to reproduce an input by hand
    std::fprintf(stderr, "fuzz_cli: exit %d: accord", status);
    for (const auto& a : args) std::fprintf(stderr, " %s", a.c_str());
    std::fprintf(stderr, "\n");
  }
  return status;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::size_t nl = text.find('\n');
  std::vector<std::string> args;
  if (!arguments(text.substr(0, nl), &args)) return 0;
  std::string content = nl == std::string::npos ? "" : text.substr(nl + 1);
  std::ofstream(scratch() / "input.json", std::ios::binary | std::ios::trunc) << content;
  std::ofstream(scratch() / "corpus" / "cases" / "strategy" / "x.json", std::ios::binary | std::ios::trunc) << content;
  int status = run_quietly(args);
  if (status != 0 && status != 1 && status != 2) {
    std::fprintf(stderr, "fuzz invariant violated: accord exited %d (expected 0, 1 or 2)\n", status);
    std::abort();
  }
  return 0;
}

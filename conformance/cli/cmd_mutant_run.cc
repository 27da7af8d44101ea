// cmd_mutant_run.cc: `accord mutant-run`: the corpus run of a mutation (schemata) build, once per mutant, without
// reading the corpus again. The corpus is read once; the unmutated verdicts come from a forked child, and each mutant
// number read from stdin runs in a forked child with ACCORD_MUTANT set (coverage/schemata.py: the guards read it
// afresh after a fork), which resolves every selected case in-process, judges it as `accord conform` does, and
// reports the cases whose verdict differs from the unmutated run. A mutant whose guard already ran in this process
// (a table built at start-up, a static filled while reading the corpus) would keep that unmutated value in a fork, so
// it runs in a fresh process instead (`--baseline FILE`: read the corpus, run the mutant the environment names against
// the verdicts in FILE). A child that dies is a crash, one past --timeout is killed: both kill the mutant, and say so.
// coverage/mutate drives it; in a normal build every mutant is the unmutated reference.
#include <poll.h>
#include <sys/resource.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "accord/conformance/adapter.h"
#include "accord/conformance/loader.h"
#include "accord/conformance/runner.h"
#include "accord/reference/profiles.h"
#include "commands.h"

namespace accord::cli {
namespace {
using nlohmann::json;
namespace cf = accord::conformance;
using Clock = std::chrono::steady_clock;

struct Options {
  std::string dir = "fixtures", profile = "all", baseline;
  int jobs = 2;
  double timeout = 0;  ///< seconds per mutant; 0: ten times the unmutated run, at least 10
  long memory_mb = 4096;  ///< address space of a mutant's child; 0: no limit
};

/// The selected cases of each profile and their unmutated verdicts, index by index.
struct Baseline {
  std::vector<std::string> profiles;
  std::vector<std::vector<const cf::Fixture*>> cases;
  std::vector<std::vector<cf::Verdict>> verdicts;
};

/// Whether the guard of mutant `n` ran in this process (so that a fork would keep what it gave).
bool ran_here(long n) {
#ifdef ACCORD_MUTANT_SCHEMATA
  return ::accord_mutant::ran_before_fork(static_cast<int>(n));
#else
  (void)n;
  return false;
#endif
}

/// Selects each profile's cases (base->profiles set).
void select_all(const std::vector<cf::Fixture>& fixtures, Baseline* base) {
  for (const auto& profile : base->profiles) {
    cf::RunOptions o;
    o.profile = profile;
    base->cases.push_back(cf::select_cases(fixtures, o));
  }
}

/// Every selected case of every profile judged on the in-process reference as it is now (the mutant the environment
/// names). With `record`, keeps every verdict in `base` and returns them; else stops after the first profile where a
/// verdict differs from `base`'s and returns the differences.
json run_corpus(Baseline* base, bool record) {
  auto impl = cf::make_reference_adapter();
  std::string error;
  if (!impl->start(&error)) return json{{"status", "errored"}, {"why", "the reference did not start: " + error}};
  const bool trace = impl->info().capabilities.count("trace") > 0;
  const cf::Divergences none;
  json changed = json::array(), verdicts = json::array();
  std::set<std::string> profiles;
  std::size_t count = 0;
  for (std::size_t pi = 0; pi < base->profiles.size() && count == 0; ++pi) {
    const std::string& profile = base->profiles[pi];
    verdicts.push_back(json::array());
    for (std::size_t k = 0; k < base->cases[pi].size(); ++k) {
      const cf::Fixture& f = *base->cases[pi][k];
      cf::Verdict v = cf::judge(f, profile, impl->resolve(f.id, profile, f.given), none, trace).verdict;
      if (record) {
        verdicts.back().push_back(static_cast<int>(v));
      } else if (v != base->verdicts[pi][k]) {
        if (++count <= 8) changed.push_back(profile + ":" + f.id);
        profiles.insert(profile);
      }
    }
  }
  impl->stop();
  if (record) return json{{"status", "same"}, {"verdicts", verdicts}};
  return json{{"status", count ? "changed" : "same"}, {"changed", changed}, {"count", count}, {"profiles", profiles}};
}

/// The verdicts of `j` ({"verdicts": [[int, ...], ...]}, one list per profile) into `base`; false when they do not fit.
bool take_verdicts(const json& j, Baseline* base) {
  if (!j.is_object() || !j.contains("verdicts") || !j["verdicts"].is_array() || j["verdicts"].size() != base->cases.size()) return false;
  base->verdicts.clear();
  for (std::size_t pi = 0; pi < base->cases.size(); ++pi) {
    const json& list = j["verdicts"][pi];
    if (!list.is_array() || list.size() != base->cases[pi].size()) return false;
    base->verdicts.emplace_back();
    for (const auto& v : list) {
      if (!v.is_number_integer()) return false;
      base->verdicts.back().push_back(static_cast<cf::Verdict>(v.get<int>()));
    }
  }
  return true;
}

/// A running child: its mutant, the pipe it answers on, what it wrote so far, and when it started.
struct Child {
  long mutant;
  pid_t pid;
  int fd;
  std::string text;
  Clock::time_point started;
};

/// How a child runs: the unmutated verdicts, a mutant in the fork, or a mutant in a fresh process.
struct Launch {
  long mutant;               ///< 0: the unmutated verdicts
  const char* exe;           ///< this program, for a fresh process
  std::vector<std::string> argv;  ///< its command line (`mutant-run DIR --profile P --baseline FILE`)
  long memory_mb = 0;        ///< the child's address space (0: no limit): a mutant that allocates without end crashes
};

/// Forks the child of `l.mutant`: it runs the corpus with ACCORD_MUTANT set and writes its answer on a pipe (the
/// answer's line last, what it printed on stderr before it).
bool spawn(const Launch& l, Baseline* base, Child* out) {
  int p[2];
  if (pipe(p) != 0) return false;
  std::cout.flush();
  pid_t pid = fork();
  if (pid < 0) return close(p[0]), close(p[1]), false;
  if (pid == 0) {
    close(p[0]);
    dup2(p[1], 1);
    dup2(p[1], 2);
    if (l.memory_mb > 0) {
      const rlimit cap{static_cast<rlim_t>(l.memory_mb) << 20, static_cast<rlim_t>(l.memory_mb) << 20};
      setrlimit(RLIMIT_AS, &cap);
    }
    if (l.mutant > 0)
      setenv("ACCORD_MUTANT", std::to_string(l.mutant).c_str(), 1);
    else
      unsetenv("ACCORD_MUTANT");
    if (l.mutant > 0 && ran_here(l.mutant)) {
      std::vector<char*> argv;
      for (const auto& a : l.argv) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(l.exe, argv.data());
      std::string why = json{{"status", "errored"}, {"why", std::string("cannot start a fresh process: ") + std::strerror(errno)}}.dump() + "\n";
      (void)!write(1, why.data(), why.size());
      _exit(0);
    }
    std::string line;
    try {
      line = run_corpus(base, l.mutant == 0).dump() + "\n";
    } catch (const std::exception& e) {
      line = json{{"status", "crashed"}, {"why", std::string("an exception escaped: ") + e.what()}}.dump() + "\n";
    }
    for (std::size_t done = 0; done < line.size();) {
      ssize_t w = write(1, line.data() + done, line.size() - done);
      if (w <= 0) break;
      done += static_cast<std::size_t>(w);
    }
    _exit(0);
  }
  close(p[1]);
  *out = {l.mutant, pid, p[0], "", Clock::now()};
  return true;
}

/// The answer of a child that closed its pipe (or was killed at its deadline), as one JSON object.
json finish(Child& c, bool timed_out, double timeout) {
  close(c.fd);
  int status = 0;
  if (timed_out) kill(c.pid, SIGKILL);
  waitpid(c.pid, &status, 0);
  json r;
  if (timed_out) {
    r = {{"status", "timeout"}, {"why", "no answer in " + std::to_string(static_cast<int>(timeout)) + " s: killed"}};
  } else {
    // The answer is the last line; what comes before it is what the mutant wrote on stderr.
    std::size_t end = c.text.size() && c.text.back() == '\n' ? c.text.size() - 1 : c.text.size();
    std::size_t start = c.text.rfind('\n', end ? end - 1 : 0);
    start = start == std::string::npos || start >= end ? 0 : start + 1;
    r = WIFSIGNALED(status) ? json() : json::parse(c.text.substr(start, end - start), nullptr, false);
    if (!r.is_object() || !r.contains("status")) {
      std::string said = c.text.substr(c.text.size() > 300 ? c.text.size() - 300 : 0);
      while (!said.empty() && said.back() == '\n') said.pop_back();
      bool sig = WIFSIGNALED(status);
      r = {{"status", sig ? "crashed" : "errored"},
           {"why", (sig ? "killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")"
                        : "exit status " + std::to_string(WEXITSTATUS(status)) + " without an answer") +
                       (said.empty() ? "" : ": " + said)}};
    }
  }
  r["mutant"] = c.mutant;
  r["seconds"] = std::chrono::duration<double>(Clock::now() - c.started).count();
  return r;
}

/// Runs every launch, `jobs` children at once, and hands each answer to `done` as it comes. False (errno set) when a
/// child cannot be started.
template <class Done>
bool drive(std::deque<Launch> queue, int jobs, double timeout, Baseline* base, Done done) {
  std::vector<Child> running;
  while (!queue.empty() || !running.empty()) {
    while (!queue.empty() && static_cast<int>(running.size()) < std::max(1, jobs)) {
      Child c;
      if (!spawn(queue.front(), base, &c)) return false;
      queue.pop_front();
      running.push_back(std::move(c));
    }
    std::vector<pollfd> fds;
    for (const auto& c : running) fds.push_back({c.fd, POLLIN, 0});
    poll(fds.data(), fds.size(), 100);
    for (std::size_t k = running.size(); k-- > 0;) {
      Child& c = running[k];
      bool ended = false;
      if (fds[k].revents & (POLLIN | POLLHUP | POLLERR)) {
        char buf[65536];
        ssize_t got = read(c.fd, buf, sizeof buf);
        if (got > 0) c.text.append(buf, static_cast<std::size_t>(got));
        ended = got <= 0;
      }
      bool late = !ended && std::chrono::duration<double>(Clock::now() - c.started).count() > timeout;
      if (ended || late) {
        done(finish(c, late, timeout));
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
      }
    }
  }
  return true;
}

/// Reads the mutant numbers (positive integers, one a line) from stdin; false after naming a bad line.
bool read_mutants(std::deque<long>* out) {
  std::string line;
  for (int k = 1; std::getline(std::cin, line); ++k) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    char* end = nullptr;
    long n = std::strtol(line.c_str(), &end, 10);
    if (n <= 0 || end == line.c_str() || std::string(end).find_first_not_of(" \t\r") != std::string::npos)
      return std::cerr << "accord mutant-run: stdin line " << k << ": '" << line << "' is not a mutant number (1 or more)\n", false;
    out->push_back(n);
  }
  return true;
}

/// `--baseline FILE`: the mutant the environment names, in this fresh process, against the verdicts in FILE.
int run_one(const Options& o, const std::vector<cf::Fixture>& fixtures, Baseline* base) {
  std::ifstream in(o.baseline, std::ios::binary);
  json j = json::parse(in, nullptr, false);
  select_all(fixtures, base);
  if (!take_verdicts(j, base))
    return std::cerr << "accord mutant-run: " << o.baseline << ": not the verdicts of this corpus and these profiles\n", 2;
  std::cout << run_corpus(base, false).dump() << "\n";
  return 0;
}

int run(const Options& o) {
  Baseline base;
  if (!profiles_named("mutant-run", o.profile, &base.profiles)) return 2;
  std::deque<Launch> queue;
  std::deque<long> numbers;
  if (o.baseline.empty() && !read_mutants(&numbers)) return 2;
  cf::Corpus corpus = cf::load_corpus(o.dir);
  for (const auto& e : corpus.errors) std::cerr << "accord mutant-run: " << cf::to_string(e) << "\n";
  if (!corpus.errors.empty()) return std::cerr << "accord mutant-run: the corpus has errors; run `accord lint " << o.dir << "`\n", 2;
  if (!o.baseline.empty()) return run_one(o, corpus.fixtures, &base);
  select_all(corpus.fixtures, &base);
  std::size_t cases = 0;
  for (const auto& c : base.cases) cases += c.size();
  // The unmutated verdicts, in a child too: this process runs no guard after reading the corpus.
  json first;
  if (!drive({{0, nullptr, {}}}, 1, 3600, &base, [&first](json r) { first = std::move(r); }) || !take_verdicts(first, &base) || cases == 0)
    return std::cerr << "accord mutant-run: the unmutated run failed or selected no case: " << first.dump().substr(0, 500) << "\n", 2;
  const double base_seconds = first.value("seconds", 0.0);
  const double timeout = o.timeout > 0 ? o.timeout : std::max(10.0, 10 * base_seconds);
  std::error_code ec;
  std::string path = (std::filesystem::temp_directory_path(ec) / "accord-mutant-run-XXXXXX").string();
  int fd = mkstemp(path.data());
  std::string text = json{{"verdicts", first["verdicts"]}}.dump();
  bool wrote = fd >= 0 && write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  if (fd >= 0) close(fd);
  if (!wrote) return std::cerr << "accord mutant-run: cannot write the unmutated verdicts to " << path << "\n", 2;
  std::vector<std::string> argv = {"accord", "mutant-run", o.dir, "--profile", o.profile, "--baseline", path};
  std::size_t fresh = 0;
  for (long n : numbers) {
    queue.push_back({n, "/proc/self/exe", argv, o.memory_mb});
    fresh += ran_here(n);
  }
  std::cout << json{{"baseline", {{"cases", cases}, {"profiles", base.profiles}, {"seconds", base_seconds}, {"fresh_processes", fresh}}}}.dump()
            << "\n";
  bool ok = drive(std::move(queue), o.jobs, timeout, &base, [](json r) {
    r["process"] = ran_here(r["mutant"].get<long>()) ? "fresh" : "fork";
    std::cout << r.dump() << "\n" << std::flush;
  });
  unlink(path.c_str());
  if (!ok) return std::cerr << "accord mutant-run: cannot start a child: " << std::strerror(errno) << "\n", 2;
  return 0;
}

}  // namespace

void register_mutant_run(CLI::App& app) {
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("mutant-run",
                                 "For a mutation (schemata) build: run the corpus once per mutant number read from stdin, each in a "
                                 "forked child with ACCORD_MUTANT set; print per mutant the cases whose verdict changed (JSON lines)");
  cmd->add_option("dir", o->dir, "fixture directory")->capture_default_str();
  cmd->add_option("--profile", o->profile, "all, or one profile: " + reference::profile_names(" | "))->capture_default_str();
  cmd->add_option("--jobs", o->jobs, "children at once")->capture_default_str()->check(CLI::Range(1, 256));
  cmd->add_option("--timeout", o->timeout, "seconds per mutant (0: ten times the unmutated run, at least 10)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  cmd->add_option("--memory-mb", o->memory_mb, "address space of each mutant's child in MiB (0: no limit)")
      ->capture_default_str()
      ->check(CLI::Range(0L, 1L << 30));
  cmd->add_option("--baseline", o->baseline,
                  "run only the mutant ACCORD_MUTANT names, in this process, against the unmutated verdicts in this file "
                  "(what mutant-run starts for a mutant whose guard ran before its fork)");
  cmd->callback([o] { set_status(run(*o)); });
}

}  // namespace accord::cli

// launch_children.cc: per-rank worker commands/environments, supervision, and the verdict.
#include "launch_children.h"

#include <algorithm>
#include <csignal>

#include "live_error.h"
#include "process_supervisor.h"
#include "report_io.h"
#include "worker.h"

namespace accord::conformance::live {
namespace {

using nlohmann::json;

struct Slot {
  int rank = 0;
  int node = 0;
  int local = 0;
};

std::string number(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

ChildSpec child_for(const Slot& s, const json& plan, const LaunchSpec& spec, Backend backend,
                    const Rendezvous& where, const LaunchOptions& options, const ScratchDir& dir) {
  ChildSpec c;
  const std::string report = dir.file("rank-" + std::to_string(s.rank) + ".json");
  c.log_path = dir.file("rank-" + std::to_string(s.rank) + ".log");
  c.env = options.env;
  c.env["MASTER_ADDR"] = where.master_addr;
  c.env["MASTER_PORT"] = std::to_string(where.master_port);
  c.env["WORLD_SIZE"] = std::to_string(spec.world_size);
  c.env["NODE_RANK"] = std::to_string(s.node);
  if (spec.mode == LaunchMode::kSubprocessScript) {  // PL subprocess_script.py sets these per child
    c.env["RANK"] = std::to_string(s.rank);
    c.env["LOCAL_RANK"] = std::to_string(s.local);
  }
  if (spec.mode == LaunchMode::kFork) {
    WorkerConfig config{plan, backend, options.timeout_s, where.deadline, s.local, std::nullopt};
    c.body = [config, report] {
      const json r = run_worker(config);
      write_json_file(report, r);
      return r.value("status", "") == "ok" ? 0 : 1;
    };
    return c;
  }
  c.argv = options.worker_command.empty() ? std::vector<std::string>{"/proc/self/exe", "launch-worker"}
                                          : options.worker_command;
  for (const std::string& a : {std::string("--plan"), dir.file("plan.json"), std::string("--report"), report,
                               std::string("--timeout"), number(options.timeout_s), std::string("--backend"),
                               std::string(backend_name(backend)), std::string("--deadline"),
                               std::to_string(where.deadline)}) {
    c.argv.push_back(a);
  }
  if (spec.mode == LaunchMode::kSpawn) {
    c.argv.push_back("--rank");
    c.argv.push_back(std::to_string(s.local));
  }
  return c;
}

json rank_entry(const Slot& s, const ChildResult& r, const ScratchDir& dir) {
  const std::string base = dir.file("rank-" + std::to_string(s.rank));
  const auto report = read_json_file(base + ".json");
  json e = {{"rank", s.rank}, {"node_rank", s.node}, {"local_rank", s.local}, {"pid", r.pid},
            {"end", describe_end(r)}, {"timed_out", r.timed_out}, {"aborted", r.aborted}, {"interrupted", r.interrupted != 0},
            {"ended_s", r.ended_s}, {"report", report ? *report : json()}};
  if (!r.ok() || !report || report->value("status", "") != "ok") e["log_tail"] = file_tail(base + ".log");
  return e;
}

const char* signal_name(int sig) { return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal"; }

// What went wrong with one rank: its own report's error, else how its process ended.
// `culprit` names the rank whose failure got this one stopped.
std::optional<LiveError> rank_error(const Slot& s, const ChildResult& r, const json& report, double timeout_s,
                                    const std::string& culprit) {
  const std::string rank = std::to_string(s.rank);
  const std::string pid = std::to_string(r.pid);
  if (!r.start_error.empty()) return LiveError{LiveCode::kWorkerStartFailed, {{"rank", rank}, {"detail", r.start_error}}};
  if (report.is_object() && report.value("status", "") == "error") return error_from_json(report.value("error", json()));
  if (r.interrupted) return LiveError{LiveCode::kInterrupted, {{"rank", rank}, {"pid", pid}, {"signal", signal_name(r.interrupted)}}};
  if (r.aborted) return LiveError{LiveCode::kWorkerAborted, {{"rank", rank}, {"pid", pid}, {"culprit", culprit}}};
  if (r.timed_out) return LiveError{LiveCode::kWorkerTimeout, {{"rank", rank}, {"pid", pid}, {"timeout_s", number(timeout_s)}}};
  if (!r.ok() || !report.is_object()) {
    return LiveError{LiveCode::kWorkerCrashed, {{"rank", rank}, {"pid", pid}, {"how", describe_end(r)}}};
  }
  return std::nullopt;
}

// Gives every failed rank its error and returns the root cause: the earliest rank that failed by
// itself, else the first that ran into the deadline. Ranks stopped because of it are "aborted".
std::optional<LiveError> verdict(const std::vector<Slot>& slots, const std::vector<ChildResult>& results,
                                 json& ranks, double timeout_s) {
  std::vector<std::size_t> order(results.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return results[a].ended_s < results[b].ended_s; });
  std::optional<std::size_t> root;
  for (std::size_t i : order) {
    const bool stopped = results[i].aborted || results[i].timed_out || results[i].interrupted;
    if (!stopped && rank_error(slots[i], results[i], ranks[i]["report"], timeout_s, "")) {
      root = i;
      break;
    }
  }
  for (std::size_t i : order) {
    if (!root && (results[i].timed_out || results[i].interrupted)) root = i;
  }
  const std::string culprit = root ? std::to_string(slots[*root].rank) : "?";
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (auto e = rank_error(slots[i], results[i], ranks[i]["report"], timeout_s, culprit)) ranks[i]["error"] = to_json(*e);
  }
  if (!root) return std::nullopt;
  return rank_error(slots[*root], results[*root], ranks[*root]["report"], timeout_s, culprit);
}

}  // namespace

json run_launched(const json& plan, const LaunchSpec& spec, Backend backend, const Rendezvous& where,
                  const LaunchOptions& options) {
  ScratchDir dir;
  if (dir.path().empty() || !write_json_file(dir.file("plan.json"), plan_of(plan))) {
    return {{"status", "error"}, {"started", 0},
            {"error", to_json(LiveError{LiveCode::kInternal, {{"detail", "cannot write a scratch directory"}}})}};
  }
  std::vector<Slot> slots;
  std::vector<ChildSpec> children;
  for (int node = 0; node < spec.num_nodes; ++node) {
    for (int local = 0; local < spec.procs_per_node; ++local) {
      slots.push_back({node * spec.procs_per_node + local, node, local});
      children.push_back(child_for(slots.back(), plan, spec, backend, where, options, dir));
    }
  }
  // Workers end their waits by the deadline and report; the supervisor's kill comes `slack`
  // later, as a backstop that also covers a slow start (loading LibTorch takes seconds).
  const double slack = std::clamp(options.timeout_s * 0.25, 5.0, 30.0);
  const std::vector<ChildResult> results = run_children(children, {options.timeout_s + slack, 2.0});
  json ranks = json::array();
  int started = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    ranks.push_back(rank_entry(slots[i], results[i], dir));
    started += results[i].start_error.empty() ? 1 : 0;
  }
  const std::optional<LiveError> error = verdict(slots, results, ranks, options.timeout_s);
  json out = {{"status", error ? "error" : "ok"}, {"started", started}, {"ranks", ranks}};
  if (int sig = supervisor_interrupt_signal()) out["interrupted"] = signal_name(sig);  // `accord launch` exits 128 + it
  if (error) out["error"] = to_json(*error);
  if (options.keep_files) {
    dir.keep();
    out["files"] = dir.path();
  }
  return out;
}

}  // namespace accord::conformance::live

// commands.cc: the `probe`, `launch` and hidden `launch-worker` subcommands (CLI11).
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>

#include <CLI/CLI.hpp>

#include "accord/conformance/live.h"
#include "live_error.h"
#include "plan_check.h"
#include "report_io.h"
#include "worker.h"

namespace accord::conformance {
namespace {

using nlohmann::json;

void print(const json& value, bool compact) {
  std::cout << (compact ? value.dump() : value.dump(2)) << std::endl;
}

// A plan from a file or stdin ("-"); a parse error becomes a live_plan_invalid report.
std::optional<json> read_plan(const std::string& source, json& error) {
  std::string text;
  if (source == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), {});
  } else {
    std::error_code ec;
    const bool directory = std::filesystem::is_directory(source, ec);
    std::ifstream in(source, std::ios::binary);
    try {
      if (in && !directory) text.assign(std::istreambuf_iterator<char>(in), {});
    } catch (const std::exception&) {  // libstdc++ throws from underflow on EIO
      in.setstate(std::ios::badbit);
    }
    if (!in || directory || in.bad()) {  // the same words as every command that reads a file
      const std::string why = directory ? "is a directory" : !in.is_open() ? std::strerror(errno) : "read error";
      error = to_json(live::LiveError{live::LiveCode::kPlanInvalid, {{"reason", "cannot read '" + source + "': " + why}}});
      return std::nullopt;
    }
  }
  json plan = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (plan.is_discarded()) {
    error = to_json(live::LiveError{live::LiveCode::kPlanInvalid, {{"reason", source + " is not JSON"}}});
    return std::nullopt;
  }
  return plan;
}

struct LaunchArgs {
  std::string plan;
  std::string output;
  std::vector<std::string> env;
  LaunchOptions options;
  bool compact = false;
};

void add_launch(CLI::App& app) {
  auto args = std::make_shared<LaunchArgs>();
  CLI::App* cmd = app.add_subcommand("launch", "Start the processes a plan calls for and check each one (JSON report)");
  cmd->add_option("--plan", args->plan, "Plan or outcome JSON file, '-' for stdin")->required();
  cmd->add_option("--timeout", args->options.timeout_s, "Seconds for the whole bring-up")->capture_default_str();
  cmd->add_option("--port", args->options.port, "MASTER_PORT (0: MASTER_PORT or a free port)");
  cmd->add_option("--env", args->env, "K=V for the workers (repeatable)");
  cmd->add_option("--backend", args->options.backend, "auto, gloo, nccl or nccl-direct")->capture_default_str();
  cmd->add_flag("--keep-files", args->options.keep_files, "Keep plan, reports and logs; the report names the folder");
  cmd->add_option("--output", args->output, "Also write the report to this file");
  cmd->add_flag("--compact", args->compact, "One-line JSON");
  cmd->callback([args] {
    for (const std::string& kv : args->env) {
      const std::size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) throw CLI::ValidationError("--env", "expected K=V, got " + kv);
      args->options.env[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    json error;
    const std::optional<json> plan = read_plan(args->plan, error);
    const json report = plan ? launch(*plan, args->options) : json{{"status", "error"}, {"started", 0}, {"error", error}};
    if (!args->output.empty()) live::write_json_file(args->output, report);
    print(report, args->compact);
    const bool bad_plan = report.contains("error") && report["error"].value("code", "") == "live_plan_invalid";
    int rc = bad_plan ? 2 : report.value("status", "") == "ok" ? 0 : 1;  // a plan that cannot be read or used: bad input
    if (report.contains("interrupted")) rc = 128 + (report["interrupted"] == "SIGINT" ? SIGINT : SIGTERM);  // 130, 143
    if (report.value("backend", "") != "gloo" && report.value("started", 0) > 0 &&
        (report.value("mode", "") == "in_process" || report.value("mode", "") == "external")) {
      std::fflush(nullptr);
      std::_Exit(rc);  // this process holds a NCCL communicator that is never torn down
    }
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

struct WorkerArgs {
  std::string plan;
  std::string report;
  std::string backend = "gloo";
  double timeout_s = 60;
  double deadline = 0;
  int rank = -1;
};

void add_worker(CLI::App& app) {
  auto args = std::make_shared<WorkerArgs>();
  CLI::App* cmd = app.add_subcommand("launch-worker", "One rank of `launch` (internal)");
  cmd->group("");  // hidden from --help
  cmd->add_option("--plan", args->plan, "Plan JSON file")->required();
  cmd->add_option("--report", args->report, "Where to write this rank's JSON report");
  cmd->add_option("--backend", args->backend, "gloo, nccl or nccl-direct");
  cmd->add_option("--timeout", args->timeout_s, "Seconds for each wait");
  cmd->add_option("--rank", args->rank, "Process index (spawn launchers)");
  cmd->add_option("--deadline", args->deadline, "Seconds since the epoch by which all waits end");
  cmd->callback([args] {
    json report;
    json error;
    if (const std::optional<json> plan = read_plan(args->plan, error)) {
      try {
        live::WorkerConfig config{*plan, live::parse_backend(args->backend), args->timeout_s, std::nullopt,
                                  std::nullopt, std::nullopt};
        if (args->rank >= 0) config.spawn_index = args->rank;
        if (args->deadline > 0) config.deadline = args->deadline;
        report = live::run_worker(config);
      } catch (const live::LiveFailure& f) {
        report = {{"status", "error"}, {"error", to_json(f.error())}};
      }
    } else {
      report = {{"status", "error"}, {"error", error}};
    }
    if (!args->report.empty()) live::write_json_file(args->report, report);
    print(report, true);
    // The report is out; skip static destructors, which can race with NCCL/gloo threads.
    std::fflush(nullptr);
    std::_Exit(report.value("status", "") == "ok" ? 0 : 1);
  });
}

}  // namespace

void register_live_commands(CLI::App& app) {
  auto compact = std::make_shared<bool>(false);
  CLI::App* probe = app.add_subcommand("probe", "Print this machine's PROTOCOL.md `hardware` block (JSON)");
  probe->add_flag("--compact", *compact, "One-line JSON");
  probe->callback([compact] { print(to_json(probe_hardware()), *compact); });
  add_launch(app);
  add_worker(app);
}

int live_main(int argc, char** argv) {
  CLI::App app{"accord live: probe, launch, launch-worker"};
  app.require_subcommand(1);
  register_live_commands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {  // a run's status (launch)
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {  // help (0) or a usage error: 2, as every accord command
    return app.exit(e) == 0 ? 0 : 2;
  }
  return 0;
}

}  // namespace accord::conformance

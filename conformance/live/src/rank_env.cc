// rank_env.cc: the per-environment variable table and the readers built on it.
#include "rank_env.h"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <string_view>

#include "live_error.h"

extern char** environ;

namespace accord::conformance::live {
namespace {

/// Where one cluster environment keeps a process's identity. nullptr: not provided (0, except
/// Kubeflow's node rank, which is its global rank). `port_from_job`: SLURM derives MASTER_PORT
/// from the job id when MASTER_PORT is unset; `default_port` is the last resort (0 = required).
struct EnvRow {
  std::string_view cls;
  const char* rank;
  const char* local;
  const char* node;
  const char* world;
  const char* port_from_job;
  int default_port;
};

// PL 1.6 plugins/environments/{slurm,torchelastic,kubeflow,lsf}_environment.py
constexpr std::array kRows = {
    EnvRow{"SLURMEnvironment", "SLURM_PROCID", "SLURM_LOCALID", "SLURM_NODEID", "SLURM_NTASKS", "SLURM_JOB_ID", 12910},
    EnvRow{"TorchElasticEnvironment", "RANK", "LOCAL_RANK", "GROUP_RANK", "WORLD_SIZE", nullptr, 0},
    EnvRow{"KubeflowEnvironment", "RANK", nullptr, "RANK", "WORLD_SIZE", nullptr, 0},
    EnvRow{"LSFEnvironment", "JSM_NAMESPACE_RANK", "JSM_NAMESPACE_LOCAL_RANK", nullptr, "JSM_NAMESPACE_SIZE", nullptr, 0},
};

const EnvRow* find_row(const std::string& cls) {
  for (const EnvRow& row : kRows) {
    if (row.cls == cls) return &row;
  }
  return nullptr;
}

const std::string* lookup(const Environ& env, const std::string& name) {
  auto it = env.find(name);
  return it == env.end() ? nullptr : &it->second;
}

int required_int(const Environ& env, const char* name, std::string_view who) {
  if (lookup(env, name) == nullptr) fail(LiveCode::kEnvMissing, {{"environment", std::string(who)}, {"variable", name}});
  return env_int(env, name);
}

// SLURM: MASTER_PORT, else 15000 + the last four digits of the job id, else the default.
int master_port(const Environ& env, const EnvRow* row, std::string_view who) {
  if (lookup(env, "MASTER_PORT") != nullptr) return env_int(env, "MASTER_PORT");
  if (row != nullptr && row->port_from_job != nullptr) {
    if (const std::string* job = lookup(env, row->port_from_job)) {
      const std::string tail = job->size() > 4 ? job->substr(job->size() - 4) : *job;
      return 15000 + env_int(Environ{{row->port_from_job, tail}}, row->port_from_job);
    }
  }
  if (row != nullptr && row->default_port > 0) return row->default_port;
  fail(LiveCode::kEnvMissing, {{"environment", std::string(who)}, {"variable", "MASTER_PORT"}});
}

std::string master_addr(const Environ& env) {
  const std::string* addr = lookup(env, "MASTER_ADDR");
  return addr != nullptr && !addr->empty() ? *addr : "127.0.0.1";
}

}  // namespace

Environ current_environ() {
  Environ out;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string_view entry(*e);
    const std::size_t eq = entry.find('=');
    if (eq != std::string_view::npos) out.emplace(entry.substr(0, eq), entry.substr(eq + 1));
  }
  return out;
}

bool knows_cluster_env(const std::string& env_class) { return find_row(env_class) != nullptr; }

int env_int(const Environ& env, const std::string& name) {
  const std::string* text = lookup(env, name);
  const std::string value = text != nullptr ? *text : std::string();
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || errno != 0 || v < 0 || v > 1'000'000) {
    fail(LiveCode::kEnvInvalid, {{"variable", name}, {"value", value}, {"expected", "a non-negative integer"}});
  }
  return static_cast<int>(v);
}

RankInfo read_external_rank(const std::string& env_class, const Environ& env) {
  const EnvRow* row = find_row(env_class);
  if (row == nullptr) fail(LiveCode::kClusterEnvUnsupported, {{"environment", env_class}});
  RankInfo info;
  info.source = env_class;
  info.global_rank = required_int(env, row->rank, env_class);
  info.world_size = required_int(env, row->world, env_class);
  info.local_rank = row->local != nullptr ? required_int(env, row->local, env_class) : 0;
  info.node_rank = row->node != nullptr ? required_int(env, row->node, env_class) : 0;
  info.master_addr = master_addr(env);
  info.master_port = master_port(env, row, env_class);
  if (info.global_rank >= info.world_size) {
    fail(LiveCode::kEnvInvalid, {{"variable", row->rank},
                                 {"value", std::to_string(info.global_rank)},
                                 {"expected", "below the world size " + std::to_string(info.world_size)}});
  }
  return info;
}

RankInfo read_launched_rank(const Environ& env, std::optional<int> spawn_index, int procs_per_node) {
  constexpr std::string_view kWho = "the live launcher";
  RankInfo info;
  info.source = "launcher";
  info.world_size = required_int(env, "WORLD_SIZE", kWho);
  info.node_rank = lookup(env, "NODE_RANK") != nullptr ? env_int(env, "NODE_RANK") : 0;
  if (spawn_index) {
    info.local_rank = *spawn_index;
    info.global_rank = info.node_rank * procs_per_node + *spawn_index;
  } else {
    info.local_rank = required_int(env, "LOCAL_RANK", kWho);
    info.global_rank = lookup(env, "RANK") != nullptr ? env_int(env, "RANK")
                                                      : info.node_rank * procs_per_node + info.local_rank;
  }
  info.master_addr = master_addr(env);
  info.master_port = master_port(env, nullptr, kWho);
  return info;
}

}  // namespace accord::conformance::live

// rank_env.h: who a worker is (ranks, world size, rendezvous address), read from its environment.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace accord::conformance::live {

/// A snapshot of environment variables (name -> value); functions here never read the process.
using Environ = std::map<std::string, std::string>;

/// The identity of one process in the job.
struct RankInfo {
  int global_rank = 0;
  int local_rank = 0;
  int node_rank = 0;
  int world_size = 1;
  std::string master_addr = "127.0.0.1";
  int master_port = 0;
  std::string source;  ///< "launcher", "in_process" or the cluster environment class that gave it
};

/// A copy of this process's environment.
[[nodiscard]] Environ current_environ();

/// True when `env_class` is a cluster environment whose ranks this file knows how to read.
[[nodiscard]] bool knows_cluster_env(const std::string& env_class);

/// Reads the identity of an externally created process (SLURM, TorchElastic, Kubeflow, LSF) from
/// that environment's variables, as Lightning's ClusterEnvironment classes do. Throws LiveFailure
/// (ClusterEnvUnsupported, EnvMissing, EnvInvalid).
[[nodiscard]] RankInfo read_external_rank(const std::string& env_class, const Environ& env);

/// Reads the identity the live launcher gave a worker: MASTER_ADDR, MASTER_PORT, WORLD_SIZE,
/// NODE_RANK and either RANK/LOCAL_RANK (subprocess script) or the spawn index (`--rank`).
/// Throws LiveFailure (EnvMissing, EnvInvalid).
[[nodiscard]] RankInfo read_launched_rank(const Environ& env, std::optional<int> spawn_index,
                                          int procs_per_node);

/// Parses a non-negative decimal integer environment value; throws LiveFailure(EnvInvalid).
[[nodiscard]] int env_int(const Environ& env, const std::string& name);

}  // namespace accord::conformance::live

// env.cc: cluster environment presets (PL 1.6.5 plugins/environments/*.py variables) and their noise.
#include "env.h"

#include "choice.h"

namespace accord::prop {
namespace {

using Vars = reference::EnvVars;

std::string s(int v) { return std::to_string(v); }

Vars slurm(int nodes, int local, int node, int lr) {
  return {{"SLURM_NTASKS", s(nodes * local)}, {"SLURM_PROCID", s(node * local + lr)}, {"SLURM_LOCALID", s(lr)},
          {"SLURM_NODEID", s(node)}, {"SLURM_JOB_NAME", "train"}};
}
Vars torchelastic(int nodes, int local, int node, int lr) {
  return {{"TORCHELASTIC_RUN_ID", "run1"}, {"WORLD_SIZE", s(nodes * local)}, {"RANK", s(node * local + lr)},
          {"LOCAL_RANK", s(lr)}, {"GROUP_RANK", s(node)}, {"MASTER_ADDR", "10.0.0.1"}, {"MASTER_PORT", "29500"}};
}
Vars kubeflow(int nodes, int local, int node, int lr) {
  return {{"KUBERNETES_PORT", "tcp://10.0.0.1:443"}, {"MASTER_ADDR", "10.0.0.1"}, {"MASTER_PORT", "23456"},
          {"WORLD_SIZE", s(nodes * local)}, {"RANK", s(node * local + lr)}};
}
Vars lsf(int nodes, int local, int node, int lr) {
  return {{"LSB_JOBID", "4242"}, {"LSB_DJOB_RANKFILE", "/tmp/rankfile"}, {"JSM_NAMESPACE_SIZE", s(nodes * local)},
          {"JSM_NAMESPACE_RANK", s(node * local + lr)}, {"JSM_NAMESPACE_LOCAL_RANK", s(lr)}};
}
Vars bagua(int nodes, int local, int node, int lr) {
  return {{"BAGUA_SERVICE_PORT", "29601"}, {"WORLD_SIZE", s(nodes * local)}, {"RANK", s(node * local + lr)},
          {"LOCAL_RANK", s(lr)}, {"NODE_RANK", s(node)}, {"MASTER_ADDR", "10.0.0.1"}, {"MASTER_PORT", "29500"}};
}
Vars horovod(int nodes, int local, int node, int lr) {
  return {{"OMPI_COMM_WORLD_RANK", s(node * local + lr)}, {"OMPI_COMM_WORLD_SIZE", s(nodes * local)},
          {"OMPI_COMM_WORLD_LOCAL_SIZE", s(local)}, {"OMPI_COMM_WORLD_LOCAL_RANK", s(lr)}};
}
Vars lightning(int, int, int node, int lr) { return {{"LOCAL_RANK", s(lr)}, {"NODE_RANK", s(node)}}; }

}  // namespace

const std::vector<std::string>& preset_names() {
  static const std::vector<std::string> n = {"none", "slurm", "torchelastic", "kubeflow", "lsf", "bagua", "horovod", "lightning"};
  return n;
}

reference::EnvVars preset_vars(const std::string& name, int nodes, int local, int node, int lr) {
  using Make = Vars (*)(int, int, int, int);
  static const std::map<std::string, Make> makers = {{"slurm", slurm}, {"torchelastic", torchelastic}, {"kubeflow", kubeflow},
                                                     {"lsf", lsf}, {"bagua", bagua}, {"horovod", horovod}, {"lightning", lightning}};
  auto it = makers.find(name);
  return it == makers.end() ? Vars{} : it->second(nodes, local, node, lr);
}

reference::EnvVars disturb_env(reference::EnvVars v, int kind, std::size_t pick, const std::string& other) {
  if (v.empty() && kind != 3) return v;
  auto it = v.begin();
  if (!v.empty()) std::advance(it, static_cast<long>(pick % v.size()));
  switch (kind) {
    case 1: v.erase(it); break;                           // a variable missing
    case 2: it->second = pick % 2 ? "abc" : "0x1"; break;  // not a decimal integer
    case 3: {                                             // a second preset on top
      for (auto& kv : preset_vars(other, 1, 1, 0, 0)) v.insert(kv);
      break;
    }
    case 4:  // SLURM's interactive job
      v.emplace("SLURM_NTASKS", "2");
      v["SLURM_JOB_NAME"] = "bash";
      break;
    case 5: v["SLURM_NTASKS"] = "3"; break;  // SLURM present, task count matching nothing
    default: break;
  }
  return v;
}

void showValue(const EnvPreset& e, std::ostream& os) {
  os << e.name << " {";
  for (const auto& [k, v] : e.vars) os << k << "=" << v << " ";
  os << "}";
}

}  // namespace accord::prop

namespace rc {
using accord::prop::EnvPreset;

Gen<EnvPreset> Arbitrary<EnvPreset>::arbitrary() {
  namespace p = accord::prop;
  auto name = p::weighted_choice<std::string>({{5, gen::just(std::string("none"))},
                                               {14, p::shrinking_element_of(p::preset_names())}});
  auto shape = gen::tuple(p::shrinking_element_of(std::vector<int>{1, 2}), p::shrinking_element_of(std::vector<int>{1, 2, 4, 8}),
                          gen::inRange(0, 8), gen::inRange(0, 8));
  auto noise = p::weighted_choice<int>({{12, gen::just(0)}, {4, gen::inRange(1, 6)}});
  return gen::apply(
      [](const std::string& n, std::tuple<int, int, int, int> sh, int kind, std::size_t pick, const std::string& other) {
        auto [nodes, local, node, lr] = sh;
        node %= nodes;
        lr %= local;
        EnvPreset e{n, p::preset_vars(n, nodes, local, node, lr)};
        if (kind) e.name += kind == 3 ? "+" + other : "~" + std::to_string(kind);
        e.vars = p::disturb_env(e.vars, kind, pick, other);
        return e;
      },
      name, shape, noise, gen::arbitrary<std::size_t>(), p::shrinking_element_of(p::preset_names()));
}

}  // namespace rc

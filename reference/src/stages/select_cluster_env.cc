// select_cluster_env.cc: stage 2b: choose the cluster environment (explicit, SLURM, detection order, default).
#include <array>

#include "../context.h"

namespace accord::reference::detail {
namespace {

bool has(const Ctx& c, const char* k) { return c.env_var(k) != nullptr; }

bool detect_bagua(const Ctx& c) { return has(c, "BAGUA_SERVICE_PORT"); }
bool detect_lsf(const Ctx& c) {
  for (const char* k : {"LSB_JOBID", "LSB_DJOB_RANKFILE", "JSM_NAMESPACE_LOCAL_RANK", "JSM_NAMESPACE_SIZE"})
    if (!has(c, k)) return false;
  return true;
}

}  // namespace

// TorchElasticEnvironment.detect with torch >= 1.9.1; false without torch.distributed (1.6.4 #13142).
bool detect_torchelastic(const Ctx& c) { return c.in.hardware.torch_distributed && has(c, "TORCHELASTIC_RUN_ID"); }
bool detect_kubeflow(const Ctx& c) {
  for (const char* k : {"KUBERNETES_PORT", "MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "RANK"})
    if (!has(c, k)) return false;
  for (const char* k : {"GROUP_RANK", "LOCAL_RANK", "LOCAL_WORLD_SIZE"})
    if (has(c, k)) return false;
  return true;
}

namespace {

struct DetectRule { RuleId id; bool (*when)(const Ctx&); ClusterEnvId then; };
// PL 1.6.5 _choose_and_init_cluster_environment: after explicit and SLURM, first detected wins.
constexpr std::array<DetectRule, 4> kDetectRules = {{{RuleId::kEnvBagua, detect_bagua, ClusterEnvId::kBagua},
                                                     {RuleId::kEnvTorchElastic, detect_torchelastic, ClusterEnvId::kTorchElastic},
                                                     {RuleId::kEnvKubeflow, detect_kubeflow, ClusterEnvId::kKubeflow},
                                                     {RuleId::kEnvLsf, detect_lsf, ClusterEnvId::kLsf}}};

}  // namespace

// PL 1.6.5 _is_slurm_managing_tasks (int(SLURM_NTASKS, 0) == devices x nodes, job name not 'bash').
const SlurmVerdict* slurm_verdict(Ctx& c) {
  if (c.slurm) return &*c.slurm;
  SlurmVerdict& v = c.slurm.emplace();
  const std::string* ntasks = c.env_var("SLURM_NTASKS");
  if (!ntasks) return &v;
  const std::string* job = c.env_var("SLURM_JOB_NAME");
  if (job && *job == "bash") {
    v.reason = "SLURM_JOB_NAME='bash' marks an interactive job";
    return &v;
  }
  auto n = py_int_base0(*ntasks);
  if (!n) {
    c.slurm.reset();
    c.fail(DiagCode::kEnvInvalid, {fld("variable", "SLURM_NTASKS"), fld("value", *ntasks)});
    return nullptr;
  }
  long long want = static_cast<long long>(c.parallel_devices.size()) * c.num_nodes;
  if (*n == want) {
    v.managing = true;
  } else {
    v.reason = "SLURM_NTASKS=" + *ntasks + " differs from " + std::to_string(c.parallel_devices.size()) + " devices x " +
               std::to_string(c.num_nodes) + " nodes = " + std::to_string(want);
  }
  return &v;
}

bool select_cluster_env(Ctx& c) {
  // `isinstance(flag, ClusterEnvironment)`: any other value from a strategy instance is passed over (1.6.5 _choose_and_init_cluster_environment).
  if (auto id = instance_row(c.cluster_env, ClassKind::kClusterEnvironment)) {
    c.fire(RuleId::kEnvExplicit);
    c.env = static_cast<ClusterEnvId>(*id);
    return true;
  }
  const SlurmVerdict* slurm = slurm_verdict(c);
  if (!slurm) {
    c.fire(RuleId::kEnvSlurm);  // the SLURM check itself failed (unreadable SLURM_NTASKS)
    return false;
  }
  if (slurm->managing) {
    c.fire(RuleId::kEnvSlurm);
    c.note(DiagCode::kSlurmManaging);
    c.env = ClusterEnvId::kSlurm;
    return true;
  }
  for (const auto& r : kDetectRules) {
    if (r.when(c)) {
      c.fire(r.id);
      c.env = r.then;
      break;
    }
  }
  if (!c.env) {
    c.fire(RuleId::kEnvLightning);
    c.env = ClusterEnvId::kLightning;
  }
  if (!slurm->reason.empty()) {
    c.fire(RuleId::kEnvSlurmNotManaging);
    if (c.pol.fallbacks_warn)
      c.note(DiagCode::kSlurmNotManaging, {fld("ntasks", *c.env_var("SLURM_NTASKS")), fld("reason", slurm->reason),
                                           fld("environment", row(*c.env).cls)});
  }
  return true;
}

}  // namespace accord::reference::detail

// select_cluster_env.cc: stage 2b: choose the cluster environment (explicit, SLURM, detection order, default).
#include <array>

#include "../context.h"

namespace accord::reference::detail {
namespace {

bool has(const Input& c, const char* k) { return c.env_var(k) != nullptr; }

bool detect_bagua(const Input& c) { return has(c, "BAGUA_SERVICE_PORT"); }

}  // namespace

// LSFEnvironment.detect (1.6.5 and 2.2.5 alike): the four jsrun variables are set.
bool detect_lsf(const Input& c) {
  for (const char* k : {"LSB_JOBID", "LSB_DJOB_RANKFILE", "JSM_NAMESPACE_LOCAL_RANK", "JSM_NAMESPACE_SIZE"})
    if (!has(c, k)) return false;
  return true;
}

// TorchElasticEnvironment.detect with torch >= 1.9.1; false without torch.distributed (1.6.4 #13142).
bool detect_torchelastic(const Input& c) { return c.in.hardware.torch_distributed && has(c, "TORCHELASTIC_RUN_ID"); }
bool detect_kubeflow(const Input& c) {
  for (const char* k : {"KUBERNETES_PORT", "MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "RANK"})
    if (!has(c, k)) return false;
  for (const char* k : {"GROUP_RANK", "LOCAL_RANK", "LOCAL_WORLD_SIZE"})
    if (has(c, k)) return false;
  return true;
}

namespace {

struct DetectRule { RuleId id; bool (*when)(const Input&); ClusterEnvId then; };
// PL 1.6.5 _choose_and_init_cluster_environment: after explicit and SLURM, first detected wins.
constexpr std::array<DetectRule, 4> kDetectRules = {{{RuleId::kEnvBagua, detect_bagua, ClusterEnvId::kBagua},
                                                     {RuleId::kEnvTorchElastic, detect_torchelastic, ClusterEnvId::kTorchElastic},
                                                     {RuleId::kEnvKubeflow, detect_kubeflow, ClusterEnvId::kKubeflow},
                                                     {RuleId::kEnvLsf, detect_lsf, ClusterEnvId::kLsf}}};

}  // namespace

// PL 1.6.5 _is_slurm_managing_tasks (int(SLURM_NTASKS, 0) == devices x nodes, job name not 'bash').
const SlurmVerdict* slurm_verdict(Resolution& c, const FinalFlags& flags, Selection& sel) {
  if (sel.slurm) return &*sel.slurm;
  SlurmVerdict& v = sel.slurm.emplace();
  const std::string* ntasks = c.env_var("SLURM_NTASKS");
  if (!ntasks) return &v;
  const std::string* job = c.env_var("SLURM_JOB_NAME");
  if (job && *job == "bash") {
    v.reason = "SLURM_JOB_NAME='bash' marks an interactive job";
    return &v;
  }
  auto n = py_int_base0(*ntasks);
  if (!n) {
    sel.slurm.reset();
    c.fail(DiagCode::kEnvInvalid, {fld("variable", "SLURM_NTASKS"), fld("value", *ntasks)});
    return nullptr;
  }
  long long want = static_cast<long long>(sel.parallel_devices.size()) * flags.num_nodes;
  if (*n == want) {
    v.managing = true;
  } else {
    v.reason = "SLURM_NTASKS=" + *ntasks + " differs from " + std::to_string(sel.parallel_devices.size()) + " devices x " +
               std::to_string(flags.num_nodes) + " nodes = " + std::to_string(want);
  }
  return &v;
}

bool select_cluster_env(Resolution& c, const FinalFlags& flags, Selection& sel) {
  // `isinstance(flag, ClusterEnvironment)`: any other value from a strategy instance is passed over (1.6.5 _choose_and_init_cluster_environment).
  if (auto id = instance_row(c, flags.cluster_env_flag, ClassKind::kClusterEnvironment)) {
    c.fire(RuleId::kEnvExplicit);
    sel.cluster_env = static_cast<ClusterEnvId>(*id);
    return true;
  }
  const SlurmVerdict* slurm = slurm_verdict(c, flags, sel);
  if (!slurm) {
    c.fire(RuleId::kEnvSlurm);  // the SLURM check itself failed (unreadable SLURM_NTASKS)
    return false;
  }
  if (slurm->managing) {
    c.fire(RuleId::kEnvSlurm);
    c.note(DiagCode::kSlurmManaging);
    sel.cluster_env = ClusterEnvId::kSlurm;
    return true;
  }
  for (const auto& r : kDetectRules) {
    if (r.when(c)) {
      c.fire(r.id);
      sel.cluster_env = r.then;
      break;
    }
  }
  if (!sel.cluster_env) {
    c.fire(RuleId::kEnvLightning);
    sel.cluster_env = ClusterEnvId::kLightning;
  }
  if (!slurm->reason.empty()) {
    c.fire(RuleId::kEnvSlurmNotManaging);
    if (c.pol.fallbacks_warn)
      c.note(DiagCode::kSlurmNotManaging, {fld("ntasks", *c.env_var("SLURM_NTASKS")), fld("reason", slurm->reason),
                                           fld("environment", row(*sel.cluster_env).cls)});
  }
  return true;
}

}  // namespace accord::reference::detail
